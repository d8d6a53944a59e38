// A duration handed to a double, which would silently pick a unit: say which one, hml::in(t, hml::second).
// expected-error: no viable conversion from 'hml::duration' \(aka '[^']*'\) to 'const double'
import hml;

using namespace hml::literals;

namespace {

[[maybe_unused]] void log_time(hml::duration t) {
#ifdef HML_MUST_NOT_COMPILE
  [[maybe_unused]] const double s = t;
#else
  [[maybe_unused]] const double s = hml::in(t, hml::second);
#endif
}

}  // namespace
