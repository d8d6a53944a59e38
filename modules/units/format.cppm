// hml.format — constexpr number formatting that agrees with glibc's printf to the last character.
//
// format_number(value, spec) writes what snprintf(buf, n, "%.<precision><e|f|g>", value) writes with glibc in
// round-to-nearest mode, and does it in a constant expression, so that documented output lines can be checked
// by static_assert. printf rounds the exact binary value of the double (not a shortest decimal), so this module
// does too: a double is mantissa * 2^exponent exactly, its integer part is converted to decimal with a small
// big integer, and its fraction yields nine exact decimal digits per multiplication by 10^9. Rounding then looks
// at the first dropped digit and whether anything non-zero follows it; a true tie rounds half to even.
module;

#include <bit>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string_view>

export module hml.format;

export namespace hml {

// A string of at most Capacity characters that lives in a constant expression: a char array and a length.
// The members are public so that fixed_text is a structural type and may be a template argument.
// Appending past the capacity throws std::length_error, which in a constant expression fails to compile.
template <std::size_t Capacity>
class fixed_text {
public:
  char characters[Capacity + 1]{};  // one spare char keeps the text NUL-terminated for c_str()
  std::size_t length = 0;

  constexpr fixed_text() noexcept = default;
  constexpr explicit fixed_text(std::string_view text) { append(text); }

  constexpr void push_back(char c) {
    if (length == Capacity) {
      throw std::length_error("hml::fixed_text: capacity exceeded");
    }
    characters[length++] = c;
  }

  constexpr void append(std::string_view text) {
    if (text.size() > Capacity - length) {
      throw std::length_error("hml::fixed_text: capacity exceeded");
    }
    for (const char c : text) {
      characters[length++] = c;
    }
  }

  constexpr void clear() noexcept {
    for (std::size_t i = 0; i < length; ++i) {
      characters[i] = '\0';
    }
    length = 0;
  }

  [[nodiscard]] constexpr std::size_t size() const noexcept { return length; }
  [[nodiscard]] constexpr bool empty() const noexcept { return length == 0; }
  [[nodiscard]] static constexpr std::size_t capacity() noexcept { return Capacity; }

  [[nodiscard]] constexpr const char* data() const noexcept { return characters; }
  [[nodiscard]] constexpr const char* c_str() const noexcept { return characters; }
  [[nodiscard]] constexpr const char* begin() const noexcept { return characters; }
  [[nodiscard]] constexpr const char* end() const noexcept { return characters + length; }
  [[nodiscard]] constexpr char operator[](std::size_t i) const noexcept { return characters[i]; }

  [[nodiscard]] constexpr std::string_view view() const noexcept { return {characters, length}; }
  constexpr operator std::string_view() const noexcept { return view(); }  // NOLINT: implicit by design

  template <std::size_t OtherCapacity>
  friend constexpr bool operator==(const fixed_text& a, const fixed_text<OtherCapacity>& b) noexcept {
    return a.view() == b.view();
  }
  friend constexpr bool operator==(const fixed_text& a, std::string_view b) noexcept { return a.view() == b; }
};

// fixed_text{"abc"} holds exactly the literal.
template <std::size_t N>
fixed_text(const char (&)[N]) -> fixed_text<N - 1>;

// printf's conversion letters.
enum class float_style : char { scientific = 'e', fixed = 'f', general = 'g' };

// "%.<precision><style>"; precision is printf's: digits after the point for e and f, significant digits for g.
struct number_format {
  float_style style = float_style::general;
  int precision = 6;
};

[[nodiscard]] constexpr number_format scientific(int precision = 6) noexcept {
  return {float_style::scientific, precision};
}
[[nodiscard]] constexpr number_format fixed(int precision = 6) noexcept { return {float_style::fixed, precision}; }
[[nodiscard]] constexpr number_format general(int precision = 6) noexcept { return {float_style::general, precision}; }

// The largest precision accepted (printf takes more): it bounds the text, so the result fits a fixed_text.
inline constexpr int max_number_precision = 100;

// The longest result: "%.100f" of -DBL_MAX, a sign, 309 integer digits, the point and 100 decimals.
inline constexpr std::size_t number_text_capacity = 1 + 309 + 1 + max_number_precision;

}  // namespace hml

