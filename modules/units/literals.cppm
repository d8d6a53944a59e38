// hml.units:literals — `10_MiB`, `1_Gbps`, `5.3_TFLOPS`, `50_ns`, ...
//
// The literal operators are raw templates: they see the characters as written, so `5.3_TFLOPS` becomes
// the integer 53 and the decimal exponent 11, and 53e11 is converted to double with a single rounding.
// Multiplying the double 5.3 by 1e12 would round twice and could miss the nearest double by one ulp.
module;
#include <cstddef>
export module hml.units:literals;
import :core;
import hml.format;

namespace hml::detail {

// Called only for a literal that cannot be read. They are not constexpr, so a literal that reaches one is
// not a constant expression and the compiler's note names the problem, e.g. "non-constexpr function
// 'literal_is_too_large_for_a_double' cannot be used in a constant expression".
inline void literal_takes_decimal_digits_only() {}
inline void literal_has_more_than_19_significant_digits() {}
inline void literal_exponent_is_out_of_range() {}
inline void literal_is_too_large_for_a_double() {}
inline void literal_is_too_small_for_a_double() {}

// A literal's digits as an exact decimal: mantissa x 10^exponent.
struct decimal {
  unsigned long long mantissa = 0;
  int exponent = 0;
};

template <char... Chars>
consteval decimal parse_literal() {
  constexpr char text[] = {Chars..., '\0'};
  if (text[0] == '0' && (text[1] == 'x' || text[1] == 'X' || text[1] == 'b' || text[1] == 'B')) {
    literal_takes_decimal_digits_only();
  }
  decimal d;
  int significant_digits = 0;
  bool after_point = false;
  std::size_t i = 0;
  for (; text[i] != '\0' && text[i] != 'e' && text[i] != 'E'; ++i) {
    const char c = text[i];
    if (c == '\'') continue;  // digit separator
    if (c == '.') {
      after_point = true;
      continue;
    }
    if (d.mantissa != 0 || c != '0') ++significant_digits;
    if (significant_digits > 19) literal_has_more_than_19_significant_digits();
    d.mantissa = d.mantissa * 10 + static_cast<unsigned long long>(c - '0');
    if (after_point) --d.exponent;
  }
  if (text[i] != '\0') {  // exponent part
    ++i;
    const bool negative = text[i] == '-';
    if (text[i] == '-' || text[i] == '+') ++i;
    int exponent = 0;
    for (; text[i] != '\0'; ++i) {
      if (text[i] == '\'') continue;
      exponent = exponent * 10 + (text[i] - '0');
      if (exponent > 400) literal_exponent_is_out_of_range();
    }
    d.exponent += negative ? -exponent : exponent;
  }
  return d;
}

// mantissa x 10^exponent x 2^binary_exponent, correctly rounded whenever the decimal part is exact in a
// 64-bit integer or is an exact double divided or multiplied by an exact power of ten (Clinger's fast path);
// that covers every literal a person writes. Other inputs fall back to long double arithmetic.
consteval double to_double(decimal d, int binary_exponent) {
  constexpr unsigned long long exact_double_limit = 1ULL << 53;
  double value = 0.0;
  unsigned long long scaled = d.mantissa;
  int exponent = d.exponent;
  while (exponent > 0 && scaled <= ~0ULL / 10) {
    scaled *= 10;
    --exponent;
  }
  if (exponent == 0) {
    value = static_cast<double>(scaled);
  } else if (d.mantissa <= exact_double_limit && exponent < 0 && exponent >= -22) {
    value = static_cast<double>(d.mantissa) / power_of_ten(-exponent);
  } else if (d.mantissa <= exact_double_limit && d.exponent > 0 && d.exponent <= 22) {
    value = static_cast<double>(d.mantissa) * power_of_ten(d.exponent);
  } else {
    long double v = static_cast<long double>(d.mantissa);
    for (int e = d.exponent; e > 0; --e) v *= 10.0L;
    for (int e = d.exponent; e < 0; ++e) v /= 10.0L;
    value = static_cast<double>(v);
  }
  value = times_power_of_two(value, binary_exponent);  // exact (bits to bytes too)
  if (value > 1.7976931348623157e308) literal_is_too_large_for_a_double();
  if (value == 0.0 && d.mantissa != 0) literal_is_too_small_for_a_double();
  return value;
}

// The written number times 10^DecimalExponent x 2^BinaryExponent, in the base unit of Quantity.
// Bits are bytes x 2^-3, which is exact.
template <class Quantity, int DecimalExponent, int BinaryExponent, char... Chars>
consteval Quantity make_literal() {
  decimal d = parse_literal<Chars...>();
  d.exponent += DecimalExponent;
  return Quantity::from_value(to_double(d, BinaryExponent));
}

}  // namespace hml::detail

