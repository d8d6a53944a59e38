// hml.report:csv — a table as CSV per RFC 4180: records end in CRLF (the RFC's line break; readers that
// expect LF accept it too), the first record is the header, a field containing a comma, a double quote,
// CR or LF is enclosed in double quotes with inner quotes doubled. Numbers are written as the shortest text
// that reads back as the same double (std::to_chars: 5e-08, not %.17g's 4.9999999999999998e-08), and
// "inf", "-inf" and "nan" for the non-finite ones, as strtod reads them.
module;
#include <charconv>
#include <string>
#include <string_view>
#include <variant>
#include <vector>
export module hml.report:csv;
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

inline void append_csv_record(std::string& out, const std::vector<cell>& fields) {
  for (std::size_t i = 0; i < fields.size(); ++i) {
    if (i > 0) out += ',';
    if (const double* number = std::get_if<double>(&fields[i])) {
      append_shortest(out, *number);
    } else if (const std::string* text = std::get_if<std::string>(&fields[i])) {
      append_csv_field(out, *text);
    }  // no_value: an empty field
  }
  out += "\r\n";
}

}  // namespace hml::detail

export namespace hml {

inline constexpr std::string_view csv_line_break = "\r\n";

[[nodiscard]] inline std::string to_csv(const table& t) {
  std::string out;
  detail::append_csv_record(out, std::vector<cell>(t.columns.begin(), t.columns.end()));
  for (const auto& row : t.rows) detail::append_csv_record(out, row);
  return out;
}

}  // namespace hml
