// hml.sweep:run_time — sweeps of any size at run time, lazily: nothing is stored but lazy_sweep's block of
// 16 results, each point (each block, in lazy_sweep of a grid) is computed when the consumer reaches it,
// and the values equal the compile-time path's bit for bit (hml.sweep:axis).
// lazy_sweep and sweep_rows are views of their own (a grid walked as an odometer; rows as nested ranges)
// that range-v3's adaptors take; points() are range-v3's linear_distribute (a log axis's, its points by
// index) and cartesian_product.
// Measured (benchmarks/zero_overhead, the seed cache model, against nested loops written by hand):
// for_each_point 1.33x, sweep_rows 1.22x; a flat range-for over a grid's points about 1.45x, as fast as the
// same flat loop by hand (in a flat loop what depends on the outer axis alone is computed at every point);
// over lazy_sweep of a grid about 1.4x, since it fills a block of a row at a time in a loop of its own
// (sweep_view). Flat range-fors depend on clang's inliner counting one flat loop's body as hot. hml::run
// of a two-tier memory costs 460 in LLVM's inline cost model, and the validate(kernel) it calls 260 more.
// The threshold is 250 at an ordinary call site and 525 at a "locally hot" one, a block that
// LLVM estimates to run >= 60 times per entry of the function (-hot-callsite-rel-freq); with no profile it
// estimates a loop at about 32 iterations, so the body of a nested inner loop (~1,000x) is hot and the body
// of one flat loop (~32x) is not (-Rpass=inline: "cost=460, threshold=525" into the nested loops,
// "threshold=250" into a flat one). Called out of line, hml::run checks the fixed parameters at every point
// and takes them through memory: 4x the nested loop. Inlining hml::run alone is not enough
// ([[gnu::always_inline]] on it gave ~3x, since validate(kernel) stayed a call inside the loop, and a
// user's wrapper around it then costs 690, over even the hot threshold); cheaper checks do not get there
// (all of run's checks as one condition and one cold call measured cost 530). Two things make the call
// site hot. A range-for over a grid's points, or over lazy_sweep of a grid, ends at grid::sentinel, whose
// destructor marks the loop's exit cold (hml.sweep:axis says how). lazy_sweep of one axis calls f through
// call_as_hot (below), inside a loop that runs once but that LLVM's estimate takes for a hot inner loop.
module;
#include <range/v3/view/all.hpp>
#include <range/v3/view/cartesian_product.hpp>
#include <range/v3/view/chunk.hpp>
#include <range/v3/view/iota.hpp>
#include <range/v3/view/linear_distribute.hpp>
#include <range/v3/view/transform.hpp>
#include <range/v3/view/zip.hpp>

#include <algorithm>
#include <array>
#include <cstddef>
#include <iterator>
#include <optional>
#include <tuple>
#include <type_traits>
#include <utility>
export module hml.sweep:run_time;
import :axis;

// range-v3's iterators compare and subtract through operator templates of namespace ranges, declared in
// the headers above: an importer of hml cannot find them (`invalid operands ... operator!=` in a range-for
// over hml::points or hml::sweep_rows) unless the module re-exports them (llvm#60488's kind of gap).
export namespace ranges {
using ranges::operator==;
using ranges::operator!=;
using ranges::operator<;
using ranges::operator<=;
using ranges::operator>;
using ranges::operator>=;
using ranges::operator+;
using ranges::operator-;
}  // namespace ranges

