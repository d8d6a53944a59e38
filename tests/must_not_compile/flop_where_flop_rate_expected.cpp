// A peak compute rate written as a count, 5.3_TFLOP, not a rate: write 5.3_TFLOPS (FLOP per second).
// expected-error: no viable conversion from 'quantity<unit<list<dim<hml::detail::work_base_dimension, [^']*' to 'const quantity<unit<list<dim<boost::units::time_base_dimension, static_rational<-1, [^']*work_base_dimension
import hml;

using namespace hml::literals;

namespace {

[[maybe_unused]] void configure_device() {
#ifdef HML_MUST_NOT_COMPILE
  [[maybe_unused]] const hml::compute_rate peak = 5.3_TFLOP;
#else
  [[maybe_unused]] const hml::compute_rate peak = 5.3_TFLOPS;
#endif
}

}  // namespace
