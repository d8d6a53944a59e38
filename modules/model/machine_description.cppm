// hml.machine_description — the one description of a machine, whoever wrote it down (a catalog entry, a
// user's machine file, the probe, the seed's simple forms) and whatever model asks of it: the root of the
// model layer, on hml.vocabulary alone. A machine is its memory levels, fastest first (each with a name, a
// typed capacity, bandwidth, write bandwidth where it differs, latency, whether it is per core or shared,
// and the path to the next faster level in bytes per cycle where that is stated), its compute ceilings per
// precision and unit (vector or tensor/matrix; dense, with the vendor's sparse figure kept apart), a clock
// and core count where known, its domains, cache line, write-allocate, in-core ports and main memory's
// bandwidth per stream mix. Every figure carries its provenance (stated, derived, measured, unconfirmed)
// and the key of its source. The models take views of it: the roofline and the hierarchical roofline
// (roof_of, hierarchical_roof_of in hml.analysis), tiers (tier_of), the ECM model (validate_ecm); the
// seed's memory and compute_core convert to it and back (hml.machine).
//
// The shape is constexpr: lists have a fixed capacity and a count, so entries of different shapes are one
// type and the catalog stays a constexpr table. A machine description is one node: links between machines
// (hml.link) join descriptions into systems (hml.catalog.systems) rather than live inside them.
module;
#include <array>
#include <cstddef>
#include <string>
#include <string_view>
export module hml.machine_description;
export import hml.vocabulary;

