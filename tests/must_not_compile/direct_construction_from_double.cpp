// A size constructed from a double as if it had a value constructor; there is none by design: 4096.0 * hml::byte.
// expected-error: hml: a plain number is not a data size \(B\): give it a unit, as in 64_GiB or n \* gigabyte
import hml;

using namespace hml::literals;

namespace {

[[maybe_unused]] void allocate() {
#ifdef HML_MUST_NOT_COMPILE
  [[maybe_unused]] const hml::data_size buffer{4096.0};
#else
  [[maybe_unused]] const hml::data_size buffer{4096.0 * hml::byte};
#endif
}

}  // namespace
