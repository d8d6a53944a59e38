// hml.report:yaml_text (internal) — what the YAML and JSON readers check in a file's text before a parser
// reads it: where a parser would misread it (a lone carriage return, another YAML version), recurse too deep
// (nesting), or refuse a JSON file's own escapes (surrogate pairs); and the lines the parser's errors name.
module;
#include <algorithm>
#include <cctype>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
module hml.report:yaml_text;
import hml.units;
import :syntax_errors;

namespace hml::detail {

// JSON quotes its keys: "{format: ...}" (a plain key) is YAML's flow style, '{"format": ...}' JSON. Byte-order
// marks and comments before it (`//`, `/* */`, which JSON has not and YAML writes otherwise) are no part of either:
// a JSON file with a mark and a trailing comma was read as YAML, and one with a comment told to mend its YAML.
[[nodiscard]] inline bool opens_as_json(std::string_view text) {
  for (bool skipped = true; skipped;) {
    const std::size_t start = text.find_first_not_of(" \t\r\n");
    text.remove_prefix(start == std::string_view::npos ? text.size() : start);
    const std::size_t close = text.starts_with("/*") ? text.find("*/", 2) : std::string_view::npos;
    const std::size_t past = text.starts_with("\xEF\xBB\xBF") ? 3
                             : text.starts_with("//")          ? text.find('\n')
                             : text.starts_with("/*")          ? (close == std::string_view::npos ? close : close + 2)
                                                               : 0;
    skipped = past != 0;
    text.remove_prefix(std::min(past, text.size()));  // npos: to the end
  }
  const std::size_t first = text.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) return false;
  if (text[first] == '[') return true;
  const std::size_t next = text.find_first_not_of(" \t\r\n", first + 1);
  const auto plain_key = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_' || c == '\''; };
  return text[first] == '{' && (next == std::string_view::npos || !plain_key(text[next]));
}

// The line (1-based) of a document's null where it holds one (`null`, `~`, `--- null`, `!!null ""`), or 0
// where it holds nothing: blank lines, comments, directives (%YAML), and the document markers --- and ...
[[nodiscard]] inline int null_line(std::string_view text) {
  int number = 0;
  for (std::size_t start = 0; start <= text.size();) {
    const std::size_t end = std::min(text.find('\n', start), text.size());
    std::string_view line = text.substr(start, end - start);
    ++number;
    start = end + 1;
    if (number == 1 && line.starts_with("\xEF\xBB\xBF")) line.remove_prefix(3);  // a byte-order mark opens the file
    line.remove_prefix(std::min(line.size(), line.find_first_not_of(" \t\r")));
    if (line.starts_with("---")) {  // a document's marker, and what follows it on its line
      line.remove_prefix(3);
      line.remove_prefix(std::min(line.size(), line.find_first_not_of(" \t\r")));
    }
    while (!line.empty() && (line.back() == ' ' || line.back() == '\t' || line.back() == '\r')) line.remove_suffix(1);
    if (line.starts_with("...")) {  // a document's end, and a comment after it
      line.remove_prefix(3);
      line.remove_prefix(std::min(line.size(), line.find_first_not_of(" \t\r")));
    }
    if (line.empty() || line.front() == '#' || line.front() == '%') continue;
    return number;
  }
  return 0;
}

// JSON writes a character past U+FFFF as a UTF-16 pair of escapes ("\uD83D\uDE00", Python's json.dump by
// default); YAML's \u takes code points only, and yaml-cpp refuses each half. A pair in a string of a JSON
// text becomes YAML's own 32-bit escape ("\U0001F600"); anything else is left to the parser.
[[nodiscard]] inline std::string surrogate_pairs_joined(std::string_view text) {
  if (!opens_as_json(text) || text.find("\\u") == std::string_view::npos) return std::string{text};
  const auto unit_at = [&](std::size_t at) -> long {  // the 4 hex digits of "\uXXXX" at `at`, or -1
    if (at + 6 > text.size() || text[at] != '\\' || text[at + 1] != 'u') return -1;
    long unit = 0;
    for (std::size_t i = at + 2; i < at + 6; ++i) {
      const char c = text[i];
      const int digit = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
      if (digit < 0) return -1;
      unit = unit * 16 + digit;
    }
    return unit;
  };
  std::string out;
  out.reserve(text.size());
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (!in_string) {
      in_string = text[i] == '"';
      out += text[i];
      continue;
    }
    if (text[i] == '"') in_string = false;
    if (text[i] != '\\' || i + 1 >= text.size()) {
      out += text[i];
      continue;
    }
    const long high = unit_at(i), low = unit_at(i + 6);
    if (high >= 0xD800 && high <= 0xDBFF && low >= 0xDC00 && low <= 0xDFFF) {
      const long code = 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00);
      static constexpr char hex[] = "0123456789ABCDEF";
      out += "\\U";
      for (int shift = 28; shift >= 0; shift -= 4) out += hex[(code >> shift) & 0xF];
      i += 11;
    } else {
      out += text.substr(i, 2);  // an escape: its second character is never the string's end
      ++i;
    }
  }
  return out;
}

