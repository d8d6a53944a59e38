// hml.report:csv — a table as CSV per RFC 4180: records end in CRLF (the RFC's line break; readers that
// expect LF accept it too), the first record is the header, a field containing a comma, a double quote,
// CR or LF is enclosed in double quotes with inner quotes doubled. Numbers are written as the shortest text
// that reads back as the same double (std::to_chars: 5e-08, not %.17g's 4.9999999999999998e-08), and
// "inf", "-inf" and "nan" for the non-finite ones, as strtod reads them.
module;
#include <algorithm>
#include <bit>
#include <charconv>
#include <cstddef>
#include <cstdint>
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

// std::to_chars(x)'s text for a double that is a short decimal (hml roofline --round writes 4, 2 and 8
// decimals), in fewer than half its instructions; nullptr where x is not one, for std::to_chars to write.
// With |x| 10^k < 2^50 the doubles near x are less than 10^-k / 2 apart, so at most one decimal of k places
// reads back as x, and if one does, round(x 10^k) is its integer m (the product is off by under 1/4 + 1/8).
// So x is the decimal m / 10^k exactly when that correctly rounded division gives x back, and m without its
// trailing zeros is the shortest text's digits (a decimal with fewer digits would be another one of k
// places). The layout is to_chars': fixed or scientific, whichever is shorter, fixed on a tie.
inline char* short_decimal_chars(char* out, double x) noexcept {
  constexpr double powers_of_ten[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                                      1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
  const double magnitude = x < 0 ? -x : x;
  if (!(magnitude < 0x1p50) || magnitude == 0.0) return nullptr;  // NaN, infinities, zeros: to_chars
  // The most places k (up to 22) with |x| 10^k < 2^50: |x| < 2^(e+1), so 10^k <= 2^(49-e) is enough, and
  // k = floor((49 - e) log10 2) (78913 / 2^18 is log10 2 from below) is that or one less.
  const int e = static_cast<int>((std::bit_cast<std::uint64_t>(magnitude) >> 52) & 0x7ff) - 1023;
  int k = e >= 49 ? 0 : std::min(22, ((49 - e) * 78913) >> 18);
  if (k < 22 && magnitude * powers_of_ten[k + 1] < 0x1p50) ++k;
  const double y = magnitude * powers_of_ten[k];
  const auto m = static_cast<std::uint64_t>(y + 0.5);  // y < 2^50: rounds half up, and m is exact
  if (static_cast<double>(m) / powers_of_ten[k] != magnitude || m == 0) return nullptr;
  std::uint64_t digits = m;
  int exponent = -k;  // x = digits 10^exponent
  // At most 15 trailing zeros (m < 2^50 has at most 16 digits): stripped 8, 4, 2 and 1 at a time.
  for (const auto [power, zeros] : {std::pair<std::uint64_t, int>{100'000'000, 8}, {10'000, 4}, {100, 2}, {10, 1}}) {
    if (digits % power == 0) {
      digits /= power;
      exponent += zeros;
    }
  }
  char d[20];
  const int n = static_cast<int>(std::to_chars(d, d + sizeof d, digits).ptr - d);
  const int e10 = exponent + n - 1;  // scientific exponent
  const int e10_digits = (e10 < 0 ? -e10 : e10) >= 100 ? 3 : 2;
  const int scientific = n + (n > 1 ? 1 : 0) + 2 + e10_digits;
  const int fixed = exponent >= 0 ? n + exponent : (n > -exponent ? n + 1 : 2 - exponent);
  if (x < 0) *out++ = '-';
  if (fixed <= scientific) {
    if (exponent >= 0) {
      out = std::copy_n(d, n, out);
      out = std::fill_n(out, exponent, '0');
    } else if (n > -exponent) {
      out = std::copy_n(d, n + exponent, out);
      *out++ = '.';
      out = std::copy_n(d + n + exponent, -exponent, out);
    } else {
      *out++ = '0';
      *out++ = '.';
      out = std::fill_n(out, -exponent - n, '0');
      out = std::copy_n(d, n, out);
    }
    return out;
  }
  *out++ = d[0];
  if (n > 1) {
    *out++ = '.';
    out = std::copy_n(d + 1, n - 1, out);
  }
  *out++ = 'e';
  *out++ = e10 < 0 ? '-' : '+';
  const int a = e10 < 0 ? -e10 : e10;
  if (a >= 100) *out++ = static_cast<char>('0' + a / 100);
  *out++ = static_cast<char>('0' + a / 10 % 10);
  *out++ = static_cast<char>('0' + a % 10);
  return out;
}

// Appends the shortest text that reads back as the same double: the CSV's numbers and the chart's data-*
// attributes.
inline void append_shortest(std::string& out, double x) {
  char text[32];  // the longest shortest form of a double is 24 characters
  char* end = short_decimal_chars(text, x);
  if (end == nullptr) end = std::to_chars(text, text + sizeof text, x).ptr;
  out.append(text, end);
}

inline void append_csv_field(std::string& out, std::string_view field) {
  if (field.find_first_of(",\"\r\n") == std::string_view::npos) {
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
    } else if (const std::string_view* text = std::get_if<std::string_view>(&fields[i])) {
      append_csv_field(out, *text);
    }  // no_value: an empty field
  }
  out += "\r\n";
}

}  // namespace hml::detail

export namespace hml {

inline constexpr std::string_view csv_line_break = "\r\n";

// A table streamed as CSV: the header record, then one record per row. A column's number is formatted
// once while it repeats (a sweep's fixed and outer parameters repeat over many rows), which halves the
// cost of a sweep's rows; the text is the same either way.
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
      if (i > 0) out += ',';
      if (const double* number = std::get_if<double>(&cells[i])) {
        out += last_[i].text_of(*number);
      } else if (const std::string_view* text = std::get_if<std::string_view>(&cells[i])) {
        detail::append_csv_field(out, *text);
      }  // no_value: an empty field
    }
    out += csv_line_break;
  }

private:
  // The last number of a column and its text; equal means the same bits (so 0 and -0 differ, NaN repeats).
  struct remembered {
    std::uint64_t bits = 0;
    bool known = false;
    std::string text;

    const std::string& text_of(double x) {
      const auto b = std::bit_cast<std::uint64_t>(x);
      if (!known || b != bits) {
        text.clear();
        detail::append_shortest(text, x);
        bits = b;
        known = true;
      }
      return text;
    }
  };

  std::vector<std::string> columns_;
  std::vector<remembered> last_;
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
