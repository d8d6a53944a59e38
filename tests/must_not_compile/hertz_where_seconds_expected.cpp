// A clock frequency used as the cycle time; a frequency is per second: the period is 1 / clock.
// expected-error: no viable conversion from returned value of type 'quantity<unit<list<dim<[^']*static_rational<-1, [^']*' to function return type 'quantity<unit<list<dim<[^']*static_rational<1, 
import hml;

using namespace hml::literals;

namespace {

[[maybe_unused]] hml::duration cycle_time(hml::frequency clock) {
#ifdef HML_MUST_NOT_COMPILE
  return clock;
#else
  return 1 / clock;
#endif
}

}  // namespace
