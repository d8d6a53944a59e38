// hml.report:yaml_fields (internal) — reading the fields of a YAML (or JSON) document, for every reader of
// hml's files: the machine file and the ECM kernel file. Every error is one line naming the file, the line
// (1-based) and the field's path ("memory[1].bandwidth"). A field given twice, an unknown field, a second
// document, an alias, a NUL byte and a non-finite number are refused; yaml-cpp reads JSON as it reads YAML, so the
// same checks hold for both, and for the older device JSON (nlohmann reads its fields; this finds their lines).
module;
#include <algorithm>
#include <bit>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <initializer_list>
#include <optional>
#include <span>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>
#include <unordered_map>
#include <vector>

#include <yaml-cpp/depthguard.h>
#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/yaml.h>
module hml.report:yaml_fields;
import hml.units;
import hml.spelling;
import :syntax_errors;
import :yaml_text;

namespace hml::detail {

// The line of the last document that started and of the first alias (yaml-cpp's events, nothing built).
struct document_events : YAML::EventHandler {
  int line = 0;
  int alias_line = 0;  // 0: none
  void OnDocumentStart(const YAML::Mark& mark) override { line = mark.line + 1; }
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark&, YAML::anchor_t) override {}
  void OnAlias(const YAML::Mark& mark, YAML::anchor_t) override {
    if (alias_line == 0) alias_line = mark.line + 1;
  }
  void OnScalar(const YAML::Mark&, const std::string&, YAML::anchor_t, const std::string&) override {}
  void OnSequenceStart(const YAML::Mark&, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {}
  void OnSequenceEnd() override {}
  void OnMapStart(const YAML::Mark&, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {}
  void OnMapEnd() override {}
};

// What a size that is no power of two is told, with the two powers around it to pick from: "must be a power
// of two bytes (32 B or 64 B), not 48 B"; `unit` "" for a field of a plain number of bytes.
inline std::string not_a_power_of_two(std::size_t n, std::string_view unit) {
  const std::string in = unit.empty() ? "" : " " + std::string{unit};
  return std::string{"must be a power of two bytes"} + (unit.empty() ? ", without a unit" : "") + " (" +
         std::to_string(std::bit_floor(n)) + in + " or " + std::to_string(std::bit_ceil(n)) + in + "), not " +
         std::to_string(n) + in;
}

// Reads one YAML document; every error names the file, the line (1-based) and the field.
template <class Error>
class yaml_fields {
public:
  explicit yaml_fields(std::string_view file) : file_{file} {}

  [[noreturn]] void fail(const YAML::Node& at, const std::string& field, std::string_view problem) const {
    fail(at.IsDefined() ? at.Mark().line + 1 : 0, field, problem);
  }
  // FILE:LINE: FIELD: problem; without the line where there is none (0).
  // A library check's message loses its "hml: ", which the tool puts in front of the whole line already.
  // A problem that says what is wrong and no more points to the format's page, where each field is described.
  [[noreturn]] void fail(int line, const std::string& field, std::string_view problem) const {
    const bool advised = problem.find("; ") != std::string_view::npos;
    throw Error(std::string{file_} + (line > 0 ? ":" + std::to_string(line) : std::string{}) + ": " +
                (field.empty() ? std::string{"the top level"} : field) + ": " + std::string{without_hml_prefix(problem)} +
                (advised ? "" : "; see docs/reference/machine-file.md"));
  }

  // Every mapping of the document, at any depth: a key given twice would replace the first (or be dropped)
  // silently, so it is refused with both lines. For a reader that takes its fields from a parsed copy
  // (nlohmann's, which keeps the last); expect_map checks the mappings it is given the same way.
  void refuse_repeated_keys(const YAML::Node& node, const std::string& field) const {
    visit_nodes(node, field, [&](const YAML::Node& n, const std::string& at) {
      if (n.IsMap()) check_keys_once(n, at);
    });
  }

  // `visit(node, field)` for the node and every value below it, each with its field path.
  template <class Visit>
  static void visit_nodes(const YAML::Node& node, const std::string& field, Visit&& visit) {
    visit(node, field);
    if (node.IsMap()) {
      for (const auto& entry : node) {
        visit_nodes(entry.second, path(field, entry.first.IsScalar() ? entry.first.Scalar() : "?"), visit);
      }
    } else if (node.IsSequence()) {
      for (std::size_t i = 0; i < node.size(); ++i) visit_nodes(node[i], item(field, i), visit);
    }
  }

  // The line (1-based) of the field at `field_path` ("memory[1].bandwidth"), or of the deepest field on the
  // way that is there (a missing field: its parent's): for a reader whose errors name only the path.
  static int line_of(const YAML::Node& root, std::string_view field_path) {
    if (field_path == "the top level") return root.Mark().line + 1;
    return line_below(root, field_path);
  }

  // The file's one document, in UTF-8 (detail::encoding_problem). A NUL byte (a YAML parser stops reading
  // there, so the rest would be dropped unseen) and a second document after "---" are errors, not silently
  // ignored. So is an alias (*name): one that names its own node makes a cycle, nested ones grow tenfold a
  // level ("billion laughs"), and every walk of the tree would follow them; no field of hml's files needs one.
  // A caller that parsed the text as JSON already (`json_checked::by_caller`) spares the second parse.
  enum class json_checked : bool { here, by_caller };
  YAML::Node load(std::string_view given, json_checked checked = json_checked::here) const {
    const std::string joined = surrogate_pairs_joined(given);
    const std::string_view text = joined;
    const auto refuse = [&](const std::optional<syntax_problem>& problem) {
      if (problem) throw Error(std::string{file_} + ":" + std::to_string(problem->line) + ": " + problem->what);
    };
    refuse(encoding_problem(text));
    // JSON is YAML, read by the same parser, which takes more than JSON's grammar (`{"a": 1,}`, a trailing
    // comma): text that opens as JSON is held to JSON's, and named so ("not YAML" misled there), its error
    // nlohmann's, which knows that grammar.
    const bool json = opens_as_json(text);
    if (const std::size_t nul = text.find('\0'); nul != std::string_view::npos) {
      const auto line = 1 + std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(nul), '\n');
      throw Error(std::string{file_} + ":" + std::to_string(line) + (json ? ": not JSON" : ": not YAML") +
                  ": a NUL byte (binary data, or UTF-16?); give a text file in UTF-8");
    }
    refuse(nesting_or_bare_return(text));
    refuse(other_yaml_version(text));
    const auto not_readable = [&](const syntax_problem& problem, bool tab) {
      return Error(std::string{file_} + (problem.line > 0 ? ":" + std::to_string(problem.line) : std::string{}) +
                   (json ? ": not JSON: " : ": not YAML: ") + problem.what +
                   (tab                                           ? "; the line is indented with a tab, and YAML indents with spaces"
                    : problem.what.find("; ") == std::string::npos ? (json ? "; correct the JSON there" : "; correct the YAML there")
                                                                   : ""));
    };
    // (The text as given: its surrogate pairs joined are YAML's \U escapes, which JSON has not.)
    if (const std::optional<syntax_problem> json_problem = json && checked == json_checked::here ? json_syntax_problem(given) : std::nullopt)
      throw not_readable(*json_problem, false);
    YAML::Node root;
    int second_document = 0;  // its line, 1-based; 0: none
    try {
      // Parsed twice over, the first time for the events alone: YAML::LoadAll does not end on some broken
      // inputs (",": yaml-cpp 0.7 reads empty documents from it forever), so at most two are asked for.
      std::istringstream stream{std::string{text}};
      YAML::Parser parser{stream};
      document_events events;
      if (parser.HandleNextDocument(events)) {
        if (events.alias_line > 0) {
          throw Error(std::string{file_} + ":" + std::to_string(events.alias_line) +
                      ": an alias (*name): hml's files take none; write the value out");
        }
        if (parser.HandleNextDocument(events)) second_document = events.line;
      }
      root = YAML::Load(std::string{text});
    } catch (const YAML::Exception& e) {
      // Nesting by indentation or "- - -" past yaml-cpp's depth guard (its message: "bad file").
      const bool deep = dynamic_cast<const YAML::DeepRecursion*>(&e) != nullptr;
      const syntax_problem problem = deep ? syntax_problem{e.mark.line + 1, "nested deeper than the YAML reader follows; a machine or "
                                                                            "kernel file nests a few levels"}
                                          : yaml_syntax_said(text, e.msg, e.mark.line + 1);
      // yaml-cpp says "illegal block entry" (or "end of map not found") for a tab that indents: say so.
      const std::string_view line = line_at(text, e.mark.line);
      throw not_readable(problem, !json && line.substr(0, line.find_first_not_of(" \t")).find('\t') != std::string_view::npos);
    }
    if (second_document > 0) {
      throw Error(std::string{file_} + ":" + std::to_string(second_document) +
                  ": a second document; a file holds one");
    }
    if (!root.IsDefined() || root.IsNull()) {
      if (const int line = null_line(text); line > 0) {
        throw Error(std::string{file_} + ":" + std::to_string(line) +
                    ": a null value (null or ~), not a mapping of fields; write the file's fields");
      }
      throw Error(std::string{file_} + ":1: the file is empty; write its fields");
    }
    refuse_tags(root, "");
    return root;
  }

  // A tag (!!binary, !foo) asks for a type hml does not read: yaml-cpp keeps the text and drops the tag, so
  // "!!binary aGVsbG8=" would be read as that text. Refused, at any depth; untagged nodes carry "?" or "!".
  void refuse_tags(const YAML::Node& root, const std::string& field) const {
    const auto refuse_tag = [&](const YAML::Node& node, const std::string& at) {
      if (const std::string& tag = node.Tag(); !tag.empty() && tag != "?" && tag != "!") {
        const std::string shown = tag.starts_with("tag:yaml.org,2002:") ? "!!" + tag.substr(18) : tag;
        fail(node, at, "the tag " + shown + " is not read; give the value without it");
      }
    };
    visit_nodes(root, field, [&](const YAML::Node& node, const std::string& at) {
      refuse_tag(node, at);
      if (node.IsMap()) {
        for (const auto& entry : node) refuse_tag(entry.first, at);  // a key's tag, named at its mapping
      }
    });
  }

  void expect_map(const YAML::Node& node, const std::string& field,
                  std::initializer_list<std::string_view> known) const {
    expect_map(node, field, std::span<const std::string_view>{known.begin(), known.size()});
  }
  void expect_map(const YAML::Node& node, const std::string& field, std::span<const std::string_view> known) const {
    if (!node.IsMap()) fail(node, field, "expected a mapping of fields; write `name: value` lines under it, indented");
    check_keys_once(node, field);
    for (const auto& entry : node) {
      if (!entry.first.IsScalar()) fail(entry.first, field, "a field name must be text; write a plain name before the colon");
      const std::string name = entry.first.Scalar();
      if (std::ranges::find(known, name) == known.end()) {
        // No field's name opens with a digit: one with no value in a flow mapping is a decimal comma's second
        // half (`{value: 2,7 GHz}` is value 2 and a field "7 GHz").
        const bool decimal_comma = node.Style() == YAML::EmitterStyle::Flow && entry.second.IsNull() && !name.empty() &&
                                   name.front() >= '0' && name.front() <= '9';
        fail(entry.first, path(field, message_text(name)),
             "unknown field; " + (decimal_comma ? std::string{"a decimal comma? a comma ends a value in {...}: write decimals with a point, as 2.7"}
                                                : spelling_hint(name, known)));
      }
    }
  }

  // A value that is none of a field's choices: "\"FP64\" is not one of fp64, fp32, ...; did you mean fp64?".
  static std::string not_one_of(std::string_view given, std::span<const std::string_view> known) {
    return hml::not_one_of(given, "\"" + message_text(given) + "\"", known, "write");
  }
  static std::string not_one_of(std::string_view given, std::initializer_list<std::string_view> known) {
    return not_one_of(given, std::span<const std::string_view>{known.begin(), known.size()});
  }

  static std::string path(const std::string& parent, std::string_view name) {
    return parent.empty() ? std::string{name} : parent + "." + std::string{name};
  }
  static std::string item(const std::string& parent, std::size_t i) {
    return parent + "[" + std::to_string(i) + "]";
  }

  // The field's node, undefined where the mapping has no such key. A key with no value (`cores:` or
  // `cores: ~`) is refused: it is a value left out, and was once read as a field left out.
  YAML::Node field(const YAML::Node& map, const std::string& parent, std::string_view name) const {
    const YAML::Node node = map[std::string{name}];
    if (node.IsDefined() && node.IsNull()) {
      // `cores:` alone has no value to mark: yaml-cpp marks the next token, a line late; the key is in its place.
      for (const auto& entry : map) {
        if (entry.first.IsScalar() && entry.first.Scalar() == name)
          fail(entry.first, path(parent, name), "no value; write one, or leave the field out");
      }
      fail(node, path(parent, name), "no value; write one, or leave the field out");
    }
    return node;
  }

  // The field's scalar text, or "" when it is absent and not required (and where required, `missing` said).
  std::string scalar(const YAML::Node& map, const std::string& parent, std::string_view name, bool required,
                     std::string_view missing = "missing; add it") const {
    const YAML::Node node = field(map, parent, name);
    if (!node.IsDefined()) {
      if (!required) return {};
      // A name with an invisible character ("\ufeffformat" after a second byte-order mark) looks present.
      if (map.IsMap())
        for (const auto& entry : map)
          if (entry.first.IsScalar() && without_invisible(entry.first.Scalar()) == name)
            fail(entry.first, path(parent, message_text(entry.first.Scalar())), "an invisible character in the name; delete it");
      fail(map, path(parent, name), missing);
    }
    if (!node.IsScalar()) fail(node, path(parent, name), "expected a single value; write one after the colon");
    // A required field left blank ("", "  ") is as good as missing: a name, a key or a figure that says nothing.
    if (required && is_blank(node.Scalar())) fail(node, path(parent, name), "empty; write its value");
    return node.Scalar();
  }

  // An optional figure's text, "" where the field is left out. Given blank ("", "  ") it is refused: a quoted
  // empty value would otherwise read as the field left out and take its default silently.
  std::string optional_value(const YAML::Node& map, const std::string& parent, std::string_view name) const {
    const std::string text = scalar(map, parent, name, false);
    if (is_blank(text) && map[std::string{name}].IsDefined())
      fail(map[std::string{name}], path(parent, name), "empty; write a value, or leave the field out");
    return text;
  }

  // A field's text, required (missing or blank refused) or optional (left out: ""; given blank: refused).
  std::string value(const YAML::Node& map, const std::string& parent, std::string_view name, bool required) const {
    return required ? scalar(map, parent, name, true) : optional_value(map, parent, name);
  }

  // A quantity > 0; a size in bits refused (parse_options::sizes_in_bytes), and a rate in bits where
  // `options` says so.
  template <class Q>
  Q quantity(const YAML::Node& map, const std::string& parent, std::string_view name, bool required,
             parse_options options = {.sizes_in_bytes = true}) const {
    const std::string text = value(map, parent, name, required);
    if (text.empty()) return Q{};
    Q q{};
    try {
      q = parse<Q>(text, options);
    } catch (const std::invalid_argument& e) {
      fail(map[std::string{name}], path(parent, name), e.what());
    }
    if (!(q.value() > 0)) fail(map[std::string{name}], path(parent, name), "must be > 0; write a figure above zero");
    return q;
  }

  // A whole number of bytes within [low, high] (a unit required; bits refused), or fallback where left out.
  std::size_t whole_bytes(const YAML::Node& map, const std::string& parent, std::string_view name, std::size_t fallback,
                          double low, double high) const {
    const data_size size = quantity<data_size>(map, parent, name, false);
    if (size.value() == 0) return fallback;
    const double n = size.value();
    if (!(n >= low && n <= high) || n != std::floor(n)) {
      fail(map[std::string{name}], path(parent, name),
           "must be a whole number of bytes within [" + std::to_string(static_cast<long long>(low)) + " B, " +
               std::to_string(static_cast<long long>(high)) + " B]; write one, as 64 B");
    }
    return static_cast<std::size_t>(n);
  }

  // A cache line or a SIMD register: a power of two bytes, which elements and lines divide.
  std::size_t power_of_two_bytes(const YAML::Node& map, const std::string& parent, std::string_view name,
                                 std::size_t fallback, double low, double high) const {
    const std::size_t n = whole_bytes(map, parent, name, fallback, low, high);
    if (!std::has_single_bit(n))
      fail(map[std::string{name}], path(parent, name), not_a_power_of_two(n, "B"));
    return n;
  }

  // A memory's bandwidth: a quantity() in bytes per second, a bit rate refused (parse_options::rates_in_bytes).
  data_rate memory_bandwidth(const YAML::Node& map, const std::string& parent, std::string_view name, bool required) const {
    return quantity<data_rate>(map, parent, name, required, {.sizes_in_bytes = true, .rates_in_bytes = true});
  }

  // "32 B/cy": a number and the unit B/cy. `range` is the one the caller holds it to, told where the number
  // is past what any figure keeps (0 B/cy was told "1e-30 to 1e30", and 1e-20 then refused by the caller).
  bytes_per_cycle per_cycle_rate(const YAML::Node& map, const std::string& parent, std::string_view name,
                                 std::string_view range) const {
    const std::string text = optional_value(map, parent, name);
    if (text.empty()) return {};
    const std::string field = path(parent, name);
    const std::size_t unit = text.find("B/cy");
    const std::string_view number = trimmed(std::string_view{text}.substr(0, unit));
    const bool prefixed = unit != std::string::npos && !number.empty() &&
                          std::string_view{"kKMGTPEi"}.find(number.back()) != std::string_view::npos;
    if (unit == std::string::npos || prefixed || text.find_first_not_of(' ', unit + 4) != std::string::npos)  // "32 kB/cy"
      fail(map[std::string{name}], field, "\"" + text + "\" is not bytes per cycle; write a number and B/cy, with no prefix, as 32 B/cy");
    const double value = number_in(map[std::string{name}], field, text.substr(0, unit));
    // The magnitudes every figure read from text keeps (1e-300 B/cy made an ECM time of 2.6e302 cycles).
    if (!(value >= smallest_magnitude && value <= largest_magnitude)) {
      fail(map[std::string{name}], field, shown(value) + " B/cy is outside " + std::string{range} + "; write a rate within it");
    }
    return value * byte_per_cycle;
  }

  // std::from_chars: the same in every locale (std::stod follows the global C locale, and under de_DE read
  // "1.0" as no number and "0,5" as a half), and decimal only, as quantities are ("0x1p-1" is no number).
  double number_in(const YAML::Node& at, const std::string& field, const std::string& text) const {
    const std::string_view written = trimmed(text);
    std::string_view number = written;
    if (number.starts_with('+') && number.size() > 1 && number[1] != '-' && number[1] != '+') number.remove_prefix(1);
    double value = 0;
    const auto [end, error] = std::from_chars(number.data(), number.data() + number.size(), value);
    const std::string quoted = "\"" + std::string{written} + "\"";
    if (error == std::errc::invalid_argument || end != number.data() + number.size() || number.empty()) {
      fail(at, field, quoted + " is not a number; write a decimal number, as 2.5");
    }
    if (error == std::errc::result_out_of_range) fail(at, field, quoted + " is beyond a double's range; write a number within it");
    if (!std::isfinite(value)) fail(at, field, quoted + " is not a finite number; write a decimal number, as 2.5");
    return value;
  }

  // A number as a message quotes it: the shortest text that reads back as it ("not 1.0000001", never "not 1").
  static std::string shown(double x) {
    char text[32];
    return {text, std::to_chars(text, text + sizeof text, x, std::chars_format::general).ptr};
  }

  // A number or a boolean is written bare: quoted ("96", "true") or as a block (| or >) it is text, as JSON and
  // YAML read it.
  void refuse_quoted(const YAML::Node& at, const std::string& field, std::string_view expected) const {
    if (at.Tag() == "!")
      fail(at, field, "expected " + std::string{expected} + ", not the text \"" + message_text(at.Scalar()) +
                          "\"; write it plain, without quotes (or | or >)");
  }

  double number(const YAML::Node& map, const std::string& parent, std::string_view name, double fallback,
                double low, double high) const {
    const std::string text = optional_value(map, parent, name);
    if (text.empty()) return fallback;
    const std::string field = path(parent, name);
    refuse_quoted(map[std::string{name}], field, "a number");
    const double value = number_in(map[std::string{name}], field, text);
    if (!(value >= low && value <= high)) {
      fail(map[std::string{name}], field, shown(value) + " is outside [" + shown(low) + ", " + shown(high) + "]; write a number within it");
    }
    return value;
  }

  std::int64_t integer(const YAML::Node& at, const std::string& field, std::int64_t low, std::int64_t high) const {
    if (!at.IsScalar()) fail(at, field, "expected an integer; write a whole number, as 8");
    refuse_quoted(at, field, "an integer");
    const std::string text = at.Scalar();
    std::size_t used = 0;
    long long value = 0;
    const auto not_an_integer = [&] { fail(at, field, "\"" + message_text(text) + "\" is not an integer; write a whole number in decimal, as 8"); };
    const auto outside = [&](const std::string& shown_value) {
      fail(at, field, shown_value + " is outside [" + std::to_string(low) + ", " + std::to_string(high) + "]; write a whole number within it");
    };
    try {
      value = std::stoll(text, &used);
    } catch (const std::out_of_range&) {
      // Digits past 64 bits are still a whole number, out of range as a smaller one is.
      const std::size_t sign = text.starts_with('-') || text.starts_with('+') ? 1 : 0;
      if (text.size() > sign && text.find_first_not_of("0123456789", sign) == std::string::npos) outside(message_text(text));
      not_an_integer();
    } catch (const std::exception&) {
      not_an_integer();
    }
    if (used != text.size()) not_an_integer();
    if (value < low || value > high) outside(std::to_string(value));
    return value;
  }

  std::int64_t integer(const YAML::Node& map, const std::string& parent, std::string_view name, std::int64_t fallback,
                       std::int64_t low, std::int64_t high) const {
    const YAML::Node node = field(map, parent, name);
    if (!node.IsDefined()) return fallback;
    return integer(node, path(parent, name), low, high);
  }

  bool boolean(const YAML::Node& map, const std::string& parent, std::string_view name, bool fallback) const {
    const std::string text = optional_value(map, parent, name);
    if (text.empty()) return fallback;
    refuse_quoted(map[std::string{name}], path(parent, name), "true or false");
    if (text == "true") return true;
    if (text == "false") return false;
    fail(map[std::string{name}], path(parent, name), "\"" + message_text(text) + "\" is not true or false; write one of them");
  }

  YAML::Node sequence(const YAML::Node& map, const std::string& parent, std::string_view name, bool required,
                      std::size_t most) const {
    const YAML::Node node = this->field(map, parent, name);
    const std::string field = path(parent, name);
    if (!node.IsDefined()) {
      if (required) fail(map, field, "missing");
      return YAML::Node{YAML::NodeType::Sequence};  // absent: no entries
    }
    if (!node.IsSequence()) fail(node, field, "expected a list");
    if (node.size() > most) fail(node, field, "at most " + std::to_string(most) + " entries");
    return node;
  }

private:
  // A key given twice in this mapping: refused, naming both lines (one pass, however many keys).
  void check_keys_once(const YAML::Node& map, const std::string& field) const {
    std::unordered_map<std::string, int> first_line;
    for (const auto& entry : map) {
      if (!entry.first.IsScalar()) continue;  // expect_map refuses such a key; refuse_repeated_keys has no use for it
      const int line = entry.first.Mark().line + 1;
      const auto [seen, fresh] = first_line.try_emplace(entry.first.Scalar(), line);
      if (!fresh) {
        fail(line, path(field, entry.first.Scalar()), "given twice (first on line " + std::to_string(seen->second) + "); give it once");
      }
    }
  }

  static int line_below(const YAML::Node& at, std::string_view rest) {
    const int here = at.Mark().line + 1;
    if (rest.empty()) return here;
    if (rest.front() == '.') rest.remove_prefix(1);
    if (rest.starts_with("[")) {
      const std::size_t close = rest.find(']');
      std::size_t index = 0;
      const std::string_view digits = rest.substr(1, close == std::string_view::npos ? 0 : close - 1);
      if (digits.empty() || digits.size() > 9 || digits.find_first_not_of("0123456789") != std::string_view::npos ||
          !at.IsSequence()) {
        return here;
      }
      for (const char d : digits) index = index * 10 + static_cast<std::size_t>(d - '0');
      if (index >= at.size()) return here;
      return line_below(at[index], rest.substr(close + 1));
    }
    const std::size_t end = rest.find_first_of(".[");
    const std::string name{rest.substr(0, end)};
    if (!at.IsMap()) return here;
    const YAML::Node child = at[name];
    if (!child.IsDefined()) return here;
    return line_below(child, end == std::string_view::npos ? std::string_view{} : rest.substr(end));
  }

  std::string_view file_;
};

}  // namespace hml::detail
