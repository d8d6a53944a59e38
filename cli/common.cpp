// What every subcommand shares: an error is one line and status 2, notes are said once, options are checked
// one way (whole numbers, finite numbers, plain numbers, strict flags), and CLI11's parse errors are put in
// the user's words.
#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <exception>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <ranges>
#include <regex>
#include <string>
#include <string_view>
#include <utility>
#include <vector>
#include <CLI/CLI.hpp>
#include <unistd.h>

#include "common.hpp"

namespace hml_cli {

namespace {
std::vector<std::string> pending_notes;
}  // namespace

// A note said once: a run that reads the same machine or link many times (hml llm --compare) says it once.
void note(std::string line) {
  if (std::find(pending_notes.begin(), pending_notes.end(), line) == pending_notes.end()) pending_notes.push_back(std::move(line));
}

void note_file_passed_over(std::string_view option, std::string_view name, std::string_view whose, const std::filesystem::path& folder) {
  std::error_code unreadable;  // a name too long for a path is none
  const std::filesystem::file_status status = std::filesystem::status(folder / std::filesystem::path{name}, unreadable);
  // A folder of that name is no file the option could read.
  if (name.find('/') != std::string_view::npos || !std::filesystem::exists(status) || std::filesystem::is_directory(status)) return;
  const std::string shown = hml::message_text(name);
  const auto quoted = [&](const std::string& text) { return name.find(' ') != std::string_view::npos ? "'" + text + "'" : text; };
  note(std::string{option} + " " + quoted(shown) + " is " + std::string{whose} + "; a file of that name lies " +
       (folder.empty() ? std::string{"here"} : "in " + hml::message_text(folder.string())) + " too: give " + quoted("./" + shown) +
       " for the file");
}

void print_notes() {
  for (const std::string& line : pending_notes) std::fprintf(stderr, "hml: note: %s\n", line.c_str());
  pending_notes.clear();
}

int fail(std::string_view message) {
  message = hml::without_hml_prefix(message);
  // One line whatever the input held: a field quoted in a message may hold a line break or binary bytes,
  // and may be as long as a record (1 MiB). Cut, it keeps what to do, the part after its last "; ".
  constexpr std::size_t longest = 400;
  const std::size_t advice = message.rfind("; ");
  const std::string_view kept_end =
      message.size() > longest && advice != std::string_view::npos && message.size() - advice < longest / 2 ? message.substr(advice)
                                                                                                           : std::string_view{};
  std::string_view kept = message.substr(0, message.size() > longest ? longest - kept_end.size() : longest);
  // A list cut ends at a whole entry ("mi300a, ..."), not mid-name ("xeon_max_9...").
  if (const std::size_t entry = kept.rfind(", "); message.size() > longest && entry != std::string_view::npos && kept.size() - entry < 40)
    kept = kept.substr(0, entry + 2);
  std::string line;
  hml::append_visible(line, kept, hml::invisible_characters::escaped);
  if (message.size() > longest) line += "...";
  hml::append_visible(line, kept_end, hml::invisible_characters::escaped);
  std::fprintf(stderr, "hml: error: %s\n", line.c_str());
  return 2;
}

namespace {
// Digits without their leading zeros, one kept where all are: "010" is 10 and "000" is 0, in decimal as files
// read them (C's 010 is eight). Not empty.
std::string_view without_leading_zeros(std::string_view digits) {
  return digits.substr(std::min(digits.find_first_not_of('0'), digits.size() - 1));
}

CLI::Validator whole_number_advising(std::uint64_t low, std::uint64_t advised_low, std::uint64_t most) {
  return CLI::Validator(
      [low, advised_low, most](const std::string& text) -> std::string {
        const std::string range = "a whole number from " + std::to_string(advised_low) + " to " + std::to_string(most);
        const std::string shown = "'" + hml::message_text(text) + "'";
        const std::string_view digits = std::string_view{text}.substr(text.starts_with('-') ? 1 : 0);
        if (text.starts_with('+')) return shown + " has a plus sign; write the count without it, " + range;
        if (digits.empty() || digits.find_first_not_of("0123456789") != std::string_view::npos) {
          // 1e9 is whole, written with an exponent: counts are read in digits, as files read them.
          char* end = nullptr;
          const double x = std::strtod(text.c_str(), &end);
          if (end == text.c_str() + text.size() && std::isfinite(x) && x == std::floor(x) && text.find_first_of("eE") != std::string::npos)
            return shown + " is written with an exponent; write a count in digits, " + range;
          return shown + " is not a whole number; give " + range;
        }
        if (text.starts_with('-')) return shown + " has a minus sign; give " + range;
        const std::string_view significant = without_leading_zeros(digits);
        // Past 19 digits it is past any bound (and past what stoull reads).
        const std::uint64_t n = significant.size() <= 19 ? std::stoull(std::string{significant}) : UINT64_MAX;
        if (n < low) return shown + " is below " + std::to_string(low) + "; give " + range;
        if (n > most) return shown + " is above " + std::to_string(most) + "; give " + range;
        return {};
      },
      "");  // no text in --help: the type stays UINT, the bound is in docs/reference/limits.md
}
}  // namespace

CLI::Validator whole_number(std::uint64_t low, std::uint64_t most) { return whole_number_advising(low, low, most); }
CLI::Validator whole_number_checked_later(std::uint64_t advised_low, std::uint64_t most) {
  return whole_number_advising(0, advised_low, most);
}

namespace {
// Not echoed: the text is what cannot be shown; its first offender is, escaped.
std::string unprintable(std::string_view text) { return hml::unprintable_part(text) + "; give printable UTF-8 text"; }
}  // namespace

CLI::Validator printable_text() {
  return CLI::Validator(
      [](const std::string& text) -> std::string {
        return hml::is_printable_utf8(text) ? std::string{} : unprintable(text);
      },
      "");
}

CLI::Validator name_text() {
  return CLI::Validator(
      [](const std::string& text) -> std::string {
        if (hml::is_blank(text)) return "a blank text; give one the output can show";
        if (text.size() > hml::max_name_bytes) return "longer than " + std::to_string(hml::max_name_bytes) + " bytes; shorten it";
        return hml::is_printable_utf8(text) ? std::string{} : unprintable(text);
      },
      "");
}

CLI::Validator finite_number() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        const char* begin = text.c_str();
        char* end = nullptr;
        errno = 0;
        const double x = std::strtod(begin, &end);
        // Not a number at all ("1,5", "1e", a Unicode minus) is not one, where "inf" and "nan" are numbers
        // that are not finite; strtod reads C's hexadecimal forms too ("0x10", "0x1p-1"), which no quantity takes.
        const bool whole_text_read = !text.empty() && end == begin + text.size();
        const std::string decimal = "give a decimal number (digits, a point, an exponent: 0.8, 2.5e-3)";
        const std::string shown = "'" + hml::message_text(text) + "'";
        if (whole_text_read && !std::isfinite(x) && errno != ERANGE) return shown + " is not a finite number; " + decimal;
        if (!whole_text_read || text.find_first_not_of("0123456789.eE+-") != std::string::npos) {
          // "26cy", "0.8 ": a number with a unit or a space after it, which no plain-number option takes.
          const char after = end != begin ? *end : '\0';
          const bool unit_after = std::isalpha(static_cast<unsigned char>(after)) && after != 'e' && after != 'E';
          const bool hexadecimal = text.starts_with("0x") || text.starts_with("0X");
          const bool number_then_more = std::isfinite(x) && !hexadecimal &&
                                        (after == ' ' || after == '\t' || unit_after);
          if (number_then_more) return shown + " has a unit or a space after its number; give the number alone";
          return shown + " is not a decimal number; " + decimal;
        }
        const double magnitude = std::abs(x);
        if (magnitude == 0 && errno != ERANGE) {  // 1e-400 is no zero: strtod's underflow
          text = "0";  // a negative zero is zero (it printed as "-0")
          return {};
        }
        if (errno == 0 && magnitude >= hml::smallest_magnitude && magnitude <= hml::largest_magnitude) return {};
        return shown + " is too " + (magnitude > 1 ? "large" : "small") +
               "; give zero or a magnitude from 1e-30 to 1e30 (as every figure hml takes)";
      },
      "");
}

