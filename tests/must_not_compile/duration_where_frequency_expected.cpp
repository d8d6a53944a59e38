// A clock given by its period, 0.5_ns, where a frequency is wanted: write 1 / 0.5_ns, or 2_GHz.
// expected-error: hml: a duration \(s\) is not a frequency \(Hz\)
import hml;

using namespace hml::literals;

namespace {

[[maybe_unused]] void configure_clock() {
#ifdef HML_MUST_NOT_COMPILE
  [[maybe_unused]] const hml::frequency clock = 0.5_ns;
#else
  [[maybe_unused]] const hml::frequency clock = 1 / 0.5_ns;
#endif
}

}  // namespace
