// A built-in CPU's ECM figures against its core, where this host is one: the catalog entry whose LLVM CPU is
// this host's (hml::host_llvm_cpu(); znver4: genoa_epyc_9654) predicts, from its own per-cycle paths and
// capacities, the Schoenauer triad, STREAM's triad and a copy written in C (examples/ecm), compiled as the
// in-core analysis compiles them for that CPU and run as that very code on one core (../ecm/c_program.hpp),
// with the arrays in L1, in L2 and in L3 (nine tenths, a half and a third of what the entry's layer
// conditions take of that level: the model's own "data in" that level). Cycles per cache line are the measured time at the clock the probe measures on this core.
// Beside each prediction, the same machine with its cache paths taken as not overlapping (every term summed,
// as Intel's cores are modelled) and as half duplex (lines in and out sharing the rate): what the entry's
// choice of overlapping, full-duplex paths rests on. Main memory is not compared: a core of a shared host
// sees neither the socket's bandwidth nor a core's alone. Where this host's core has no built-in entry the
// part leaves its section as it was. Writes the `ecm_core` section of benchmarks/README.md.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "../ecm/c_program.hpp"
#include "../host/bench_run.hpp"
#include "../markdown_row.hpp"
#include "../prediction_error.hpp"
#include "../scratch_directory.hpp"

import hml;
import hml.c_kernel;
import hml.probe;

