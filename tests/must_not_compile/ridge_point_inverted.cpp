// The ridge point as bandwidth / peak compute (B/FLOP); the ridge intensity is peak / bandwidth (FLOP/B).
// expected-error: no viable conversion from returned value of type 'quantity<unit<list<dim<[^']*static_rational<1, [^']*static_rational<-1, [^']*' to function return type 'quantity<unit<list<dim<[^']*static_rational<-1, [^']*static_rational<1, 
import hml;

using namespace hml::literals;

namespace {

[[maybe_unused]] hml::arithmetic_intensity ridge(hml::compute_rate peak, hml::data_rate bw) {
#ifdef HML_MUST_NOT_COMPILE
  return bw / peak;
#else
  return peak / bw;
#endif
}

}  // namespace
