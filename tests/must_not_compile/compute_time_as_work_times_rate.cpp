// Compute time as work times rate (FLOP^2/s); time is work divided by rate: flops / peak.
// expected-error: hml: a product or quotient of other units is not a duration \(s\)
import hml;

using namespace hml::literals;

namespace {

[[maybe_unused]] hml::duration compute_time(hml::work flops, hml::compute_rate peak) {
#ifdef HML_MUST_NOT_COMPILE
  return flops * peak;
#else
  return flops / peak;
#endif
}

}  // namespace
