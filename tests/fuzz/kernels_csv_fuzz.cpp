// libFuzzer target: hml::read_kernels_csv on arbitrary bytes. Either kernels come back, each with finite,
// non-negative FLOP and bytes and a line inside the text, or hml::kernels_csv_error; anything else is a
// finding. The seed corpus is a valid file, so mutations start from the real format.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>
#include <vector>

import hml;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text{reinterpret_cast<const char*>(data), size};
  try {
    const std::vector<hml::kernel_record> kernels = hml::read_kernels_csv(text);
    // The reader ends a line at LF, CRLF or a lone CR; the count of LF and CR bounds the lines.
    const auto line_ends = std::count(text.begin(), text.end(), '\n') + std::count(text.begin(), text.end(), '\r');
    const auto lines = static_cast<std::size_t>(line_ends) + 1;
    for (const hml::kernel_record& k : kernels) {
      const bool valid = std::isfinite(k.flops.value()) && k.flops.value() >= 0 && std::isfinite(k.bytes.value()) &&
                         k.bytes.value() >= 0 && k.line >= 2 && k.line <= lines;
      if (!valid) std::abort();
      (void)hml::intensity(k.as_kernel());
    }
  } catch (const hml::kernels_csv_error&) {
  }
  return 0;
}
