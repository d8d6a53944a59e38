// hml.spelling's look-alike keys, on ICU's spoof checker: Unicode's table of characters drawn alike (its
// confusables, thousands of them, kept with each Unicode release) is ICU's to keep, not this library's.
module;
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unicode/normalizer2.h>
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
  return out;
}

}  // namespace

std::string look_alike(std::string_view text) {
  std::string seen = printed_alike(text);
  return is_utf8(seen) ? skeleton(compatible(seen)) : seen;
}

std::string look_alike_in_either_case(std::string_view text) {
  // The skeleton is of one case ("I" is drawn as "l", "i" as itself; a Cyrillic "М" as "M", "m" as "rn"): the
  // letters are made small first, and again after, until the key stands (twice at most: the skeleton's
  // capitals are ASCII, whose small letters' skeletons are small). In ASCII, as options take names: a small
  // Cyrillic "м" is drawn as no "m".
  std::string key = printed_alike(text);
  if (!is_utf8(key)) return ascii_lowercase(key);
  key = ascii_lowercase(compatible(key));
  for (int round = 0; round < 3; ++round) {
    std::string next = ascii_lowercase(skeleton(key));
    if (next == key) break;
    key = std::move(next);
  }
  return key;
}

}  // namespace hml
