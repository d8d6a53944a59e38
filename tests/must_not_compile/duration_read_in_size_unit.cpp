// A duration read out in gigabytes; in() takes a unit of the quantity's own dimension: hml::in(t, hml::second).
// expected-error: no matching function for call to 'in'
import hml;

using namespace hml::literals;

namespace {

[[maybe_unused]] double report(hml::duration t) {
#ifdef HML_MUST_NOT_COMPILE
  return hml::in(t, hml::gigabyte);
#else
  return hml::in(t, hml::second);
#endif
}

}  // namespace
