// hml.spelling's look-alike keys, on ICU's spoof checker: Unicode's table of characters drawn alike (its
// confusables, thousands of them, kept with each Unicode release) is ICU's to keep, not this library's.
module;
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unicode/normalizer2.h>
#include <unicode/uchar.h>
#include <unicode/unistr.h>
#include <unicode/uspoof.h>
module hml.spelling;

namespace hml {
namespace {

struct spoof_checker_closer {
  void operator()(USpoofChecker* checker) const noexcept { uspoof_close(checker); }
};

// One checker for the program: opening it reads ICU's tables; a skeleton only reads the checker, which ICU
// allows from several threads at once. Null where ICU cannot open it (its data missing).
const USpoofChecker* spoof_checker() {
  static const std::unique_ptr<USpoofChecker, spoof_checker_closer> checker = [] {
    UErrorCode status = U_ZERO_ERROR;
    std::unique_ptr<USpoofChecker, spoof_checker_closer> opened{uspoof_open(&status)};
    return U_SUCCESS(status) ? std::move(opened) : nullptr;
  }();
  return checker.get();
}

bool is_utf8(std::string_view text) {
  for (std::size_t i = 0; i < text.size(); i += utf8_character_at(text, i).length)
    if (utf8_character_at(text, i).length == 0) return false;
  return true;
}

// `text` in Unicode's compatibility form (NFKC: a full-width "Ｌ" is "L", "ﬁ" is "fi"); `text` itself where ICU
// cannot.
std::string compatible(const std::string& text) {
  UErrorCode status = U_ZERO_ERROR;
  const icu::Normalizer2* form = icu::Normalizer2::getNFKCInstance(status);
  if (U_FAILURE(status)) return text;
  const icu::UnicodeString normal = form->normalize(icu::UnicodeString::fromUTF8(text), status);
  if (U_FAILURE(status)) return text;
  std::string out;
  normal.toUTF8String(out);
  return out;
}

// `text` without a combining dot above (U+0307) on a letter that has its dot already (Unicode's Soft_Dotted:
// "i", "j"), where it is drawn as that dot: "i\u0307ntel" is "intel" (and "İ" folds to "i\u0307"). Of UTF-8 in
// canonical order, as a skeleton is, so that marks below come before it.
std::string without_dot_on_dotted(const std::string& text) {
  constexpr char32_t dot_above = 0x307;
  std::string out;
  bool dotted = false;  // the last base letter has its dot, and no mark above has come since
  for (std::size_t i = 0; i < text.size();) {
    const utf8_character c = utf8_character_at(text, i);
    const std::size_t length = std::max<std::size_t>(1, c.length);
    const auto code = static_cast<UChar32>(c.code);
    const std::uint8_t combining = c.length == 0 ? 0 : u_getCombiningClass(code);
    if (!(dotted && c.code == dot_above)) out.append(text, i, length);
    if (combining == 0) {
      dotted = c.length != 0 && u_hasBinaryProperty(code, UCHAR_SOFT_DOTTED);
    } else if (combining >= 230) {
      dotted = false;  // a mark above: a dot after it is drawn above the mark
    }
    i += length;
  }
  return out;
}

// UTS #39's skeleton of `text`; `text` itself where ICU cannot make one (a text that is not UTF-8).
std::string skeleton(std::string text) {
  const USpoofChecker* checker = spoof_checker();
  if (checker == nullptr || text.size() > INT32_MAX / 4) return text;
  const auto length = static_cast<int32_t>(text.size());
  std::string out(text.size() * 2 + 8, '\0');
  UErrorCode status = U_ZERO_ERROR;
  int32_t written = uspoof_getSkeletonUTF8(checker, 0, text.data(), length, out.data(), static_cast<int32_t>(out.size()), &status);
  if (status == U_BUFFER_OVERFLOW_ERROR) {
    out.resize(static_cast<std::size_t>(written));
    status = U_ZERO_ERROR;
    written = uspoof_getSkeletonUTF8(checker, 0, text.data(), length, out.data(), written, &status);
  }
  if (U_FAILURE(status)) return text;
  out.resize(static_cast<std::size_t>(written));
  return without_dot_on_dotted(out);
}

// `text` in Unicode's Stream-Safe Text Format (UAX #15): a combining grapheme joiner after every 30 marks in a
// row, as no language needs more. Normalizing sorts a run of marks by their classes, in time that grows as the
// square of the run (a name of 100,000 alternating marks took seconds); in runs of 30 it is linear.
std::string stream_safe(std::string_view text) {
  constexpr std::size_t most_marks = 30;
  std::string out;
  std::size_t marks = 0;
  for (std::size_t i = 0; i < text.size();) {
    const utf8_character c = utf8_character_at(text, i);
    const std::size_t length = std::max<std::size_t>(1, c.length);  // a byte that is no UTF-8 as itself
    marks = c.length != 0 && u_getCombiningClass(static_cast<UChar32>(c.code)) != 0 ? marks + 1 : 0;
    if (marks > most_marks) {
      out += "\u034F";
      marks = 1;
    }
    out.append(text.substr(i, length));
    i += length;
  }
  return out;
}

bool is_ascii(std::string_view text) {
  return std::ranges::all_of(text, [](char c) { return static_cast<unsigned char>(c) < 0x80; });
}

// The capital a small capital is drawn as, by Unicode's names for both ("LATIN LETTER SMALL CAPITAL H" is
// "LATIN CAPITAL LETTER H"), which no case mapping has: small capitals are small letters of no capital.
std::optional<UChar32> capital_of_small_capital(UChar32 c) {
  if (c < 0x80) return std::nullopt;
  char name[128];
  UErrorCode status = U_ZERO_ERROR;
  const int32_t length = u_charName(c, U_UNICODE_CHAR_NAME, name, sizeof name, &status);
  if (U_FAILURE(status) || length <= 0 || length >= static_cast<int32_t>(sizeof name)) return std::nullopt;
  const std::string_view named{name, static_cast<std::size_t>(length)};
  constexpr std::string_view small_capital = " LETTER SMALL CAPITAL ";  // "LATIN", "GREEK", "CYRILLIC" before it
  const std::size_t at = named.find(small_capital);
  if (at == std::string_view::npos) return std::nullopt;
  const std::string capital_name = std::string{named.substr(0, at)} + " CAPITAL LETTER " + std::string{named.substr(at + small_capital.size())};
  status = U_ZERO_ERROR;
  const UChar32 capital = u_charFromName(U_UNICODE_CHAR_NAME, capital_name.c_str(), &status);
  return U_SUCCESS(status) ? std::optional{capital} : std::nullopt;
}

// `text` with each character drawn unlike any ASCII one in the other case `to` makes (Unicode's case fold, "Σ"
// is "σ" and "ß" is "ss"; or the capital, "н" is "Н", and a small capital's, "ʜ" is "H"): one drawn as an
// ASCII character keeps its case for the skeleton to read (a Cyrillic "М" is drawn as "M", its small letter as
// no Latin one). Of UTF-8.
enum class other_case { folded, capital };
std::string cased_where_drawn_unlike_ascii(std::string_view text, other_case to) {
  std::string out;
  for (std::size_t i = 0; i < text.size();) {
    const std::string character{text.substr(i, utf8_character_at(text, i).length)};
    i += character.size();
    icu::UnicodeString letter = icu::UnicodeString::fromUTF8(character);
    // A small capital first: the skeleton draws some as small letters ("ɪ" as "i", where it is drawn as "I").
    if (const std::optional<UChar32> capital = to == other_case::capital ? capital_of_small_capital(letter.char32At(0)) : std::nullopt) {
      icu::UnicodeString{*capital}.toUTF8String(out);
      continue;
    }
    if (is_ascii(character) || is_ascii(skeleton(character))) {
      out += character;
      continue;
    }
    (to == other_case::folded ? letter.foldCase() : letter.toUpper()).toUTF8String(out);
  }
  return out;
}

// `step` of `key` again until the key stands: a character the skeleton draws as another may be one that the
// case changes again ("ʜ" to "н", to "Н", to "H"); a few rounds are all any takes.
template <class Step>
std::string settled(std::string key, Step step) {
  for (int round = 0; round < 4; ++round) {
    std::string next = step(key);
    if (next == key) break;
    key = std::move(next);
  }
  return key;
}

// `key` of `text`, remembered: one file's names are keyed against each other's, entry by entry, and each key
// is passes of ICU's (a file of 256 links with names of 1,500 Greek letters took minutes, every pair keyed
// again). Each thread's own; forgotten past a few megabytes, so that what it holds is bounded too.
template <std::string (*key)(std::string_view)>
std::string remembered(std::string_view text) {
  thread_local std::unordered_map<std::string, std::string> keys;
  thread_local std::size_t held = 0;
  std::string given{text};
  if (const auto known = keys.find(given); known != keys.end()) return known->second;
  std::string made = key(text);
  if (held > std::size_t{8} << 20) {
    keys.clear();
    held = 0;
  }
  held += given.size() + made.size();
  keys.emplace(std::move(given), made);
  return made;
}

std::string either_case_key(std::string_view text) {
  // The skeleton is of one case ("I" is drawn as "l", "i" as itself; a Cyrillic "М" as "M", "m" as "rn"): the
  // ASCII letters are made small first, and again after, until the key stands. A letter drawn as no ASCII one
  // is case-folded before the skeleton reads it ("Σ" as "σ", which is drawn as "o"); one drawn as an ASCII
  // letter is read in its own case (a Greek "Β" is "B", so "b", while "β" is drawn as "ß": two letters here).
  std::string key = printed_alike(text);
  if (!is_utf8(key)) return ascii_lowercase(key);
  return settled(ascii_lowercase(compatible(stream_safe(key))), [](const std::string& k) {
    return ascii_lowercase(skeleton(cased_where_drawn_unlike_ascii(k, other_case::folded)));
  });
}

// either_case_key of the text's small letters, Unicode's full case fold ("ΙNTEL" with a Greek iota is
// "ιntel", drawn as "intel").
std::string folded_key(std::string_view text) {
  if (!is_utf8(text)) return either_case_key(text);
  std::string folded;
  icu::UnicodeString::fromUTF8(text).foldCase().toUTF8String(folded);
  return either_case_key(folded);
}

std::string capitals_key(std::string_view text) {
  // The skeleton in the text's own case, a letter it draws unlike ASCII read as its capital first (the
  // skeleton draws a small capital "ᴍ" as "ʍ", which has none), until the key stands; then the ASCII letters
  // small, as options take names.
  std::string key = printed_alike(text);
  if (!is_utf8(key)) return ascii_lowercase(key);
  return ascii_lowercase(settled(compatible(stream_safe(key)),
                                 [](const std::string& k) { return skeleton(cased_where_drawn_unlike_ascii(k, other_case::capital)); }));
}

}  // namespace

std::string look_alike(std::string_view text) {
  std::string seen = printed_alike(text);
  return is_utf8(seen) ? skeleton(compatible(stream_safe(seen))) : seen;
}

std::string look_alike_in_either_case(std::string_view text) { return remembered<either_case_key>(text); }

std::string look_alike_folded(std::string_view text) { return remembered<folded_key>(text); }

std::string look_alike_as_capitals(std::string_view text) { return remembered<capitals_key>(text); }

}  // namespace hml
