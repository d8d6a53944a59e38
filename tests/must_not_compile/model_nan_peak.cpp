// A NaN peak (say, from a failed lookup or 0/0 at run time) would poison every result; it is rejected.
// expected-error: constexpr variable '[a-z]+' must be initialized by a constant expression
// expected-note: in call to 'expects\(false, &"hml: peak compute rate must be finite and > 0; give a rate
#include <limits>

import hml;
using namespace hml::literals;

#ifdef HML_MUST_NOT_COMPILE
constexpr auto peak = hml::compute_rate::from_value(std::numeric_limits<double>::quiet_NaN());
#else
constexpr hml::compute_rate peak = 10_GFLOPS;
#endif
[[maybe_unused]] constexpr auto t = hml::compute_time(hml::compute_core{peak}, 1_GFLOP);
