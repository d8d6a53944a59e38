// A tier's capacity (64 GiB) given where its read bandwidth is wanted: write 1638.4_GBps.
// (clang elides what the two types share: a size has no time dimension, a rate has time to the -1.)
// expected-error: hml: a data size \(B\) is not a data rate \(B/s\)
import hml;
using namespace hml::literals;

#ifdef HML_MUST_NOT_COMPILE
[[maybe_unused]] constexpr hml::tier hbm{.name = "HBM2e", .capacity = 64_GiB, .read = 64_GiB};
#else
[[maybe_unused]] constexpr hml::tier hbm{.name = "HBM2e", .capacity = 64_GiB, .read = 1638.4_GBps};
#endif
