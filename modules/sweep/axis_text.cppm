// hml.sweep:axis_text — axes from text, for programs that take sweeps on a command line:
//
//   "1Gbit/s:100Gbit/s:5"      5 evenly spaced values, both ends included (a linear_axis)
//   "1Gbit/s:1Tbit/s:7:log"    7 values with a constant ratio (a log_axis)
//   "0.1,0.5,0.95"             the values listed
//   "50ns"                     one value
//
// Each point once: a point is a row of the sweep, so a range from a value to itself, points closer than
// doubles hold apart, and a value listed twice are refused. The values are held in a sampled_axis, a
// run-time axis that grids and sweeps take like any other.
// Quantities are read by hml::parse; plain doubles (hit rates, ratios) by std::from_chars.
module;
#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstddef>
#include <string>
#include <string_view>
#include <system_error>
#include <type_traits>
#include <utility>
#include <vector>
export module hml.sweep:axis_text;
import hml.units;
import :axis;

export namespace hml {

// An axis whose points are stored: what text gives, or any axis sampled with sample().
template <sweep_value T>
struct sampled_axis {
  using value_type = T;
  std::vector<T> samples;

  [[nodiscard]] std::size_t size() const noexcept { return samples.size(); }
  [[nodiscard]] T operator[](std::size_t i) const noexcept { return samples[i]; }
};

template <axis A>
[[nodiscard]] sampled_axis<typename A::value_type> sample(const A& a) {
  sampled_axis<typename A::value_type> s;
  s.samples.reserve(a.size());
  for (std::size_t i = 0; i < a.size(); ++i) s.samples.push_back(a[i]);
  return s;
}

// The most points one text axis may ask for; more is almost surely a typo, and a sweep over several such
// axes would not end.
inline constexpr std::size_t max_axis_points = 1'000'000;

}  // namespace hml

namespace hml::detail::axis_text {

inline std::string quoted_text(std::string_view text) { return "\"" + std::string{text} + "\""; }

[[noreturn]] inline void fail(std::string_view whole, std::size_t position, const std::string& problem,
                              const std::string& expected) {
  throw parse_error("cannot read " + quoted_text(whole) + " as an axis: " + problem + "; expected " + expected,
                    whole, position, expected);
}

inline constexpr std::string_view axis_forms = "FROM:TO:POINTS[:log], a comma-separated list or one value";

// A finite double, the whole text (spaces around it aside), zero or of a magnitude from 1e-30 to 1e30 as
// every figure hml takes (hml::smallest_magnitude); a negative zero is zero.
inline double read_number(std::string_view text) {
  const std::string_view number = trimmed(text);
  double value = 0.0;
  const auto [end, error] = std::from_chars(number.data(), number.data() + number.size(), value);
  if (number.empty() || error != std::errc{} || end != number.data() + number.size() || !std::isfinite(value)) {
    throw parse_error("cannot read " + quoted_text(text) + " as a number; expected a finite number such as 0.95",
                      text, 0, "a finite number");
  }
  const double magnitude = value < 0 ? -value : value;
  if (value != 0 && (magnitude < smallest_magnitude || magnitude > largest_magnitude)) {
    throw parse_error("cannot read " + quoted_text(text) + " as a number: it is " +
                          (magnitude < smallest_magnitude ? "too small" : "too large") +
                          "; expected zero or a number of magnitude 1e-30 to 1e30",
                      text, 0, "zero or a number of magnitude 1e-30 to 1e30");
  }
  return value + 0.0;
}

template <class T>
T read_value(std::string_view text, parse_options options) {
  if constexpr (std::is_same_v<T, double>) {
    return read_number(text);
  } else {
    return parse<T>(text, options);
  }
}

using items = std::vector<std::pair<std::size_t, std::string_view>>;  // each with its position in the text

inline items split(std::string_view text, char separator) {
  items parts;
  std::size_t begin = 0;
  for (;;) {
    const std::size_t end = text.find(separator, begin);
    parts.emplace_back(begin, text.substr(begin, end == std::string_view::npos ? std::string_view::npos : end - begin));
    if (end == std::string_view::npos) return parts;
    begin = end + 1;
  }
}

// The points of a quantity's axis are written alike, each with its unit or none, where the unit is not
// the one a plain number is in: a unit is not carried over, so "1,2,4GB" would be 1 B, 2 B and 4 GB
// ("0.5,16 FLOP/B" is two intensities in FLOP/B). A unit no symbol spells ("2 gb") is left to the parser,
// whose message says what it may be.
template <class T>
void expect_units_alike(std::string_view whole, const items& points) {
  if constexpr (!std::is_same_v<T, double>) {
    const auto unit_of = [](const auto& point) { return detail::unit_of_text(trimmed(point.second)); };
    const auto has_unit = [&](const auto& point) { return !unit_of(point).empty(); };
    const auto not_base = [&](const auto& point) {
      const unit_symbol* unit = find_unit_symbol(unit_of(point));
      return unit != nullptr && (unit->decimal_exponent != 0 || unit->binary_exponent != 0);
    };
    const auto with = std::find_if(points.begin(), points.end(), not_base);
    const auto without = std::find_if_not(points.begin(), points.end(), has_unit);
    if (with != points.end() && without != points.end()) {
      fail(whole, without->first,
           quoted_text(trimmed(without->second)) + " has no unit where " + quoted_text(trimmed(with->second)) +
               " has one (a unit is not carried over)",
           "each point with its unit");
    }
  }
}

// A comma separates points, not digit groups: "1,000,000" would be three points, 1, 0 and 0. Caught where a
// group starts with a zero; "1,500" is two points, as written.
inline void expect_no_digit_groups(std::string_view whole, const items& points) {
  if (points.size() < 2) return;
  for (const auto& [position, item] : points) {
    const std::string_view point = trimmed(item);
    if (point.size() > 1 && point[0] == '0' && point[1] >= '0' && point[1] <= '9') {
      fail(whole, position, quoted_text(point) + " starts with a zero, as a group of digits does",
           "points separated by commas, each written without separators (1000000 or 1e6, not 1,000,000)");
    }
  }
}

inline std::size_t read_count(std::string_view whole, std::size_t position, std::string_view text) {
  const std::string_view digits = trimmed(text);
  std::size_t count = 0;
  const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), count);
  if (digits.empty() || error != std::errc{} || end != digits.data() + digits.size() || count == 0 ||
      count > max_axis_points) {
    fail(whole, position, "POINTS " + quoted_text(text) + " is not a whole number from 1 to " +
                              std::to_string(max_axis_points),
         "a number of points such as 5");
  }
  return count;
}

