// Machine balance as FLOP/s divided by a time (FLOP/s^2): divide the peak rate by the bandwidth, peak / bw.
// expected-error: hml: a product or quotient of other units is not an arithmetic intensity \(FLOP/B\)
import hml;

using namespace hml::literals;

namespace {

[[maybe_unused]] hml::arithmetic_intensity ridge(hml::compute_rate peak, [[maybe_unused]] hml::data_rate bw, [[maybe_unused]] hml::duration t) {
#ifdef HML_MUST_NOT_COMPILE
  return peak / t;
#else
  return peak / bw;
#endif
}

}  // namespace
