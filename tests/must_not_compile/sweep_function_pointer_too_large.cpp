// A 50 x 50 compile-time sweep of a function passed by pointer: evaluated in one constant expression, which holds 1,024 points; pass the function as a template argument, hml::sweep<grid, seed>(), or sweep at run time.
// expected-error: static assertion failed due to requirement 'points_in_sweep <= points_per_constant_expression': hml::sweep<space>\(f\): a function pointer or a capturing lambda is evaluated in one constant expression
#include <cstddef>

import hml;

using namespace hml::literals;

namespace {

constexpr hml::time_breakdown seed(hml::data_rate bandwidth, hml::arithmetic_intensity intensity) {
  return hml::run(hml::streaming(10_MiB, intensity), hml::memory{50_ns, bandwidth}, hml::compute_core{10_GFLOPS});
}

#ifdef HML_MUST_NOT_COMPILE
constexpr std::size_t side = 50;
#else
constexpr std::size_t side = 32;
#endif
constexpr auto seed_grid = hml::grid(hml::log_axis(1_Gbps, 1000_Gbps, side),
                                     hml::log_axis(0.01 * hml::flop_per_byte, 1000.0 * hml::flop_per_byte, side));
[[maybe_unused]] constexpr auto regimes = hml::sweep<seed_grid>(seed);

}  // namespace
