// hml.units:core — quantities whose unit is part of their type.
//
// Dimensional analysis is Boost.Units': the units below are boost::units::unit types of one system
// (byte, second, FLOP), and products and quotients of units are computed by Boost's typeof helpers.
// The value type is hml's own: boost::units::quantity has a user-provided copy constructor and destructor,
// so it is not trivially copyable; hml::quantity is a bare double, trivially copyable and constexpr
// throughout. Every quantity holds its value in the system's base unit (byte, second, FLOP), so a
// conversion is a multiplication done once, when a value enters (literal, unit, parser) or leaves (in()).
module;
#include <boost/preprocessor/comparison/not_equal.hpp>
#include <boost/preprocessor/control/iif.hpp>
#include <boost/preprocessor/repetition/repeat.hpp>
#include <boost/preprocessor/seq/elem.hpp>
#include <boost/preprocessor/seq/for_each.hpp>
#include <boost/preprocessor/seq/for_each_i.hpp>
#include <boost/preprocessor/seq/size.hpp>
#include <boost/preprocessor/tuple/eat.hpp>
#include <boost/preprocessor/tuple/elem.hpp>
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
#include <concepts>
#include <limits>
#include <stdexcept>
#include <string_view>
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

// Numbers that scale a quantity: bool and character types are integral but are not amounts.
template <class T>
concept arithmetic = (std::integral<T> || std::floating_point<T>) && !std::same_as<T, bool> &&
                     !std::same_as<T, char> && !std::same_as<T, signed char> && !std::same_as<T, unsigned char> &&
                     !std::same_as<T, wchar_t> && !std::same_as<T, char8_t> && !std::same_as<T, char16_t> &&
                     !std::same_as<T, char32_t>;

}  // namespace hml

// The quantities hml names: the words an error message uses for each, and how to write one. A mix-up is
// refused by a deleted overload whose message names both sides ("hml: a data rate (B/s) is not a data size
// (B)"); before C++26 such a message must be a string literal, so the refusals are generated from this table
// with Boost.Preprocessor, one for each pair.
#define HML_NAMED_QUANTITIES                                                                   \
  ((byte_unit, "a data size (B)", "64_GiB or n * gigabyte"))                                   \
  ((second_unit, "a duration (s)", "10_ms or n * millisecond"))                                \
  ((flop_unit, "work (FLOP)", "2_GFLOP or n * gigaflop"))                                      \
  ((byte_per_second_unit, "a data rate (B/s)", "900_GBps or n * giga(byte) / second"))         \
  ((flop_per_second_unit, "a compute rate (FLOP/s)", "989_TFLOPS or n * tera(flop) / second")) \
  ((flop_per_byte_unit, "an arithmetic intensity (FLOP/B)", "n * flop_per_byte"))              \
  ((hertz_unit, "a frequency (Hz)", "2_GHz or n * gigahertz"))                                 \
  ((cycle_unit, "a count of cycles (cy)", "n * cycle"))                                        \
  ((byte_per_cycle_unit, "a rate in bytes per cycle (B/cy)", "n * byte_per_cycle"))            \
  ((detail::byte_per_flop_unit, "bytes per FLOP (B/FLOP)", "n * byte / flop"))                 \
  ((detail::second_per_byte_unit, "seconds per byte (s/B)", "n * second / byte"))              \
  ((detail::byte_second_unit, "a data size times a duration (B*s)", "n * byte * second"))
#define HML_UNIT_OF(row) BOOST_PP_TUPLE_ELEM(3, 0, row)
#define HML_WORDS_OF(row) BOOST_PP_TUPLE_ELEM(3, 1, row)
#define HML_EXAMPLE_OF(row) BOOST_PP_TUPLE_ELEM(3, 2, row)
#define HML_IS_NAMED(r, unit, row) || std::same_as<unit, HML_UNIT_OF(row)>

