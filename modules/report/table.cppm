// hml.report:table — results as rows of named columns, and as an aligned text table. The same table
// feeds the CSV and JSON writers, so a sweep is tabulated once and written in every format.
module;
#include <algorithm>
#include <cstddef>
#include <string>
#include <utility>
#include <variant>
#include <vector>
export module hml.report:table;
import hml.format;
import hml.units;

export namespace hml {

// A cell holds text, a number, or nothing (a field that does not apply to its row: blank in text and CSV,
// null in JSON). Numbers keep full precision until a writer formats them.
using no_value = std::monostate;
using cell = std::variant<std::string, double, no_value>;

struct table {
  std::vector<std::string> columns;
  std::vector<std::vector<cell>> rows;

  void add_row(std::vector<cell> row) {
    expects(row.size() == columns.size(), "hml: a table row needs one cell per column");
    rows.push_back(std::move(row));
  }
};

// Columns separated by two spaces; numbers right-aligned (and their headers), text left-aligned; a
// dashed rule under the header; no trailing spaces.
[[nodiscard]] inline std::string format_table(const table& t, number_format numbers = general(6)) {
  const std::size_t width = t.columns.size();
  std::vector<std::vector<std::string>> texts;
  std::vector<bool> numeric(width, false);
  for (const auto& row : t.rows) {
    std::vector<std::string>& line = texts.emplace_back();
    for (std::size_t c = 0; c < width; ++c) {
      if (const double* number = std::get_if<double>(&row[c])) {
        numeric[c] = true;
        line.push_back(std::string{format_number(*number, numbers).view()});
      } else if (const std::string* text = std::get_if<std::string>(&row[c])) {
        line.push_back(*text);
      } else {
        line.emplace_back();
      }
    }
  }
  std::vector<std::size_t> widths(width);
  for (std::size_t c = 0; c < width; ++c) {
    widths[c] = t.columns[c].size();
    for (const auto& line : texts) widths[c] = std::max(widths[c], line[c].size());
  }
  std::string out;
  const auto write_line = [&](const std::vector<std::string>& fields) {
    std::string line;
    for (std::size_t c = 0; c < width; ++c) {
      if (c > 0) line += "  ";
      const std::string padding(widths[c] - fields[c].size(), ' ');
      line += numeric[c] ? padding + fields[c] : fields[c] + padding;
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line;
    out += '\n';
  };
  write_line(t.columns);
  std::vector<std::string> rule;
  for (std::size_t c = 0; c < width; ++c) rule.emplace_back(widths[c], '-');
  write_line(rule);
  for (const auto& line : texts) write_line(line);
  return out;
}

}  // namespace hml
