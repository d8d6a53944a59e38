// hml.report:json — a table as a JSON array of objects, one per row, keyed by column name in column order.
// Numbers keep full precision (nlohmann-json writes the shortest text that reads back as the same double);
// infinities become the strings "inf" / "-inf" and NaN "nan", which JSON has no numbers for. The writer
// lives in json.cpp, a module implementation unit, so nlohmann's headers stay out of every importer's way.
module;
#include <string>
export module hml.report:json;
import :table;

export namespace hml {

[[nodiscard]] std::string to_json(const table& t, int indent = 2);

}  // namespace hml
