// hml.units:parse — quantities from text at run time: parse<data_rate>("205 GB/s").
//
// Grammar: [spaces] number [one space] unit [spaces], where number is what std::from_chars reads in
// general format without a sign (205, 5.3, .5, 1e-3) and unit is a spelling of hml.units:symbols of the
// requested dimension. The unit's decimal exponent is added to the exponent of the number's text, so that
// "5.3 TFLOP/s" is converted as 5.3e12 with a single rounding, exactly as the literal 5.3_TFLOPS is; its
// binary exponent (bits, KiB, MiB, ...) is then applied exactly. The result equals the literal bit for bit.
//
// Errors throw parse_error, whose one-line what() names the text, the position (0-based, in bytes) and
// what was expected there.
module;
#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstddef>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>
export module hml.units:parse;
import :core;
import :symbols;
import :text;
import hml.format;

export namespace hml {

// The text without the spaces and tabs around it.
[[nodiscard]] constexpr std::string_view trimmed(std::string_view s) noexcept {
  const std::size_t first = s.find_first_not_of(" \t");
  if (first == std::string_view::npos) return {};
  return s.substr(first, s.find_last_not_of(" \t") - first + 1);
}

// The magnitudes hml takes from text, in base units (B, s, FLOP, B/s, FLOP/s, FLOP/B, Hz): zero, or from
// 1e-30 to 1e30. Every real figure lies far inside (a petabyte is 1e15 B, a picosecond 1e-12 s), and a
// model combining a few such figures stays inside double's range, so no result of finite inputs reads as
// inf, nan or a zero that is not one (1e308 B at 1e-308 B/s would). The compile-time literals keep the
// range of a double: they are code, not input.
inline constexpr double smallest_magnitude = 1e-30;
inline constexpr double largest_magnitude = 1e30;

namespace detail {

// The unit of a quantity's text: what follows its number and the spaces after it ("" where it has none).
// An e or E is the number's exponent only where digits follow it: "2EB" is 2 EB, "2e3B" is 2000 B.
[[nodiscard]] constexpr std::string_view unit_of_text(std::string_view text) noexcept {
  const auto digit = [&](std::size_t i) { return i < text.size() && text[i] >= '0' && text[i] <= '9'; };
  std::size_t i = text.find_first_not_of(" \t");
  if (i == std::string_view::npos) return {};
  if (text[i] == '+' || text[i] == '-') ++i;
  while (digit(i) || (i < text.size() && text[i] == '.')) ++i;
  if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    const std::size_t exponent = i + 1 + (i + 1 < text.size() && (text[i + 1] == '+' || text[i + 1] == '-') ? 1 : 0);
    if (digit(exponent)) {
      i = exponent;
      while (digit(i)) ++i;
    }
  }
  while (i < text.size() && (text[i] == ' ' || text[i] == '\t')) ++i;
  return text.substr(i);
}

// The prefix of the byte unit that a bit unit's prefix, perhaps in the wrong case, may mean: "g" -> "G",
// "m" -> "M" (a memory moves no millibytes), "K" -> "k", "gi" -> "Gi".
[[nodiscard]] inline std::string byte_prefix(std::string_view prefix) {
  if (prefix.empty()) return {};
  const bool binary = prefix.size() > 1 && (prefix[1] == 'i' || prefix[1] == 'I');
  const char letter = static_cast<char>(std::toupper(static_cast<unsigned char>(prefix[0])));
  if (binary) return std::string{letter} + "i";
  return std::string{letter == 'K' ? 'k' : letter};
}

}  // namespace detail

// Whether a rate is written in bits ("800 Gbit/s", "3.35Tbps", "25 Gb/s"): a memory's bandwidth is published
// in bytes per second, and a bit rate there is almost surely a byte rate with a lower-case b, 8x too slow.
// The readers of memory bandwidths refuse it; links and pin rates take bits.
[[nodiscard]] constexpr bool written_in_bits(std::string_view text) noexcept {
  const std::string_view unit = detail::unit_of_text(text);
  return unit.find("bit") != std::string_view::npos || unit.ends_with("bps") || unit.ends_with("b/s");
}

