// Each closed-form crossover against a fine sweep of the model it solves: the sweep's first flip must
// bracket the closed form, and the "never" and "always" answers must match sweeps that never flip.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <vector>

#include <range/v3/range/conversion.hpp>

import hml;

namespace {

using namespace hml::literals;

constexpr hml::compute_core seed_core{10_GFLOPS};
constexpr hml::duration seed_latency = 50_ns;

bool memory_dominates(const hml::time_breakdown& t) { return t.memory_time > t.compute_time; }

// The two neighbours of a sweep between which memory stops dominating.
template <class Space, class F>
std::size_t flip_of(const Space& space, F f) {
  const auto results = hml::lazy_sweep(space, f) | ranges::to<std::vector>();
  EXPECT_TRUE(hml::flips_once(results, memory_dominates));
  return hml::first_flip(results, memory_dominates);
}

TEST(Crossover, BalanceBandwidthMatchesSweep) {
  for (double ops : {0.5, 1.0, 4.0, 16.0}) {
    const hml::kernel k = hml::streaming(10_MiB, ops * hml::flop_per_byte);
    const auto closed = hml::balance_bandwidth(k, seed_latency, seed_core);
    ASSERT_TRUE(closed.exists());
    const auto axis = hml::log_axis(0.1_Gbps, 10'000_Gbps, 4001);
    const std::size_t flip = flip_of(axis, [&](hml::data_rate b) { return hml::run(k, hml::memory{seed_latency, b}, seed_core); });
    EXPECT_LT(axis[flip - 1], closed.value);
    EXPECT_GE(axis[flip], closed.value);
    // At the crossover itself, memory and compute time agree.
    const auto at = hml::run(k, hml::memory{seed_latency, closed.value}, seed_core);
    EXPECT_NEAR(at.memory_time / at.compute_time, 1.0, 1e-12);
  }
}

TEST(Crossover, BalanceBandwidthNeverWhenLatencyAloneExceedsCompute) {
  // 1 KiB at 0.01 FLOP/B is about 1 ns of compute: 50 ns of latency can never be hidden.
  const hml::kernel tiny = hml::streaming(1_KiB, 0.01 * hml::flop_per_byte);
  EXPECT_EQ(hml::balance_bandwidth(tiny, seed_latency, seed_core).where, hml::crossing::never);
  const auto axis = hml::log_axis(1_Gbps, 1e9_Gbps, 200);
  const auto results = hml::lazy_sweep(axis, [&](hml::data_rate b) { return hml::run(tiny, hml::memory{seed_latency, b}, seed_core); }) |
                       ranges::to<std::vector>();
  EXPECT_EQ(hml::count_flips(results, memory_dominates), 0u);
  EXPECT_TRUE(memory_dominates(results.back()));
  // Random access capped by Little's law: 64 B per 50 ns is 1.28 GB/s, below what 1 FLOP/B needs.
  const hml::kernel random_stream = hml::streaming(10_MiB, 1.0 * hml::flop_per_byte, hml::random_access(64_B));
  EXPECT_EQ(hml::balance_bandwidth(random_stream, seed_latency, seed_core).where, hml::crossing::never);
  // No bytes and no latency: compute-bound at any bandwidth.
  const hml::kernel no_bytes{"compute only", 1_GFLOP, 0_B};
  EXPECT_EQ(hml::balance_bandwidth(no_bytes, 0_s, seed_core).where, hml::crossing::always);
}

TEST(Crossover, CriticalHitRateMatchesSweep) {
  const hml::kernel k = hml::streaming(10_MB, 1.0 * hml::flop_per_byte);
  const hml::two_tier_memory tiers{50_ns, 500_Gbps, 10_Gbps, 0.0};
  const auto closed = hml::critical_hit_rate(k, tiers, seed_core);
  ASSERT_TRUE(closed.exists());
  EXPECT_GT(closed.value, 0.5);   // the seed: moderate locality (0.50) is memory-bound
  EXPECT_LT(closed.value, 0.95);  // good locality (0.95) compute-bound
  const auto axis = hml::linear_axis(0.0, 1.0, 10'001);
  const std::size_t flip = flip_of(axis, [&](double h) {
    hml::two_tier_memory m = tiers;
    m.hit_rate = h;
    return hml::run(k, m, seed_core);
  });
  EXPECT_LT(axis[flip - 1], closed.value);
  EXPECT_GE(axis[flip], closed.value);
  // Never: both tiers too slow for the kernel; always: the slow tier already suffices.
  EXPECT_EQ(hml::critical_hit_rate(k, {50_ns, 20_Gbps, 10_Gbps, 0.0}, seed_core).where, hml::crossing::never);
  EXPECT_EQ(hml::critical_hit_rate(k, {50_ns, 1000_Gbps, 500_Gbps, 0.0}, seed_core).where, hml::crossing::always);
}

TEST(Crossover, RidgePointMatchesSweep) {
  constexpr auto ridge = hml::ridge_point(hml::roof{10_GBps, 10_GFLOPS});
  static_assert(ridge == 1.0 * hml::flop_per_byte);
  // Without latency the streaming kernel turns compute-bound exactly at the ridge.
  const auto axis = hml::log_axis(0.01 * hml::flop_per_byte, 100.0 * hml::flop_per_byte, 1001);
  const std::size_t flip = flip_of(axis, [](hml::arithmetic_intensity i) {
    return hml::run(hml::streaming(10_MiB, i), hml::memory{0_s, 10_GBps}, seed_core);
  });
  EXPECT_LE(axis[flip - 1], ridge);
  EXPECT_GE(axis[flip], ridge);
}

TEST(Crossover, SmallestComputeBoundTileMatchesSweep) {
  constexpr std::uint64_t n = 4096;
  const hml::memory dram{100_ns, 50_GBps};
  const hml::compute_core gpu{2_TFLOPS};
  const auto closed = hml::smallest_compute_bound_tile<float>(n, dram, gpu);
  ASSERT_TRUE(closed.exists());
  // Every power-of-two tile: memory dominates below the closed form's tile and not from it on.
  for (std::uint64_t tile = 1; tile <= n; tile *= 2) {
    const auto t = hml::run(hml::tiled_matmul<float>(n, tile), dram, gpu);
    EXPECT_EQ(memory_dominates(t), tile < closed.value) << "tile " << tile;
  }
  // Every divisor below it is memory-bound: it is the smallest.
  for (std::uint64_t tile = 1; tile < closed.value; ++tile) {
    if (n % tile != 0) continue;
    EXPECT_TRUE(memory_dominates(hml::run(hml::tiled_matmul<float>(n, tile), dram, gpu))) << "tile " << tile;
  }
  EXPECT_EQ(hml::smallest_compute_bound_tile<float>(n, 1_GFLOPS, 1_TBps).where, hml::crossing::always);
  // Never: reading A, B and C once already takes longer than the computation.
  EXPECT_EQ(hml::smallest_compute_bound_tile<float>(64, 100_TFLOPS, 1_GBps).where, hml::crossing::never);
}

}  // namespace