constexpr std::string_view bounded_name = "bounded plain number";

CLI::Validator bounded_by(void (*validate)(double)) {
  const CLI::Validator plain = finite_number();
  CLI::Validator bounded(
      [validate, plain](std::string& text) -> std::string {
        char* end = nullptr;
        errno = 0;
        const double x = std::strtod(text.c_str(), &end);
        // A decimal number, finite or past a double's range (1e400), held to the rule; "inf", "nan", " 2",
        // 0x10 and what is no number are finite_number's to say, whatever their value.
        const bool decimal = !text.empty() && text.find_first_not_of("0123456789.eE+-") == std::string::npos;  // no space, no 0x
        if (decimal && end == text.c_str() + text.size() && (std::isfinite(x) || errno == ERANGE)) {
          try {
            validate(x);
          } catch (const std::invalid_argument& e) {
            return std::string{hml::without_hml_prefix(e.what())};
          }
        }
        return plain(text);
      },
      "");
  bounded.name(std::string{bounded_name});
  return bounded;
}

namespace {
template <class Visit>
void for_each_option(CLI::App& hml, Visit visit) {
  for (CLI::App* command : hml.get_subcommands([](CLI::App*) { return true; })) {
    for (CLI::Option* option : command->get_options()) visit(*option);
  }
}

// The command argv names (hml COMMAND ...), or nullptr.
const CLI::App* command_given(const CLI::App& hml, int argc, const char* const* argv) {
  const auto named = hml.get_subcommands([&](const CLI::App* c) { return argc > 1 && c->get_name() == argv[1]; });
  return named.empty() ? nullptr : named.front();
}
}  // namespace

