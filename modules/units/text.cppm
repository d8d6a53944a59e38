// hml.units:text — quantities printed the way a person writes them: "10 MiB", "205 GB/s", "58.5 us",
// "5.3 TFLOP/s", "0.0833 FLOP/B". constexpr, so compile-time tests can compare printed lines.
module;
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <ostream>
#include <string>
#include <string_view>
#include <utility>
export module hml.units:text;
import :core;
import :symbols;
export import hml.format;

namespace hml::detail {

// What a dimension prints as, and which prefixes make sense for it.
struct unit_text {
  std::string_view byte_symbol;  // symbol in the base unit ("B/s")
  std::string_view bit_symbol;   // symbol when printed in bits ("bit/s"); empty if not information
  bool large_prefixes;           // k M G T P E
  bool small_prefixes;           // m u n p
  bool binary_prefixes;          // Ki Mi Gi Ti Pi
};

template <class Unit>
inline constexpr unit_text unit_text_of = [] {
  static_assert(always_false<Unit>, "hml: no text form for this unit");
  return unit_text{};
}();
// clang-format off
template <> inline constexpr unit_text unit_text_of<byte_unit>            {"B", "bit", true, false, true};
template <> inline constexpr unit_text unit_text_of<byte_per_second_unit> {"B/s", "bit/s", true, false, true};
template <> inline constexpr unit_text unit_text_of<second_unit>          {"s", "", false, true, false};
template <> inline constexpr unit_text unit_text_of<flop_unit>            {"FLOP", "", true, false, false};
template <> inline constexpr unit_text unit_text_of<flop_per_second_unit> {"FLOP/s", "", true, false, false};
template <> inline constexpr unit_text unit_text_of<flop_per_byte_unit>   {"FLOP/B", "", false, false, false};
template <> inline constexpr unit_text unit_text_of<hertz_unit>           {"Hz", "", true, false, false};
// clang-format on

struct prefix {
  std::string_view symbol;
  double factor;
  int exponent10 = 0;  // a decimal prefix's factor is 10^exponent10; a binary one's, a power of two, 0
};
inline constexpr prefix decimal_prefixes[] = {{"p", 1e-12, -12}, {"n", 1e-9, -9}, {"u", 1e-6, -6}, {"m", 1e-3, -3},
                                              {"", 1.0, 0},      {"k", 1e3, 3},   {"M", 1e6, 6},   {"G", 1e9, 9},
                                              {"T", 1e12, 12},   {"P", 1e15, 15}, {"E", 1e18, 18}};

// The number of a value in a prefixed unit: a binary prefix divides exactly; a decimal one moves the decimal
// exponent of the value's exact digits (format_number_scaled_to), where a division rounded first.
template <class Sink>
constexpr void format_in_prefix(Sink& out, double value, const prefix& p, number_format n) {
  if (p.exponent10 == 0) return format_number_to(out, value / p.factor, n);
  format_number_scaled_to(out, value, -p.exponent10, n);
}
inline constexpr prefix binary_prefixes[] = {{"", 1.0},           {"Ki", 0x1p10}, {"Mi", 0x1p20},
                                             {"Gi", 0x1p30},      {"Ti", 0x1p40}, {"Pi", 0x1p50}, {"Ei", 0x1p60}};

constexpr double magnitude(double x) noexcept { return x < 0 ? -x : x; }

constexpr bool is_whole(double x) noexcept {
  return magnitude(x) < 0x1p62 && static_cast<double>(static_cast<long long>(x)) == x;
}

// Whether x > 0 is a whole multiple of a decimal prefix's factor 10^n, in integers: a division rounds (2^60 B
// / 1000 reads as whole, and 1 EiB printed as 1.15 EB). x is m 2^e with m odd (hml.format's decompose): a
// multiple of 2^n 5^n where e >= n and 5^n divides m (5e18 B is 5 EB, as it was through a division).
constexpr bool is_whole_multiple(double x, const prefix& p) noexcept {
  const decomposed_double d = decompose(x);
  if (d.infinite || d.not_a_number || d.mantissa == 0) return false;
  std::uint64_t five_power = 1;  // 5^18 < 2^42
  for (int i = 0; i < p.exponent10; ++i) five_power *= 5;
  return d.exponent >= p.exponent10 && d.mantissa % five_power == 0;
}

constexpr bool allows(const unit_text& text, const prefix& p) noexcept {
  if (p.factor == 1.0) return true;
  return p.factor > 1.0 ? text.large_prefixes : text.small_prefixes;
}

// Half a unit in the last digit printed for a number in [100, 1000): a number at or above
// 1000 minus that rounds to "1000", which reads better as 1 of the next prefix.
constexpr double carry_threshold(number_format n) noexcept {
  double half_unit = 0.5;
  if (n.style == float_style::fixed) {
    for (int d = 0; d < n.precision; ++d) half_unit /= 10.0;
  } else {
    const int significant = n.style == float_style::scientific ? n.precision + 1 : (n.precision == 0 ? 1 : n.precision);
    for (int d = 3; d < significant; ++d) half_unit /= 10.0;
    for (int d = significant; d < 3; ++d) half_unit *= 10.0;
  }
  return 1000.0 - half_unit;
}

// Whether `size` in prefix p prints as 1000 or more (format_in_prefix's digits), which reads better as 1 of
// the next prefix. Near the threshold only those digits tell: a division rounds first, and 999.5e-6 s, just
// below 999.5 us, divided is 999.5 and carried to "0.999 ms" where "999 us" is printed; 0.99995 s, just
// above, did not carry and printed "1000 ms".
constexpr bool prints_a_thousand_or_more(double size, const prefix& p, number_format n) {
  const double scaled = size / p.factor;
  const double threshold = carry_threshold(n);
  if (magnitude(scaled - threshold) > threshold * 0x1p-40) return scaled >= threshold;
  fixed_text<number_text_capacity> text;
  format_in_prefix(text, size, p, n);
  const std::string_view digits{text.data(), text.size()};
  const std::size_t e = digits.find('e');
  if (e == std::string_view::npos) return digits.substr(0, digits.find('.')).size() >= 4;  // "1000", "1000.0"
  int exponent = 0;  // "1e+03", "1.00e+03"
  for (const char c : digits.substr(e + 2)) exponent = exponent * 10 + (c - '0');
  return digits[e + 1] == '+' && exponent >= 3;
}

// The largest allowed prefix that leaves a number >= 1 (none for zero, NaN or infinities).
constexpr prefix choose_decimal_prefix(double size, const unit_text& text, number_format n) {
  constexpr std::size_t count = std::size(decimal_prefixes);
  std::size_t chosen = 4;  // no prefix
  if (!(size > 0) || size - size != 0) return decimal_prefixes[chosen];
  for (std::size_t i = 0; i < count; ++i) {
    if (allows(text, decimal_prefixes[i]) && size >= decimal_prefixes[i].factor) chosen = i;
  }
  // Below the smallest prefix allowed, rounding may carry into it too: 0.99995 ps at three digits is 1 ps.
  const prefix* smallest = std::find_if(decimal_prefixes, decimal_prefixes + chosen,
                                        [&](const prefix& p) { return allows(text, p); });
  if (smallest != decimal_prefixes + chosen && size < smallest->factor) {
    const prefix below{"", smallest->factor / 1000, smallest->exponent10 - 3};
    return prints_a_thousand_or_more(size, below, n) ? *smallest : decimal_prefixes[chosen];
  }
  // Rounding may carry into the next prefix: 999.96 kB at three digits is 1 MB.
  if (chosen + 1 < count && allows(text, decimal_prefixes[chosen + 1]) &&
      prints_a_thousand_or_more(size, decimal_prefixes[chosen], n)) {
    ++chosen;
  }
  return decimal_prefixes[chosen];
}

// As the decimal one, carrying past "1000": from 1000 to 1023 KiB, where three digits would print
// "1.02e+03 KiB", reads as 0.977 to 0.999 MiB.
constexpr prefix choose_binary_prefix(double size, number_format n) {
  constexpr std::size_t count = std::size(binary_prefixes);
  std::size_t chosen = 0;
  for (std::size_t i = 0; i < count; ++i) {
    if (size >= binary_prefixes[i].factor) chosen = i;
  }
  if (chosen + 1 < count && prints_a_thousand_or_more(size, binary_prefixes[chosen], n)) ++chosen;
  return binary_prefixes[chosen];
}

}  // namespace hml::detail

