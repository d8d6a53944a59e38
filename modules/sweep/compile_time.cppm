// hml.sweep:compile_time — a sweep evaluated during constant evaluation into a std::array, and the
// questions one asks of it in a static_assert: does the answer flip exactly once along an axis, does a
// property hold at every point.
//
// How large a grid fits: clang's default -fconstexpr-steps (1,048,576) bounds one constant expression.
// Measured with clang 19 on the seed model (run() of a 10 MiB streaming kernel, 50 ns, 10 GFLOP/s):
//   two log axes (bandwidth x intensity): up to 38 x 38 = 1,444 points compile, 39 x 39 does not
//   (about 700 steps a point, half of them the axes' constexpr exp; benchmarks/compile_cost bisects it);
//   one linear axis: 2,500 points compile, 3,000 do not (about 400 steps a point).
// So 10^2 and 10^3 points fit, 10^4 does not: 100 x 100 needs -fconstexpr-steps=10000000 (7.7 s, 230 MB).
// tests/compile_time/sweep_grids.cpp keeps a 32 x 32 grid; larger sweeps use hml.sweep:run_time.
module;
#include <array>
#include <cstddef>
#include <tuple>
#include <type_traits>
export module hml.sweep:compile_time;
import :axis;

export namespace hml {

// `f` over every point of `Space` (a constexpr axis or grid with static storage), as a std::array in
// the space's point order: `constexpr auto r = hml::sweep<bandwidths>([](hml::data_rate b) { ... });`.
template <const auto& Space, class F>
[[nodiscard]] constexpr auto sweep(F f) {
  using result = std::remove_cvref_t<decltype(invoke_at(Space, 0, f))>;
  std::array<result, Space.size()> results{};
  for (std::size_t i = 0; i < Space.size(); ++i) results[i] = invoke_at(Space, i, f);
  return results;
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

// The index of the first element whose answer differs from the first element's; the size if none does.
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

// On a grid's results: does every line along axis `Along` (the others held fixed) flip exactly once?
template <std::size_t Along, class... Axes, class Results, class Test>
[[nodiscard]] constexpr bool flips_once_along(const grid<Axes...>& space, const Results& results, Test test) {
  static_assert(Along < sizeof...(Axes), "hml: no such axis in this grid");
  const auto extents = space.shape();
  std::size_t stride = 1;
  for (std::size_t k = Along + 1; k < extents.size(); ++k) stride *= extents[k];
  const std::size_t length = extents[Along];
  for (std::size_t start = 0; start < space.size(); ++start) {
    if (space.indices(start)[Along] != 0) continue;  // each line once, from its first point
    std::size_t flips = 0;
    for (std::size_t j = 1; j < length; ++j) {
      const bool before = static_cast<bool>(test(results[start + (j - 1) * stride]));
      const bool after = static_cast<bool>(test(results[start + j * stride]));
      if (before != after) ++flips;
    }
    if (flips != 1) return false;
  }
  return true;
}

// Does `holds(point, result)` hold at every point? On a grid the point is a std::tuple.
template <sweep_space Space, class Results, class Holds>
[[nodiscard]] constexpr bool every_point(const Space& space, const Results& results, Holds holds) {
  for (std::size_t i = 0; i < space.size(); ++i) {
    if (!holds(space[i], results[i])) return false;
  }
  return true;
}

}  // namespace hml
