// A FLOP count plus a FLOP rate (2_GFLOPS instead of 2_GFLOP): sum counts with counts.
// expected-error: always_false<boost::units::unit<boost::units::list<boost::units::dim<boost::units::time_base_dimension, boost::units::static_rational<-1, 1>>, boost::units::list<boost::units::dim<hml::detail::work_base_dimension, [^']*': hml: cannot add quantities of different dimensions
import hml;

using namespace hml::literals;

namespace {

[[maybe_unused]] void count_work() {
#ifdef HML_MUST_NOT_COMPILE
  [[maybe_unused]] const hml::work total = 1.5_GFLOP + 2_GFLOPS;
#else
  [[maybe_unused]] const hml::work total = 1.5_GFLOP + 2_GFLOP;
#endif
}

}  // namespace
