// hml.report:csv — a table as CSV per RFC 4180: records end in CRLF (the RFC's line break; readers that
// expect LF accept it too), the first record is the header, a field containing a comma, a double quote,
// CR or LF is enclosed in double quotes with inner quotes doubled. Numbers are written as the shortest text
// that reads back as the same double (std::to_chars: 5e-08, not %.17g's 4.9999999999999998e-08), and
// "inf", "-inf" and "nan" for the non-finite ones, as strtod reads them.
module;
#include <algorithm>
#include <array>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>
export module hml.report:csv;
import hml.units;  // expects
import :table;

namespace hml::detail {

inline constexpr double double_powers_of_ten[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                                  1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                                  1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
// The 8 decimal digits of value < 10^8, leading zeros included, as the 8 bytes of their text (the first
// digit in the lowest byte). No division and no branch, so the cost does not depend on the value (Paul
// Khuong's method: 2 lanes of 4 digits, 4 lanes of 2, 8 lanes of 1, each split by a multiplication).
inline std::uint64_t eight_digits_text(std::uint64_t value) noexcept {
  const std::uint64_t fours = value / 10'000 | (value % 10'000) << 32;
  const std::uint64_t high_pairs = ((fours * 10486) >> 20) & ((0x7FULL << 32) | 0x7F);  // x / 100 in each lane
  const std::uint64_t pairs = ((fours - 100 * high_pairs) << 16) + high_pairs;
  std::uint64_t ones = ((pairs * 103) >> 10) & ((0xFULL << 48) | (0xFULL << 32) | (0xFULL << 16) | 0xF);  // x / 10
  ones += (pairs - 10 * ones) << 8;
  return ones + 0x3030'3030'3030'3030ULL;  // + '0' in each byte
}

// Room the caller gives short_decimal_chars: its text is at most 24 characters, but it copies digits 16 or 24
// at a time and lets the copies run past the text's end (into this room) rather than branch on their length.
inline constexpr std::size_t short_decimal_room = 48;

// The text (-)m 10^-k as std::to_chars writes a double whose shortest digits are m's (m < 10^17 without
// its trailing zeros, the text's exponent between -99 and 99), at `out` (short_decimal_room characters);
// returns its end. The layout is to_chars': fixed or scientific, whichever is shorter, fixed on a tie. Zeros
// are "0" and "-0". k may be negative (m 10^|k|).
inline char* decimal_chars(char* out, bool negative, std::uint64_t m, int k) noexcept {
  if (negative) *out++ = '-';
  if (m == 0) {
    *out = '0';
    return out + 1;
  }
  // m's digits, leading zeros too (8 or 17), then room for the 16- and 24-byte copies below to read past
  // them. The leading and trailing zeros are counted as the bytes of the text that are '0' at either end (in
  // a word the first digit is the lowest byte); m > 0, so some digit is not. x = digits 10^exponent, where
  // digits are the n significant ones, m without its trailing zeros.
  char text[48];
  std::memset(text, '0', sizeof text);
  int leading = 0;
  int trailing = 0;
  int n = 0;
  constexpr std::uint64_t zeros = 0x3030'3030'3030'3030ULL;
  if (m < 100'000'000) {  // most rounded numbers: one word
    const std::uint64_t word = eight_digits_text(m);
    std::memcpy(text, &word, 8);
    const std::uint64_t digits = word ^ zeros;  // 0 where a byte is '0'
    leading = std::countr_zero(digits) / 8;
    trailing = std::countl_zero(digits) / 8;
    n = 8 - leading - trailing;
  } else {
    const std::uint64_t top = m / 10'000'000'000'000'000ULL;  // 0 but for a 17-digit m
    const std::uint64_t rest = m - top * 10'000'000'000'000'000ULL;
    const std::uint64_t high = eight_digits_text(rest / 100'000'000);
    const std::uint64_t low = eight_digits_text(rest % 100'000'000);
    text[0] = static_cast<char>('0' + top);
    std::memcpy(text + 1, &high, 8);
    std::memcpy(text + 9, &low, 8);
    const std::uint64_t high_digits = high ^ zeros;
    const std::uint64_t low_digits = low ^ zeros;
    leading = top != 0 ? 0 : high_digits != 0 ? 1 + std::countr_zero(high_digits) / 8 : 9 + std::countr_zero(low_digits) / 8;
    trailing = low_digits != 0 ? std::countl_zero(low_digits) / 8 : 8 + std::countl_zero(high_digits) / 8;
    n = 17 - leading - trailing;
  }
  const char* const significant = text + leading;
  const int exponent = trailing - k;
  const int e10 = exponent + n - 1;  // scientific exponent
  const int scientific = n + (n > 1 ? 1 : 0) + 4;
  const int fixed = exponent >= 0 ? n + exponent : (n > -exponent ? n + 1 : 2 - exponent);
  if (fixed <= scientific) {
    const int whole = n + exponent;  // digits before the point
    if (exponent >= 0) {             // ddd00 (at most 5 zeros, else scientific is shorter)
      std::memcpy(out, significant, 24);
      std::memcpy(out + n, "00000000", 8);
    } else if (whole > 0) {  // dd.ddd
      std::memcpy(out, significant, 16);
      out[whole] = '.';
      std::memcpy(out + whole + 1, significant + whole, 16);
      ++out;
    } else {  // 0.00ddd (at most 3 zeros after the point, else scientific is shorter)
      std::memcpy(out, "0.000000", 8);
      std::memcpy(out + 2 - whole, significant, 24);
      out += 2 - whole;
    }
    return out + (exponent >= 0 ? whole : n);
  }
  // d.ddde-05
  out[0] = significant[0];
  out[1] = '.';
  std::memcpy(out + 2, significant + 1, 16);
  out += n > 1 ? n + 1 : 1;
  const int a = e10 < 0 ? -e10 : e10;
  out[0] = 'e';
  out[1] = e10 < 0 ? '-' : '+';
  out[2] = static_cast<char>('0' + a / 10);
  out[3] = static_cast<char>('0' + a % 10);
  return out + 4;
}

// The shortest digits of the double nearest (-)m / 10^k, for m < 2^52 and k <= 22, are m's without its
// trailing zeros: that double x has |x| 10^k < 2^52 (x cannot round up to the next power of two), so the
// doubles near it are less than 10^-k apart and no other decimal of k places reads back as x; and a decimal
// with fewer digits reading back as x would be another one of k places. Such an x has |x| >= 10^-22 and
// < 2^52, so its exponent has 2 digits, and m has at most 16 digits: decimal_chars writes it.

// std::to_chars(x)'s text for a double that is a short decimal (a number rounded to a few places before it
// was a double), in a fraction of its time; nullptr where x is not one, for std::to_chars to write. `out` has
// short_decimal_room characters. With |x| 10^k < 2^50, round(x 10^k) is the integer m of the only decimal
// of k places that can read back as x (the product is off by under 1/4 + 1/8), so x is the decimal m / 10^k
// exactly when that correctly rounded division gives x back (a short_decimal cell has m and k already).
inline char* short_decimal_chars(char* out, double x) noexcept {
  if constexpr (std::endian::native != std::endian::little) return nullptr;  // eight_digits_text's byte order
  const double magnitude = x < 0 ? -x : x;
  if (magnitude == 0.0) return decimal_chars(out, std::signbit(x), 0, 0);
  if (!(magnitude < 0x1p50)) return nullptr;  // NaN, infinities, large numbers: to_chars
  // The most places k (up to 22) with |x| 10^k < 2^50: |x| < 2^(e+1), so 10^k <= 2^(49-e) is enough, and
  // k = floor((49 - e) log10 2) (78913 / 2^18 is log10 2 from below) is that or one less.
  const int e = static_cast<int>((std::bit_cast<std::uint64_t>(magnitude) >> 52) & 0x7ff) - 1023;
  int k = e >= 49 ? 0 : std::min(22, ((49 - e) * 78913) >> 18);
  if (k < 22 && magnitude * double_powers_of_ten[k + 1] < 0x1p50) ++k;
  const double y = magnitude * double_powers_of_ten[k];
  const auto m = static_cast<std::uint64_t>(y + 0.5);  // y < 2^50: rounds half up, and m is exact
  if (static_cast<double>(m) / double_powers_of_ten[k] != magnitude || m == 0) return nullptr;
  return decimal_chars(out, x < 0, m, k);
}

inline constexpr std::uint64_t integer_powers_of_ten[] = {1ULL,
                                                          10ULL,
                                                          100ULL,
                                                          1'000ULL,
                                                          10'000ULL,
                                                          100'000ULL,
                                                          1'000'000ULL,
                                                          10'000'000ULL,
                                                          100'000'000ULL,
                                                          1'000'000'000ULL,
                                                          10'000'000'000ULL};

// std::to_chars(x)'s text for 2^22 <= |x| < 2^53, in a fraction of its time (to_chars' general method costs
// ~640 instructions; `hml roofline --round` leaves a fifth of its attainable FLOP/s, 10^11 and more, with
// all their digits); nullptr for other x, and for the rare x where to_chars' rules for ties and for the
// rounding interval's bounds would decide, for to_chars to write.
// x = M 2^-s with s <= 30, so x 10^N is exact in 128 bits; and its rounding interval is x +- 2^-s / 2 (M is
// not a power of two: one of those has a narrower interval below). With 10^N >= 2^s, the decimal of N
// places nearest x is in the interval. The shortest text is the decimal with the fewest places (N - j for
// the largest j) that is in the interval, the nearest such; decimals of N - j places are multiples of 10^j
// units of 10^-N, so each step of j drops the last digit of q = floor(x 10^N) and tests the two multiples
// around x. Lengths in units of 2^-s 10^-N: the interval's half is 10^N / 2.
inline char* coarse_double_chars(char* out, double x) noexcept {
  if constexpr (std::endian::native != std::endian::little) return nullptr;  // decimal_chars' byte order
  const auto bits = std::bit_cast<std::uint64_t>(x);
  const int s = 1075 - static_cast<int>((bits >> 52) & 0x7ff);  // x = M 2^-s
  constexpr std::uint64_t hidden = std::uint64_t{1} << 52;
  const std::uint64_t fraction = bits & (hidden - 1);
  if (s < 0 || s > 30 || fraction == 0) return nullptr;
  const std::uint64_t M = hidden | fraction;
  int N = (s * 78913) >> 18;  // floor(s log10 2): 10^N <= 2^s
  if (integer_powers_of_ten[N] < (std::uint64_t{1} << s)) ++N;
  using u128 = unsigned __int128;
  const u128 X = static_cast<u128>(M) * integer_powers_of_ten[N];  // x 10^N, in units of 2^-s; < 10 M 2^s
  const u128 interval = integer_powers_of_ten[N];                   // twice the interval's half
  std::uint64_t t = static_cast<std::uint64_t>(X >> s);  // q without its last j digits (q < 10 M < 2^57)
  const u128 r = X & ((u128{1} << s) - 1);                // x 10^N - q, in units
  u128 below = r;                                         // x - t 10^j, in units
  u128 step = u128{1} << s;                               // 10^j, in units
  std::uint64_t digits = 0;
  int j = 0;
  for (;; ++j) {
    const u128 above = step - below;  // (t + 1) 10^j - x
    const u128 nearest = below < above ? below : above;
    if (2 * nearest > interval) break;                      // no decimal of N - j places reads back as x
    if (2 * nearest == interval || below == above) return nullptr;  // a bound or a tie: to_chars' rules
    digits = below < above ? t : t + 1;
    if (t == 0) {  // x rounds to 10^j; the next step's candidates are 0 and 10^(j+1), both out
      ++j;
      break;
    }
    below += static_cast<u128>(t % 10) * step;
    t /= 10;
    step *= 10;
  }
  --j;  // the last j that had a decimal in the interval (j = 0 always has one)
  return decimal_chars(out, x < 0, digits, N - j);
}

// A short_decimal cell's text, as std::to_chars writes its value() (decimal_chars, or the general path for
// one outside short_decimal's bounds).
inline char* shortest_chars(char* out, double x) noexcept;
inline char* short_decimal_text(char* out, const short_decimal& d) noexcept {
  if (std::endian::native == std::endian::little && d.digits < short_decimal::digits_limit && d.places >= 0 &&
      d.places <= 22) {
    return decimal_chars(out, d.negative, d.digits, d.places);
  }
  return shortest_chars(out, d.value());
}

// The shortest text that reads back as the same double, at `out` (short_decimal_room characters); returns
// its end.
inline char* shortest_chars(char* out, double x) noexcept {
  if (char* end = short_decimal_chars(out, x)) return end;
  if (char* end = coarse_double_chars(out, x)) return end;
  return std::to_chars(out, out + short_decimal_room, x).ptr;  // the longest is 24 characters
}

// Appends the shortest text that reads back as the same double: the CSV's numbers and the chart's data-*
// attributes.
inline void append_shortest(std::string& out, double x) {
  char text[short_decimal_room];
  out.append(text, shortest_chars(text, x));
}

// The bytes of `word` (eight bytes of text, the first in the lowest) below `n` (n <= 0x80), each flagged by
// its high bit: (v - n 0x01..) & ~v & 0x80.., exact for the lowest such byte (a borrow may flag bytes above
// it, never below), so the lowest flag is the first such byte, and no flag means none. The one word trick of
// the CSV reader's search and the writer's quoting test, which are much of their work.
template <unsigned n>
constexpr std::uint64_t bytes_below(std::uint64_t word) noexcept {
  static_assert(n >= 1 && n <= 0x80, "bytes_below tests for ASCII bytes");
  constexpr std::uint64_t ones = 0x0101'0101'0101'0101ULL;
  return (word - n * ones) & ~word & 0x8080'8080'8080'8080ULL;
}

// The bytes of `word` that are one of `Bytes`, flagged as bytes_below flags them: v ^ c 0x01.. is 0 where v
// has c.
template <char... Bytes>
constexpr std::uint64_t flag_bytes(std::uint64_t word) noexcept {
  constexpr std::uint64_t ones = 0x0101'0101'0101'0101ULL;
  return (bytes_below<1>(word ^ (static_cast<unsigned char>(Bytes) * ones)) | ...);
}

// The position of the first byte of `text` at or after `from` that is one of `Bytes`, or text.size(): the
// CSV reader's search for the bytes that end a field. Those bytes are all below 0x2D, where the text of a
// field rarely is (digits, letters), so eight bytes at a time are tested for any byte below the highest of
// them plus one (bytes_below), and only the first such byte is compared with each (one test per word, where
// flag_bytes' exact one costs a few for each byte looked for: about 80 instructions more a line of `hml
// roofline`'s input, by callgrind's count).
template <char... Bytes>
std::size_t find_first_of_bytes(std::string_view text, std::size_t from = 0) noexcept {
  constexpr auto is_one = [](char c) { return ((c == Bytes) || ...); };
  if constexpr (std::endian::native == std::endian::little) {
    constexpr unsigned above = std::max({static_cast<unsigned>(static_cast<unsigned char>(Bytes))...}) + 1;
    while (from + 8 <= text.size()) {
      std::uint64_t word = 0;
      std::memcpy(&word, text.data() + from, 8);
      const std::uint64_t below = bytes_below<above>(word);
      if (below == 0) {
        from += 8;
        continue;
      }
      const std::size_t at = from + static_cast<std::size_t>(std::countr_zero(below)) / 8;
      if (is_one(text[at])) return at;
      from = at + 1;  // a byte such as a space
    }
  }
  while (from < text.size() && !is_one(text[from])) ++from;
  return from;
}

// Whether a CSV field must be quoted: it holds a comma, a double quote, CR or LF (flag_bytes, eight bytes
// at a time, as csv_field_chars tests them).
inline bool needs_csv_quotes(std::string_view field) noexcept {
  std::size_t at = 0;
  if constexpr (std::endian::native == std::endian::little) {
    for (; at + 8 <= field.size(); at += 8) {
      std::uint64_t word = 0;
      std::memcpy(&word, field.data() + at, 8);
      if (flag_bytes<',', '"', '\r', '\n'>(word) != 0) return true;
    }
  }
  return field.find_first_of(",\"\r\n", at) != std::string_view::npos;
}

// The field as CSV text at `out`, which has room for 2 size + 2 characters; returns its end. A field of 8
// bytes or more (a kernel's name, a bound) is tested (flag_bytes, as needs_csv_quotes does) and copied a
// word at a time, the last word overlapping the one before where the size is not a multiple of 8.
inline char* csv_field_chars(char* out, std::string_view field) noexcept {
  const std::size_t size = field.size();
  if (std::endian::native == std::endian::little && size >= 8) {
    std::uint64_t to_quote = 0;
    for (std::size_t at = 0; at < size; at += 8) {
      const std::size_t from = at + 8 <= size ? at : size - 8;
      std::uint64_t word = 0;
      std::memcpy(&word, field.data() + from, 8);
      std::memcpy(out + from, &word, 8);
      to_quote |= flag_bytes<',', '"', '\r', '\n'>(word);
    }
    if (to_quote == 0) return out + size;
  } else if (!needs_csv_quotes(field)) {
    std::memcpy(out, field.data(), size);
    return out + size;
  }
  *out++ = '"';
  for (const char c : field) {
    if (c == '"') *out++ = '"';
    *out++ = c;
  }
  *out++ = '"';
  return out;
}

inline void append_csv_field(std::string& out, std::string_view field) {
  if (!needs_csv_quotes(field)) {
    out += field;
    return;
  }
  out += '"';
  for (char c : field) {
    if (c == '"') out += '"';
    out += c;
  }
  out += '"';
}

inline void append_csv_record(std::string& out, std::span<const cell_view> fields) {
  for (std::size_t i = 0; i < fields.size(); ++i) {
    if (i > 0) out += ',';
    if (const double* number = std::get_if<double>(&fields[i])) {
      append_shortest(out, *number);
    } else if (const short_decimal* decimal = std::get_if<short_decimal>(&fields[i])) {
      char text[short_decimal_room];
      out.append(text, short_decimal_text(text, *decimal));
    } else if (const std::string_view* text = std::get_if<std::string_view>(&fields[i])) {
      append_csv_field(out, *text);
    } else if (const bool* yes = std::get_if<bool>(&fields[i])) {
      out += *yes ? "true" : "false";
    }  // no_value: an empty field
  }
  out += "\r\n";
}

}  // namespace hml::detail

export namespace hml {

inline constexpr std::string_view csv_line_break = "\r\n";

// A table streamed as CSV: the header record, then one record per row. A column's number is formatted
// once while it repeats (a sweep's fixed and outer parameters repeat over many rows), which halves the
// cost of a sweep's rows; the text is the same either way. A record is composed in the writer's own
// buffer and appended to the caller's string in one go: one std::string append a row, not one a field.
class csv_writer {
public:
  explicit csv_writer(std::span<const std::string> columns)
      : columns_(columns.begin(), columns.end()), last_(columns.size()) {}

