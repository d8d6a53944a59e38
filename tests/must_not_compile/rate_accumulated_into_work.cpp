// A compute rate accumulated into a running total of work: a rate runs for a time; add rate x time.
// expected-error: hml: a compute rate \(FLOP/s\) is not work \(FLOP\)
import hml;

using namespace hml::literals;

namespace {

[[maybe_unused]] hml::work done_in([[maybe_unused]] hml::duration t) {
  hml::work total{};
#ifdef HML_MUST_NOT_COMPILE
  total += 989_TFLOPS;
#else
  total += 989_TFLOPS * t;
#endif
  return total;
}

}  // namespace