export namespace hml::literals {

// clang-format off
// Information: B = byte, bit = bit (IEC 80000-13); SI and IEC prefixes. A bit is 2^-3 byte.
template <char... C> consteval data_size operator""_B()     { return detail::make_literal<data_size, 0, 0, C...>(); }
template <char... C> consteval data_size operator""_kB()    { return detail::make_literal<data_size, 3, 0, C...>(); }
template <char... C> consteval data_size operator""_MB()    { return detail::make_literal<data_size, 6, 0, C...>(); }
template <char... C> consteval data_size operator""_GB()    { return detail::make_literal<data_size, 9, 0, C...>(); }
template <char... C> consteval data_size operator""_TB()    { return detail::make_literal<data_size, 12, 0, C...>(); }
template <char... C> consteval data_size operator""_PB()    { return detail::make_literal<data_size, 15, 0, C...>(); }
template <char... C> consteval data_size operator""_KiB()   { return detail::make_literal<data_size, 0, 10, C...>(); }
template <char... C> consteval data_size operator""_MiB()   { return detail::make_literal<data_size, 0, 20, C...>(); }
template <char... C> consteval data_size operator""_GiB()   { return detail::make_literal<data_size, 0, 30, C...>(); }
template <char... C> consteval data_size operator""_TiB()   { return detail::make_literal<data_size, 0, 40, C...>(); }
template <char... C> consteval data_size operator""_bit()   { return detail::make_literal<data_size, 0, -3, C...>(); }
template <char... C> consteval data_size operator""_kbit()  { return detail::make_literal<data_size, 3, -3, C...>(); }
template <char... C> consteval data_size operator""_Mbit()  { return detail::make_literal<data_size, 6, -3, C...>(); }
template <char... C> consteval data_size operator""_Gbit()  { return detail::make_literal<data_size, 9, -3, C...>(); }
template <char... C> consteval data_size operator""_Tbit()  { return detail::make_literal<data_size, 12, -3, C...>(); }
template <char... C> consteval data_size operator""_Kibit() { return detail::make_literal<data_size, 0, 7, C...>(); }
template <char... C> consteval data_size operator""_Mibit() { return detail::make_literal<data_size, 0, 17, C...>(); }
template <char... C> consteval data_size operator""_Gibit() { return detail::make_literal<data_size, 0, 27, C...>(); }

// Time.
template <char... C> consteval duration operator""_ns() { return detail::make_literal<duration, -9, 0, C...>(); }
template <char... C> consteval duration operator""_us() { return detail::make_literal<duration, -6, 0, C...>(); }
template <char... C> consteval duration operator""_ms() { return detail::make_literal<duration, -3, 0, C...>(); }
template <char... C> consteval duration operator""_s()  { return detail::make_literal<duration, 0, 0, C...>(); }

// Frequency (clocks).
template <char... C> consteval frequency operator""_Hz()  { return detail::make_literal<frequency, 0, 0, C...>(); }
template <char... C> consteval frequency operator""_MHz() { return detail::make_literal<frequency, 6, 0, C...>(); }
template <char... C> consteval frequency operator""_GHz() { return detail::make_literal<frequency, 9, 0, C...>(); }

// Work: a count of floating-point operations.
template <char... C> consteval work operator""_FLOP()  { return detail::make_literal<work, 0, 0, C...>(); }
template <char... C> consteval work operator""_kFLOP() { return detail::make_literal<work, 3, 0, C...>(); }
template <char... C> consteval work operator""_MFLOP() { return detail::make_literal<work, 6, 0, C...>(); }
template <char... C> consteval work operator""_GFLOP() { return detail::make_literal<work, 9, 0, C...>(); }
template <char... C> consteval work operator""_TFLOP() { return detail::make_literal<work, 12, 0, C...>(); }
template <char... C> consteval work operator""_PFLOP() { return detail::make_literal<work, 15, 0, C...>(); }

// Data rates: Bps = bytes per second, bps = bits per second.
template <char... C> consteval data_rate operator""_MBps()  { return detail::make_literal<data_rate, 6, 0, C...>(); }
template <char... C> consteval data_rate operator""_GBps()  { return detail::make_literal<data_rate, 9, 0, C...>(); }
template <char... C> consteval data_rate operator""_TBps()  { return detail::make_literal<data_rate, 12, 0, C...>(); }
template <char... C> consteval data_rate operator""_GiBps() { return detail::make_literal<data_rate, 0, 30, C...>(); }
template <char... C> consteval data_rate operator""_Mbps()  { return detail::make_literal<data_rate, 6, -3, C...>(); }
template <char... C> consteval data_rate operator""_Gbps()  { return detail::make_literal<data_rate, 9, -3, C...>(); }
template <char... C> consteval data_rate operator""_Tbps()  { return detail::make_literal<data_rate, 12, -3, C...>(); }

// Compute rates: FLOPS = FLOP per second.
template <char... C> consteval compute_rate operator""_GFLOPS() { return detail::make_literal<compute_rate, 9, 0, C...>(); }
template <char... C> consteval compute_rate operator""_TFLOPS() { return detail::make_literal<compute_rate, 12, 0, C...>(); }
template <char... C> consteval compute_rate operator""_PFLOPS() { return detail::make_literal<compute_rate, 15, 0, C...>(); }
// clang-format on

}  // namespace hml::literals
