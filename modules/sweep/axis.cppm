// hml.sweep:axis — where a sweep samples: linear and logarithmic axes, value lists, grids of axes.
//
// A linear axis yields exactly the values of range-v3's linear_distribute (first, then last - step * k),
// so the compile-time and the run-time paths see bit-identical points. A logarithmic axis is a linear axis
// of natural logarithms mapped through exp, with both ends snapped back to the values given; where the ends
// are a whole number of decades (or doublings) apart, each point on a decade (doubling) is FROM times that
// power of ten (two), one rounding, or, where both ends are decades themselves (1e-5 and 1e5), that decade as
// its literal reads. std::exp and std::log are not constexpr before C++26, so this partition
// has its own (within a few ulps).
module;
#include <array>
#include <bit>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <limits>
#include <optional>
#include <tuple>
#include <type_traits>
#include <utility>
export module hml.sweep:axis;
import hml.units;

namespace hml::detail {

inline constexpr double ln2_high = 0x1.62e42fee00000p-1;  // fdlibm's split of ln 2: high * k is exact
inline constexpr double ln2_low = 0x1.a39ef35793c76p-33;

constexpr double power_of_two(int k) noexcept {
  if (k > 1023) return power_of_two(1023) * power_of_two(k - 1023);
  if (k < -1022) return power_of_two(-1022) * power_of_two(k + 1022);
  return std::bit_cast<double>(static_cast<std::uint64_t>(k + 1023) << 52);
}

// Natural logarithm of a finite x > 0: x = m 2^e with m in [1/sqrt2, sqrt2], ln m = 2 atanh((m-1)/(m+1)).
constexpr double natural_log(double x) noexcept {
  int e = 0;
  if (x < 0x1p-1022) {  // subnormal: scale into the normal range first
    x *= 0x1p54;
    e -= 54;
  }
  const auto bits = std::bit_cast<std::uint64_t>(x);
  e += static_cast<int>((bits >> 52) & 0x7ff) - 1023;
  double m = std::bit_cast<double>((bits & 0x000f'ffff'ffff'ffffULL) | 0x3ff0'0000'0000'0000ULL);
  if (m > 1.4142135623730951) {
    m /= 2.0;
    ++e;
  }
  const double s = (m - 1.0) / (m + 1.0);
  const double s2 = s * s;
  double term = s;
  double sum = 0.0;
  for (int k = 1; k < 80; k += 2) {
    const double next = sum + term / k;
    if (next == sum) break;
    sum = next;
    term *= s2;
  }
  return 2.0 * sum + e * ln2_low + e * ln2_high;
}

// e^y: y = k ln2 + r with |r| <= ln2 / 2, the Taylor polynomial of e^r to degree 17 (the next term is below
// 1e-24 there) in Horner form, then an exact scaling by 2^k. One expression, not a loop: a compile-time
// sweep of a log axis pays it at every value, in constexpr steps.
constexpr double natural_exp(double y) noexcept {
  if (y > 709.8) return std::numeric_limits<double>::infinity();
  if (y < -745.2) return 0.0;
  const double q = y / (ln2_high + ln2_low);
  const auto k = static_cast<int>(q < 0 ? q - 0.5 : q + 0.5);
  const double r = (y - k * ln2_high) - k * ln2_low;
  const double e_r =
      1 + r * (1 + r / 2 * (1 + r / 3 * (1 + r / 4 * (1 + r / 5 * (1 + r / 6 * (1 + r / 7 * (1 + r / 8 *
      (1 + r / 9 * (1 + r / 10 * (1 + r / 11 * (1 + r / 12 * (1 + r / 13 * (1 + r / 14 * (1 + r / 15 *
      (1 + r / 16 * (1 + r / 17))))))))))))))));
  return e_r * power_of_two(k);
}

// ratio^k as k products: exact for 10^k up to 10^22 and for every 2^k a double holds; 10^k up to 10^44 as
// 10^22 times 10^(k-22), two exact factors and one rounding: the double nearest 10^k, as "1e30" reads (k
// products drifted past 10^22, and a log axis to 1e30 missed its decades by an ulp or more).
constexpr double whole_power(double ratio, int k) noexcept {
  if (ratio == 10.0 && k > 22 && k <= 44) return whole_power(10.0, 22) * whole_power(10.0, k - 22);
  double p = 1.0;
  for (int j = 0; j < k; ++j) p *= ratio;
  return p;
}

// The largest k for which whole_power(ratio, k) is the double nearest ratio^k.
constexpr int largest_whole_power(double ratio) noexcept { return ratio == 10.0 ? 44 : 1023; }

// The doubles nearest 10^-30 ... 10^30, as their literals read: the decades of hml's figures (a quantity's
// magnitude lies within them), where a product of powers misses some by an ulp (1e-5 x 10^7 is
// 100.00000000000001, and 1e-30 x 10 is 1.0000000000000001e-29).
inline constexpr int lowest_decade = -30;
inline constexpr std::array<double, 61> decades{
    1e-30, 1e-29, 1e-28, 1e-27, 1e-26, 1e-25, 1e-24, 1e-23, 1e-22, 1e-21, 1e-20, 1e-19, 1e-18, 1e-17, 1e-16,
    1e-15, 1e-14, 1e-13, 1e-12, 1e-11, 1e-10, 1e-9, 1e-8, 1e-7, 1e-6, 1e-5, 1e-4, 1e-3, 1e-2, 1e-1, 1e0, 1e1, 1e2,
    1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21,
    1e22, 1e23, 1e24, 1e25, 1e26, 1e27, 1e28, 1e29, 1e30};

// The exponent of the decade `x` is (the double its literal reads), or none.
constexpr std::optional<int> decade_of(double x) noexcept {
  for (std::size_t e = 0; e < decades.size(); ++e)
    if (decades[e] == x) return static_cast<int>(e) + lowest_decade;
  return std::nullopt;
}

}  // namespace hml::detail

export namespace hml {

// What an axis can range over: a plain double or any hml quantity (held as its base-unit value).
template <class T>
concept sweep_value = std::same_as<T, double> || requires(T q) {
  { q.value() } -> std::same_as<double>;
  { T::from_value(1.0) } -> std::same_as<T>;
};

template <sweep_value T>
[[nodiscard]] constexpr double number_of(T v) noexcept {
  if constexpr (std::same_as<T, double>) {
    return v;
  } else {
    return v.value();
  }
}

template <sweep_value T>
[[nodiscard]] constexpr T from_number(double x) noexcept {
  if constexpr (std::same_as<T, double>) {
    return x;
  } else {
    return T::from_value(x);
  }
}

// `count` evenly spaced values from `first` to `last`, both included (ascending, as range-v3 requires).
template <sweep_value T>
struct linear_axis {
  using value_type = T;

