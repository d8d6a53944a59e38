// The compile-time sweep sizes that hml.sweep:compile_time states, at clang's default limits: a 100 x 100
// grid of two log axes of the seed model with its regime, and a 10^4-point sweep along one log axis, each
// asked the questions a static_assert asks of a sweep. benchmarks/compile_cost times this kind of unit.
#include <cstddef>
#include <tuple>

#include "bandwidth_sweep.hpp"

namespace {

using namespace hml::literals;
using bandwidth_sweep::base_latency;
using bandwidth_sweep::core;
using bandwidth_sweep::problem_size;

using bandwidth_sweep::memory_dominates;
constexpr auto& seed = bandwidth_sweep::model;  // the seed model at (bandwidth, intensity)

// 10^4 points: bandwidth x intensity, the function named as a template argument.
constexpr auto seed_grid = hml::grid(hml::log_axis(1_Gbps, 1000_Gbps, 100),
                                     hml::log_axis(0.01 * hml::flop_per_byte, 1000.0 * hml::flop_per_byte, 100));
constexpr auto regimes = hml::sweep<seed_grid, seed>();
static_assert(regimes.size() == 10'000 && hml::points_per_chunk < regimes.size());
// The chunks join in point order: the first and last points and one in a later chunk are the model's.
static_assert(regimes.front().total == seed(1_Gbps, 0.01 * hml::flop_per_byte).total);
static_assert(regimes.back().total == seed(1000_Gbps, 1000.0 * hml::flop_per_byte).total);
static_assert(regimes[5'050].total == seed(std::get<0>(seed_grid[5'050]), std::get<1>(seed_grid[5'050])).total);
// Every row (one bandwidth) turns from memory- to compute-bound exactly once along intensity.
static_assert(hml::flips_once_along<1>(seed_grid, regimes, memory_dominates));
// The regimes partition the grid; "memory dominates" is memory-bound or the memory side of balanced.
static_assert(hml::count_if(regimes, hml::regime::memory_bound) + hml::count_if(regimes, hml::regime::compute_bound) +
                  hml::count_if(regimes, hml::regime::balanced) == regimes.size());
static_assert(hml::count_if(regimes, hml::regime::memory_bound) <= hml::count_if(regimes, memory_dominates));
static_assert(hml::share(regimes, memory_dominates) > 0.0 && hml::share(regimes, memory_dominates) < 1.0);
// Above the ridge of its bandwidth (intensity x bandwidth > peak) no point is memory-bound. A question is
// one constant expression, its test paid at every point: this one is the ridge's condition, not
// hml::ridge_point, whose checks at 10^4 points would not fit clang's default step limit.
static_assert(hml::every_point(seed_grid, regimes, [](const auto& point, const hml::time_breakdown& t) {
  const auto [bandwidth, intensity] = point;
  return intensity * bandwidth <= core.peak || t.limit != hml::regime::memory_bound;
}));

// 10^4 points along one log axis, the function a lambda without captures.
constexpr auto bandwidths = hml::log_axis(1_Gbps, 1000_Gbps, 10'000);
constexpr auto along_bandwidth =
    hml::sweep<bandwidths>([](hml::data_rate b) { return seed(b, 1.0 * hml::flop_per_byte); });
static_assert(hml::flips_once(along_bandwidth, memory_dominates));
constexpr std::size_t flip = hml::first_flip(along_bandwidth, memory_dominates);
static_assert(hml::last_flip(along_bandwidth, memory_dominates) == flip);
static_assert(hml::count_if(along_bandwidth, memory_dominates) == flip);  // all before the flip, none after
// The closed-form crossover lies between the two points where the answer changes.
constexpr auto crossing = hml::balance_bandwidth(hml::streaming(problem_size, 1.0 * hml::flop_per_byte), base_latency, core);
static_assert(crossing.exists() && bandwidths[flip - 1] < crossing.value && crossing.value <= bandwidths[flip]);

}  // namespace