export namespace hml {

// The character whose UTF-8 sequence starts at text[i], and that sequence's length; length 0 where the bytes
// there are not well-formed UTF-8 (RFC 3629: a stray continuation byte, a truncated sequence, an overlong
// form, a surrogate, or past U+10FFFF). The one UTF-8 decoder: readers, tables and the SVG writer take it.
struct utf8_character {
  std::size_t length = 0;
  char32_t code = 0;
};

[[nodiscard]] constexpr utf8_character utf8_character_at(std::string_view text, std::size_t i) {
  const auto lead = static_cast<unsigned char>(text[i]);
  const std::size_t length = lead < 0x80 ? 1 : (lead >> 5) == 0x6 ? 2 : (lead >> 4) == 0xE ? 3 : (lead >> 3) == 0x1E ? 4 : 0;
  if (length == 0 || i + length > text.size()) return {};
  char32_t code = length == 1 ? lead : lead & (0x7Fu >> length);
  for (std::size_t k = 1; k < length; ++k) {
    const auto next = static_cast<unsigned char>(text[i + k]);
    if ((next >> 6) != 0x2) return {};
    code = (code << 6) | (next & 0x3Fu);
  }
  constexpr char32_t shortest_from[] = {0, 0, 0x80, 0x800, 0x10000};
  if (code < shortest_from[length] || code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF)) return {};
  return {length, code};
}

