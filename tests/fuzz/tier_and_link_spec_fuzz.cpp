// libFuzzer target: the tier spec (`hml tiers --tier NAME:CAPACITY:BANDWIDTH[:WRITE]`) and the link name or
// rate (`hml offload --link pcie5x16|RATE`) readers of hml.catalog.systems on arbitrary bytes. Either a
// value comes back, or std::invalid_argument (parse errors among them); anything else is a finding. Values
// that come back are checked as the models will use them: valid, and the tier's name views the input.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <string_view>

import hml;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::string_view text{reinterpret_cast<const char*>(data) + 1, size - 1};
  try {
    if ((data[0] & 1) == 0) {
      const hml::tier t = hml::parse_tier(text);
      hml::validate(t);
      if (t.name.empty() || t.name.data() < text.data() || t.name.data() + t.name.size() > text.data() + text.size()) {
        std::abort();
      }
    } else {
      const hml::link l = hml::link_named(text);
      hml::validate(l);
    }
  } catch (const std::invalid_argument&) {
  }
  return 0;
}
