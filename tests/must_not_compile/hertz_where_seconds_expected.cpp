// A clock frequency used as the cycle time; a frequency is per second: the period is 1 / clock.
// expected-error: hml: a frequency \(Hz\) is not a duration \(s\)
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