[[nodiscard]] constexpr std::size_t utf8_length_at(std::string_view text, std::size_t i) {
  return utf8_character_at(text, i).length;
}

// C0 (tab and line breaks included), DEL and C1: characters that no output shows as themselves; and the
// bidirectional controls (U+061C, U+200E-F, U+202A-E, U+2066-9), which reorder the text around them unseen
// (a name with U+202E shows its end first: the "Trojan Source" trick, CVE-2021-42574); and the line and
// paragraph separators (U+2028-9), line breaks to YAML and to some terminals (a note with one written to a
// machine file did not read back).
[[nodiscard]] constexpr bool is_control(char32_t code) {
  return code < 0x20 || (code >= 0x7F && code <= 0x9F) || code == 0x61C || code == 0x200E || code == 0x200F ||
         (code >= 0x2028 && code <= 0x202E) || (code >= 0x2066 && code <= 0x2069);
}

// Text fit for any output hml writes (a table, SVG, JSON, a terminal): UTF-8 without control characters.
[[nodiscard]] constexpr bool is_printable_utf8(std::string_view text) {
  for (std::size_t i = 0; i < text.size();) {
    const utf8_character c = utf8_character_at(text, i);
    if (c.length == 0 || is_control(c.code)) return false;
    i += c.length;
  }
  return true;
}

// A character no output shows as itself (a control character, or a byte that is not part of UTF-8) as a
// message writes it: \n, \r, \t; \xHH for any other byte below 0x80 or not UTF-8; \uHHHH for a control
// code point above (U+0085, U+202E). Returns the bytes it stood for.
inline std::size_t append_escaped(std::string& out, std::string_view text, std::size_t i) {
  constexpr std::string_view hex = "0123456789abcdef";
  const utf8_character c = utf8_character_at(text, i);
  const auto lead = static_cast<unsigned char>(text[i]);
  if (c.length > 1) {
    out += "\\u";
    for (int shift = 12; shift >= 0; shift -= 4) out += hex[(c.code >> shift) & 0xF];
    return c.length;
  }
  if (lead == '\n') {
    out += "\\n";
  } else if (lead == '\r') {
    out += "\\r";
  } else if (lead == '\t') {
    out += "\\t";
  } else {
    out += "\\x";
    out += hex[lead >> 4];
    out += hex[lead & 0xF];
  }
  return 1;
}

// Why text is not printable UTF-8, for a message that cannot show the offender as it is: the readers'
// phrase with the first offender escaped and where it stands, `a control character or a byte that is not
// UTF-8 (\u202e, character 4)`; empty for printable text.
[[nodiscard]] inline std::string unprintable_part(std::string_view text) {
  std::size_t character = 1;
  for (std::size_t i = 0; i < text.size(); ++character) {
    if (const utf8_character c = utf8_character_at(text, i); c.length > 0 && !is_control(c.code)) {
      i += c.length;
      continue;
    }
    std::string shown;
    append_escaped(shown, text, i);
    return "a control character or a byte that is not UTF-8 (" + shown + ", character " + std::to_string(character) + ")";
  }
  return {};
}

// Characters drawn as nothing or as a plain space: no-break and typographic spaces, the line and paragraph
// separators, and Unicode's default-ignorable code points (the zero-width ones, the soft hyphen, direction
// marks and overrides, the word joiner, variation selectors, the byte-order mark, tags), and format characters
// that are no default-ignorable ones but are drawn as nothing too (the interlinear annotation marks, Egyptian
// hieroglyph format controls, the Khitan filler). In a message they
// make "cores\u200b" look like "cores", and "25\u00ad6 KiB" like a size that could not be read.
[[nodiscard]] constexpr bool is_invisible(char32_t c) {
  constexpr std::pair<char32_t, char32_t> ranges[] = {
      {0xA0, 0xA0},     {0xAD, 0xAD},       {0x34F, 0x34F},     {0x61C, 0x61C},     {0x115F, 0x1160},   {0x1680, 0x1680},
      {0x17B4, 0x17B5}, {0x180B, 0x180F},   {0x2000, 0x200F},   {0x2028, 0x202F},   {0x205F, 0x206F},   {0x3000, 0x3000},
      {0x2800, 0x2800}, {0x3164, 0x3164}, {0xFE00, 0xFE0F},   {0xFEFF, 0xFEFF},   {0xFFA0, 0xFFA0},   {0xFFF0, 0xFFFB},   {0x13430, 0x1343F},
      {0x16FE4, 0x16FE4}, {0x1BCA0, 0x1BCA3}, {0x1D173, 0x1D17A}, {0xE0000, 0xE0FFF}};
  return std::ranges::any_of(ranges, [c](const auto& r) { return c >= r.first && c <= r.second; });
}

