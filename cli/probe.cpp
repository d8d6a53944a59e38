// `hml probe`: this machine's roofline, measured by hml.probe: the bandwidth of each memory level (triad
// over working sets from L1 to DRAM), its latency (a pointer chase) and the FMA peaks on every thread.
// `--save FILE` keeps it as a machine file, which --machine reads back in every command.
#include <algorithm>
#include <cctype>
#include <cstddef>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>
#include <CLI/CLI.hpp>

#include "commands.hpp"
#include "common.hpp"

import hml.c_kernel;
import hml.probe;

namespace hml_cli {

namespace {

struct probe_command_options {
  std::string smallest = "16KiB";
  std::string largest = "2GiB";
  unsigned threads = 0;
  std::string min_time = "100ms";
  unsigned repetitions = 3;
  std::string save;
  output_options output;
};

hml::probe_options probe_options_of(const probe_command_options& o) {
  const auto smallest = quantity_of<hml::data_size>("--smallest", o.smallest);
  const auto largest = quantity_of<hml::data_size>("--largest", o.largest);
  check_option("--smallest", [&] { hml::validate_probe_working_set(smallest); });
  check_option("--largest", [&] { hml::validate_probe_working_set(largest); });
  std::vector<hml::data_size> working_sets =
      check_option("--smallest, --largest", [&] { return hml::working_set_ladder(smallest, largest); });
  // The library runs more threads than CPUs if asked (the tests do); from the shell that is a mistake.
  if (o.threads > hml::available_threads()) {
    throw input_error("--threads: this process may run on " + std::to_string(hml::available_threads()) +
                      " hardware threads, not " + std::to_string(o.threads) +
                      "; give at most " + std::to_string(hml::available_threads()) + ", or 0 for all");
  }
  check_option("--repetitions", [&] { hml::validate_repetitions(o.repetitions); });
  const auto min_time = quantity_of<hml::duration>("--min-time", o.min_time);
  check_option("--min-time", [&] { hml::validate_min_time(min_time); });
  return {.working_sets = std::move(working_sets),
          .timing = {.threads = o.threads, .min_time = min_time, .repetitions = o.repetitions}};
}

// The machine as hierarchical-roofline ceilings: one per memory level, then the FMA peaks and the scalar chain.
hml::table ceilings_of(const hml::host_machine& m) {
  hml::table t{{"ceiling", "kind", "value", "unit", "smallest_working_set_B", "largest_working_set_B", "latency_s"},
               {}};
  for (std::size_t i = 0; i < m.levels.size(); ++i) {
    const hml::bandwidth_plateau& level = m.levels[i];
    t.add_row({std::string{level.ceiling.name}, "bandwidth", level.ceiling.bandwidth.value(), "B/s",
               level.smallest.value(), level.largest.value(), m.latency(i).value()});
  }
  for (const hml::compute_ceiling& c : {m.compute(), m.compute_fp32(), m.scalar_chain_compute()}) {
    t.add_row({std::string{c.name}, "compute", c.peak.value(), "FLOP/s", hml::no_value{}, hml::no_value{},
               hml::no_value{}});
  }
  return t;
}

std::string size_text(hml::data_size s) {
  return hml::to_string(s, {.number = hml::general(3), .prefixes = hml::prefix_system::binary});
}

std::string machine_text(const hml::host_machine& m) {
  hml::table levels{{"level", "working sets", "bandwidth (Schoenauer triad)", "latency"}, {}};
  for (std::size_t i = 0; i < m.levels.size(); ++i) {
    const hml::bandwidth_plateau& level = m.levels[i];
    levels.add_row({std::string{level.ceiling.name},
                    size_text(level.smallest) + " - " + size_text(level.largest),
                    hml::to_string(level.ceiling.bandwidth, {.number = hml::general(4)}),
                    hml::to_string(m.latency(i), {.number = hml::general(3)})});
  }
  return "this machine: " + counted(m.threads, "thread", "threads") + ", " + std::string{m.isa} + " kernels\n" +
         hml::format_table(levels) + "peak FP64 (FMA, all threads): " +
         hml::to_string(m.peak, {.number = hml::general(4)}) + "\npeak FP32 (FMA, all threads): " +
         hml::to_string(m.peak_fp32, {.number = hml::general(4)}) + "\none dependent scalar FMA chain per thread, summed over the threads: " +
         hml::to_string(m.scalar_chain, {.number = hml::general(4)}) + "\nroofline (DRAM): " + roof_text(m.roofline()) + "\n";
}

// The ECM file's cache levels are not the table's plateaus: said, so that a reader comparing the two
// figures knows why they differ.
std::string saved_levels_differ(const hml::machine_description& machine) {
  std::string caches;
  for (std::size_t i = 0; i + 1 < machine.memory.size(); ++i) {
    caches += (caches.empty() ? "" : ", ") + std::string{machine.memory[i].name} + " " +
              size_text(machine.memory[i].capacity.value);
  }
  return "'s levels are the caches the system reports (" + caches +
         "), each at the median Schoenauer triad sample inside it, per core and with its write-allocate line "
         "(x 5/4), and DRAM at the median sample beyond the last, all threads; the table's are the plateaus the "
         "samples show, all threads, 8 B an access";
}

// A machine file is written as JSON where its name ends .json (in either case), else as YAML.
bool saved_as_json(const std::string& path) { return hml::ascii_lowercase(path).ends_with(".json"); }

// --save and -o are two files: one given for both would keep only the table, and "-" would be a file of
// that name, where -o takes it for standard output. Refused before the probe runs its minutes.
void check_save(const probe_command_options& o, bool given) {
  if (!given) return;
  if (o.save == "-") throw input_error("--save: writes a file; - is not one (the table goes to standard output: -o)");
  if (o.save.starts_with('-'))  // `--save=-o`, `--save -x` (misread_argument refuses `--save -o`)
    throw input_error("--save: '" + o.save + "' looks like an option, not a file; give ./" + o.save + " for a file of that name");
  // A machine file is YAML, or JSON where the name says so: a name that says CSV or SVG is held to it as -o's is.
  check_output_format({.format = saved_as_json(o.save) ? "json" : "yaml", .formats = {}, .path = o.save}, "--save");
  // One file spelt two ways before it exists (./p.json, a link), hard-linked, or standard output's.
  const std::string table = o.output.path == "-" ? "/dev/stdout" : o.output.path;
  std::error_code error;
  if (hml::written_path(o.save) == hml::written_path(table) || std::filesystem::equivalent(o.save, table, error))
    throw input_error("--save, -o: both name " + o.save + "; give the machine file and the table each their own");
}

// A file the probe could not write is said before it measures, as every other command's is, not after its
// minutes: opened (an unnamed temporary, gone with it) and let go. A FIFO or a device is written in place.
void check_writable(std::string_view option, const std::string& path) {
  std::error_code error;
  const std::filesystem::file_status status = std::filesystem::status(path, error);
  if (path.empty() || path == "-" || (std::filesystem::exists(status) && !std::filesystem::is_regular_file(status) &&
                                      !std::filesystem::is_directory(status)))
    return;
  write_for_option(option, [&] { static_cast<void>(hml::atomic_file{path}); });
}

void run(const probe_command_options& o, bool save_given) {
  check_output_format(o.output);  // before the probe runs its minutes
  check_save(o, save_given);
  check_writable("--save", o.save);
  check_writable("--output", o.output.path);
  const hml::probe_options options = probe_options_of(o);
  const hml::host_machine m = hml::probe(options);
  const output_format format = o.output.chosen();
  std::optional<hml::atomic_file> saved;  // written before the table, committed after it: a failed -o leaves none
  if (!o.save.empty()) {
    // One machine file for every model: the ECM figures where the probe has them (a measured clock and a
    // sample inside every cache the system reports), else the levels it found; said in a note.
    hml::machine_description machine;
    std::string llvm_cpu;  // the machine views it
    try {
      machine = m.cpu();
      note(o.save + saved_levels_differ(machine));
      // Its core as LLVM names it, so that kernels in C take their in-core time from the compiled loop.
      try {
        llvm_cpu = hml::host_llvm_cpu();
        machine.llvm_cpu = llvm_cpu;
      } catch (const hml::ecm_file_error& e) {
        note(o.save + " names no LLVM CPU (" + std::string{e.what()} + "): kernels in C take the port model");
      }
    } catch (const std::invalid_argument& e) {
      machine = check_option("--save", [&] { return m.description(); });
      note(o.save + " has the levels the probe found and no ECM figures (" +
           std::string{hml::without_hml_prefix(e.what())} + ")");
    }
    // The slowest level probed is called DRAM: where it cannot be, the file says so, not only this run.
    std::string note_text{machine.note};
    if (const hml::data_size cache = hml::last_level_cache(); !(cache < options.working_sets.back())) {
      note_text += std::string{note_text.empty() ? "" : "; "} + "the level called DRAM is a cache: the largest working set, " +
                   size_text(options.working_sets.back()) + ", fit the last-level cache (" + size_text(cache) + ")";
      machine.note = note_text;
    }
    const bool json = saved_as_json(o.save);
    write_for_option("--save", [&] {
      saved.emplace(o.save);
      saved->write(hml::write_machine_file(machine, json ? hml::file_syntax::json : hml::file_syntax::yaml, {&hml::probe_source, 1}));
    });
  }
  emit(o.output, format == output_format::table ? machine_text(m) : render(ceilings_of(m), format));
  // Sets left out of every level before the first: the level they would be may be missing (the eighty-third
  // trial: at --min-time 1ms, L1's sets varied by more than a quarter and the table began at L2).
  if (const auto left_out = hml::sets_before_first_level(m.schoenauer_triad, m.levels))
    note(counted(left_out->count, "working set", "working sets") + " from " + size_text(left_out->span.smallest) + " to " +
         size_text(left_out->span.largest) + " fall in no level: from one to the next their bandwidths differ by more than a quarter "
         "(passes too short to hide the loop's start-up, or noise), so a level there may be missing; a longer --min-time steadies them");
  if (saved) write_for_option("--save", [&] { saved->commit(); });
  // The slowest level probed is called DRAM; say so when it cannot be.
  if (const hml::data_size cache = hml::last_level_cache(); !(cache < options.working_sets.back())) {
    std::fprintf(stderr, "hml: note: the largest working set, %s, fits the last-level cache (%s): the level called "
                 "DRAM is a cache; give --largest well beyond it\n", size_text(options.working_sets.back()).c_str(),
                 size_text(cache).c_str());
  }
}

}  // namespace

void add_probe_command(CLI::App& hml) {
  auto* command = hml.add_subcommand("probe", "measure this machine's roofline: bandwidth and latency per memory level, FMA peak");
  command->footer(
      "Example: hml probe                       (16 KiB to 2 GiB: about a minute)\n"
      "         hml probe --largest 64MiB --format json -o host.json\n"
      "         hml probe --save host.yaml; hml roofline --machine host.yaml --precision fp64 ...");
  auto o = std::make_shared<probe_command_options>();
  command->add_option("--smallest", o->smallest, "the smallest working set (all arrays, all threads)")
      ->type_name("SIZE")
      ->capture_default_str();
  command->add_option("--largest", o->largest, "the largest working set; make it well beyond the last cache")
      ->type_name("SIZE")
      ->capture_default_str();
  command->add_option("--threads", o->threads, "threads to run (0: one per hardware thread)")
      ->check(whole_number(0, hml::max_cores))
      ->capture_default_str();
  command->add_option("--min-time", o->min_time, "each repetition lasts at least this long (1 ms to 1 s)")
      ->type_name("TIME")
      ->capture_default_str();
  command->add_option("--repetitions", o->repetitions, "the best of this many repetitions counts")
      ->check(whole_number(1, hml::max_repetitions))
      ->capture_default_str();
  const CLI::Option* save = command->add_option("--save,--save-machine,--save-device", o->save,
                      "also write the machine as a machine file (YAML; JSON if FILE ends in .json; not .csv or .svg), every figure "
                      "measured, for --machine in every command; --save-machine and --save-device are its older "
                      "names, kept until the first release")
      ->type_name("FILE");
  add_output_options(*command, o->output);
  command->callback([o, save] { run(*o, save->count() > 0); });
}

}  // namespace hml_cli
