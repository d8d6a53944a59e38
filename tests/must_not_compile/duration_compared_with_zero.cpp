// A duration compared with the integer 0: compare with a duration, t > 0_s.
// expected-error: hml: a plain number is not a duration \(s\): give it a unit, as in 10_ms or n \* millisecond
import hml;

using namespace hml::literals;

namespace {

[[maybe_unused]] bool positive(hml::duration t) {
#ifdef HML_MUST_NOT_COMPILE
  return t > 0;
#else
  return t > 0_s;
#endif
}

}  // namespace
