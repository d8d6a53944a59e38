// Arithmetic intensity computed as bytes / FLOP (that is B/FLOP, the inverse): intensity is FLOP / B, flops / bytes.
// expected-error: hml: bytes per FLOP \(B/FLOP\) is not an arithmetic intensity \(FLOP/B\)
import hml;

using namespace hml::literals;

namespace {

[[maybe_unused]] hml::arithmetic_intensity intensity(hml::work flops, hml::data_size bytes) {
#ifdef HML_MUST_NOT_COMPILE
  return bytes / flops;
#else
  return flops / bytes;
#endif
}

}  // namespace
