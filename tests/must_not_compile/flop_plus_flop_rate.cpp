// A FLOP count plus a FLOP rate (2_GFLOPS instead of 2_GFLOP): sum counts with counts.
// expected-error: hml: a compute rate \(FLOP/s\) is not work \(FLOP\)
import hml;

using namespace hml::literals;

namespace {

[[maybe_unused]] void count_work() {
#ifdef HML_MUST_NOT_COMPILE
  [[maybe_unused]] const hml::work total = 1.5_GFLOP + 2_GFLOPS;
#else
  [[maybe_unused]] const hml::work total = 1.5_GFLOP + 2_GFLOP;
#endif
}

}  // namespace