namespace {
CLI::Validator decimal_count() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        if (!text.empty() && text.find_first_not_of("0123456789") == std::string::npos) text = std::string{without_leading_zeros(text)};
        return {};
      },
      "");
}
}  // namespace

void check_plain_numbers(CLI::App& hml) {
  for_each_option(hml, [](CLI::Option& option) {
    // Transforms, not checks: they write a negative zero as 0, and "010" as 10, before CLI11 converts.
    const std::string type = option.get_type_name();
    const bool bounded = [&] {
      try {
        return option.get_validator(std::string{bounded_name}) != nullptr;
      } catch (const CLI::OptionNotFound&) {
        return false;
      }
    }();
    if (type.starts_with("FLOAT") && !bounded) option.transform(finite_number());
    if (type.starts_with("UINT") || type.starts_with("INT")) option.transform(decimal_count());
  });
}

void strict_flags(CLI::App& hml) {
  for_each_option(hml, [](CLI::Option& option) {
    if (option.get_expected_max() == 0 && !option.get_lnames().empty() && option.get_lnames().front() != "help") {
      option.disable_flag_override()->multi_option_policy(CLI::MultiOptionPolicy::Throw);
    }
  });
}

std::string as_given(const CLI::App& hml, const std::string& message, int argc, const char* const* argv) {
  // Where in argv a name was first typed: --name or --name=VALUE; a short name also as -oVALUE.
  const auto first_typed = [&](const std::string& name) {
    const bool short_name = !name.starts_with("--");
    for (int i = 1; i < argc; ++i) {
      const std::string_view arg = argv[i];
      if (arg == "--") break;
      if (arg == name || (arg.starts_with(name) && arg.size() > name.size() && (short_name || arg[name.size()] == '='))) {
        return i;
      }
    }
    return argc;
  };
  // The names the user typed for `option`, in the order typed.
  const auto typed_names = [&](const CLI::Option& option) {
    std::vector<std::string> aliases;
    for (const std::string& alias : option.get_lnames()) aliases.push_back("--" + alias);
    for (const std::string& alias : option.get_snames()) aliases.push_back("-" + alias);
    std::erase_if(aliases, [&](const std::string& alias) { return first_typed(alias) == argc; });
    std::ranges::sort(aliases, {}, first_typed);
    return aliases;
  };
  // An option the user did not type, with the value it took: "--activations (fp16, the default)".
  const auto with_default = [](const std::string& name, const CLI::Option& option) {
    if (option.get_expected_max() == 0 || option.get_default_str().empty()) return name;
    return name + " (" + option.get_default_str() + ", the default)";
  };
  const CLI::App* command = command_given(hml, argc, argv);
  // The options a message opens with ("--a: ..." or "--a, -o: ..."), each said by the names typed for it:
  // --device where the user typed --device for --machine, "--machine, --device (one option)" where both, and
  // one not typed with its default.
  const std::size_t colon = message.find(": ");
  if (colon == std::string::npos || !message.starts_with("-")) return message;
  std::string said;
  for (std::size_t from = 0; from < colon;) {
    const std::size_t comma = std::min(message.find(", ", from), colon);
    const std::string name = message.substr(from, comma - from);
    if (!name.starts_with("-") || name.find(' ') != std::string::npos) return message;
    const CLI::Option* option = command == nullptr ? nullptr : option_named(*command, name);
    const std::vector<std::string> typed = option == nullptr ? std::vector<std::string>{} : typed_names(*option);
    std::string names = !typed.empty() ? typed.front() : option == nullptr ? name : with_default(name, *option);
    for (std::size_t i = 1; i < typed.size(); ++i) names += ", " + typed[i];
    if (typed.size() > 1) names += " (one option)";
    said += (said.empty() ? "" : ", ") + names;
    from = comma + 2;
  }
  return said + message.substr(colon);
}