template <class T>
sampled_axis<T> read_range(std::string_view text, parse_options options) {
  const auto parts = split(text, ':');
  if (parts.size() != 3 && parts.size() != 4) {
    fail(text, 0, "a range has 3 or 4 parts separated by ':', this one " + std::to_string(parts.size()),
         std::string{axis_forms});
  }
  const bool logarithmic = parts.size() == 4;
  if (logarithmic && trimmed(parts[3].second) != "log") {
    fail(text, parts[3].first, quoted_text(parts[3].second) + " is not \"log\"", "\"log\" or nothing");
  }
  const auto starts_at_zero = [&] { fail(text, 0, "a logarithmic axis starts at 0 or below", "FROM > 0 on a log axis"); };
  // Said before FROM's unit: "0:10MB:3:log" was told to give 0 its unit, then that a log axis cannot start at 0.
  if (logarithmic) {
    const std::string_view from = trimmed(parts[0].second);
    double leading = 1;
    const auto [end, error] = std::from_chars(from.data(), from.data() + from.size(), leading);
    if (error == std::errc{} && end != from.data() && std::isfinite(leading) && !(leading > 0)) starts_at_zero();
  }
  expect_units_alike<T>(text, {parts[0], parts[1]});
  const T first = read_value<T>(parts[0].second, options);
  const T last = read_value<T>(parts[1].second, options);
  const std::size_t count = read_count(text, parts[2].first, parts[2].second);
  if (number_of(first) > number_of(last)) {
    fail(text, 0, "FROM is larger than TO", "FROM <= TO (an axis runs from its smaller end)");
  }
  if (count == 1 && number_of(first) != number_of(last)) {
    fail(text, parts[2].first, "one point cannot run from FROM to TO", "FROM alone, or POINTS >= 2");
  }
  // Each point is a row of the sweep: a point twice would be one configuration counted twice.
  if (count > 1 && number_of(first) == number_of(last)) {
    fail(text, parts[2].first, std::to_string(count) + " points from FROM to the same TO are one point, repeated",
         "FROM alone (one point), or a TO above FROM");
  }
  if (logarithmic && !(number_of(first) > 0)) starts_at_zero();
  sampled_axis<T> axis = logarithmic ? sample(log_axis<T>(first, last, count)) : sample(linear_axis<T>(first, last, count));
  const auto repeated = std::ranges::adjacent_find(axis.samples, {}, [](T v) { return number_of(v); });
  if (repeated != axis.samples.end()) {
    fail(text, parts[2].first, std::to_string(count) + " points between FROM and TO repeat some, as close as a double holds them",
         "fewer POINTS");
  }
  return axis;
}

// A value listed twice would be one configuration counted twice.
template <class T>
void expect_each_once(std::string_view whole, const items& points, const std::vector<T>& values) {
  std::vector<std::size_t> order(values.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::ranges::sort(order, {}, [&](std::size_t i) { return std::pair{number_of(values[i]), i}; });  // equal: in list order
  for (std::size_t k = 1; k < order.size(); ++k) {
    if (number_of(values[order[k]]) != number_of(values[order[k - 1]])) continue;
    const auto& [position, again] = points[order[k]];
    fail(whole, position, quoted_text(trimmed(again)) + " is " + quoted_text(trimmed(points[order[k - 1]].second)) + " again",
         "each point once");
  }
}

}  // namespace hml::detail::axis_text

export namespace hml {

// An axis of T read from text (see the top of this file); throws parse_error. `options` applies to
// each quantity (plain_number_is_base_unit lets "1" mean 1 FLOP/B).
template <sweep_value T>
[[nodiscard]] sampled_axis<T> parse_axis(std::string_view text, parse_options options = {}) {
  namespace a = detail::axis_text;
  if (text.find(':') != std::string_view::npos) return a::read_range<T>(text, options);
  const a::items points = a::split(text, ',');
  for (const auto& [position, item] : points) {
    if (trimmed(item).empty()) a::fail(text, position, "an empty item", std::string{a::axis_forms});
  }
  a::expect_units_alike<T>(text, points);
  a::expect_no_digit_groups(text, points);
  sampled_axis<T> listed;
  for (const auto& [position, item] : points) listed.samples.push_back(a::read_value<T>(item, options));
  a::expect_each_once(text, points, listed.samples);
  return listed;
}

}  // namespace hml
