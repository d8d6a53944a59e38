// hml.report:json's writer (see json.cppm), with nlohmann-json in the global module fragment. Rows are
// written one at a time in the layout nlohmann's dump(indent) gives a whole array of objects; text goes
// through nlohmann's own serializer, so escapes and the replacement of bytes that are not UTF-8 are
// nlohmann's, to the character, without building the array in memory; numbers are the CSV's digits.
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

// What JSON has no number for, as a string.
json non_finite_text(double value) {
  if (std::isnan(value)) return "nan";
  return value > 0 ? "inf" : "-inf";
}

// nlohmann's serializer writes through an adapter; this one appends to the caller's string.
struct append_adapter final : nlohmann::detail::output_adapter_protocol<char> {
  std::string* out = nullptr;
  void write_character(char c) override { out->push_back(c); }
  void write_characters(const char* s, std::size_t length) override { out->append(s, length); }
};

}  // namespace

struct json_writer::state {
  state(int indent_, int nesting_)
      : indent{indent_},
        nesting{nesting_},
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

  // The last number of a column and its text (formatted once while it repeats, as csv_writer does): a whole
  // number as an integer, another finite double as the CSV writes it (shortest_chars, the shortest text that
  // reads back as the same double: nlohmann's grisu2 is not always shortest, and wrote 8.409999999999999e+21
  // where the CSV has 8.41e+21), with ".0" where those digits are an integer's (-0, past 2^53), so that every
  // reader takes it for the double it is; non-finite numbers are strings, through the serializer.
  struct remembered_number {
    std::uint64_t bits = 0;
    bool known = false;
    std::size_t size = 0;
    std::array<char, 64> text{};  // the longest: a quoted "-inf", or shortest_chars' text and ".0"

    std::string_view text_of(state& s, double x) {
      const auto b = std::bit_cast<std::uint64_t>(x);
      if (!known || b != bits) {
        if (const std::optional<std::int64_t> whole = whole_number(x)) {
          size = static_cast<std::size_t>(std::to_chars(text.data(), text.data() + text.size(), *whole).ptr - text.data());
        } else if (std::isfinite(x)) {
          static_assert(std::tuple_size_v<decltype(text)> >= detail::short_decimal_room + 2);
          size = static_cast<std::size_t>(detail::shortest_chars(text.data(), x) - text.data());
          if (std::string_view{text.data(), size}.find_first_of(".e") == std::string_view::npos) {
            text[size++] = '.';
            text[size++] = '0';
          }
        } else {
          std::string quoted;
          s.value(quoted, non_finite_text(x));
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

  // `levels` levels of indentation.
  std::string indentation(int levels) const {
    return std::string(indent >= 0 ? static_cast<std::size_t>(indent * levels) : 0, ' ');
  }

  // Puts one row's object; its keys are indented as made, its closing brace by `outer`.
  void put_object(std::span<const cell_view> cells);

  int indent;
  int nesting;
  std::string closing = indentation(nesting);    // the array's "]"
  std::string outer = indentation(nesting + 1);  // a row's indentation
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

json_writer::json_writer(std::span<const std::string> columns, int indent, int nesting)
    : state_{(expects(nesting >= 0, "hml: a JSON array is nested in 0 or more objects"),
              std::make_unique<state>(indent, nesting))} {
  const std::string inner = state_->indentation(nesting + 2);
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

void json_writer::state::put_object(std::span<const cell_view> cells) {
  const bool pretty = indent >= 0;
  if (cells.empty()) {
    put("{}");
    return;
  }
  put(pretty ? "{\n" : "{");
  for (std::size_t c = 0; c < cells.size(); ++c) {
    if (c > 0) put(pretty ? ",\n" : ",");
    put(keys[c]);
    if (const std::optional<double> number = cell_number(cells[c])) {
      put(last_number[c].text_of(*this, *number));
    } else if (const std::string_view* text = std::get_if<std::string_view>(&cells[c])) {
      put(last_text[c].escaped_of(*this, *text));
    } else if (const bool* yes = std::get_if<bool>(&cells[c])) {
      put(*yes ? "true" : "false");
    } else {
      put("null");
    }
  }
  if (pretty) {
    put("\n");
    put(outer);
  }
  put("}");
}

void json_writer::row(std::string& out, std::span<const cell_view> cells) {
  expects(cells.size() == state_->keys.size(), "hml: a table row needs one cell per column");
  state& s = *state_;
  const bool pretty = s.indent >= 0;
  s.used = 0;
  s.put(s.any_row ? (pretty ? ",\n" : ",") : (pretty ? "[\n" : "["));
  s.any_row = true;
  s.put(s.outer);
  s.put_object(cells);
  out.append(s.row.data(), s.used);
}

void json_writer::object(std::string& out, std::span<const cell_view> cells) {
  expects(cells.size() == state_->keys.size(), "hml: a table row needs one cell per column");
  state& s = *state_;
  s.used = 0;
  s.put_object(cells);
  out.append(s.row.data(), s.used);
}

void json_writer::finish(std::string& out) {
  const state& s = *state_;
  const std::string_view end = s.nesting == 0 ? "\n" : "";
  if (!s.any_row) {
    out += "[]";
  } else {
    out += s.indent >= 0 ? "\n" : "";
    out += s.closing;
    out += "]";
  }
  out += end;
}

namespace {
// A table's row as json_writer takes it, in `views` (reused from row to row).
std::span<const cell_view> views_of(const std::vector<cell>& cells, std::vector<cell_view>& views) {
  views.clear();
  for (const cell& c : cells) views.push_back(view_of(c));
  return views;
}
}  // namespace

// The layout of nlohmann's dump(indent) for an object of parts, each part's value by json_writer: a part
// that is one row by a writer whose rows sit where the object's values do (nesting 0), an array by one
// nested in the object (nesting 1).
std::string to_json_object(std::span<const json_part> parts, int indent) {
  const bool pretty = indent >= 0;
  std::vector<cell_view> views;
  const std::string level(pretty ? static_cast<std::size_t>(indent) : 0, ' ');
  std::string out = parts.empty() ? "{" : (pretty ? "{\n" : "{");
  for (auto part = parts.begin(); part != parts.end(); ++part) {
    expects(part->rows != nullptr, "hml: a JSON part needs its table");
    expects(std::none_of(parts.begin(), part, [&](const json_part& p) { return p.name == part->name; }),
            "hml: a JSON object's parts are its keys: each needs a name of its own");
    const table& t = *part->rows;
    if (part != parts.begin()) out += pretty ? ",\n" : ",";
    out += level;
    out += json(part->name).dump(-1, ' ', false, json::error_handler_t::replace);
    out += pretty ? ": " : ":";
    if (part->one_row) {
      expects(t.rows.size() == 1, "hml: a JSON part of one row needs a table of one row");
      json_writer{t.columns, indent, 0}.object(out, views_of(t.rows.front(), views));
    } else {
      json_writer rows{t.columns, indent, 1};
      for (const std::vector<cell>& cells : t.rows) rows.row(out, views_of(cells, views));
      rows.finish(out);
    }
  }
  out += parts.empty() ? "}\n" : (pretty ? "\n}\n" : "}\n");
  return out;
}

std::string to_json(const table& t, int indent) {
  json_writer writer{t.columns, indent};
  std::string out;
  std::vector<cell_view> views;
  for (const auto& cells : t.rows) writer.row(out, views_of(cells, views));
  writer.finish(out);
  return out;
}

}  // namespace hml
