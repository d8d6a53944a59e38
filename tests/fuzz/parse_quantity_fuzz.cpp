// libFuzzer target: hml::parse of every quantity type, and hml::parse_axis, on arbitrary bytes. Either a
// value comes back, or hml::parse_error; anything else (another exception, a crash, a sanitizer report)
// is a finding. Values that come back are checked: finite and not negative.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

import hml;

namespace {

template <class Q>
void read(std::string_view text, hml::parse_options options) {
  try {
    const Q q = hml::parse<Q>(text, options);
    if (!std::isfinite(q.value()) || q.value() < 0) std::abort();
  } catch (const hml::parse_error&) {
  }
}

template <class T>
void read_axis(std::string_view text) {
  try {
    const hml::sampled_axis<T> axis = hml::parse_axis<T>(text, {.plain_number_is_base_unit = true});
    if (axis.size() == 0) std::abort();
  } catch (const hml::parse_error&) {
  }
}

bool has_four_digits_in_a_row(std::string_view text) {
  int run = 0;
  for (char c : text) {
    run = c >= '0' && c <= '9' ? run + 1 : 0;
    if (run == 4) return true;
  }
  return false;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  // The first byte picks what to read (one read per input keeps the search fast: every rejected text
  // throws, and throwing is slow under the sanitizers); the rest is the text.
  const std::uint8_t choice = data[0];
  const std::string_view text{reinterpret_cast<const char*>(data) + 1, size - 1};
  const hml::parse_options options{.plain_number_is_base_unit = (choice & 0x80) != 0};
  switch (choice % 9) {
    case 0: read<hml::data_size>(text, options); break;
    case 1: read<hml::duration>(text, options); break;
    case 2: read<hml::work>(text, options); break;
    case 3: read<hml::data_rate>(text, options); break;
    case 4: read<hml::compute_rate>(text, options); break;
    case 5: read<hml::arithmetic_intensity>(text, options); break;
    case 6: read<hml::frequency>(text, options); break;
    // An axis may sample up to max_axis_points values (about 0.1 s): inputs with a run of four digits,
    // which could ask for that many, would slow the search a hundredfold, so they are not read as axes.
    case 7:
      if (!has_four_digits_in_a_row(text)) read_axis<hml::data_rate>(text);
      break;
    default:
      if (!has_four_digits_in_a_row(text)) read_axis<double>(text);
      break;
  }
  return 0;
}
