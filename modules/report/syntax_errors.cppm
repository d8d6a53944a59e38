// hml.report:syntax_errors (internal) — what is wrong with a file that does not parse, said in the words of
// its format and at the line where the user can mend it, for every reader of YAML and JSON. The parsers' own
// texts ("end of map flow not found", "syntax error while parsing object - unexpected string literal") name
// their grammar, not the file's mistake; a text no rule here knows passes through as the parser gave it.
module;
#include <algorithm>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>
module hml.report:syntax_errors;
import hml.units;

namespace hml::detail {

struct syntax_problem {
  int line = 0;  // 1-based; 0: none to name
  std::string what;
};

// Text that is not UTF-8 (a UTF-16 file, Latin-1 bytes) is no YAML or JSON file; a YAML parser would read a
// UTF-16 file as empty, and pass Latin-1 bytes into names.
[[nodiscard]] inline std::optional<syntax_problem> encoding_problem(std::string_view text) {
  using namespace std::string_view_literals;
  if (text.starts_with("\xFF\xFE\0\0"sv) || text.starts_with("\0\0\xFE\xFF"sv)) {
    return syntax_problem{1, "a UTF-32 file (it opens with a byte-order mark); save it as UTF-8"};
  }
  if (text.starts_with("\xFF\xFE") || text.starts_with("\xFE\xFF")) {
    return syntax_problem{1, "a UTF-16 file (it opens with a byte-order mark); save it as UTF-8"};
  }
  int line = 1;
  for (std::size_t i = 0; i < text.size();) {
    const std::size_t length = utf8_length_at(text, i);
    if (length == 0) {
      constexpr std::string_view hex = "0123456789ABCDEF";
      const auto code = static_cast<unsigned char>(text[i]);
      return syntax_problem{line, std::string{"a byte that is not UTF-8 (0x"} + hex[code >> 4] + hex[code & 0xF] +
                                      "); save the file as UTF-8"};
    }
    if (text[i] == '\n') ++line;
    i += length;
  }
  return std::nullopt;
}

// nlohmann's "syntax error while parsing CONTEXT - unexpected FOUND; expected WANTED", in JSON's words.
[[nodiscard]] inline std::string json_syntax_said(std::string_view detail) {
  std::string_view context;
  if (constexpr std::string_view opening = "syntax error while parsing "; detail.starts_with(opening)) {
    detail.remove_prefix(opening.size());
    const std::size_t dash = detail.find(" - ");
    if (dash == std::string_view::npos) return std::string{detail};
    context = detail.substr(0, dash);
    detail.remove_prefix(dash + 3);
  }
  const auto token = [](std::string_view t) -> std::string {
    if (t == "string literal") return "a string";
    if (t == "number literal") return "a number";
    if (t == "end of input") return "the end of the file";
    if (t.ends_with(" literal")) return std::string{t.substr(0, t.size() - 8)};  // true, false, null
    if (t == "'[', '{', or a literal") return "a value";
    return std::string{t};
  };
  if (detail.starts_with("unexpected ")) {
    detail.remove_prefix(11);
    const std::size_t semicolon = detail.find("; expected ");
    const std::string found = token(detail.substr(0, semicolon));
    std::string wanted = semicolon == std::string_view::npos ? std::string{} : token(detail.substr(semicolon + 11));
    if (context == "object key" && found == "'}'") return "a ',' before '}': JSON takes no comma after the last member";
    if (context == "value" && found == "']'") return "a ',' before ']': JSON takes no comma after the last element";
    if (context == "object" && wanted == "'}'") wanted = "',' or '}'";
    if (context == "array" && wanted == "']'") wanted = "',' or ']'";
    if (context == "object key" && wanted == "a string") wanted = "a quoted key";
    const bool comma_missing = context == "object" || context == "array";
    return found + " where " + (wanted.empty() ? "none can be" : wanted + " should be") +
           (comma_missing && found != "the end of the file" ? " (a ',' missing?)" : "");
  }
  if (const std::size_t last = detail.find("; last read: "); last != std::string_view::npos) detail = detail.substr(0, last);
  if (detail == "invalid literal") {
    return "what is here is no JSON value: text is quoted, numbers are finite, and JSON has no comments";
  }
  if (detail == "invalid string: missing closing quote") return "a string is not closed by '\"'";
  if (detail.starts_with("invalid string: control character")) {
    return "a string is not closed on its line, or holds a control character (a line break is written \\n)";
  }
  if (detail.starts_with("invalid string: forbidden character after backslash")) {
    return "an unknown escape in a string (JSON's are \\\" \\\\ \\/ \\b \\f \\n \\r \\t and \\uXXXX)";
  }
  if (detail.starts_with("invalid string: surrogate")) {
    return "a string holds half a character (a \\uD800-\\uDFFF escape without its pair; a character past U+FFFF is "
           "two, as \\uD83D\\uDE00)";
  }
  return std::string{detail};
}

// The line and words of a JSON text's first syntax error, from nlohmann's parser; nullopt where it reads the
// text (then yaml-cpp's complaint is of something else, and stands), or where only a number past a double's
// range stops it (1e400 is JSON: the field's check says which field holds it).
[[nodiscard]] inline std::optional<syntax_problem> json_syntax_problem(std::string_view text) {
  try {
    static_cast<void>(nlohmann::json::parse(text.begin(), text.end()));
  } catch (const nlohmann::json::parse_error& e) {
    std::string_view message = e.what();  // "[json.exception.parse_error.101] parse error at line 1, column 2: ..."
    if (const std::size_t colon = message.find(": "); colon != std::string_view::npos) message.remove_prefix(colon + 2);
    const std::size_t at = std::min<std::size_t>(e.byte > 0 ? e.byte - 1 : 0, text.size());
    const int line = 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(at), '\n'));
    return syntax_problem{line, json_syntax_said(message)};
  } catch (const nlohmann::json::out_of_range&) {
    return std::nullopt;
  }
  return std::nullopt;
}

