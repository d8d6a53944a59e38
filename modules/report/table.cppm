// hml.report:table — results as rows of named columns, and as an aligned text table. The same table
// feeds the CSV and JSON writers, so a sweep is tabulated once and written in every format. Each format
// also has a writer that takes one row at a time (`cell_view`s, appended to a caller's string), so a
// front end can stream rows as it produces them; the whole-table functions are those writers run over
// the table's rows.
module;
#include <algorithm>
#include <charconv>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include <locale.h>
#include <wchar.h>
export module hml.report:table;
import hml.format;
import hml.units;

export namespace hml {

// A cell holds text, a number, a yes or no, or nothing (a field that does not apply to its row: blank in
// text and CSV, null in JSON). Numbers keep full precision until a writer formats them; a yes or no is
// "yes" or "no" in a text table, true or false in CSV and JSON.
using no_value = std::monostate;
using cell = std::variant<std::string, double, no_value, bool>;

// A number rounded to a few decimal places, with its decimal digits: (-)digits x 10^-places, {87, 4} for
// 0.0087. `hml roofline --round` rounds each number to 4, 2 or 8 places and has the digits from the
// rounding, so the CSV writer writes them as they are instead of searching for the shortest text of the
// double: the text is the same (with digits < 2^52, no other decimal as short reads back as that double).
struct short_decimal {
  static constexpr std::uint64_t digits_limit = std::uint64_t{1} << 52;

  std::uint64_t digits = 0;  // below digits_limit, as hml::rounded_cell makes them
  int places = 0;            // 0 to 22, so 10^places is an exact double
  bool negative = false;     // the sign, which the digits lack where they are 0 (-0)

  // The double nearest the decimal: one correctly rounded division of two exact doubles within the bounds
  // above; outside them (a cell made by hand), the decimal's text read back by std::from_chars.
  [[nodiscard]] double value() const noexcept {
    constexpr double powers_of_ten[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                                        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
    double magnitude = 0;
    if (digits < digits_limit && places >= 0 && places <= 22) {
      magnitude = static_cast<double>(digits) / powers_of_ten[places];
    } else {
      char text[48];
      char* end = std::to_chars(text, text + sizeof text, digits).ptr;
      *end++ = 'e';
      end = std::to_chars(end, text + sizeof text, -places).ptr;
      std::from_chars(text, end, magnitude);
    }
    return negative ? -magnitude : magnitude;
  }
};

// A cell as the row writers take it: the text is viewed, not owned, so a streamed row costs no allocation.
// A number is a double or a short_decimal (its digits known); writers that do not use the digits take
// cell_number's double.
using cell_view = std::variant<std::string_view, double, no_value, short_decimal, bool>;

// The number a cell holds, if it holds one.
[[nodiscard]] inline std::optional<double> cell_number(const cell_view& c) noexcept {
  if (const double* number = std::get_if<double>(&c)) return *number;
  if (const short_decimal* decimal = std::get_if<short_decimal>(&c)) return decimal->value();
  return std::nullopt;
}

[[nodiscard]] inline cell_view view_of(const cell& c) noexcept {
  if (const double* number = std::get_if<double>(&c)) return *number;
  if (const std::string* text = std::get_if<std::string>(&c)) return std::string_view{*text};
  if (const bool* yes = std::get_if<bool>(&c)) return *yes;
  return no_value{};
}

struct table {
  std::vector<std::string> columns;
  std::vector<std::vector<cell>> rows;

