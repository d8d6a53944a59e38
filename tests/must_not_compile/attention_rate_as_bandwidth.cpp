// A machine's attention rate given as a bandwidth, 347_TBps: it is FLOP per second, 347_TFLOPS.
// expected-error: hml: a data rate \(B/s\) is not a compute rate \(FLOP/s\)
import hml;

using namespace hml::literals;

namespace {

[[maybe_unused]] void describe_machine() {
  hml::machine_description m{};
#ifdef HML_MUST_NOT_COMPILE
  m.attention_rate.value = 347_TBps;
#else
  m.attention_rate.value = 347_TFLOPS;
#endif
}

}  // namespace