// The powers the units' literals, parser, symbols and prefixes scale by, each computed one way so that they
// agree to the last bit; and a double's exact value, which the printer of quantities asks too.
export namespace hml::detail {

// 10^n: exact for 0 <= n <= 22, correctly rounded (one division) for -22 <= n < 0.
constexpr double power_of_ten(int n) noexcept {
  double power = 1;
  for (int i = 0; i < (n < 0 ? -n : n); ++i) power *= 10;
  return n < 0 ? 1 / power : power;
}

// value x 2^n by doubling or halving, each step exact for normal numbers.
constexpr double times_power_of_two(double value, int n) noexcept {
  for (; n > 0; --n) value *= 2;
  for (; n < 0; ++n) value /= 2;
  return value;
}

// A double split as sign, class and exact value mantissa * 2^exponent; the mantissa is odd unless it is zero,
// which keeps the big-integer work as short as the value allows (0.5 is 1 * 2^-1, not 2^52 * 2^-53).
struct decomposed_double {
  bool negative = false;
  bool infinite = false;
  bool not_a_number = false;
  std::uint64_t mantissa = 0;
  int exponent = 0;
};

constexpr decomposed_double decompose(double value) noexcept {
  const auto bits = std::bit_cast<std::uint64_t>(value);
  const auto biased_exponent = static_cast<int>((bits >> 52) & 0x7ff);
  const std::uint64_t fraction = bits & ((std::uint64_t{1} << 52) - 1);

  decomposed_double d;
  d.negative = (bits >> 63) != 0;
  if (biased_exponent == 0x7ff) {
    d.infinite = fraction == 0;
    d.not_a_number = fraction != 0;
    return d;
  }
  // Subnormals have no implicit leading bit and share the exponent of the smallest normal.
  d.mantissa = biased_exponent == 0 ? fraction : fraction | (std::uint64_t{1} << 52);
  d.exponent = (biased_exponent == 0 ? 1 : biased_exponent) - 1075;
  if (d.mantissa != 0) {
    const int trailing_zeros = std::countr_zero(d.mantissa);
    d.mantissa >>= trailing_zeros;
    d.exponent += trailing_zeros;
  }
  return d;
}

}  // namespace hml::detail

namespace hml::detail {

// Nine decimal digits fit in a 32-bit limb and 10^9 times a limb fits in 64 bits.
inline constexpr std::uint32_t chunk_base = 1'000'000'000;
inline constexpr int chunk_digits = 9;

// DBL_MAX has 309 integer digits.
inline constexpr int max_integer_digits = 309;

// Decimal digits as values 0..9, most significant first.
struct digit_string {
  static constexpr int capacity = max_integer_digits + max_number_precision + 1 + chunk_digits;

  char digits[capacity]{};
  int count = 0;

  constexpr int operator[](int i) const noexcept { return digits[i]; }

  constexpr void push(int digit) {
    if (count == capacity) {
      throw std::logic_error("hml::format_number: digit buffer overflow");  // unreachable for doubles
    }
    digits[count++] = static_cast<char>(digit);
  }

  // The last `width` decimal digits of chunk, with leading zeros.
  constexpr void push_chunk(std::uint32_t chunk, int width = chunk_digits) {
    char reversed[chunk_digits]{};
    for (int i = 0; i < width; ++i) {
      reversed[i] = static_cast<char>(chunk % 10);
      chunk /= 10;
    }
    for (int i = width - 1; i >= 0; --i) {
      push(reversed[i]);
    }
  }

