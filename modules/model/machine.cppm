// hml.machine — the toy lab's simple forms of a machine: a flat memory with latency and bandwidth, cache
// hierarchies with hit rates, and a compute core with a peak rate; the rate a memory sustains for a
// workload's access pattern. They stay as the seed wrote them, and convert to the one machine description
// (describe) and back (memory_of, core_of).
module;
#include <array>
#include <concepts>
#include <cstddef>
export module hml.machine;
export import hml.workload;
export import hml.machine_description;

export namespace hml {

// A flat memory: every transfer pays the latency once, then streams at the bandwidth (the seed's
// memory_model).
struct memory {
  duration latency;
  data_rate bandwidth;
};

// One level of a cache hierarchy. Its hit rate is local: the fraction of the accesses that reach this
// level and are served here. The last level serves whatever reaches it, whatever its hit rate says.
struct memory_level {
  data_rate bandwidth;
  double hit_rate = 1.0;
};

// L1 / L2 / LLC / DRAM, or any shorter chain, fastest first.
template <std::size_t Levels>
struct memory_hierarchy {
  duration latency;
  std::array<memory_level, Levels> levels;
};

// The seed's two-tier memory: a fast tier that serves `hit_rate` of the bytes, a slow tier the rest.
struct two_tier_memory {
  duration latency;
  data_rate fast;
  data_rate slow;
  double hit_rate;

  [[nodiscard]] constexpr memory_hierarchy<2> hierarchy() const noexcept {
    return {latency, {{{fast, hit_rate}, {slow, 1.0}}}};
  }
};

// Each parameter's check, written once. The models' validate() compose them; a front end checks one value
// at a time with them, so that its message can name the option that broke it (`hml lab --hit-rate 2`).
constexpr void validate_latency(duration t) {
  const double seconds = t.value();
  expects(seconds >= 0 && seconds <= largest_finite, "hml: memory latency must be finite and >= 0");
}
constexpr void validate_bandwidth(data_rate r) {
  const double rate = r.value();
  // Normal, not only > 0: a byte's time at a subnormal rate overflows to inf, and 0 B of a tier at it to NaN.
  expects(rate >= smallest_normal && rate <= largest_finite,
          rate > 0 && rate < smallest_normal ? "hml: memory bandwidth must be at least 2.2e-308 B/s (a normal double)"
                                             : "hml: memory bandwidth must be finite and > 0; give a rate above zero, as 3.35TB/s");
}
constexpr void validate_hit_rate(double h) {
  expects(h >= 0.0 && h <= 1.0, "hml: hit rate must be within [0, 1]; give the share of the bytes the fast tier serves, as 0.9 for 90 %");  // false for NaN
}

constexpr void validate(const memory& m) {
  validate_latency(m.latency);
  validate_bandwidth(m.bandwidth);
}

template <std::size_t Levels>
constexpr void validate(const memory_hierarchy<Levels>& h) {
  static_assert(Levels > 0, "hml: a memory hierarchy needs at least one level");
  validate_latency(h.latency);
  for (const memory_level& level : h.levels) {
    validate_bandwidth(level.bandwidth);
    validate_hit_rate(level.hit_rate);
  }
}

constexpr void validate(const two_tier_memory& m) { validate(m.hierarchy()); }

// --- Bytes and rates: each formula once --------------------------------------------------------------------

// time_to_move (hml.units) is the time bytes take at a rate; what follows builds on it.

// A share of a stream's bytes and the rate it is served at.
struct rate_share {
  double share;
  data_rate rate;
};

// The rate of a stream whose shares are served one after another: times per byte add, so rates combine
// harmonically, 1 / sum(share_i / rate_i) (hit rates down a hierarchy, a tier's reads and writes, a cache's
// misses and their fills). The shares need not add up to 1: a fill costs its share on top of the access.
template <std::size_t N>
[[nodiscard]] constexpr data_rate harmonic_mix(const std::array<rate_share, N>& parts) noexcept {
  static_assert(N > 0, "hml: a mix of rates needs at least one");
  // Seeded with the first part, not 0 s: `0.0 + x` is not an identity for x = -0.0, so the optimiser must
  // keep a zero seed's add on the critical path (benchmarks/zero_overhead measured it).
  duration per_byte = parts[0].share * (1 * byte / parts[0].rate);
  for (std::size_t i = 1; i < N; ++i) per_byte += parts[i].share * (1 * byte / parts[i].rate);
  return 1 * byte / per_byte;
}

}  // namespace hml

// The formulas, on parameters already checked. Each public function below checks its arguments, then calls
// one of these; a model that checks all its parameters first (run()) calls them directly, so that no
// parameter is checked twice in one evaluation (a compile-time sweep pays every check in constexpr steps).
export namespace hml::detail {

// The bandwidth a stream of bytes sees: the harmonic mean of the levels' bandwidths, weighted by the
// share of bytes each level serves (time adds up per byte, so rates combine harmonically).
[[nodiscard]] constexpr data_rate effective_bandwidth_unchecked(const memory& m) noexcept { return m.bandwidth; }

template <std::size_t Levels>
[[nodiscard]] constexpr data_rate effective_bandwidth_unchecked(const memory_hierarchy<Levels>& h) noexcept {
  double reaching = 1.0;  // share of the bytes that get this far down
  std::array<rate_share, Levels> served{};
  for (std::size_t i = 0; i < Levels; ++i) {
    const double share = i + 1 == Levels ? reaching : reaching * h.levels[i].hit_rate;
    reaching -= share;
    served[i] = {share, h.levels[i].bandwidth};
  }
  return harmonic_mix(served);
}

[[nodiscard]] constexpr data_rate effective_bandwidth_unchecked(const two_tier_memory& m) noexcept {
  return effective_bandwidth_unchecked(m.hierarchy());
}

}  // namespace hml::detail