// The refusals of one named quantity (`expected`, the i-th row): a plain number, each other named quantity, a
// quantity of a unit hml has no name for, and a cast to a plain number.
#define HML_REFUSALS_OF(r, unused, i, expected)                                                                   \
  template <>                                                                                                   \
  struct refusals<HML_UNIT_OF(expected)> {                                                                       \
    refusals() = default;                                                                                       \
    refusals(double) = delete("hml: a plain number is not " HML_WORDS_OF(expected) ": give it a unit, as in "    \
                              HML_EXAMPLE_OF(expected));                                                        \
    BOOST_PP_REPEAT(BOOST_PP_SEQ_SIZE(HML_NAMED_QUANTITIES), HML_REFUSE_GIVEN, (i, expected))                    \
    template <class Given>                                                                                      \
      requires(!named_in_messages<Given>)                                                                       \
    refusals(quantity<Given>) = delete("hml: a product or quotient of other units is not " HML_WORDS_OF(expected)); \
    template <arithmetic Number>                                                                                \
    explicit operator Number() const = delete("hml: " HML_WORDS_OF(expected) " is not a plain number: read it "  \
                                              "in a unit with in(q, unit), or in the base unit with q.value()"); \
  };
#define HML_REFUSE_GIVEN(z, j, outer)                                                                             \
  BOOST_PP_IIF(BOOST_PP_NOT_EQUAL(BOOST_PP_TUPLE_ELEM(2, 0, outer), j), HML_REFUSE_GIVEN_AS, BOOST_PP_TUPLE_EAT(2)) \
  (BOOST_PP_TUPLE_ELEM(2, 1, outer), BOOST_PP_SEQ_ELEM(j, HML_NAMED_QUANTITIES))
#define HML_REFUSE_GIVEN_AS(expected, given)                                                                      \
  template <class Given>                                                                                        \
    requires std::same_as<Given, HML_UNIT_OF(given)>                                                            \
  refusals(quantity<Given>) = delete("hml: " HML_WORDS_OF(given) " is not " HML_WORDS_OF(expected));

export namespace hml {
template <class Unit>
class quantity;
}  // namespace hml

namespace hml::detail {

// The inverses and products that mix-ups make most, named so that their messages say what went wrong.
using byte_per_flop_unit = quotient_unit<byte_unit, flop_unit>;
using second_per_byte_unit = quotient_unit<second_unit, byte_unit>;
using byte_second_unit = product_unit<byte_unit, second_unit>;

template <class Unit>
concept named_in_messages = false BOOST_PP_SEQ_FOR_EACH(HML_IS_NAMED, Unit, HML_NAMED_QUANTITIES);

// What a quantity<Unit> refuses to be made from, as deleted constructors that the quantity inherits: one for
// each thing a user may give, so that the message names it. Only this Unit's refusals are candidates, which
// keeps clang's list of candidates short where no conversion applies at all.
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wc++26-extensions"  // `= delete("reason")` is C++26; clang takes it in C++20
template <class Unit>
struct refusals {
  refusals() = default;
  refusals(double) = delete("hml: a plain number is not a quantity: give it a unit");
  template <class Given>
    requires(!std::same_as<Given, Unit>)
  refusals(quantity<Given>) = delete("hml: a quantity does not convert to one of another dimension");
  template <arithmetic Number>
  explicit operator Number() const = delete("hml: a quantity is not a plain number: read it in a unit with "
                                            "in(q, unit), or in the base unit with q.value()");
};
BOOST_PP_SEQ_FOR_EACH_I(HML_REFUSALS_OF, ~, HML_NAMED_QUANTITIES)
#pragma clang diagnostic pop

}  // namespace hml::detail

export namespace hml {

// A value of `Unit`, stored in the base unit of the system. Built from a literal (`10_MiB`), a number
// times a unit (`10 * mebibyte`) or from_value(); read with in(unit) or value(). There is deliberately no
// implicit conversion from or to double, nor between quantities of different units: each is a deleted
// constructor (detail::refusals) whose message names what was given and what was expected.
template <class Unit>
class quantity : public detail::refusals<Unit> {
public:
  using unit_type = Unit;

  quantity() = default;
  using detail::refusals<Unit>::refusals;

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

