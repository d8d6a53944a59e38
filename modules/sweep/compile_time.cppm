// hml.sweep:compile_time — a sweep evaluated during constant evaluation into a std::array, and the
// questions one asks of it in a static_assert: how many points pass a test or are in a regime, what share,
// where the answer first and last flips, whether a property holds at every point or flips once along an axis.
//
// How a large sweep fits. clang bounds each constant expression by -fconstexpr-steps (default 1,048,576; a
// step is about one statement evaluated), so a sweep is not one expression:
//   - each axis of a grid is materialised once (a log axis costs an exp a value: a 100 x 100 grid pays 200
//     of them, not 20,000);
//   - the points are evaluated in chunks of `points_per_chunk` (1,024), each chunk a constant expression of
//     its own (a variable template) with its own step budget; the chunks are then copied into one std::array
//     (collect_steps_per_point, 6 steps a point, in one expression: at most ~170,000 points by default).
// A chunk needs the function as a compile-time value: named as a template argument (`hml::sweep<g, seed>()`)
// or a lambda without captures (`hml::sweep<g>([](...) {...})`). A function pointer (`hml::sweep<g>(seed)`)
// or a capturing lambda is one expression of at most `points_per_constant_expression` (1,024) points; more
// is a static_assert that says what to write instead. A sweep too large to collect fails a static_assert
// naming its points and the steps it needs, before any point is evaluated (a probe in a requires-expression
// asks whether this compile's budget allows that many). Each question is one expression too: a few steps a
// point plus its test, so a question over 10^5 points needs a larger -fconstexpr-steps.
//
// Measured (clang 19, this project's 2-vCPU machine shared with other builds; benchmarks/compile_cost
// compiles these sizes again, docs/explanation/benchmarks/compile_cost.md). The seed model, run() of a 10 MiB
// streaming kernel at 50 ns and 10 GFLOP/s, costs about 210 steps a point and a grid point about 230, so a
// chunk takes under a quarter of the default budget and a function of up to ~1,000 steps a point fits one:
//   100 x 100 grid of two log axes, with its regime and flips_once_along: compiles with the defaults,
//     3.56 s (2.5 s of CPU) and 385 MiB for the translation unit
//   10^4 points along one log axis, with flips_once: compiles with the defaults, 2.49 s, 370 MiB
//   317 x 317 (10^5) grid: the chunks and the collection fit the defaults, flips_once_along over all its
//     points (about 12 steps a point) does not; -fconstexpr-steps=2097152 compiles it, 25.7 s, 563 MiB
//   a function pointer: 1,024 points (points_per_constant_expression), as one expression
module;
#include <algorithm>
#include <array>
#include <concepts>
#include <cstddef>
#include <iterator>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>
export module hml.sweep:compile_time;
import hml.analysis;
import :axis;

export namespace hml {

// Points one constant expression evaluates: a chunk of a sweep, or a whole sweep of a function pointer.
// A grid point of the seed model costs about 230 steps, so a chunk takes under a quarter of the default.
inline constexpr std::size_t points_per_chunk = 1024;
inline constexpr std::size_t points_per_constant_expression = points_per_chunk;
// clang's default -fconstexpr-steps, the budget of one constant expression.
inline constexpr std::size_t default_constexpr_steps = 1'048'576;
// What collecting a sweep's chunks costs a point (measured; see the header).
inline constexpr std::size_t collect_steps_per_point = 6;

}  // namespace hml

