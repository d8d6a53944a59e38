// hml.sweep:crossover — where the regime changes, in closed form: the point at which memory time equals
// compute time. Each solves the analysis model (run(): memory time = transfer_time, compute time =
// compute_time) for one parameter, so it answers what a fine sweep would find, without the sweep;
// tests/runtime/crossover_test.cpp checks each against one.
module;
#include <cstdint>
export module hml.sweep:crossover;
import hml.analysis;

export namespace hml {

// Whether a crossover exists in the parameter's domain.
enum class crossing {
  at,      // memory-bound on one side of `value`, compute-bound on the other
  never,   // memory-bound everywhere in the domain (e.g. the latency alone exceeds the compute time)
  always,  // compute-bound (or balanced) everywhere in the domain; `value` is the domain's lower end
};

template <class T>
struct crossover {
  crossing where;
  T value{};

  [[nodiscard]] constexpr bool exists() const noexcept { return where == crossing::at; }
};

// The memory bandwidth at which kernel `k` on `core` becomes compute-bound, with `latency` paid per
// transfer: latency + traffic / bandwidth == compute time. Memory-bound below it, compute-bound above.
// Never when the latency alone takes as long as the computation, or when random access is capped by
// Little's law below the bandwidth needed.
[[nodiscard]] constexpr crossover<data_rate> balance_bandwidth(const kernel& k, duration latency,
                                                               const compute_core& core) {
  validate(k);
  validate_latency(latency);  // before an infinite one is answered "never"
  const duration computing = compute_time(core, k.flops);
  const data_size moved = traffic(k.bytes, k.pattern);
  if (moved.value() == 0) {
    return {latency <= computing ? crossing::always : crossing::never, data_rate{}};
  }
  const duration time_left_for_bytes = computing - latency;
  if (time_left_for_bytes.value() <= 0) return {crossing::never, data_rate{}};
  const data_rate needed = moved / time_left_for_bytes;
  if (sustained_bandwidth(memory{latency, needed}, k.pattern) < needed) return {crossing::never, data_rate{}};
  return {crossing::at, needed};
}

// The hit rate of `m`'s fast tier at which `k` becomes compute-bound (m.hit_rate is ignored): the rate
// whose effective bandwidth equals balance_bandwidth. Memory-bound below it, compute-bound above.
[[nodiscard]] constexpr crossover<double> critical_hit_rate(const kernel& k, const two_tier_memory& m,
                                                            const compute_core& core) {
  validate(m);
  const crossover<data_rate> needed = balance_bandwidth(k, m.latency, core);
  if (needed.where != crossing::at) return {needed.where, 0.0};
  if (needed.value <= m.slow) return {crossing::always, 0.0};
  if (needed.value > m.fast) return {crossing::never, 0.0};
  // effective_bandwidth's harmonic mean, 1/B = h/fast + (1-h)/slow, solved for h.
  const duration per_byte_slow = 1 * byte / m.slow;
  const duration per_byte_fast = 1 * byte / m.fast;
  const duration per_byte_needed = 1 * byte / needed.value;
  return {crossing::at, (per_byte_slow - per_byte_needed) / (per_byte_slow - per_byte_fast)};
}

// The smallest tile (a divisor of n) that makes tiled_matmul<Element>(n, tile) compute-bound on `m` and
// `core`. The model's traffic is a / tile + b bytes; a and b are read off tiled_matmul at tile 1 and
// tile n rather than restated. Never when even the untiled reads of C (b) leave no time, or no divisor
// of n is large enough; always (value 1) when tile 1 already suffices.
template <class Element, memory_model Memory>
[[nodiscard]] constexpr crossover<std::uint64_t> smallest_compute_bound_tile(std::uint64_t n, const Memory& m,
                                                                             const compute_core& core) {
  expects(n >= 1, "hml: the matrix size must be >= 1");
  const kernel untiled = tiled_matmul<Element>(n, 1);
  const kernel whole = tiled_matmul<Element>(n, n);
  const double nn = static_cast<double>(n);
  const data_size per_tile = n == 1 ? data_size{} : (untiled.bytes - whole.bytes) * (nn / (nn - 1.0));  // a
  const data_size fixed_part = untiled.bytes - per_tile;                                                  // b
  const data_rate bandwidth = effective_bandwidth(m);
  const duration slack = compute_time(core, untiled.flops) - m.latency - time_to_move(fixed_part, bandwidth);
  if (slack.value() <= 0) return {crossing::never, 0};
  const double threshold = per_tile / (bandwidth * slack);  // memory time == compute time at this tile
  if (threshold <= 1.0) return {crossing::always, 1};
  for (std::uint64_t tile = 2; tile <= n; ++tile) {
    if (n % tile == 0 && static_cast<double>(tile) >= threshold) return {crossing::at, tile};
  }
  return {crossing::never, 0};
}

template <class Element>
[[nodiscard]] constexpr crossover<std::uint64_t> smallest_compute_bound_tile(std::uint64_t n, compute_rate peak,
                                                                             data_rate bandwidth) {
  return smallest_compute_bound_tile<Element>(n, memory{duration{}, bandwidth}, compute_core{peak});
}

}  // namespace hml
