// A ratio of two sizes (a plain number of blocks) stored as a size: store it as a double.
// expected-error: hml: a plain number is not a data size \(B\): give it a unit, as in 64_GiB or n \* gigabyte
import hml;

using namespace hml::literals;

namespace {

[[maybe_unused]] void split(hml::data_size total, hml::data_size block) {
#ifdef HML_MUST_NOT_COMPILE
  [[maybe_unused]] const hml::data_size blocks = total / block;
#else
  [[maybe_unused]] const double blocks = total / block;
#endif
}

}  // namespace
