// hml.report:machine_checks (internal) — what every reader of a machine refuses, whatever the file's format
// (the machine file, and the older device and ECM files it replaces): a figure no machine has, or two figures
// of one peak that contradict each other, where a unit or a digit is wrong. Each check gives the problem in
// words and is empty where the figures hold; the reader names the file, the line and the field.
module;
#include <algorithm>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>
module hml.report:machine_checks;
import hml.units;
import hml.machine_description;
import hml.tiers;
import :round_trip_text;
import hml.spelling;  // without_invisible: level names differing in invisible characters alone are one
import hml.catalog.lookup;  // name_key: how options fold the ids and names they take
import :table;              // message_text

namespace hml::detail {

// How far apart two figures of one peak may lie: a measurement above the datasheet's (a clock above the
// stated one), an interface's peak from its parts beside the level's. Past it a unit or a digit is wrong.
inline constexpr double most_apart = 1.5;
// How far below a datasheet's figure a measurement of it may lie: real runs reach a fraction of a peak (a
// FlashAttention kernel 35 % of the tensor peak), never 1 %; GB/s written for TB/s is 1/1000.
inline constexpr double least_share = 0.01;

// An id as options name it: lower-case letters, digits and _ (a link "400GB/s" took --link's rate from it).
// One written in capitals or with spaces or dashes ("H100_SXM", "my-gpu") is offered as it would be.
[[nodiscard]] inline std::string id_problem(std::string_view id) {
  if (is_machine_id(id)) return {};
  std::string meant;
  for (const char c : id) meant += c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c == ' ' || c == '-' ? '_' : c;
  const bool offered = is_machine_id(meant) && meant.find_first_not_of('_') != std::string::npos &&  // not "___"
                       meant.size() <= 64;
  return "use lower-case letters, digits and _ only, not \"" + message_text(id) + "\"" +
         (offered ? "; did you mean " + meant + "?" : "");
}

// A figure of a field that holds measurements (measured_bandwidth, a ceiling's measured, a stream mix's) is
// measured where its kind is left out; another kind there is refused, since the datasheet's figure has a
// field of its own.
[[nodiscard]] inline std::string measurement_kind_problem(provenance given) {
  if (given == provenance::measured) return {};
  return "\"" + std::string{to_string(given)} + "\" in a field of measurements; leave the kind out, or give measured";
}

// A core's clock: cycles become seconds through it (0.001 Hz made memory free in cycles).
[[nodiscard]] inline std::string clock_problem(const figure<frequency>& clock) {
  if (!clock.published() || (clock.value >= least_clock && clock.value <= most_clock)) return {};
  return "must be from 1 MHz to 100 GHz (a core's clock; cycles become seconds through it), not " +
         round_trip_text(clock.value);
}

// What one core (an SM, a CU) does a cycle at a datasheet's peak: the catalog's peaks span 4 FLOP (an RTX
// 4090's FP64 on each of its 128 SMs) to 16,391 (an A100's sparse INT4), a B200's sparse FP4 about 62,000.
// Outside 1 to 2^18 the cores, the clock or the peak is wrong: an H100 given 1 SM, or 65,536. A measured peak
// is not held to it (a probe on a loaded host measures less than a FLOP a cycle), nor is a machine without
// cores or a clock.
inline constexpr double least_flop_per_core_cycle = 1;
inline constexpr double most_flop_per_core_cycle = 262144;
[[nodiscard]] inline std::string peak_problem(unsigned cores, const figure<frequency>& clock,
                                              const figure<compute_rate>& peak) {
  if (cores == 0 || !clock.published() || !peak.published() || peak.kind == provenance::measured) return {};
  const double per_core_cycle = in(peak.value / (cores * clock.value), flop);
  if (per_core_cycle >= least_flop_per_core_cycle && per_core_cycle <= most_flop_per_core_cycle) return {};
  // Near an edge, ten digits: a figure just outside the range does not print as the edge (0.99996 as 1).
  const bool near_edge = per_core_cycle < least_flop_per_core_cycle ? per_core_cycle > 0.999 * least_flop_per_core_cycle
                                                                    : per_core_cycle < 1.001 * most_flop_per_core_cycle;
  const work per_cycle = per_core_cycle * flop;
  return round_trip_text(peak.value) + " is " + (near_edge ? to_string(per_cycle, {.number = general(10)}) : to_string(per_cycle)) +
         " a cycle for each of " + std::to_string(cores) + (cores == 1 ? " core" : " cores") + " at " +
         round_trip_text(clock.value) + "; a core does 1 to 262144 FLOP a cycle: check cores, clock and the peak's unit";
}

// What a level moves a cycle for each core (an SM, a CU) at the machine's clock, held to 1/65536 to 1024 B
// (hml::least_ and most_bytes_per_core_cycle): the catalog's figures span 0.86 B (a Skylake-SP's main memory
// over its 20 cores) to 117 B (a V100's L1 over its 80 SMs); 44.42 TB/s typed for GB/s on an 8-core CPU is
// 2056 B, 2 MB/s for TB/s on a 100-SM GPU 1.3e-5 B. A measurement is not held below (a probe on a loaded
// host), nor is a machine without cores or a clock.
[[nodiscard]] inline std::string bandwidth_problem(unsigned cores, const figure<frequency>& clock,
                                                   const figure<data_rate>& rate) {
  if (cores == 0 || !clock.published() || !rate.published()) return {};
  const double per_core_cycle = in(rate.value / (cores * clock.value), byte);
  if (per_core_cycle <= hml::most_bytes_per_core_cycle &&
      (per_core_cycle >= hml::least_bytes_per_core_cycle || rate.kind == provenance::measured))
    return {};
  return round_trip_text(rate.value) + " is " + to_string(per_core_cycle * byte) + " a cycle for each of " +
         std::to_string(cores) + (cores == 1 ? " core" : " cores") + " at " + round_trip_text(clock.value) +
         "; a core moves 1/65536 to 1024 B a cycle: check cores, clock and the bandwidth's prefix";
}

// A level's bandwidths (its own, measured and write), each held to a core's window: the first that is not,
// by its field's name, and its problem; none: an empty problem.
struct field_problem {
  std::string_view field;
  std::string problem;
};
[[nodiscard]] inline field_problem level_bandwidths_problem(unsigned cores, const figure<frequency>& clock,
                                                            const level_description& l) {
  for (const auto& [field, rate] : {std::pair{"bandwidth", l.bandwidth}, {"measured_bandwidth", l.measured_bandwidth},
                                    {"write_bandwidth", l.write_bandwidth}}) {
    if (std::string problem = bandwidth_problem(cores, clock, rate); !problem.empty()) return {field, std::move(problem)};
  }
  return {};
}

// A level's write bandwidth is its reads' other direction, held as a tier's write rate is
// (hml::plausible_write_rate) against each read figure a model may take: its bandwidth and its measured one.
[[nodiscard]] inline std::string write_bandwidth_problem(const level_description& l) {
  if (!l.write_bandwidth.published()) return {};
  for (const auto& [field, reads] : {std::pair{"bandwidth", l.bandwidth}, {"measured_bandwidth", l.measured_bandwidth}}) {
    if (!reads.published() || plausible_write_rate(l.write_bandwidth.value, reads.value)) continue;
    return round_trip_text(l.write_bandwidth.value) +
           (l.write_bandwidth.value > reads.value ? " is more than 1.5x the level's " : " is less than 1 % of the level's ") +
           field + " " + round_trip_text(reads.value) + "; a memory writes at 1 % to 1.5x its read rate: check the prefix";
  }
  return {};
}

// A path's rate into the level inside it is one core's: held to the window a core moves a cycle (the
// catalog's run from 16 B a cycle to 64).
inline constexpr std::string_view path_rate_range = "what one core's path moves, 1/65536 to 1024 B a cycle";

[[nodiscard]] inline std::string path_rate_problem(const figure<bytes_per_cycle>& rate) {
  if (!rate.published()) return {};
  const double per_cycle = in(rate.value, byte_per_cycle);
  if (per_cycle <= hml::most_bytes_per_core_cycle && per_cycle >= hml::least_bytes_per_core_cycle) return {};
  return std::string{format_number(per_cycle, general(6)).view()} + " B/cy is outside " + std::string{path_rate_range} +
         ": check the figure and its unit";
}

// A measurement runs at most at the datasheet's peak, give or take a clock above its stated one, and at more
// than 1 % of it.
template <class Q>
[[nodiscard]] std::string measured_problem(const figure<Q>& measured, const figure<Q>& stated) {
  if (!measured.published() || !stated.published()) return {};
  if (measured.value > most_apart * stated.value)
    return round_trip_text(measured.value) + " is more than 1.5x the datasheet's " + round_trip_text(stated.value) +
           "; a measurement stays near or below it";
  if (measured.value < least_share * stated.value)
    return round_trip_text(measured.value) + " is less than 1 % of the datasheet's " + round_trip_text(stated.value) +
           "; a measurement reaches a share of it: check the unit's prefix";
  return {};
}

// The interface's bandwidth is the datasheet's peak from its parts: far from the level's own, one is wrong.
[[nodiscard]] inline std::string interface_problem(const level_description& l) {
  if (!published(l.interface) || !l.bandwidth.published()) return {};
  const data_rate parts = interface_bandwidth(l.interface);
  if (!(parts > most_apart * l.bandwidth.value || l.bandwidth.value > most_apart * parts)) return {};
  return "gives " + round_trip_text(parts) + " (channels x bus_bits x pin_rate), where the level's bandwidth is " +
         round_trip_text(l.bandwidth.value) + "; the two are one peak: check the pin rate's unit";
}

// An addressable level is a tier software places data in (flat-mode HBM): a shared level, no victim cache,
// with the capacity and bandwidth a placement is computed from.
[[nodiscard]] inline std::string addressable_problem(const level_description& l) {
  if (!l.addressable) return {};
  if (l.victim) return "a victim cache is filled by hardware, not placed in by software: give one of victim and addressable";
  if (l.scope == sharing::per_core) return "a level of each core is no tier of the machine: give addressable to a shared level";
  if (!l.capacity.published() || (!l.bandwidth.published() && !l.measured_bandwidth.published()))
    return std::string{"a tier is placed by its capacity and bandwidth, and this level states no "} +
           (l.capacity.published() ? "bandwidth" : "capacity") + "; give it";
  return {};
}

// Whether `outer` is slower than `inner`, by rates of one kind only: the two levels' bandwidths (a chip's),
// else their upstream rates (a core's); none where the two state no rate of one kind.
[[nodiscard]] inline std::optional<bool> slower(const level_description& outer, const level_description& inner) {
  const auto inner_rate = bandwidth_of(inner, basis::measured_where_published);
  const auto outer_rate = bandwidth_of(outer, basis::measured_where_published);
  if (inner_rate.published() && outer_rate.published()) return outer_rate.value < inner_rate.value;
  if (inner.upstream.rate.published() && outer.upstream.rate.published()) return outer.upstream.rate.value < inner.upstream.rate.value;
  return std::nullopt;
}

// Levels go fastest first, and the last of `levels` is checked against those inside it: one smaller and no
// slower than a level inside it is the list out of order (a slower, smaller level outside, as CXL memory
// beyond DDR or Apple's system cache beyond its L2, is not), and would make a cache main memory. Main memory
// (`is_main`) is no smaller than a cache inside it, at any rates: a cache holds main memory's lines. Levels
// are named as `memory_field`[i].
using memory_levels = decltype(machine_description::memory);
[[nodiscard]] inline std::string level_order_problem(const memory_levels& levels, bool is_main, std::string_view memory_field) {
  const auto item = [&](std::size_t j) { return std::string{memory_field} + "[" + std::to_string(j) + "]"; };
  const level_description& outer = levels.back();
  const auto smaller_than = [&](const level_description& inner) {
    return inner.capacity.published() && outer.capacity.published() && outer.capacity.value < inner.capacity.value;
  };
  for (std::size_t j = 0; j + 1 < levels.size(); ++j) {
    const level_description& inner = levels[j];
    // Where the two state no rate of one kind, nothing shows the smaller level outside to be slower.
    const std::optional<bool> outer_slower = slower(outer, inner);
    const bool rates = outer_slower.has_value();
    if (smaller_than(inner) && !outer_slower.value_or(false)) {
      return "\"" + std::string{outer.name} + "\" is smaller" + (rates ? " and no slower" : "") + " than " + item(j) +
             " (\"" + std::string{inner.name} + "\") inside it" +
             (rates ? "" : ", and no rate of one kind on both (bandwidths, or upstream rates) shows it slower") +
             "; give the levels fastest first, main memory last, or check their capacities";
    }
  }
  for (std::size_t j = 0; is_main && j + 1 < levels.size(); ++j) {
    const level_description& cache = levels[j];
    if (!cache.addressable && smaller_than(cache)) {
      return "main memory \"" + std::string{outer.name} + "\" is smaller than " + item(j) + " (\"" + std::string{cache.name} +
             "\"), a cache of it; give main memory's capacity, or addressable: true where that level is memory of its own";
    }
  }
  return {};
}

// Tiers, tables and the ECM's levels are named by their names: two of one name could not be told apart, nor two
// that print alike (hml::look_alike: "L\u200b1", "L1 " or a full-width "Ｌ1" beside "L1"). Of the last level against those before.
[[nodiscard]] inline std::string level_name_problem(const memory_levels& levels, std::string_view memory_field) {
  const std::string name = look_alike(levels.back().name);
  for (std::size_t j = 0; j + 1 < levels.size(); ++j) {
    if (look_alike(levels[j].name) == name)
      return "\"" + std::string{levels.back().name} + "\" names " + std::string{memory_field} + "[" + std::to_string(j) +
             "] too; give each level a name of its own";
  }
  return {};
}

// Options name a machine, link or system by its id or its name, case, spaces, - and _ aside (hml::find_named):
// of an entry against those before it in its list (`list`: "links"), the part ("id" or "name") one text would
// take for an earlier entry's; nothing where none is. `earlier_names` indexes the earlier entries' ids and
// names: looked up, not compared with each earlier entry (a file of 256 links with long names took minutes so).
struct entry_part_problem {
  std::string_view part;
  std::string problem;
};
template <class Entry>
[[nodiscard]] entry_part_problem entry_name_problem(std::span<const Entry* const> earlier, const name_index& earlier_names,
                                                    const Entry& e, std::string_view list) {
  for (const std::string_view part : {std::string_view{"id"}, std::string_view{"name"}}) {
    const std::string_view mine = part == "id" ? e.id : e.name;
    if (const std::vector<std::size_t> places = earlier_names.alike(alike_keys_of(mine)); !places.empty()) {
      const std::size_t i = places.front();
      return {part, "\"" + message_text(mine) + "\" names " + std::string{list} + "[" + std::to_string(i) + "] (" +
                        std::string{earlier[i]->id} + ") too, as options take ids and names (case, spaces, - and _ aside); "
                        "give each its own " + std::string{part}};
    }
  }
  return {};
}

// A core's own caches lie inside those the cores share (L1 and L2 each core's, L3 the chip's): a shared
// level inside one of each core describes no machine. Said of the shared one (a level is shared unless its
// file says otherwise: a forgotten scope), with `per_core` the file's words for a core's own; of a cache
// only: one with a capacity, or without (a datasheet often states none for a GPU's L1) where its rate shows
// it faster than the level outside (one slower, or of no rate to compare, may be main memory listed first,
// which the order's and the ECM's rules say); and not of main memory outside (its own rule says it).
struct level_problem {
  std::size_t level = 0;
  std::string problem;
};
[[nodiscard]] inline level_problem scope_order_problem(const memory_levels& levels, bool is_main, std::string_view memory_field,
                                                       std::string_view per_core) {
  const level_description& outer = levels.back();
  if (is_main || outer.scope != sharing::per_core) return {};
  for (std::size_t j = 0; j + 1 < levels.size(); ++j) {
    if (levels[j].scope == sharing::shared && (levels[j].capacity.published() || slower(outer, levels[j]).value_or(false)))
      return {j, "\"" + std::string{levels[j].name} + "\" is shared by the cores, and " + std::string{memory_field} + "[" +
                     std::to_string(levels.size() - 1) + "] (\"" + std::string{outer.name} + "\") outside it is each core's own, where a "
                     "core's own caches lie inside the shared ones; give it " + std::string{per_core} +
                     // The first level shared as well would be taken for each core's by the ECM model: not offered.
                     (j == 0 ? std::string{} : ", or share \"" + std::string{outer.name} + "\" too")};
  }
  return {};
}

// A machine with addressable levels is tiered: no cache between its tiers, and main memory, its last tier,
// placed by its capacity and bandwidth too. The problem and the level it is at; none: an empty problem.
[[nodiscard]] inline level_problem tiers_problem(const machine_description& m) {
  if (m.memory.empty() || std::ranges::none_of(m.memory, &level_description::addressable)) return {};
  if (const std::size_t i = cache_between_tiers(m); i < m.memory.size())
    return {i, "a cache between two tiers, which a tiered memory does not hold; mark it addressable: true, or leave it out"};
  const level_description& main = m.memory.back();
  if (main.capacity.published() && (main.bandwidth.published() || main.measured_bandwidth.published())) return {};
  return {m.memory.size() - 1, std::string{"main memory is the last tier of a machine with addressable levels, and "
                                           "states no "} + (main.capacity.published() ? "bandwidth" : "capacity") + "; give it"};
}

// A stream mix is a measurement of main memory: held against its datasheet figure as every measured figure
// is. Two measurements are not held against each other: a probe on a loaded host (or a small one, its
// "memory" still in cache) measures its copy and its triad far apart, and its own file must read.
[[nodiscard]] inline std::string mix_problem(const stream_mix_bandwidth& mix, const level_description& main) {
  if (main.bandwidth.kind == provenance::measured) return {};
  return measured_problem(mix.bandwidth, main.bandwidth);
}

// Main memory's path in is its bandwidth: a per-cycle rate beside a bandwidth or stream mixes gave the ECM
// model one memory (the rate) and the roofline beside it another (the bandwidth).
[[nodiscard]] inline std::string main_memory_rate_problem(const machine_description& m) {
  if (m.memory.empty()) return {};
  const level_description& main = m.memory.back();
  if (!main.upstream.rate.published() ||
      (!main.bandwidth.published() && !main.measured_bandwidth.published() && m.memory_bandwidths.empty()))
    return {};
  return "main memory's path is its bandwidth (or its stream mixes): a rate in B/cy beside it is a second figure "
         "for the same path; give one";
}

// A memory holds whole lines: one of less than a line (a trial's 0.5 B L1, "usable 0.25 B") holds none of a
// kernel's data, which the ECM model would still place in it.
[[nodiscard]] inline std::string capacity_problem(const level_description& l, std::size_t cacheline_bytes) {
  if (!l.capacity.published() || !(l.capacity.value.value() < static_cast<double>(cacheline_bytes))) return {};
  return round_trip_text(l.capacity.value) + " is less than one " + std::to_string(cacheline_bytes) +
         " B line, which a memory holds whole; give its capacity in bytes, as 32 KiB";
}

// A latency, a memory's or a link message's, is nanoseconds to microseconds: a second or more is a unit
// slipped (a memory's of 10^5 s made the offload's host time 10^5 s and its speed-up 7.43e+05x).
[[nodiscard]] inline std::string latency_problem(const figure<duration>& latency, std::string_view what_it_is) {
  if (!latency.published() || latency.value < 1 * second) return {};
  return "must be below 1 s (" + std::string{what_it_is} + "), not " + round_trip_text(latency.value);
}

// An INT4 weight rate is a kernel's rate below main memory's bandwidth: above the faster of its stated and
// measured figures it would never bind, and below 1 % of them a unit's prefix slipped. Main memory without a
// bandwidth: nothing to hold it against.
[[nodiscard]] inline std::string int4_weight_rate_problem(const machine_description& m) {
  if (!m.int4_weight_rate.published() || m.memory.empty()) return {};
  const level_description& main = m.memory.back();
  const data_rate stated = main.bandwidth.published() ? main.bandwidth.value : data_rate{};
  const data_rate memory = main.measured_bandwidth.published() ? std::max(stated, main.measured_bandwidth.value) : stated;
  if (memory.value() <= 0) return {};
  if (m.int4_weight_rate.value > memory)
    return round_trip_text(m.int4_weight_rate.value) + " is above main memory's " + round_trip_text(memory) +
           ": the rate is a dequantizing kernel's below the memory's, where it binds";
  if (m.int4_weight_rate.value < least_share * memory)
    return round_trip_text(m.int4_weight_rate.value) + " is less than 1 % of main memory's " + round_trip_text(memory) +
           ": check the unit's prefix";
  return {};
}

// A machine's domains divide its cores: together they hold no more than it has (3 x 100 on an 8-core
// machine is a typo). Either count not given: nothing to hold them against.
[[nodiscard]] inline std::string domain_problem(unsigned machine_cores, const domain_description& d) {
  // A domain's cores are what it is (and what its bandwidth is held against): one without was written back as
  // `cores: 0`, which no reader takes.
  if (d.cores == 0) return "missing; add each domain's cores";
  if (machine_cores == 0 || std::uint64_t{d.count} * d.cores <= machine_cores) return {};
  return std::to_string(d.count) + " x " + std::to_string(d.cores) + " cores are more than the machine's " +
         std::to_string(machine_cores) + "; domains divide the machine's cores";
}

// Main memory is shared by the cores: every model divides its bandwidth among them.
[[nodiscard]] inline std::string main_memory_scope_problem(const level_description& main) {
  return main.scope == sharing::per_core ? "main memory (the last level) is shared by the cores; leave its scope out" : std::string{};
}

}  // namespace hml::detail
