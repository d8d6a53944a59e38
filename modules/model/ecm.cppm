// hml.ecm — the Execution-Cache-Memory model of a loop kernel on one CPU core and its multicore scaling, as
// kerncraft (RRZE-HPC/kerncraft, kerncraft/models/ecm.py) and the ECM papers (Hager et al., "Exploring
// performance and power properties of modern multicore chips via simple machine models", CCPE 2016;
// Stengel et al., ICS 2015; Hofmann et al., arXiv:1509.03118) compose it. Time is counted in core cycles
// per cache line of work (cy/CL):
//
//   T_ECM = max(T_OL, T_nOL + T_L1L2 + T_L2L3 + T_L3Mem)      printed as {T_OL || T_nOL | T_L1L2 | ...} cy/CL
//
// T_OL is the in-core time that overlaps data transfers (arithmetic, stores), T_nOL the time that does not
// (loads retiring from L1), and each T_XY is the lines that move between X and Y (hml.cache_traffic) times
// 64 B over that path's bytes per cycle. A level whose transfers overlap (kerncraft's `transfers overlap`)
// joins the max instead of the sum. Data in level k: the same with the first k transfer terms. On n cores
// the chip takes max(T_ECM / n, T_L3Mem) per cache line, so memory saturates at n_s = ceil(T_ECM / T_L3Mem).
//
// The machine is the one machine description (hml.machine_description), through its ECM view
// (validate_ecm): the clock, the caches and main memory, and what only the cycle view reads and a roofline
// never does: the cache line size, each level's path in bytes per cycle where it is stated per cycle
// (kerncraft's `upstream throughput`, e.g. 32 B/cy) and whether it overlaps, main memory's bandwidth
// measured per read/write stream mix (likwid-bench kernels, as in kerncraft's machine files), the in-core
// port throughput, write-allocate and the layer-condition share. A path without a per-cycle rate takes its
// level's bandwidth over the clock.
module;
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string_view>
export module hml.ecm;
export import hml.cache_traffic;
export import hml.analysis;

