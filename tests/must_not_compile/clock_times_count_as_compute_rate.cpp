// Peak FLOP/s as clock x a bare FLOP-per-cycle count gives a frequency: make the count work, 2_GHz * 64_FLOP.
// expected-error: hml: a frequency \(Hz\) is not a compute rate \(FLOP/s\)
import hml;

using namespace hml::literals;

namespace {

[[maybe_unused]] void configure_core() {
#ifdef HML_MUST_NOT_COMPILE
  [[maybe_unused]] const hml::compute_rate peak = 2_GHz * 64;
#else
  [[maybe_unused]] const hml::compute_rate peak = 2_GHz * 64_FLOP;
#endif
}

}  // namespace
