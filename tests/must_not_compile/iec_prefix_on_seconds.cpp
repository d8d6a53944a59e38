// An IEC binary prefix on seconds; kibi/mebi/... exist for information only: use the SI prefix, hml::kilo(hml::second).
// expected-error: no matching function for call to 'kibi'
// expected-note: because 'std::same_as<.*time_base_dimension.*' evaluated to false
import hml;

using namespace hml::literals;

namespace {

[[maybe_unused]] void timer_unit() {
#ifdef HML_MUST_NOT_COMPILE
  [[maybe_unused]] const auto ks = hml::kibi(hml::second);
#else
  [[maybe_unused]] const auto ks = hml::kilo(hml::second);
#endif
}

}  // namespace
