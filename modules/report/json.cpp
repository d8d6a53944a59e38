// hml.report:json's writer (see json.cppm), with nlohmann-json in the global module fragment. Rows are
// written one at a time in the layout nlohmann's dump(indent) gives a whole array of objects; each value
// goes through nlohmann's own serializer, so numbers, escapes and the replacement of bytes that are not
// UTF-8 are nlohmann's, to the character, without building the array in memory.
module;
#include <algorithm>
#include <array>
#include <bit>
#include <charconv>
#include <cstring>
#include <cmath>
#include <cstdint>
#include <cstddef>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>
module hml.report;

namespace hml {

namespace {

// ordered_json keeps the table's column order (plain json would sort the keys).
using json = nlohmann::ordered_json;

// A whole number a double holds exactly (within 2^53; not -0, whose sign only a double keeps), as an integer:
// counts (a line, a batch, cores) read as counts, `2` and not `2.0`, as the CSV writes them, and the same
// number to every JSON reader.
std::optional<std::int64_t> whole_number(double value) {
  if (!(std::abs(value) <= 0x1p53) || value != std::trunc(value) || (value == 0 && std::signbit(value))) return std::nullopt;
  return static_cast<std::int64_t>(value);
}

json json_number(double value) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  if (const std::optional<std::int64_t> whole = whole_number(value)) return *whole;
  return value;
}

// nlohmann's serializer writes through an adapter; this one appends to the caller's string.
struct append_adapter final : nlohmann::detail::output_adapter_protocol<char> {
  std::string* out = nullptr;
  void write_character(char c) override { out->push_back(c); }
  void write_characters(const char* s, std::size_t length) override { out->append(s, length); }
};

}  // namespace

struct json_writer::state {
  explicit state(int indent_)
      : indent{indent_},
        adapter{std::make_shared<append_adapter>()},
        // Text that is not UTF-8 (a name from a Latin-1 CSV) gets U+FFFD for each bad byte rather than no JSON.
        serializer{adapter, ' ', json::error_handler_t::replace} {}

  void value(std::string& out, const json& v) {
    adapter->out = &out;
    serializer.dump(v, indent >= 0, false, indent >= 0 ? static_cast<unsigned>(indent) : 0U, 0);
  }

  // Appends `text` to the row being composed. A row is some 30 pieces (keys, numbers, separators); composed
  // here with plain copies and appended to the caller's string in one go, it costs a fraction of what 30
  // std::string appends (each a call into the library) do.
  void put(std::string_view piece) {
    const std::size_t n = piece.size();
    if (row.size() - used < n) row.resize(std::max(2 * row.size(), used + n));
    char* const to = row.data() + used;
    used += n;
    // Most pieces are short: two overlapping 8-byte copies, inline, instead of a call to memcpy.
    if (n >= 8 && n <= 16) {
      std::uint64_t head = 0;
      std::uint64_t tail = 0;
      std::memcpy(&head, piece.data(), 8);
      std::memcpy(&tail, piece.data() + n - 8, 8);
      std::memcpy(to, &head, 8);
      std::memcpy(to + n - 8, &tail, 8);
      return;
    }
    std::memcpy(to, piece.data(), n);
  }

  // The last number of a column and its text (formatted once while it repeats, as csv_writer does): the
  // text nlohmann's serializer writes for json_number's value, a whole number as an integer, another finite
  // double by its own to_chars (grisu2, then its layout: 1e-08, 100.5), called without building a json value;
  // non-finite numbers are strings, through the serializer.
  struct remembered_number {
    std::uint64_t bits = 0;
    bool known = false;
    std::size_t size = 0;
    std::array<char, 64> text{};  // the serializer's own buffer size

    std::string_view text_of(state& s, double x) {
      const auto b = std::bit_cast<std::uint64_t>(x);
      if (!known || b != bits) {
        if (const std::optional<std::int64_t> whole = whole_number(x)) {
          size = static_cast<std::size_t>(std::to_chars(text.data(), text.data() + text.size(), *whole).ptr - text.data());
        } else if (std::isfinite(x)) {
          size = static_cast<std::size_t>(nlohmann::detail::to_chars(text.data(), text.data() + text.size(), x) - text.data());
        } else {
          std::string quoted;
          s.value(quoted, json_number(x));
          size = quoted.copy(text.data(), text.size());
        }
        bits = b;
        known = true;
      }
      return {text.data(), size};
    }
  };

  // The last text cell of a column and it as the serializer writes it (quoted, escaped, bytes that are not
  // UTF-8 replaced), escaped again only when it changes: a sweep's regime repeats over many rows.
  struct remembered_text {
    std::string cell;
    bool known = false;
    std::string escaped;

    std::string_view escaped_of(state& s, std::string_view text) {
      if (!known || cell != text) {
        cell.assign(text);
        known = true;
        s.text_json.get_ref<std::string&>().assign(text);
        escaped.clear();
        s.value(escaped, s.text_json);
      }
      return escaped;
    }
  };

