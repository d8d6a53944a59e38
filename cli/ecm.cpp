// `hml ecm`: a loop kernel on a CPU by the Execution-Cache-Memory model: the ECM line in cy/CL, the
// prediction for data in each level, the scaling over cores with the saturation point, and the roofline of
// the same kernel beside it. The machine is a catalog machine or a machine file (docs/reference/
// machine-file.md); the kernel is one of the built-in loop kernels by name, a C file in kerncraft's subset
// (read by hml.c_kernel, with -D for its sizes) or a YAML kernel file.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>
#include <CLI/CLI.hpp>

#include "commands.hpp"
#include "common.hpp"

import hml.c_kernel;
import hml.probe;  // hml::probe_source: a machine file the probe wrote

namespace hml_cli {

namespace {

struct ecm_options {
  std::string machine;
  std::string figures;  // add_figures_option sets its default
  std::string kernel;
  std::vector<std::string> defines;  // -D NAME=VALUE, for a C kernel
  bool size_given = false;
  std::int64_t size = 100'000'000;
  std::int64_t rows = 1000;
  bool rows_given = false;
  unsigned cores = 0;
  std::optional<double> t_ol;
  std::optional<double> t_nol;
  bool inclusive_caches = false;
  output_options output;
};

constexpr std::int64_t stencil_row_default = 2000;
// The least elements of a built-in kernel (a vector's line of doubles) and rows of stencil2d5 (its stencil's).
constexpr std::int64_t least_size = 8;
constexpr std::int64_t least_rows = 3;
constexpr auto most_elements = static_cast<std::int64_t>(hml::max_array_elements);
constexpr std::string_view kernel_names = "triad, add, schoenauer, copy, copy-nt, update, scalar-product, stencil2d5";

std::optional<hml::loop_kernel> builtin_kernel(std::string_view name, std::int64_t size, std::int64_t rows) {
  using namespace hml::kernels;
  if (name == "triad") return stream_triad(size);
  if (name == "add") return vector_add(size);
  if (name == "schoenauer") return schoenauer_triad(size);
  if (name == "copy") return copy(size);
  if (name == "copy-nt") return copy(size, hml::store_kind::non_temporal);
  if (name == "update") return update(size);
  if (name == "scalar-product") return scalar_product(size);
  if (name == "stencil2d5") return stencil2d5(rows, size);
  return std::nullopt;
}

std::string read_text(std::string_view option, const std::string& path, std::string& name) {
  constexpr std::size_t largest_file = std::size_t{1} << 20;  // a machine or kernel file is a few KiB
  input_file input{option, path};
  name = path == "-" ? "standard input" : path;
  return input.read_whole(largest_file);
}

std::vector<hml::c_define> defines_of(const ecm_options& o) {
  std::vector<hml::c_define> defines;
  for (const std::string& d : o.defines) {
    try {
      defines.push_back(hml::parse_c_define(d));
    } catch (const hml::ecm_file_error& e) {
      throw input_error(std::string{"-D: "} + e.what());
    }
  }
  try {
    hml::check_c_defines(defines);
  } catch (const hml::c_define_error& e) {
    throw input_error(std::string{"-D: "} + e.what());
  }
  return defines;
}

// Where the in-core times came from, in a word or the compiler's command.
std::string in_core_source(const ecm_options& o, const std::optional<hml::compiled_in_core>& compiled) {
  if (o.t_ol) return "--t-ol, --t-nol";
  return compiled ? compiled->compiler + ", LLVM-MCA " + compiled->llvm_cpu : std::string{"port model"};
}

// The catalog's CPUs, which the ECM model takes as they are: "snb_e5_2680, hsw_e5_2695v3, ...".
std::string cpu_ids() {
  std::string ids;
  for (const hml::machine_description* m : hml::cpus::all) ids += (ids.empty() ? "" : ", ") + std::string{m->id};
  return ids;
}

std::string cy(hml::cycles c) { return std::string{hml::format_number(hml::in(c, hml::cycle), hml::general(3)).view()}; }

// A whole count in full digits (57454430 cores); past 10^15, where a double's digits run out, in 6.
std::string whole_count(double n) {
  return n < 1e15 ? std::to_string(static_cast<std::uint64_t>(n)) : std::string{hml::format_number(n, hml::general(6)).view()};
}
std::string rate(hml::compute_rate r) { return hml::to_string(r, {.number = hml::general(4)}); }

// Each cache's layer condition as the model takes it: the share of the cache that may hold reuse, what the
// reuse it keeps needs of it, how many of the kernel's reuse distances it keeps, and the lines that then
// cross to the next level per cache line of work.
std::string layer_conditions(const hml::ecm_result& r, const hml::machine_description& c) {
  const hml::traffic_options options = hml::traffic_options_of(c);
  const hml::cache_traffic& traffic = r.traffic;
  const auto size = [](hml::data_size s) {
    return hml::to_string(s, {.number = hml::general(4), .prefixes = hml::prefix_system::binary});
  };
  hml::table t{{"cache", "usable", "reuse needs", "reuse kept", "lines in", "lines out"}, {}};
  for (std::size_t i = 0; i < traffic.levels.size(); ++i) {
    const hml::level_traffic& l = traffic.levels[i];
    const std::string kept = l.fully_cached ? "all arrays fit"
                             : l.reuses == 0 ? "no reuse"
                                             : std::to_string(l.hits) + " of " + std::to_string(l.reuses) +
                                                   (l.layer_condition ? " (condition holds)" : "");
    t.add_row({std::string{l.level}, size(hml::layer_condition_capacity(c, i, options)),
               l.hits > 0 || l.fully_cached ? size(l.requirement) : std::string{"-"}, kept,
               static_cast<double>(l.loads + l.write_allocates), static_cast<double>(l.evictions + l.clean_victims)});
  }
  std::string victims;
  for (std::size_t i = 1; i < traffic.levels.size(); ++i) {
    if (!c.memory[i].victim) continue;
    const std::string inner{c.memory[i - 1].name};
    victims += std::string{c.memory[i].name} + " is a victim cache of " + inner + ": reuse is kept in both (usable), " +
               inner + "'s other misses load past it, and every line " + inner + " evicts, clean or dirty, goes into it\n";
  }
  return "\nlayer conditions (reuse kept in " + hml::percent_text(100 * options.layer_condition_share) +
         " of each cache, the machine's share; lines per CL):\n" + hml::format_table(t) + victims;
}
std::string ecm_line(const hml::ecm_result& r) {
  std::string line = "{" + cy(r.core.overlapping) + " || " + cy(r.core.non_overlapping);
  for (const hml::transfer_term& t : r.transfers) line += " | " + cy(t.time);
  return line + "} cy/CL";
}

// Where the in-core time came from, and for a compiled loop what LLVM-MCA found, per cache line.
std::string in_core_lines(const ecm_options& o, const std::optional<hml::compiled_in_core>& compiled) {
  if (o.t_ol) return "in-core: " + in_core_source(o, compiled) + "\n";  // given: said whatever the kernel
  if (!o.kernel.ends_with(".c")) return {};  // the built-in and YAML kernels' port model: as it was
  if (!compiled) return "in-core: the port model (the machine names no LLVM CPU: llvm_cpu in its file)\n";
  const hml::compiled_in_core& x = *compiled;
  std::string out = "in-core: " + in_core_source(o, compiled) + "; " +
                    std::to_string(x.iterations_per_pass()) + " iterations a pass (vector width " +
                    std::to_string(x.vector_width) + ", interleave " + std::to_string(x.interleave) + ", unroll " +
                    std::to_string(x.unroll) + "), " +
                    std::to_string(x.loop_body.size()) + " instructions\n";
  std::string overlapping;
  std::string loads;
  for (const hml::port_cycles& p : x.ports) {
    if (!(p.busy.value() > 0)) continue;
    std::string& list = p.loads ? loads : overlapping;
    list += (list.empty() ? "" : ", ") + p.name + " " + cy(p.busy);
  }
  out += "  ports, cy/CL: " + (overlapping.empty() ? std::string{"-"} : overlapping) + " | loads: " +
         (loads.empty() ? std::string{"-"} : loads) + "; simulated " + cy(x.simulated) + "\n";
  return out;
}

// The shortest row of stencil2d5 whose rows its inner loop reaches a line of (hml::array_of_short_rows), on
// a machine of this line: 9 doubles on 64-B lines.
std::int64_t least_stencil_row(std::size_t cacheline_bytes) {
  std::int64_t row = least_size;
  while (row < most_elements &&
         hml::array_of_short_rows(hml::kernels::stencil2d5(least_rows, row), cacheline_bytes) < 2) ++row;
  return row;
}

// stencil2d5's arrays are --rows x --size, at most an array's elements: said with the most of the option the
// user gave, and the other's value where it is the default.
void refuse_oversized_stencil(const ecm_options& o) {
  const std::int64_t row = o.size_given ? o.size : stencil_row_default;
  if (o.rows <= most_elements / row) return;
  const std::string rows = std::to_string(o.rows) + (o.rows_given ? " rows" : " rows (--rows, the default)");
  const std::string of = std::to_string(row) + (o.size_given ? " elements" : " elements (--size, stencil2d5's default)");
  // Fewer rows where they were given and a stencil's 3 remain, else shorter rows.
  const bool fewer_rows = o.rows_given && most_elements / row >= least_rows;
  const std::string most = fewer_rows ? "--rows at most " + std::to_string(most_elements / row) +
                                            (o.size_given ? " for rows of " + std::to_string(row) + " elements" : "")
                                      : "--size at most " + std::to_string(most_elements / o.rows);
  throw input_error(std::string{o.rows_given && o.size_given ? "--size, --rows" : o.rows_given ? "--rows" : "--size"} + ": " + rows +
                    " of " + of + " are more than an array's 2^36 elements; give " + most);
}

// A cache's bandwidth, where its path has no upstream rate, stands for one core's path into the level inside
// (as hml probe writes it): in B a cycle where that is more than a core moves (the whole chip's figure, a
// shared L3's datasheet rate, a GPU's L2, would make its term vanish), else none.
std::optional<double> chip_wide_path(const hml::machine_description& m, std::size_t i) {
  const hml::level_description& l = m.memory[i];
  if (l.upstream.rate.published() || !l.bandwidth.published() || !m.clock.published()) return std::nullopt;
  const double path = hml::in(hml::per_cycle(l.bandwidth.value, m.clock.value), hml::byte_per_cycle);
  return path > hml::most_bytes_per_core_cycle ? std::optional{path} : std::nullopt;
}

// What a catalog machine lacks that the ECM model needs, all of it: an entry cannot be edited, so a user
// writes a machine file from it and learns at once what to add, not one thing a run.
std::vector<std::string> ecm_gaps(const hml::machine_description& m, bool cores_given) {
  std::vector<std::string> gaps;
  const auto& levels = m.memory;
  // A path's rate into the level inside, `into`: none, or the chip's bandwidth where a core's is taken.
  const auto path_rate = [&](std::size_t i, const std::string& into) {
    const hml::level_description& l = levels[i];
    if (!hml::has_path_rate(m, i))
      gaps.push_back(std::string{l.name} + "'s rate into " + into);
    else if (chip_wide_path(m, i))
      gaps.push_back(std::string{l.name} + "'s rate into " + into + " as one core's (its bandwidth, " + quantity_text(l.bandwidth.value) +
                     ", is more than a core moves)");
    else if (!l.upstream.rate.published() && !m.clock.published())  // whether it is, the clock will tell
      gaps.push_back(std::string{l.name} + "'s rate into " + into + " as one core's (its bandwidth, " + quantity_text(l.bandwidth.value) +
                     ", may be the whole chip's)");
  };
  // Caches: the levels before main memory but those addressable (memory beside it, flat mode, placed by software).
  const bool caches = levels.size() >= 2 && std::any_of(levels.begin(), levels.end() - 1, [](const hml::level_description& l) { return !l.addressable; });
  if (!caches) {
    gaps.push_back(levels.size() < 2 ? "its caches (it describes main memory alone)"
                                     : "its caches (it describes memory alone: " + std::string{levels[0].name} +
                                           " is memory beside main memory, flat mode)");
  } else {
    if (levels[0].scope == hml::sharing::shared && m.cores != 1) {
      gaps.push_back("its caches from L1 (its first level, " + std::string{levels[0].name} + ", is shared by the cores)");
      path_rate(0, "the level inside it");
    }
    for (std::size_t i = 0; i + 1 < levels.size(); ++i) {
      if (levels[i].addressable) gaps.push_back("no " + std::string{levels[i].name} + " (memory beside main memory, flat mode, not a cache)");
      else if (!levels[i].capacity.published()) gaps.push_back(std::string{levels[i].name} + "'s capacity");
      if (i > 0) path_rate(i, std::string{levels[i - 1].name});
    }
  }
  if (!m.clock.published()) gaps.emplace_back("a clock (it counts cycles)");
  if (m.cores == 0 && !cores_given) gaps.emplace_back("a core count");
  return gaps;
}

void refuse_catalog_gaps(const ecm_options& o, const hml::machine_description& m) {
  const std::vector<std::string> gaps = ecm_gaps(m, o.cores != 0);
  if (gaps.empty()) return;
  std::string needs;
  for (std::size_t i = 0; i < gaps.size(); ++i) needs += (i == 0 ? "" : i + 1 == gaps.size() ? " and " : ", ") + gaps[i];
  throw input_error("--machine: " + o.machine + ": the ECM model needs " + needs + ", which this catalog entry does not state; give a "
                    "machine file with " + (gaps.size() == 1 ? "it" : "them") + " (`hml devices " + o.machine +
                    " --format yaml` writes one to edit)");
}

void run(const ecm_options& o) {
  // The machine: from the catalog, or a machine file; it needs what the ECM model takes (a clock, cache
  // sizes, a rate for every path).
  machine_files files;
  files.use(figures_basis(o.figures));
  files.take_stream_mixes();
  const hml::machine_description* machine = &files.machine("--machine", o.machine);
  if (hml::find_machine(o.machine) != nullptr) refuse_catalog_gaps(o, *machine);
  // A probe's file without the ECM model's figures lacks them all (its sets stopped short of main memory, or no clock):
  // the fix is the probe run again, not one field.
  if (const hml::figure<hml::data_rate>& memory = hml::main_memory(*machine).bandwidth;
      !machine->clock.published() && memory.published() && memory.source == hml::probe_source.key)
    throw input_error("--machine: " + o.machine + ": hml probe wrote it without the ECM model's figures (the caches' capacities and "
                      "rates, the clock), as it noted then; probe again with working sets past four times the last cache (the "
                      "default --largest, 2 GiB) and --save");
  // A file's faults, each named with its field (a catalog entry's are said above, all at once). A level
  // marked addressable is memory beside main memory (flat-mode HBM), placed by software: the ECM model's lines
  // pass through caches only (data in DDR was charged an HBM term).
  for (std::size_t i = 0; i + 1 < machine->memory.size(); ++i) {
    if (machine->memory[i].addressable)
      throw input_error("--machine: " + files.where(o.machine, *machine, "memory[" + std::to_string(i) + "].addressable") + ": " +
                        std::string{machine->memory[i].name} + " is memory beside main memory (flat mode), which the ECM model's "
                        "lines do not pass through; leave it out, or describe it as a cache (cache mode: addressable: false)");
  }
  // A cache level without a capacity: main memory listed first reads as one.
  for (std::size_t i = 0; i + 1 < machine->memory.size(); ++i) {
    if (machine->memory[i].capacity.published()) continue;
    // A cache outside it states one (main memory, the last level, aside).
    const bool sized_after = std::any_of(machine->memory.begin() + static_cast<std::ptrdiff_t>(i) + 1, machine->memory.end() - 1,
                                         [](const hml::level_description& l) { return l.capacity.published(); });
    throw input_error("--machine: " + files.where(o.machine, *machine, "memory[" + std::to_string(i) + "].capacity") + ": " +
                      std::string{machine->memory[i].name} + " states none: the ECM model needs every cache level's, all but the last level (main "
                      "memory)" + (sized_after ? "; give its capacity, or, if it is main memory, list it last (memory runs fastest first)"
                                             : "; give its capacity"));
  }
  if (machine->memory.size() < 2)
    throw input_error("--machine: " + files.where(o.machine, *machine, "memory") + ": holds main memory alone, and the ECM model needs "
                      "a cache level and main memory; describe the caches from L1, main memory last");
  if (!machine->clock.published())
    throw input_error("--machine: " + o.machine + ": states no clock, which the ECM model needs (it counts cycles); give the cores' clock "
                      "(clock: 2.7 GHz)");
  // validate_ecm's rule for the fastest level, said of the file's field (a level's scope is shared unless
  // it says otherwise).
  if (const hml::level_description& first = machine->memory[0];
      first.scope == hml::sharing::shared && machine->cores != 1 && machine->memory.size() >= 2)
    throw input_error("--machine: " + files.where(o.machine, *machine, "memory[0].scope") + ": " + std::string{first.name} +
                      " is shared by the cores, and the ECM model starts in each core's own first cache; describe each core's own "
                      "caches inside it, or, if it is each core's own, give it scope: per core");
  // The scaling table goes up to the chip's cores: without a count it would stop at one without a word.
  if (machine->cores == 0 && o.cores == 0)
    throw input_error("--machine: " + o.machine + ": states no core count, which the ECM's scaling table goes up to; give its cores "
                      "(cores: 40), or --cores");
  check_option("--machine", [&] { hml::validate_ecm(*machine); });
  const hml::machine_description inclusive = hml::inclusive_caches(*machine);
  if (o.inclusive_caches) machine = &inclusive;
  // Every path between two caches has a rate: the outer level's per-cycle rate, else its bandwidth (main
  // memory's may come from its stream mixes). Said here, naming the level, rather than when a kernel's
  // transfer term asks for it.
  for (std::size_t i = 1; i + 1 < machine->memory.size(); ++i) {
    const hml::level_description& l = machine->memory[i];
    if (!hml::has_path_rate(*machine, i))  // --figures stated sets a measured bandwidth aside: said so
      throw input_error("--machine: " + files.where(o.machine, *machine, "memory[" + std::to_string(i) + "].upstream") + ": " +
                        std::string{l.name} + " gives no rate for its path into " + std::string{machine->memory[i - 1].name} +
                        (l.measured_bandwidth.published() ? " but its measured bandwidth, which --figures stated sets aside; give it an "
                                                            "upstream rate (B/cy) or a bandwidth, or take the measured one (--figures measured)"
                                                          : "; give it an upstream rate (B/cy) or a bandwidth"));
    // A cache's bandwidth stands for the path as one core's (as hml probe writes it); the whole chip's figure
    // (a shared L3's datasheet rate, a GPU's L1) would make its term vanish.
    if (const std::optional<double> path = chip_wide_path(*machine, i)) {
      // The figure the run takes: the file's measured_bandwidth where it gives one (--figures measured).
      const bool measured = l.measured_bandwidth.published() && l.bandwidth.value == l.measured_bandwidth.value;
      throw input_error("--machine: " + files.where(o.machine, *machine, "memory[" + std::to_string(i) + "]." +
                                                                            (measured ? "measured_bandwidth" : "bandwidth")) + ": " +
                        std::string{l.name} + "'s bandwidth " + quantity_text(l.bandwidth.value) + " is " +
                        std::string{hml::format_number(*path, hml::general(4)).view()} + " B a cycle at " +
                        quantity_text(machine->clock.value) + ", which the ECM model takes as one core's path into " +
                        std::string{machine->memory[i - 1].name} + ", and a core moves at most 1024 B a cycle; give one core's "
                        "bandwidth, or the path's upstream rate (B/cy)");
    }
  }
  // The kernel: a built-in one by name, else a file in C or YAML.
  if (o.rows_given && o.kernel != "stencil2d5") {
    throw input_error("--rows: only --kernel stencil2d5 has rows; leave --rows out, or give --kernel stencil2d5");
  }
  // A built-in kernel's least sizes, once --size and --rows are known to apply: stencil2d5's rows reach a
  // line at least (the ECM's streams run along rows), a length that depends on the machine's line.
  if (builtin_kernel(o.kernel, least_size, least_rows)) {
    const bool stencil = o.kernel == "stencil2d5";
    const std::int64_t least_row = stencil ? least_stencil_row(machine->cacheline_bytes) : least_size;
    // The options' own check, with its least now: one wording for a count out of its range. Its most is what
    // the other extent leaves (stencil2d5's rows x row at most 2^36; past it, refuse_oversized_stencil says so).
    // Where the other extent leaves less than the least, the other is told its most too.
    const auto at_least = [](std::string_view option, std::int64_t given, std::int64_t least, std::int64_t most, std::string_view other) {
      if (given >= least) return;
      std::string text = std::to_string(given);
      if (most < least)
        throw input_error(std::string{option} + ": '" + text + "' is below " + std::to_string(least) + "; give " + std::string{option} + " " +
                          std::to_string(least) + " or more, and " + std::string{other} + " at most " + std::to_string(most_elements / least));
      throw input_error(std::string{option} + ": " + whole_number(static_cast<std::uint64_t>(least), static_cast<std::uint64_t>(most))(text));
    };
    if (o.size_given)
      at_least("--size", o.size, least_row, stencil ? most_elements / std::max<std::int64_t>(o.rows, 1) : most_elements, "--rows");
    if (o.rows_given)
      at_least("--rows", o.rows, least_rows, most_elements / (o.size_given ? std::max(o.size, least_row) : stencil_row_default), "--size");
  }
  if (o.kernel == "stencil2d5") refuse_oversized_stencil(o);
  std::optional<hml::loaded_kernel> loaded_kernel;
  std::optional<hml::loop_kernel> kernel =
      check_option(o.kernel == "stencil2d5" ? "--size, --rows" : "--size", [&] {
        // The 1-D kernels' default length is no row length: 10^8 x 1000 rows is past an array's 2^36 elements.
        const std::int64_t size = o.kernel == "stencil2d5" && !o.size_given ? stencil_row_default : o.size;
        std::optional<hml::loop_kernel> k = builtin_kernel(o.kernel, size, o.rows);
        if (k) hml::validate(*k);
        if (k) note_file_passed_over("--kernel", o.kernel, "the built-in kernel");
        return k;
      });
  const bool from_c = o.kernel.ends_with(".c");
  if (o.t_ol.has_value() != o.t_nol.has_value())
    throw input_error("--t-ol, --t-nol: one in-core time given without the other; give both, or neither (then the compiled loop's or the port model's)");
  for (const auto& [option, cycles] : {std::pair{"--t-ol", o.t_ol}, std::pair{"--t-nol", o.t_nol}})
    if (cycles && !(*cycles >= 0)) throw input_error(std::string{option} + ": a negative number of cycles; give cycles >= 0");
  // A kernel in C on a machine that names its LLVM CPU takes its in-core time from the compiled loop.
  const bool compile = from_c && !o.t_ol && !machine->llvm_cpu.empty();
  std::optional<hml::compiled_in_core> compiled;
  const std::vector<hml::c_define> defines = defines_of(o);
  // (A kernel that is no built-in is said to be unknown or unreadable first: that, not -D, is the slip.)
  const auto refuse_defines = [&] {
    if (!o.defines.empty() && !from_c) throw input_error("-D: only a kernel in C takes -D; give --kernel FILE.c, or leave -D out");
  };
  if (kernel) refuse_defines();
  if (from_c && (o.size_given || o.rows_given))
    throw input_error(std::string{o.size_given ? "--size" : "--rows"} +
                      ": a kernel in C states its sizes; give the names it uses with -D NAME=VALUE");
  if (!kernel) {
    // A file of that name (a link that leads nowhere too, which reading it would say) is named ./NAME to be read.
    if (o.kernel.find('.') == std::string::npos && o.kernel.find('/') == std::string::npos && o.kernel != "-")
      throw input_error("--kernel: no kernel named \"" + hml::message_text(o.kernel) + "\"; built in: " + std::string{kernel_names} +
                        ", or a kernel file in C (.c) or YAML" +
                        (machine_files::is_there(o.kernel) ? " (a file's name has a . or a /: ./" + o.kernel + ")" : ""));
    // A C kernel is named after its file, and every message names the file: its name must print as itself.
    if (!hml::is_printable_utf8(o.kernel))
      throw input_error("--kernel: the file's name has " + hml::unprintable_part(o.kernel) + "; rename the file");
    std::string kernel_file;
    const std::string kernel_text = read_text("--kernel", o.kernel, kernel_file);
    refuse_defines();
    // A kernel file's loops give its extents (said once the file is read: a misspelt built-in is its own fault).
    if (o.size_given)
      throw input_error("--size: a kernel file states its sizes (its loops' extents); give them there, or leave --size out");
    try {
      if (compile) {  // read once for the kernel and for its compiled loop
        hml::c_kernel_analysis analysis =
            hml::analyse_c_kernel(kernel_text, kernel_file, defines, machine->llvm_cpu, machine->cacheline_bytes);
        loaded_kernel.emplace(std::move(analysis.kernel));
        compiled = std::move(analysis.in_core);
      } else {
        loaded_kernel.emplace(from_c ? hml::read_kernel_c(kernel_text, kernel_file, defines)
                                     : hml::read_kernel_yaml(kernel_text, kernel_file));
      }
    } catch (const hml::c_define_error& e) {
      throw input_error(std::string{"-D: "} + e.what());
    } catch (const hml::ecm_file_error& e) {
      // A CPU clang does not know is the machine's llvm_cpu, however well formed its name (it is the one -march).
      const std::string what = e.what();
      if (compile && what.find("unknown target CPU '" + std::string{machine->llvm_cpu} + "'") != std::string::npos)
        throw input_error("--machine: " + files.where(o.machine, *machine, "llvm_cpu") + ": clang knows no CPU '" + std::string{machine->llvm_cpu} +
                          "'; give one `clang -print-supported-cpus` lists (x86: skylake-avx512, znver4, ...)");
      // C read as YAML (from standard input, or a file named otherwise) fails as YAML: say how C is read.
      const bool c_loops = !from_c && (kernel_text.find("for (") != std::string::npos || kernel_text.find("for(") != std::string::npos ||
                                       kernel_text.starts_with("#include") || kernel_text.starts_with("#define"));
      throw input_error("--kernel: " + what + (c_loops ? "; a kernel in C is read from a file whose name ends in .c" : ""));
    }
    kernel = loaded_kernel->kernel();
  }
  const hml::machine_description& c = *machine;
  if (const std::size_t a = hml::array_of_short_rows(*kernel, c.cacheline_bytes); a < kernel->arrays.size()) {
    const hml::kernel_array& x = kernel->arrays[a];
    const std::size_t inner = kernel->dimensions - 1;
    throw input_error("--kernel: " + o.kernel + ": " + std::string{x.name} + ": the innermost loop reaches " +
                      std::to_string(hml::reach(*kernel, a, inner) * static_cast<std::int64_t>(x.element_bytes)) +
                      " B of each " + std::to_string(x.extents[inner] * static_cast<std::int64_t>(x.element_bytes)) +
                      "-B row, less than a " + std::to_string(c.cacheline_bytes) +
                      "-B cache line: the ECM model's streams run along contiguous rows (as kerncraft's layer "
                      "conditions do); loop over whole rows, or describe the lines the rows touch as an array");
  }
  // The scaling table runs over the chip's cores: past them there is no core to add.
  if (o.cores > 0 && c.cores > 0 && o.cores > c.cores)
    throw input_error("--cores: " + std::to_string(o.cores) + " is more than the " + std::to_string(c.cores) + (c.cores == 1 ? " core" : " cores") +
                      " of " + std::string{c.name} + " (the scaling table stops at the machine's cores); give --cores " +
                      std::to_string(c.cores) + " or fewer");
  const unsigned cores = o.cores > 0 ? o.cores : c.cores;
  const std::optional<hml::in_core_time> core =
      o.t_ol ? std::optional{hml::in_core_time{*o.t_ol * hml::cycle, *o.t_nol * hml::cycle}}
             : (compiled ? std::optional{compiled->time} : std::nullopt);
  const hml::ecm_result r = check_option("--kernel", [&] { return core ? hml::ecm(*kernel, c, *core) : hml::ecm(*kernel, c); });
  // With data in L1 the prediction is the in-core time alone, and every other level's is at least that.
  if (!(r.predictions[0].value() > 0))
    throw input_error("--t-ol, --t-nol: both 0 would run the kernel in L1 in no time; give an in-core time > 0");
  const hml::frequency clock = c.clock.value;
  const bool has_roof = hml::has_flop_precision(*kernel) && hml::has_roof(c, hml::flop_precision(*kernel));
  const std::optional<hml::roofline_point> roof =
      has_roof && r.flop_per_cacheline > 0 ? std::optional{hml::roofline_beside(*kernel, r, c)} : std::nullopt;
  const std::optional<hml::roof> beside = roof ? std::optional{hml::roof_beside(*kernel, r, c)} : std::nullopt;  // its roof
  // The ECM counts the FLOP the source writes; a compiled loop that hoists loop-invariant arithmetic, or an
  // in-core time given short, runs them faster than the core can: said, not hidden (648 GFLOP/s beside 172.8).
  if (const hml::compute_rate on_all = hml::performance(r, cores, clock); beside && on_all > beside->peak * (1 + 1e-9))
    note("--kernel: the ECM's " + rate(on_all) + " on " + std::to_string(cores) +
         " cores is above the " + rate(beside->peak) + " peak: it counts the " +
         std::string{hml::format_number(r.flop_per_cacheline / r.iterations_per_cacheline, hml::general(4)).view()} +
         " FLOP an iteration the source writes, more than " +
         (o.t_ol ? std::string{"--t-ol and --t-nol leave time for"} : "the compiled loop runs (loop-invariant arithmetic hoisted?)"));

  const output_format format = o.output.chosen();
  if (format != output_format::table) {
    std::vector<std::string> columns{"kernel", "machine", "cores", "t_ol_cy", "t_nol_cy"};
    for (const hml::transfer_term& x : r.transfers)
      columns.push_back("t_" + std::string{x.inner} + "_" + std::string{x.outer} + "_cy");
    for (const std::string name : {"t_ecm_cy", "saturation_cores", "chip_cy_per_cl", "iterations_per_s", "flop_per_s",
                                   "roofline_flop_per_s"})
      columns.push_back(name);
    // The predictions per level, the ECM's and the single-core Roofline's, and where the in-core time came from.
    for (std::size_t i = 0; i < r.predictions.size(); ++i) columns.push_back("ecm_" + std::string{c.memory[i].name} + "_cy");
    for (std::size_t i = 0; i < r.predictions.size(); ++i)
      columns.push_back("roofline_" + std::string{c.memory[i].name} + "_cy");
    columns.push_back("in_core_from");
    // A row a core count, written as it is made.
    output_stream out{o.output};
    row_stream rows{columns, format, out};
    for (unsigned n = 1; n <= cores; ++n) {
      std::vector<hml::cell> row{std::string{r.kernel}, std::string{c.name}, static_cast<double>(n),
                                 hml::in(r.core.overlapping, hml::cycle), hml::in(r.core.non_overlapping, hml::cycle)};
      for (const hml::transfer_term& x : r.transfers) row.emplace_back(hml::in(x.time, hml::cycle));
      row.emplace_back(hml::in(r.time, hml::cycle));
      // No line from memory: no saturation, empty (null), not 0 cores.
      row.emplace_back(r.saturation_cores > 0 ? hml::cell{r.saturation_cores} : hml::cell{hml::no_value{}});
      row.emplace_back(hml::in(hml::chip_time(r, n), hml::cycle));
      row.emplace_back(hml::iterations_per_second(r, n, clock));
      row.emplace_back(hml::performance(r, n, clock).value());
      row.emplace_back(roof ? hml::cell{roof->attainable.value()} : hml::cell{hml::no_value{}});
      for (const hml::cycles p : r.predictions) row.emplace_back(hml::in(p, hml::cycle));
      for (std::size_t i = 0; i < r.predictions.size(); ++i) row.emplace_back(hml::in(hml::roofline_prediction(r, i), hml::cycle));
      row.emplace_back(in_core_source(o, compiled));
      rows.add(row);
    }
    rows.finish();
    return;
  }

  std::string out = std::string{r.kernel} + " on " + std::string{c.name} + ", " +
                    hml::to_string(clock, {.number = hml::general(4)}) + ", " + counted(cores, "core", "cores") + "\n";
  out += in_core_lines(o, compiled);
  out += "ECM " + ecm_line(r) + " = " + cy(r.time) + " cy/CL (" +
         std::string{hml::format_number(r.iterations_per_cacheline, hml::general(3)).view()} + " iterations per CL)\n";
  hml::table levels{{"data in", "cy/CL", "per core", "Roofline cy/CL"}, {}};
  for (std::size_t i = 0; i < r.predictions.size(); ++i) {
    const std::string where = std::string{c.memory[i].name};
    const hml::cycles t = r.predictions[i];
    levels.add_row({where, std::string{cy(t)},
                    t.value() > 0 ? hml::rate_text(hml::iterations_per_second(r, t, clock), "It/s") : std::string{"-"},
                    cy(hml::roofline_prediction(r, i))});
  }
  out += "\n" + hml::format_table(levels);
  out += layer_conditions(r, c);
  out += r.saturation_cores > 0
             ? std::string{r.saturation_cores > cores ? "\nmemory would saturate" : "\nmemory saturates"} +
                   " at n_s = ceil(" + cy(r.time) + " / " + cy(r.transfers.back().time) + ") = " +
                   whole_count(r.saturation_cores) + (r.saturation_cores == 1 ? " core" : " cores") +
                   (r.saturation_cores > cores ? ", more than the " + std::to_string(cores) + " here" : std::string{}) + "\n"
             : "\nno line comes from main memory: no saturation\n";
  hml::table scaling{{"cores", "cy/CL (chip)", "iterations/s", "FLOP/s"}, {}};
  for (unsigned n = 1; n <= cores; ++n) {
    scaling.add_row({static_cast<double>(n), cy(hml::chip_time(r, n)),
                     hml::rate_text(hml::iterations_per_second(r, n, clock), "It/s"),
                     r.flop_per_cacheline > 0 ? rate(hml::performance(r, n, clock)) : std::string{"-"}});
  }
  out += "\n" + hml::format_table(scaling);
  if (roof) {
    out += "\nroofline beside it (" + std::string{hml::to_string(hml::flop_precision(*kernel))} +
           ", main memory as the ECM takes it, " +
           hml::to_string(beside->bandwidth, {.number = hml::general(4),
                                              .prefixes = hml::prefix_system::decimal}) +
           "): " +
           // Every line in cache moves no byte from main memory: an intensity without bound, said in words.
           (std::isfinite(roof->intensity.value()) ? hml::to_string(roof->intensity, {.number = hml::significant_format(roof->intensity.value(), 3)})
                                                    : std::string{"no main-memory traffic"}) +
           ", " + rate(roof->attainable) + ", " +
           std::string{hml::to_string(roof->bound)} + "\n";
  } else {
    out += "\nroofline: " +
           (r.flop_per_cacheline == 0 ? std::string{"no FLOP"}
            : !hml::has_flop_precision(*kernel)
                ? "its " + std::to_string(hml::element_bytes(*kernel)) + "-byte elements are neither single nor double precision"
                : !hml::bandwidth_of(hml::main_memory(c), hml::basis::datasheet).published()
                    ? std::string{"the machine states no main-memory bandwidth"}
                    : "the machine states no " + std::string{hml::to_string(hml::flop_precision(*kernel))} + " peak") +
           "\n";
  }
  emit(o.output, out);
}

}  // namespace

void add_ecm_command(CLI::App& hml) {
  auto* command = hml.add_subcommand("ecm", "a loop kernel on a CPU by the ECM model: cy/CL, levels, scaling");
  command->footer(
      "Example: hml ecm --machine snb_e5_2680 --kernel stencil2d5 --size 2000 --t-ol 26 --t-nol 20\n"
      "         hml ecm --machine snb_e5_2680 --kernel examples/ecm/2d-5pt.c -D M=1000 -D N=2000\n"
      "         hml ecm --machine my_cpu.yml --kernel my_kernel.yml --cores 4 --format csv\n"
      "Machine and kernel files: docs/reference/machine-file.md");
  auto o = std::make_shared<ecm_options>();
  command->add_option("--machine", o->machine, std::string{machine_help} + ": " + cpu_ids())
      ->type_name("NAME|FILE")
      ->required();
  add_figures_option(*command, o->figures);
  command->add_option("--kernel", o->kernel, std::string{"built-in kernel ("} + std::string{kernel_names} +
                                                 "), a kernel in C (FILE.c, kerncraft's subset) or a YAML kernel file")
      ->type_name("NAME|FILE")
      ->required();
  command->add_option("-D", o->defines, "a size a C kernel names, as the C preprocessor takes it: -D N=6000")
      ->type_name("NAME=VALUE")
      ->allow_extra_args(false);
  CLI::Option* size = command->add_option("--size", o->size, "elements of a built-in kernel (the row length of stencil2d5, " +
                                                                std::to_string(stencil_row_default) + " unless given)")
      ->check(whole_number_checked_later(least_size, static_cast<std::uint64_t>(most_elements)))
      ->capture_default_str();
  CLI::Option* rows = command->add_option("--rows", o->rows, "rows of stencil2d5")
                          ->check(whole_number_checked_later(least_rows, static_cast<std::uint64_t>(most_elements)))
                          ->capture_default_str();
  command->add_option("--cores", o->cores, "cores in the scaling table, at most the machine's (default: the machine's; needed where it states none)")
      ->check(whole_number(1, hml::max_cores));
  command->add_option("--t-ol", o->t_ol, "in-core overlapping cycles per CL (default: the port model's)");
  command->add_option("--t-nol", o->t_nol, "in-core non-overlapping cycles per CL");
  command->add_flag("--inclusive-caches", o->inclusive_caches,
                    "take every cache as inclusive, a victim cache too, as kerncraft's layer-condition predictor does");
  add_output_options(*command, o->output);
  command->callback([o, rows, size] {
    o->rows_given = rows->count() > 0;
    o->size_given = size->count() > 0;
    run(*o);
  });
}

}  // namespace hml_cli