namespace hml::detail {

// A function that is a compile-time value by its type alone: an empty, default-constructible function
// object, such as a lambda without captures.
template <class F>
concept stateless_function = std::is_empty_v<F> && std::default_initializable<F>;

// An axis's values, computed once (a std::vector: the axis's size need not be a constant here).
template <class Axis>
constexpr std::vector<typename Axis::value_type> values_of(const Axis& axis) {
  std::vector<typename Axis::value_type> values;
  values.reserve(axis.size());
  for (std::size_t i = 0; i < axis.size(); ++i) values.push_back(axis[i]);
  return values;
}

template <const auto& Space>
using space_type = std::remove_cvref_t<decltype(Space)>;

// What `function` returns at a point of Space.
template <const auto& Space, class F>
using result_of = std::remove_cvref_t<decltype(invoke_at(Space, 0, std::declval<const F&>()))>;

// Axis K of the grid Space, its values computed once.
template <const auto& Space, std::size_t K>
inline constexpr auto axis_values = [] {
  const auto& axis = std::get<K>(Space.axes);
  std::array<typename std::remove_cvref_t<decltype(axis)>::value_type, std::get<K>(Space.axes).size()> values{};
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = axis[i];
  return values;
}();

// `function` at points [First, First + Count) of Space, in the space's point order. Raw pointers and
// arrays, not std::array's operator[]: each call to it costs constexpr steps, at every point.
template <const auto& Space, std::size_t First, std::size_t Count, class F>
constexpr auto evaluate_points(const F& function) {
  std::array<result_of<Space, F>, Count> results{};
  auto* result = results.data();
  if constexpr (is_grid<space_type<Space>>) {
    constexpr std::size_t rank = space_type<Space>::rank;
    constexpr auto shape = Space.shape();
    const auto values = []<std::size_t... K>(std::index_sequence<K...>) {
      return std::tuple{axis_values<Space, K>.data()...};
    }(std::make_index_sequence<rank>{});
    const std::size_t* extents = shape.data();
    auto indices = Space.indices(First);
    std::size_t* at = indices.data();
    for (std::size_t n = 0; n < Count; ++n) {
      result[n] = [&]<std::size_t... K>(std::index_sequence<K...>) {
        return function(std::get<K>(values)[at[K]]...);
      }(std::make_index_sequence<rank>{});
      for (std::size_t k = rank; k-- > 0;) {  // the next point: the last axis fastest
        if (++at[k] < extents[k]) break;
        at[k] = 0;
      }
    }
  } else {
    for (std::size_t n = 0; n < Count; ++n) result[n] = function(Space[First + n]);
  }
  return results;
}

// One chunk: a constant expression of its own, with its own step budget.
template <const auto& Space, auto Function, std::size_t First, std::size_t Count>
inline constexpr auto chunk = evaluate_points<Space, First, Count>(Function);

// Spends `steps` steps (one an iteration, measured); a template argument that calls it is a constant only
// if this compile's -fconstexpr-steps allows that many, which makes the budget something a static_assert
// can ask about (a failed evaluation in a requires-expression is false, not an error).
constexpr bool spend_steps(std::size_t steps) {
  for (std::size_t i = 0; i < steps; ++i) {
  }
  return true;
}
template <std::size_t Steps>
concept constexpr_steps_at_least = requires { typename std::bool_constant<spend_steps(Steps)>; };
// Whether this compile can collect `Points` results, which takes `Steps`; a template, so that a failed
// static_assert shows both numbers ("requirement 'constexpr_steps_at_least<1200000UL>'", "in
// instantiation of 'collect_points<200000UL, 1200000UL>'").
template <std::size_t Points, std::size_t Steps>
constexpr bool collect_points() {
  static_assert(constexpr_steps_at_least<Steps>,
                "hml::sweep: collecting this many points into one std::array needs more constexpr steps than this "
                "compile allows (collect_points<points, steps> below; clang's default limit is 1048576): compile "
                "with -fconstexpr-steps= at least that many, or sweep at run time with hml::lazy_sweep");
  return constexpr_steps_at_least<Steps>;
}

template <const auto& Space, auto Function>
constexpr auto sweep_in_chunks() {
  constexpr std::size_t points = Space.size();
  constexpr std::size_t chunks = (points + points_per_chunk - 1) / points_per_chunk;
  constexpr std::size_t steps_to_collect = collect_steps_per_point * points;
  constexpr bool fits = collect_points<points, steps_to_collect>();
  std::array<result_of<Space, decltype(Function)>, points> results{};
  if constexpr (fits) {  // else evaluate nothing: the static_assert has said why
    [&]<std::size_t... C>(std::index_sequence<C...>) {
      // Through pointers: std::array's operator[] is a call, which costs steps of its own.
      const auto collect = [&results](const auto& part, std::size_t first) {
        const auto* from = part.data();
        auto* to = results.data() + first;
        for (std::size_t i = 0; i < part.size(); ++i) to[i] = from[i];
      };
      (collect(chunk<Space, Function, C * points_per_chunk, std::min(points_per_chunk, points - C * points_per_chunk)>,
               C * points_per_chunk),
       ...);
    }(std::make_index_sequence<chunks>{});
  }
  return results;
}

}  // namespace hml::detail

