// A bare number added to a size (which unit is 64?): give it one, 64_B.
// expected-error: hml: a plain number is not a data size \(B\): give it a unit, as in 64_GiB or n \* gigabyte
import hml;

using namespace hml::literals;

namespace {

[[maybe_unused]] hml::data_size with_header(hml::data_size payload) {
#ifdef HML_MUST_NOT_COMPILE
  return payload + 64;
#else
  return payload + 64_B;
#endif
}

}  // namespace
