// The roofline_analysis example: seed 002's fields and rounding on the H100 SXM (FP32), line by line.
#include <limits>
#include <string_view>

#include "roofline_analysis.hpp"

namespace {

using hml::line;
using namespace hml::literals;
namespace r = roofline_analysis;

constexpr auto text = r::report();

static_assert(r::roof.peak == 67_TFLOPS && r::roof.bandwidth == 3.35_TBps);
static_assert(line(text, 0) == "roofline_analysis on NVIDIA H100 SXM5 80GB, FP32: peak_compute 67 TFLOP/s, "
                               "peak_bandwidth 3.35 TB/s, ridge point 20.0 FLOP/B");
static_assert(line(text, 1) == "name | arithmetic_intensity | attainable_flops | bound | efficiency | estimated_time_s");
static_assert(line(text, 2) == "vector add 1Mi fp32 | 0.0833 | 279166666666.6666 | memory-bound | 0.42 | 0.00000376");
static_assert(line(text, 3) == "copy 1Mi fp32 (0 FLOP) | 0.0000 | 0.0000 | memory-bound | 0.00 | inf");
static_assert(line(text, 5) == "2D stencil 4096^2 fp32 | 1.2500 | 4187500000000.0000 | memory-bound | 6.25 | 0.00004006");
static_assert(line(text, 8) ==
              "tiled matmul 4096/64 | 15.7538 | 52775384615384.6172 | memory-bound | 78.77 | 0.00260422");
static_assert(line(text, 9) ==
              "tiled matmul 4096/128 | 31.0303 | 67000000000000.0000 | compute-bound | 100.00 | 0.00205133");
static_assert(line(text, 10) == "matmul 4096 (ideal) | 682.6667 | 67000000000000.0000 | compute-bound | 100.00 | 0.00205133");
static_assert(line(text, 11) == "in registers (0 B) | inf | 67000000000000.0000 | compute-bound | 100.00 | 0.00001493");
static_assert(line(text, 12).empty() && line(text, 13).empty());

// Every row equals seed 002's Python, evaluated on the same doubles.
constexpr double inf = std::numeric_limits<double>::infinity();
static_assert([] {
  const double peak = r::roof.peak.value(), bandwidth = r::roof.bandwidth.value(), ridge = peak / bandwidth;
  for (std::size_t i = 0; i < r::operations.size(); ++i) {
    const double flops = r::operations[i].flops.value(), bytes = r::operations[i].bytes.value();
    const double ai = bytes > 0 ? flops / bytes : inf;
    const double attainable = ai * bandwidth < peak ? ai * bandwidth : peak;
    const double time = attainable > 0 ? flops / attainable : inf;
    const hml::roofline_point& p = r::results[i];
    if (p.intensity.value() != ai || p.attainable.value() != attainable ||
        (p.bound == hml::regime::compute_bound) != (ai >= ridge) || p.efficiency_percent != attainable / peak * 100 ||
        p.estimated_time.value() != time)
      return false;
  }
  return true;
}());

}  // namespace
