// A std::chrono duration assigned to hml::duration; there is no implicit bridge: convert via seconds as double.
// expected-error: no viable conversion from returned value of type 'std::chrono::nanoseconds' \(aka '[^']*'\) to function return type 'hml::duration'
#include <chrono>

import hml;

using namespace hml::literals;

namespace {

[[maybe_unused]] hml::duration measured(std::chrono::nanoseconds elapsed) {
#ifdef HML_MUST_NOT_COMPILE
  return elapsed;
#else
  return std::chrono::duration<double>(elapsed).count() * hml::second;
#endif
}

}  // namespace
