// libFuzzer target: hml::parse of every quantity type on arbitrary bytes (axes: parse_axis_fuzz.cpp).
// Either a value comes back, or hml::parse_error; anything else (another exception, a crash, a sanitizer
// report) is a finding. Values that come back are checked: finite and not negative.
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

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  // The first byte picks what to read (one read per input keeps the search fast: every rejected text
  // throws, and throwing is slow under the sanitizers); the rest is the text.
  const std::uint8_t choice = data[0];
  const std::string_view text{reinterpret_cast<const char*>(data) + 1, size - 1};
  const hml::parse_options options{.plain_number_is_base_unit = (choice & 0x80) != 0};
  switch (choice % 7) {
    case 0: read<hml::data_size>(text, options); break;
    case 1: read<hml::duration>(text, options); break;
    case 2: read<hml::work>(text, options); break;
    case 3: read<hml::data_rate>(text, options); break;
    case 4: read<hml::compute_rate>(text, options); break;
    case 5: read<hml::arithmetic_intensity>(text, options); break;
    default: read<hml::frequency>(text, options); break;
  }
  return 0;
}
