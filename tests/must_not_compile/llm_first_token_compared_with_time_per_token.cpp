// A first token's time compared with the time per output token, as a serving run's figures tempt: one is a
// step's time, the other a time per token, and neither is the other. Compare their durations by name.
// (Inside a static_assert, clang also reports the assertion that then fails.)
// expected-error: hml: a step's time is not a time per token: compare step\.time\.value with t\.value
import hml;

namespace {

[[maybe_unused]] bool first_token_is_slower(const hml::serving_figures& served) {
#ifdef HML_MUST_NOT_COMPILE
  return served.time_to_first_token > served.time_per_output_token;
#else
  return served.time_to_first_token.value > served.time_per_output_token.value;
#endif
}

}  // namespace