  int indent;
  std::string outer = std::string(indent >= 0 ? static_cast<std::size_t>(indent) : 0, ' ');  // a row's indentation
  std::shared_ptr<append_adapter> adapter;
  nlohmann::detail::serializer<json> serializer;
  std::vector<std::string> keys;  // each column's `"name": ` (indented), escaped once
  std::vector<remembered_number> last_number;
  json text_json = std::string{};  // reused for every text cell, so its buffer is too
  std::vector<remembered_text> last_text;
  std::vector<char> row = std::vector<char>(1024);
  std::size_t used = 0;
  bool any_row = false;
};

json_writer::json_writer(std::span<const std::string> columns, int indent) : state_{std::make_unique<state>(indent)} {
  const std::string inner(indent >= 0 ? 2 * static_cast<std::size_t>(indent) : 0, ' ');
  for (auto column = columns.begin(); column != columns.end(); ++column) {
    // An object's keys are its columns: a second of one name would be a key given twice, which readers
    // take as they please (the last wins, or the first).
    if (std::find(columns.begin(), column, *column) != column) {
      throw std::invalid_argument("hml: a JSON table's columns are its keys: '" + message_text(*column) + "' is given twice");
    }
  }
  for (const std::string& column : columns) {
    std::string key = inner;
    state_->value(key, json(column));
    key += indent >= 0 ? ": " : ":";
    state_->keys.push_back(std::move(key));
  }
  state_->last_number.resize(columns.size());
  state_->last_text.resize(columns.size());
}

json_writer::json_writer(json_writer&&) noexcept = default;
json_writer& json_writer::operator=(json_writer&&) noexcept = default;
json_writer::~json_writer() = default;

void json_writer::row(std::string& out, std::span<const cell_view> cells) {
  expects(cells.size() == state_->keys.size(), "hml: a table row needs one cell per column");
  state& s = *state_;
  const bool pretty = s.indent >= 0;
  s.used = 0;
  s.put(s.any_row ? (pretty ? ",\n" : ",") : (pretty ? "[\n" : "["));
  s.any_row = true;
  s.put(s.outer);
  if (cells.empty()) {
    s.put("{}");
  } else {
    s.put(pretty ? "{\n" : "{");
    for (std::size_t c = 0; c < cells.size(); ++c) {
      if (c > 0) s.put(pretty ? ",\n" : ",");
      s.put(s.keys[c]);
      if (const std::optional<double> number = cell_number(cells[c])) {
        s.put(s.last_number[c].text_of(s, *number));
      } else if (const std::string_view* text = std::get_if<std::string_view>(&cells[c])) {
        s.put(s.last_text[c].escaped_of(s, *text));
      } else if (const bool* yes = std::get_if<bool>(&cells[c])) {
        s.put(*yes ? "true" : "false");
      } else {
        s.put("null");
      }
    }
    if (pretty) {
      s.put("\n");
      s.put(s.outer);
    }
    s.put("}");
  }
  out.append(s.row.data(), s.used);
}

void json_writer::finish(std::string& out) {
  const bool pretty = state_->indent >= 0;
  out += state_->any_row ? (pretty ? "\n]\n" : "]\n") : "[]\n";
}

namespace {
json row_object(const table& t, const std::vector<cell>& cells) {
  json object = json::object();
  for (std::size_t c = 0; c < t.columns.size(); ++c) {
    if (const double* number = std::get_if<double>(&cells[c])) {
      object[t.columns[c]] = json_number(*number);
    } else if (const std::string* text = std::get_if<std::string>(&cells[c])) {
      object[t.columns[c]] = *text;
    } else if (const bool* yes = std::get_if<bool>(&cells[c])) {
      object[t.columns[c]] = *yes;
    } else {
      object[t.columns[c]] = nullptr;
    }
  }
  return object;
}
}  // namespace

std::string to_json_object(std::span<const json_part> parts, int indent) {
  json out = json::object();
  for (const json_part& part : parts) {
    expects(part.rows != nullptr, "hml: a JSON part needs its table");
    const table& t = *part.rows;
    if (part.one_row) {
      expects(t.rows.size() == 1, "hml: a JSON part of one row needs a table of one row");
      out[part.name] = row_object(t, t.rows.front());
    } else {
      json rows = json::array();
      for (const std::vector<cell>& cells : t.rows) rows.push_back(row_object(t, cells));
      out[part.name] = std::move(rows);
    }
  }
  return out.dump(indent, ' ', false, json::error_handler_t::replace) + "\n";
}

std::string to_json(const table& t, int indent) {
  json_writer writer{t.columns, indent};
  std::string out;
  std::vector<cell_view> row;
  for (const auto& cells : t.rows) {
    row.clear();
    for (const cell& c : cells) row.push_back(view_of(c));
    writer.row(out, row);
  }
  writer.finish(out);
  return out;
}

}  // namespace hml
