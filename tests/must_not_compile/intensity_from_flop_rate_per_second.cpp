// Machine balance as FLOP/s divided by a time (FLOP/s^2): divide the peak rate by the bandwidth, peak / bw.
// expected-error: no viable conversion from returned value of type 'quantity<unit<list<dim<boost::units::time_base_dimension, static_rational<-2, [^']*' to function return type 'quantity<unit<list<dim<boost::units::information_base_dimension, static_rational<-1, 
import hml;

using namespace hml::literals;

namespace {

[[maybe_unused]] hml::arithmetic_intensity ridge(hml::compute_rate peak, [[maybe_unused]] hml::data_rate bw, [[maybe_unused]] hml::duration t) {
#ifdef HML_MUST_NOT_COMPILE
  return peak / t;
#else
  return peak / bw;
#endif
}

}  // namespace
