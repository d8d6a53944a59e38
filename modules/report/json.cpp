// hml.report:json's writer (see json.cppm), with nlohmann-json in the global module fragment. Rows are
// written one at a time in the layout nlohmann's dump(indent) gives a whole array of objects; each value
// goes through nlohmann's own serializer, so numbers, escapes and the replacement of bytes that are not
// UTF-8 are nlohmann's, to the character, without building the array in memory.
module;
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstddef>
#include <memory>
#include <optional>
#include <span>
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

json json_number(double value) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
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

  int indent;
  std::shared_ptr<append_adapter> adapter;
  nlohmann::detail::serializer<json> serializer;
  std::vector<std::string> keys;  // each column's `"name": ` (indented), escaped once
  // Each column's last number (its bits) and text: formatted once while it repeats, as csv_writer does.
  std::vector<std::uint64_t> last_bits;
  std::vector<std::string> last_text;
  json text = std::string{};      // reused for every text cell, so its buffer is too
  bool any_row = false;
};

json_writer::json_writer(std::span<const std::string> columns, int indent) : state_{std::make_unique<state>(indent)} {
  const std::string inner(indent >= 0 ? 2 * static_cast<std::size_t>(indent) : 0, ' ');
  for (const std::string& column : columns) {
    std::string key = inner;
    state_->value(key, json(column));
    key += indent >= 0 ? ": " : ":";
    state_->keys.push_back(std::move(key));
  }
  state_->last_bits.resize(columns.size());
  state_->last_text.resize(columns.size());
}

json_writer::json_writer(json_writer&&) noexcept = default;
json_writer& json_writer::operator=(json_writer&&) noexcept = default;
json_writer::~json_writer() = default;

void json_writer::row(std::string& out, std::span<const cell_view> cells) {
  expects(cells.size() == state_->keys.size(), "hml: a table row needs one cell per column");
  state& s = *state_;
  const bool pretty = s.indent >= 0;
  const std::string outer(pretty ? static_cast<std::size_t>(s.indent) : 0, ' ');
  out += s.any_row ? (pretty ? ",\n" : ",") : (pretty ? "[\n" : "[");
  s.any_row = true;
  out += outer;
  if (cells.empty()) {
    out += "{}";
    return;
  }
  out += pretty ? "{\n" : "{";
  for (std::size_t c = 0; c < cells.size(); ++c) {
    if (c > 0) out += pretty ? ",\n" : ",";
    out += s.keys[c];
    if (const std::optional<double> number = cell_number(cells[c])) {
      const auto bits = std::bit_cast<std::uint64_t>(*number);
      if (s.last_text[c].empty() || bits != s.last_bits[c]) {
        s.last_text[c].clear();
        s.value(s.last_text[c], json_number(*number));
        s.last_bits[c] = bits;
      }
      out += s.last_text[c];
    } else if (const std::string_view* text = std::get_if<std::string_view>(&cells[c])) {
      s.text.get_ref<std::string&>().assign(*text);
      s.value(out, s.text);
    } else {
      s.value(out, nullptr);
    }
  }
  if (pretty) {
    out += '\n';
    out += outer;
  }
  out += '}';
}

void json_writer::finish(std::string& out) {
  const bool pretty = state_->indent >= 0;
  out += state_->any_row ? (pretty ? "\n]\n" : "]\n") : "[]\n";
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
