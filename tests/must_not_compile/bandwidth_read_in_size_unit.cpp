// A bandwidth read out in gigabytes rather than gigabytes per second: hml::in(bw, hml::gigabyte / hml::second).
// expected-error: no matching function for call to 'in'
import hml;

using namespace hml::literals;

namespace {

[[maybe_unused]] double report(hml::data_rate bw) {
#ifdef HML_MUST_NOT_COMPILE
  return hml::in(bw, hml::gigabyte);
#else
  return hml::in(bw, hml::gigabyte / hml::second);
#endif
}

}  // namespace