  constexpr linear_axis(T first_value, T last_value, std::size_t point_count)
      : first{first_value}, last{last_value}, count{point_count} {
    expects(point_count >= 1, "hml: an axis needs at least one point");
    expects(-number_of(first_value) <= std::numeric_limits<double>::max() &&
                number_of(last_value) <= std::numeric_limits<double>::max(),
            "hml: a linear axis needs finite ends");
    expects(number_of(first_value) <= number_of(last_value), "hml: an axis runs from its smaller to its larger end");
    expects(point_count > 1 || number_of(first_value) == number_of(last_value),  // as parse_axis says it
            "hml: one point cannot run from one end to another; give one end, or two points or more");
    step = point_count > 1 ? (number_of(last) - number_of(first)) / static_cast<double>(point_count - 1) : 0.0;
    expects(step <= std::numeric_limits<double>::max(), "hml: a linear axis's span overflows a double; give nearer ends");
  }

  [[nodiscard]] constexpr std::size_t size() const noexcept { return count; }
  // linear_distribute's formula, so that both paths agree to the bit.
  [[nodiscard]] constexpr T operator[](std::size_t i) const noexcept {
    if (i == 0) return first;
    if (i + 1 == count) return last;
    // Through a signed integer: the same double for any count below 2^63, in one instruction where an
    // unsigned 64-bit conversion takes several (x86-64), at every point of a run-time sweep.
    return from_number<T>(number_of(last) - step * static_cast<double>(static_cast<std::int64_t>(count - 1 - i)));
  }

  T first;
  T last;
  std::size_t count;
  double step = 0.0;
};

// `count` values from `first` to `last` (both > 0) with a constant ratio between neighbours.
template <sweep_value T>
struct log_axis {
  using value_type = T;

