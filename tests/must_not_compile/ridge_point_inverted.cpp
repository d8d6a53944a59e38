// The ridge point as bandwidth / peak compute (B/FLOP); the ridge intensity is peak / bandwidth (FLOP/B).
// expected-error: hml: bytes per FLOP \(B/FLOP\) is not an arithmetic intensity \(FLOP/B\)
import hml;

using namespace hml::literals;

namespace {

[[maybe_unused]] hml::arithmetic_intensity ridge(hml::compute_rate peak, hml::data_rate bw) {
#ifdef HML_MUST_NOT_COMPILE
  return bw / peak;
#else
  return peak / bw;
#endif
}

}  // namespace
