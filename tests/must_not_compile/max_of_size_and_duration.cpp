// The roofline max() of a size and a time; both arguments must be times: max(bytes / bw, compute).
// expected-error: no matching function for call to 'max'
#include <algorithm>

import hml;

using namespace hml::literals;

namespace {

[[maybe_unused]] hml::duration kernel_time(hml::data_size bytes, [[maybe_unused]] hml::data_rate bw, hml::duration compute) {
#ifdef HML_MUST_NOT_COMPILE
  return std::max(bytes, compute);
#else
  return std::max(bytes / bw, compute);
#endif
}

}  // namespace
