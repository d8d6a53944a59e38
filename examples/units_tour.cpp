// A tour of hml.units: writing quantities, converting, printing and parsing them.
#include <cstdio>
#include <exception>
#include <string>
#include <string_view>

import hml;

using namespace hml::literals;

namespace {

template <class Q>
void show(std::string_view code, Q q, hml::quantity_format format = {}) {
  std::printf("%-34.*s = %s\n", static_cast<int>(code.size()), code.data(), hml::to_string(q, format).c_str());
}

template <class Q>
void show_parse(std::string_view text) {
  std::printf("parse(\"%.*s\")", static_cast<int>(text.size()), text.data());
  try {
    std::printf("%*s = %s\n", static_cast<int>(24 - text.size()), "", hml::to_string(hml::parse<Q>(text)).c_str());
  } catch (const hml::parse_error& e) {
    std::printf("\n  error: %s\n", e.what());
  }
}

}  // namespace

int main() {
  const hml::quantity_format in_bits{.information = hml::information_unit::bits};
  const hml::quantity_format decimal{.number = hml::general(8), .prefixes = hml::prefix_system::decimal};

  std::puts("-- writing and printing");
  show("10_MiB", 10_MiB);
  show("10_MiB (decimal prefixes)", 10_MiB, decimal);
  show("1_Gbps", 1_Gbps);
  show("1_Gbps (in bits)", 1_Gbps, in_bits);
  show("6.4_Gbps * hml::bus_width{256}", 6.4_Gbps * hml::bus_width{256});
  show("12_MB / 205_GBps", 12_MB / 205_GBps);
  show("1_MFLOP / 5.3_TFLOPS", 1_MFLOP / 5.3_TFLOPS);
  show("1_MFLOP / 12_MB", 1_MFLOP / 12_MB);
  show("192_MiB / 205_GBps", 192_MiB / 205_GBps);
  show("192_MB / 205_GBps (the tutorial)", 192_MB / 205_GBps);

  std::puts("\n-- reading numbers out, always explicitly");
  std::printf("hml::in(12_MB / 205_GBps, hml::microsecond) = %.6f\n", hml::in(12_MB / 205_GBps, hml::microsecond));
  std::printf("192_MiB / 192_MB                            = %.6f\n", 192_MiB / 192_MB);

  std::puts("\n-- parsing at run time");
  show_parse<hml::data_rate>("205GB/s");
  show_parse<hml::data_rate>("1 Gbit/s");
  show_parse<hml::compute_rate>("5.3 TFLOP/s");
  show_parse<hml::data_size>("10MiB");
  show_parse<hml::data_rate>("10 GB");
  show_parse<hml::data_rate>("10 gb/s");
}