// Of the invisible characters, those drawn as a plain space (no-break and typographic spaces, the braille
// blank), where the others are drawn as nothing.
[[nodiscard]] constexpr bool is_space_like(char32_t c) {
  return c == 0xA0 || c == 0x1680 || (c >= 0x2000 && c <= 0x200A) || c == 0x202F || c == 0x205F || c == 0x2800 || c == 0x3000;
}

// Text that shows nothing: empty, or only spaces and invisible characters. A name of them looks blank in a table.
[[nodiscard]] constexpr bool is_blank(std::string_view text) {
  const auto blank = [](char32_t c) { return c == ' ' || c == '\t' || is_invisible(c); };
  for (std::size_t i = 0; i < text.size();) {
    const utf8_character c = utf8_character_at(text, i);
    if (c.length == 0 || !blank(c.code)) return false;
    i += c.length;
  }
  return true;
}

// Text as an error message shows it, for the message to stay one line of readable length: quotes and
// backslashes escaped, control bytes as \x1b, and past 64 bytes cut at a character's start, with the size
// said (a 10 MB number was quoted whole, twice; a 1 MB name made a megabyte of message).
[[nodiscard]] inline std::string message_text(std::string_view text) {
  constexpr std::size_t most = 64;
  std::size_t shown = text.size();
  if (shown > most) {
    shown = most;
    while (shown > 0 && (static_cast<unsigned char>(text[shown]) & 0xC0) == 0x80) --shown;
  }
  std::string out;
  for (const char c : text.substr(0, shown)) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
      constexpr std::string_view hex = "0123456789abcdef";
      const auto code = static_cast<unsigned char>(c);
      out += "\\x";
      out += hex[code >> 4];
      out += hex[code & 0xf];
    } else {
      out += c;
    }
  }
  if (shown < text.size()) out += "... (" + std::to_string(text.size()) + " bytes)";
  return out;
}

static_assert(is_blank("") && is_blank(" \t") && is_blank("\xC2\xA0") && is_blank("\xE2\x80\x8B") && is_blank("\xEF\xBB\xBF"));
static_assert(!is_blank("a") && !is_blank(" \xC2\xA0x") && !is_blank("\xC3"));
static_assert(is_invisible(0xAD) && is_invisible(0x202E) && is_invisible(0xE0041) && is_invisible(0x2028));  // soft hyphen, RLO, tag A, LS
static_assert(is_invisible(0xFFF9) && is_invisible(0x13430) && is_invisible(0x16FE4));  // annotation anchor, Egyptian joiner, filler
static_assert(!is_invisible(0xE9) && !is_invisible(0x2010) && !is_invisible(0x2212));  // é, hyphen, minus: drawn
static_assert(is_space_like(0xA0) && is_space_like(0x2800) && !is_space_like(0x200B) && !is_space_like(' '));

static_assert(utf8_character_at("\xC3\xA9", 0).code == 0xE9 && utf8_character_at("\xF0\x9D\x84\x9E", 0).length == 4);
static_assert(utf8_length_at("\xC0\xAF", 0) == 0 && utf8_length_at("\xED\xA0\x80", 0) == 0);  // overlong, surrogate
static_assert(utf8_length_at("\xF4\x90\x80\x80", 0) == 0 && utf8_length_at("\xC3", 0) == 0);  // past U+10FFFF, cut
static_assert(!is_printable_utf8("a\tb") && !is_printable_utf8("\xC2\x85") && is_printable_utf8("caf\xC3\xA9"));
static_assert(!is_printable_utf8("gpu\xE2\x80\xAE" "fdp") && is_printable_utf8("\xE2\x80\x94"));  // U+202E refused, U+2014 taken
static_assert(!is_printable_utf8("a\xE2\x80\xA8" "b") && !is_printable_utf8("a\xE2\x80\xA9" "b"));    // U+2028, U+2029

