// hml.analysis:time_model — the seed lab's system model: how long a kernel takes on a memory and a compute
// core, and which of the two limits it.
module;
#include <string_view>
export module hml.analysis:time_model;
import hml.machine;

export namespace hml {

// Whether memory transfers and computation overlap. `none` adds them (the seed lab: total = memory +
// compute); `full` takes the larger (the roofline's assumption of perfect overlap).
enum class overlap { none, full };

enum class regime { memory_bound, compute_bound, balanced };

[[nodiscard]] constexpr std::string_view to_string(regime r) noexcept {
  switch (r) {
    case regime::memory_bound: return "memory-bound";
    case regime::compute_bound: return "compute-bound";
    case regime::balanced: return "balanced";
  }
  return "?";
}

// Two times within `tolerance` of the larger one are balanced. The default, 10 %, is narrower than the
// seed's closest case (compute 25 % above memory, 20 % of the larger), which the seed calls compute-bound.
inline constexpr double default_balance_tolerance = 0.10;

struct time_options {
  overlap overlap_policy = overlap::none;
  double balance_tolerance = default_balance_tolerance;
};

constexpr void validate_balance_tolerance(double tolerance) {
  expects(tolerance >= 0.0 && tolerance < 1.0, "hml: balance tolerance must be within [0, 1)");
}
constexpr void validate(const time_options& o) {
  expects(o.overlap_policy == overlap::none || o.overlap_policy == overlap::full, "hml: the overlap policy is none or full");
  validate_balance_tolerance(o.balance_tolerance);
}

}  // namespace hml

export namespace hml::detail {

// On the two times' values in seconds, one expression: the same operations as on the quantities, which a
// compile-time sweep would pay in constexpr steps (each quantity operator is a few calls).
[[nodiscard]] constexpr regime classify_unchecked(duration memory_time, duration compute_time, double tolerance) noexcept {
  const double memory = memory_time.value();
  const double compute = compute_time.value();
  const double larger = memory > compute ? memory : compute;
  if (__builtin_fabs(memory - compute) <= tolerance * larger) return regime::balanced;
  return memory > compute ? regime::memory_bound : regime::compute_bound;
}

}  // namespace hml::detail

export namespace hml {

[[nodiscard]] constexpr regime classify(duration memory_time, duration compute_time,
                                        double tolerance = default_balance_tolerance) {
  expects(memory_time.value() >= 0 && compute_time.value() >= 0, "hml: classify takes two times >= 0");  // false for NaN
  validate_memory_time(memory_time);
  validate_compute_time(compute_time);
  validate_balance_tolerance(tolerance);
  return detail::classify_unchecked(memory_time, compute_time, tolerance);
}

struct time_breakdown {
  duration memory_time;
  duration compute_time;
  duration total;
  regime limit;
};

[[nodiscard]] constexpr duration combine(duration memory_time, duration compute_time, overlap policy) noexcept {
  if (policy == overlap::full) return memory_time > compute_time ? memory_time : compute_time;
  return memory_time + compute_time;
}

// The kernel on this memory and core: memory time, compute time, their total under the overlap policy,
// and the regime. Every parameter is checked once, up front, then the formulas run unchecked.
template <memory_model Memory>
[[nodiscard]] constexpr time_breakdown run(const kernel& k, const Memory& memory, const compute_core& core,
                                           time_options options = {}) {
  validate(k);
  detail::validate_memory(memory);
  validate(core);
  validate(options);
  const duration memory_time = detail::transfer_time_unchecked(memory, k.bytes, k.pattern);
  const duration compute_time = detail::compute_time_unchecked(core, k.flops);
  validate_memory_time(memory_time);
  validate_compute_time(compute_time);
  const duration total = combine(memory_time, compute_time, options.overlap_policy);
  expects(total.value() <= largest_finite, "hml: the total time overflows a double: the memory and compute times add past 1.8e308 s");
  return {memory_time, compute_time, total, detail::classify_unchecked(memory_time, compute_time, options.balance_tolerance)};
}

}  // namespace hml
