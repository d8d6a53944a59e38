// A bus width given as a size (32_B); bus_width counts pins (bits per transfer): hml::bus_width{256}.
// expected-error: no viable conversion from 'data_size' \(aka '[^']*'\) to 'unsigned int'
import hml;

using namespace hml::literals;

namespace {

[[maybe_unused]] void memory_interface() {
#ifdef HML_MUST_NOT_COMPILE
  [[maybe_unused]] const hml::bandwidth bw = 6.4_Gbps * hml::bus_width{32_B};
#else
  [[maybe_unused]] const hml::bandwidth bw = 6.4_Gbps * hml::bus_width{256};
#endif
}

}  // namespace
