// Cycles added to seconds: cycles become time only through a clock, hml::to_duration(cycles, clock).
// expected-error: hml: a count of cycles \(cy\) is not a duration \(s\)
import hml;

using namespace hml::literals;

namespace {

[[maybe_unused]] hml::duration total(hml::duration startup, hml::cycles work, [[maybe_unused]] hml::frequency clock) {
#ifdef HML_MUST_NOT_COMPILE
  return startup + work;
#else
  return startup + hml::to_duration(work, clock);
#endif
}

}  // namespace
