// Compile-time sweeps over the seed model (bandwidth_sweep's kernel, memory latency and core): the regime
// along bandwidth and intensity axes, in static_asserts, with the function passed by pointer (one constant
// expression, up to hml::points_per_constant_expression points). sweep_limits.cpp has the large sizes.
#include <array>
#include <cstddef>
#include <ranges>
#include <tuple>

#include "bandwidth_sweep.hpp"

namespace {

using namespace hml::literals;
using bandwidth_sweep::base_latency;
using bandwidth_sweep::core;
using bandwidth_sweep::problem_size;

using bandwidth_sweep::memory_dominates;
constexpr auto& seed = bandwidth_sweep::model;  // the seed model at (bandwidth, intensity)

// Axes: values, ends, spacing.
constexpr auto gbps = hml::log_axis(1_Gbps, 100_Gbps, 5);
static_assert(gbps.size() == 5 && gbps[0] == 1_Gbps && gbps[4] == 100_Gbps);
static_assert(gbps[2] == 10_Gbps);  // on a decade: FROM x 10, exact
static_assert(hml::log_axis(1_Gbps, 1000_Gbps, 7)[2] == 10_Gbps && hml::log_axis(1_Gbps, 1000_Gbps, 7)[4] == 100_Gbps);
static_assert(hml::log_axis(1_KiB, 1_MiB, 11)[3] == 8_KiB);  // on a doubling: FROM x 2^3
// Past 10^22, where no power of ten is a double: the one nearest it, as the literal reads (k products drifted).
static_assert(hml::log_axis(1.0, 1e30, 31)[23] == 1e23 && hml::log_axis(1.0, 1e30, 31)[29] == 1e29);
// Ends that are decades below one: each decade as its literal reads (1e-5 x 10^7 is 100.00000000000001).
static_assert(hml::log_axis(1e-5, 1e5, 11)[5] == 1.0 && hml::log_axis(1e-5, 1e5, 11)[7] == 100.0 &&
              hml::log_axis(1e-30, 1e-18, 13)[1] == 1e-29);
static_assert(hml::log_axis(1_Gbps, 1000_Gbps, 7)[1] > 3.16_Gbps && hml::log_axis(1_Gbps, 1000_Gbps, 7)[1] < 3.17_Gbps);
static_assert(gbps[1] > 1_Gbps && gbps[1] < 10_Gbps);
constexpr auto ratios = hml::linear_axis(0.0, 1.0, 5);
static_assert(ratios[1] == 0.25 && ratios[2] == 0.5 && ratios[3] == 0.75 && ratios[4] == 1.0);
constexpr auto hit_rates = hml::values(0.1, 0.5, 0.95);
static_assert(hit_rates.size() == 3 && hit_rates[2] == 0.95);

// One axis: the seed kernel at 1 FLOP/B turns compute-bound exactly once as bandwidth grows.
constexpr auto bandwidths = hml::log_axis(1_Gbps, 1000_Gbps, 31);
constexpr auto along_bandwidth =
    hml::sweep<bandwidths>([](hml::data_rate b) { return seed(b, 1.0 * hml::flop_per_byte); });
static_assert(hml::flips_once(along_bandwidth, memory_dominates));
static_assert(along_bandwidth.front().limit == hml::regime::memory_bound);
static_assert(along_bandwidth.back().limit == hml::regime::compute_bound);

// A 32 x 32 grid (1,024 points) of bandwidth x intensity: the most a function pointer may sweep.
constexpr auto seed_grid = hml::grid(hml::log_axis(1_Gbps, 1000_Gbps, 32),
                                     hml::log_axis(0.01 * hml::flop_per_byte, 1000.0 * hml::flop_per_byte, 32));
constexpr auto regimes = hml::sweep<seed_grid>(seed);
static_assert(regimes.size() == 1024 && regimes.size() == hml::points_per_constant_expression);
// Collecting chunks costs collect_steps_per_point steps a point in one expression: 10^5 points fit the
// default budget (the header of hml.sweep:compile_time says ~170,000).
static_assert(hml::default_constexpr_steps / hml::collect_steps_per_point > 170'000);
// The same grid in chunks (the function as a template argument) gives the same results in the same order.
constexpr auto regimes_in_chunks = hml::sweep<seed_grid, seed>();
static_assert(regimes_in_chunks.size() == regimes.size());
static_assert(hml::every_point(seed_grid, regimes_in_chunks, [](const auto& point, const hml::time_breakdown& t) {
  const auto [bandwidth, intensity] = point;
  const hml::time_breakdown direct = seed(bandwidth, intensity);
  return t.memory_time == direct.memory_time && t.compute_time == direct.compute_time && t.total == direct.total && t.limit == direct.limit;
}));
// Along the intensity axis every row flips exactly once; along bandwidth not every column does (at very
// low or very high intensity one regime holds throughout), which flips_once_along reports.
static_assert(hml::flips_once_along<1>(seed_grid, regimes, memory_dominates));
static_assert(!hml::flips_once_along<0>(seed_grid, regimes, memory_dominates));

// "Every point with intensity above the ridge is compute-bound": with the latency, the ridge of the
// seed's bandwidth and peak is a lower bound, so every point above it must be compute-bound.
static_assert(hml::every_point(seed_grid, regimes, [](const auto& point, const hml::time_breakdown& t) {
  const auto [bandwidth, intensity] = point;
  return intensity <= hml::ridge_point(hml::roof{bandwidth, core.peak}) || t.limit != hml::regime::memory_bound;
}));
// Closed form vs sweep: the bandwidth crossover lies between the two points where the sign changes.
constexpr std::size_t flip = hml::first_flip(along_bandwidth, memory_dominates);
constexpr auto crossing = hml::balance_bandwidth(hml::streaming(problem_size, 1.0 * hml::flop_per_byte),
                                                 base_latency, core);
static_assert(crossing.exists() && bandwidths[flip - 1] < crossing.value && crossing.value <= bandwidths[flip]);

// The questions on a sequence whose answers can be read off: off, off, on, on, off, on.
constexpr std::array<int, 6> answers{0, 0, 1, 1, 0, 1};
constexpr auto on = [](int x) { return x == 1; };
static_assert(hml::count_if(answers, on) == 3 && hml::share(answers, on) == 0.5);
static_assert(hml::count_flips(answers, on) == 3 && !hml::flips_once(answers, on));
static_assert(hml::first_flip(answers, on) == 2 && hml::last_flip(answers, on) == 5);
static_assert(hml::first_flip(std::array{1, 1}, on) == 2 && hml::last_flip(std::array{1, 1}, on) == 2);  // none
static_assert(!hml::all_of(answers, on) && hml::all_of(std::array{1, 1}, on));
// Regimes: of a regime itself or of a time_breakdown's limit.
constexpr std::array seed_regimes{hml::regime::memory_bound, hml::regime::balanced, hml::regime::compute_bound};
static_assert(hml::count_if(seed_regimes, hml::regime::balanced) == 1);
static_assert(hml::count_if(regimes, hml::regime::memory_bound) == hml::count_if(regimes, [](const hml::time_breakdown& t) {
  return t.limit == hml::regime::memory_bound;
}));

// A grid's points by range-for, in a constant expression: row-major, each equal to g[i], then the end
// (an odometer over three axes, one of them a value list, and over one axis alone).
template <class Grid>
constexpr bool iterates_in_order(const Grid& g) {
  std::size_t i = 0;
  for (const auto& point : g) {
    if (i >= g.size() || !(point == g[i])) return false;
    ++i;
  }
  // Iterators compare by position; the end is where the last point's successor is.
  auto a = g.begin();
  auto b = a;
  ++b;
  const bool compare_by_position = a != b && (++a, a == b);
  auto it = g.begin();
  for (std::size_t k = 0; k < g.size(); ++k) {
    if (it == g.end()) return false;
    ++it;
  }
  return i == g.size() && it == g.end() && compare_by_position;
}
static_assert(iterates_in_order(hml::grid(hml::linear_axis(1.0, 3.0, 3), hml::values(10, 20), hml::linear_axis(0.5, 1.0, 4))));
static_assert(iterates_in_order(hml::grid(hml::log_axis(1_Gbps, 100_Gbps, 5))));
static_assert(iterates_in_order(seed_grid));
// A forward range whose end is a sentinel, so std::ranges algorithms take it.
static_assert(std::ranges::forward_range<decltype(seed_grid)> && !std::ranges::common_range<decltype(seed_grid)>);

}  // namespace
