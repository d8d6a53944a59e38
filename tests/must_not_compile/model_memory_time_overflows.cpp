// A memory time past a double's range (10 MiB at 1e-305 B/s) was inf, and classified balanced beside a
// compute time of 1 ms, so a static_assert on that regime passed; the model refuses it at compile time.
// expected-error: constexpr variable '[a-z]+' must be initialized by a constant expression
// expected-note: in call to 'expects\(false, &"hml: the memory time overflows a double: too many bytes for the bandwidth"
import hml;
using namespace hml::literals;

#ifdef HML_MUST_NOT_COMPILE
constexpr hml::data_rate bandwidth = hml::data_rate::from_value(1e-305);
#else
constexpr hml::data_rate bandwidth = 1_GBps;
#endif
[[maybe_unused]] constexpr auto r = hml::run(hml::streaming(10_MiB, 1.0 * hml::flop_per_byte), hml::memory{50_ns, bandwidth},
                                             hml::compute_core{10_GFLOPS});