export namespace hml {

// The points of an axis or grid as a lazy range.
template <sweep_value T>
[[nodiscard]] auto points(const linear_axis<T>& a) {
  return ranges::views::linear_distribute(number_of(a.first), number_of(a.last), static_cast<std::ptrdiff_t>(a.count)) |
         ranges::views::transform([](double x) { return from_number<T>(x); });
}

template <sweep_value T>
[[nodiscard]] auto points(const log_axis<T>& a) {
  // By index: a point on a decade is FROM times a power of ten, which its logarithm alone does not say.
  return ranges::views::iota(std::size_t{0}, a.count) | ranges::views::transform([a](std::size_t i) { return a[i]; });
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

}  // namespace hml

namespace hml::detail {

// A value a view can hold and still be default-constructible and copy-assignable, as range-v3 wants its
// views: a lambda with captures is neither, a grid is not default-constructible.
template <class F>
class box {
public:
  box() = default;
  explicit box(F f) : f_{std::move(f)} {}
  box(const box&) = default;
  box(box&&) = default;
  box& operator=(const box& other) {
    if (this != &other) {
      f_.reset();
      if (other.f_) f_.emplace(*other.f_);
    }
    return *this;
  }
  box& operator=(box&& other) noexcept(std::is_nothrow_move_constructible_v<F>) {
    if (this != &other) {
      f_.reset();
      if (other.f_) f_.emplace(std::move(*other.f_));
    }
    return *this;
  }
  ~box() = default;
  [[nodiscard]] F& operator*() noexcept { return *f_; }
  [[nodiscard]] const F& operator*() const noexcept { return *f_; }

private:
  std::optional<F> f_;
};

// The points of one axis in order, by index.
template <class Axis>
class axis_iterator {
public:
  using value_type = typename Axis::value_type;
  using difference_type = std::ptrdiff_t;
  using iterator_concept = std::forward_iterator_tag;
  using iterator_category = std::forward_iterator_tag;

  axis_iterator() = default;
  axis_iterator(const Axis* a, std::size_t index) : axis_{a}, index_{index} {}
  [[nodiscard]] value_type operator*() const { return (*axis_)[index_]; }
  axis_iterator& operator++() noexcept {
    ++index_;
    return *this;
  }
  axis_iterator operator++(int) noexcept {
    axis_iterator before = *this;
    ++index_;
    return before;
  }
  [[nodiscard]] friend bool operator==(const axis_iterator& a, const axis_iterator& b) noexcept {
    return a.index_ == b.index_;
  }

private:
  const Axis* axis_ = nullptr;
  std::size_t index_ = 0;
};

template <class Space>
[[nodiscard]] auto begin_of(const Space& space) {
  if constexpr (is_grid<Space>) {
    return space.begin();
  } else {
    return axis_iterator<Space>{&space, 0};
  }
}
template <class Space>
[[nodiscard]] auto end_of(const Space& space) {
  if constexpr (is_grid<Space>) {
    return space.end();
  } else {
    return axis_iterator<Space>{&space, space.size()};
  }
}

// f(args...), called where clang's inliner takes it for a hot call. It runs once, inside a loop whose
// condition is __builtin_expect'ed true; with no profile, LLVM's block-frequency estimate believes the
// expectation, so f's call (and what inlining f exposes, such as hml::run) is judged against the threshold
// of a hot call site (525) instead of that of a call in one flat loop (250). The bound depends on `key`, a
// run-time value, so that the loop lasts until the inliner has decided (an earlier try with a loop the
// early passes could fold showed no inlining into it); later passes see that it runs once and remove it.
// Without it a flat range-for over lazy_sweep called hml::run out of line (4x the nested loop by hand in
// benchmarks/zero_overhead); with it, it runs as fast as the same flat loop written by hand. A grid needs
// none: its sentinel's cold exit does the same, and f called directly there saved 1-2 % of the flat loop
// (no optional, no loop to remove).
template <class R, class F, class... Args>
[[gnu::always_inline]] inline R call_as_hot(std::size_t key, F& f, const Args&... args) {
  std::optional<R> result;
  for (std::size_t k = key; __builtin_expect(k != key + 1, 1); ++k) result.emplace(f(args...));
  return *std::move(result);
}

// lazy_sweep's view: the space's points in order (a grid walks them as an odometer), `f` applied to each as
// it is read. Plain iterators with their comparisons as hidden friends, so that a range-for over it needs
// nothing but `import hml;`, and a forward range of range-v3 (chunk, zip and to<> take it).
//
// Over a grid, f runs a block at a time: reading a point whose result is not there yet calls f for it and
// for the points after it in its row, up to block_size of them, in a loop of its own. What f computes from
// the row's leading values alone is then computed once a block, as in a nested loop written by hand, where
// one flat loop would compute it at every point (benchmarks/zero_overhead, the seed model: a range-for over
// a grid's points about 1.45x the nested loop by hand, over lazy_sweep in blocks about 1.4x). f may thus
// run for up to 15 points the consumer never reads. A result type that is not default-constructible and
// copy-assignable cannot sit in a block, and f is then called at each point as it is read.
template <class Space, class F>
class sweep_view : public ranges::view_base {
public:
  sweep_view() = default;
  sweep_view(Space space, F f) : space_{std::move(space)}, f_{std::move(f)} {}
  sweep_view(const sweep_view&) = default;
  sweep_view(sweep_view&&) = default;
  sweep_view& operator=(const sweep_view&) = default;
  sweep_view& operator=(sweep_view&&) = default;
  ~sweep_view() = default;

private:
  using point_iterator = decltype(begin_of(std::declval<const Space&>()));
  using point_sentinel = decltype(end_of(std::declval<const Space&>()));  // a grid's: grid::sentinel
  using result = std::remove_cvref_t<decltype(invoke_at(std::declval<const Space&>(), 0, std::declval<F&>()))>;

