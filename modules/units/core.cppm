// hml.units:core — quantities whose unit is part of their type.
//
// Dimensional analysis is Boost.Units': the units below are boost::units::unit types of one system
// (byte, second, FLOP), and products and quotients of units are computed by Boost's typeof helpers.
// The value type is hml's own: boost::units::quantity has a user-provided copy constructor and destructor,
// so it is not trivially copyable; hml::quantity is a bare double, trivially copyable and constexpr
// throughout. Every quantity holds its value in the system's base unit (byte, second, FLOP), so a
// conversion is a multiplication done once, when a value enters (literal, unit, parser) or leaves (in()).
module;
#include <boost/units/base_dimension.hpp>
#include <boost/units/base_unit.hpp>
#include <boost/units/base_units/information/byte.hpp>
#include <boost/units/base_units/si/second.hpp>
#include <boost/units/dimensionless_type.hpp>
#include <boost/units/make_system.hpp>
#include <boost/units/operators.hpp>
#include <boost/units/physical_dimensions/information.hpp>
#include <boost/units/physical_dimensions/time.hpp>
#include <boost/units/unit.hpp>

#include <cmath>
#include <compare>
#include <concepts>
#include <limits>
#include <stdexcept>
#include <type_traits>
export module hml.units:core;

namespace bu = boost::units;

namespace hml::detail {

// Work is a base dimension of its own: a FLOP is a count of operations, not a dimensionless number,
// so that FLOP and FLOP/s, or FLOP/B and B/FLOP, can never be confused.
struct work_base_dimension : bu::base_dimension<work_base_dimension, 1> {};
using work_dimension = work_base_dimension::dimension_type;

struct flop_base_unit : bu::base_unit<flop_base_unit, work_dimension, 1> {
  static constexpr const char* name() { return "floating-point operation"; }
  static constexpr const char* symbol() { return "FLOP"; }
};

// A processor cycle is a base dimension too: the ECM model counts time in cycles of a core's clock, and a
// cycle becomes seconds only through a stated clock, so cycles and seconds (B/cy and B/s) never mix.
struct cycle_base_dimension : bu::base_dimension<cycle_base_dimension, 2> {};
using cycle_dimension = cycle_base_dimension::dimension_type;

struct cycle_base_unit : bu::base_unit<cycle_base_unit, cycle_dimension, 2> {
  static constexpr const char* name() { return "cycle"; }
  static constexpr const char* symbol() { return "cy"; }
};

using system = bu::make_system<bu::information::byte_base_unit, bu::si::second_base_unit, flop_base_unit,
                               cycle_base_unit>::type;

template <class Unit>
inline constexpr bool is_dimensionless = std::is_same_v<typename Unit::dimension_type, bu::dimensionless_type>;

template <class A, class B>
using product_unit = typename bu::multiply_typeof_helper<A, B>::type;
template <class A, class B>
using quotient_unit = typename bu::divide_typeof_helper<A, B>::type;

template <class>
inline constexpr bool always_false = false;

}  // namespace hml::detail

export namespace hml {

// Units of the library's system, as Boost.Units types.
using byte_unit = bu::unit<bu::information_dimension, detail::system>;
using second_unit = bu::unit<bu::time_dimension, detail::system>;
using flop_unit = bu::unit<detail::work_dimension, detail::system>;
using hertz_unit = detail::quotient_unit<bu::unit<bu::dimensionless_type, detail::system>, second_unit>;
using byte_per_second_unit = detail::quotient_unit<byte_unit, second_unit>;
using flop_per_second_unit = detail::quotient_unit<flop_unit, second_unit>;
using flop_per_byte_unit = detail::quotient_unit<flop_unit, byte_unit>;
using cycle_unit = bu::unit<detail::cycle_dimension, detail::system>;
using byte_per_cycle_unit = detail::quotient_unit<byte_unit, cycle_unit>;

// A value of `Unit`, stored in the base unit of the system. Built from a literal (`10_MiB`), a number
// times a unit (`10 * mebibyte`) or from_value(); read with in(unit) or value(). There is deliberately no
// implicit conversion from or to double.
template <class Unit>
class quantity {
public:
  using unit_type = Unit;

  quantity() = default;

  // The value in the system's base unit (bytes, seconds, FLOP and their quotients).
  [[nodiscard]] static constexpr quantity from_value(double base_value) noexcept {
    quantity q;
    q.value_ = base_value;
    return q;
  }
  [[nodiscard]] constexpr double value() const noexcept { return value_; }

