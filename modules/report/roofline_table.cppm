// hml.report:roofline_table — roofline results as a table with seed 002's field names, and seed 002's
// rounding (Python's round(): 4 decimals for intensity and attainable FLOP/s, 2 for efficiency, 8 for the
// time), so that CSV and JSON output reads like the reference solution's list of dicts; measured kernels
// (hml::measure) likewise.
module;
#include <array>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <iterator>
#include <optional>
#include <system_error>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>
export module hml.report:roofline_table;
import hml.format;
import hml.units;  // quantities as text
import hml.analysis;
import :table;

namespace hml::detail {

// round_decimal's slow way, out of line so that the shortcut inlines where it is called: x as printf's %.Nf
// text (correctly rounded, ties to even), read back.
[[gnu::noinline]] inline double round_decimal_by_text(double x, int decimals) {
  char text[512];  // DBL_MAX has 309 integer digits
  double rounded = 0.0;
  if (const auto [end, error] = std::to_chars(text, text + sizeof text, x, std::chars_format::fixed, decimals);
      error == std::errc{}) {
    std::from_chars(text, end, rounded);
  } else {  // more decimals than the buffer holds
    const auto long_text = format_number(x, fixed(decimals));
    std::from_chars(long_text.view().data(), long_text.view().data() + long_text.size(), rounded);
  }
  return rounded;
}


// round_decimal near a tie, or where x 10^N is 2^52 or more (ulp(x) 10^N < 1 still): exactly, in integers.
// x = M 2^-s (M < 2^53), so x 10^N = M 10^N 2^-s, whose integer part and fraction are the shifts of M 10^N
// (below 2^117 for N <= 19); a tie goes to the even integer k. x < 2^53 ulp(x), so x 10^N < 2^53: k and
// k / 10^N are exact doubles again. The text way for the rest (more than 19 places, subnormals).
[[gnu::noinline]] inline cell_view round_decimal_slowly(double x, int decimals) {
  const auto bits = std::bit_cast<std::uint64_t>(std::abs(x));
  const int s = 1075 - static_cast<int>(bits >> 52);
  if (std::isfinite(x) && bits >> 52 != 0 && s >= 1 && s <= 127 && decimals >= 0 && decimals <= 19) {
    using u128 = unsigned __int128;
    constexpr std::uint64_t hidden = std::uint64_t{1} << 52;
    std::uint64_t scale = 1;
    for (int i = 0; i < decimals; ++i) scale *= 10;
    const u128 product = static_cast<u128>(hidden | (bits & (hidden - 1))) * scale;
    const u128 whole_part = product >> s;
    if (whole_part >> 53 != 0) return round_decimal_by_text(x, decimals);  // ulp(x) 10^N >= 1: not for here
    const auto whole = static_cast<std::uint64_t>(whole_part);
    const u128 fraction = product & ((u128{1} << s) - 1);
    const u128 half = u128{1} << (s - 1);
    const bool up = fraction > half || (fraction == half && whole % 2 == 1);
    const short_decimal rounded{whole + (up ? 1 : 0), decimals, std::signbit(x)};
    if (rounded.digits < short_decimal::digits_limit) return rounded;
    return rounded.value();
  }
  return round_decimal_by_text(x, decimals);
}

}  // namespace hml::detail