enum class prefix_system {
  automatic,  // binary for sizes that are whole multiples of a binary prefix but not of the decimal one
  decimal,
  binary,
};

enum class information_unit { bytes, bits };

struct quantity_format {
  number_format number = general(3);
  prefix_system prefixes = prefix_system::automatic;
  information_unit information = information_unit::bytes;
  bool micro_sign = false;  // "µs" rather than "us"
  std::string_view unit{};  // a fixed unit from hml::unit_symbols ("Gbit/s", "ms"): no automatic prefix
};

// Appends "<number> <prefix><symbol>" to any sink with push_back(char).
template <class Sink, class Unit>
constexpr void format_to(Sink& out, quantity<Unit> q, quantity_format format = {}) {
  if (!format.unit.empty()) {
    const unit_symbol* symbol = find_unit_symbol(format.unit);
    expects(symbol != nullptr, "hml: the fixed unit is not in hml::unit_symbols");
    expects(symbol->measures == dimension_of<quantity<Unit>>, "hml: the fixed unit measures another dimension");
    // Its binary part divides exactly, its decimal part moves the exponent (as a prefix's).
    const double binary_part = detail::times_power_of_two(1, symbol->binary_exponent);
    format_number_scaled_to(out, q.value() / binary_part, -symbol->decimal_exponent, format.number);
    out.push_back(' ');
    for (char c : symbol->text) out.push_back(c);
    return;
  }
  const detail::unit_text text = detail::unit_text_of<Unit>;
  const bool in_bits = format.information == information_unit::bits && !text.bit_symbol.empty();
  const double value = in_bits ? q.value() * 8.0 : q.value();
  const double size = detail::magnitude(value);

  bool binary = text.binary_prefixes && format.prefixes == prefix_system::binary;
  if (text.binary_prefixes && format.prefixes == prefix_system::automatic && !in_bits) {
    // 10485760 B is "10 MiB", not "10.5 MB"; 1000000 B stays "1 MB".
    for (const detail::prefix& p : detail::binary_prefixes) {
      if (p.factor > 1.0 && size >= p.factor && detail::is_whole(size / p.factor)) binary = true;
    }
    for (const detail::prefix& p : detail::decimal_prefixes) {
      if (p.factor > 1.0 && size >= p.factor && detail::is_whole_multiple(size, p)) binary = false;
    }
  }

  detail::prefix chosen = binary ? detail::choose_binary_prefix(size, format.number)
                                 : detail::choose_decimal_prefix(size, text, format.number);
  // Past the largest prefix a number would print with an exponent beside it ("1e+12 EB"): the base unit's
  // exponent alone reads better ("1e+30 B").
  if (format.number.style != float_style::fixed && detail::prints_a_thousand_or_more(size, chosen, format.number))
    chosen = {"", 1.0};
  detail::format_in_prefix(out, value, chosen, format.number);
  out.push_back(' ');
  const std::string_view prefix = chosen.symbol == "u" && format.micro_sign ? "\u00b5" : chosen.symbol;
  for (char c : prefix) out.push_back(c);
  for (char c : in_bits ? text.bit_symbol : text.byte_symbol) out.push_back(c);
}

inline constexpr std::size_t quantity_text_capacity = number_text_capacity + 16;

// The text of a quantity, usable in constant expressions: `to_text(12_MB / 205_GBps) == "58.5 us"`.
template <class Unit>
[[nodiscard]] constexpr fixed_text<quantity_text_capacity> to_text(quantity<Unit> q, quantity_format format = {}) {
  fixed_text<quantity_text_capacity> text;
  format_to(text, q, format);
  return text;
}

template <class Unit>
[[nodiscard]] std::string to_string(quantity<Unit> q, quantity_format format = {}) {
  std::string text;
  format_to(text, q, format);
  return text;
}

// A rate of something hml has no unit for, with a decimal prefix chosen as for quantities (rounding may
// carry into the next one): `rate_text(1.2e9, "It/s") == "1.2 GIt/s"`, iterations per second.
[[nodiscard]] inline std::string rate_text(double per_second, std::string_view unit, number_format format = general(4)) {
  const detail::prefix chosen = detail::choose_decimal_prefix(per_second, {unit, "", true, false, false}, format);
  std::string text;
  detail::format_in_prefix(text, per_second, chosen, format);
  text += ' ';
  text += chosen.symbol;
  text += unit;
  return text;
}

template <class Unit>
std::ostream& operator<<(std::ostream& os, quantity<Unit> q) {
  return os << to_text(q).view();
}

}  // namespace hml