  // Makes room for the 1 that a carry out of the leading digit produces (9.99 -> 10.00).
  constexpr void prepend_one() {
    push(0);
    for (int i = count - 1; i > 0; --i) {
      digits[i] = digits[i - 1];
    }
    digits[0] = 1;
  }
};

// How many digits n has without leading zeros (0 for 0).
constexpr int decimal_width(std::uint64_t n) noexcept {
  int width = 0;
  for (; n != 0; n /= 10) {
    ++width;
  }
  return width;
}

// The integer mantissa * 2^shift when it does not fit in 64 bits (up to 2^1024), in 32-bit limbs, least
// significant first; converted to decimal by repeated division by 10^9.
class big_integer {
public:
  constexpr big_integer(std::uint64_t mantissa, int shift) noexcept {
    const int index = shift / 32;
    const int bit = shift % 32;
    const std::uint64_t low = mantissa << bit;
    const std::uint64_t high = bit == 0 ? 0 : mantissa >> (64 - bit);
    limbs_[index] = static_cast<std::uint32_t>(low);
    limbs_[index + 1] = static_cast<std::uint32_t>(low >> 32);
    limbs_[index + 2] = static_cast<std::uint32_t>(high);
    size_ = index + 3;
    trim();
  }

  [[nodiscard]] constexpr bool is_zero() const noexcept { return size_ == 0; }

  // Divides by 10^9 in place and returns the remainder: the next nine digits from the right.
  constexpr std::uint32_t divide_by_chunk_base() noexcept {
    std::uint64_t remainder = 0;
    for (int i = size_ - 1; i >= 0; --i) {
      const std::uint64_t current = (remainder << 32) | limbs_[i];
      limbs_[i] = static_cast<std::uint32_t>(current / chunk_base);
      remainder = current % chunk_base;
    }
    trim();
    return static_cast<std::uint32_t>(remainder);
  }

private:
  // 53 mantissa bits shifted by up to 971 span limbs 0..31; the constructor writes up to limb 32.
  static constexpr int max_limbs = 33;

  constexpr void trim() noexcept {
    while (size_ > 0 && limbs_[size_ - 1] == 0) {
      --size_;
    }
  }

  std::uint32_t limbs_[max_limbs]{};
  int size_ = 0;
};

// A binary fraction 0 <= f < 1 whose digits are produced nine at a time: f * 10^9 moves the next nine decimal
// digits above the binary point, which is kept on a limb boundary so that they are exactly the carry out of
// the top limb. Only the limbs in [low_, high_) can be non-zero, which keeps small fractions cheap.
class binary_fraction {
public:
  constexpr binary_fraction() noexcept = default;

  // f = numerator / 2^fraction_bits with numerator < 2^fraction_bits and fraction_bits in [1, 1074].
  constexpr binary_fraction(std::uint64_t numerator, int fraction_bits) noexcept
      : limb_count_{(fraction_bits + 31) / 32} {
    const int shift = limb_count_ * 32 - fraction_bits;
    const std::uint64_t low = numerator << shift;
    const std::uint64_t high = shift == 0 ? 0 : numerator >> (64 - shift);
    const std::uint32_t parts[3] = {static_cast<std::uint32_t>(low), static_cast<std::uint32_t>(low >> 32),
                                    static_cast<std::uint32_t>(high)};
    for (int i = 0; i < 3 && i < limb_count_; ++i) {
      limbs_[i] = parts[i];
    }
    high_ = limb_count_;
    trim();
  }

  [[nodiscard]] constexpr bool is_zero() const noexcept { return low_ == high_; }

  // The next nine decimal digits of the fraction, as a number below 10^9.
  constexpr std::uint32_t next_chunk() noexcept {
    std::uint64_t carry = 0;
    for (int i = low_; i < high_; ++i) {
      const std::uint64_t product = std::uint64_t{limbs_[i]} * chunk_base + carry;
      limbs_[i] = static_cast<std::uint32_t>(product);
      carry = product >> 32;
    }
    if (carry != 0 && high_ < limb_count_) {
      limbs_[high_++] = static_cast<std::uint32_t>(carry);  // still below the binary point
      carry = 0;
    }
    trim();
    return static_cast<std::uint32_t>(carry);
  }

private:
  // The smallest subnormal has 1074 fractional bits: 34 limbs.
  static constexpr int max_limbs = 34;