  // Blocks of 16 results: in benchmarks/zero_overhead blocks of 8 and 16 measured 1.33-1.39x
  // the nested loop by hand, 4 1.42x, 32 and 64 1.34-1.46x; probably because the loop that reads a block
  // runs beside the divisions of the loop that fills the next only when both fit in the core's window of
  // instructions (not measured).
  static constexpr bool in_blocks =
      is_grid<Space> && std::is_default_constructible_v<result> && std::is_copy_assignable_v<result>;
  static constexpr std::size_t block_size = in_blocks ? 16 : 0;

public:
  // Where the points end: the space's own end (an axis's end iterator, a grid's sentinel).
  class sentinel {
  public:
    sentinel() = default;
    explicit sentinel(point_sentinel end) : end_{end} {}
    sentinel(const sentinel&) = default;
    sentinel(sentinel&&) = default;
    sentinel& operator=(const sentinel&) = default;
    sentinel& operator=(sentinel&&) = default;
    [[gnu::always_inline]] ~sentinel() = default;  // so that a grid's end hint reaches the caller's loop
    [[nodiscard]] const point_sentinel& points_end() const noexcept { return end_; }

  private:
    point_sentinel end_{};
  };

  class iterator {
  public:
    using reference = result;
    using value_type = result;
    using difference_type = std::ptrdiff_t;
    using iterator_concept = std::forward_iterator_tag;
    using iterator_category = std::input_iterator_tag;  // dereferencing yields a value, not a reference

    iterator() = default;
    iterator(sweep_view* view, point_iterator at) : view_{view}, at_{at} {}
    // Inlined with everything it calls, so that the sweep's loop is the caller's loop around f's body
    // and the optimiser can hoist what f checks of its fixed parameters (measured: 5-10x slower without).
    [[nodiscard, gnu::always_inline, gnu::flatten]] value_type operator*() const {
      if constexpr (in_blocks) {
        if (!filled_) fill_block(std::make_index_sequence<Space::rank - 1>{});
        return block_[next_];
      } else if constexpr (is_grid<Space>) {
        return call_with_values(std::make_index_sequence<Space::rank>{});
      } else {
        return call_as_hot<value_type>(step_, *view_->f_, *at_);
      }
    }
    [[gnu::always_inline]] iterator& operator++() {
      if constexpr (in_blocks) {
        if (++next_ == block_length()) [[unlikely]] {
          at_.skip_in_row(next_);
          next_ = 0;
          filled_ = false;
        }
      } else {
        ++at_;
        ++step_;
      }
      return *this;
    }
    iterator operator++(int) {
      iterator before = *this;
      ++*this;
      return before;
    }
    [[nodiscard, gnu::always_inline]] friend bool operator==(const iterator& a, const iterator& b) {
      return a.at_ == b.at_ && a.next_ == b.next_;
    }
    [[nodiscard, gnu::always_inline]] friend bool operator==(const iterator& a, const sentinel& b) {
      return a.at_ == b.points_end();  // past the last block, next_ is 0
    }

