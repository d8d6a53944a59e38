// A step's time taken as a plain duration: it is a step_time, so that it is never taken for a time per
// token; read its duration by name, step.time.value.
// expected-error: hml: a step's time is not a plain duration: read it as step\.time\.value
import hml;

namespace {

constexpr auto step = hml::analyze_step(hml::models::llama_2_7b, hml::decode_step(32, 512), hml::devices::h100_sxm);
#ifdef HML_MUST_NOT_COMPILE
constexpr hml::duration budget = step.time;
#else
constexpr hml::duration budget = step.time.value;
#endif
static_assert(budget.value() > 0);

}  // namespace
