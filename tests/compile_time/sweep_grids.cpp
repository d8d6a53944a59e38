// Compile-time sweeps over the seed model (bandwidth_sweep's kernel, memory latency and core): the regime
// along bandwidth and intensity axes, in static_asserts. The grid size is the largest measured to fit
// clang's default -fconstexpr-steps with margin (see hml.sweep:compile_time).
#include <cstddef>
#include <tuple>

#include "bandwidth_sweep.hpp"

namespace {

using namespace hml::literals;
using bandwidth_sweep::base_latency;
using bandwidth_sweep::core;
using bandwidth_sweep::problem_size;

constexpr hml::time_breakdown seed(hml::data_rate bandwidth, hml::arithmetic_intensity intensity) {
  return hml::run(hml::streaming(problem_size, intensity), hml::memory{base_latency, bandwidth}, core);
}
constexpr bool memory_dominates(const hml::time_breakdown& t) { return t.memory > t.compute; }

// Axes: values, ends, spacing.
constexpr auto gbps = hml::log_axis(1_Gbps, 100_Gbps, 5);
static_assert(gbps.size() == 5 && gbps[0] == 1_Gbps && gbps[4] == 100_Gbps);
static_assert(hml::to_text(gbps[2]) == "1.25 GB/s");  // 10 Gbit/s, within an ulp
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

// A 32 x 32 grid (1,024 points) of bandwidth x intensity: 10^3 points fit the default step limit, 40 x 40
// does not (measured; see hml.sweep:compile_time).
constexpr auto seed_grid = hml::grid(hml::log_axis(1_Gbps, 1000_Gbps, 32),
                                     hml::log_axis(0.01 * hml::flop_per_byte, 1000.0 * hml::flop_per_byte, 32));
constexpr auto regimes = hml::sweep<seed_grid>(seed);
static_assert(regimes.size() == 1024);
// Along the intensity axis every row flips exactly once; along bandwidth not every column does (at very
// low or very high intensity one regime holds throughout), which flips_once_along reports.
static_assert(hml::flips_once_along<1>(seed_grid, regimes, memory_dominates));
static_assert(!hml::flips_once_along<0>(seed_grid, regimes, memory_dominates));

// "Every point with intensity above the ridge is compute-bound": with the latency, the ridge of the
// seed's bandwidth and peak is a lower bound, so every point above it must be compute-bound.
static_assert(hml::every_point(seed_grid, regimes, [](const auto& point, const hml::time_breakdown& t) {
  const auto [bandwidth, intensity] = point;
  return intensity <= hml::ridge_intensity(core.peak, bandwidth) || t.limit != hml::regime::memory_bound;
}));
// Closed form vs sweep: the bandwidth crossover lies between the two points where the sign changes.
constexpr std::size_t flip = hml::first_flip(along_bandwidth, memory_dominates);
constexpr auto crossing = hml::balance_bandwidth(hml::streaming(problem_size, 1.0 * hml::flop_per_byte),
                                                 base_latency, core);
static_assert(crossing.exists() && bandwidths[flip - 1] < crossing.value && crossing.value <= bandwidths[flip]);

}  // namespace