  void header(std::string& out) const {
    const std::vector<cell_view> names(columns_.begin(), columns_.end());
    detail::append_csv_record(out, names);
  }

  void row(std::string& out, std::span<const cell_view> cells) {
    expects(cells.size() == columns_.size(), "hml: a table row needs one cell per column");
    for (std::size_t i = 0; i < cells.size(); ++i) {
      if (i > 0) put(out, ",");
      if (const double* number = std::get_if<double>(&cells[i])) {
        used_ = static_cast<std::size_t>(last_[i].chars(room(out, detail::short_decimal_room), *number) - pending_.data());
      } else if (const short_decimal* decimal = std::get_if<short_decimal>(&cells[i])) {
        used_ = static_cast<std::size_t>(detail::short_decimal_text(room(out, detail::short_decimal_room), *decimal) -
                                         pending_.data());
      } else if (const std::string_view* text = std::get_if<std::string_view>(&cells[i])) {
        put_field(out, *text);
      } else if (const bool* yes = std::get_if<bool>(&cells[i])) {
        put(out, *yes ? "true" : "false");
      }  // no_value: an empty field
    }
    put(out, csv_line_break);
    flush(out);
  }

private:
  static constexpr std::size_t pending_size = 1024;

  // The last number of a column and its text; equal means the same bits (so 0 and -0 differ, NaN repeats).
  struct remembered {
    std::uint64_t bits = 0;
    bool known = false;
    std::size_t size = 0;
    std::array<char, detail::short_decimal_room> text{};

