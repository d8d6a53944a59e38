// hml.c_kernel's reader (see c_kernel.cppm): the text checked before clang reads it, libclang's parse, and the
// defines; the reader of cursors is kernel_reader (reader.cppm), clang as a child process clang_process.cpp.
module;
#include <algorithm>
#include <cctype>
#include <array>
#include <charconv>
#include <csignal>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <clang-c/Index.h>
#include <dlfcn.h>

#include "libclang_functions.h"
module hml.c_kernel;
import :reader;
import hml.spelling;  // code_point_text

namespace hml {

namespace c_reader {

namespace {

// Each function of the table resolved by its name.
libclang_api load_libclang() {
  // The library CMake found at build time first, then the names Debian's runtime package installs.
  constexpr std::array<const char*, 4> candidates{HML_LIBCLANG_PATH, "libclang-19.so.1", "libclang-19.so.19", "libclang.so"};
  void* library = detail::open_library(candidates, "clang_createIndex",
                                       "reading a kernel in C needs libclang (Debian's libclang1-19; ./lab setup installs it)");
  libclang_api api;
#define HML_LIBCLANG_RESOLVE(name)                                                                  \
  api.name = reinterpret_cast<decltype(api.name)>(dlsym(library, "clang_" #name));                  \
  if (api.name == nullptr) detail::refuse("libclang has no clang_" #name ": libclang 17 or newer is needed");
  HML_LIBCLANG_FUNCTIONS(HML_LIBCLANG_RESOLVE)
#undef HML_LIBCLANG_RESOLVE
  return api;  // the library stays open: the process reads kernels until it ends
}

}  // namespace

const libclang_api& clang() {
  static const libclang_api api = load_libclang();
  return api;
}

}  // namespace c_reader

namespace {

using c_reader::children;
using c_reader::clang;
using c_reader::kernel_reader;
using c_reader::kind_of;
using c_reader::largest_number;
using c_reader::line_of;
using c_reader::text_of;
using detail::clang_exit;
using detail::refuse;
using detail::run_clang;
using detail::unnamed_file;

struct index_deleter {
  void operator()(void* index) const { clang().disposeIndex(index); }
};
struct unit_deleter {
  void operator()(CXTranslationUnit unit) const { clang().disposeTranslationUnit(unit); }
};

// A character of an identifier or a number (the C words the checks below step over whole).
bool is_word(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_'; }

std::string quoted_name(std::string_view message) {
  const std::size_t open = message.find('\'');
  const std::size_t close = open == std::string_view::npos ? open : message.find('\'', open + 1);
  return close == std::string_view::npos ? std::string{} : std::string{message.substr(open + 1, close - open - 1)};
}

// Whether `source` has a `#define NAME` line (its value aside; one #undef'd after is not told apart).
bool defines_name(std::string_view source, std::string_view name) {
  for (std::size_t at = source.find("define"); at != std::string_view::npos; at = source.find("define", at + 1)) {
    const std::size_t hash = source.find_last_not_of(" \t", at == 0 ? 0 : at - 1);
    if (at == 0 || hash == std::string_view::npos || source[hash] != '#') continue;
    // The directive opens its line (a `// #define N` in a comment is none).
    const std::size_t before = hash == 0 ? std::string_view::npos : source.find_last_not_of(" \t", hash - 1);
    if (before != std::string_view::npos && source[before] != '\n') continue;
    const std::size_t start = source.find_first_not_of(" \t", at + 6);
    if (start == at + 6 || start == std::string_view::npos || !source.substr(start).starts_with(name)) continue;
    if (start + name.size() == source.size() || !is_word(source[start + name.size()])) return true;
  }
  return false;
}

// The code of the line that starts at `start` (a line's first character): its characters outside // and /* */
// comments, read from the file's start (a comment begun lines before is one; one in a string literal too).
std::string code_on_line(std::string_view source, std::size_t start) {
  std::string code;
  bool in_comment = false;
  const std::size_t end = std::min(source.find('\n', start), source.size());
  for (std::size_t i = 0; i < end; ++i) {
    if (in_comment) {
      if (source.compare(i, 2, "*/") != 0) continue;
      in_comment = false;
      ++i;
    } else if (source.compare(i, 2, "/*") == 0) {
      in_comment = true;
      ++i;
    } else if (source.compare(i, 2, "//") == 0) {
      if (i >= start) break;
      i = source.find('\n', i);  // the comment's own line, which ends before `start`
      if (i == std::string_view::npos) break;
    } else if (i >= start) {
      code += source[i];
    }
  }
  return code;
}

// The first error clang reports, as one line, in the reader's words where it has them: a name it does not
// know is one to give with -D, an #include one the kernel cannot have, a define the file makes again a
// c_define_error.
std::string first_error(CXTranslationUnit unit, std::string_view source, std::string_view file, unsigned file_lines,
                        std::span<const c_define> defines) {
  for (unsigned i = 0, n = clang().getNumDiagnostics(unit); i < n; ++i) {
    const CXDiagnostic d = clang().getDiagnostic(unit, i);
    const CXDiagnosticSeverity severity = clang().getDiagnosticSeverity(d);
    std::string message = text_of(clang().getDiagnosticSpelling(d));
    const unsigned line = line_of(clang().getDiagnosticLocation(d));
    unsigned offset = 0;
    clang().getExpansionLocation(clang().getDiagnosticLocation(d), nullptr, nullptr, nullptr, &offset);
    clang().disposeDiagnostic(d);
    if (severity < CXDiagnostic_Error) continue;
    // Past the file's lines is the function hml closes around it: the file ended before its C did.
    const bool at_the_end = line > file_lines;
    const std::string where = std::string{file} + ":" + std::to_string(at_the_end ? file_lines : line);
    if (message.ends_with("' macro redefined")) {
      const std::string name = quoted_name(message);
      for (const c_define& given : defines)
        if (given.name == name)
          throw c_define_error(detail::one_line(given.name + "=" + std::to_string(given.value) + ": " + where +
                                                " defines " + name + " as well; give its value in one place"));
    }
    if (message.ends_with("file not found")) return where + ": #include is outside the kernel subset; a kernel is one file: write what it needs in it";
    // hml puts the file inside a function of its own: a function the file defines is nested in it.
    if (message == "function definition is not allowed here")
      return where + ": a function in the kernel file; a kernel is the declarations and the loop nest alone, which hml puts in a "
                     "function of its own: write them without a function around them";
    // An extent of a negative size given on the command line: the -D's fault as much as the file's; one the
    // file's arithmetic makes of the -D values (N - 1000 of -D N=999) names those too.
    if (message.ends_with("with a negative size")) {
      const auto negative = std::ranges::find_if(defines, [](const c_define& given) { return given.value < 0; });
      if (negative != defines.end())
        message += " (given -D " + negative->name + "=" + std::to_string(negative->value) + "); give -D " + negative->name + " a size above 0";
      else if (!defines.empty())
        message += " (given " + detail::defines_text(defines) + "); give -D values that make each extent at least 1";
    }
    // C computes a constant in its type: int's M * N past 2^31 wraps, to a size or a bound that is not the one
    // written (clang's "result is 1'000 with type 'int'").
    constexpr std::string_view overflow = "overflow in expression; result is ";
    if (message.starts_with(overflow)) {
      std::string result = message.substr(overflow.size());
      std::erase(result, '\'');
      constexpr std::string_view with_type = " with type ";
      const std::size_t with = result.find(with_type);
      const std::string type = with == std::string::npos ? "its type" : "type " + result.substr(with + with_type.size());
      // A wider type holds it where the type is int's; a long's past 2^63 no C type does.
      const bool widens = type == "type int" || type == "type unsigned int";
      return where + ": a constant expression passes what " + type + " holds, and C wraps it (to " + result.substr(0, with) + ")" +
             (widens ? ": make an operand long, as (long)M * N" : ": the kernel's sizes are below 2^40");
    }
    // clang names the last extent of an array whose size overflows ("array is too large (2 elements)").
    if (message.starts_with("array is too large")) return where + ": an array of more than 2^36 elements; give it smaller extents";
    constexpr std::string_view undeclared = "use of undeclared identifier '";
    if (message.starts_with(undeclared) && message.back() == '\'') {
      const std::string name = message.substr(undeclared.size(), message.size() - undeclared.size() - 1);
      // A name of the C library's types (size_t, int64_t) comes from a header, which a kernel has none of; a
      // subscripted one is an array's, misspelt or not declared (not a size for -D).
      const std::size_t after = source.find_first_not_of(" \t\r\n", std::min<std::size_t>(offset + name.size(), source.size()));
      const bool subscripted = after != std::string_view::npos && source[after] == '[';
      const bool given = std::ranges::any_of(defines, [&](const c_define& d) { return d.name == name; });
      // `#define X X` leaves X a name, and a -D of it would define it twice.
      const bool defined_in_file = defines_name(source, name);
      const std::string shown = message_text(name);  // a name of 100 KB is shown shortened, and the advice kept
      message = std::string{undeclared} + shown + "'";
      // A character outside C's names (a zero-width space, a full-width plus) is no size -D takes either.
      const bool c_name = std::ranges::all_of(name, [](char c) { return is_word(c); });
      message += !c_name ? ": a character outside ASCII's letters, digits and _ (an invisible one, or a look-alike of an "
                           "operator); delete it, or type it in ASCII"
                 : name.ends_with("_t") ? ": a type of the C library's headers, which a kernel does not include; use int, long or unsigned"
                 : subscripted        ? ": no array of that name is declared; declare it (double " + shown + "[N];) or correct the name"
                 : given              ? ", which -D defines: the file undefines it (#undef); leave the #undef out"
                 : defined_in_file    ? ": the file's #define of it gives no number; define it as one (#define " + shown + " 1000)"
                                      : "; define it with -D " + shown + "=VALUE";
    }
    // clang's own message says what is wrong; where is in the file. A character outside C's on the line (a
    // full-width plus after an operand read as "expected ';'") is named beside it, as the cause it likely is.
    if (at_the_end) message += " at the end of the file";
    if (const std::size_t start = source.rfind('\n', std::min<std::size_t>(offset, source.size()) - (offset > 0 ? 1 : 0));
        !at_the_end && offset <= source.size() && message.find("outside ASCII") == std::string::npos) {
      const std::string row = code_on_line(source, start == std::string_view::npos ? 0 : start + 1);
      if (const auto odd = std::ranges::find_if(row, [](char c) { return static_cast<unsigned char>(c) >= 0x80; }); odd != row.end()) {
        const utf8_character c = utf8_character_at(row, static_cast<std::size_t>(odd - row.begin()));
        message += " (the line holds " + code_point_text(c.code) + ", outside C's characters; delete it, or type it in ASCII)";
      }
    }
    return where + ": " + message + (message.find("; ") == std::string::npos ? "; correct the C there" : "");
  }
  return {};
}

// A kernel is C text: a NUL or other control byte (beside tab, line and page breaks) is refused where it is.
void check_characters(std::string_view text, std::string_view file) {
  const auto control = std::find_if(text.begin(), text.end(), [](char c) {
    const auto u = static_cast<unsigned char>(c);
    return (u < 0x20 && c != '\t' && c != '\n' && c != '\v' && c != '\f' && c != '\r') || u == 0x7f;
  });
  if (control == text.end()) return;
  const auto line = 1 + std::count(text.begin(), control, '\n');
  constexpr std::string_view hex = "0123456789abcdef";
  const auto u = static_cast<unsigned char>(*control);
  refuse(std::string{file} + ":" + std::to_string(line) + ": a control byte (0x" + hex[u >> 4] + hex[u & 15] +
         "): a kernel is C text; save it as UTF-8 or ASCII text");
}

// A define whose name the kernel declares (`-D i=5` where the loop counts `for (int i = ...`) would replace
// the declared name with a number, and clang would blame the kernel's line: it is the define's mistake.
void check_defines_not_declared(std::string_view text, std::string_view file, std::span<const c_define> defines) {
  static constexpr std::string_view types[] = {"int", "long", "short", "char", "float", "double", "signed", "unsigned", "size_t"};
  std::string_view previous;  // the word before this one, where only blanks and stars lie between
  std::size_t line = 1;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '\n') ++line;
    if (!is_word(c)) {
      if (c != ' ' && c != '\t' && c != '\n' && c != '*') previous = {};
      continue;
    }
    std::size_t end = i;
    while (end < text.size() && is_word(text[end])) ++end;
    const std::string_view word = text.substr(i, end - i);
    if (std::find(std::begin(types), std::end(types), previous) != std::end(types))
      for (const c_define& d : defines)
        if (d.name == word)
          throw c_define_error(detail::one_line(d.name + "=" + std::to_string(d.value) + ": " + std::string{file} + ":" +
                                                std::to_string(line) + " declares " + d.name +
                                                " itself; -D gives the sizes a kernel names, not its own variables"));
    previous = word;
    i = end - 1;
  }
}

// A kernel's lines are its file's: a #line directive (or GNU's `# 12 "file"` line marker) would make clang
// name other lines in every message, so it is refused where it is.
void check_line_directives(std::string_view text, std::string_view file) {
  std::size_t line = 1;
  for (std::size_t begin = 0; begin < text.size(); ++line) {
    const std::size_t end = std::min(text.find('\n', begin), text.size());
    std::string_view l = text.substr(begin, end - begin);
    begin = end + 1;
    const auto skip_blanks = [&l] {
      while (!l.empty() && (l.front() == ' ' || l.front() == '\t')) l.remove_prefix(1);
    };
    skip_blanks();
    if (!l.starts_with('#')) continue;
    l.remove_prefix(1);
    skip_blanks();
    if (l.starts_with("line") || (!l.empty() && l.front() >= '0' && l.front() <= '9'))
      refuse(std::string{file} + ":" + std::to_string(line) + ": #line is outside the kernel subset: the lines are the file's own; leave it out");
  }
}

// clang's parser recurses once for each operator or parenthesis it nests, and once for each statement one
// holds (a label, a loop or branch without braces), on a thread of 8 MiB: a statement of a few thousand
// (2,000 unary minuses, 800 casts) overflows that stack and ends the process, as do 5,000 nested `for (;;)`,
// 10,000 labels or 20,000 ternaries. A kernel's statement holds tens of operators (kerncraft's
// 3d-long-range.c: 73) and the whole kernel a few loops, so a statement of more than 1,024 operators and
// parentheses, a kernel of more than 4,096 of them (commas, comparisons and ternaries too), one of more
// than 256 loops, branches, labels and ternaries and one of more than 1,024 statements (whose compile would
// take minutes: 32,000 took two) are refused before clang reads them: in the file as written, and in what
// its macros expand to.
constexpr std::size_t most_operators_a_statement = 1024;
constexpr std::size_t most_operators_a_kernel = 4096;
constexpr std::size_t most_nesting_a_kernel = 256;
bool may_hold_directives(std::string_view text);

constexpr std::size_t most_statements_a_kernel = 1024;  // semicolons: declarations, statements, a loop's clauses
void check_statement_sizes(std::string_view text, std::string_view file, bool expanded) {
  std::size_t operators = 0;  // in the statement at hand
  std::size_t all_operators = 0;
  std::size_t nesting = 0;  // loops, branches, labels and ternaries
  std::size_t statements = 0;
  std::size_t line = 1;
  const auto where = [&] { return std::string{file} + ":" + std::to_string(line) + ": "; };
  const auto expansion = [&] { return expanded ? " once its macros are expanded" : ""; };
  const bool pragmas_judged_here = expanded || !may_hold_directives(text);  // see below
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '\n') ++line;
    // The preprocessor's line marker, `# N "file"`: the next line is the file's line N (the kernel's own from
    // the wrapper's #line 1 on), so that what the expansion holds is placed as the file's text is.
    if (expanded && c == '#' && (i == 0 || text[i - 1] == '\n') && text.substr(i).starts_with("# ") && i + 2 < text.size() &&
        std::isdigit(static_cast<unsigned char>(text[i + 2])) != 0) {
      std::size_t next = 0;
      std::from_chars(text.data() + i + 2, text.data() + text.size(), next);
      line = next - 1;  // the marker's own line break counts it
      const std::size_t end = text.find('\n', i);
      if (end == std::string_view::npos) break;
      i = end - 1;
      continue;
    }
    // Comments hold no operators (a banner of dashes or stars is no expression).
    if (c == '/' && i + 1 < text.size() && (text[i + 1] == '/' || text[i + 1] == '*')) {
      const bool block = text[i + 1] == '*';
      const std::size_t end = block ? text.find("*/", i + 2) : text.find('\n', i + 2);
      const std::size_t stop = end == std::string_view::npos ? text.size() : end + (block ? 2 : 0);
      line += static_cast<std::size_t>(std::count(text.begin() + static_cast<std::ptrdiff_t>(i), text.begin() + static_cast<std::ptrdiff_t>(stop), '\n'));
      i = stop - 1;
      continue;
    }
    if (is_word(c)) {  // a word: a loop or branch keyword nests a statement
      std::size_t end = i;
      while (end < text.size() && is_word(text[end])) ++end;
      static constexpr std::string_view nesting_words[] = {"if", "else", "for", "while", "do", "switch", "case", "default", "goto"};
      const std::string_view word = text.substr(i, end - i);
      if (std::find(std::begin(nesting_words), std::end(nesting_words), word) != std::end(nesting_words)) ++nesting;
      // A pragma compiles the loop otherwise (optimize off, unroll, omp, FP_CONTRACT) while the header still
      // says -O3: the in-core time would be another loop's. One the preprocessor drops (#if 0, #ifdef _OPENMP)
      // is none: a kernel with directives is judged once they are expanded (_Pragma is a #pragma then).
      const std::size_t before = text.find_last_not_of(" \t", i == 0 ? 0 : i - 1);
      const bool directive = word == "pragma" && i > 0 && before != std::string_view::npos && text[before] == '#';
      if (pragmas_judged_here && (directive || word == "_Pragma" || word == "__pragma"))
        refuse(where() + "a pragma" + expansion() + ": it changes how clang compiles the loop, which the model then does "
               "not see; leave it out (hml compiles at -O3 for the machine's CPU)");
      i = end - 1;
    } else if (c == ';' || c == '{' || c == '}') {
      operators = 0;
      if (c == ';' && ++statements > most_statements_a_kernel)
        refuse(where() + "more than " + std::to_string(most_statements_a_kernel) + " statements and declarations" +
               expansion() + "; a kernel holds tens");
      continue;
    } else if (c == ':' && i + 1 < text.size() && text[i + 1] == ':') {
      // No C operator; and after a parenthesis, clang 19's parser loops on it forever (the fuzzer's "(::").
      refuse(where() + "'::' is no C operator (C++'s scope, or C23's attribute)" + expansion() +
             "; kerncraft's subset has neither");
    } else if (std::string_view{"()+-*/!~&?:,<>=%^|"}.find(c) != std::string_view::npos) {
      ++operators;
      ++all_operators;
      if (c == '?' || c == ':') ++nesting;  // a ternary's branches, or a label
    }
    if (operators > most_operators_a_statement)
      refuse(where() + "a statement of more than " + std::to_string(most_operators_a_statement) + " operators and parentheses" +
             expansion() + "; a kernel's statements hold tens");
    if (all_operators > most_operators_a_kernel)
      refuse(where() + "more than " + std::to_string(most_operators_a_kernel) + " operators and parentheses in the kernel" +
             expansion() + "; a kernel holds hundreds");
    if (nesting > most_nesting_a_kernel)
      refuse(where() + "more than " + std::to_string(most_nesting_a_kernel) + " loops, branches, labels and ternaries" +
             expansion() + "; a kernel is one loop nest of a few loops");
  }
}

// A define the kernel never names (as a token of its own: not in a comment) is one the user meant for
// another kernel, or misspelt: a c_define_error.
void check_defines_used(CXTranslationUnit unit, const char* virtual_name, std::size_t kernel_begin, std::string_view text,
                        std::span<const c_define> defines, std::string_view file) {
  if (defines.empty()) return;
  const CXFile source = clang().getFile(unit, virtual_name);
  const CXSourceRange kernel = clang().getRange(clang().getLocationForOffset(unit, source, static_cast<unsigned>(kernel_begin)),
                                                clang().getLocationForOffset(unit, source, static_cast<unsigned>(kernel_begin + text.size())));
  CXToken* tokens = nullptr;
  unsigned count = 0;
  clang().tokenize(unit, kernel, &tokens, &count);
  std::vector<bool> named(defines.size(), false);
  for (unsigned t = 0; t < count; ++t) {
    if (clang().getTokenKind(tokens[t]) != CXToken_Identifier) continue;
    const std::string spelling = text_of(clang().getTokenSpelling(unit, tokens[t]));
    for (std::size_t d = 0; d < defines.size(); ++d) named[d] = named[d] || defines[d].name == spelling;
  }
  clang().disposeTokens(unit, tokens, count);
  for (std::size_t d = 0; d < defines.size(); ++d)
    if (!named[d])
      throw c_define_error(detail::one_line(defines[d].name + "=" + std::to_string(defines[d].value) + ": " +
                                            std::string{file} + " never uses " + defines[d].name + "; drop it"));
}

// Whether the text may hold a preprocessor directive: a #, or its digraph or trigraph.
bool may_hold_directives(std::string_view text) {
  return text.find('#') != std::string_view::npos || text.find("%:") != std::string_view::npos ||
         text.find("?\?=") != std::string_view::npos;
}

// What clang's preprocessor may write and take for a kernel's macros: a kernel expands to a few KiB in
// milliseconds, and thirty lines of #define can expand to gigabytes, or to nothing a billion times.
constexpr std::size_t largest_expansion = std::size_t{1} << 20;
constexpr unsigned expansion_seconds = 5;

// The kernel's macros expanded first by a child clang under those limits, so that this process parses only
// a kernel whose expansion is bounded (libclang's own parse has no limit and would take the memory).
void check_expansion(const std::string& source, std::span<const c_define> defines, const unnamed_file& overlay,
                     std::string_view file) {
  const unnamed_file input{source};
  const unnamed_file output;
  // With line markers (no -P): what the expansion refuses is placed at its line of the file.
  std::vector<std::string> arguments{HML_CLANG, "-E", "-x", "c", "-std=c11", "-nostdinc", "-w", "-ivfsoverlay", overlay.path()};
  for (const c_define& d : defines) arguments.push_back(detail::define_argument(d));
  arguments.push_back("-");
  const clang_exit e = run_clang({.arguments = std::move(arguments),
                                  .input = &input,
                                  .output = &output,
                                  .shared = {&overlay},
                                  .largest_file = largest_expansion,
                                  .cpu_seconds = expansion_seconds});
  const std::string name{file};
  if (!e.started)
    refuse(name + ": a kernel with preprocessor directives needs clang (" HML_CLANG
                  "), which cannot be started; ./lab setup installs it");
  if (e.signal == SIGXFSZ)
    refuse(name + ": its macros expand to more than " + std::to_string(largest_expansion >> 20) +
           " MiB of C; a kernel is a few lines");
  if (e.signal == SIGXCPU || e.signal == SIGKILL)
    refuse(name + ": its macros keep clang's preprocessor busy for more than " + std::to_string(expansion_seconds) +
           " s of processor time; a kernel's expand in milliseconds");
  if (e.signal != 0) refuse(name + ": clang's preprocessor was ended by signal " + std::to_string(e.signal));
  check_statement_sizes(output.read(largest_expansion, "clang's preprocessed kernel"), file, true);
}

bool is_identifier(std::string_view s) {
  const auto letter = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; };
  const auto digit = [](char c) { return c >= '0' && c <= '9'; };
  return !s.empty() && letter(s.front()) && std::all_of(s.begin(), s.end(), [&](char c) { return letter(c) || digit(c); });
}

}  // namespace

