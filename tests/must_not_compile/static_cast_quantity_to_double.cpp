// An explicit cast to double, which still does not say in which unit: hml::in(size, hml::byte).
// expected-error: hml: a data size \(B\) is not a plain number: read it in a unit with in\(q, unit\), or in the base unit with q\.value\(\)
import hml;

using namespace hml::literals;

namespace {

[[maybe_unused]] double bytes(hml::data_size size) {
#ifdef HML_MUST_NOT_COMPILE
  return static_cast<double>(size);
#else
  return hml::in(size, hml::byte);
#endif
}

}  // namespace