  constexpr quantity operator+() const noexcept { return *this; }
  constexpr quantity operator-() const noexcept { return from_value(-value_); }
  constexpr quantity& operator+=(quantity other) noexcept { value_ += other.value_; return *this; }
  constexpr quantity& operator-=(quantity other) noexcept { value_ -= other.value_; return *this; }
  constexpr quantity& operator*=(double factor) noexcept { value_ *= factor; return *this; }
  constexpr quantity& operator/=(double divisor) noexcept { value_ /= divisor; return *this; }

  friend constexpr quantity operator+(quantity a, quantity b) noexcept { return from_value(a.value_ + b.value_); }
  friend constexpr quantity operator-(quantity a, quantity b) noexcept { return from_value(a.value_ - b.value_); }
  friend constexpr bool operator==(quantity a, quantity b) noexcept = default;
  friend constexpr std::partial_ordering operator<=>(quantity a, quantity b) noexcept { return a.value_ <=> b.value_; }

private:
  double value_ = 0.0;
};

// A number that multiplies a plain value into a quantity of `Unit`: `gigabyte` is 1e9 bytes.
template <class Unit>
struct unit {
  double base_per_unit = 1.0;
};

// Numbers that scale a quantity: bool and character types are integral but are not amounts.
template <class T>
concept arithmetic = (std::integral<T> || std::floating_point<T>) && !std::same_as<T, bool> &&
                     !std::same_as<T, char> && !std::same_as<T, signed char> && !std::same_as<T, unsigned char> &&
                     !std::same_as<T, wchar_t> && !std::same_as<T, char8_t> && !std::same_as<T, char16_t> &&
                     !std::same_as<T, char32_t>;

// A product or quotient whose dimensions cancel is a plain number, not a quantity.
template <class Unit>
[[nodiscard]] constexpr auto make_quantity(double base_value) noexcept {
  if constexpr (detail::is_dimensionless<Unit>) {
    return base_value;
  } else {
    return quantity<Unit>::from_value(base_value);
  }
}

template <class U, arithmetic N>
[[nodiscard]] constexpr quantity<U> operator*(N number, unit<U> u) noexcept {
  return quantity<U>::from_value(static_cast<double>(number) * u.base_per_unit);
}
template <class A, class B>
[[nodiscard]] constexpr unit<detail::product_unit<A, B>> operator*(unit<A> a, unit<B> b) noexcept {
  return {a.base_per_unit * b.base_per_unit};
}
template <class A, class B>
[[nodiscard]] constexpr unit<detail::quotient_unit<A, B>> operator/(unit<A> a, unit<B> b) noexcept {
  return {a.base_per_unit / b.base_per_unit};
}

// Scaling by a plain number.
template <class U, arithmetic N>
[[nodiscard]] constexpr quantity<U> operator*(quantity<U> q, N factor) noexcept {
  return quantity<U>::from_value(q.value() * static_cast<double>(factor));
}
template <class U, arithmetic N>
[[nodiscard]] constexpr quantity<U> operator*(N factor, quantity<U> q) noexcept {
  return q * factor;
}
template <class U, arithmetic N>
[[nodiscard]] constexpr quantity<U> operator/(quantity<U> q, N divisor) noexcept {
  return quantity<U>::from_value(q.value() / static_cast<double>(divisor));
}
template <class U, arithmetic N>
[[nodiscard]] constexpr auto operator/(N number, quantity<U> q) noexcept {
  using inverse = detail::quotient_unit<bu::unit<bu::dimensionless_type, detail::system>, U>;
  return make_quantity<inverse>(static_cast<double>(number) / q.value());
}

// Products and quotients of quantities: the unit algebra is Boost.Units'.
template <class A, class B>
[[nodiscard]] constexpr auto operator*(quantity<A> a, quantity<B> b) noexcept {
  return make_quantity<detail::product_unit<A, B>>(a.value() * b.value());
}
template <class A, class B>
[[nodiscard]] constexpr auto operator/(quantity<A> a, quantity<B> b) noexcept {
  return make_quantity<detail::quotient_unit<A, B>>(a.value() / b.value());
}

// Sums and comparisons across dimensions are the classic unit slips: deleted, with the reason in the
// diagnostic, so that generic code (concepts, requires-expressions, std::plus) sees them as invalid too.
// `= delete("reason")` is C++26; clang accepts it in C++20 mode as an extension.
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wc++26-extensions"
template <class A, class B>
  requires(!std::same_as<A, B>)
quantity<A> operator+(quantity<A>, quantity<B>) = delete("hml: cannot add quantities of different dimensions");
template <class A, class B>
  requires(!std::same_as<A, B>)
quantity<A> operator-(quantity<A>, quantity<B>) = delete("hml: cannot subtract quantities of different dimensions");
template <class A, class B>
  requires(!std::same_as<A, B>)
bool operator==(quantity<A>, quantity<B>) = delete("hml: cannot compare quantities of different dimensions");
template <class A, class B>
  requires(!std::same_as<A, B>)
std::partial_ordering operator<=>(quantity<A>, quantity<B>) = delete("hml: cannot compare quantities of different dimensions");
#pragma clang diagnostic pop

// The value as a plain number of `u`: `t.in(microsecond)`; the one explicit way out of the type system.
template <class U>
[[nodiscard]] constexpr double in(quantity<U> q, unit<U> u) noexcept {
  return q.value() / u.base_per_unit;
}

template <class U>
[[nodiscard]] constexpr quantity<U> abs(quantity<U> q) noexcept {
  // __builtin_fabs clears the sign bit (one instruction) and clang evaluates it in constant expressions;
  // `v < 0 ? -q : q` costs a compare and a blend in hot loops.
  return quantity<U>::from_value(__builtin_fabs(q.value()));
}
template <class U>
[[nodiscard]] constexpr bool isfinite(quantity<U> q) noexcept {
  const double v = q.value();
  return v == v && v - v == 0.0;  // std::isfinite is not constexpr before C++23
}
// The largest finite double: `v >= 0 && v <= largest_finite` is "finite and >= 0" in two comparisons, both
// false for NaN. The models' checks are written so: fewer constant-evaluation steps at every point of a
// compile-time sweep than isfinite(q) && q.value() >= 0, and one instruction fewer at run time.
inline constexpr double largest_finite = std::numeric_limits<double>::max();

// Parameter checks for every model: at run time a std::invalid_argument with the message; during
// constant evaluation the throw makes the expression non-constant, and the compiler's note quotes the
// call with its message ("in call to 'expects(false, &"hml: hit rate must be within [0, 1]"[0])'").
// At run time the throw is a cold call of its own, so that a check is a compare and a branch in the
// caller's loop, which the optimiser can hoist when the value checked does not change (benchmarks/
// zero_overhead: a flat loop over a sweep's points ran 2x slower with the throw inlined at every check).
[[noreturn, gnu::cold, gnu::noinline]] inline void throw_invalid_argument(const char* message) {
  throw std::invalid_argument(message);
}
constexpr void expects(bool condition, const char* message) {
  if (!condition) [[unlikely]] {
    if (std::is_constant_evaluated()) throw std::invalid_argument(message);
    throw_invalid_argument(message);
  }
}

// Quantities by what they measure.
using data_size = quantity<byte_unit>;
using duration = quantity<second_unit>;
using work = quantity<flop_unit>;
using data_rate = quantity<byte_per_second_unit>;
using bandwidth = data_rate;
using compute_rate = quantity<flop_per_second_unit>;
using arithmetic_intensity = quantity<flop_per_byte_unit>;
using frequency = quantity<hertz_unit>;
using cycles = quantity<cycle_unit>;                    // core clock cycles (ECM: per cache line of work)
using bytes_per_cycle = quantity<byte_per_cycle_unit>;  // a transfer rate in a core's clock

// Base units and the prefixes people write (SI for everything, IEC for bits and bytes).
inline constexpr unit<byte_unit> byte{1.0};
inline constexpr unit<byte_unit> bit{0.125};
inline constexpr unit<second_unit> second{1.0};
inline constexpr unit<flop_unit> flop{1.0};
inline constexpr unit<hertz_unit> hertz{1.0};
inline constexpr unit<cycle_unit> cycle{1.0};

namespace detail {
// A prefix applies to a unit that has none: a base unit (1 byte, 1 s, 1 FLOP, 1 Hz and their quotients) or
// the bit. giga(gigabyte) would silently be 1e18 bytes.
template <class U>
consteval unit<U> unprefixed(unit<U> u) {
  expects(u.base_per_unit == 1.0 || u.base_per_unit == 0.125,
          "hml: a prefix applies to a unit without one: write giga(byte), not giga(gigabyte)");
  return u;
}
// Multiples multiply and fractions divide, so that 1 ms is 1 / 1e3 s, correctly rounded.
template <class U> consteval unit<U> with_prefix(unit<U> u, double factor) { return {unprefixed(u).base_per_unit * factor}; }
template <class U> consteval unit<U> with_sub_prefix(unit<U> u, double divisor) { return {unprefixed(u).base_per_unit / divisor}; }
}  // namespace detail

template <class U> [[nodiscard]] consteval unit<U> kilo(unit<U> u) { return detail::with_prefix(u, 1e3); }
template <class U> [[nodiscard]] consteval unit<U> mega(unit<U> u) { return detail::with_prefix(u, 1e6); }
template <class U> [[nodiscard]] consteval unit<U> giga(unit<U> u) { return detail::with_prefix(u, 1e9); }
template <class U> [[nodiscard]] consteval unit<U> tera(unit<U> u) { return detail::with_prefix(u, 1e12); }
template <class U> [[nodiscard]] consteval unit<U> peta(unit<U> u) { return detail::with_prefix(u, 1e15); }
template <class U> [[nodiscard]] consteval unit<U> exa(unit<U> u) { return detail::with_prefix(u, 1e18); }
template <class U> [[nodiscard]] consteval unit<U> milli(unit<U> u) { return detail::with_sub_prefix(u, 1e3); }
template <class U> [[nodiscard]] consteval unit<U> micro(unit<U> u) { return detail::with_sub_prefix(u, 1e6); }
template <class U> [[nodiscard]] consteval unit<U> nano(unit<U> u) { return detail::with_sub_prefix(u, 1e9); }

// IEC binary prefixes exist for information only (bytes and bits).
template <class U>
  requires std::same_as<U, byte_unit>
[[nodiscard]] consteval unit<U> kibi(unit<U> u) { return detail::with_prefix(u, 0x1p10); }
template <class U>
  requires std::same_as<U, byte_unit>
[[nodiscard]] consteval unit<U> mebi(unit<U> u) { return detail::with_prefix(u, 0x1p20); }
template <class U>
  requires std::same_as<U, byte_unit>
[[nodiscard]] consteval unit<U> gibi(unit<U> u) { return detail::with_prefix(u, 0x1p30); }
template <class U>
  requires std::same_as<U, byte_unit>
[[nodiscard]] consteval unit<U> tebi(unit<U> u) { return detail::with_prefix(u, 0x1p40); }
template <class U>
  requires std::same_as<U, byte_unit>
[[nodiscard]] consteval unit<U> pebi(unit<U> u) { return detail::with_prefix(u, 0x1p50); }

inline constexpr auto kilobyte = kilo(byte);
inline constexpr auto megabyte = mega(byte);
inline constexpr auto gigabyte = giga(byte);
inline constexpr auto terabyte = tera(byte);
inline constexpr auto kibibyte = kibi(byte);
inline constexpr auto mebibyte = mebi(byte);
inline constexpr auto gibibyte = gibi(byte);
inline constexpr auto gigabit = giga(bit);
inline constexpr auto nanosecond = nano(second);
inline constexpr auto microsecond = micro(second);
inline constexpr auto millisecond = milli(second);
inline constexpr auto gigaflop = giga(flop);
inline constexpr auto teraflop = tera(flop);
inline constexpr auto gigahertz = giga(hertz);
inline constexpr auto byte_per_second = byte / second;
inline constexpr auto bit_per_second = bit / second;
inline constexpr auto flop_per_second = flop / second;
inline constexpr auto flop_per_byte = flop / byte;
inline constexpr auto byte_per_cycle = byte / cycle;

// A memory interface moves one bit per pin per transfer: its bandwidth is the per-pin data rate times
// the bus width in bits (lanes). 6.4 Gbit/s per pin x a 256-bit bus = 204.8 GB/s.
struct bus_width {
  unsigned bits;
};
[[nodiscard]] constexpr data_rate operator*(data_rate per_pin, bus_width width) noexcept {
  return per_pin * width.bits;
}
[[nodiscard]] constexpr data_rate operator*(bus_width width, data_rate per_pin) noexcept { return per_pin * width; }

}  // namespace hml
