// Arithmetic intensity computed as bytes / FLOP (that is B/FLOP, the inverse): intensity is FLOP / B, flops / bytes.
// expected-error: no viable conversion from returned value of type 'quantity<unit<list<dim<[^']*static_rational<1, [^']*static_rational<-1, [^']*' to function return type 'quantity<unit<list<dim<[^']*static_rational<-1, [^']*static_rational<1, 
import hml;

using namespace hml::literals;

namespace {

[[maybe_unused]] hml::arithmetic_intensity intensity(hml::work flops, hml::data_size bytes) {
#ifdef HML_MUST_NOT_COMPILE
  return bytes / flops;
#else
  return flops / bytes;
#endif
}

}  // namespace
