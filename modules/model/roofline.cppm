// hml.analysis:roofline — the roofline model: a kernel's attainable FLOP/s is the lower of the compute
// ceiling and intensity x bandwidth, and the ridge point (where the two meet) says which one binds.
//
// For one memory level and one compute ceiling the results are those of seed 002's reference solution,
// operation for operation: ridge = peak / bandwidth; intensity = FLOP / B (infinite when no bytes move);
// attainable = min(peak, intensity x bandwidth); compute-bound when intensity >= ridge (a kernel exactly at
// the ridge counts as compute-bound); efficiency = attainable / peak x 100; time = FLOP / attainable
// (infinite when attainable is 0). One difference: from the ridge on, attainable is the peak itself, where
// the seed's doubles can leave it an ulp below (a compute-bound kernel short of its compute roof).
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

// An intensity is >= 0, infinite for a kernel that moves no bytes: NaN reached the peak, -1 a negative rate.
constexpr void validate_intensity(arithmetic_intensity ai) {
  expects(ai.value() >= 0, "hml: an arithmetic intensity must be >= 0 (inf where no bytes move)");  // false for NaN
}

// min(peak, intensity x bandwidth); an infinite intensity reaches the peak, and so does one at or past the
// ridge: the ridge is peak / bandwidth rounded, and its product with the bandwidth can fall an ulp short
// (H100 FP16: 295.22... FLOP/B x 3.35 TB/s = 988999999999999.9 FLOP/s), a compute-bound kernel below its roof.
[[nodiscard]] constexpr compute_rate attainable(arithmetic_intensity ai, const roof& r) {
  validate_intensity(ai);
  if (ai >= ridge_point(r)) return r.peak;
  const compute_rate memory_roof = ai * r.bandwidth;
  return memory_roof < r.peak ? memory_roof : r.peak;
}

// Ties classify compute-bound, as seed 002 does (`ai >= ridge_point`).
[[nodiscard]] constexpr regime bound(arithmetic_intensity ai, const roof& r) {
  validate_intensity(ai);
  return ai >= ridge_point(r) ? regime::compute_bound : regime::memory_bound;
}

// Work done at `rate`; infinite when the rate is 0 (seed 002: `flops / attainable if attainable > 0`), and
// an error where a positive rate would make it overflow.
[[nodiscard]] constexpr duration time_at(work w, compute_rate rate) {
  validate_work(w);
  expects(rate.value() >= 0 && rate.value() <= largest_finite, "hml: a compute rate must be finite and >= 0");
  if (rate.value() == 0) return duration::from_value(detail::infinity);
  const duration t = w / rate;
  validate_compute_time(t);
  return t;
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

// --- The roofline and the hierarchical roofline as views of a machine description -------------------------

// The roofline of one compute ceiling against main memory.
[[nodiscard]] constexpr roof roof_of(const machine_description& m, compute_kind k, basis b = basis::datasheet) {
  const figure<data_rate> memory_roof = bandwidth_of(main_memory(m), b);
  const figure<compute_rate> compute_roof = peak(m, k, b);
  expects(memory_roof.published(), "hml: the machine publishes no main-memory bandwidth; give main memory's bandwidth");
  expects(compute_roof.published(), no_peak_message(k));
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
    r.peaks[units++] = {c.name(), peak(c, b).value};
  }
  expects(levels == Levels && units == Units, "hml: the machine has fewer ceilings than asked for");
  return r;
}

}  // namespace hml