export namespace hml {

[[nodiscard]] constexpr data_rate effective_bandwidth(const memory& m) {
  validate(m);
  return detail::effective_bandwidth_unchecked(m);
}

template <std::size_t Levels>
[[nodiscard]] constexpr data_rate effective_bandwidth(const memory_hierarchy<Levels>& h) {
  validate(h);
  return detail::effective_bandwidth_unchecked(h);
}

[[nodiscard]] constexpr data_rate effective_bandwidth(const two_tier_memory& m) {
  validate(m);
  return detail::effective_bandwidth_unchecked(m);
}

template <class M>
concept memory_model = requires(const M& m) {
  { effective_bandwidth(m) } -> std::same_as<data_rate>;
  { m.latency } -> std::convertible_to<duration>;
};

}  // namespace hml

export namespace hml::detail {

// A memory model's bandwidth without its checks where it has such a formula, else with them.
template <class M>
[[nodiscard]] constexpr data_rate peak_bandwidth_of(const M& m) {
  if constexpr (requires { effective_bandwidth_unchecked(m); }) {
    return effective_bandwidth_unchecked(m);
  } else {
    return effective_bandwidth(m);
  }
}

// The rate a memory sustains for this pattern: its bandwidth, or for random access the latency-bound rate
// of Little's law if that is lower.
template <class M>
[[nodiscard]] constexpr data_rate sustained_bandwidth_unchecked(const M& m, const access_pattern& p) {
  const data_rate peak = peak_bandwidth_of(m);
  if (p.order == access_order::sequential || m.latency.value() == 0) return peak;
  const data_rate latency_bound = p.outstanding * p.line / m.latency;
  return latency_bound < peak ? latency_bound : peak;
}

// Time to deliver `useful` bytes: one latency, then the traffic at the sustained rate.
template <class M>
[[nodiscard]] constexpr duration transfer_time_unchecked(const M& m, data_size useful, const access_pattern& p) {
  return m.latency + time_to_move(traffic_unchecked(useful, p), sustained_bandwidth_unchecked(m, p));
}

// A memory model's checks: its validate() where it has one, else those of its bandwidth.
template <class M>
constexpr void validate_memory(const M& m) {
  if constexpr (requires { validate(m); }) {
    validate(m);
  } else {
    (void)effective_bandwidth(m);
  }
}

}  // namespace hml::detail

export namespace hml {

template <memory_model M>
[[nodiscard]] constexpr data_rate sustained_bandwidth(const M& m, const access_pattern& p) {
  detail::validate_memory(m);
  validate(p);
  return detail::sustained_bandwidth_unchecked(m, p);
}

// A time from finite inputs can still overflow (10 MiB at 1e-300 B/s): an error naming its cause, never an
// inf in a result (a trial's infinite memory time was classified balanced with a compute time of 1 ms).
constexpr void validate_memory_time(duration t) {
  expects(t.value() <= largest_finite, "hml: the memory time overflows a double: too many bytes for the bandwidth");
}
constexpr void validate_compute_time(duration t) {
  expects(t.value() <= largest_finite, "hml: the compute time overflows a double: too much work for the peak");
}

template <memory_model M>
[[nodiscard]] constexpr duration transfer_time(const M& m, data_size useful, const access_pattern& p = sequential_access) {
  validate(p);
  detail::validate_memory(m);
  const duration t = detail::transfer_time_unchecked(m, useful, p);
  validate_memory_time(t);
  return t;
}

// A compute core: its peak rate for one precision (the seed's compute_core).
struct compute_core {
  compute_rate peak;
};

constexpr void validate_peak(compute_rate peak) {
  const double rate = peak.value();
  expects(rate >= smallest_normal && rate <= largest_finite,  // normal, as a bandwidth
          rate > 0 && rate < smallest_normal ? "hml: peak compute rate must be at least 2.2e-308 FLOP/s (a normal double)"
                                             : "hml: peak compute rate must be finite and > 0; give a rate above zero, as 67TFLOP/s");
}

constexpr void validate(const compute_core& c) { validate_peak(c.peak); }

constexpr void validate_work(work operations) {
  const double flops = operations.value();
  expects(flops >= 0 && flops <= largest_finite, "hml: work must be finite and >= 0");
}

}  // namespace hml

export namespace hml::detail {

[[nodiscard]] constexpr duration compute_time_unchecked(const compute_core& c, work operations) noexcept {
  return operations / c.peak;
}

}  // namespace hml::detail

export namespace hml {

[[nodiscard]] constexpr duration compute_time(const compute_core& c, work operations) {
  validate(c);
  validate_work(operations);
  const duration t = detail::compute_time_unchecked(c, operations);
  validate_compute_time(t);
  return t;
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
  expects(bandwidth_of(main, b).published(), "hml: the machine publishes no main-memory bandwidth; give main memory's bandwidth");
  return {main.latency.value, bandwidth_of(main, b).value};
}

// One compute ceiling as the seed's compute core. Main memory's bandwidth must be published too, as for
// the roofline this core is one side of (roof_of).
[[nodiscard]] constexpr compute_core core_of(const machine_description& m, compute_kind k, basis b = basis::datasheet) {
  expects(bandwidth_of(main_memory(m), b).published(), "hml: the machine publishes no main-memory bandwidth; give main memory's bandwidth");
  const figure<compute_rate> f = peak(m, k, b);
  expects(f.published(), no_peak_message(k));
  return {f.value};
}

}  // namespace hml