  void add_row(std::vector<cell> row) {
    expects(row.size() == columns.size(), "hml: a table row needs one cell per column");
    rows.push_back(std::move(row));
  }
};

}  // namespace hml

export namespace hml {

// A character as its code, as JSON and C++ write it: \u and four digits; past U+FFFF (a tag character), \U and eight.
inline void append_code(std::string& out, char32_t code) {
  constexpr std::string_view hex = "0123456789abcdef";
  const bool wide = code > 0xFFFF;
  out += wide ? "\\U" : "\\u";
  for (int shift = wide ? 28 : 12; shift >= 0; shift -= 4) out += hex[(code >> shift) & 0xF];
}

// An invisible character drawn as nothing, where the others are drawn as a space (hml::is_space_like).
[[nodiscard]] constexpr bool is_drawn_as_nothing(char32_t c) { return is_invisible(c) && !is_space_like(c); }

// Text as a table or a one-line message shows it: a control character (a line break, a NUL, an ESC, a C1,
// a direction override) would break the lines, hide the rest, move a terminal's cursor or reorder the text,
// and a byte that is not part of UTF-8 shows as garbage, so each is written as an escape (append_escaped:
// \n, \xHH, \u202e). A message escapes the invisible characters too (\u200b, \u00a0); a text table those
// drawn as nothing ("E\u200bF" printed as "EF", a soft hyphen a column wide in one terminal and none in
// another), and shows those drawn as a space as they are.
enum class invisible_characters { drawn_as_nothing_escaped, escaped };
inline void append_visible(std::string& out, std::string_view text,
                           invisible_characters invisible = invisible_characters::drawn_as_nothing_escaped) {
  for (std::size_t i = 0; i < text.size();) {
    if (const utf8_character shown = utf8_character_at(text, i); shown.length > 0 && !is_control(shown.code)) {
      if (invisible == invisible_characters::escaped ? is_invisible(shown.code) : is_drawn_as_nothing(shown.code)) {
        append_code(out, shown.code);
      } else {
        out.append(text.substr(i, shown.length));
      }
      i += shown.length;
      continue;
    }
    i += append_escaped(out, text, i);
  }
}

// Text output with its characters drawn as nothing written as their codes, and nothing else changed (its line
// breaks kept): what a text table does to its cells, done to the rest of a text output, its headings and
// notes (a machine "My\u200bGPU" in `roofline on ...`, a --title).
inline void escape_drawn_as_nothing(std::string& text) {
  const auto drawn_as_nothing_from = [&](std::size_t i) {
    for (; i < text.size(); ++i) {
      if (static_cast<unsigned char>(text[i]) < 0x80) continue;
      const utf8_character c = utf8_character_at(text, i);
      if (c.length > 0 && is_drawn_as_nothing(c.code)) return i;
      if (c.length > 1) i += c.length - 1;
    }
    return text.size();
  };
  std::size_t at = drawn_as_nothing_from(0);
  if (at == text.size()) return;  // as nearly every output: no copy
  std::string out{text.substr(0, at)};
  while (at < text.size()) {
    const utf8_character c = utf8_character_at(text, at);
    append_code(out, c.code);
    const std::size_t next = drawn_as_nothing_from(at + c.length);
    out.append(text, at + c.length, next - at - c.length);
    at = next;
  }
  text = std::move(out);
}

}  // namespace hml

export namespace hml {

// The columns a terminal gives visible text (append_visible's: no control characters): glibc's wcwidth
// under C.UTF-8 for each character that is not ASCII, and 1 where it knows none. A row padded by bytes was
// out of line by a byte for é and by one or two columns for 中 or 😀, which take two.
inline std::size_t display_width(std::string_view text) {
  if (std::ranges::all_of(text, [](char c) { return static_cast<unsigned char>(c) < 0x80; })) return text.size();
  static const ::locale_t utf8 = ::newlocale(LC_CTYPE_MASK, "C.UTF-8", ::locale_t{});  // this thread's alone
  const ::locale_t before = utf8 != ::locale_t{} ? ::uselocale(utf8) : ::locale_t{};
  std::size_t width = 0;
  for (std::size_t i = 0; i < text.size();) {
    const utf8_character c = utf8_character_at(text, i);
    const int columns = c.length > 0 && before != ::locale_t{} ? ::wcwidth(static_cast<wchar_t>(c.code)) : 1;
    width += columns < 0 ? 1 : static_cast<std::size_t>(columns);
    i += c.length > 0 ? c.length : 1;
  }
  if (before != ::locale_t{}) ::uselocale(before);
  return width;
}

// The aligned text table, written row by row: columns separated by two spaces; numbers right-aligned (and
// their headers), text left-aligned; a dashed rule under the header; no trailing spaces. A column is at most
// widest_aligned columns wide: a longer cell runs past it, unpadded, rather than pad every row to its width (a
// kernel named by a megabyte made each of a table's rows a megabyte). Every row goes
// through measure() first (a first pass), which sets each column's width and alignment; then header() and
// row() write. Streaming a table therefore takes two passes over its rows, and no memory for them.
inline constexpr std::size_t widest_aligned = 120;

class table_layout {
public:
  explicit table_layout(std::vector<std::string> columns, number_format numbers = general(6))
      : columns_{std::move(columns)}, numbers_{numbers}, widths_(columns_.size()), numeric_(columns_.size(), false) {
    for (std::size_t c = 0; c < columns_.size(); ++c) widths_[c] = aligned_width(visible(columns_[c]));
  }

