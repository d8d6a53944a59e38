// Bytes accumulated into a running time total: accumulate the transfer time, bytes / bw.
// expected-error: hml: a data size \(B\) is not a duration \(s\)
import hml;

using namespace hml::literals;

namespace {

[[maybe_unused]] hml::duration total_time(hml::data_size bytes, [[maybe_unused]] hml::data_rate bw) {
  hml::duration total{};
#ifdef HML_MUST_NOT_COMPILE
  total += bytes;
#else
  total += bytes / bw;
#endif
  return total;
}

}  // namespace
