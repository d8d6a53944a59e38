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

// The unit of a quantity's text: what follows its number (its digits, point and exponent read as parse()
// reads them, after a sign parse() would refuse) and the spaces after it ("" where it has none; the whole
// text where no number opens it). An e or E is the number's exponent only where digits follow it: "2EB" is
// 2 EB, "2e3B" is 2000 B.
[[nodiscard]] std::string_view unit_of_text(std::string_view text) noexcept;

}  // namespace detail

struct parse_options {
  // A number without a unit is in the base unit: bytes, seconds, FLOP, B/s, FLOP/s, FLOP/B or Hz.
  // Off by default, because "10" as a data rate is more often a forgotten unit than 10 B/s; the CLI turns
  // it on for CSV files whose plain numbers are FLOP and bytes.
  bool plain_number_is_base_unit = false;
  // A data size in bits ("80 Gb", "64 b") is refused. Every size a user gives hml (a memory's capacity, a
  // cache line, a kernel's bytes, a working set) is counted in bytes, and bits there are almost surely a B
  // typed as b, 8x too small. Every option and file reader turns it on; a library caller may mean bits.
  bool sizes_in_bytes = false;
  // A data rate in bits ("3.35Tbps", "800 Gbit/s") is refused, as sizes_in_bytes refuses a size in bits: for a
  // memory's bandwidth, which is published in bytes per second, where a bit rate is almost surely a B typed
  // as b, 8x too slow. Every reader of a memory's bandwidth turns it on; a link's rate and pin rates take bits.
  bool rates_in_bytes = false;
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

std::string_view unit_of_text(std::string_view text) noexcept {
  std::size_t i = text.find_first_not_of(" \t");
  if (i == std::string_view::npos) return {};
  if (text[i] == '+' || text[i] == '-') ++i;
  if (const std::optional<written_number> number = scan_number(text, i)) i = number->end;
  while (i < text.size() && is_space(text[i])) ++i;
  return text.substr(i);
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
      fail_on_bits(pos, text_.substr(pos, unit_end - pos), unit, value);
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
  std::string unit_expected() const { return std::string(with_article(wanted_)) + " unit such as " + units_to_show(); }
  std::string dimension_expected() const { return std::string(with_article(wanted_)) + " such as " + units_to_show(); }

  // The units an example names: none that this reading refuses (Gbit where sizes are in bytes).
  std::string units_to_show() const {
    const bool bytes_only = wanted_ == dimension::data_size ? options_.sizes_in_bytes : options_.rates_in_bytes;
    return std::string(example_units(wanted_, bytes_only));
  }

  std::size_t token_end(std::size_t pos) const {
    while (pos < last_ && !is_space(text_[pos])) ++pos;
    return pos;
  }

  written_number read_number() const {
    if (first_ == last_) fail(first_, "nothing", "", number_and_unit_expected());
    // The ASCII minus, or the typographic one a document pasted from may have (U+2212, or an en dash).
    for (const std::string_view minus : {"-", "\xE2\x88\x92", "\xE2\x80\x93"}) {
      if (text_.substr(first_).starts_with(minus))
        fail(first_, quoted(minus), " is a minus sign", "a number >= 0 (quantities are magnitudes)");
    }
    if (text_.substr(first_).starts_with('+')) fail(first_, quoted("+"), " is a plus sign", "the number without it");
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
    fail_on_transfers(begin, spelled);
    fail_on_case_slip(begin, spelled);
    if (const unit_symbol* bits = refused_bits_but_for_case(spelled)) return *bits;  // read() says it is bits
    fail_on_junk_after_unit(begin, spelled);
    fail(begin, quoted(spelled), " is not a known unit", unit_expected());
  }

  bool refuses_bits(const unit_symbol& unit) const {
    if (!unit.counts_bits()) return false;
    return unit.measures == dimension::data_size ? options_.sizes_in_bytes : options_.rates_in_bytes;
  }

  // "80 Gb" where bytes are wanted, or "3.35Tbps" where bytes a second are: what it reads as, and what it
  // may mean: the bytes the bits are, in the fewest digits that read back as them, in the byte unit of the
  // bits' prefix or the prefix that prints them ("512 bit": "64 B", "5 Kibit": "640 B", "12345.6789Mibit/s":
  // "1543.2098625 MiB/s"), and, for a b rather than a bit spelled out, the byte unit of its prefix: a B
  // typed as b ("80 Gb": "80 GB" or "10 GB"; 100Gbps is as often a network's bits as mistyped bytes).
  [[noreturn]] void fail_on_bits(std::size_t unit_at, std::string_view spelled, const unit_symbol& unit, double value) const {
    const bool size = unit.measures == dimension::data_size;
    const unit_symbol* bytes = canonical_unit_symbol(unit.measures, unit.decimal_exponent, unit.binary_exponent + 3);
    expects(bytes != nullptr, "hml: every bit unit has a byte unit of its prefix");
    const auto as_bytes = [&](quantity_format format) {
      return size ? to_string(data_size::from_value(value), format) : to_string(data_rate::from_value(value), format);
    };
    // The printer's text always reads back (Parse.EveryUnitThePrinterWritesReadsBack), so this parse, in an
    // error path, cannot throw; at 17 digits the text is the double's own.
    const auto fewest_digits = [&](quantity_format format) {
      for (format.number = general(4);; ++format.number.precision) {
        std::string text = as_bytes(format);
        if (format.number.precision == 17 || parse_base_value(text, unit.measures, {}) == value) return text;
      }
    };
    const bool binary = unit.decimal_exponent == 0 && unit.binary_exponent > 0;  // Kibit, Mibit/s, ...
    const std::string printed = fewest_digits({.prefixes = binary ? prefix_system::binary : prefix_system::decimal});
    const std::string in_its_prefix = fewest_digits({.unit = bytes->text});
    const std::string bytes_they_are = in_its_prefix.size() < printed.size() ? in_its_prefix : printed;
    // A B typed as b: the number as written and the byte unit, where that is a magnitude hml reads (2e30b is
    // 2.5e29 B, and 2e30 B too large).
    const auto typed_as_b = [&]() -> std::string {
      if (unit.text.find("bit") != std::string_view::npos) return {};
      std::string text = std::string(text_.substr(first_, unit_at - first_)) + std::string(bytes->text);
      try {
        (void)parse_base_value(text, unit.measures, {});
      } catch (const parse_error&) {
        return {};
      }
      return text;
    }();
    std::string meant = ": did you mean " + quoted(bytes_they_are) + "?";
    if (!typed_as_b.empty()) meant = ": did you mean " + quoted(typed_as_b) + " or " + quoted(bytes_they_are) + "?";
    if (!(value > 0)) meant.clear();  // 0 in bytes is as refused
    const std::string read_as = as_bytes({.number = general(4), .prefixes = prefix_system::decimal});
    const std::string predicate = std::string(size ? " is bits (" : " is bits per second (") + read_as + ")";
    const std::string in_bytes = size ? "a size here is in bytes (B, not b or bit)"
                                      : "a memory's bandwidth is in bytes per second (B/s, not b/s or bit/s)";
    fail(unit_at, quoted(spelled), predicate, size ? "a size in bytes" : "a rate in bytes per second", in_bytes + meant);
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

  // "3.2 GT/s" where a bit rate is taken, as datasheets give a memory pin's or a PCIe lane's rate: transfers
  // are no unit of data. A memory pin moves a bit a transfer; a link's lanes and line code are the user's to
  // count (32 GT/s is a PCIe 5.0 lane's), so no one rate is offered.
  void fail_on_transfers(std::size_t begin, std::string_view spelled) const {
    if (wanted_ != dimension::data_rate || options_.rates_in_bytes) return;
    const std::string_view prefixes = "kMGT";
    if (spelled.size() != 4 || prefixes.find(spelled[0]) == std::string_view::npos || spelled.substr(1) != "T/s") return;
    const std::string number(trimmed(text_.substr(first_, begin - first_)));
    fail(begin, quoted(spelled), " is transfers a second, not data", "a rate in bits or bytes a second",
         "give bits or bytes a second (a memory pin moves a bit a transfer: " + number + " " + std::string(spelled) + " is " +
             number + " " + spelled[0] + "bit/s a pin; a PCIe link moves lanes x GT/s x 128/130 bits)");
  }

  // "gbit/s" where a memory's bandwidth is wanted: bits in the wrong case, and (fail_on_case_slip said any)
  // no other unit in any case; to be refused as bits, with the bytes they are, as "Gbit/s" is.
  const unit_symbol* refused_bits_but_for_case(std::string_view spelled) const {
    const auto bits = std::ranges::find_if(unit_symbols, [&](const unit_symbol& symbol) {
      return symbol.measures == wanted_ && refuses_bits(symbol) && equal_ignoring_case(symbol.text, spelled);
    });
    return bits == unit_symbols.end() ? nullptr : &canonical_form(*bits);
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

  // Canonical spellings of the units of the wanted dimension that match `spelled` but for case: "gb/s" ->
  // "GB/s", "Gbit/s" (from "Gb/s"). None that would be refused: not "GB/s" where a duration is wanted, nor
  // "Gbit/s" where a memory's bandwidth is.
  std::vector<std::string_view> case_insensitive_matches(std::string_view spelled) const {
    std::vector<std::string_view> matches;
    for (const unit_symbol& symbol : unit_symbols) {
      if (symbol.measures != wanted_ || refuses_bits(symbol) || !equal_ignoring_case(symbol.text, spelled)) continue;
      const std::string_view canonical = canonical_form(symbol).text;
      if (std::find(matches.begin(), matches.end(), canonical) == matches.end()) matches.push_back(canonical);
    }
    return matches;
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
