// A step's time compared with a size (5_GB) where a time budget was meant: compare with a duration, 5_ms.
// expected-error: hml: a data size \(B\) is not a duration \(s\)
import hml;

using namespace hml::literals;

namespace {

constexpr auto step = hml::analyze_step(hml::models::llama_2_7b, hml::decode_step(32, 512), hml::devices::h100_sxm);
#ifdef HML_MUST_NOT_COMPILE
static_assert(step.time < 5_GB);
#else
static_assert(step.time < 50_ms);
#endif

}  // namespace
