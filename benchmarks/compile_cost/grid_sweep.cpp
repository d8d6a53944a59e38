// A compile-time sweep of the seed model (bandwidth_sweep's kernel, latency and core) over a square grid
// of bandwidth x arithmetic intensity, checked in a static_assert. compile_cost compiles it with
// -DHML_GRID_SIDE=10, 32 and 100 (10^2, 10^3, 10^4 points) to see how compile time, memory and clang's
// constexpr step limit scale; the build itself compiles the smallest grid only.
#include <cstddef>

#include "bandwidth_sweep.hpp"

#ifndef HML_GRID_SIDE
#define HML_GRID_SIDE 10
#endif

namespace {

using namespace hml::literals;

constexpr std::size_t side = HML_GRID_SIDE;

constexpr hml::time_breakdown seed(hml::data_rate bandwidth, hml::arithmetic_intensity intensity) {
  return hml::run(hml::streaming(bandwidth_sweep::problem_size, intensity),
                  hml::memory{bandwidth_sweep::base_latency, bandwidth}, bandwidth_sweep::core);
}

constexpr auto seed_grid = hml::grid(hml::log_axis(1_Gbps, 1000_Gbps, side),
                                     hml::log_axis(0.01 * hml::flop_per_byte, 1000.0 * hml::flop_per_byte, side));
constexpr auto regimes = hml::sweep<seed_grid>(seed);  // the one constant expression that grows with the grid

static_assert(regimes.size() == side * side);
// From 0.01 to 1000 FLOP/B every bandwidth's row turns from memory- to compute-bound exactly once.
static_assert(hml::flips_once_along<1>(seed_grid, regimes,
                                       [](const hml::time_breakdown& t) { return t.memory > t.compute; }));

}  // namespace
