// Seed 002's reference semantics (roofline_analysis), reproduced operation by operation, and the
// hierarchical roofline.
#include <array>
#include <limits>
#include <span>
#include <string_view>

import hml;

namespace {

using namespace hml::literals;

constexpr double inf = std::numeric_limits<double>::infinity();

// A device of 10 TFLOP/s and 1 TB/s: ridge 10 FLOP/B.
constexpr hml::roof gpu{1_TBps, 10_TFLOPS};
static_assert(hml::ridge_point(gpu) == 10.0 * hml::flop_per_byte);

// Seed 002, written out as the Python computes it, for comparison with the library.
struct reference {
  double ai, attainable;
  bool compute_bound;
  double efficiency, time;
};
constexpr reference roofline_analysis(double flops, double bytes, double peak, double bandwidth) {
  const double ridge = peak / bandwidth;
  const double ai = bytes > 0 ? flops / bytes : inf;
  const double attainable = peak < ai * bandwidth ? peak : ai * bandwidth;
  return {ai, attainable, ai >= ridge, attainable / peak * 100, attainable > 0 ? flops / attainable : inf};
}

constexpr bool same_as_seed(const hml::kernel& k, const hml::roof& r) {
  const hml::roofline_point p = hml::analyze(k, r);
  const reference s = roofline_analysis(k.flops.value(), k.bytes.value(), r.peak.value(), r.bandwidth.value());
  return p.intensity.value() == s.ai && p.attainable.value() == s.attainable &&
         (p.bound == hml::regime::compute_bound) == s.compute_bound && p.efficiency_percent == s.efficiency &&
         p.estimated_time.value() == s.time;
}

constexpr std::array<hml::kernel, 7> operations{{
    {"elementwise", 1_GFLOP, 12_GB},
    {"at the ridge", 100_GFLOP, 10_GB},      // ai == ridge: compute-bound
    {"just below", 99_GFLOP, 10_GB},
    {"gemm", 2_TFLOP, 12_GB},
    {"no bytes", 1_GFLOP, 0_B},              // ai = inf, attainable = peak
    {"no flops", 0_FLOP, 1_GB},              // ai = 0, attainable = 0, time = inf
    {"nothing", 0_FLOP, 0_B},                // ai = inf (bytes == 0), time 0
}};
static_assert([] {
  for (const hml::kernel& k : operations) {
    if (!same_as_seed(k, gpu)) return false;
  }
  return true;
}());

constexpr auto points = hml::analyze(operations, gpu);
static_assert(points[0].name == "elementwise" && points[0].bound == hml::regime::memory_bound);
static_assert(points[0].attainable == 1_TBps * (1.0 / 12 * hml::flop_per_byte));
static_assert(points[1].bound == hml::regime::compute_bound && points[1].efficiency_percent == 100.0);
static_assert(points[2].bound == hml::regime::memory_bound && points[2].efficiency_percent == 99.0);
static_assert(points[3].bound == hml::regime::compute_bound && points[3].estimated_time == 0.2_s);
static_assert(points[4].intensity.value() == inf && points[4].attainable == 10_TFLOPS);
static_assert(points[4].estimated_time == 0.1_ms && points[4].bound == hml::regime::compute_bound);
static_assert(points[5].intensity.value() == 0 && points[5].attainable.value() == 0);
static_assert(points[5].estimated_time.value() == inf && points[5].efficiency_percent == 0);
static_assert(points[5].bound == hml::regime::memory_bound);
static_assert(points[6].intensity.value() == inf && points[6].estimated_time.value() == 0);

// At the ridge the seed's doubles can leave a compute-bound kernel an ulp below its peak (H100 SXM FP16 as
// stated: 989 TFLOP/s over 3.35 TB/s, 988999999999999.9 FLOP/s); the library gives the peak it is bound by.
constexpr hml::roof h100_fp16{3.35_TBps, 989_TFLOPS};
constexpr hml::kernel on_h100_ridge{"at the ridge", 989_GFLOP, 3.35_GB};
static_assert(roofline_analysis(989e9, 3.35e9, 989e12, 3.35e12).compute_bound &&
              roofline_analysis(989e9, 3.35e9, 989e12, 3.35e12).attainable < 989e12);
constexpr hml::roofline_point at_h100_ridge = hml::analyze(on_h100_ridge, h100_fp16);
static_assert(at_h100_ridge.intensity == hml::ridge_point(h100_fp16) && at_h100_ridge.bound == hml::regime::compute_bound);
static_assert(at_h100_ridge.attainable == 989_TFLOPS && at_h100_ridge.efficiency_percent == 100.0);

// Printed with seed 002's rounding (4 / 4 / 2 / 8 decimals).
static_assert(hml::format_number(points[0].intensity.value(), hml::fixed(4)) == "0.0833");
static_assert(hml::format_number(points[0].attainable.value(), hml::fixed(4)) == "83333333333.3333");
static_assert(hml::format_number(points[0].efficiency_percent, hml::fixed(2)) == "0.83");
static_assert(hml::format_number(points[0].estimated_time.value(), hml::fixed(8)) == "0.01200000");
static_assert(hml::format_number(points[5].estimated_time.value(), hml::fixed(8)) == "inf");

// The span form fills a caller's buffer.
static_assert([] {
  std::array<hml::roofline_point, 7> out{};
  hml::analyze(std::span<const hml::kernel>(operations), gpu, std::span<hml::roofline_point>(out));
  return out[3].bound == hml::regime::compute_bound && out[6].name == "nothing";
}());

// --- Hierarchical roofline: illustrative ceilings, not a real device -----------------------------------
constexpr hml::hierarchical_roof<3, 2> chip{
    {{{"L1", 100_TBps}, {"L2", 10_TBps}, {"HBM", 2_TBps}}},
    {{{"FP64", 20_TFLOPS}, {"FP16 tensor", 500_TFLOPS}}},
};
// 1 TFLOP; 1 TB through L1 (1 FLOP/B -> 100 TFLOP/s), 1 TB through L2 (10 TFLOP/s), 10 GB from HBM (200).
constexpr hml::hierarchical_kernel<3> blocked{"blocked gemm", 1_TFLOP, {{1_TB, 1_TB, 10_GB}}, "FP64"};
constexpr auto on_fp64 = hml::analyze(blocked, chip);
static_assert(on_fp64.binding == "L2" && on_fp64.bound == hml::regime::memory_bound);
static_assert(on_fp64.attainable == 10_TFLOPS && on_fp64.estimated_time == 0.1_s);
// With 10x less L2 traffic, the FP64 units bind.
constexpr auto reused = hml::analyze(hml::hierarchical_kernel<3>{"", 1_TFLOP, {{1_TB, 0.1_TB, 10_GB}}, "FP64"}, chip);
static_assert(reused.binding == "FP64" && reused.bound == hml::regime::compute_bound);
static_assert(reused.attainable == 20_TFLOPS && reused.estimated_time == 50_ms);
// On the tensor cores, L1 allows 200 TFLOP/s but L2 binds at 100.
constexpr auto tensor = hml::analyze(hml::hierarchical_kernel<3>{"", 1_TFLOP, {{0.5_TB, 0.1_TB, 10_GB}}, "FP16 tensor"}, chip);
static_assert(tensor.binding == "L2" && tensor.attainable == 100_TFLOPS);

}  // namespace