export namespace hml {

// --- Memory ------------------------------------------------------------------------------------------

// A DRAM / HBM interface: `channels` channels of `bus_bits` pins each, every pin moving `pin_rate` bits per
// second (DDR5-4800: 4.8 Gbit/s per pin, 64-bit channels). 0 bits: not published.
struct memory_interface {
  unsigned channels = 1;
  unsigned bus_bits = 0;
  figure<data_rate> pin_rate{};
  friend constexpr bool operator==(const memory_interface&, const memory_interface&) = default;
};

[[nodiscard]] constexpr bool published(const memory_interface& i) noexcept {
  return i.channels > 0 && i.bus_bits > 0 && i.pin_rate.published();
}

// The interface's bandwidth: channels x pin rate x bus width (6.4 Gbit/s x 256 bits = 204.8 GB/s;
// 12 x 4.8 Gbit/s x 64 bits = 460.8 GB/s).
[[nodiscard]] constexpr data_rate interface_bandwidth(const memory_interface& i) {
  expects(published(i), "hml: the memory interface is not published");
  return i.channels * (i.pin_rate.value * bus_width{i.bus_bits});
}

// The same bandwidth as a figure: derived, citing the pin rate's source (unconfirmed if the pin rate is).
[[nodiscard]] constexpr figure<data_rate> derived_bandwidth(const memory_interface& i) {
  const provenance kind = i.pin_rate.kind == provenance::unconfirmed ? provenance::unconfirmed : provenance::derived;
  return {interface_bandwidth(i), kind, i.pin_rate.source};
}

enum class sharing { shared, per_core };

[[nodiscard]] constexpr std::string_view to_string(sharing s) noexcept {
  return s == sharing::shared ? "shared" : "per core";
}

// One level of the memory hierarchy. `bandwidth` is the level's own figure, the one a roofline takes: the
// datasheet's, derived from the interface, or for a machine that was only measured (hml probe) measured;
// its kind says which. `measured_bandwidth` is a published measurement beside a datasheet figure, never in
// its place.
// The path between a level and the next faster one, in a core's cycles, as the ECM model takes it
// (kerncraft's `upstream throughput` and `transfers overlap`): the bytes it moves per cycle toward the
// inner level where that is stated per cycle (not published: the level's bandwidth over the clock),
// whether its transfers overlap the others, and whether it moves lines in and out at once (full duplex:
// the busier direction takes the time; half duplex, the default: both add up). The fastest level has none.
struct level_transfer {
  figure<bytes_per_cycle> rate{};
  bool overlaps = false;
  bool full_duplex = false;  // lines in and lines out move at once, each at `rate` (kerncraft's "full-duplex")
  friend constexpr bool operator==(const level_transfer&, const level_transfer&) = default;
};

// A victim cache (Skylake-SP's and Sapphire Rapids' non-inclusive L3, every Zen's L3) is filled with the
// lines the level inside it evicts, clean or dirty, and not with that level's misses: those load from the
// level outside it, past it, unless they hit in it. Its lines are not also in the level inside, so a
// reuse is kept where the two together hold it.
struct level_description {
  std::string_view name{};            // "L2", "HBM3", "DDR5"
  figure<data_size> capacity{};
  figure<data_rate> bandwidth{};
  figure<data_rate> write_bandwidth{};  // where writes differ; not published: as `bandwidth`
  figure<data_rate> measured_bandwidth{};
  figure<duration> latency{};
  sharing scope = sharing::shared;
  memory_interface interface{};
  level_transfer upstream{};
  bool victim = false;  // a victim cache of the level inside it (see above); never the fastest level or main memory
  // Software places data in it (a Xeon Max's HBM in flat mode), so it is a tier of its own beside main memory
  // (hml::tiers_of); a level before main memory is otherwise a cache, which hardware fills. Main memory always is.
  bool addressable = false;
  friend constexpr bool operator==(const level_description&, const level_description&) = default;
};

// A main-memory bandwidth measured with a kernel of `reads` read and `writes` write streams. likwid-bench
// counts the streams, not the write-allocates behind normal stores (write_allocate_counted = false), so
// hml scales it by (R + 2W) / (R + W) to the traffic that really moved, as kerncraft does. A mix measured
// with non-temporal stores (a streaming copy, glibc's memmove of a large block) moved what it counts: its
// stores read no line first, and they take their own path to memory, so kernels that store that way are
// predicted from such a mix where the machine has one.
struct stream_mix_bandwidth {
  std::string_view kernel{};  // "copy", "triad", "load", "copy-nt"
  unsigned reads = 0;
  unsigned writes = 0;
  figure<data_rate> bandwidth{};
  bool write_allocate_counted = false;
  bool non_temporal = false;
  friend constexpr bool operator==(const stream_mix_bandwidth&, const stream_mix_bandwidth&) = default;
};

// The traffic a mix of `reads` read and `writes` write streams really moves per byte a counter of streams
// counts, where each store reads its line first: (R + 2W) / (R + W); 5/4 for a Schoenauer triad (3 and 1).
[[nodiscard]] constexpr double write_allocate_factor(unsigned reads, unsigned writes) noexcept {
  return static_cast<double>(reads + 2 * writes) / (reads + writes);
}

inline constexpr std::size_t max_stream_mixes = 8;

// --- Compute -----------------------------------------------------------------------------------------

// One compute ceiling. `dense` is its own peak, as `bandwidth` is a level's (datasheet, derived or, for a
// machine that was only measured, measured); `sparse` is the vendor's
// structured-sparsity figure, kept apart so that it never passes for a dense one; `measured` is a published
// measurement beside the datasheet. A `variant` ("no FMA") is a lower ceiling of the same unit, such as code
// without fused multiply-adds reaches; the unit's peak has none.
struct ceiling_description {
  precision type = precision::fp32;
  compute_unit unit = compute_unit::vector;
  figure<compute_rate> dense{};
  figure<compute_rate> sparse{};
  figure<compute_rate> measured{};
  std::string_view variant{};

