// Transfer time as bandwidth / size, which is a frequency (1/s); time is size / bandwidth.
// expected-error: no viable conversion from returned value of type 'quantity<unit<list<dim<[^']*static_rational<-1, [^']*' to function return type 'quantity<unit<list<dim<[^']*static_rational<1, 
import hml;

using namespace hml::literals;

namespace {

[[maybe_unused]] hml::duration transfer_time(hml::data_size bytes, hml::data_rate bw) {
#ifdef HML_MUST_NOT_COMPILE
  return bw / bytes;
#else
  return bytes / bw;
#endif
}

}  // namespace