export namespace hml {

// --- Cycles and seconds, through a stated clock ---------------------------------------------------------

// Each takes a finite figure and a clock of 1 MHz to 100 GHz, the ECM model's (an infinite clock made
// infinite cycles, a NaN one no number).
namespace detail {
constexpr double converted(double figure, frequency clock, double result, const char* message) {
  expects(figure - figure == 0 && clock >= least_clock && clock <= most_clock && result - result == 0, message);
  return result;
}
}  // namespace detail

[[nodiscard]] constexpr cycles to_cycles(duration t, frequency clock) {
  return detail::converted(t.value(), clock, t.value() * clock.value(),
                           "hml: converting to cycles needs a finite time and a clock from 1 MHz to 100 GHz") * cycle;
}
[[nodiscard]] constexpr duration to_duration(cycles c, frequency clock) {
  return detail::converted(c.value(), clock, c.value() / clock.value(),
                           "hml: converting cycles to time needs finite cycles and a clock from 1 MHz to 100 GHz") * second;
}
[[nodiscard]] constexpr bytes_per_cycle per_cycle(data_rate rate, frequency clock) {
  return detail::converted(rate.value(), clock, rate.value() / clock.value(),
                           "hml: bytes per cycle needs a finite rate and a clock from 1 MHz to 100 GHz") * byte_per_cycle;
}
[[nodiscard]] constexpr data_rate per_second(bytes_per_cycle rate, frequency clock) {
  return detail::converted(rate.value(), clock, rate.value() * clock.value(),
                           "hml: bytes per second needs a finite rate and a clock from 1 MHz to 100 GHz") * byte_per_second;
}

// --- In-core time -----------------------------------------------------------------------------------------

// The in-core part, per cache line of work, when data is in L1.
struct in_core_time {
  cycles overlapping{};      // T_OL
  cycles non_overlapping{};  // T_nOL
};

// The ECM view of a machine: its clock, a cache level and main memory are there, and its cycle figures hold.
constexpr void validate_ecm(const machine_description& c) {
  expects(c.clock.published(), "hml: the ECM model needs the machine's clock");
  expects(c.clock.value >= least_clock && c.clock.value <= most_clock, "hml: the ECM model needs a clock from 1 MHz to 100 GHz");
  expects(c.memory.size() >= 2, "hml: the ECM model needs a cache level and main memory; describe the caches from L1, main memory last");
  // Lines come into a core's own first cache: a shared level first (a machine that lists only its L3) would
  // be taken for each core's L1, and one core would stream at the chip's rate.
  expects(c.memory[0].scope == sharing::per_core || c.cores == 1,
          "hml: the ECM model starts in each core's own first cache: the fastest level must be per core");
  // Said of the machine here, where cache_traffic_of would say it of the first kernel it is asked about.
  for (std::size_t i = 0; i + 1 < c.memory.size(); ++i)
    expects(c.memory[i].capacity.published(), "hml: the ECM model needs every cache level's capacity");
  expects(!c.memory[0].victim && !c.memory.back().victim,
          "hml: a victim cache is a cache outside another: neither the fastest level nor main memory");
  expects(c.cacheline_bytes > 0, "hml: the cache line size must be > 0");
  expects(c.layer_condition_share > 0 && c.layer_condition_share <= 1, "hml: the layer-condition share is in (0, 1]");
  for (const stream_mix_bandwidth& m : c.memory_bandwidths) {
    expects(m.reads + m.writes > 0, "hml: a measured stream mix needs read or write streams");
    expects(m.bandwidth.published() && isfinite(m.bandwidth.value), "hml: a measured stream mix needs its bandwidth");
  }
  const port_model& p = c.ports;
  expects(p.loads_per_cycle > 0 && p.stores_per_cycle > 0 && p.add_per_cycle > 0 && p.mul_per_cycle > 0 &&
              p.vector_bytes > 0,
          "hml: every port throughput but the FMA's and the vector width must be > 0");
  expects(p.fma_per_cycle >= 0, "hml: the FMAs per cycle must be >= 0 (0: no FMA unit)");
  expects(p.memory_ops_per_cycle >= 0, "hml: the loads and stores per cycle together must be >= 0 (0: no shared limit)");
}

// How the machine's caches count traffic: the share of a cache that may hold reuse, and whether a store
// reads its line first (its line size cache_traffic_of takes from the machine itself).
[[nodiscard]] constexpr traffic_options traffic_options_of(const machine_description& c) {
  return {.layer_condition_share = c.layer_condition_share, .write_allocate = c.write_allocate};
}

// In-core time from the port model: every access a full-width vector instruction, but a strided array's,
// which takes one instruction per element (no contiguous vector to load; a gather is no faster). A vector
// holds one element at least: no instruction loads part of a double (a 1 B vector counted 64 loads a line).
[[nodiscard]] constexpr in_core_time in_core(const loop_kernel& k, const machine_description& c) {
  validate(k);
  const port_model& p = c.ports;
  const double vector_bytes = static_cast<double>(std::max(p.vector_bytes, k.arrays[0].element_bytes));  // one element size
  const double instructions_per_access = static_cast<double>(c.cacheline_bytes) / vector_bytes;
  double loads = 0;
  double stores = 0;
  for (const array_access& x : k.accesses) {
    const kernel_array& a = k.arrays[x.array];
    const double instructions =
        a.stride == 1 ? instructions_per_access : static_cast<double>(c.cacheline_bytes) / static_cast<double>(a.element_bytes);
    (x.kind == access_kind::read ? loads : stores) += instructions;
  }
  // Without an FMA unit an FMA is a multiplication and an addition, each on its own port.
  const bool has_fma = p.fma_per_cycle > 0;
  const double fma = k.flops.fma * instructions_per_access;
  const double add = (k.flops.add + (has_fma ? 0 : k.flops.fma)) * instructions_per_access;
  const double mul = (k.flops.mul + k.flops.div + (has_fma ? 0 : k.flops.fma)) * instructions_per_access;
  const double overlapping = std::max({stores / p.stores_per_cycle, has_fma ? fma / p.fma_per_cycle : 0.0,
                                       add / p.add_per_cycle, mul / p.mul_per_cycle});
  const double l1_busy = p.memory_ops_per_cycle > 0 ? (loads + stores) / p.memory_ops_per_cycle : 0.0;
  return {overlapping * cycle, std::max(loads / p.loads_per_cycle, l1_busy) * cycle};
}

// --- Transfers --------------------------------------------------------------------------------------------

// Main memory's bandwidth for this kernel: among the measured stream mixes whose stores take the kernel's
// path (non-temporal or through the caches; any mix where none does), the one whose lines read per line
// written are nearest those the kernel moves between the last cache and memory (write-allocates read,
// evictions and non-temporal stores written), scaled to the traffic that really moved; the level's own
// bandwidth where none is measured. As kerncraft picks it (machinemodel.py, get_bandwidth: the read/write
// ratio of the misses and evictions at that level, a mix's write streams counted as read too; a kernel
// that writes nothing takes a mix that writes nothing), but for a tie: the STREAM triad's 3 lines read to 1
// written lie as near copy's 2 as the Schoenauer triad's 4, and hml takes the mix that reads more (the
// triad, as its share of lines read did), where kerncraft takes the first by name (copy). By share, as hml
// picked before the twenty-eighth held-out trial, ten lines read to one written took likwid's read-only
// load and came out faster than nine. A stencil whose last cache loses its layer condition reads
// more rows per line it writes and takes a triad-like mix, where its arrays alone (one read, one written)
// would take copy's. A kernel no line of which reaches memory is matched by its arrays' streams. `traffic`
// is cache_traffic_of(k, c, traffic_options_of(c)), which the ECM model has at hand.
[[nodiscard]] constexpr data_rate memory_bandwidth_for(const loop_kernel& k, const machine_description& c,
                                                       const cache_traffic& traffic) {
  const level_description& memory = main_memory(c);
  if (c.memory_bandwidths.empty()) {
    expects(memory.bandwidth.published(), "hml: the machine publishes no main-memory bandwidth; give main memory's bandwidth");
    return memory.bandwidth.value;
  }
  const bool non_temporal = writes_non_temporal(k);
  const level_traffic& last = traffic.levels.back();
  double read = static_cast<double>(last.loads + last.write_allocates);
  double written = static_cast<double>(last.evictions + traffic.non_temporal_stores);
  if (last.fully_cached || read + written == 0) {
    const stream_counts s = streams(k);
    read = s.reads + (non_temporal || !c.write_allocate ? 0.0 : s.writes);
    written = s.writes;
  }
  bool same_path_measured = false;
  for (const stream_mix_bandwidth& m : c.memory_bandwidths) same_path_measured |= m.non_temporal == non_temporal;
  // How near a mix is to the kernel, nearest first: whether both write or neither does, then how far apart
  // their ratios are (a writing mix, for a read-only kernel where no read-only mix is measured: the larger
  // ratio the nearer), then the mix that reads more per line written.
  struct nearness {
    bool apart = false;   // one of the two writes and the other does not
    double distance = 0;  // of the ratios
    double reads_per_write = 0;
    constexpr bool nearer_than(const nearness& o) const {
      if (apart != o.apart) return !apart;
      if (distance != o.distance) return distance < o.distance;
      return reads_per_write > o.reads_per_write;
    }
  };
  constexpr double read_only = 1e300;  // a mix's or the kernel's ratio where it writes nothing
  const double kernel_ratio = written == 0 ? read_only : read / written;
  const auto nearness_of = [&](const stream_mix_bandwidth& m) {
    const double allocated = m.non_temporal || !c.write_allocate ? 0.0 : m.writes;
    const double ratio = m.writes == 0 ? read_only : (m.reads + allocated) / m.writes;
    if ((m.writes == 0) != (written == 0)) return nearness{true, written == 0 ? -ratio : 0.0, ratio};
    return nearness{false, ratio > kernel_ratio ? ratio - kernel_ratio : kernel_ratio - ratio, ratio};
  };
  const stream_mix_bandwidth* best = nullptr;
  nearness best_nearness{};
  for (const stream_mix_bandwidth& m : c.memory_bandwidths) {
    if (same_path_measured && m.non_temporal != non_temporal) continue;
    const nearness n = nearness_of(m);
    if (best == nullptr || n.nearer_than(best_nearness)) {
      best = &m;
      best_nearness = n;
    }
  }
  const double factor = best->write_allocate_counted || best->non_temporal || !c.write_allocate
                            ? 1.0
                            : write_allocate_factor(best->reads, best->writes);
  return best->bandwidth.value * factor;
}

[[nodiscard]] constexpr data_rate memory_bandwidth_for(const loop_kernel& k, const machine_description& c) {
  return memory_bandwidth_for(k, c, cache_traffic_of(k, c, traffic_options_of(c)));
}

// Whether the path between level i - 1 and level i has a rate: the outer level's per-cycle rate, else its
// bandwidth; main memory's may come from its measured stream mixes (what transfer_rate takes, in that order).
[[nodiscard]] constexpr bool has_path_rate(const machine_description& c, std::size_t i) {
  const level_description& l = c.memory[i];
  return l.upstream.rate.published() || l.bandwidth.published() || (i + 1 == c.memory.size() && !c.memory_bandwidths.empty());
}

// The rate of the path between level i - 1 and level i, in bytes per cycle; it is listed on level i, the
// outer one, as kerncraft lists a level's `upstream throughput`.
[[nodiscard]] constexpr bytes_per_cycle transfer_rate(const loop_kernel& k, const machine_description& c,
                                                      const cache_traffic& traffic, std::size_t i) {
  if (i < c.memory.size() && c.memory[i].upstream.rate.published()) return c.memory[i].upstream.rate.value;
  const bool memory = i + 1 == c.memory.size();
  if (memory) return per_cycle(memory_bandwidth_for(k, c, traffic), c.clock.value);
  const level_description& l = c.memory[i];
  expects(l.bandwidth.published(), "hml: a cache level has neither a per-cycle rate nor a bandwidth");
  return per_cycle(l.bandwidth.value, c.clock.value);
}

// One term of the ECM sum: lines between two levels, the path's rate and the cycles they take.
struct transfer_term {
  std::string_view inner{};  // "L1"
  std::string_view outer{};  // "L2"
  double lines = 0;          // per cache line of work
  bytes_per_cycle rate{};
  cycles time{};
  bool overlaps = false;
};

struct ecm_result {
  std::string_view kernel{};
  in_core_time core{};
  fixed_list<transfer_term, max_memory_levels> transfers{};  // L1L2, L2L3, ..., last cache to memory
  fixed_list<cycles, max_memory_levels> predictions{};       // data in L1, L2, ..., main memory
  cycles time{};                                             // T_ECM: data where the kernel's arrays are
  // ceil(T_ECM / T_L3Mem), a whole number (past any machine's cores where the in-core time dwarfs the memory
  // term: a double, as a count of 2^32 or more wrapped); 0 where no line comes from memory.
  double saturation_cores = 0;
  double iterations_per_cacheline = 0;
  double flop_per_cacheline = 0;
  cache_traffic traffic{};  // the layer conditions the transfer terms come from
};

namespace detail {
// max(T_OL, overlapping transfers) against T_nOL + the non-overlapping ones, over the first `terms` terms.
constexpr cycles compose(const in_core_time& core, const fixed_list<transfer_term, max_memory_levels>& t,
                         std::size_t terms) {
  cycles overlapped = core.overlapping;
  cycles serial = core.non_overlapping;
  for (std::size_t i = 0; i < terms; ++i) {
    if (t[i].overlaps) {
      overlapped = std::max(overlapped, t[i].time);
    } else {
      serial += t[i].time;
    }
  }
  return std::max(overlapped, serial);
}
}  // namespace detail

// The ECM model with the in-core time given (from IACA, OSACA, a paper, or in_core()).
[[nodiscard]] constexpr ecm_result ecm(const loop_kernel& k, const machine_description& c, const in_core_time& core) {
  validate(k);
  expects(core.overlapping.value() >= 0 && core.overlapping.value() <= largest_finite && core.non_overlapping.value() >= 0 &&
              core.non_overlapping.value() <= largest_finite,
          "hml: the in-core times must be finite and >= 0 cycles");  // NaN made every prediction NaN, -26 a faster one
  validate_ecm(c);
  const cache_traffic traffic = cache_traffic_of(k, c, traffic_options_of(c));
  ecm_result r{.kernel = k.name, .core = core, .traffic = traffic};
  for (std::size_t i = 0; i < traffic.levels.size(); ++i) {
    transfer_term t{.inner = c.memory[i].name, .outer = c.memory[i + 1].name};
    t.lines = lines_between(traffic, i);
    t.rate = transfer_rate(k, c, traffic, i + 1);
    // A full-duplex path moves its lines in and out at once: the busier direction takes the time.
    const double timed = c.memory[i + 1].upstream.full_duplex ? busier_direction(traffic, i) : t.lines;
    t.time = timed * (static_cast<double>(c.cacheline_bytes) * byte) / t.rate;
    t.overlaps = c.memory[i + 1].upstream.overlaps;
    r.transfers.push_back(t);
  }
  for (std::size_t terms = 0; terms <= r.transfers.size(); ++terms)
    r.predictions.push_back(detail::compose(core, r.transfers, terms));
  r.time = r.predictions.back();
  const cycles memory_term = r.transfers.back().time;
  if (memory_term.value() > 0) {
    // ceil(T_ECM / T_L3Mem), with a ratio within 1e-9 of an integer taken as that integer (std::ceil is
    // not constexpr in C++20); from 2^52 on every double is a whole number.
    const double ratio = r.time / memory_term;
    r.saturation_cores = ratio;
    if (ratio < 0x1p52) {
      r.saturation_cores = static_cast<double>(static_cast<std::uint64_t>(ratio));
      if (r.saturation_cores < ratio - 1e-9) r.saturation_cores += 1;
    }
  }
  r.iterations_per_cacheline = static_cast<double>(c.cacheline_bytes) / static_cast<double>(element_bytes(k));
  r.flop_per_cacheline = k.flops.total() * r.iterations_per_cacheline;
  return r;
}

// The ECM model with the in-core time from the machine's port model.
[[nodiscard]] constexpr ecm_result ecm(const loop_kernel& k, const machine_description& c) {
  return ecm(k, c, in_core(k, c));
}

// kerncraft's single-core Roofline beside the ECM, per level (PMBS'15 Table 5 sets the two side by side):
// the same terms, but nothing adds up: with data in level `level` (0: L1) the in-core times and every
// transfer up to that level each bound the time alone, and the longest one is the prediction. kerncraft's
// Roofline divides each level's traffic by a bandwidth measured for the kernel's stream mix; hml's machine
// has each path's ECM rate, which this takes.
[[nodiscard]] constexpr cycles roofline_prediction(const ecm_result& r, std::size_t level) {
  expects(level <= r.transfers.size(), "hml: no such level in this ECM result");
  cycles longest = std::max(r.core.overlapping, r.core.non_overlapping);
  for (std::size_t i = 0; i < level; ++i) longest = std::max(longest, r.transfers[i].time);
  return longest;
}

// --- Multicore scaling --------------------------------------------------------------------------------------

// Cycles per cache line of work for the whole chip on `n` cores: the single-core time shared by n, until
// the memory path is busy all the time.
[[nodiscard]] constexpr cycles chip_time(const ecm_result& r, unsigned n) {
  expects(n > 0, "hml: the core count must be > 0");
  const cycles shared = r.time / static_cast<double>(n);
  const cycles memory = r.transfers.empty() ? cycles{} : r.transfers.back().time;
  return std::max(shared, memory);
}

// Iterations per second at `per_cacheline` cycles per cache line of work (a level's prediction, a chip's
// time) at the machine's clock.
[[nodiscard]] constexpr double iterations_per_second(const ecm_result& r, cycles per_cacheline, frequency clock) {
  expects(per_cacheline.value() > 0, "hml: a rate needs cycles per cache line > 0 (an ECM result's, not a default one)");
  return r.iterations_per_cacheline / to_duration(per_cacheline, clock).value();
}

// Iterations per second on `n` cores at the machine's clock.
[[nodiscard]] constexpr double iterations_per_second(const ecm_result& r, unsigned n, frequency clock) {
  return iterations_per_second(r, chip_time(r, n), clock);
}

// FLOP/s on `n` cores at the machine's clock.
[[nodiscard]] constexpr compute_rate performance(const ecm_result& r, unsigned n, frequency clock) {
  const cycles per_cacheline = chip_time(r, n);
  expects(per_cacheline.value() > 0, "hml: a rate needs cycles per cache line > 0 (an ECM result's, not a default one)");
  return r.flop_per_cacheline * flop / to_duration(per_cacheline, clock);
}

// --- The roofline of the same kernel ------------------------------------------------------------------------

// The loop kernel as the roofline sees it: all its FLOP, and the bytes the cache traffic model moves between
// the last cache and main memory (write-allocates and non-temporal stores included).
[[nodiscard]] constexpr kernel roofline_kernel(const loop_kernel& k, const ecm_result& r, std::size_t cacheline_bytes) {
  const double cachelines = iterations(k) / r.iterations_per_cacheline;
  const double memory_lines = r.transfers.empty() ? 0.0 : r.transfers.back().lines;
  return {k.name, iterations(k) * k.flops.total() * flop,
          cachelines * memory_lines * static_cast<double>(cacheline_bytes) * byte};
}

// The precision of a kernel's FLOP, from its elements as kerncraft takes it from the data type (its machine
// files' "FLOPs per cycle" SP for float, DP for double): 4-byte elements single, 8-byte double, no other.
[[nodiscard]] constexpr bool has_flop_precision(const loop_kernel& k) { return element_bytes(k) == 4 || element_bytes(k) == 8; }
[[nodiscard]] constexpr precision flop_precision(const loop_kernel& k) {
  expects(has_flop_precision(k), "hml: a kernel's FLOP are single (4-byte elements) or double (8-byte) precision");
  return element_bytes(k) == 4 ? precision::fp32 : precision::fp64;
}

// The roof beside the ECM prediction: the machine's peak for the kernel's precision, and main memory at the
// bandwidth the ECM's memory term takes for this kernel (memory_bandwidth_for, as kerncraft's Roofline model
// takes get_bandwidth's). With the level's own figure (likwid-bench's load, for kerncraft's machines) a
// kernel whose mix moves more, write-allocates counted, was predicted by the ECM above its roofline (1.6x).
[[nodiscard]] constexpr roof roof_beside(const loop_kernel& k, const ecm_result& r, const machine_description& c) {
  return {.bandwidth = memory_bandwidth_for(k, c, r.traffic), .peak = roof_of(c, flop_precision(k)).peak};
}

// The roofline point beside the ECM prediction, through hml::analyze on that roof.
[[nodiscard]] constexpr roofline_point roofline_beside(const loop_kernel& k, const ecm_result& r, const machine_description& c) {
  return analyze(roofline_kernel(k, r, c.cacheline_bytes), roof_beside(k, r, c));
}

}  // namespace hml