  private:
    // Blocks split each row from its first point on: block_size points, and what is left at its end.
    [[nodiscard, gnu::always_inline]] std::size_t block_length() const {
      return std::min(at_.points_left_in_row(), block_size);
    }
    // The block's results, by a loop over the last axis with the leading values fixed (K: the leading axes).
    template <std::size_t... K>
    [[gnu::always_inline]] void fill_block(std::index_sequence<K...>) const {
      constexpr std::size_t last = Space::rank - 1;
      const auto& point = *at_;
      const auto& axis = std::get<last>((*view_->space_).axes);
      const std::size_t first = axis.size() - at_.points_left_in_row();
      const std::size_t count = block_length();
      for (std::size_t k = 0; k < count; ++k) block_[k] = (*view_->f_)(std::get<K>(point)..., axis[first + k]);
      filled_ = true;
    }

    // f(the point's values...), with no std::apply between: each call layer is one more function the
    // inliner must take in whole, and std::apply's grows to f's size once f is inlined into it. Called
    // directly: the loop's end, the grid's sentinel, makes the call site hot.
    template <std::size_t... K>
    [[gnu::always_inline]] value_type call_with_values(std::index_sequence<K...>) const {
      const auto& point = *at_;
      return (*view_->f_)(std::get<K>(point)...);
    }

    struct no_block {};
    using block = std::conditional_t<in_blocks, std::array<result, block_size>, no_block>;

    sweep_view* view_ = nullptr;
    point_iterator at_{};   // over a grid, the first point of this point's block
    std::size_t step_ = 0;  // over an axis, the points passed: a run-time value for call_as_hot
    std::size_t next_ = 0;  // this point's place in its block
    mutable block block_{};
    mutable bool filled_ = false;  // whether block_ holds this block's results
  };

  // The function is called through a mutable view even from a const one: a sweep may count its calls.
  [[nodiscard]] iterator begin() const { return {const_cast<sweep_view*>(this), begin_of(*space_)}; }
  [[nodiscard]] sentinel end() const { return sentinel{end_of(*space_)}; }
  [[nodiscard]] std::size_t size() const { return (*space_).size(); }

private:
  box<Space> space_;
  box<F> f_;
};

// sweep_rows' view: one row per combination of the leading axes, each row a range over the last axis with
// the leading values fixed. Iterated as two nested loops, so that what f computes from the leading values
// alone stays out of the inner loop, as in a loop written by hand (a flat loop over the points measured
// about 2x slower on the seed model: benchmarks/zero_overhead).
template <class Grid, class F>
class rows_view : public ranges::view_base {
  static constexpr std::size_t last = Grid::rank - 1;
  using leading_values = decltype([]<std::size_t... K>(std::index_sequence<K...>) {
    return std::tuple<std::tuple_element_t<K, typename Grid::value_type>...>{};
  }(std::make_index_sequence<last>{}));

public:
  rows_view() = default;
  rows_view(Grid g, F f) : grid_{std::move(g)}, f_{std::move(f)} {}
  rows_view(const rows_view&) = default;
  rows_view(rows_view&&) = default;
  rows_view& operator=(const rows_view&) = default;
  rows_view& operator=(rows_view&&) = default;
  ~rows_view() = default;

