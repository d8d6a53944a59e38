// hml.report:csv — a table as CSV per RFC 4180: records end in CRLF (the RFC's line break; readers that
// expect LF accept it too), the first record is the header, a field containing a comma, a double quote,
// CR or LF is enclosed in double quotes with inner quotes doubled. Numbers are written as the shortest text
// that reads back as the same double (std::to_chars: 5e-08, not %.17g's 4.9999999999999998e-08), and
// "inf", "-inf" and "nan" for the non-finite ones, as strtod reads them.
module;
#include <bit>
#include <charconv>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>
export module hml.report:csv;
import hml.units;  // expects
import :table;

namespace hml::detail {

// Appends the shortest text that reads back as the same double: the CSV's numbers and the chart's data-*
// attributes.
inline void append_shortest(std::string& out, double x) {
  char text[32];  // the longest shortest form of a double is 24 characters
  out.append(text, std::to_chars(text, text + sizeof text, x).ptr);
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
