// hml.machine_description — one description of a machine, whoever wrote it down: a catalog entry, a user's
// device file or the seed's simple forms. A machine is its memory levels, fastest first (each with a name, a
// typed capacity, bandwidth, write bandwidth where it differs, latency, and whether it is per core or
// shared), its compute ceilings per precision and unit (vector or tensor/matrix; dense, with the vendor's
// sparse figure kept apart), and a clock and core count where known. Every figure carries its provenance
// (stated, derived, measured, unconfirmed) and the key of its source. The roofline and the hierarchical
// roofline are views of it (roof_of, hierarchical_roof_of); memory and compute_core convert to it and back.
//
// The shape is constexpr: lists have a fixed capacity and a count, so entries of different shapes are one
// type and the catalog stays a constexpr table. A machine description is one node: links between machines
// (hml.link) join descriptions into systems (hml.catalog.systems) rather than live inside them, and its
// levels are the tiers of hml.tiers (tier_of).
module;
#include <array>
#include <cstddef>
#include <initializer_list>
#include <string_view>
export module hml.machine_description;
export import hml.analysis;

export namespace hml {

// Where a figure comes from.
enum class provenance {
  stated,       // in the vendor's datasheet, product brief or press release
  derived,      // computed in code from stated parts (pin rate x bus width, cores x clock x FLOP/cycle)
  measured,     // a published benchmark result
  unconfirmed,  // third-party or from memory: not confirmed in a retrieved text
};

[[nodiscard]] constexpr std::string_view to_string(provenance p) noexcept {
  switch (p) {
    case provenance::stated: return "stated";
    case provenance::derived: return "derived";
    case provenance::measured: return "measured";
    case provenance::unconfirmed: return "unconfirmed";
  }
  return "?";
}

// A value, its provenance and the key of its source (a document listed with the machine, e.g. in
// hml::devices::sources). A value of 0 means "not published" (or no such unit).
template <class Quantity>
struct figure {
  Quantity value{};
  provenance kind = provenance::stated;
  std::string_view source{};

  [[nodiscard]] constexpr bool published() const noexcept { return value.value() > 0; }
};

template <class Quantity>
[[nodiscard]] constexpr figure<Quantity> stated(Quantity q, std::string_view source = {}) noexcept {
  return {q, provenance::stated, source};
}
template <class Quantity>
[[nodiscard]] constexpr figure<Quantity> derived(Quantity q, std::string_view source = {}) noexcept {
  return {q, provenance::derived, source};
}
template <class Quantity>
[[nodiscard]] constexpr figure<Quantity> measured(Quantity q, std::string_view source = {}) noexcept {
  return {q, provenance::measured, source};
}
template <class Quantity>
[[nodiscard]] constexpr figure<Quantity> unconfirmed(Quantity q, std::string_view source = {}) noexcept {
  return {q, provenance::unconfirmed, source};
}

// A document a figure cites: its key, its title, and where a reader finds it.
struct source {
  std::string_view key;
  std::string_view title;
  std::string_view where;
};

// Up to `Capacity` values in order, constexpr: `fixed_list<int, 4>{1, 2}` holds two.
template <class T, std::size_t Capacity>
class fixed_list {
public:
  constexpr fixed_list() = default;
  constexpr fixed_list(std::initializer_list<T> items) {
    for (const T& item : items) push_back(item);
  }

  constexpr void push_back(const T& item) {
    expects(count_ < Capacity, "hml: a machine description's list is full");
    items_[count_++] = item;
  }