c_define parse_c_define(std::string_view text) {
  const std::string expected = "'" + message_text(text) +
                               "' is not NAME=VALUE; give a C name and a whole number below 2^40 in magnitude (decimal, "
                               "or 0x hexadecimal and 0 octal as C reads them)";
  const std::size_t equals = text.find('=');
  if (equals == std::string_view::npos || !is_identifier(text.substr(0, equals))) refuse(expected);
  // A keyword defined as a number rewrites the kernel's own code (int=5 turns its declarations into numbers),
  // and `defined` cannot be a macro: either is the -D's fault, not the file's.
  static constexpr std::array<std::string_view, 45> keywords{
      "auto",     "break",    "case",     "char",       "const",    "continue",       "default",  "do",
      "double",   "else",     "enum",     "extern",     "float",    "for",            "goto",     "if",
      "inline",   "int",      "long",     "register",   "restrict", "return",         "short",    "signed",
      "sizeof",   "static",   "struct",   "switch",     "typedef",  "union",          "unsigned", "void",
      "volatile", "while",    "_Alignas", "_Alignof",   "_Atomic",  "_Bool",          "_Complex", "_Generic",
      "_Imaginary", "_Noreturn", "_Static_assert", "_Thread_local", "defined"};
  const std::string_view name = text.substr(0, equals);
  if (std::ranges::find(keywords, name) != keywords.end())
    refuse("'" + message_text(name) + "' is C's own word, not a size the kernel names; -D gives the sizes");
  // The function the kernel is compiled in: defined, it turned the wrapper into a number, and clang's error
  // blamed the file's line 1.
  if (name == detail::kernel_function)
    refuse("'" + message_text(name) + "' names the function hml compiles the kernel in, not a size the kernel names; -D gives the sizes");
  // Names reserved to the implementation (C 7.1.3): the compiler defines them itself (__GNUC__, __x86_64__).
  if (name.starts_with("__") || (name.size() > 1 && name[0] == '_' && std::isupper(static_cast<unsigned char>(name[1])) != 0))
    refuse("'" + message_text(name) + "' is a name C reserves to the compiler (two underscores, or one and a capital), not a size "
           "the kernel names; -D gives the sizes");
  std::string_view digits = text.substr(equals + 1);
  if (digits.starts_with('+'))
    refuse("'" + message_text(text) + "' has a plus sign; write the value without it (" + std::string{name} + "=" +
           message_text(digits.substr(1)) + ")");
  const bool negative = digits.starts_with('-');
  if (negative) digits.remove_prefix(1);
  // As the C preprocessor reads an integer constant: 0x1F is hexadecimal, 010 octal (8), 09 no number.
  int base = 10;
  if (digits.size() > 2 && digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X')) {
    base = 16;
    digits.remove_prefix(2);
  } else if (digits.size() > 1 && digits[0] == '0') {
    base = 8;
    digits.remove_prefix(1);
  }
  const auto digit = [base](char c) -> int {
    const int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : 99;
    return d < base ? d : -1;
  };
  if (digits.empty() || !std::all_of(digits.begin(), digits.end(), [&](char c) { return digit(c) >= 0; })) refuse(expected);
  const std::string too_large =
      "'" + message_text(text) + "' gives a value 2^40 or more in magnitude; give a whole number below 2^40 (1099511627776)";
  if (digits.size() > 16) refuse(too_large);
  std::int64_t value = 0;
  for (const char c : digits)
    if ((value = value * base + digit(c)) >= largest_number) refuse(too_large);
  return {.name = std::string{name}, .value = negative ? -value : value};
}

