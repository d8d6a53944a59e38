// An IEC binary prefix on seconds; kibi/mebi/... exist for information only: use the SI prefix, hml::kilo(hml::second).
// expected-error: no viable conversion from 'const unit<unit<list<dim<boost::units::time_base_dimension, [^']*' to 'unit<unit<list<dim<boost::units::information_base_dimension, 
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
