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

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text{reinterpret_cast<const char*>(data), size};
  for (const bool plain : {false, true}) {
    const hml::parse_options options{.plain_number_is_base_unit = plain};
    read<hml::data_size>(text, options);
    read<hml::duration>(text, options);
    read<hml::work>(text, options);
    read<hml::data_rate>(text, options);
    read<hml::compute_rate>(text, options);
    read<hml::arithmetic_intensity>(text, options);
    read<hml::frequency>(text, options);
  }
  if (size < 64) {  // axes sample up to max_axis_points values: keep the inputs that may ask for many short
    read_axis<hml::data_rate>(text);
    read_axis<double>(text);
  }
  return 0;
}
