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

// The columns' names, in order, with the unit of their numbers.
inline constexpr std::array<std::string_view, 4> time_breakdown_columns{"memory_time_s", "compute_time_s",
                                                                        "total_time_s", "regime"};

// `columns` followed by the time columns.
[[nodiscard]] inline std::vector<std::string> with_time_columns(std::vector<std::string> columns) {
  columns.insert(columns.end(), time_breakdown_columns.begin(), time_breakdown_columns.end());
  return columns;
}

// Appends the cells of `t` to `row`, in the order of time_breakdown_columns.
inline void append_time_cells(std::vector<cell>& row, const time_breakdown& t) {
  row.insert(row.end(), {t.memory.value(), t.compute.value(), t.total.value(), std::string{to_string(t.limit)}});
}

}  // namespace hml
