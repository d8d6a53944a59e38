// Compute time as work times rate (FLOP^2/s); time is work divided by rate: flops / peak.
// expected-error: no viable conversion from returned value of type 'quantity<[^']*work_base_dimension, boost::units::static_rational<2>>[^']*' to function return type 'quantity<
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