  class row : public ranges::view_base {
  public:
    class iterator {
    public:
      using value_type = std::remove_cvref_t<decltype(invoke_at(std::declval<const Grid&>(), 0, std::declval<F&>()))>;
      using difference_type = std::ptrdiff_t;
      using iterator_concept = std::forward_iterator_tag;
      using iterator_category = std::input_iterator_tag;

      iterator() = default;
      iterator(const row* r, std::size_t j) : row_{r}, j_{j} {}
      [[nodiscard, gnu::always_inline, gnu::flatten]] value_type operator*() const {
        const auto& axis = std::get<last>((*row_->view_->grid_).axes);
        return std::apply([&](const auto&... leading) { return (*row_->view_->f_)(leading..., axis[j_]); },
                          row_->leading_);
      }
      [[gnu::always_inline]] iterator& operator++() noexcept {
        ++j_;
        return *this;
      }
      iterator operator++(int) noexcept {
        iterator before = *this;
        ++j_;
        return before;
      }
      [[nodiscard, gnu::always_inline]] friend bool operator==(const iterator& a, const iterator& b) noexcept {
        return a.j_ == b.j_;
      }

    private:
      const row* row_ = nullptr;
      std::size_t j_ = 0;
    };

    row() = default;
    row(rows_view* view, leading_values leading) : view_{view}, leading_{leading} {}
    [[nodiscard]] iterator begin() const { return {this, 0}; }
    [[nodiscard]] iterator end() const { return {this, size()}; }
    [[nodiscard]] std::size_t size() const { return std::get<last>((*view_->grid_).axes).size(); }

  private:
    rows_view* view_ = nullptr;
    leading_values leading_{};
  };

  class iterator {
  public:
    using value_type = row;
    using difference_type = std::ptrdiff_t;
    using iterator_concept = std::forward_iterator_tag;
    using iterator_category = std::input_iterator_tag;

    iterator() = default;
    iterator(rows_view* view, std::size_t r) : view_{view}, r_{r} {}
    [[nodiscard]] row operator*() const {
      const Grid& g = *view_->grid_;
      const auto first = g[r_ * std::get<last>(g.axes).size()];
      return {view_, [&]<std::size_t... K>(std::index_sequence<K...>) {
                return leading_values{std::get<K>(first)...};
              }(std::make_index_sequence<last>{})};
    }
    iterator& operator++() noexcept {
      ++r_;
      return *this;
    }
    iterator operator++(int) noexcept {
      iterator before = *this;
      ++r_;
      return before;
    }
    [[nodiscard]] friend bool operator==(const iterator& a, const iterator& b) noexcept { return a.r_ == b.r_; }

  private:
    rows_view* view_ = nullptr;
    std::size_t r_ = 0;
  };

  [[nodiscard]] iterator begin() const { return {const_cast<rows_view*>(this), 0}; }
  [[nodiscard]] iterator end() const { return {const_cast<rows_view*>(this), size()}; }
  [[nodiscard]] std::size_t size() const {
    return (*grid_).size() / std::get<last>((*grid_).axes).size();
  }

private:
  box<Grid> grid_;
  box<F> f_;
};

}  // namespace hml::detail

export namespace hml {

// `f` at every point, lazily: f(value) on an axis, f(value, value, ...) on a grid.
template <sweep_space Space, class F>
[[nodiscard]] auto lazy_sweep(const Space& space, F f) {
  return detail::sweep_view<Space, F>{space, std::move(f)};
}

// Each point with its result: a lazy range of (point, result) pairs.
template <sweep_space Space, class F>
[[nodiscard]] auto sweep_with_points(const Space& space, F f) {
  return ranges::views::zip(points(space), lazy_sweep(space, f));
}

// A grid's results one row at a time (a row: the last axis varying, the others fixed).
template <class... Axes, class F>
[[nodiscard]] auto sweep_rows(const grid<Axes...>& g, F f) {
  return detail::rows_view<grid<Axes...>, F>{g, std::move(f)};
}

}  // namespace hml
