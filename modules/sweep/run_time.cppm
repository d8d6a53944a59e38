// hml.sweep:run_time — sweeps of any size at run time, lazily, with range-v3: nothing is stored, each
// point is computed when the consumer reaches it. Linear axes are range-v3's linear_distribute, grids its
// cartesian_product; the values equal the compile-time path's bit for bit (see hml.sweep:axis).
module;
#include <range/v3/view/all.hpp>
#include <range/v3/view/cartesian_product.hpp>
#include <range/v3/view/chunk.hpp>
#include <range/v3/view/iota.hpp>
#include <range/v3/view/linear_distribute.hpp>
#include <range/v3/view/transform.hpp>
#include <range/v3/view/zip.hpp>

#include <cstddef>
#include <tuple>
#include <utility>
export module hml.sweep:run_time;
import :axis;

export namespace hml {

// The points of an axis or grid as a lazy range.
template <sweep_value T>
[[nodiscard]] auto points(const linear_axis<T>& a) {
  return ranges::views::linear_distribute(number_of(a.first), number_of(a.last), static_cast<std::ptrdiff_t>(a.count)) |
         ranges::views::transform([](double x) { return from_number<T>(x); });
}

template <sweep_value T>
[[nodiscard]] auto points(const log_axis<T>& a) {
  return ranges::views::linear_distribute(a.log_first, a.log_last, static_cast<std::ptrdiff_t>(a.count)) |
         ranges::views::transform([a](double x) { return a.from_logarithm(x); });
}

template <class T, std::size_t N>
[[nodiscard]] auto points(const value_list<T, N>& a) {
  return ranges::views::iota(std::size_t{0}, N) | ranges::views::transform([a](std::size_t i) { return a[i]; });
}

template <class... Axes>
[[nodiscard]] auto points(const grid<Axes...>& g) {
  return std::apply([](const auto&... a) { return ranges::views::cartesian_product(points(a)...); }, g.axes) |
         ranges::views::transform([](const auto& point) {
           return std::apply([](const auto&... v) { return typename grid<Axes...>::value_type{v...}; }, point);
         });
}

// `f` at every point, lazily: f(value) on an axis, f(value, value, ...) on a grid.
template <sweep_space Space, class F>
[[nodiscard]] auto lazy_sweep(const Space& space, F f) {
  return points(space) | ranges::views::transform([f](const auto& point) mutable {
           if constexpr (is_grid<Space>) {
             return std::apply(f, point);
           } else {
             return f(point);
           }
         });
}

// Each point with its result: a lazy range of (point, result) pairs.
template <sweep_space Space, class F>
[[nodiscard]] auto sweep_with_points(const Space& space, F f) {
  return ranges::views::zip(points(space), lazy_sweep(space, f));
}

// A grid's results one row at a time (a row: the last axis varying, the others fixed).
template <class... Axes, class F>
[[nodiscard]] auto sweep_rows(const grid<Axes...>& g, F f) {
  const std::size_t row_length = g.shape().back();
  return lazy_sweep(g, f) | ranges::views::chunk(static_cast<std::ptrdiff_t>(row_length));
}

}  // namespace hml