  constexpr void trim() noexcept {
    while (low_ < high_ && limbs_[low_] == 0) {
      ++low_;
    }
    while (high_ > low_ && limbs_[high_ - 1] == 0) {
      --high_;
    }
  }

  std::uint32_t limbs_[max_limbs]{};
  int limb_count_ = 0;
  int low_ = 0;
  int high_ = 0;
};

// Appends the decimal digits of n without leading zeros (nothing for 0).
constexpr void append_uint64(digit_string& out, std::uint64_t n) {
  const int width = decimal_width(n);
  char reversed[20]{};
  for (int i = 0; i < width; ++i) {
    reversed[i] = static_cast<char>(n % 10);
    n /= 10;
  }
  for (int i = width - 1; i >= 0; --i) {
    out.push(reversed[i]);
  }
}

// Appends the digits of floor(mantissa * 2^exponent), nothing when it is zero.
constexpr void append_integer_part(digit_string& out, std::uint64_t mantissa, int exponent) {
  if (exponent < 0) {
    append_uint64(out, exponent <= -64 ? 0 : mantissa >> -exponent);
    return;
  }
  if (exponent + static_cast<int>(std::bit_width(mantissa)) <= 64) {
    append_uint64(out, mantissa << exponent);
    return;
  }
  // Division yields the chunks from the right; the leading chunk is printed without its leading zeros.
  big_integer n{mantissa, exponent};
  std::uint32_t chunks[max_integer_digits / chunk_digits + 1]{};
  int chunk_count = 0;
  while (!n.is_zero()) {
    chunks[chunk_count++] = n.divide_by_chunk_base();
  }
  out.push_chunk(chunks[chunk_count - 1], decimal_width(chunks[chunk_count - 1]));
  for (int i = chunk_count - 2; i >= 0; --i) {
    out.push_chunk(chunks[i]);
  }
}

// The part of mantissa * 2^exponent below the binary point.
constexpr binary_fraction fractional_part(std::uint64_t mantissa, int exponent) noexcept {
  if (exponent >= 0) {
    return {};
  }
  const int bits = -exponent;
  const std::uint64_t numerator = bits >= 64 ? mantissa : mantissa & ((std::uint64_t{1} << bits) - 1);
  return {numerator, bits};
}

// Keeps the first `keep` digits of out, rounding to nearest by the digits after them and by tail_is_zero (no
// non-zero digit beyond those in out); a tie goes to the even digit. Returns true when the carry ran out of
// the leading digit, leaving all kept digits zero.
constexpr bool round_to(digit_string& out, int keep, bool tail_is_zero) noexcept {
  const int first_dropped = out[keep];
  bool rest_is_zero = tail_is_zero;
  for (int i = keep + 1; i < out.count && rest_is_zero; ++i) {
    rest_is_zero = out[i] == 0;
  }
  out.count = keep;

  const bool last_kept_is_odd = keep > 0 && out[keep - 1] % 2 == 1;
  const bool round_up = first_dropped > 5 || (first_dropped == 5 && (!rest_is_zero || last_kept_is_odd));
  if (!round_up) {
    return false;
  }
  int i = keep - 1;
  for (; i >= 0 && out.digits[i] == 9; --i) {
    out.digits[i] = 0;
  }
  if (i < 0) {
    return true;
  }
  ++out.digits[i];
  return false;
}

// |value| rounded to `precision` digits after the point: the integer digits ("0" at least), then the decimals.
constexpr digit_string fixed_digits(const decomposed_double& value, int precision) {
  digit_string out;
  append_integer_part(out, value.mantissa, value.exponent);
  if (out.count == 0) {
    out.push(0);
  }
  const int keep = out.count + precision;
  binary_fraction fraction = fractional_part(value.mantissa, value.exponent);
  while (out.count <= keep) {
    out.push_chunk(fraction.next_chunk());
  }
  if (round_to(out, keep, fraction.is_zero())) {
    out.prepend_one();
  }
  return out;
}

// |value| rounded to `significant` digits, d.ddd * 10^exponent10.
struct significant_digits {
  digit_string digits;
  int exponent10 = 0;
};

constexpr significant_digits scientific_digits(const decomposed_double& value, int significant) {
  significant_digits result;
  digit_string& out = result.digits;
  if (value.mantissa == 0) {
    for (int i = 0; i < significant; ++i) {
      out.push(0);
    }
    return result;
  }

  append_integer_part(out, value.mantissa, value.exponent);
  binary_fraction fraction = fractional_part(value.mantissa, value.exponent);
  if (out.count > 0) {
    result.exponent10 = out.count - 1;
  } else {
    // Below one: skip the zero chunks before the first significant digit.
    int exponent10 = -1;
    std::uint32_t chunk = fraction.next_chunk();
    for (; chunk == 0; chunk = fraction.next_chunk()) {
      exponent10 -= chunk_digits;
    }
    const int width = decimal_width(chunk);
    result.exponent10 = exponent10 - (chunk_digits - width);
    out.push_chunk(chunk, width);
  }
  while (out.count <= significant) {
    out.push_chunk(fraction.next_chunk());
  }
  if (round_to(out, significant, fraction.is_zero())) {
    out.prepend_one();  // 9.99e+00 -> 1.00e+01
    out.count = significant;
    ++result.exponent10;
  }
  return result;
}

constexpr char digit_char(int digit) noexcept { return static_cast<char>('0' + digit); }

template <class Sink>
constexpr void put(Sink& out, std::string_view text) {
  for (const char c : text) {
    out.push_back(c);
  }
}

// Digits [first, last) of d, with zeros where d has no digit (negative indices).
template <class Sink>
constexpr void put_digits(Sink& out, const digit_string& d, int first, int last) {
  for (int i = first; i < last; ++i) {
    out.push_back(i < 0 ? '0' : digit_char(d[i]));
  }
}

// "e+05", "e-324": the sign always, at least two digits.
template <class Sink>
constexpr void put_exponent(Sink& out, int exponent10) {
  out.push_back('e');
  out.push_back(exponent10 < 0 ? '-' : '+');
  const int magnitude = exponent10 < 0 ? -exponent10 : exponent10;
  if (magnitude >= 100) {
    out.push_back(digit_char(magnitude / 100));
  }
  out.push_back(digit_char(magnitude / 10 % 10));
  out.push_back(digit_char(magnitude % 10));
}

// d.ddd with `shown` digits in all, then the exponent.
template <class Sink>
constexpr void put_scientific(Sink& out, const digit_string& d, int shown, int exponent10) {
  put_digits(out, d, 0, 1);
  if (shown > 1) {
    out.push_back('.');
    put_digits(out, d, 1, shown);
  }
  put_exponent(out, exponent10);
}

template <class Sink>
constexpr void format_fixed(Sink& out, const decomposed_double& value, int precision) {
  const digit_string d = fixed_digits(value, precision);
  const int integer_digits = d.count - precision;
  put_digits(out, d, 0, integer_digits);
  if (precision > 0) {
    out.push_back('.');
    put_digits(out, d, integer_digits, d.count);
  }
}

// The value times 10^shift10 is printed (see format_number_scaled_to): the same digits, the exponent moved,
// but not a zero's.
template <class Sink>
constexpr void format_scientific(Sink& out, const decomposed_double& value, int precision, int shift10 = 0) {
  const significant_digits s = scientific_digits(value, precision + 1);
  put_scientific(out, s.digits, precision + 1, value.mantissa == 0 ? 0 : s.exponent10 + shift10);
}

// %g: P significant digits (0 means 1); the exponent X of the rounded value picks the style, f when
// P > X >= -4, else e; trailing zeros of the fraction and a bare point are then removed.
template <class Sink>
constexpr void format_general(Sink& out, const decomposed_double& value, int precision, int shift10 = 0) {
  const int significant = precision == 0 ? 1 : precision;
  const significant_digits s = scientific_digits(value, significant);
  const int x = value.mantissa == 0 ? 0 : s.exponent10 + shift10;

  int shown = significant;
  while (shown > 1 && s.digits[shown - 1] == 0) {
    --shown;
  }
  if (x < -4 || x >= significant) {
    put_scientific(out, s.digits, shown, x);
  } else if (x >= 0) {
    put_digits(out, s.digits, 0, x + 1);
    if (shown > x + 1) {
      out.push_back('.');
      put_digits(out, s.digits, x + 1, shown);
    }
  } else {
    out.push_back('0');
    out.push_back('.');
    put_digits(out, s.digits, x + 1, shown);  // the negative indices are the zeros after the point
  }
}

constexpr void check_format(number_format spec) {
  if (spec.precision < 0 || spec.precision > max_number_precision) {
    throw std::invalid_argument("hml::format_number: precision must be in [0, 100]");
  }
  if (spec.style != float_style::scientific && spec.style != float_style::fixed &&
      spec.style != float_style::general) {
    throw std::invalid_argument("hml::format_number: style must be scientific, fixed or general");
  }
}

// The value (times 10^shift10 where the style is scientific or general) in the spec's style; fixed
// notation takes no shift (format_number_scaled_to divides first).
template <class Sink>
constexpr void format_shifted(Sink& out, double value, number_format spec, int shift10) {
  check_format(spec);
  if (spec.style == float_style::fixed && shift10 != 0) {
    throw std::invalid_argument("hml::format_number: fixed notation takes no shift; divide first");
  }
  const decomposed_double d = decompose(value);
  if (d.negative) out.push_back('-');
  if (d.not_a_number) {
    put(out, "nan");
  } else if (d.infinite) {
    put(out, "inf");
  } else if (spec.style == float_style::fixed) {
    format_fixed(out, d, spec.precision);
  } else if (spec.style == float_style::scientific) {
    format_scientific(out, d, spec.precision, shift10);
  } else {
    format_general(out, d, spec.precision, shift10);
  }
}

}  // namespace hml::detail

