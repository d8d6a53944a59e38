// A peak compute rate written as a count, 5.3_TFLOP, not a rate: write 5.3_TFLOPS (FLOP per second).
// expected-error: hml: work \(FLOP\) is not a compute rate \(FLOP/s\)
import hml;

using namespace hml::literals;

namespace {

[[maybe_unused]] void configure_device() {
#ifdef HML_MUST_NOT_COMPILE
  [[maybe_unused]] const hml::compute_rate peak = 5.3_TFLOP;
#else
  [[maybe_unused]] const hml::compute_rate peak = 5.3_TFLOPS;
#endif
}

}  // namespace