export namespace hml {

// x rounded to `decimals` places as Python's round(x, decimals) does: the correctly rounded decimal, an
// exact tie to even (round(0.125, 2) == 0.12; 2.675 is below its decimal text, so round(2.675, 2) == 2.67).
// printf's %.Nf rounds the same way, and so do std::to_chars with a precision (specified as printf) and
// hml.format (which matches printf to the last digit, but is constexpr and several times slower).
//
// This runs on every number of `hml roofline --round`, so the common cases take a shortcut:
// - where the doubles near x are further apart than 10^-N (ulp(x) >= 10^-N), the decimal nearest x is within
//   half an ulp of x, so the double nearest that decimal is x itself;
// - else y = x * 10^N is one correctly rounded product, within half an ulp of the exact one. Where y is below
//   2^52 and its fraction is further than an ulp from one half, the exact product rounds to the same integer k
//   as y does, and k / 10^N (both exact doubles, one correctly rounded division) is the double nearest the
//   decimal text: what strtod of printf's text gives.
// Near a tie, or where y is 2^52 or more, the exact product in 128-bit integers decides (round_decimal_slowly;
// the text way it replaced took about 80 of the ~950 instructions a row of `hml roofline --round`'s reading
// thread); the text way remains for what it does not cover (more than 19 places, subnormals).
//
// rounded_cell is the same rounding with the decimal's digits where the shortcut found them (k, below 2^52):
// a short_decimal, whose text the CSV writer writes from its digits; round_decimal is its value.
[[nodiscard]] inline cell_view rounded_cell(double x, int decimals) {
  if (!std::isfinite(x)) return x;
  constexpr double powers_of_ten[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                                      1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
  if (decimals >= 0 && decimals < static_cast<int>(std::size(powers_of_ten))) {
    const double scale = powers_of_ten[decimals];  // exact up to 10^22
    const double magnitude = std::abs(x);
    // The gap to the next double up: exact, and ulp * 10^N is exact too (a power of two times 5^N < 2^53).
    const double ulp = std::bit_cast<double>(std::bit_cast<std::uint64_t>(magnitude) + 1) - magnitude;
    if (ulp * scale >= 1.0) return x;
    const double y = magnitude * scale;
    if (y < 0x1p52) {
      // trunc(y) and round(y) without their libm calls (a quarter of this function's time): below 2^52 the
      // conversion to an integer truncates exactly, and away from a tie round(y) is the nearer whole number.
      const auto whole = static_cast<std::uint64_t>(y);
      const double fraction = y - static_cast<double>(whole);  // exact below 2^52
      // ulp(y) <= y 2^-52 for a normal y; a subnormal y has a fraction near 0, far from the half.
      if (std::abs(fraction - 0.5) > y * 0x1p-51) {
        const short_decimal rounded{whole + (fraction < 0.5 ? 0 : 1), decimals, std::signbit(x)};
        if (rounded.digits < short_decimal::digits_limit) return rounded;
        return rounded.value();  // k = 2^52 exactly
      }
    }
  }
  return detail::round_decimal_slowly(x, decimals);
}

[[nodiscard]] inline double round_decimal(double x, int decimals) {
  const cell_view rounded = rounded_cell(x, decimals);
  return *cell_number(rounded);
}

// Seed 002's result fields, in its order.
inline constexpr std::array<std::string_view, 6> roofline_fields{
    "name", "arithmetic_intensity", "attainable_flops", "bound", "efficiency", "estimated_time_s"};

// Decimals seed 002 rounds each numeric field to.
struct roofline_rounding {
  int arithmetic_intensity = 4;
  int attainable_flops = 4;
  int efficiency = 2;
  int estimated_time_s = 8;
};

// One point as a row of roofline_fields, numbers in FLOP/B, FLOP/s, percent and seconds; rounded as seed 002
// rounds when `seed_rounding` is set (as short_decimal cells where the rounding found their digits, the CSV
// writer's fast path), at full precision otherwise. The name and bound are viewed, not copied: the row is
// valid while the point's name is.
[[nodiscard]] inline std::array<cell_view, roofline_fields.size()> roofline_row(const roofline_point& p,
                                                                                bool seed_rounding = false) {
  constexpr roofline_rounding decimals{};
  const auto maybe_rounded = [seed_rounding](double x, int places) -> cell_view {
    return seed_rounding ? rounded_cell(x, places) : x;
  };
  return {p.name,
          maybe_rounded(in(p.intensity, flop_per_byte), decimals.arithmetic_intensity),
          maybe_rounded(in(p.attainable, flop_per_second), decimals.attainable_flops),
          to_string(p.bound),
          maybe_rounded(p.efficiency_percent, decimals.efficiency),
          maybe_rounded(in(p.estimated_time, second), decimals.estimated_time_s)};
}

// Whether a row seed 002's rounding made (roofline_row(p, true)) says 0 for a figure of the point that is not
// 0 (an intensity of 1e-9 FLOP/B, a time of 1e-10 s): a row that says 0 FLOP/B beside a finite time reads as
// a contradiction, so it is said. Read from the rounded cells themselves, not rounded again.
[[nodiscard]] inline bool rounds_to_zero(std::span<const cell_view, roofline_fields.size()> rounded, const roofline_point& p) {
  const auto exact = roofline_row(p);
  for (std::size_t i = 0; i < exact.size(); ++i) {
    const std::optional<double> x = cell_number(exact[i]);
    const std::optional<double> shown = cell_number(rounded[i]);
    if (x && shown && *x != 0 && std::isfinite(*x) && *shown == 0) return true;
  }
  return false;
}

// The aligned table for people: the same fields, in the units people read (SI prefixes, %), through
// hml.units' own text: "0.08333 FLOP/B", "279.2 GFLOP/s", "0.4167 %", "3.582 us". CSV and JSON keep
// roofline_row's base units at full precision.
inline constexpr std::array<std::string_view, 6> roofline_text_fields{
    "name", "arithmetic intensity", "attainable", "bound", "efficiency", "estimated time"};

// `digits` significant digits, and whole digits from where those print an exponent to a million: general(3)
// printed a share of 1000 % (a measured run past its roof, noted) as 1e+03, and an intensity of 1000 FLOP/B.
[[nodiscard]] constexpr number_format significant_format(double x, int digits) noexcept {
  double exponent_from = 1.0;  // 10^digits
  for (int d = 0; d < digits; ++d) exponent_from *= 10.0;
  return x >= exponent_from - 0.5 && x < 1e6 ? fixed(0) : general(digits);
}

[[nodiscard]] inline std::string percent_text(double percent, number_format numbers = general(4)) {
  return std::string{format_number(percent, numbers).view()} + " %";
}

[[nodiscard]] inline std::array<std::string, roofline_text_fields.size()> roofline_text_row(const roofline_point& p) {
  constexpr quantity_format four{.number = general(4)};
  return {std::string{p.name},
          to_string(p.intensity, four),
          to_string(p.attainable, four),
          std::string{to_string(p.bound)},
          percent_text(p.efficiency_percent),
          to_string(p.estimated_time, four)};
}

// One row per point (roofline_row), in a table that owns its text.
[[nodiscard]] inline table roofline_table(std::span<const roofline_point> points, bool seed_rounding = false) {
  table t{{roofline_fields.begin(), roofline_fields.end()}, {}};
  for (const roofline_point& p : points) {
    std::vector<cell> row;
    for (const cell_view& c : roofline_row(p, seed_rounding)) {
      if (const std::optional<double> number = cell_number(c)) {
        row.emplace_back(*number);
      } else {
        row.emplace_back(std::string{std::get<std::string_view>(c)});
      }
    }
    t.add_row(std::move(row));
  }
  return t;
}

// Measured kernels against their roofline (hml::measure): one row per point, in FLOP/B, FLOP/s, B/s and
// percent; gap = attainable / achieved, none (empty in CSV, null in JSON) for a data movement of no FLOP.
[[nodiscard]] inline table measured_table(std::span<const measured_point> points) {
  table t{{"name", "arithmetic_intensity", "achieved_flops", "achieved_bytes_per_s", "percent_of_peak_compute",
           "percent_of_bandwidth", "bound", "attainable_flops", "gap"},
          {}};
  for (const measured_point& p : points) {
    t.add_row({std::string{p.name}, in(p.intensity, flop_per_byte), in(p.achieved_compute, flop_per_second),
               in(p.achieved_bandwidth, byte_per_second), p.percent_of_peak_compute, p.percent_of_bandwidth,
               std::string{to_string(p.bound)}, in(p.attainable, flop_per_second),
               p.achieved_compute.value() > 0 ? cell{p.gap} : cell{no_value{}}});
  }
  return t;
}

}  // namespace hml
