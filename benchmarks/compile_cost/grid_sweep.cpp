// A compile-time sweep of the seed model (bandwidth_sweep's kernel, latency and core), checked in
// static_asserts: with -DHML_GRID_SIDE=N a square grid of N x N points over two log axes (bandwidth x
// arithmetic intensity), with -DHML_AXIS_POINTS=N a sweep of N points along one log axis (bandwidth).
// compile_cost compiles it at several sizes to see how compile time, memory and clang's constexpr step
// limit scale; the build itself compiles the smallest grid only.
#include <cstddef>

#include "bandwidth_sweep.hpp"

#if !defined(HML_GRID_SIDE) && !defined(HML_AXIS_POINTS)
#define HML_GRID_SIDE 10
#endif

namespace {

using namespace hml::literals;

using bandwidth_sweep::memory_dominates;
constexpr auto& seed = bandwidth_sweep::model;  // the seed model at (bandwidth, intensity)

#ifdef HML_GRID_SIDE
constexpr std::size_t side = HML_GRID_SIDE;
constexpr auto seed_grid = hml::grid(hml::log_axis(1_Gbps, 1000_Gbps, side),
                                     hml::log_axis(0.01 * hml::flop_per_byte, 1000.0 * hml::flop_per_byte, side));
constexpr auto regimes = hml::sweep<seed_grid, seed>();  // in chunks of hml::points_per_chunk points

static_assert(regimes.size() == side * side);
// From 0.01 to 1000 FLOP/B every bandwidth's row turns from memory- to compute-bound exactly once.
static_assert(hml::flips_once_along<1>(seed_grid, regimes, memory_dominates));
#else
constexpr auto bandwidths = hml::log_axis(1_Gbps, 1000_Gbps, HML_AXIS_POINTS);
constexpr auto along_bandwidth = hml::sweep<bandwidths>([](hml::data_rate b) { return seed(b, 1.0 * hml::flop_per_byte); });

static_assert(along_bandwidth.size() == HML_AXIS_POINTS);
// At 1 FLOP/B the seed kernel turns compute-bound exactly once as bandwidth grows.
static_assert(hml::flips_once(along_bandwidth, memory_dominates));
#endif

}  // namespace