// Whether a size is written in bits ("80 Gb", "16 Gbit"): its unit names bits or ends in a lower-case b. A
// memory's capacity is published in bytes; "80 Gb" would be read as 10 GB.
[[nodiscard]] constexpr bool size_written_in_bits(std::string_view text) noexcept {
  const std::string_view unit = detail::unit_of_text(text);
  return unit.find("bit") != std::string_view::npos || unit.ends_with('b');
}

struct parse_options {
  // A number without a unit is in the base unit: bytes, seconds, FLOP, B/s, FLOP/s, FLOP/B or Hz.
  // Off by default, because "10" as a data rate is more often a forgotten unit than 10 B/s; the CLI turns
  // it on for CSV files whose plain numbers are FLOP and bytes.
  bool plain_number_is_base_unit = false;
  // A data size in bits ("80 Gb", "64 b") is refused. Every size a user gives hml (a memory's capacity, a
  // cache line, a kernel's bytes, a working set) is counted in bytes, and bits there are almost surely a B
  // typed as b, 8x too small. Every option and file reader turns it on; a library caller may mean bits.
  bool sizes_in_bytes = false;
};

class parse_error : public std::invalid_argument {
public:
  parse_error(const std::string& message, std::string_view input, std::size_t position, std::string expectation)
      : std::invalid_argument(message), text_(input), position_(position), expected_(std::move(expectation)) {}

  // The whole text that was given to parse().
  [[nodiscard]] const std::string& text() const noexcept { return text_; }
  // Where in text() reading stopped, 0-based, in bytes.
  [[nodiscard]] std::size_t position() const noexcept { return position_; }
  // What would have been accepted there: "a data rate such as GB/s or Gbit/s", "\"GB/s\" or \"Gbit/s\"".
  [[nodiscard]] const std::string& expected() const noexcept { return expected_; }

private:
  std::string text_;
  std::size_t position_;
  std::string expected_;
};

}  // namespace hml

namespace hml::detail {

// The value of `text` in the base unit of `wanted`; throws parse_error.
double parse_base_value(std::string_view text, dimension wanted, parse_options options);

}  // namespace hml::detail

export namespace hml {

// `text` as a quantity of type Q (data_size, duration, work, data_rate, compute_rate,
// arithmetic_intensity, frequency); throws parse_error.
template <class Q>
[[nodiscard]] Q parse(std::string_view text, parse_options options = {}) {
  return Q::from_value(detail::parse_base_value(text, dimension_of<Q>, options));
}

// Where a memory's bandwidth is wanted, a bit rate ("3.35Tbps", "16 Tbit/s") is almost surely a byte rate
// with a lower-case b, and taken as bits 8x too slow: what every option and reader says of `text`, with the
// byte rate it may mean; empty where `text` is in bytes.
[[nodiscard]] inline std::string bit_rate_mistake(std::string_view text) {
  if (!written_in_bits(text)) return {};
  const std::string_view unit = detail::unit_of_text(text);
  std::size_t bits = unit.find("bit");
  if (bits == std::string_view::npos) bits = unit.size() - 3;  // "bps", "b/s"
  // The number as written, its space too: "2 gb/s" -> "2 GB/s".
  std::string_view number = text.substr(0, text.size() - unit.size());
  number.remove_prefix(std::min(number.find_first_not_of(" \t"), number.size()));
  std::string as_bits;
  try {
    as_bits = " (" + to_string(parse<data_rate>(text), {.number = general(4), .prefixes = prefix_system::decimal}) + ")";
  } catch (const parse_error&) {
  }
  return "\"" + std::string{text} + "\" is a bit rate" + as_bits +
         ", where a memory bandwidth in bytes per second is wanted; did you mean " + std::string{number} +
         detail::byte_prefix(unit.substr(0, bits)) + "B/s?";
}

}  // namespace hml

