// A kernel views its record's name: one taken from a temporary record outlives it (the forty-eighth trial's
// program compiled without a warning, and read freed memory), so as_kernel() is lifetimebound. (A record of
// a temporary list, `read_kernels_csv(text)[0].as_kernel()`, is beyond what clang 19 follows: keep the list.)
// expected-error: temporary whose address is used as value of local variable 'k' will be destroyed at the end of the full-expression
#include <string>
#include <string_view>
import hml;
using namespace hml::literals;

[[maybe_unused]] std::size_t name_length() {
#ifdef HML_MUST_NOT_COMPILE
  const hml::kernel k = hml::kernel_record{std::string(40, 'k'), 1_GFLOP, 1_GB}.as_kernel();
#else
  const hml::kernel_record record{std::string(40, 'k'), 1_GFLOP, 1_GB};
  const hml::kernel k = record.as_kernel();
#endif
  return k.name.size();
}