    // x's text at `out` (short_decimal_room characters); returns its end.
    char* chars(char* out, double x) noexcept {
      const auto b = std::bit_cast<std::uint64_t>(x);
      if (!known || b != bits) {
        size = static_cast<std::size_t>(detail::shortest_chars(text.data(), x) - text.data());
        bits = b;
        known = true;
      }
      std::memcpy(out, text.data(), 32);  // the longest text is 24 bytes; a copy of fixed size costs no call
      return out + size;
    }
  };

  // Room for `n` more characters in the pending record (n <= pending_size), handing on what it holds first if
  // it has less.
  char* room(std::string& out, std::size_t n) {
    if (pending_size - used_ < n) flush(out);
    return pending_.data() + used_;
  }
  void put(std::string& out, std::string_view text) {
    std::memcpy(room(out, text.size()), text.data(), text.size());
    used_ += text.size();
  }
  void put_field(std::string& out, std::string_view text) {
    const std::size_t longest = 2 * text.size() + 2;  // every byte a doubled quote, and the enclosing ones
    if (longest > pending_size) {
      flush(out);
      detail::append_csv_field(out, text);
      return;
    }
    used_ = static_cast<std::size_t>(detail::csv_field_chars(room(out, longest), text) - pending_.data());
  }
  void flush(std::string& out) {
    out.append(pending_.data(), used_);
    used_ = 0;
  }

  std::vector<std::string> columns_;
  std::vector<remembered> last_;
  std::array<char, pending_size> pending_{};
  std::size_t used_ = 0;
};

[[nodiscard]] inline std::string to_csv(const table& t) {
  csv_writer writer{t.columns};
  std::string out;
  writer.header(out);
  std::vector<cell_view> row;
  for (const auto& cells : t.rows) {
    row.clear();
    for (const cell& c : cells) row.push_back(view_of(c));
    writer.row(out, row);
  }
  return out;
}

}  // namespace hml
