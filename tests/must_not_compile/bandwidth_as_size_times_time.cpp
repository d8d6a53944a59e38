// Bandwidth as size times time (B s); a rate is size divided by time: bytes / t.
// expected-error: hml: a data size times a duration \(B\*s\) is not a data rate \(B/s\)
import hml;

using namespace hml::literals;

namespace {

[[maybe_unused]] hml::data_rate measured(hml::data_size bytes, hml::duration t) {
#ifdef HML_MUST_NOT_COMPILE
  return bytes * t;
#else
  return bytes / t;
#endif
}

}  // namespace
