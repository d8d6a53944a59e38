// Transfer time as bandwidth / size, which is a frequency (1/s); time is size / bandwidth.
// expected-error: hml: a frequency \(Hz\) is not a duration \(s\)
import hml;

using namespace hml::literals;

namespace {

[[maybe_unused]] hml::duration transfer_time(hml::data_size bytes, hml::data_rate bw) {
#ifdef HML_MUST_NOT_COMPILE
  return bw / bytes;
#else
  return bytes / bw;
#endif
}

}  // namespace