  constexpr log_axis(T first_value, T last_value, std::size_t point_count)
      : first{first_value}, last{last_value}, count{point_count} {
    expects(point_count >= 1, "hml: an axis needs at least one point");
    expects(number_of(first_value) > 0 && number_of(last_value) <= std::numeric_limits<double>::max(),
            "hml: a logarithmic axis needs finite ends > 0");
    expects(number_of(first_value) <= number_of(last_value), "hml: an axis runs from its smaller to its larger end");
    log_first = detail::natural_log(number_of(first));
    log_last = detail::natural_log(number_of(last));
    log_step = point_count > 1 ? (log_last - log_first) / static_cast<double>(point_count - 1) : 0.0;
    // Ends a whole number of decades (or doublings) apart: the points on a decade (a doubling) are exact.
    for (const double ratio : {10.0, 2.0}) {
      for (int k = 1; k <= detail::largest_whole_power(ratio) && lattice_steps == 0 &&
                      number_of(first) * detail::whole_power(ratio, k - 1) < number_of(last);
           ++k) {
        if (number_of(first) * detail::whole_power(ratio, k) == number_of(last)) std::tie(lattice_ratio, lattice_steps) = std::tuple{ratio, k};
      }
    }
    // Ends that are both decades (1e-5 and 1e5): each point on a decade is that decade, as its literal reads.
    if (const auto from = detail::decade_of(number_of(first)), to = detail::decade_of(number_of(last)); from && to && *to > *from) {
      std::tie(lattice_ratio, lattice_steps) = std::tuple{10.0, *to - *from};
      first_decade = *from;
    }
  }

  [[nodiscard]] constexpr std::size_t size() const noexcept { return count; }
  // A logarithm from the linear_distribute formula, mapped back; the ends come back exactly.
  [[nodiscard]] constexpr T from_logarithm(double x) const noexcept {
    if (x == log_first) return first;
    if (x == log_last) return last;
    return from_number<T>(detail::natural_exp(x));
  }
  [[nodiscard]] constexpr T operator[](std::size_t i) const noexcept {
    if (i == 0) return first;
    if (i + 1 == count) return last;
    if (const std::uint64_t steps = i * static_cast<std::uint64_t>(lattice_steps); steps % (count - 1) == 0 && lattice_steps > 0) {
      const auto k = static_cast<int>(steps / (count - 1));
      if (first_decade) return from_number<T>(detail::decades[static_cast<std::size_t>(*first_decade + k - detail::lowest_decade)]);
      return from_number<T>(number_of(first) * detail::whole_power(lattice_ratio, k));
    }
    return from_logarithm(log_last - log_step * static_cast<double>(static_cast<std::int64_t>(count - 1 - i)));
  }

  T first;
  T last;
  std::size_t count;
  double log_first = 0.0;
  double log_last = 0.0;
  double log_step = 0.0;
  double lattice_ratio = 0.0;  // 10 or 2 where last = first x lattice_ratio^lattice_steps exactly; else 0
  int lattice_steps = 0;
  std::optional<int> first_decade;  // where both ends are decades (detail::decades), the first's exponent
};

// Values spelled out: `values(0.1, 0.5, 0.95)`, `values(1_Gbps, 10_Gbps)`. Any copyable type will do.
template <class T, std::size_t N>
struct value_list {
  using value_type = T;
  std::array<T, N> items;

  [[nodiscard]] static constexpr std::size_t size() noexcept { return N; }
  [[nodiscard]] constexpr T operator[](std::size_t i) const noexcept { return items[i]; }
};

template <class T, class... More>
[[nodiscard]] constexpr value_list<T, 1 + sizeof...(More)> values(T first, More... more) noexcept {
  return {{first, static_cast<T>(more)...}};
}

template <class A>
concept axis = requires(const A& a, std::size_t i) {
  typename A::value_type;
  { a.size() } -> std::same_as<std::size_t>;
  { a[i] } -> std::convertible_to<typename A::value_type>;
};

namespace detail {
// Called where a loop over a grid's points ends, so that LLVM estimates the loop's body to run often
// (grid::sentinel says why). Empty, so that nothing of it is left once inlined.
[[gnu::cold]] inline void loop_exit_hint() noexcept {}
}  // namespace detail

// The cartesian product of several axes. Points are numbered row-major, the last axis varying fastest
// (range-v3's cartesian_product order); a point is a std::tuple of one value per axis.
template <axis... Axes>
struct grid {
  static_assert(sizeof...(Axes) >= 1, "hml: a grid needs at least one axis");
  using value_type = std::tuple<typename Axes::value_type...>;
  static constexpr std::size_t rank = sizeof...(Axes);

