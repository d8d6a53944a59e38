// libFuzzer target: hml::read_device_json on arbitrary bytes. Either a device comes back whose every figure
// is usable (main memory with a bandwidth, every published value finite and > 0, every peak's roof valid),
// or hml::device_file_error; anything else (another exception, a crash, a NaN) is a finding. The seed corpus
// holds valid files, so mutations start from the real format. A device read is written back
// (hml::to_device_json) and must read again.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

import hml;

namespace {

template <class Q>
void check(const hml::figure<Q>& f) {
  if (f.value.value() != 0 && !(std::isfinite(f.value.value()) && f.value.value() > 0)) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text{reinterpret_cast<const char*>(data), size};
  try {
    const hml::loaded_device file = hml::read_device_json(text);
    const hml::device& d = file.machine();
    if (d.id.empty() || d.name.empty() || d.memory.empty() || d.compute.empty()) std::abort();
    const hml::level_description& main = hml::main_memory(d);
    if (!main.bandwidth.published() && !main.measured_bandwidth.published()) std::abort();
    check(d.clock);
    for (const hml::level_description& l : d.memory) {
      check(l.capacity);
      check(l.bandwidth);
      check(l.write_bandwidth);
      check(l.measured_bandwidth);
      check(l.latency);
      check(l.interface.pin_rate);
      if (hml::published(l.interface)) (void)hml::interface_bandwidth(l.interface);
    }
    for (const hml::ceiling_description& c : d.compute) {
      check(c.dense);
      check(c.sparse);
      check(c.measured);
      for (hml::basis b : {hml::basis::datasheet, hml::basis::measured}) {
        if (hml::peak(c, b).published() && hml::bandwidth_of(main, b).published() && c.variant.empty()) {
          (void)hml::ridge_point(hml::roof_of(d, c.kind(), b));  // validates both roofs
        }
      }
    }
    (void)hml::device_table(file.as_list());
    // What the writer makes of it reads back, with the same main-memory bandwidth.
    try {
      const hml::loaded_device again = hml::read_device_json(hml::to_device_json(d, file.sources()));
      if (!(hml::main_memory(again.machine()).bandwidth.value == main.bandwidth.value)) std::abort();
    } catch (const hml::device_file_error&) {
      std::abort();
    }
  } catch (const hml::device_file_error&) {
  }
  return 0;
}
