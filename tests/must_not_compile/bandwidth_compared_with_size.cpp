// A bandwidth compared with a size (1_GB), which has no order with it: compare with a rate, 1_GBps.
// expected-error: hml: a data size \(B\) is not a data rate \(B/s\)
import hml;

using namespace hml::literals;

namespace {

[[maybe_unused]] bool is_slow(hml::data_rate bw) {
#ifdef HML_MUST_NOT_COMPILE
  return bw < 1_GB;
#else
  return bw < 1_GBps;
#endif
}

}  // namespace
