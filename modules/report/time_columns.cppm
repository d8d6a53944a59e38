// hml.report:time_columns — a time_breakdown as table columns, written once for every table that shows
// one (the examples' CSV and JSON, `hml sweep`): the times in seconds at full precision, then the regime.
module;
#include <array>
#include <string>
#include <string_view>
#include <vector>
export module hml.report:time_columns;
import hml.analysis;
import :table;

export namespace hml {

// The times of a time_breakdown: each column's name with the unit of its numbers (CSV, JSON), its label in
// an aligned table (where the text carries the unit), and the member it shows.
struct time_column {
  std::string_view name;
  std::string_view label;
  duration time_breakdown::*member;
};
inline constexpr std::array<time_column, 3> time_breakdown_times{{
    {"memory_time_s", "memory time", &time_breakdown::memory_time},
    {"compute_time_s", "compute time", &time_breakdown::compute_time},
    {"total_time_s", "total time", &time_breakdown::total},
}};
// The regime's column, after the times.
inline constexpr std::string_view regime_column = "regime";

// `columns` followed by the times' and the regime's.
[[nodiscard]] inline std::vector<std::string> with_time_columns(std::vector<std::string> columns) {
  for (const time_column& c : time_breakdown_times) columns.emplace_back(c.name);
  columns.emplace_back(regime_column);
  return columns;
}

// Appends the cells of `t` to `row`, in the order of with_time_columns: seconds, then the regime.
inline void append_time_cells(std::vector<cell>& row, const time_breakdown& t) {
  for (const time_column& c : time_breakdown_times) row.emplace_back((t.*c.member).value());
  row.emplace_back(std::string{to_string(t.limit)});
}

}  // namespace hml