export namespace hml {

// Appends to out exactly what glibc's snprintf(buf, n, "%.<precision><e|f|g>", value) writes.
// Precision outside [0, max_number_precision] or an unknown style throws std::invalid_argument.
template <class Sink>
  requires requires(Sink& s, char c) { s.push_back(c); }
constexpr void format_number_to(Sink& out, double value, number_format spec) {
  detail::format_shifted(out, value, spec, 0);
}

// value x 10^shift10 as format_number_to writes it, rounding the exact product, for a number shown in a
// decimally prefixed unit: 2.0335e-07 s divided by 1e-9 is 203.34999999999997 and printed "203.3" where the
// double's own value, above 203.35 ns, rounds to "203.4" (and 2335 B in kB was "2.33" beside "2.34 us" for
// 2.335e-06 s). Fixed notation keeps the product (it rounds at a place the shift would move).
template <class Sink>
  requires requires(Sink& s, char c) { s.push_back(c); }
constexpr void format_number_scaled_to(Sink& out, double value, int shift10, number_format spec) {
  if (spec.style == float_style::fixed) {  // value / the prefix's factor, 1e-9 or 1e3
    return format_number_to(out, value / detail::power_of_ten(-shift10), spec);
  }
  detail::format_shifted(out, value, spec, shift10);
}

// format_number_to into a fixed_text, so that the result can be a constexpr variable or compared in static_assert.
[[nodiscard]] constexpr fixed_text<number_text_capacity> format_number(double value, number_format spec) {
  fixed_text<number_text_capacity> text;
  format_number_to(text, value, spec);
  return text;
}

}  // namespace hml
