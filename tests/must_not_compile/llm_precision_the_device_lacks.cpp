// A decode step at FP8 on an A100, which publishes no FP8 peak: an error, never a fallback to FP16.
// The compute ceiling follows the precision. Run at FP16 (or INT8 for W8A8), or pick a device with FP8
// tensor units (h200).
// expected-error: constexpr variable 'step' must be initialized by a constant expression
// expected-note: in call to 'expects\(false, &"hml: the machine publishes no FP8 tensor peak; give a kind its compute ceilings list
import hml;

namespace {

using hml::precision;

#ifdef HML_MUST_NOT_COMPILE
constexpr hml::inference_options options{.types = {precision::fp8, precision::fp8, precision::fp8}};
#else
constexpr hml::inference_options options{.types = {precision::fp16, precision::fp16, precision::fp16}};
#endif
[[maybe_unused]] constexpr auto step =
    hml::analyze_step(hml::models::llama_2_7b, hml::decode_step(1, 512), hml::devices::a100_sxm_80gb, options);

}  // namespace
