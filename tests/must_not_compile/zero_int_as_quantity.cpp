// A size initialised with the integer 0; zero needs a unit too: hml::data_size{} or 0_B.
// expected-error: hml: a plain number is not a data size \(B\): give it a unit, as in 64_GiB or n \* gigabyte
import hml;

using namespace hml::literals;

namespace {

[[maybe_unused]] void accumulate() {
#ifdef HML_MUST_NOT_COMPILE
  [[maybe_unused]] hml::data_size total = 0;
#else
  [[maybe_unused]] hml::data_size total = 0_B;
#endif
}

}  // namespace
