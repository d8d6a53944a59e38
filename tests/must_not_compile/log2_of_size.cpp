// std::log2 of a size; math functions take plain numbers: std::log2(hml::in(size, hml::byte)).
// expected-error: no matching function for call to 'log2'
#include <cmath>

import hml;

using namespace hml::literals;

namespace {

[[maybe_unused]] double size_class(hml::data_size size) {
#ifdef HML_MUST_NOT_COMPILE
  return std::log2(size);
#else
  return std::log2(hml::in(size, hml::byte));
#endif
}

}  // namespace
