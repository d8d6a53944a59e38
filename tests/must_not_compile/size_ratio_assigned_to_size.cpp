// A ratio of two sizes (a plain number of blocks) stored as a size: store it as a double.
// expected-error: no viable conversion from 'double' to 'const hml::data_size'
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
