// A measured bandwidth tested for equality with a size (25_GB): compare with a rate, 25_GBps.
// expected-error: hml: a data size \(B\) is not a data rate \(B/s\)
import hml;

using namespace hml::literals;

namespace {

[[maybe_unused]] bool at_spec(hml::data_rate measured) {
#ifdef HML_MUST_NOT_COMPILE
  return measured == 25_GB;
#else
  return measured == 25_GBps;
#endif
}

}  // namespace
