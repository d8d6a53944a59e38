// One row of a Markdown table ("| a | b |"), for the benchmark programs that write their results as
// Markdown tables (the alignment row is a row too: {"---", "---:"}).
#pragma once
#include <string>
#include <vector>

namespace bench {

inline std::string markdown_row(const std::vector<std::string>& cells) {
  std::string row = "|";
  for (const std::string& cell : cells) row.append(" ").append(cell).append(" |");
  return row + "\n";
}

}  // namespace bench
