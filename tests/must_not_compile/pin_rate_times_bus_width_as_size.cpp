// Per-pin rate times the bus width written as a size (256_bit) gives B^2/s, not a bandwidth: use hml::bus_width{256}.
// expected-error: hml: a product or quotient of other units is not a data rate \(B/s\)
import hml;

using namespace hml::literals;

namespace {

[[maybe_unused]] void memory_interface() {
#ifdef HML_MUST_NOT_COMPILE
  [[maybe_unused]] const hml::bandwidth bw = 6.4_Gbps * 256_bit;
#else
  [[maybe_unused]] const hml::bandwidth bw = 6.4_Gbps * hml::bus_width{256};
#endif
}

}  // namespace