namespace {

// The machine with every cache path changed by `change` (the alternatives the table sets beside it).
template <class Change>
hml::machine_description with_paths(hml::machine_description m, Change change) {
  for (std::size_t i = 1; i + 1 < m.memory.size(); ++i) change(m.memory[i].upstream);
  return m;
}

std::string cy(hml::cycles c) { return std::string{hml::format_number(hml::in(c, hml::cycle), hml::general(3)).view()}; }

std::string ecm_line(const hml::ecm_result& r, std::size_t terms) {
  std::string line = "{" + cy(r.core.overlapping) + " \\|\\| " + cy(r.core.non_overlapping);
  for (std::size_t i = 0; i < terms; ++i) line += " \\| " + cy(r.transfers[i].time);
  return line + "}";
}

struct kernel_file {
  std::string label;
  std::string file;
  double arrays;  // doubles of working set per element of N
};

std::string run(const hml::machine_description& entry, const std::string& host_cpu, bool tiny) {
  const hml::frequency clock = tiny ? 3.0 * hml::giga(hml::hertz) : hml::measure_clock();
  const hml::machine_description summed = with_paths(entry, [](hml::level_transfer& t) { t.overlaps = false; });
  const hml::machine_description half_duplex = with_paths(entry, [](hml::level_transfer& t) { t.full_duplex = false; });
  const std::vector<kernel_file> kernels{{"Schoenauer triad", "triad.c", 4}, {"STREAM triad", "stream-triad.c", 3},
                                         {"copy", "copy.c", 2}};
  const std::vector<double> share_of_level{0.9, 0.5, 0.35};
  const bench::scratch_directory folder{"hml-ecm-core"};
  std::string table = bench::markdown_row({"kernel", "data in", "ECM (cy/CL)", "predicted", "terms summed", "half duplex",
                                           "measured", "error", "target"});
  table += bench::markdown_row({"---", "---", "---", "---:", "---:", "---:", "---:", "---:", "---:"});
  std::size_t programs = 0;
  std::vector<std::size_t> within(share_of_level.size());  // rows within the target, per level
  std::vector<double> worst(share_of_level.size());        // the largest error, per level
  for (const kernel_file& k : kernels) {
    std::ifstream in{std::string{HML_SOURCE_DIR} + "/examples/ecm/" + k.file};
    const std::string text{std::istreambuf_iterator<char>{in}, {}};
    for (std::size_t level = 0; level < share_of_level.size() && level + 1 < entry.memory.size(); ++level) {
      const hml::data_size set = hml::layer_condition_capacity(entry, level, hml::traffic_options_of(entry)) * share_of_level[level];
      const auto n = std::max<std::int64_t>(64, static_cast<std::int64_t>(set / (8.0 * k.arrays * hml::byte)) / 64 * 64);
      const std::vector<hml::c_define> defines{{"N", n}};
      const hml::c_kernel_analysis c = hml::analyse_c_kernel(text, k.file, defines, entry.llvm_cpu, entry.cacheline_bytes);
      const hml::loop_kernel& kernel = c.kernel.kernel();
      const hml::ecm_result r = hml::ecm(kernel, entry, c.in_core.time);
      const bench::c_program program{c.in_core, folder.path(), "k" + std::to_string(programs++)};
      // Passes of L1-sized arrays are tens of nanoseconds: many between two readings of the clock.
      const unsigned repeat = level == 0 ? 1000 : level == 1 ? 20 : 2;
      const hml::duration pass = program.time(1, std::chrono::milliseconds{tiny ? 20 : 400}, repeat, !tiny);
      const hml::cycles measured = hml::to_cycles(pass, clock) / (static_cast<double>(n) / 8.0);
      const hml::duration measured_time = hml::to_duration(measured, clock);
      const double error = bench::error_percent(hml::to_duration(r.time, clock), measured_time);
      constexpr double target = 10;
      within[level] += error < target && error > -target ? 1 : 0;
      worst[level] = std::max(worst[level], error < 0 ? -error : error);
      table += bench::markdown_row(
          {k.label + " (" + k.file + ", N = " + std::to_string(n) + ")", std::string{entry.memory[level].name},
           ecm_line(r, level), cy(r.time), cy(hml::ecm(kernel, summed, c.in_core.time).time),
           cy(hml::ecm(kernel, half_duplex, c.in_core.time).time), cy(measured), bench::percent_text(error) + " %",
           std::string{error < target && error > -target ? "within " : "MISSES "} + bench::percent_text(target) + " %"});
    }
  }
  std::string verdict = "**";
  for (std::size_t level = 0; level < within.size(); ++level) {
    verdict += (level == 0 ? "" : "; ") + std::string{entry.memory[level].name} + ": " + std::to_string(within[level]) +
               " of " + std::to_string(kernels.size()) + " kernels within 10 % (largest error " +
               bench::percent_text(worst[level]) + " %)";
  }
  verdict += ".**";
  return "\nThe built-in `" + std::string{entry.id} + "` (" + std::string{entry.name} + ") against this host's core (LLVM: " +
         host_cpu + "), one core, its clock measured by the probe's chain: " +
         hml::to_string(clock, {.number = hml::general(4)}) +
         ". Each kernel in C is compiled as the in-core analysis compiles it for `" + std::string{entry.llvm_cpu} +
         "` and run as that very code; predicted and measured are cycles per cache line of work (8 iterations). "
         "Beside the entry's prediction, its machine with every cache path summed (no overlap) and with every "
         "cache path half duplex.\n\n" +
         table + "\n" + verdict + "\n";
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"a built-in CPU's ECM figures against its core, where this host is one"};
  std::string out;
  bool tiny = false;
  app.add_option("--out", out, "write the Markdown fragment to this file (default: stdout)");
  app.add_flag("--tiny", tiny,
               "tiny timings, kerncraft's Sandy Bridge whatever the host (its AVX code runs on every x86-64 host "
               "this project builds on): checks that the program runs");
  CLI11_PARSE(app, argc, argv);
  try {
    const std::string host_cpu = tiny ? std::string{hml::cpus::sandy_bridge_ep_e5_2680.llvm_cpu} : hml::host_llvm_cpu();
    const hml::machine_description* entry = nullptr;
    for (const hml::machine_description* m : hml::cpus::all) {
      if (m->llvm_cpu == host_cpu) entry = m;
    }
    if (entry == nullptr) {
      std::printf("ecm_core: this host's core (LLVM: %s) has no built-in entry; its section is left as it was\n",
                  host_cpu.c_str());
      return 0;
    }
    const std::string fragment = run(*entry, host_cpu, tiny);
    if (out.empty()) {
      std::fputs(fragment.c_str(), stdout);
    } else {
      hml::write_file_atomically(out, fragment);
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "ecm_core: error: %s\n", e.what());
    return 1;
  }
  return 0;
}
