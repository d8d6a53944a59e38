// hml.report:json's writer (see json.cppm), with nlohmann-json in the global module fragment.
module;
#include <cmath>
#include <string>
#include <variant>

#include <nlohmann/json.hpp>
module hml.report;

namespace hml {

namespace {

// ordered_json keeps the table's column order (plain json would sort the keys).
nlohmann::ordered_json json_number(double value) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  return value;
}

}  // namespace

std::string to_json(const table& t, int indent) {
  nlohmann::ordered_json rows = nlohmann::ordered_json::array();
  for (const auto& row : t.rows) {
    nlohmann::ordered_json object = nlohmann::ordered_json::object();
    for (std::size_t c = 0; c < t.columns.size(); ++c) {
      if (const double* number = std::get_if<double>(&row[c])) {
        object[t.columns[c]] = json_number(*number);
      } else if (const std::string* text = std::get_if<std::string>(&row[c])) {
        object[t.columns[c]] = *text;
      } else {
        object[t.columns[c]] = nullptr;
      }
    }
    rows.push_back(std::move(object));
  }
  // Text that is not UTF-8 (a name from a Latin-1 CSV) gets U+FFFD for each bad byte rather than no JSON.
  return rows.dump(indent, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
}

}  // namespace hml
