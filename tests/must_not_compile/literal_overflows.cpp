// 1e300 PB is 1e315 bytes, beyond any double: the literal is rejected rather than read as infinity.
// expected-error: call to consteval function 'hml::literals::operator""_PB<.*>' is not a constant expression
// expected-note: non-constexpr function 'literal_is_too_large_for_a_double' cannot be used in a constant expression
import hml;
using namespace hml::literals;

#ifdef HML_MUST_NOT_COMPILE
[[maybe_unused]] const hml::data_size everything = 1e300_PB;
#else
[[maybe_unused]] const hml::data_size everything = 1e300_B;
#endif
