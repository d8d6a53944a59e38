// A time budget minus a size: convert the size to a time first, bytes / bw.
// expected-error: hml: a data size \(B\) is not a duration \(s\)
import hml;

using namespace hml::literals;

namespace {

[[maybe_unused]] hml::duration slack(hml::duration budget, hml::data_size bytes, [[maybe_unused]] hml::data_rate bw) {
#ifdef HML_MUST_NOT_COMPILE
  return budget - bytes;
#else
  return budget - bytes / bw;
#endif
}

}  // namespace