// Line `index` (0-based) of `text`, without its line break; empty past the end.
[[nodiscard]] inline std::string_view line_at(std::string_view text, int index) {
  std::size_t begin = 0;
  for (int i = 0; i < index && begin != std::string_view::npos; ++i) {
    begin = text.find('\n', begin);
    if (begin != std::string_view::npos) ++begin;
  }
  if (begin == std::string_view::npos || begin > text.size()) return {};
  const std::size_t end = text.find('\n', begin);
  return text.substr(begin, end == std::string_view::npos ? std::string_view::npos : end - begin);
}

// The most [ and { a file may nest. yaml-cpp recurses once a level: 100,000 of them ended in its own
// "bad file". A machine file nests three or four.
inline constexpr int max_nesting = 64;

// Counts [ and { outside quoted scalars and comments; a quote opens a scalar only where YAML's can
// begin (after a space, [, {, a comma or a colon, or at a line's start), so an apostrophe in plain text
// ("Intel's") is not taken for one.
// Nesting past max_nesting, and a carriage return alone outside quoted values: YAML counts
// one as a line break, but yaml-cpp reads the file as one line (and fails at its second field's colon, or
// takes "\r" into a field's name), so an old Mac's line endings are said as such, in a comment too (where
// yaml-cpp takes the line after it for more of the comment); in a quoted value the value's check says it is a
// control character. JSON's grammar takes it for white space, but yaml-cpp reads a JSON file after
// nlohmann-json has checked it, and takes no line break there either: said alike. And a value's quote left
// open at the end of the file: yaml-cpp reads it as closed there (`note: "open` took "open ").
[[nodiscard]] inline std::optional<syntax_problem> nesting_or_bare_return(std::string_view text) {
  int depth = 0;
  int line = 1;
  char quote = 0;
  int quote_line = 0;  // where the open quote opened a value (after `key:`, `-`, [, { or a comma); 0: elsewhere
  bool comment = false;
  char before = '\n';
  const bool json = opens_as_json(text);
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '\n') {
      ++line;
      comment = false;
      before = c;
      continue;
    }
    // In a comment too: yaml-cpp reads what follows it as more of the comment (`# note` CR `cores: 132` lost
    // the cores), and a file of an old Mac's lines that opens with a comment is that comment alone.
    if (c == '\r' && quote == 0 && (i + 1 == text.size() || text[i + 1] != '\n')) {
      return syntax_problem{line, "a line ends with a carriage return alone (an old Mac's line endings), which this "
                                  "reader takes for no line break; save the file with LF or CRLF line endings"};
    }
    if (comment) continue;
    if (quote != 0) {
      if (quote == '"' && c == '\\' && i + 1 < text.size() && text[i + 1] != '\n') {
        ++i;  // an escape: \" does not close the value
      } else if (quote == '\'' && c == '\'' && i + 1 < text.size() && text[i + 1] == '\'') {
        ++i;  // '' is a quote inside a single-quoted value
      } else if (c == quote) {
        quote = 0;
      }
      before = c;
      continue;
    }
    const bool scalar_may_begin = before == '\n' || before == ' ' || before == '\t' || before == '[' ||
                                  before == '{' || before == ',' || before == ':';
    if ((c == '"' || c == '\'') && scalar_may_begin) {
      quote = c;
      const std::size_t opened_after = i == 0 ? std::string_view::npos : text.find_last_not_of(" \t", i - 1);
      const bool opens_a_value = opened_after == std::string_view::npos ||
                                 std::string_view{":-[{,\n"}.find(text[opened_after]) != std::string_view::npos;
      quote_line = opens_a_value ? line : 0;
    } else if (c == '#' && (before == ' ' || before == '\t' || before == '\n')) {
      comment = true;
    } else if (c == '[' || c == '{') {
      if (++depth > max_nesting) {
        return syntax_problem{line, "nested more than " + std::to_string(max_nesting) +
                                        " levels deep ([ and {); a machine or kernel file nests a few"};
      }
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
    before = c;
  }
  if (quote != 0 && quote_line > 0 && !json) {  // JSON's parser says so in its words
    return syntax_problem{quote_line, std::string{"not YAML: a value opened with "} + quote +
                                          " is not closed; end it with " + quote + " (or leave the quotes out)"};
  }
  return std::nullopt;
}

// yaml-cpp reads YAML 1.2 whatever a file declares: under `%YAML 1.1` "010" would be eight and "yes" true,
// where it reads ten and text, so a file that declares another version is refused, not read otherwise.
[[nodiscard]] inline std::optional<syntax_problem> other_yaml_version(std::string_view text) {
  int line = 1;
  for (std::size_t start = 0; start < text.size(); ++line) {
    const std::size_t end = std::min(text.find('\n', start), text.size());
    std::string_view row = text.substr(start, end - start);
    if (start == 0 && row.starts_with("\xEF\xBB\xBF")) row.remove_prefix(3);  // a byte-order mark opens the file
    start = end + 1;
    if (!row.starts_with("%YAML")) continue;
    row.remove_prefix(5);
    const std::size_t first = row.find_first_not_of(" \t");
    const std::string_view version = first == std::string_view::npos ? "" : row.substr(first, row.find_first_of(" \t\r#", first) - first);
    if (version == "1.2") continue;
    return syntax_problem{line, "%YAML " + (version.empty() ? std::string{"without a version"} : message_text(version)) +
                                    ": this reader reads YAML 1.2 (where 010 is ten and yes is text); write %YAML 1.2, or "
                                    "leave the line out"};
  }
  return std::nullopt;
}

}  // namespace hml::detail