void check_c_defines(std::span<const c_define> defines) {
  for (std::size_t i = 0; i < defines.size(); ++i)
    for (std::size_t j = 0; j < i; ++j)
      if (defines[j].name == defines[i].name)
        throw c_define_error(defines[i].name + " given twice (" + std::to_string(defines[j].value) + ", then " +
                             std::to_string(defines[i].value) + "); give it once");
}

namespace detail {

std::string one_line(std::string message) {
  for (char& c : message)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = ' ';
  return message;
}

void refuse(std::string message) { throw ecm_file_error(one_line(std::move(message))); }

std::string_view without_byte_order_mark(std::string_view text) noexcept {
  return text.starts_with("\xEF\xBB\xBF") ? text.substr(3) : text;
}

std::string define_argument(const c_define& d) {
  if (!is_identifier(d.name) || d.value <= -largest_number || d.value >= largest_number)
    refuse("-D " + message_text(d.name) + ": not NAME=VALUE; give a C name and a whole number below 2^40 in magnitude");
  return "-D" + d.name + "=" + std::to_string(d.value);
}

parsed_c_kernel parse_c_kernel(std::string_view text, std::string_view file, std::span<const c_define> defines) {
  check_c_defines(defines);
  check_characters(text, file);
  check_defines_not_declared(text, file, defines);
  check_line_directives(text, file);
  check_statement_sizes(text, file, false);
  // kerncraft's kernels are statements, not a function: wrapped in one, as kerncraft wraps them, with the
  // file's own line numbers from its first line on.
  const std::string wrapping = "void " + std::string{kernel_function} + "(void) {\n#line 1\n";
  const std::string source = wrapping + std::string{text} + "\n}\n";
  // clang sees no file system: an overlay that falls through to nothing, so that an #include reads no file
  // (not /etc/passwd, not a FIFO that would block); the reader then names it.
  const unnamed_file overlay{"{'version': 0, 'fallthrough': false, 'roots': []}\n"};
  if (may_hold_directives(text)) check_expansion(source, defines, overlay, file);
  // A call to an undeclared function is left to the reader, which names it, rather than clang's C99 error;
  // a define the file makes again is an error (clang's warnings are not read).
  std::vector<std::string> arguments{"-x", "c", "-std=c11", "-nostdinc", "-ferror-limit=1",
                                     "-Wno-error=implicit-function-declaration", "-Werror=macro-redefined",
                                     "-Werror=integer-overflow",
                                     "-ivfsoverlay", overlay.path()};
  for (const c_define& d : defines) arguments.push_back(define_argument(d));
  std::vector<const char*> argv;
  for (const std::string& a : arguments) argv.push_back(a.c_str());

  constexpr const char* virtual_name = "kernel.c";
  CXUnsavedFile unsaved{virtual_name, source.data(), static_cast<unsigned long>(source.size())};
  const std::unique_ptr<void, index_deleter> index{clang().createIndex(0, 0)};
  CXTranslationUnit raw = nullptr;
  const CXErrorCode parsed = clang().parseTranslationUnit2(index.get(), virtual_name, argv.data(), static_cast<int>(argv.size()),
                                                         &unsaved, 1, CXTranslationUnit_None, &raw);
  const std::unique_ptr<CXTranslationUnitImpl, unit_deleter> unit{raw};
  if (parsed != CXError_Success || !unit)
    refuse(std::string{file} + ": clang could not read it" + (parsed == CXError_Crashed ? " (clang crashed)" : ""));
  // Lines as clang counts them: a line feed, a carriage return and line feed, or a carriage return alone.
  std::size_t breaks = 0;
  for (std::size_t i = 0; i < text.size(); ++i)
    if (text[i] == '\n' || (text[i] == '\r' && (i + 1 == text.size() || text[i + 1] != '\n'))) ++breaks;
  const bool ends_a_line = !text.empty() && (text.back() == '\n' || text.back() == '\r');
  const auto file_lines = static_cast<unsigned>(breaks + (ends_a_line || text.empty() ? 0 : 1));
  if (const std::string error = first_error(unit.get(), source, file, std::max(file_lines, 1U), defines); !error.empty()) refuse(error);
  check_defines_used(unit.get(), virtual_name, wrapping.size(), text, defines, file);

  std::vector<std::string> zero_defines;
  for (const c_define& d : defines)
    if (d.value == 0) zero_defines.push_back(d.name);
  kernel_reader reader{file, unit.get(), std::move(zero_defines), defines.empty() ? std::string{} : detail::defines_text(defines)};
  CXCursor kernel_body = clang().getNullCursor();
  for (const CXCursor c : children(clang().getTranslationUnitCursor(unit.get()))) {
    if (!clang().Location_isFromMainFile(clang().getCursorLocation(c))) continue;
    if (kind_of(c) >= CXCursor_FirstPreprocessing && kind_of(c) <= CXCursor_LastPreprocessing) continue;
    const bool wrapper = kind_of(c) == CXCursor_FunctionDecl && text_of(clang().getCursorSpelling(c)) == kernel_function &&
                         clang().Cursor_isNull(kernel_body);
    if (!wrapper)
      refuse(std::string{file} + ":" + std::to_string(line_of(clang().getCursorLocation(c))) +
             ": a declaration outside the kernel's statements; declare it before the loop nest");
    for (const CXCursor part : children(c))
      if (kind_of(part) == CXCursor_CompoundStmt) kernel_body = part;
  }
  if (clang().Cursor_isNull(kernel_body)) refuse(std::string{file} + ": clang found no statements");
  reader.read_statements(kernel_body);
  if (reader.loop_begin() < wrapping.size() || reader.loop_begin() > wrapping.size() + text.size())
    refuse(std::string{file} + ": the loop nest is not where the file writes it (a macro?): write its for loops out");
  parsed_c_kernel kernel{.storage = std::make_unique<loaded_kernel::storage>(),
                         .loop_begin = reader.loop_begin() - wrapping.size(),
                         .declared_names = reader.declared_names()};
  reader.fill(*kernel.storage);
  return kernel;
}

}  // namespace detail

loaded_kernel read_kernel_c(std::string_view text, std::string_view file, std::span<const c_define> defines) {
  return loaded_kernel{detail::parse_c_kernel(detail::without_byte_order_mark(text), file, defines).storage};
}

}  // namespace hml