  [[nodiscard]] constexpr compute_kind kind() const noexcept { return {type, unit}; }
  // Its name in tables and notes: the variant where it is one ("FP64 without FMA"), else its kind ("FP16 tensor").
  [[nodiscard]] constexpr std::string_view name() const noexcept { return variant.empty() ? to_string(kind()) : variant; }
  friend constexpr bool operator==(const ceiling_description&, const ceiling_description&) = default;
};

// A peak from its parts: cores x clock x FLOP per cycle per core (96 x 2.4 GHz x 16 = 3.6864 TFLOP/s).
// Derived, or unconfirmed when the clock is.
[[nodiscard]] constexpr figure<compute_rate> derived_peak(unsigned cores, const figure<frequency>& clock,
                                                          double flop_per_cycle) {
  expects(cores > 0 && clock.published() && flop_per_cycle > 0, "hml: a derived peak needs cores, clock and FLOP/cycle");
  const provenance kind = clock.kind == provenance::unconfirmed ? provenance::unconfirmed : provenance::derived;
  return {cores * (clock.value * (flop_per_cycle * flop)), kind, clock.source};
}

// --- In-core ports --------------------------------------------------------------------------------------

// A simple port model: instructions of each kind per cycle and the SIMD width, the in-core part of the ECM
// model. Loads are the non-overlapping part (the L1 ports are busy with them and cannot take a line from
// L2 at the same time, as on Intel cores in the ECM papers); stores, FMA, ADD and MUL overlap, each on its
// own ports. A sketch, not IACA/OSACA: it ignores dependencies and the front end. Where loads and stores
// share the L1's ports, so that together they issue fewer per cycle than each kind alone (on this
// project's Zen 5 host, loops of one kind ran 2 vector loads or 1 vector store a cycle, mixed ones about
// 2.1 to 2.3 accesses), memory_ops_per_cycle caps them: the L1 is busy (loads + stores) /
// memory_ops_per_cycle cycles, and the loads wait for it. The defaults are a generic AVX2 core.
struct port_model {
  // The rates it takes, instructions per cycle (memory_ops_per_cycle and fma_per_cycle may also be 0): a
  // machine file outside them is refused, and the probe keeps a default where a measurement falls outside (a
  // loaded host).
  static constexpr double least_rate = 1e-3;
  static constexpr double most_rate = 64;
  // A rate that may be 0 but lies between none and the least rate (an FMA rate of 1e-300 made a core of
  // 10^300 cycles a line, a loads-and-stores rate so its L1).
  static constexpr bool between_none_and_least(double rate) { return rate > 0 && rate < least_rate; }
  static std::string none_or_rate_advice(std::string_view none) {
    return "is between 0 and 0.001 a cycle; give 0 (" + std::string{none} + ") or a rate from 0.001 to 64";
  }

