// hml.analysis:roofline — the roofline model: a kernel's attainable FLOP/s is the lower of the compute
// ceiling and intensity x bandwidth, and the ridge point (where the two meet) says which one binds.
//
// For one memory level and one compute ceiling the results are those of seed 002's reference solution,
// operation for operation: ridge = peak / bandwidth; intensity = FLOP / B (infinite when no bytes move);
// attainable = min(peak, intensity x bandwidth); compute-bound when intensity >= ridge (a kernel exactly at
// the ridge counts as compute-bound); efficiency = attainable / peak x 100; time = FLOP / attainable
// (infinite when attainable is 0).
module;
#include <array>
#include <cstddef>
#include <limits>
#include <span>
#include <string_view>
export module hml.analysis:roofline;
import hml.machine;
import :time_model;

namespace hml::detail {
inline constexpr double infinity = std::numeric_limits<double>::infinity();
}  // namespace hml::detail

export namespace hml {

// One memory ceiling and one compute ceiling.
struct roof {
  data_rate bandwidth;
  compute_rate peak;
};

constexpr void validate(const roof& r) {
  validate_bandwidth(r.bandwidth);
  validate_peak(r.peak);
}

// The intensity at which the memory roof meets the compute roof.
[[nodiscard]] constexpr arithmetic_intensity ridge_point(const roof& r) {
  validate(r);
  return r.peak / r.bandwidth;
}

// min(peak, intensity x bandwidth); an infinite intensity reaches the peak.
[[nodiscard]] constexpr compute_rate attainable(arithmetic_intensity ai, const roof& r) {
  validate(r);
  const compute_rate memory_roof = ai * r.bandwidth;
  return memory_roof < r.peak ? memory_roof : r.peak;
}

// Ties classify compute-bound, as seed 002 does (`ai >= ridge_point`).
[[nodiscard]] constexpr regime bound(arithmetic_intensity ai, const roof& r) {
  return ai >= ridge_point(r) ? regime::compute_bound : regime::memory_bound;
}

// Work done at `rate`; infinite when the rate is 0 (seed 002: `flops / attainable if attainable > 0`).
[[nodiscard]] constexpr duration time_at(work w, compute_rate rate) noexcept {
  if (rate.value() <= 0) return duration::from_value(detail::infinity);
  return w / rate;
}

// Seed 002's result fields.
struct roofline_point {
  std::string_view name;
  arithmetic_intensity intensity;
  compute_rate attainable;
  regime bound;
  double efficiency_percent;  // attainable / peak x 100
  duration estimated_time;
};

[[nodiscard]] constexpr roofline_point analyze(const kernel& k, const roof& r) {
  const arithmetic_intensity ai = intensity(k);
  const compute_rate rate = attainable(ai, r);
  return {k.name, ai, rate, bound(ai, r), rate / r.peak * 100, time_at(k.flops, rate)};
}

// Seed 002's roofline_analysis over a list of operations: one point per kernel, in order.
constexpr void analyze(std::span<const kernel> kernels, const roof& r, std::span<roofline_point> out) {
  expects(out.size() >= kernels.size(), "hml: the output span is shorter than the kernel list");
  for (std::size_t i = 0; i < kernels.size(); ++i) out[i] = analyze(kernels[i], r);
}

template <std::size_t N>
[[nodiscard]] constexpr std::array<roofline_point, N> analyze(const std::array<kernel, N>& kernels, const roof& r) {
  std::array<roofline_point, N> points{};
  analyze(std::span<const kernel>(kernels), r, std::span<roofline_point>(points));
  return points;
}

// --- Hierarchical roofline ---------------------------------------------------------------------------
// Each memory level is a ceiling of its own (L1, L2, LLC, HBM...), met by the bytes the kernel moves at
// that level; each precision or unit (FP64, FP32, FP16 tensor...) is a compute ceiling. The kernel runs on
// one compute ceiling, and the lowest of that ceiling and every level's intensity x bandwidth binds.

struct bandwidth_ceiling {
  std::string_view name;
  data_rate bandwidth;
};

struct compute_ceiling {
  std::string_view name;
  compute_rate peak;
};

template <std::size_t Levels, std::size_t Units>
struct hierarchical_roof {
  std::array<bandwidth_ceiling, Levels> bandwidths;  // one per memory level, fastest first
  std::array<compute_ceiling, Units> peaks;          // one per precision or unit
};

// What a kernel does at every memory level of a hierarchical roof, and which compute ceiling it uses.
template <std::size_t Levels>
struct hierarchical_kernel {
  std::string_view name;
  work flops;
  std::array<data_size, Levels> bytes;  // bytes moved at each level, in the roof's order
  std::string_view compute;             // name of the compute ceiling it runs on
};

struct hierarchical_point {
  std::string_view binding;  // name of the ceiling that limits the kernel
  regime bound;              // memory-bound when a memory level binds
  compute_rate attainable;
  duration estimated_time;
};

template <std::size_t Levels, std::size_t Units>
[[nodiscard]] constexpr hierarchical_point analyze(const hierarchical_kernel<Levels>& k,
                                                   const hierarchical_roof<Levels, Units>& r) {
  const compute_ceiling* unit = nullptr;
  for (const compute_ceiling& c : r.peaks) {
    if (c.name == k.compute) unit = &c;
  }
  expects(unit != nullptr, "hml: the kernel's compute ceiling is not in the roof");
  hierarchical_point point{unit->name, regime::compute_bound, unit->peak, {}};
  // Each level is a single-ceiling roofline; a tie with the compute ceiling stays compute-bound.
  for (std::size_t i = 0; i < Levels; ++i) {
    const roof level{r.bandwidths[i].bandwidth, unit->peak};
    const compute_rate rate = attainable(intensity(kernel{k.name, k.flops, k.bytes[i]}), level);
    if (rate < point.attainable) point = {r.bandwidths[i].name, regime::memory_bound, rate, {}};
  }
  point.estimated_time = time_at(k.flops, point.attainable);
  return point;
}

}  // namespace hml
