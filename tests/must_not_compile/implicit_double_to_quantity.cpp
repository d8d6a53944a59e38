// A size initialised from a bare double, whose unit nobody knows: write a literal (4096_B) or 4096.0 * hml::byte.
// expected-error: hml: a plain number is not a data size \(B\): give it a unit, as in 64_GiB or n \* gigabyte
import hml;

using namespace hml::literals;

namespace {

[[maybe_unused]] void allocate() {
#ifdef HML_MUST_NOT_COMPILE
  [[maybe_unused]] const hml::data_size page = 4096.0;
#else
  [[maybe_unused]] const hml::data_size page = 4096.0 * hml::byte;
#endif
}

}  // namespace
