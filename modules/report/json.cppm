// hml.report:json — a table as a JSON array of objects, one per row, keyed by column name in column order.
// Numbers keep full precision (the shortest text that reads back as the same double, as the CSV writes it; a
// whole number within 2^53 as an integer, 2 where a double would print 2.0);
// infinities become the strings "inf" / "-inf" and NaN "nan", which JSON has no numbers for. The writer
// lives in json.cpp, a module implementation unit, so nlohmann's headers stay out of every importer's way.
// json_writer streams the same text row by row; to_json is json_writer over a table's rows.
module;
#include <memory>
#include <span>
#include <string>
export module hml.report:json;
import :table;

export namespace hml {

class json_writer {
public:
  // `indent` spaces per level as nlohmann-json's dump(indent) has them; a negative indent: one line.
  // `nesting`: how many objects enclose the array (0: the array is the whole text; 1: a part of
  // to_json_object), for its indentation.
  explicit json_writer(std::span<const std::string> columns, int indent = 2, int nesting = 0);
  json_writer(json_writer&&) noexcept;
  json_writer& operator=(json_writer&&) noexcept;
  ~json_writer();

  // Appends one row's object (and the array's opening or the comma before it).
  void row(std::string& out, std::span<const cell_view> cells);
  // Appends the array's end, and a line break where the text is whole (nesting 0).
  void finish(std::string& out);
  // Appends one row's object alone, not in an array: where a row of this writer's array would be, as the
  // value of a key nesting + 1 levels deep (to_json_object's summary: nesting 0, beside arrays of nesting 1).
  // A writer writes rows or objects, not both.
  void object(std::string& out, std::span<const cell_view> cells);

private:
  struct state;
  std::unique_ptr<state> state_;
};

[[nodiscard]] std::string to_json(const table& t, int indent = 2);

// A JSON object of named parts, in the order given: a table as its array of rows, or, marked `one_row`, its
// single row as an object (a summary beside the rows it sums up). Values as to_json writes them.
struct json_part {
  std::string name;
  const table* rows = nullptr;
  bool one_row = false;
};
[[nodiscard]] std::string to_json_object(std::span<const json_part> parts, int indent = 2);

}  // namespace hml