  double loads_per_cycle = 2;
  double stores_per_cycle = 1;
  double memory_ops_per_cycle = 0;  // loads and stores together; 0: no shared limit
  double fma_per_cycle = 2;         // 0: no FMA unit (Sandy and Ivy Bridge), an FMA runs as an ADD and a MUL
  double add_per_cycle = 2;
  double mul_per_cycle = 2;
  std::size_t vector_bytes = 32;  // AVX2: 32 B per instruction
  friend constexpr bool operator==(const port_model&, const port_model&) = default;
};

// --- Domains ------------------------------------------------------------------------------------------------

// A part of the machine that has its own share of the shared levels: a socket, a NUMA node or a
// Cluster-on-Die half. `count` of them, each with `cores` cores, the `last_cache` of the last shared cache
// level that one domain sees and the `memory_bandwidth` its own memory controllers give it (not
// published: the machine's, shared by all domains).
struct domain_description {
  std::string_view name{};  // "socket", "NUMA node", "CoD"
  unsigned count = 1;
  unsigned cores = 0;
  figure<data_size> last_cache{};
  figure<data_rate> memory_bandwidth{};
  friend constexpr bool operator==(const domain_description&, const domain_description&) = default;
};

inline constexpr std::size_t max_domains = 4;

// --- The machine -------------------------------------------------------------------------------------

inline constexpr std::size_t max_memory_levels = 6;
// The most cores a machine (or a domain of it) may have: more than any machine has is a typo, and a table
// over cores (the ECM model's scaling) has a row for each (docs/reference/limits.md).
inline constexpr unsigned max_cores = 1U << 16;
// A core's clock, through which cycles become seconds: 1 MHz to 100 GHz (0.001 Hz made memory free in cycles).
inline constexpr frequency least_clock = 1e6 * hertz;
inline constexpr frequency most_clock = 1e11 * hertz;
// What one core (an SM, a CU) moves a cycle from any level, its own L1 included: no core loads more than a
// few hundred bytes a cycle, and a hard disk behind 576 cores still moves 1.7e-4 B. Outside, the cores, the
// clock or a rate's prefix is wrong.
inline constexpr double most_bytes_per_core_cycle = 1024;
inline constexpr double least_bytes_per_core_cycle = 1.0 / 65536;
inline constexpr std::size_t max_compute_ceilings = 20;

// The one description of a machine, whatever model asks: the roofline and the hierarchical roofline take
// its levels' bandwidths and its ceilings; tiers take its levels' capacities; the ECM model also its
// clock, cache line, the levels' per-cycle paths, main memory's stream mixes, ports, write-allocate and
// layer-condition share; the transformer model its ceilings per precision and its main memory.
// Its names view text it does not own (gsl::Pointer: clang warns where a copy outlives a file it came from).
struct [[gsl::Pointer]] machine_description {
  std::string_view id{};    // short name: "h100_sxm"
  std::string_view name{};  // "NVIDIA H100 SXM5 80GB"
  fixed_list<level_description, max_memory_levels> memory{};  // fastest first; the last is main memory
  fixed_list<ceiling_description, max_compute_ceilings> compute{};
  unsigned cores = 0;  // SMs, CUs or CPU cores; 0: not published
  figure<frequency> clock{};
  // A GPU kernel's fixed cost beyond its roofline time (the gap between back-to-back kernels, ramp-up, tail), as measured or derived
  // from a measurement; the expected time of hml.transformer adds it to each kernel. Not published: none.
  figure<duration> kernel_overhead{};
  // FlashAttention's forward rate on 16-bit activations, counted on the query-key tiles a causal kernel
  // computes (hml::causal_tile_work), as measured at a long sequence; the expected time of hml.transformer
  // takes fused prefill attention at it. Not published: the bound's rule (every score at the tensor peak).
  figure<compute_rate> attention_rate{};
  // The rate a weight-only INT4 product reads its stored weights at (scales and zero points included;
  // gpt-fast's tinygemm kernel, groups of 32, one row), where its dequantizing binds below main memory's
  // bandwidth: the H100 and the H200, whose memories differ by 1.4x, read at the same rate. The expected
  // time of hml.transformer takes such products' weights at it. Not published: main memory's bandwidth.
  figure<data_rate> int4_weight_rate{};
  std::string_view note{};
  std::size_t cacheline_bytes = 64;
  fixed_list<stream_mix_bandwidth, max_stream_mixes> memory_bandwidths{};  // main memory, measured per mix
  port_model ports{};
  std::string_view llvm_cpu{};  // LLVM's name of the core (clang's -march, llvm-mca's -mcpu): "sandybridge"
  bool write_allocate = true;          // a store that misses reads its line first
  double layer_condition_share = 0.5;  // the share of a cache that may hold reuse (kerncraft's machines: 1)
  fixed_list<domain_description, max_domains> domains{};  // none: one domain, the whole machine
  friend constexpr bool operator==(const machine_description&, const machine_description&) = default;
};

// A CPU's name as LLVM spells them ("sandybridge", "skylake-avx512", "znver4"): lower-case letters, digits,
// '-', '_' and '.', at most 64; empty: the machine names none.
[[nodiscard]] constexpr bool is_llvm_cpu_name(std::string_view name) noexcept {
  if (name.size() > 64) return false;
  for (const char c : name) {
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '.')) return false;
  }
  return true;
}

// An id as the catalog's are and as options take them: lower-case letters, digits and _, not empty.
[[nodiscard]] constexpr bool is_machine_id(std::string_view id) noexcept {
  if (id.empty()) return false;
  for (const char c : id) {
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')) return false;
  }
  return true;
}

// Which figure a view takes: the machine's own (`bandwidth`, `dense`: the datasheet's for a catalog device),
// the published measurement beside it (`measured_bandwidth`, `measured`; unpublished where there is none),
// or the measurement where there is one and the machine's own figure elsewhere (hml's `--figures measured`).
enum class basis { datasheet, measured, measured_where_published };

