// A rate literal spelled _GFLOPs (as in prose): the suffixes are _GFLOP for work and _GFLOPS for FLOP/s.
// expected-error: no matching literal operator for call to 'operator""_GFLOPs'
import hml;

using namespace hml::literals;

namespace {

[[maybe_unused]] void configure_device() {
#ifdef HML_MUST_NOT_COMPILE
  [[maybe_unused]] const hml::compute_rate peak = 5_GFLOPs;
#else
  [[maybe_unused]] const hml::compute_rate peak = 5_GFLOPS;
#endif
}

}  // namespace