  [[nodiscard]] constexpr std::size_t size() const noexcept { return count_; }
  [[nodiscard]] constexpr bool empty() const noexcept { return count_ == 0; }
  [[nodiscard]] static constexpr std::size_t capacity() noexcept { return Capacity; }
  [[nodiscard]] constexpr const T* begin() const noexcept { return items_.data(); }
  [[nodiscard]] constexpr const T* end() const noexcept { return items_.data() + count_; }
  [[nodiscard]] constexpr const T& operator[](std::size_t i) const {
    expects(i < count_, "hml: index past the end of a machine description's list");
    return items_[i];
  }
  [[nodiscard]] constexpr T& operator[](std::size_t i) {
    expects(i < count_, "hml: index past the end of a machine description's list");
    return items_[i];
  }
  [[nodiscard]] constexpr const T& back() const { return (*this)[count_ - 1]; }

private:
  std::array<T, Capacity> items_{};
  std::size_t count_ = 0;
};

// --- Memory ------------------------------------------------------------------------------------------

// A DRAM / HBM interface: `channels` channels of `bus_bits` pins each, every pin moving `pin_rate` bits per
// second (DDR5-4800: 4.8 Gbit/s per pin, 64-bit channels). 0 bits: not published.
struct memory_interface {
  unsigned channels = 1;
  unsigned bus_bits = 0;
  figure<data_rate> pin_rate{};
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
// inner level where that is stated per cycle (not published: the level's bandwidth over the clock), and
// whether its transfers overlap the others. The fastest level has none.
struct level_transfer {
  figure<bytes_per_cycle> rate{};
  bool overlaps = false;
};

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
};

inline constexpr std::size_t max_stream_mixes = 8;

// --- Compute -----------------------------------------------------------------------------------------

enum class precision { fp64, fp32, tf32, bf16, fp16, fp8, int8, int4 };
inline constexpr std::array<precision, 8> all_precisions{precision::fp64, precision::fp32, precision::tf32,
                                                         precision::bf16, precision::fp16, precision::fp8,
                                                         precision::int8, precision::int4};

[[nodiscard]] constexpr std::string_view to_string(precision p) noexcept {
  switch (p) {
    case precision::fp64: return "FP64";
    case precision::fp32: return "FP32";
    case precision::tf32: return "TF32";
    case precision::bf16: return "BF16";
    case precision::fp16: return "FP16";
    case precision::fp8: return "FP8";
    case precision::int8: return "INT8";
    case precision::int4: return "INT4";
  }
  return "?";
}

// The precision of an element type, so that a kernel built from float32 data is analysed at FP32:
// `analyze(k, device, precision_of<float>)`. Only types whose precision is unambiguous have one.
template <class Element>
inline constexpr bool has_precision = false;
template <>
inline constexpr bool has_precision<double> = true;
template <>
inline constexpr bool has_precision<float> = true;

template <class Element>
  requires has_precision<Element>
inline constexpr precision precision_of = sizeof(Element) == 8 ? precision::fp64 : precision::fp32;

// Vector (CUDA cores, SIMD) or tensor / matrix units (Tensor Cores, Matrix Cores, AMX).
enum class compute_unit { vector, tensor };

// A precision on a unit: the key of a compute ceiling.
struct compute_kind {
  precision type;
  compute_unit unit;
  friend constexpr bool operator==(compute_kind, compute_kind) noexcept = default;
};

// "FP64", "FP64 tensor", ...: one name per kind.
[[nodiscard]] constexpr std::string_view to_string(compute_kind k) noexcept {
  constexpr std::array<std::string_view, 8> vector{"FP64", "FP32", "TF32", "BF16", "FP16", "FP8", "INT8", "INT4"};
  constexpr std::array<std::string_view, 8> tensor{"FP64 tensor", "FP32 tensor", "TF32 tensor", "BF16 tensor",
                                                   "FP16 tensor", "FP8 tensor",  "INT8 tensor", "INT4 tensor"};
  const auto i = static_cast<std::size_t>(k.type);
  return k.unit == compute_unit::vector ? vector[i] : tensor[i];
}

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
  double loads_per_cycle = 2;
  double stores_per_cycle = 1;
  double memory_ops_per_cycle = 0;  // loads and stores together; 0: no shared limit
  double fma_per_cycle = 2;
  double add_per_cycle = 2;
  double mul_per_cycle = 2;
  std::size_t vector_bytes = 32;  // AVX2: 32 B per instruction
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
};

inline constexpr std::size_t max_domains = 4;

// --- The machine -------------------------------------------------------------------------------------

inline constexpr std::size_t max_memory_levels = 6;
inline constexpr std::size_t max_compute_ceilings = 20;

// The one description of a machine, whatever model asks: the roofline and the hierarchical roofline take
// its levels' bandwidths and its ceilings; tiers take its levels' capacities; the ECM model also its
// clock, cache line, the levels' per-cycle paths, main memory's stream mixes, ports, write-allocate and
// layer-condition share; the transformer model its ceilings per precision and its main memory.
struct machine_description {
  std::string_view id{};    // short name: "h100_sxm"
  std::string_view name{};  // "NVIDIA H100 SXM5 80GB"
  fixed_list<level_description, max_memory_levels> memory{};  // fastest first; the last is main memory
  fixed_list<ceiling_description, max_compute_ceilings> compute{};
  unsigned cores = 0;  // SMs, CUs or CPU cores; 0: not published
  figure<frequency> clock{};
  std::string_view note{};
  std::size_t cacheline_bytes = 64;
  fixed_list<stream_mix_bandwidth, max_stream_mixes> memory_bandwidths{};  // main memory, measured per mix
  port_model ports{};
  bool write_allocate = true;          // a store that misses reads its line first
  double layer_condition_share = 0.5;  // the share of a cache that may hold reuse (kerncraft's machines: 1)
  fixed_list<domain_description, max_domains> domains{};  // none: one domain, the whole machine
};

// Which figure a view takes: the machine's own (`bandwidth`, `dense`: the datasheet's for a catalog device)
// or the published measurement beside it (`measured_bandwidth`, `measured`).
enum class basis { datasheet, measured };

[[nodiscard]] constexpr const level_description& main_memory(const machine_description& m) {
  expects(!m.memory.empty(), "hml: the machine describes no memory");
  return m.memory.back();
}

[[nodiscard]] constexpr figure<data_rate> bandwidth_of(const level_description& l, basis b) noexcept {
  return b == basis::datasheet ? l.bandwidth : l.measured_bandwidth;
}

