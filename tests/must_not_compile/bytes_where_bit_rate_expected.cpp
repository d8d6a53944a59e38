// A link's rate written as a size, 25_Gbit (gigabits), not a rate: write 25_Gbps (gigabits per second).
// expected-error: hml: a data size \(B\) is not a data rate \(B/s\)
import hml;

using namespace hml::literals;

namespace {

[[maybe_unused]] void configure_link() {
#ifdef HML_MUST_NOT_COMPILE
  [[maybe_unused]] const hml::data_rate link = 25_Gbit;
#else
  [[maybe_unused]] const hml::data_rate link = 25_Gbps;
#endif
}

}  // namespace
