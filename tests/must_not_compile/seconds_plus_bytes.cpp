// Latency plus payload size, as if a size were a time: divide the size by the bandwidth first.
// expected-error: hml: a data size \(B\) is not a duration \(s\)
import hml;

using namespace hml::literals;

namespace {

[[maybe_unused]] hml::duration message_time(hml::duration latency, hml::data_size payload, [[maybe_unused]] hml::data_rate bw) {
#ifdef HML_MUST_NOT_COMPILE
  return latency + payload;
#else
  return latency + payload / bw;
#endif
}

}  // namespace