bool is_standard_input(std::string_view path) {
  // "-", or a name of descriptor 0 (/dev/stdin, //dev/./stdin, /dev/fd/0, /proc/self/fd/0, a link to one):
  // not a file standard input is redirected from, named as itself, which is read on its own (a runs file's
  // machine h100.yaml was refused as standard input under `< h100.yaml`).
  if (path == "-") return true;
  namespace fs = std::filesystem;
  const std::string own = "/proc/" + std::to_string(::getpid()) + "/fd/0";
  fs::path at{path};
  for (int hops = 0; hops < 40; ++hops) {
    const fs::path plain = at.lexically_normal();
    if (plain == "/dev/stdin" || plain == "/dev/fd/0" || plain == "/proc/self/fd/0" || plain == own) return true;
    std::error_code error;
    if (!fs::is_symlink(fs::symlink_status(at, error))) return false;
    const fs::path to = fs::read_symlink(at, error);
    if (error) return false;
    at = to.is_absolute() ? to : at.parent_path() / to;
  }
  return false;
}

std::string standard_input_taken_twice(int argc, const char* const* argv) {
  // A second reader of a stream found it empty, and of a file (`< m.yaml`, read as /dev/stdin and as -) read
  // one description as two inputs (a machine file as a kernels CSV).
  std::string reader;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    std::string option;
    if (const std::size_t equals = arg.find('='); arg.starts_with("--") && equals != std::string_view::npos &&
                                                  is_standard_input(arg.substr(equals + 1))) {
      option = arg.substr(0, equals);
    } else if (arg.starts_with("-") && arg != "-" && i + 1 < argc && is_standard_input(argv[i + 1])) {
      option = arg;
    }
    // -o - is standard output, and the probe's --save a file it writes.
    if (option.empty() || option == "-o" || option == "--output" || option.starts_with("--save")) continue;
    if (reader == option) return option + ": standard input given twice; it is one input: give the others files";
    if (!reader.empty()) return option + ": standard input is read by " + reader + " already; give one of them a file";
    reader = option;
  }
  return {};
}