  constexpr explicit grid(Axes... each) noexcept : axes{each...} {}

  std::tuple<Axes...> axes;

  [[nodiscard]] constexpr std::array<std::size_t, rank> shape() const noexcept {
    return std::apply([](const auto&... a) { return std::array<std::size_t, rank>{a.size()...}; }, axes);
  }
  [[nodiscard]] constexpr std::size_t size() const noexcept {
    std::size_t n = 1;
    for (std::size_t extent : shape()) n *= extent;
    return n;
  }
  // The index along each axis of point `i`.
  [[nodiscard]] constexpr std::array<std::size_t, rank> indices(std::size_t i) const noexcept {
    const auto extents = shape();
    std::array<std::size_t, rank> at{};
    for (std::size_t k = rank; k-- > 0;) {
      at[k] = i % extents[k];
      i /= extents[k];
    }
    return at;
  }
  [[nodiscard]] constexpr value_type operator[](std::size_t i) const noexcept {
    const auto at = indices(i);
    return [&]<std::size_t... K>(std::index_sequence<K...>) {
      return value_type{std::get<K>(axes)[at[K]]...};
    }(std::index_sequence_for<Axes...>{});
  }

  // The points in order, `for (const auto& [b, h] : g)`: an odometer, so going to the next point costs a
  // decrement and the one axis value that changed, where g[i] costs a division per axis. It counts the
  // points left in the current row, so that reaching the end is one compare with 0 (grid::sentinel).
  class sentinel;
  class iterator {
  public:
    using value_type = grid::value_type;
    using difference_type = std::ptrdiff_t;
    using iterator_concept = std::forward_iterator_tag;
    using iterator_category = std::forward_iterator_tag;

    constexpr iterator() = default;
    [[nodiscard]] constexpr const value_type& operator*() const noexcept { return point_; }
    [[gnu::always_inline]] constexpr iterator& operator++() {
      if (--left_in_row_ != 0) [[likely]] {
        const std::size_t extent = last_axis().size();
        // Not the row's first point (that one comes from restart): the axis's check for it can go.
        __builtin_assume(left_in_row_ < extent);
        std::get<last>(point_) = last_axis()[extent - left_in_row_];
      } else {
        next_row<last>();
      }
      return *this;
    }
    constexpr iterator operator++(int) {
      iterator before = *this;
      ++*this;
      return before;
    }
    // The same point. Past the end no point is left and at_ is {extent of axis 0, 0, ...}.
    [[nodiscard]] friend constexpr bool operator==(const iterator& a, const iterator& b) noexcept {
      return a.left_in_row_ == b.left_in_row_ && a.at_ == b.at_;
    }
    [[nodiscard, gnu::always_inline]] friend constexpr bool operator==(const iterator& i, const sentinel&) noexcept {
      return i.left_in_row_ == 0;
    }
    // The points from this one to the end of its row, this one included (the last axis's extent minus
    // this point's index along it); 0 past the end.
    [[nodiscard]] constexpr std::size_t points_left_in_row() const noexcept { return left_in_row_; }
    // `n` points on, n <= points_left_in_row(): along the row, or to the next row's first point.
    [[gnu::always_inline]] constexpr void skip_in_row(std::size_t n) {
      left_in_row_ -= n;
      if (left_in_row_ != 0) {
        std::get<last>(point_) = last_axis()[last_axis().size() - left_in_row_];
      } else {
        next_row<last>();
      }
    }

  private:
    friend grid;
    static constexpr std::size_t last = rank - 1;

    constexpr explicit iterator(const grid* g) : grid_{g} {
      if (g->size() == 0) {
        at_[0] = std::get<0>(g->axes).size();
        return;
      }
      left_in_row_ = last_axis().size();
      point_ = (*g)[0];
    }
    [[nodiscard]] constexpr const auto& last_axis() const noexcept { return std::get<last>(grid_->axes); }