namespace detail {
template <class Quantity>
[[nodiscard]] constexpr figure<Quantity> on_basis(const figure<Quantity>& own, const figure<Quantity>& measurement,
                                                  basis b) noexcept {
  if (b == basis::datasheet) return own;
  if (b == basis::measured) return measurement;
  return measurement.published() ? measurement : own;
}
}  // namespace detail

[[nodiscard]] constexpr const level_description& main_memory(const machine_description& m) {
  expects(!m.memory.empty(), "hml: the machine describes no memory");
  return m.memory.back();
}

// The first cache (neither addressable nor main memory) after a tier, between it and main memory, which a
// tiered memory cannot hold: its tiers are flat, placed in by software. m.memory.size() where there is none.
[[nodiscard]] constexpr std::size_t cache_between_tiers(const machine_description& m) noexcept {
  bool tier_before = false;
  for (std::size_t i = 0; i + 1 < m.memory.size(); ++i) {
    if (m.memory[i].addressable) tier_before = true;
    else if (tier_before) return i;
  }
  return m.memory.size();
}

[[nodiscard]] constexpr figure<data_rate> bandwidth_of(const level_description& l, basis b) noexcept {
  return detail::on_basis(l.bandwidth, l.measured_bandwidth, b);
}

[[nodiscard]] constexpr figure<compute_rate> peak(const ceiling_description& c, basis b) noexcept {
  return detail::on_basis(c.dense, c.measured, b);
}

// The ceiling of this kind (its peak, not a variant); nullptr if the machine has none.
[[nodiscard]] constexpr const ceiling_description* find_ceiling(const machine_description& m, compute_kind k) noexcept {
  for (const ceiling_description& c : m.compute) {
    if (c.kind() == k && c.variant.empty()) return &c;
  }
  return nullptr;
}

// A precision alone means its vector units where the machine has a peak for them (datasheet or measured),
// else its tensor units (FP16 on an H100: the tensor cores, 989 TFLOP/s). Name the unit to choose otherwise.
[[nodiscard]] constexpr compute_kind kind_for(const machine_description& m, precision p) noexcept {
  const ceiling_description* vector = find_ceiling(m, {p, compute_unit::vector});
  if (vector != nullptr && (vector->dense.published() || vector->measured.published())) {
    return {p, compute_unit::vector};
  }
  return {p, compute_unit::tensor};
}

// The peak of this kind, or an unpublished figure.
[[nodiscard]] constexpr figure<compute_rate> peak(const machine_description& m, compute_kind k,
                                                  basis b = basis::datasheet) noexcept {
  const ceiling_description* c = find_ceiling(m, k);
  return c == nullptr ? figure<compute_rate>{} : peak(*c, b);
}

// The machine with the figures of this basis as its own: every level's bandwidth and every ceiling's dense
// peak replaced by the one the basis picks, provenance and source kept. A model that reads a machine's own
// figures (roof_of, tiers_of, the transformer's time_on, the offload plan) then runs on the chosen ones;
// this is how every subcommand's `--figures` reaches every model. The measured stream mixes are
// measurements too: the datasheet's view drops them where main memory states a datasheet bandwidth of its
// own (the ECM model then takes that), and keeps them where they are the only figure or main memory's
// bandwidth is itself a measurement (a kerncraft machine's likwid-bench load run).
[[nodiscard]] constexpr machine_description with_figures(machine_description m, basis b) noexcept {
  if (b == basis::datasheet && !m.memory.empty() && m.memory.back().bandwidth.published() &&
      m.memory.back().bandwidth.kind != provenance::measured)
    m.memory_bandwidths = {};
  for (std::size_t i = 0; i < m.memory.size(); ++i) m.memory[i].bandwidth = bandwidth_of(m.memory[i], b);
  for (std::size_t i = 0; i < m.compute.size(); ++i) m.compute[i].dense = peak(m.compute[i], b);
  return m;
}

}  // namespace hml
