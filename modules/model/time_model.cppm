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

[[nodiscard]] constexpr regime classify(duration memory_time, duration compute_time,
                                        double tolerance = default_balance_tolerance) {
  expects(tolerance >= 0.0 && tolerance < 1.0, "hml: balance tolerance must be within [0, 1)");
  const duration larger = memory_time > compute_time ? memory_time : compute_time;
  if (abs(memory_time - compute_time) <= tolerance * larger) return regime::balanced;
  return memory_time > compute_time ? regime::memory_bound : regime::compute_bound;
}

struct time_breakdown {
  duration memory;
  duration compute;
  duration total;
  regime limit;
};

[[nodiscard]] constexpr duration combine(duration memory_time, duration compute_time, overlap policy) noexcept {
  if (policy == overlap::full) return memory_time > compute_time ? memory_time : compute_time;
  return memory_time + compute_time;
}

// The kernel on this memory and core: memory time, compute time, their total under the overlap policy,
// and the regime.
template <memory_model Memory>
[[nodiscard]] constexpr time_breakdown run(const kernel& k, const Memory& memory, const compute_core& core,
                                           time_options options = {}) {
  validate(k);
  const duration memory_time = transfer_time(memory, k.bytes, k.pattern);
  const duration compute_time = hml::compute_time(core, k.flops);
  return {memory_time, compute_time, combine(memory_time, compute_time, options.overlap_policy),
          classify(memory_time, compute_time, options.balance_tolerance)};
}

}  // namespace hml