  // Friends for the members: each call costs a step of a compile-time sweep's budget.
  template <class U> friend constexpr quantity<U> operator+(quantity<U>, std::type_identity_t<quantity<U>>) noexcept;
  template <class U> friend constexpr quantity<U> operator-(quantity<U>, std::type_identity_t<quantity<U>>) noexcept;
  template <class U> friend constexpr bool operator==(quantity<U>, std::type_identity_t<quantity<U>>) noexcept;
  template <class U> friend constexpr bool operator!=(quantity<U>, std::type_identity_t<quantity<U>>) noexcept;
  template <class U> friend constexpr bool operator<(quantity<U>, std::type_identity_t<quantity<U>>) noexcept;
  template <class U> friend constexpr bool operator<=(quantity<U>, std::type_identity_t<quantity<U>>) noexcept;
  template <class U> friend constexpr bool operator>(quantity<U>, std::type_identity_t<quantity<U>>) noexcept;
  template <class U> friend constexpr bool operator>=(quantity<U>, std::type_identity_t<quantity<U>>) noexcept;

private:
  double value_ = 0.0;
};

// Sums, differences and comparisons take the second operand as the first's type, so that a mix-up is one of
// the refused conversions above, whose message names both ("hml: a duration (s) is not a data size (B)"), and
// generic code (concepts, requires-expressions, std::plus) sees the expression as invalid. The comparisons are
// written out rather than rewritten from <=>: a rewritten, reversed candidate would take the other operand's
// type and make a mix-up ambiguous (-Wambiguous-reversed-operator) before it reached the message; operator!=
// keeps == from being reversed (P2468).
template <class U>
[[nodiscard]] constexpr quantity<U> operator+(quantity<U> a, std::type_identity_t<quantity<U>> b) noexcept {
  return quantity<U>::from_value(a.value_ + b.value_);
}
template <class U>
[[nodiscard]] constexpr quantity<U> operator-(quantity<U> a, std::type_identity_t<quantity<U>> b) noexcept {
  return quantity<U>::from_value(a.value_ - b.value_);
}
template <class U>
[[nodiscard]] constexpr bool operator==(quantity<U> a, std::type_identity_t<quantity<U>> b) noexcept {
  return a.value_ == b.value_;
}
template <class U>
[[nodiscard]] constexpr bool operator!=(quantity<U> a, std::type_identity_t<quantity<U>> b) noexcept {
  return a.value_ != b.value_;
}
template <class U>
[[nodiscard]] constexpr bool operator<(quantity<U> a, std::type_identity_t<quantity<U>> b) noexcept {
  return a.value_ < b.value_;
}
template <class U>
[[nodiscard]] constexpr bool operator<=(quantity<U> a, std::type_identity_t<quantity<U>> b) noexcept {
  return a.value_ <= b.value_;
}
template <class U>
[[nodiscard]] constexpr bool operator>(quantity<U> a, std::type_identity_t<quantity<U>> b) noexcept {
  return a.value_ > b.value_;
}
template <class U>
[[nodiscard]] constexpr bool operator>=(quantity<U> a, std::type_identity_t<quantity<U>> b) noexcept {
  return a.value_ >= b.value_;
}

// A number that multiplies a plain value into a quantity of `Unit`: `gigabyte` is 1e9 bytes.
template <class Unit>
struct unit {
  double base_per_unit = 1.0;
};

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
inline constexpr double smallest_normal = std::numeric_limits<double>::min();

// Parameter checks for every model: at run time a std::invalid_argument with the message; during
// constant evaluation the throw makes the expression non-constant, and the compiler's note quotes the
// call with its message ("in call to 'expects(false, &"hml: hit rate must be within [0, 1]; give ..."[0])'").
// At run time the throw is a cold call of its own, so that a check is a compare and a branch in the
// caller's loop, which the optimiser can hoist when the value checked does not change (benchmarks/
// zero_overhead: a flat loop over a sweep's points ran 2x slower with the throw inlined at every check).
[[noreturn, gnu::cold, gnu::noinline]] inline void throw_invalid_argument(const char* message) {
  throw std::invalid_argument(message);
}
// Every message a check throws starts with "hml: "; a reader or the tool that puts its own context in front of
// it (a file's line and field, an option) drops it, so that no line says it twice.
[[nodiscard]] constexpr std::string_view without_hml_prefix(std::string_view message) noexcept {
  return message.starts_with("hml: ") ? message.substr(5) : message;
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

// The time `bytes` take at `rate`, latency aside: every model's streaming time, in one place (a memory's
// transfer_time and a link's link_time add their latency; tiers, the crossover and the examples take it as
// it is).
[[nodiscard]] constexpr duration time_to_move(data_size bytes, data_rate rate) noexcept { return bytes / rate; }

}  // namespace hml