    // Axis K's values ran out (K = last: the row's): the axis before it moves on and those after it start
    // again (the odometer's carry); past axis 0's last value, the end.
    template <std::size_t K>
    constexpr void next_row() {
      if constexpr (K == 0) {
        at_ = {};
        at_[0] = std::get<0>(grid_->axes).size();
      } else {
        constexpr std::size_t carry = K - 1;
        const auto& axis = std::get<carry>(grid_->axes);
        if (++at_[carry] < axis.size()) {
          std::get<carry>(point_) = axis[at_[carry]];
          restart<K>();
        } else {
          next_row<carry>();
        }
      }
    }
    // Axes K and after back at their first value, a full row ahead.
    template <std::size_t K>
    constexpr void restart() {
      if constexpr (K < last) {
        at_[K] = 0;
        std::get<K>(point_) = std::get<K>(grid_->axes)[0];
        restart<K + 1>();
      } else {
        left_in_row_ = last_axis().size();
        std::get<last>(point_) = last_axis()[0];
      }
    }

    const grid* grid_ = nullptr;
    std::size_t left_in_row_ = 0;         // points left in this row, this one included; 0 past the end
    std::array<std::size_t, rank> at_{};  // the index along each axis but the last (at_[last] stays 0)
    value_type point_{};
  };

  // The end of the points, for a range-for: an iterator is there when no point is left in its row.
  // Its destructor, which runs where a range-for over the grid ends, calls a [[gnu::cold]] function, so
  // that LLVM estimates the loop to exit rarely: its body, the caller's own code, is then a hot call site
  // (inline threshold 525, not 250) and a model such as hml::run is inlined into it, its checks of the
  // fixed parameters hoisted out of the loop. Without a profile LLVM takes any loop for one of about 32
  // iterations, which makes the body of one flat loop an ordinary call site (-Rpass=inline: hml::run
  // "cost=460, threshold=250"), and hml::run was called at every point (benchmarks/zero_overhead: 4.1x
  // the nested loop by hand; with the hint, as fast as the same flat loop by hand). The call is gone from
  // the program once the inliner has decided: the function is empty.
  class sentinel {
  public:
    constexpr sentinel() = default;
    constexpr sentinel(const sentinel&) = default;
    constexpr sentinel(sentinel&&) = default;
    constexpr sentinel& operator=(const sentinel&) = default;
    constexpr sentinel& operator=(sentinel&&) = default;
    // always_inline: the cold call must be in the caller's exit block when the inliner weighs its loop.
    // Not during constant evaluation, where nothing is inlined (and an empty constexpr destructor's call
    // is left out by clang altogether).
    [[gnu::always_inline]] constexpr ~sentinel() {
      if (!std::is_constant_evaluated()) detail::loop_exit_hint();
    }
  };

  [[nodiscard]] constexpr iterator begin() const { return iterator{this}; }
  [[nodiscard]] constexpr sentinel end() const noexcept { return {}; }
};

template <class>
inline constexpr bool is_grid = false;
template <class... Axes>
inline constexpr bool is_grid<grid<Axes...>> = true;

// Anything a sweep can run over: one axis or a grid.
template <class S>
concept sweep_space = axis<S>;

namespace detail {
template <std::size_t K, class Axes, class F, class... Values>
constexpr void for_each_from(const Axes& axes, F& f, const Values&... values) {
  if constexpr (K == std::tuple_size_v<Axes>) {
    f(values...);
  } else {
    const auto& axis = std::get<K>(axes);
    const std::size_t n = axis.size();
    for (std::size_t i = 0; i < n; ++i) for_each_from<K + 1>(axes, f, values..., axis[i]);
  }
}
}  // namespace detail

// f(value) at every point of an axis, f(value, value, ...) at every point of a grid, in point order, as
// one loop per axis: what f computes from the outer axes' values alone stays out of the inner loops.
template <sweep_space Space, class F>
constexpr void for_each_point(const Space& space, F&& f) {
  if constexpr (is_grid<Space>) {
    detail::for_each_from<0>(space.axes, f);
  } else {
    const std::size_t n = space.size();
    for (std::size_t i = 0; i < n; ++i) f(space[i]);
  }
}

// `f` at point `i`: f(value) on an axis, f(value, value, ...) on a grid.
template <sweep_space Space, class F>
constexpr decltype(auto) invoke_at(const Space& space, std::size_t i, F& f) {
  if constexpr (is_grid<Space>) {
    return std::apply(f, space[i]);
  } else {
    return f(space[i]);
  }
}

}  // namespace hml
