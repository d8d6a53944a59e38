// The baseline: seed 000's cache model written by hand on raw doubles (seconds, bytes, bytes per second,
// FLOP per second). It restates hml's formulas on purpose: it is the code hml is measured against. The
// operations come in hml's order (two_tier_memory -> effective_bandwidth -> transfer_time, compute_time,
// combine, classify), so both give the same bits, which zero_overhead checks before it times anything.
#pragma once
#include <cmath>
#include <stdexcept>

namespace raw {

enum class regime { memory_bound, compute_bound, balanced };

struct breakdown {
  double memory;
  double compute;
  double total;
  regime limit;
};

struct seed_cache {
  double bytes;
  double flops;
  double latency;
  double fast;
  double peak;
};

inline constexpr double balance_tolerance = 0.10;

[[nodiscard]] inline breakdown run(const seed_cache& s, double slow, double hit_rate) noexcept {
  // Seconds per byte: the fast tier serves hit_rate of the bytes, the slow tier the rest.
  double seconds_per_byte = hit_rate * (1.0 / s.fast);
  const double reaching_slow = 1.0 - hit_rate;
  seconds_per_byte += reaching_slow * (1.0 / slow);
  const double bandwidth = 1.0 / seconds_per_byte;
  const double memory = s.latency + s.bytes / bandwidth;
  const double compute = s.flops / s.peak;
  const double larger = memory > compute ? memory : compute;
  const regime limit = std::abs(memory - compute) <= balance_tolerance * larger ? regime::balanced
                       : memory > compute                                      ? regime::memory_bound
                                                                               : regime::compute_bound;
  return {memory, compute, memory + compute, limit};
}

// hml checks every parameter of every call (std::invalid_argument), and the optimizer hoists the checks of
// the fixed ones out of a sweep's loop. Written by hand, one checks the fixed parameters once (validate)
// and the swept ones at every point (validate_swept); a version that repeats every check at every point
// measured slower than hml itself (clang 19), so it would flatter hml and is not the baseline.
inline void check(bool condition, const char* message) {
  if (!condition) throw std::invalid_argument(message);
}

inline bool is_finite(double x) noexcept { return x - x == 0.0; }  // NaN and infinities give NaN

inline void validate(const seed_cache& s) {
  check(is_finite(s.flops) && s.flops >= 0, "FLOP must be finite and >= 0");
  check(is_finite(s.bytes) && s.bytes >= 0, "bytes must be finite and >= 0");
  check(is_finite(s.latency) && s.latency >= 0, "latency must be finite and >= 0");
  check(is_finite(s.fast) && s.fast > 0, "bandwidth must be finite and > 0");
  check(is_finite(s.peak) && s.peak > 0, "peak must be finite and > 0");
}

inline void validate_swept(double slow, double hit_rate) {
  check(is_finite(slow) && slow > 0, "bandwidth must be finite and > 0");
  check(hit_rate >= 0.0 && hit_rate <= 1.0, "hit rate must be within [0, 1]");
}

}  // namespace raw
