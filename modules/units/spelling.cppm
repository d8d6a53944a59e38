// hml.spelling — the names closest to a mistyped one, for the "did you mean ...?" of every message that
// refuses a name: a command, an option, a field of a machine file, a column of a CSV file, a catalog id.
// One distance and one tolerance, so that a slip is offered its name wherever it was made.
module;
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>
export module hml.spelling;
import hml.units;  // is_invisible: a name with a zero-width space is still close to the name

namespace hml::detail {

// Insertions, deletions, substitutions and transpositions of two adjacent characters, each 1
// (Damerau-Levenshtein, optimal string alignment), so that "h100_smx", two letters swapped, is 1 from
// "h100_sxm" as a typo of one key is.
[[nodiscard]] inline std::size_t edit_distance(std::string_view a, std::string_view b) {
  // Three rows of the table: the one before the previous (for a transposition), the previous, this one.
  std::vector<std::size_t> before(b.size() + 1), previous(b.size() + 1), row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) previous[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      row[j] = std::min({previous[j] + 1, row[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) row[j] = std::min(row[j], before[j - 2] + 1);
    }
    std::swap(before, previous);
    std::swap(previous, row);
  }
  return previous[b.size()];
}

}  // namespace hml::detail

export namespace hml {

// `text` with its ASCII capitals made small, as names, file extensions and units are compared in either case.
[[nodiscard]] inline std::string ascii_lowercase(std::string_view text) {
  std::string folded{text};
  for (char& c : folded) c = c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
  return folded;
}

// The edits within which a name of `length` characters reads as a slip of another: a quarter of it, at
// least one.
[[nodiscard]] constexpr std::size_t typo_tolerance(std::size_t length) noexcept {
  return std::max<std::size_t>(1, length / 4);
}

// `text` without the characters drawn as nothing ("cores\u200b" is "cores" to the eye, and so to a reader's
// "did you mean").
[[nodiscard]] inline std::string without_invisible(std::string_view text) {
  std::string seen;
  for (std::size_t i = 0; i < text.size();) {
    const utf8_character c = utf8_character_at(text, i);
    const std::size_t length = c.length == 0 ? 1 : c.length;
    if (c.length == 0 || !is_invisible(c.code)) seen.append(text.substr(i, length));
    i += length;
  }
  return seen;
}

// A name as it prints: a character drawn as a plain space (a no-break space) as a space, one drawn as nothing
// (a zero-width space, a soft hyphen) left out, a hyphen as '-', runs of spaces as one, and none at either end.
// Two names equal so are one to a reader ("L 1", "L\u00a01", "L  1 ", "L \u200b1"), whatever their bytes.
[[nodiscard]] inline std::string printed_alike(std::string_view text) {
  std::string seen;
  bool space = false;
  for (std::size_t i = 0; i < text.size();) {
    const utf8_character c = utf8_character_at(text, i);
    const std::size_t length = c.length == 0 ? 1 : c.length;
    if (c.length > 0 && (c.code == ' ' || c.code == '\t' || is_space_like(c.code))) {
      space = true;
    } else if (c.length == 0 || !is_invisible(c.code)) {
      if (space && !seen.empty()) seen += ' ';
      space = false;
      const bool hyphen = c.length > 0 && (c.code == 0x2010 || c.code == 0x2011);  // U+2010, U+2011: '-' as drawn
      seen.append(hyphen ? std::string_view{"-"} : text.substr(i, length));
    }
    i += length;
  }
  return seen;
}

// The key by which two names are one to a reader: printed_alike's form with each character as the one it is
// drawn like (Unicode's compatibility form and confusables, NFKC and the skeleton of UTS #39, by ICU):
// "TensorRT" with a Cyrillic "е", "ＨBM" in full width and "HBM" are one. A key to compare names by, never a
// text to show: it draws "1" as "l", "m" as "rn". Of a text that is not UTF-8, printed_alike's form.
[[nodiscard]] std::string look_alike(std::string_view text);

// A code point as Unicode writes it, "U+" and four hexadecimal digits at least: U+00E9, U+FF0B, U+1F600.
[[nodiscard]] inline std::string code_point_text(char32_t code) {
  const auto value = static_cast<std::uint32_t>(code);
  std::string hex = "U+";
  int shift = 12;
  while (shift < 28 && value >> (shift + 4) != 0) shift += 4;
  for (; shift >= 0; shift -= 4) hex += "0123456789ABCDEF"[(value >> shift) & 0xF];
  return hex;
}

// Where two names differ, for a message that shows two that look alike: "character 3 is U+004D in one,
// U+041C in the other" ("the end" where one is shorter); empty where they are one text.
[[nodiscard]] inline std::string first_difference(std::string_view a, std::string_view b) {
  const auto code_point = [](std::string_view text, std::size_t i) {
    if (i >= text.size()) return std::string{"the end"};
    const utf8_character c = utf8_character_at(text, i);
    if (c.length == 0) return "byte 0x" + code_point_text(static_cast<unsigned char>(text[i])).substr(4);
    return code_point_text(c.code);
  };
  std::size_t i = 0;
  std::size_t j = 0;
  for (std::size_t character = 1; i < a.size() || j < b.size(); ++character) {
    const std::size_t length_a = i < a.size() ? std::max<std::size_t>(1, utf8_character_at(a, i).length) : 0;
    const std::size_t length_b = j < b.size() ? std::max<std::size_t>(1, utf8_character_at(b, j).length) : 0;
    if (a.substr(i, length_a) != b.substr(j, length_b))
      return "character " + std::to_string(character) + " is " + code_point(a, i) + " in one, " + code_point(b, j) + " in the other";
    i += length_a;
    j += length_b;
  }
  return {};
}

// look_alike's key, letters in either case one: "MI300X" and "mi300x", a capital Cyrillic "М" and "m", "ΣΣ"
// and "σσ". A capital drawn as a Latin letter is that letter, whatever its small one looks like (a Greek "Β"
// is "b"; "β" is drawn as "ß").
[[nodiscard]] std::string look_alike_in_either_case(std::string_view text);

// look_alike_in_either_case of the text's small letters (Unicode's full case fold): "ΙNTEL" with a Greek iota,
// drawn as "INTEL", is "intel" this way (its iota as "ι"), and "ΑΘΗΝΑ" is "αθηνα". Two keys, as a capital and
// its small letter may each look like a Latin letter of their own (a Cyrillic "М" like "M", "м" like none):
// two names are one where either key is (hml::alike_keys).
[[nodiscard]] std::string look_alike_folded(std::string_view text);

// look_alike's key in its own case but with each letter drawn unlike any ASCII one read as its capital, ASCII
// letters made small at the end: "INTEL" and "lNTEL" are one this way (a capital "I" is drawn as "l", where
// either-case keys make it "i"), and so are "HBM" and small capitals "ʜʙᴍ" or Cyrillic "нвм", drawn as the
// capitals of "НВМ". A third of hml::alike_keys.
[[nodiscard]] std::string look_alike_as_capitals(std::string_view text);

// The edit distance of `typed` from `name` with letters compared in either case and invisible characters left
// out, a name that differs in case or in them alone one edit from it ("TTFT" for ttft, "FLOPs" for flops: a
// whole word in capitals is one slip, not four); or past the tolerance where their lengths alone are further
// apart than it: a megabyte of name cannot be close, and its distances would take seconds.
[[nodiscard]] inline std::size_t typo_distance(std::string_view typed, std::string_view name) {
  const std::string seen = without_invisible(typed);
  const std::size_t apart = std::max(seen.size(), name.size()) - std::min(seen.size(), name.size());
  if (apart > typo_tolerance(seen.size())) return apart;
  const std::size_t folded = detail::edit_distance(ascii_lowercase(seen), ascii_lowercase(name));
  return folded == 0 && typed != name ? 1 : folded;
}

// Up to `count` of `known` within the typo tolerance of `typed`, closest first and in list order at one
// distance. None for a word of fewer than three characters: one edit from "-x" is every short option.
[[nodiscard]] inline std::vector<std::string_view> closest_spellings(std::string_view typed,
                                                                     std::span<const std::string_view> known,
                                                                     std::size_t count = 2) {
  // (distance, more than the case differs, position in the list): at one distance, a name that differs in
  // case alone is the closer ("Cores" is one slip from core and from cores: cores comes first).
  std::vector<std::tuple<std::size_t, bool, std::size_t>> ranked;
  const std::string folded = ascii_lowercase(without_invisible(typed));
  for (std::size_t i = 0; i < known.size(); ++i) {
    const std::size_t distance = typo_distance(typed, known[i]);
    const bool case_alone = folded == ascii_lowercase(known[i]);
    // A short word is one edit from every short name; in other capitals alone it is still that name (--TP).
    const bool close = folded.size() >= 3 ? distance <= typo_tolerance(folded.size()) : case_alone;
    if (distance > 0 && close) ranked.emplace_back(distance, !case_alone, i);
  }
  std::ranges::sort(ranked);
  std::vector<std::string_view> names;
  for (std::size_t i = 0; i < ranked.size() && names.size() < count; ++i) names.push_back(known[std::get<2>(ranked[i])]);
  return names;
}

// "did you mean bandwidth?", "did you mean --peak or --peaks?" (`shown_as` "--" before names compared
// without their dashes), or nothing where no name is close.
[[nodiscard]] inline std::string did_you_mean(std::string_view typed, std::span<const std::string_view> known,
                                              std::string_view shown_as = {}) {
  const std::vector<std::string_view> names = closest_spellings(typed, known);
  std::string text;
  for (std::size_t i = 0; i < names.size(); ++i) {
    text += (i == 0 ? "did you mean " : i + 1 == names.size() ? " or " : ", ") + std::string{shown_as} +
            std::string{names[i]};
  }
  return text.empty() ? text : text + "?";
}

// A value that is none of a field's or an option's choices, `shown` as the message quotes it: "'Random' is
// not one of sequential, random; did you mean random?", or "...; write one of them" (`verb` "write" for a file,
// "give" for an option) where none is close.
[[nodiscard]] inline std::string not_one_of(std::string_view given, std::string_view shown, std::span<const std::string_view> known,
                                            std::string_view verb) {
  std::string choices;
  for (std::string_view name : known) choices += (choices.empty() ? "" : ", ") + std::string{name};
  const std::string close = did_you_mean(given, known);
  return std::string{shown} + " is not one of " + choices + "; " + (close.empty() ? std::string{verb} + " one of them" : close);
}

// What a reader says of a name it does not know: the close ones, or else every name it knows
// ("did you mean bandwidth?", "expected one of name, capacity, bandwidth").
[[nodiscard]] inline std::string spelling_hint(std::string_view typed, std::span<const std::string_view> known) {
  if (std::string close = did_you_mean(typed, known); !close.empty()) return close;
  std::string all;
  for (std::string_view name : known) all += (all.empty() ? "expected one of " : ", ") + std::string{name};
  return all;
}

}  // namespace hml