namespace {

// What an option takes, as --help shows it, a choice's type left out: SIZE, FILE, {fused,unfused}.
std::string value_shown(std::string type) {
  const std::size_t colon = type.find(":{");
  const bool choice = colon != std::string::npos && colon > 0 && type.ends_with('}') &&
                      std::all_of(type.begin(), type.begin() + static_cast<std::ptrdiff_t>(colon), [](char c) { return c >= 'A' && c <= 'Z'; });
  return choice ? type.substr(colon + 1) : type;
}
std::string value_shown(const CLI::Option& option) { return value_shown(option.get_type_name()); }

bool takes_value(const CLI::Option* option) {
  return option != nullptr && option->get_expected_max() != 0 && !option->get_positional();
}

std::string needs_value(std::string_view name, const CLI::Option& option) {
  return std::string{name} + ": needs a value; give " + std::string{name} + " " + value_shown(option);
}

// '' given apart: a script's unset variable (--link-latency "$LATENCY"), which would read as the option left out.
std::string empty_value(std::string_view name, const CLI::Option& option, const CLI::App& command) {
  return std::string{name} + ": an empty value (an unset variable?); give " + value_shown(option) + " (see `hml " +
         command.get_name() + " --help`)";
}

// The option given `value` in one word, as a value that looks like an option is given: --title=--draft.
std::string in_one_word(const CLI::Option& option, std::string_view value) {
  if (option.get_lnames().empty()) return "-" + option.get_snames().front() + hml::message_text(value);
  return "--" + option.get_lnames().front() + "=" + hml::message_text(value);
}

// A word that is one of `command`'s options, or that starts with two dashes as an option's name does.
bool reads_as_an_option(const CLI::App& command, std::string_view value) {
  return option_named(command, value) != nullptr || (value.starts_with("--") && value.size() > 2);
}

// `name`'s value, the next word, starts with two dashes or is an option: the value was most likely left out,
// and the option's name taken for it. A value that is such a text is given in one word (a file as ./--x),
// as "-- draft --" for a title now must be, which CLI11 took as it was.
std::string value_is_an_option(const CLI::App& command, std::string_view name, const CLI::Option& option,
                               std::string_view value) {
  // "--" after an option is a value to CLI11 only where nothing follows it: before a word it ends the options,
  // and the word would be blamed as a stray one (`--size -- 1MiB`).
  const bool ends_options = value == "--";
  if (!ends_options && !reads_as_an_option(command, value)) return {};
  const bool an_option = option_named(command, value) != nullptr;
  const std::string type = value_shown(option);
  const std::string as_value = type.find("FILE") != std::string::npos ? " (./" + hml::message_text(value) + " for a file of that name)"
                               : type == "TEXT"                         ? " (" + in_one_word(option, value) + " for a text of it)"
                                                                        : "";
  return std::string{name} + ": needs a value (" + type + "), and '" + hml::message_text(value) + "' " +
         (ends_options ? "ends the options" : an_option ? "is an option" : "looks like an option") + "; give " +
         std::string{name} + " " + type + as_value;
}

// A list's empty item (--shares 0.5,,0.5): CLI11 drops it, and the list would be read one item short.
std::string empty_item(std::string_view name, const CLI::Option& option, std::string_view value) {
  const char delimiter = option.get_delimiter();
  if (delimiter == '\0' || value.empty()) return {};
  const bool empty = value.front() == delimiter || value.back() == delimiter ||
                     value.find(std::string(2, delimiter)) != std::string_view::npos;
  if (!empty) return {};
  return std::string{name} + ": an empty item in '" + hml::message_text(value) + "'; give every item, one '" + delimiter +
         "' between two (" + option.get_description() + ")";
}

}  // namespace

std::string not_an_option(const CLI::App& command, std::string_view typed) {
  const std::string name = "hml " + command.get_name();
  const std::vector<const CLI::Option*> options = command.get_options();
  const bool takes_a_file = std::ranges::any_of(options, &CLI::Option::get_positional);  // hml devices NAME|FILE
  const std::string_view word = typed.starts_with("--") ? typed.substr(0, typed.find('=')) : typed;  // --machne=x
  if (word == "--")  // "--=x": no name to cut it at, and "--" alone would read as the end of options
    return "'" + hml::message_text(typed) + "': an option without a name before its '='; see `" + name + " --help`";
  // A real option of other commands is said to be theirs: the closest of this one's would be another option.
  std::string theirs;
  if (const CLI::App* hml = command.get_parent(); hml != nullptr && word.starts_with("-")) {
    for (const CLI::App* other : hml->get_subcommands([](const CLI::App*) { return true; })) {
      if (other != &command && option_named(*other, word) != nullptr)
        theirs += (theirs.empty() ? "`hml " : ", `hml ") + other->get_name() + "`";
    }
  }
  // Else the close ones among this command's options, each by its first name (not an older alias).
  std::vector<std::string> names;
  for (const CLI::Option* option : options) {
    if (!option->get_lnames().empty()) names.push_back(option->get_lnames().front());
  }
  const std::vector<std::string_view> known{names.begin(), names.end()};
  const std::string close = word.starts_with("--") ? hml::did_you_mean(word.substr(2), known, "--") : std::string{};
  return hml::message_text(word) + ": not an option of `" + name + "`" +
         (!theirs.empty() ? " (it is one of " + theirs + "); see `" + name + " --help`"
          : close.empty() ? "; see `" + name + " --help`"
                          : "; " + close) +
         (takes_a_file ? " (a file of that name: ./" + hml::message_text(word) + ")" : "");
}

