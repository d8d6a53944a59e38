// A time per token added to a step's time: distinct types, as a step of batch 32 makes 32 tokens.
// Add step times (prefill + decode), or divide a step's time by the tokens it produced with per_token().
// expected-error: invalid operands to binary expression \('const step_time' and 'const hml::time_per_token'\)
import hml;

namespace {

constexpr auto step = hml::analyze_step(hml::models::llama_2_7b, hml::decode_step(32, 512), hml::devices::h100_sxm);
constexpr hml::time_per_token each = hml::per_token(step.time, step.produced());
#ifdef HML_MUST_NOT_COMPILE
constexpr auto both = step.time + each;
#else
constexpr auto both = step.time + step.time;
#endif
static_assert(both.value > each.value);

}  // namespace