[[nodiscard]] constexpr figure<compute_rate> peak(const ceiling_description& c, basis b) noexcept {
  return b == basis::datasheet ? c.dense : c.measured;
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

// The roofline of one compute ceiling against main memory.
[[nodiscard]] constexpr roof roof_of(const machine_description& m, compute_kind k, basis b = basis::datasheet) {
  const figure<data_rate> memory_roof = bandwidth_of(main_memory(m), b);
  const figure<compute_rate> compute_roof = peak(m, k, b);
  expects(memory_roof.published(), "hml: the machine publishes no main-memory bandwidth");
  expects(compute_roof.published(), "hml: the machine publishes no peak for this precision and unit");
  return {memory_roof.value, compute_roof.value};
}

// Whether roof_of(m, p) has both its figures: a main-memory bandwidth and a peak for the precision.
[[nodiscard]] constexpr bool has_roof(const machine_description& m, precision p, basis b = basis::datasheet) {
  return bandwidth_of(main_memory(m), b).published() && peak(m, kind_for(m, p), b).published();
}

// There is no roof_of(machine) without a precision: FP32 on an H100 has its ridge at 20 FLOP/B, FP16 on
// its tensor cores at 295.
[[nodiscard]] constexpr roof roof_of(const machine_description& m, precision p, basis b = basis::datasheet) {
  return roof_of(m, kind_for(m, p), b);
}

// `analyze(matmul<float>(4096), devices::h100_sxm, precision::fp32)`; the precision is required.
[[nodiscard]] constexpr roofline_point analyze(const kernel& k, const machine_description& m, precision p) {
  return analyze(k, roof_of(m, p));
}
[[nodiscard]] constexpr roofline_point analyze(const kernel& k, const machine_description& m, compute_kind c) {
  return analyze(k, roof_of(m, c));
}

// The hierarchical roofline: every level whose bandwidth (on this basis) is published, fastest first, and
// every ceiling whose peak is, variants included, in the machine's order. Levels and Units must be those
// counts: `hierarchical_roof_of<3, 2>(devices::v100, basis::measured)`.
template <std::size_t Levels, std::size_t Units>
[[nodiscard]] constexpr hierarchical_roof<Levels, Units> hierarchical_roof_of(const machine_description& m, basis b) {
  hierarchical_roof<Levels, Units> r{};
  std::size_t levels = 0;
  for (const level_description& l : m.memory) {
    if (!bandwidth_of(l, b).published()) continue;
    expects(levels < Levels, "hml: the machine has more memory ceilings than asked for");
    r.bandwidths[levels++] = {l.name, bandwidth_of(l, b).value};
  }
  std::size_t units = 0;
  for (const ceiling_description& c : m.compute) {
    if (!peak(c, b).published()) continue;
    expects(units < Units, "hml: the machine has more compute ceilings than asked for");
    r.peaks[units++] = {c.variant.empty() ? to_string(c.kind()) : c.variant, peak(c, b).value};
  }
  expects(levels == Levels && units == Units, "hml: the machine has fewer ceilings than asked for");
  return r;
}

// --- The seed's simple forms, as descriptions and back ---------------------------------------------------

// A flat memory and one compute core, at the precision the caller names.
[[nodiscard]] constexpr machine_description describe(const memory& mem, const compute_core& core, precision p) {
  validate(mem);
  validate(core);
  machine_description m{};
  m.memory.push_back({.name = "memory", .bandwidth = stated(mem.bandwidth), .latency = stated(mem.latency)});
  m.compute.push_back({.type = p, .unit = compute_unit::vector, .dense = stated(core.peak)});
  return m;
}

// The seed's two tiers as two levels, fast then slow; the latency is paid once, so it is the slow tier's.
// (The hit rate belongs to a workload on the machine, not to the machine.)
[[nodiscard]] constexpr machine_description describe(const two_tier_memory& mem, const compute_core& core,
                                                     precision p) {
  validate(mem);
  validate(core);
  machine_description m{};
  m.memory.push_back({.name = "fast", .bandwidth = stated(mem.fast)});
  m.memory.push_back({.name = "slow", .bandwidth = stated(mem.slow), .latency = stated(mem.latency)});
  m.compute.push_back({.type = p, .unit = compute_unit::vector, .dense = stated(core.peak)});
  return m;
}

// Main memory as the seed's flat memory (its latency, 0 s where none is published).
[[nodiscard]] constexpr memory memory_of(const machine_description& m, basis b = basis::datasheet) {
  const level_description& main = main_memory(m);
  expects(bandwidth_of(main, b).published(), "hml: the machine publishes no main-memory bandwidth");
  return {main.latency.value, bandwidth_of(main, b).value};
}

[[nodiscard]] constexpr compute_core core_of(const machine_description& m, compute_kind k, basis b = basis::datasheet) {
  return {roof_of(m, k, b).peak};
}

}  // namespace hml
