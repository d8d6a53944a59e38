// 200,000 points of a compile-time sweep: evaluated in chunks, but collecting them into one std::array needs more constexpr steps than clang's default allows; the error says how many, before any point is evaluated.
// expected-error: static assertion failed: hml::sweep: collecting this many points into one std::array needs more constexpr steps than this compile allows
#include <cstddef>

import hml;

namespace {

#ifdef HML_MUST_NOT_COMPILE
constexpr std::size_t points = 200'000;
#else
constexpr std::size_t points = 2'000;
#endif
constexpr auto ratios = hml::linear_axis(0.0, 1.0, points);
[[maybe_unused]] constexpr auto squares = hml::sweep<ratios>([](double x) { return x * x; });

}  // namespace