namespace hml::detail {

constexpr bool is_space(char c) noexcept { return c == ' ' || c == '\t'; }
constexpr bool is_digit(char c) noexcept { return c >= '0' && c <= '9'; }
constexpr bool is_ascii_letter(char c) noexcept { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
constexpr char to_lower(char c) noexcept { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

// ASCII punctuation: where a unit may end and trailing junk begin ("GB/s" + "/s"), unlike "GB" + "x".
constexpr bool is_punctuation(char c) noexcept {
  return c > ' ' && c < 0x7f && !is_digit(c) && !is_ascii_letter(c);
}

constexpr bool equal_ignoring_case(std::string_view a, std::string_view b) noexcept {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (to_lower(a[i]) != to_lower(b[i])) return false;
  }
  return true;
}

// "a data size", "an amount of work": for "cannot read ... as <this>" and "expected <this> such as ...".
constexpr std::string_view with_article(dimension d) noexcept {
  switch (d) {
    case dimension::data_size: return "a data size";
    case dimension::duration: return "a duration";
    case dimension::work: return "an amount of work";
    case dimension::data_rate: return "a data rate";
    case dimension::compute_rate: return "a compute rate";
    case dimension::arithmetic_intensity: return "an arithmetic intensity";
    case dimension::frequency: return "a frequency";
  }
  return "a quantity";
}

// The text between double quotes, as a message shows it (message_text).
std::string quoted(std::string_view text) { return "\"" + message_text(text) + "\""; }

// "\"A\"", "\"A\" or \"B\"", "\"A\", \"B\" or \"C\"".
std::string quoted_alternatives(const std::vector<std::string_view>& alternatives) {
  std::string out;
  for (std::size_t i = 0; i < alternatives.size(); ++i) {
    if (i > 0) out += i + 1 == alternatives.size() ? " or " : ", ";
    out += quoted(alternatives[i]);
  }
  return out;
}

// A number as written, split so that a unit's decimal exponent can be added to its exponent.
struct written_number {
  std::size_t end = 0;            // position just after the number
  std::string_view significand;   // digits with at most one '.', at least one digit
  long long exponent = 0;         // the written exponent (0 when there is none), clamped to +-1e15
  bool is_zero = true;            // all digits are zero
  long long magnitude = 0;        // the number is below 10^magnitude and at least 10^(magnitude - 1)
};

// Reads digits [. digits] [e|E [+|-] digits] at `pos`: the unsigned part of std::from_chars' general
// format, without "inf" and "nan". An 'e' not followed by digits is left for the unit.
std::optional<written_number> scan_number(std::string_view text, std::size_t pos) {
  const std::size_t begin = pos;
  std::size_t integer_digits = 0;  // significant ones, before the point
  std::size_t leading_fraction_zeros = 0;
  bool seen_point = false;
  bool any_digit = false;
  written_number number;
  for (; pos < text.size(); ++pos) {
    const char c = text[pos];
    if (c == '.' && !seen_point) {
      seen_point = true;
    } else if (is_digit(c)) {
      any_digit = true;
      if (c != '0') number.is_zero = false;
      if (!seen_point && !number.is_zero) ++integer_digits;
      if (seen_point && number.is_zero) ++leading_fraction_zeros;
    } else {
      break;
    }
  }
  if (!any_digit) return std::nullopt;
  number.significand = text.substr(begin, pos - begin);
  number.end = pos;

  if (pos < text.size() && (text[pos] == 'e' || text[pos] == 'E')) {
    std::size_t digits = pos + 1;
    const bool negative = digits < text.size() && text[digits] == '-';
    if (digits < text.size() && (text[digits] == '-' || text[digits] == '+')) ++digits;
    std::size_t digits_end = digits;
    while (digits_end < text.size() && is_digit(text[digits_end])) ++digits_end;
    if (digits_end > digits) {
      constexpr long long limit = 1'000'000'000'000'000;  // far beyond any double, far from overflow
      long long exponent = 0;
      const auto [ptr, ec] = std::from_chars(text.data() + digits, text.data() + digits_end, exponent);
      if (ec == std::errc::result_out_of_range || exponent > limit) exponent = limit;
      number.exponent = negative ? -exponent : exponent;
      number.end = digits_end;
    }
  }
  number.magnitude = number.exponent + (integer_digits > 0 ? static_cast<long long>(integer_digits)
                                                           : -static_cast<long long>(leading_fraction_zeros));
  return number;
}

// "nan", "inf" or "infinity" (any case) at `pos`, which std::from_chars would read as a number.
std::size_t non_finite_word_length(std::string_view text, std::size_t pos) {
  for (const std::string_view word : {"infinity", "inf", "nan"}) {
    if (equal_ignoring_case(text.substr(pos, word.size()), word)) return word.size();
  }
  return 0;
}

// Reads one quantity; every failure is reported through fail(), with the position it concerns.
class quantity_reader {
public:
  quantity_reader(std::string_view text, dimension wanted, parse_options options)
      : text_(text), wanted_(wanted), options_(options) {
    while (first_ < text_.size() && is_space(text_[first_])) ++first_;
    last_ = text_.size();
    while (last_ > first_ && is_space(text_[last_ - 1])) --last_;
  }

  double read() const {
    const written_number number = read_number();
    std::size_t pos = number.end;
    if (pos == last_) return to_base_value(number, plain_number_unit(pos), pos);
    if (is_space(text_[pos])) {
      ++pos;  // still before last_, which follows a non-space
      if (is_space(text_[pos])) {
        fail(pos, quoted(text_.substr(pos, 1)), " is a second space",
             "at most one space between the number and the unit");
      }
    }
    const std::size_t unit_end = token_end(pos);
    const unit_symbol& unit = read_unit(pos, unit_end);
    expect_end(unit_end, unit);
    const double value = to_base_value(number, unit, unit_end);
    if (refuses_bits(unit)) {
      fail_on_bits(pos, unit, value);
    }
    return value;
  }

private:
  [[noreturn]] void fail(std::size_t position, const std::string& subject, std::string_view predicate,
                         const std::string& expected, const std::string& advice = {}) const {
    std::string message = "cannot read " + quoted(text_) + " as " + std::string(with_article(wanted_)) + ": " +
                          subject + " at position " + std::to_string(position) + std::string(predicate);
    message += advice.empty() ? "; expected " + expected : "; " + advice;
    throw parse_error(message, text_, position, expected);
  }

  std::string number_and_unit_expected() const {
    return "a number followed by " + unit_expected();
  }
  std::string unit_expected() const {
    return std::string(with_article(wanted_)) + " unit such as " + std::string(example_units(wanted_));
  }
  std::string dimension_expected() const {
    return std::string(with_article(wanted_)) + " such as " + std::string(example_units(wanted_));
  }

  std::size_t token_end(std::size_t pos) const {
    while (pos < last_ && !is_space(text_[pos])) ++pos;
    return pos;
  }

  written_number read_number() const {
    if (first_ == last_) fail(first_, "nothing", "", number_and_unit_expected());
    if (text_[first_] == '-') {
      fail(first_, quoted("-"), " is a minus sign", "a number >= 0 (quantities are magnitudes)");
    }
    if (const std::optional<written_number> number = scan_number(text_.substr(0, last_), first_)) return *number;
    if (const std::size_t length = non_finite_word_length(text_, first_)) {
      fail(first_, quoted(text_.substr(first_, length)), " is not a finite number", "a finite number");
    }
    fail(first_, quoted(text_.substr(first_, token_end(first_) - first_)), " is not a number",
         number_and_unit_expected());
  }

  const unit_symbol& plain_number_unit(std::size_t pos) const {
    if (!options_.plain_number_is_base_unit) fail(pos, "nothing", "", unit_expected());
    // Each dimension's base unit, found in the symbol table once, at compile time: searching it for every
    // plain number was a tenth of the time of reading a CSV of them.
    static constexpr auto base_units = [] {
      std::array<const unit_symbol*, static_cast<std::size_t>(dimension::frequency) + 1> units{};
      for (std::size_t d = 0; d < units.size(); ++d) units[d] = canonical_unit_symbol(static_cast<dimension>(d), 0, 0);
      return units;
    }();
    return *base_units[static_cast<std::size_t>(wanted_)];
  }

  // The unit spelled text_[begin, end): known, of the wanted dimension, else the most helpful error.
  const unit_symbol& read_unit(std::size_t begin, std::size_t end) const {
    const std::string_view spelled = text_.substr(begin, end - begin);
    if (const unit_symbol* unit = find_unit_symbol(spelled)) {
      if (unit->measures != wanted_) {
        fail(begin, quoted(spelled), " is " + std::string(with_article(unit->measures)), dimension_expected());
      }
      return *unit;
    }
    fail_on_plural_of_work(begin, spelled);
    fail_on_case_slip(begin, spelled);
    fail_on_junk_after_unit(begin, spelled);
    fail(begin, quoted(spelled), " is not a known unit", unit_expected());
  }

  bool refuses_bits(const unit_symbol& unit) const {
    return options_.sizes_in_bytes && unit.measures == dimension::data_size && size_written_in_bits(unit.text);
  }

  // "80 Gb" where bytes are wanted: the size it reads as, and the byte unit of the same prefix.
  [[noreturn]] void fail_on_bits(std::size_t unit_at, const unit_symbol& unit, double value) const {
    const unit_symbol* bytes =
        canonical_unit_symbol(dimension::data_size, unit.decimal_exponent, unit.binary_exponent + 3);
    const std::string meant = std::string(text_.substr(first_, unit_at - first_)) +  // the number, its space
                              std::string(bytes != nullptr ? bytes->text : "B");
    const std::string read_as = to_string(data_size::from_value(value), {.prefixes = prefix_system::decimal});
    fail(unit_at, quoted(unit.text), " is bits (" + read_as + ")", "a size in bytes",
         "a size here is in bytes (B, not b or bit): did you mean " + quoted(meant) + "?");
  }

  // "GFLOPs" or "flops" where work is wanted: the plural reads as GFLOPS, a rate, which the case slip would
  // offer (GFLOP/s, refused here); a count of operations is GFLOP.
  void fail_on_plural_of_work(std::size_t begin, std::string_view spelled) const {
    if (wanted_ != dimension::work || !(spelled.ends_with('s') || spelled.ends_with('S'))) return;
    const std::string_view singular = spelled.substr(0, spelled.size() - 1);
    for (const unit_symbol& symbol : unit_symbols) {
      if (symbol.measures != dimension::work || !equal_ignoring_case(symbol.text, singular)) continue;
      const std::string suggestion = quoted(canonical_form(symbol).text);
      fail(begin, quoted(spelled), " is not a known unit", suggestion,
           "work is counted in FLOP, with no s (FLOPS is a rate, FLOP/s); did you mean " + suggestion + "?");
    }
  }

  // "gb/s": not a unit, but it would be one in another case.
  void fail_on_case_slip(std::size_t begin, std::string_view spelled) const {
    const std::vector<std::string_view> suggestions = case_insensitive_matches(spelled);
    if (suggestions.empty()) return;
    const bool mentions_bits_or_bytes = spelled.find_first_of("bB") != std::string_view::npos;
    const std::string alternatives = quoted_alternatives(suggestions);
    fail(begin, quoted(spelled), " is not a known unit", alternatives,
         std::string("units are case-sensitive") + (mentions_bits_or_bytes ? ": b is bit, B is byte" : "") +
             "; did you mean " + alternatives + "?");
  }

  // Canonical spellings of the units that match `spelled` but for case, those of the wanted dimension
  // when there are any: "gb/s" -> "GB/s", "Gbit/s" (from "Gb/s").
  std::vector<std::string_view> case_insensitive_matches(std::string_view spelled) const {
    std::vector<std::string_view> wanted_matches;
    std::vector<std::string_view> other_matches;
    for (const unit_symbol& symbol : unit_symbols) {
      if (!equal_ignoring_case(symbol.text, spelled)) continue;
      if (refuses_bits(symbol)) continue;  // not offered where it would be refused
      std::vector<std::string_view>& matches = symbol.measures == wanted_ ? wanted_matches : other_matches;
      const std::string_view canonical = canonical_form(symbol).text;
      if (std::find(matches.begin(), matches.end(), canonical) == matches.end()) matches.push_back(canonical);
    }
    return wanted_matches.empty() ? other_matches : wanted_matches;
  }

  // "GB/s/s" or "GB/s,": a unit of the wanted dimension followed by punctuation that is not part of it.
  void fail_on_junk_after_unit(std::size_t begin, std::string_view spelled) const {
    const unit_symbol* longest = nullptr;
    for (const unit_symbol& symbol : unit_symbols) {
      if (symbol.measures == wanted_ && spelled.starts_with(symbol.text) && spelled.size() > symbol.text.size() &&
          is_punctuation(spelled[symbol.text.size()]) &&
          (longest == nullptr || symbol.text.size() > longest->text.size())) {
        longest = &symbol;
      }
    }
    if (longest != nullptr) expect_end(begin + longest->text.size(), *longest);
  }

  void expect_end(std::size_t pos, const unit_symbol& unit) const {
    while (pos < last_ && is_space(text_[pos])) ++pos;
    if (pos == last_) return;
    fail(pos, quoted(text_.substr(pos, last_ - pos)), " is unexpected after " + quoted(unit.text),
         "the end of the text");
  }

  // The number times the unit, converted with one decimal rounding (see the top of the file).
  double to_base_value(const written_number& number, const unit_symbol& unit, std::size_t end) const {
    // A plain significand (no exponent left after the unit's) is read as it is: no text to build, which is
    // most of the time of reading a CSV of plain numbers.
    const long long exponent = number.exponent + unit.decimal_exponent;
    std::string shifted;
    std::string_view decimal = number.significand;
    if (exponent != 0) {
      shifted = std::string(number.significand) + 'e' + std::to_string(exponent);
      decimal = shifted;
    }
    double value = 0.0;
    const auto [ptr, ec] = std::from_chars(decimal.data(), decimal.data() + decimal.size(), value);
    const bool too_large_or_small = ec == std::errc::result_out_of_range;
    const bool too_large = number.magnitude + unit.decimal_exponent > 0;
    // Doubling or halving as the literals do: the two agree in the subnormal range too.
    if (!too_large_or_small) value = times_power_of_two(value, unit.binary_exponent);
    if ((too_large_or_small && too_large) || !(std::abs(value) <= largest_magnitude)) {
      fail(first_, quoted(text_.substr(first_, end - first_)), " is too large",
           std::string(with_article(wanted_)) + " of at most 1e30 " + std::string(base_unit_symbol(wanted_)));
    }
    if (too_large_or_small || (!number.is_zero && !(std::abs(value) >= smallest_magnitude))) {
      fail(first_, quoted(text_.substr(first_, end - first_)), " is too small",
           "zero or " + std::string(with_article(wanted_)) + " of at least 1e-30 " +
               std::string(base_unit_symbol(wanted_)));
    }
    return value;
  }

  std::string_view text_;
  dimension wanted_;
  parse_options options_;
  std::size_t first_ = 0;  // the text without leading and trailing spaces is [first_, last_)
  std::size_t last_ = 0;
};

double parse_base_value(std::string_view text, dimension wanted, parse_options options) {
  return quantity_reader(text, wanted, options).read();
}

}  // namespace hml::detail