// What a YAML text leaves open, and the line it opens on: a '[' or '{' that starts a value (at a line's
// start, after "key:", "- ", or inside another) closed by nothing or by the other bracket, or a quote that
// starts a value and never ends. Quotes and comments are skipped; nullopt where nothing is left open.
struct left_open {
  char what;  // '[', '{', '"' or '\''
  int line;
};
[[nodiscard]] inline std::optional<left_open> first_left_open(std::string_view text) {
  std::vector<left_open> stack;
  int line = 1;
  char before = '\n';  // the last character that was not a space
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    // A value starts a line, follows "key: " or "- ", or follows '[', '{' or ',' inside brackets ("a, 'b"
    // and "well-'known" are plain text).
    const bool spaced = i > 0 && (text[i - 1] == ' ' || text[i - 1] == '\t');
    const bool value_starts = before == '\n' || ((before == ':' || before == '-' || before == '?') && spaced) ||
                              ((before == ',' || before == '[' || before == '{') && !stack.empty());
    if (c == '\n') {
      ++line;
      before = '\n';
      continue;
    }
    if (c == '#' && (i == 0 || text[i - 1] == ' ' || text[i - 1] == '\t' || text[i - 1] == '\n')) {
      while (i + 1 < text.size() && text[i + 1] != '\n') ++i;
      continue;
    }
    if ((c == '"' || c == '\'') && value_starts) {  // a quoted value: skip to its end ('' is a quote in '...')
      const int opened = line;
      for (++i;; ++i) {
        if (i >= text.size()) return left_open{c, opened};
        if (c == '"' && text[i] == '\\') {
          ++i;
        } else if (text[i] == c && !(c == '\'' && i + 1 < text.size() && text[i + 1] == '\'' && ++i)) {
          break;
        }
        if (i < text.size() && text[i] == '\n') ++line;
      }
      before = c;
      continue;
    }
    if ((c == '[' || c == '{') && value_starts) stack.push_back({c, line});
    if ((c == ']' || c == '}') && !stack.empty()) {
      if (stack.back().what != (c == ']' ? '[' : '{')) return stack.back();  // closed by the other bracket
      stack.pop_back();
    }
    if (c != ' ' && c != '\t') before = c;
  }
  if (!stack.empty()) return stack.back();
  return std::nullopt;
}

// yaml-cpp's message (e.msg) at its line, in YAML's words. Where the text leaves a bracket or a quote open,
// that is said at the line it opens on: yaml-cpp notices it lines later, as something else.
[[nodiscard]] inline syntax_problem yaml_syntax_said(std::string_view text, std::string_view message, int line) {
  if (const std::optional<left_open> open = first_left_open(text)) {
    if (open->what == '"' || open->what == '\'') {
      return {open->line, std::string{"a quoted value opened with "} + open->what + " is not closed"};
    }
    return {open->line, std::string{"a '"} + open->what + "' is not closed by '" + (open->what == '[' ? ']' : '}') + "'"};
  }
  if (message == "end of map flow not found" || message == "end of sequence flow not found") {
    return {line, "a '[' or '{' is not closed before this line, or a ',' is missing"};
  }
  if (message == "end of map not found" || message == "end of sequence not found") {
    return {line, "the line does not go on the mapping or list above it: check its indentation, and quote a value "
                  "that holds ': ' or ' #'"};
  }
  if (message == "illegal map value") {
    // A plain key is at most 1024 characters in YAML (yaml-cpp counts bytes): past that its ':' starts no
    // value. No field is near that long, so it is a field name to mend, not a value to quote.
    std::string_view here = text;
    for (int n = 1; n < line && !here.empty(); ++n) here.remove_prefix(std::min(here.size(), here.find('\n') + 1));
    here = here.substr(0, here.find('\n'));
    const std::size_t name_ends = here.find(':');
    if (name_ends != std::string_view::npos && name_ends - here.find_first_not_of(" -") > 1024)
      return {line, "a field name of more than 1024 bytes, YAML's most for a name; hml's fields are short words"};
    return {line, "a ':' where no value can start: quote a value that holds ': '"};
  }
  if (message == "illegal block entry") return {line, "a '- ' list entry where none can start: check its indentation"};
  if (message == "illegal flow end") return {line, "a ']' or '}' that closes nothing"};
  if (message == "illegal EOF in scalar") return {line, "a quoted value is not closed before the end of the file"};
  if (message == "illegal character in scalar") return {line, "a character a plain value cannot hold here: quote the value"};
  if (message == "unknown token") return {line, "a character that starts no YAML value here: quote the value"};
  if (message.starts_with("unknown escape character: ")) {
    return {line, "an unknown escape '\\" + std::string{message.substr(26)} +
                      "' in a double-quoted value (a backslash itself is written \\\\)"};
  }
  return {line, std::string{message}};
}

}  // namespace hml::detail