export namespace hml {

// `Function` over every point of `Space` (a constexpr axis or grid with static storage), as a std::array
// in the space's point order, evaluated in chunks: `constexpr auto r = hml::sweep<grid, seed>();`.
template <const auto& Space, auto Function>
[[nodiscard]] constexpr auto sweep() {
  return detail::sweep_in_chunks<Space, Function>();
}

// The same with the function as an argument: `hml::sweep<bandwidths>([](hml::data_rate b) { ... })`.
// A lambda without captures is evaluated in chunks; a function pointer or a capturing lambda cannot be
// (its value is not part of its type), so it sweeps at most points_per_constant_expression points.
template <const auto& Space, class F>
[[nodiscard]] constexpr auto sweep(F f) {
  if constexpr (detail::stateless_function<F>) {
    return detail::sweep_in_chunks<Space, F{}>();
  } else {
    constexpr std::size_t points_in_sweep = Space.size();
    static_assert(points_in_sweep <= points_per_constant_expression,
                  "hml::sweep<space>(f): a function pointer or a capturing lambda is evaluated in one constant "
                  "expression, which holds at most points_per_constant_expression points under clang's default "
                  "-fconstexpr-steps; pass the function as a template argument, hml::sweep<space, f>(), or as a "
                  "lambda without captures, which sweep in chunks of points_per_chunk points; or sweep at run time "
                  "with hml::lazy_sweep");
    return detail::evaluate_points<Space, 0, points_in_sweep>(f);
  }
}

// The questions. Each takes the results (any sequence: a compile-time sweep's std::array, or a run-time
// sweep's results) and a test of one result, and is one constant expression in a static_assert.

// How many results pass `test`.
template <class Sequence, class Test>
[[nodiscard]] constexpr std::size_t count_if(const Sequence& results, Test test) {
  std::size_t count = 0;
  for (const auto& result : results) count += static_cast<bool>(test(result)) ? 1u : 0u;
  return count;
}

// A result's regime: a regime itself, a time_breakdown's `limit`, a roofline analysis's `bound`.
template <class Result>
[[nodiscard]] constexpr regime regime_of(const Result& result) noexcept {
  if constexpr (std::same_as<Result, regime>) {
    return result;
  } else if constexpr (requires { result.limit; }) {
    return result.limit;
  } else {
    return result.bound;
  }
}

// How many results are in regime `r`.
template <class Sequence>
[[nodiscard]] constexpr std::size_t count_if(const Sequence& results, regime r) {
  return count_if(results, [r](const auto& result) { return regime_of(result) == r; });
}

// The share of the results (0 to 1) that pass `test`, or that are in regime `r`.
template <class Sequence, class Test>
[[nodiscard]] constexpr double share(const Sequence& results, Test test) {
  std::size_t all = 0;
  for ([[maybe_unused]] const auto& result : results) ++all;
  return all == 0 ? 0.0 : static_cast<double>(count_if(results, test)) / static_cast<double>(all);
}

// Does `test` hold for every result? (every_point below also sees the point.)
template <class Sequence, class Test>
[[nodiscard]] constexpr bool all_of(const Sequence& results, Test test) {
  for (const auto& result : results) {
    if (!static_cast<bool>(test(result))) return false;
  }
  return true;
}

// How often `test` changes its answer between neighbours of a sequence.
template <class Sequence, class Test>
[[nodiscard]] constexpr std::size_t count_flips(const Sequence& sequence, Test test) {
  std::size_t flips = 0;
  bool first = true;
  bool previous = false;
  for (const auto& element : sequence) {
    const bool now = static_cast<bool>(test(element));
    if (!first && now != previous) ++flips;
    previous = now;
    first = false;
  }
  return flips;
}

// True when `test` changes its answer exactly once: "the regime flips exactly once along this axis".
template <class Sequence, class Test>
[[nodiscard]] constexpr bool flips_once(const Sequence& sequence, Test test) {
  return count_flips(sequence, test) == 1;
}

// The index of the first element whose answer differs from the one before it (so from the first
// element's); the size if none does.
template <class Sequence, class Test>
[[nodiscard]] constexpr std::size_t first_flip(const Sequence& sequence, Test test) {
  std::size_t i = 0;
  bool start = false;
  for (const auto& element : sequence) {
    const bool now = static_cast<bool>(test(element));
    if (i == 0) start = now;
    else if (now != start) return i;
    ++i;
  }
  return i;
}

// The index of the last element whose answer differs from the one before it; the size if none does.
template <class Sequence, class Test>
[[nodiscard]] constexpr std::size_t last_flip(const Sequence& sequence, Test test) {
  std::size_t i = 0;
  std::size_t last = 0;
  bool previous = false;
  for (const auto& element : sequence) {
    const bool now = static_cast<bool>(test(element));
    if (i != 0 && now != previous) last = i;
    previous = now;
    ++i;
  }
  return last == 0 ? i : last;
}

// On a grid's results: does every line along axis `Along` (the others held fixed) flip exactly once?
template <std::size_t Along, class... Axes, class Results, class Test>
[[nodiscard]] constexpr bool flips_once_along(const grid<Axes...>& space, const Results& results, Test test) {
  static_assert(Along < sizeof...(Axes), "hml: no such axis in this grid");
  const auto extents = space.shape();
  std::size_t stride = 1;
  for (std::size_t k = Along + 1; k < extents.size(); ++k) stride *= extents[k];
  const std::size_t length = extents[Along];
  const std::size_t points = space.size();
  // Lines start where the index along `Along` is 0: blocks of `stride` points, `length * stride` apart.
  for (std::size_t block = 0; block < points; block += length * stride) {
    for (std::size_t start = block; start < block + stride; ++start) {
      std::size_t flips = 0;
      bool before = static_cast<bool>(test(results[start]));
      for (std::size_t j = 1; j < length; ++j) {
        const bool after = static_cast<bool>(test(results[start + j * stride]));
        flips += before != after ? 1u : 0u;
        before = after;
      }
      if (flips != 1) return false;
    }
  }
  return true;
}

// Does `holds(point, result)` hold at every point? On a grid the point is a std::tuple, and each axis's
// values are computed once, not at every point.
template <sweep_space Space, class Results, class Holds>
[[nodiscard]] constexpr bool every_point(const Space& space, const Results& results, Holds holds) {
  const std::size_t points = space.size();
  auto result = std::begin(results);  // iterators and raw pointers: operator[] is a call, which costs steps
  if constexpr (is_grid<Space>) {
    const auto values = std::apply([](const auto&... axis) { return std::tuple{detail::values_of(axis)...}; }, space.axes);
    const auto extents = space.shape();
    std::array<std::size_t, Space::rank> at{};
    for (std::size_t i = 0; i < points; ++i, ++result) {
      const auto point = [&]<std::size_t... K>(std::index_sequence<K...>) {
        return typename Space::value_type{std::get<K>(values).data()[at[K]]...};
      }(std::make_index_sequence<Space::rank>{});
      if (!holds(point, *result)) return false;
      for (std::size_t k = Space::rank; k-- > 0;) {
        if (++at[k] < extents[k]) break;
        at[k] = 0;
      }
    }
  } else {
    for (std::size_t i = 0; i < points; ++i, ++result) {
      if (!holds(space[i], *result)) return false;
    }
  }
  return true;
}

}  // namespace hml
