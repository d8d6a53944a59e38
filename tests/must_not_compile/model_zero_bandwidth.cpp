// A memory with no bandwidth would divide by zero; the model refuses it at compile time.
// expected-error: constexpr variable '[a-z]+' must be initialized by a constant expression
// expected-note: in call to 'expects\(false, &"hml: memory bandwidth must be finite and > 0; give a rate
import hml;
using namespace hml::literals;

#ifdef HML_MUST_NOT_COMPILE
constexpr hml::data_rate bandwidth = 0_GBps;
#else
constexpr hml::data_rate bandwidth = 1_GBps;
#endif
[[maybe_unused]] constexpr auto t = hml::transfer_time(hml::memory{50_ns, bandwidth}, 1_MB);
