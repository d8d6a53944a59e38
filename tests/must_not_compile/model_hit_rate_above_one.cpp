// A hit rate is a fraction of the bytes: 1.5 (a percentage slip, or 150 %) is rejected when evaluated
// at compile time, with the model's message in the compiler's note.
// expected-error: constexpr variable '[a-z]+' must be initialized by a constant expression
// expected-note: in call to 'expects\(false, &"hml: hit rate must be within \[0, 1\]; give the share
import hml;
using namespace hml::literals;

#ifdef HML_MUST_NOT_COMPILE
constexpr double hit_rate = 1.5;
#else
constexpr double hit_rate = 0.95;
#endif
[[maybe_unused]] constexpr auto bandwidth = hml::effective_bandwidth(hml::two_tier_memory{50_ns, 500_Gbps, 10_Gbps, hit_rate});
