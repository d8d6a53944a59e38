// hml.format at compile time: every expected string below is what glibc's printf writes for the same
// conversion. The file passes by compiling.
#include <limits>

import hml.format;

namespace {

constexpr double inf = std::numeric_limits<double>::infinity();
constexpr double nan = std::numeric_limits<double>::quiet_NaN();
constexpr double dbl_max = std::numeric_limits<double>::max();
constexpr double dbl_min = std::numeric_limits<double>::min();
constexpr double denorm_min = std::numeric_limits<double>::denorm_min();

// The seed's documented figures.
static_assert(hml::format_number(8.388613e-02, hml::scientific(6)) == "8.388613e-02");
static_assert(hml::format_number(1.048576e-03, hml::scientific(6)) == "1.048576e-03");
static_assert(hml::format_number(8.493471e-02, hml::scientific(6)) == "8.493471e-02");
static_assert(hml::format_number(7.216e-03, hml::scientific(3)) == "7.216e-03");
static_assert(hml::format_number(5.521e-04, hml::scientific(3)) == "5.521e-04");
static_assert(hml::format_number(1.0 / 12, hml::fixed(4)) == "0.0833");

// The exact binary value is rounded: true ties go to even, 0.15 is below .15 and 0.1 is above .1.
static_assert(hml::format_number(0.125, hml::fixed(2)) == "0.12");
static_assert(hml::format_number(0.375, hml::fixed(2)) == "0.38");
static_assert(hml::format_number(0.5, hml::fixed(0)) == "0");
static_assert(hml::format_number(1.5, hml::fixed(0)) == "2");
static_assert(hml::format_number(2.5, hml::fixed(0)) == "2");
static_assert(hml::format_number(0.15, hml::fixed(1)) == "0.1");
static_assert(hml::format_number(0.1, hml::fixed(20)) == "0.10000000000000000555");
static_assert(hml::format_number(9.5, hml::scientific(0)) == "1e+01");
static_assert(hml::format_number(9.995, hml::scientific(2)) == "9.99e+00");
static_assert(hml::format_number(9.9995, hml::scientific(3)) == "9.999e+00");

// Signed zero, infinities, NaNs.
static_assert(hml::format_number(-0.0, hml::scientific(6)) == "-0.000000e+00");
static_assert(hml::format_number(-0.0, hml::fixed(6)) == "-0.000000");
static_assert(hml::format_number(-0.0, hml::general(6)) == "-0");
static_assert(hml::format_number(0.0, hml::scientific(0)) == "0e+00");
static_assert(hml::format_number(inf, hml::scientific(6)) == "inf");
static_assert(hml::format_number(-inf, hml::fixed(2)) == "-inf");
static_assert(hml::format_number(nan, hml::general(6)) == "nan");
static_assert(hml::format_number(-nan, hml::scientific(6)) == "-nan");

// %g: the rounded exponent picks the style, trailing zeros go.
static_assert(hml::format_number(1e300, hml::general(6)) == "1e+300");
static_assert(hml::format_number(1e300, hml::general(10)) == "1e+300");
static_assert(hml::format_number(100000.0, hml::general(6)) == "100000");
static_assert(hml::format_number(1000000.0, hml::general(6)) == "1e+06");
static_assert(hml::format_number(0.0001, hml::general(6)) == "0.0001");
static_assert(hml::format_number(0.00001, hml::general(6)) == "1e-05");
static_assert(hml::format_number(0.5, hml::general(0)) == "0.5");
static_assert(hml::format_number(9.9999995, hml::general(6)) == "10");
static_assert(hml::format_number(0.000099999996, hml::general(6)) == "0.0001");
static_assert(hml::format_number(1.0 / 3, hml::general(3)) == "0.333");

// The extremes: subnormals, DBL_MIN, DBL_MAX.
static_assert(hml::format_number(denorm_min, hml::scientific(6)) == "4.940656e-324");
static_assert(hml::format_number(dbl_min, hml::scientific(16)) == "2.2250738585072014e-308");
static_assert(hml::format_number(dbl_max, hml::general(17)) == "1.7976931348623157e+308");
static_assert(hml::format_number(dbl_max, hml::scientific(17)) == "1.79769313486231571e+308");
static_assert(hml::format_number(denorm_min, hml::scientific(100)) ==
              "4.9406564584124654417656879286822137236505980261432476442558568250"
              "067550727020875186529983636163599238e-324");
static_assert(hml::format_number(denorm_min, hml::fixed(100)) ==
              "0.00000000000000000000000000000000000000000000000000"
              "00000000000000000000000000000000000000000000000000");
static_assert(hml::format_number(-dbl_max, hml::fixed(100)) ==
              "-179769313486231570814527423731704356798070567525844996598917476803157260780028538760589558632766878"
              "171540458953514382464234321326889464182768467546703537516986049910576551282076245490090389328944075"
              "868508455133942304583236903222948165808559332123348274797826204144723168738177180919299881250404026"
              "184124858368."
              "00000000000000000000000000000000000000000000000000"
              "00000000000000000000000000000000000000000000000000");
static_assert(hml::format_number(-dbl_max, hml::fixed(100)).size() == hml::number_text_capacity);

// fixed_text itself.
constexpr hml::fixed_text<8> built = [] {
  hml::fixed_text<8> text;
  text.append("1.5");
  text.push_back(' ');
  text.append("GB");
  return text;
}();
static_assert(built == "1.5 GB" && built.size() == 6 && !built.empty() && built.capacity() == 8);
static_assert(built == hml::fixed_text{"1.5 GB"});
static_assert(built != "1.5 G");
static_assert(hml::fixed_text<4>{}.empty());

}  // namespace