std::string long_option_with_one_dash(std::string_view program, std::string_view word) {
  return hml::message_text(word) + ": not an option of `" + std::string{program} +
         "`; a long option takes two dashes: did you mean -" + hml::message_text(word) + "?";
}

std::string flag_given_a_value(std::string_view name) {
  return std::string{name} + ": a flag takes no value; give " + std::string{name} + " alone";
}

const CLI::Option* option_named(const CLI::App& command, std::string_view typed) {
  for (const CLI::Option* option : command.get_options()) {
    for (const std::string& alias : option->get_lnames()) {
      if (typed == "--" + alias) return option;
    }
    for (const std::string& alias : option->get_snames()) {
      if (typed == "-" + alias) return option;
    }
  }
  return nullptr;
}

std::string misread_argument(const CLI::App& hml, int argc, const char* const* argv) {
  const CLI::App* given = command_given(hml, argc, argv);
  if (given == nullptr) return {};
  const CLI::App& command = *given;
  for (int i = 2; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "--") break;
    const std::string_view word = arg.substr(0, arg.find('='));
    const CLI::Option* option = option_named(command, word);
    if (arg.starts_with("--")) {
      if (option != nullptr && !takes_value(option) && word.size() < arg.size()) return flag_given_a_value(word);
      if (!takes_value(option)) continue;  // no option: CLI11 says what is wrong
      if (word.size() + 1 == arg.size()) return needs_value(word, *option);  // "--size=" and nothing
      std::string_view value = arg.substr(std::min(word.size() + 1, arg.size()));  // --shares=0.5,0.5
      if (word.size() == arg.size()) {
        if (i + 1 == argc) continue;  // CLI11 says it needs a value
        value = argv[++i];
        if (value.empty()) return empty_value(word, *option, command);
        if (std::string said = value_is_an_option(command, word, *option, value); !said.empty()) return said;
      }
      if (std::string said = empty_item(word, *option, value); !said.empty()) return said;
      continue;
    }
    if (arg.size() < 2 || arg[0] != '-' || std::isalpha(static_cast<unsigned char>(arg[1])) == 0) continue;
    // A long option's name with one dash: -output is no -o with "utput" stuck to it, -hit-rate no -h.
    if (word.size() > 2 && option_named(command, "-" + std::string{word}) != nullptr) {
      return long_option_with_one_dash("hml " + command.get_name(), word);
    }
    const std::string_view name = arg.substr(0, 2);
    option = option_named(command, name);
    if (!takes_value(option)) {  // no short option bundles: -h alone takes none
      if (option != nullptr && arg.size() > 2 && arg[2] == '=') return flag_given_a_value(name);
      if (arg.size() > 2) return not_an_option(command, word);
      continue;
    }
    if (arg.size() == 3 && arg[2] == '=') return needs_value(name, *option);
    if (arg.size() > 3 && arg[2] == '=') {
      const std::string_view value = arg.substr(3);
      // Apart, a value that is an option's name would be refused as such: then only the one-word form.
      const bool reads_apart = !reads_as_an_option(command, value);
      const std::string apart = reads_apart ? std::string{name} + " " + hml::message_text(value) + " (or " : "";
      return std::string{name} + ": a short option's value follows a space, not '=': " + apart + in_one_word(*option, value) +
             (apart.empty() ? "" : ")");
    }
    if (arg.size() == 2 && i + 1 < argc) {  // else -oFILE
      if (*argv[++i] == '\0') return empty_value(name, *option, command);
      if (std::string said = value_is_an_option(command, name, *option, argv[i]); !said.empty()) return said;
    }
  }
  return {};
}

