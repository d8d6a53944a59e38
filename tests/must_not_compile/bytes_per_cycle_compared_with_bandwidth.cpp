// Bytes per cycle compared with bytes per second: convert through the clock, hml::per_cycle(rate, clock).
// expected-error: hml: a data rate \(B/s\) is not a rate in bytes per cycle \(B/cy\)
import hml;

using namespace hml::literals;

namespace {

[[maybe_unused]] bool l2_is_faster(hml::bytes_per_cycle l2, hml::data_rate memory, [[maybe_unused]] hml::frequency clock) {
#ifdef HML_MUST_NOT_COMPILE
  return l2 > memory;
#else
  return l2 > hml::per_cycle(memory, clock);
#endif
}

}  // namespace
