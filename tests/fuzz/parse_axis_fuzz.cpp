// libFuzzer target: hml::parse_axis (FROM:TO:POINTS[:log], lists, single values) on arbitrary bytes, for
// axes of plain numbers and of quantities. Either an axis comes back, with at least one point, at most
// hml::max_axis_points and every point finite, or hml::parse_error; anything else is a finding.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

import hml;

namespace {

template <class T>
void read_axis(std::string_view text, hml::parse_options options) {
  try {
    const hml::sampled_axis<T> axis = hml::parse_axis<T>(text, options);
    if (axis.size() == 0 || axis.size() > hml::max_axis_points) std::abort();
    for (std::size_t i = 0; i < axis.size(); ++i) {
      if (!std::isfinite(hml::number_of(axis[i]))) std::abort();
    }
  } catch (const hml::parse_error&) {
  }
}

// An axis may sample up to max_axis_points values (about 0.1 s): inputs with a run of four digits, which
// could ask for that many, would slow the search a hundredfold, so they are not read.
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
  // The first byte picks the axis's type and whether a plain number is in base units; the rest is the text.
  const std::uint8_t choice = data[0];
  const std::string_view text{reinterpret_cast<const char*>(data) + 1, size - 1};
  if (has_four_digits_in_a_row(text)) return 0;
  const hml::parse_options options{.plain_number_is_base_unit = (choice & 0x80) != 0};
  switch (choice % 5) {
    case 0: read_axis<double>(text, options); break;
    case 1: read_axis<hml::data_rate>(text, options); break;
    case 2: read_axis<hml::data_size>(text, options); break;
    case 3: read_axis<hml::duration>(text, options); break;
    default: read_axis<hml::arithmetic_intensity>(text, options); break;
  }
  return 0;
}