std::string parse_error_message(CLI::App& hml, const CLI::ParseError& error) {
  const std::vector<CLI::App*> ran = hml.get_subcommands();
  const std::string command = ran.empty() ? std::string{"hml"} : "hml " + ran.front()->get_name();
  const std::string help = "see `" + command + " --help`";
  // A word that is no option (a stray "hml", an empty '') is quoted, so that it shows whatever it is.
  // `hml devices` takes one NAME: a second is one too many, not a misspelt option.
  const std::vector<const CLI::Option*> options =
      ran.empty() ? std::vector<const CLI::Option*>{} : std::as_const(*ran.front()).get_options();
  const auto positional = std::ranges::find_if(options, &CLI::Option::get_positional);
  const std::string takes = positional == options.end() ? "options only" : "one " + (*positional)->get_name() + " and options";
  const auto stray = [&](const std::string& words) {
    if (positional != options.end()) {
      return "'" + words + "': `" + command + "` takes " + takes + "; give one " + (*positional)->get_name() + " (" + help + ")";
    }
    return "'" + words + "': not an option of `" + command + "`, which takes options only; " + help;
  };
  for (const CLI::App* c : ran) {
    if (const std::vector<std::string> extra = c->remaining(); !extra.empty()) {
      if (extra.front().starts_with("-") && extra.front() != "-") return not_an_option(*c, extra.front());
      return stray(extra.front());
    }
  }
  // std::regex recurses once a character (a value of 25,000 bytes quoted in CLI11's message overflowed the
  // stack): a long word is shown shortened, as every message quotes one, and the message cut (many words after
  // --) before it is matched.
  std::string message;
  for (const auto& word : std::views::split(std::string_view{error.what()}, ' ')) {
    const std::string_view text{word.begin(), word.end()};
    message += (message.empty() ? "" : " ") + (text.size() > 256 ? hml::message_text(text) : std::string{text});
  }
  message.resize(std::min<std::size_t>(message.size(), 2048));
  if (ran.empty() && message == "A subcommand is required") return "no command given: hml COMMAND [OPTIONS]; " + help;
  const auto type_of = [&](const std::string& name) {
    const CLI::Option* option = ran.empty() ? nullptr : ran.front()->get_option_no_throw(name);
    return option == nullptr ? std::string{} : " " + option->get_type_name();
  };
  std::smatch m;
  if (std::regex_match(message, m, std::regex{"(\\S+) is required"})) {
    return m.str(1) + ": missing; give " + m.str(1) + type_of(m.str(1)) + " (" + help + ")";
  }
  if (std::regex_match(message, m, std::regex{"Could not convert: (\\S+) = (.*)"})) {
    return m.str(1) + ": cannot read '" + m.str(2) + "' as" + type_of(m.str(1)) + "; " + help;
  }
  if (std::regex_match(message, m, std::regex{"(\\S+) requires (\\S+)"})) {
    return m.str(1) + ": needs " + m.str(2) + " too; give both, or neither";
  }
  if (std::regex_match(message, m, std::regex{"(\\S+) excludes (\\S+)"})) {
    return m.str(1) + ", " + m.str(2) + ": not together; give one of them";
  }
  if (std::regex_match(message, m, std::regex{"(\\S+) was given a disallowed flag override"})) {
    return flag_given_a_value("--" + m.str(1));
  }
  if (std::regex_match(message, m, std::regex{"(\\S+): At Most 1 required but received (\\d+)"})) {
    return m.str(1) + ": given " + m.str(2) + " times; give it once";
  }
  if (std::regex_match(message, m, std::regex{"(\\S+): (.*) not in \\{(.*)\\}"})) {
    const std::string listed = m.str(3);
    std::vector<std::string_view> names;
    for (const auto& name : std::views::split(std::string_view{listed}, ',')) names.emplace_back(name.begin(), name.end());
    return m.str(1) + ": " + hml::not_one_of(m.str(2), "'" + m.str(2) + "'", names, "give");
  }
  if (std::regex_match(message, m, std::regex{"(\\S+): \\d+ required (\\S+) missing"})) {
    return m.str(1) + ": needs a value; give " + m.str(1) + " " + value_shown(m.str(2));
  }
  // Words after `--` (CLI11 lists them last first).
  if (std::regex_match(message, m, std::regex{"The following arguments? (?:was|were) not expected: (.*)"})) {
    const std::regex space{" "};
    std::vector<std::string> words;
    for (std::sregex_token_iterator w{m[1].first, m[1].second, space, -1}, end; w != end; ++w) words.push_back(*w);
    std::string given;
    for (auto w = words.rbegin(); w != words.rend(); ++w) given += (given.empty() ? "" : " ") + *w;
    return "'" + given + "' after --: `" + command + "` takes " + takes + "; drop the -- (" + help + ")";
  }
  if (std::regex_match(message, m, std::regex{"-\\S+: .*; .*"})) return message;  // hml's own checks on an option's text
  return message + "; " + help;
}

}  // namespace hml_cli
