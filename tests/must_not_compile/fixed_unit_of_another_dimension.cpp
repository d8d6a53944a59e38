// Printing a duration in "GB/s": the fixed unit must measure the quantity's dimension; at compile time the
// mistake is an error whose note gives the reason.
// expected-error: constexpr variable 'text' must be initialized by a constant expression
// expected-note: in call to 'expects\(false, &"hml: the fixed unit measures another dimension"
import hml;
using namespace hml::literals;

#ifdef HML_MUST_NOT_COMPILE
[[maybe_unused]] constexpr auto text = hml::to_text(58.5_us, {.unit = "GB/s"});
#else
[[maybe_unused]] constexpr auto text = hml::to_text(58.5_us, {.unit = "us"});
#endif