  [[nodiscard]] std::size_t size() const noexcept { return columns_.size(); }

  // Widens the columns to fit `row`; a column with a number in any row is right-aligned.
  void measure(std::span<const cell_view> row) {
    expects(row.size() == columns_.size(), "hml: a table row needs one cell per column");
    for (std::size_t c = 0; c < row.size(); ++c) {
      if (cell_number(row[c])) numeric_[c] = true;
      widths_[c] = std::max(widths_[c], aligned_width(text_of(row[c])));
    }
  }

  // The header and the rule under it.
  void header(std::string& out) const {
    std::vector<cell_view> names(columns_.begin(), columns_.end());
    write_line(out, names);
    std::string rule;
    for (std::size_t c = 0; c < columns_.size(); ++c) {
      if (c > 0) rule += "  ";
      rule.append(widths_[c], '-');
    }
    out += rule;
    out += '\n';
  }

  // One row, measured before.
  void row(std::string& out, std::span<const cell_view> cells) const {
    expects(cells.size() == columns_.size(), "hml: a table row needs one cell per column");
    write_line(out, cells);
  }

private:
  [[nodiscard]] static std::size_t aligned_width(std::string_view shown) { return std::min(display_width(shown), widest_aligned); }
  [[nodiscard]] static std::string visible(std::string_view text) {
    std::string out;
    append_visible(out, text);
    return out;
  }
  [[nodiscard]] std::string text_of(const cell_view& c) const {
    if (const std::optional<double> number = cell_number(c)) return std::string{format_number(*number, numbers_).view()};
    if (const std::string_view* text = std::get_if<std::string_view>(&c)) return visible(*text);
    if (const bool* yes = std::get_if<bool>(&c)) return *yes ? "yes" : "no";
    return {};
  }
  void write_line(std::string& out, std::span<const cell_view> cells) const {
    const std::size_t start = out.size();
    for (std::size_t c = 0; c < cells.size(); ++c) {
      if (c > 0) out += "  ";
      const std::string text = text_of(cells[c]);
      const std::size_t width = display_width(text);
      const std::size_t padding = widths_[c] > width ? widths_[c] - width : 0;
      if (numeric_[c]) out.append(padding, ' ');
      out += text;
      if (!numeric_[c]) out.append(padding, ' ');
    }
    while (out.size() > start && out.back() == ' ') out.pop_back();
    out += '\n';
  }

  std::vector<std::string> columns_;
  number_format numbers_;
  std::vector<std::size_t> widths_;
  std::vector<bool> numeric_;
};

// The whole table, aligned (table_layout over its rows).
[[nodiscard]] inline std::string format_table(const table& t, number_format numbers = general(6)) {
  table_layout layout{t.columns, numbers};
  std::vector<cell_view> row;
  const auto view_row = [&](const std::vector<cell>& cells) -> const std::vector<cell_view>& {
    row.clear();
    for (const cell& c : cells) row.push_back(view_of(c));
    return row;
  };
  for (const auto& cells : t.rows) layout.measure(view_row(cells));
  std::string out;
  layout.header(out);
  for (const auto& cells : t.rows) layout.row(out, view_row(cells));
  return out;
}

}  // namespace hml
