// libFuzzer target: hml::read_kernels_csv on arbitrary bytes. Either kernels come back, each with finite,
// non-negative FLOP and bytes and a line inside the text, or hml::kernels_csv_error; anything else is a
// finding. The same bytes are also streamed through hml::kernels_csv_reader in small blocks (the last byte
// picks their size), which must give the same kernels or the same error: a record cut by a block boundary
// anywhere (inside a quote, between CR and LF, inside the byte order mark) reads as a whole one. The seed
// corpus holds valid files, so mutations start from the real format.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

import hml;

namespace {

struct outcome {
  std::vector<hml::kernel_record> kernels;
  std::optional<std::string> error;
};

outcome read_whole(std::string_view text) {
  try {
    return {hml::read_kernels_csv(text), std::nullopt};
  } catch (const hml::kernels_csv_error& e) {
    return {{}, e.what()};
  }
}

outcome read_in_blocks(std::string_view text, std::size_t block) {
  outcome o;
  try {
    hml::kernels_csv_reader reader{[&](std::span<char> buffer) {
      const std::size_t n = std::min({buffer.size(), block, text.size()});
      std::copy_n(text.data(), n, buffer.data());
      text.remove_prefix(n);
      return n;
    }};
    for (hml::kernel_record k; reader.next(k);) o.kernels.push_back(k);
  } catch (const hml::kernels_csv_error& e) {
    return {{}, e.what()};
  }
  return o;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text{reinterpret_cast<const char*>(data), size};
  const outcome whole = read_whole(text);
  // The reader ends a line at LF, CRLF or a lone CR; the count of LF and CR bounds the lines.
  const auto line_ends = std::count(text.begin(), text.end(), '\n') + std::count(text.begin(), text.end(), '\r');
  const auto lines = static_cast<std::size_t>(line_ends) + 1;
  for (const hml::kernel_record& k : whole.kernels) {
    const bool valid = std::isfinite(k.flops.value()) && k.flops.value() >= 0 && std::isfinite(k.bytes.value()) &&
                       k.bytes.value() >= 0 && k.line >= 2 && k.line <= lines;
    if (!valid) std::abort();
    (void)hml::intensity(k.as_kernel());
  }
  const std::size_t block = size == 0 ? 1U : 1U + data[size - 1] % 7U;
  const outcome blocks = read_in_blocks(text, block);
  if (blocks.error != whole.error || blocks.kernels.size() != whole.kernels.size()) std::abort();
  for (std::size_t i = 0; i < whole.kernels.size(); ++i) {
    const hml::kernel_record& a = whole.kernels[i];
    const hml::kernel_record& b = blocks.kernels[i];
    if (a.name != b.name || a.flops != b.flops || a.bytes != b.bytes || a.line != b.line) std::abort();
  }
  return 0;
}
