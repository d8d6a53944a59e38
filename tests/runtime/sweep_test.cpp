// The same grid on the compile-time path (hml::sweep into a constexpr std::array) and the run-time path
// (hml::lazy_sweep, range-v3): identical points and identical results, bit for bit.
#include <gtest/gtest.h>

#include <limits>

#include <cstddef>
#include <tuple>
#include <vector>

#include <range/v3/range/conversion.hpp>

import hml;

namespace {

using namespace hml::literals;

constexpr hml::time_breakdown seed(hml::data_rate bandwidth, hml::arithmetic_intensity intensity) {
  return hml::run(hml::streaming(10_MiB, intensity), hml::memory{50_ns, bandwidth}, hml::compute_core{10_GFLOPS});
}

constexpr auto seed_grid = hml::grid(hml::log_axis(1_Gbps, 1000_Gbps, 24),
                                     hml::linear_axis(0.25 * hml::flop_per_byte, 16.0 * hml::flop_per_byte, 20));
constexpr auto at_compile_time = hml::sweep<seed_grid>(seed);

TEST(Sweep, CompileTimeAndRunTimeAgreeBitForBit) {
  std::size_t i = 0;
  for (const auto& [point, result] : hml::sweep_with_points(seed_grid, seed)) {
    ASSERT_LT(i, at_compile_time.size());
    EXPECT_EQ(point, seed_grid[i]) << "point " << i;
    EXPECT_EQ(result.memory_time, at_compile_time[i].memory_time) << "point " << i;
    EXPECT_EQ(result.compute_time, at_compile_time[i].compute_time) << "point " << i;
    EXPECT_EQ(result.total, at_compile_time[i].total) << "point " << i;
    EXPECT_EQ(result.limit, at_compile_time[i].limit) << "point " << i;
    ++i;
  }
  EXPECT_EQ(i, seed_grid.size());
}

TEST(Sweep, AxesMatchRangeV3PointForPoint) {
  constexpr auto linear = hml::linear_axis(0.1, 0.9, 17);
  constexpr auto logarithmic = hml::log_axis(1_GBps, 1_TBps, 13);
  constexpr auto listed = hml::values(0.1, 0.5, 0.95);
  const auto linear_points = hml::points(linear) | ranges::to<std::vector>();
  const auto log_points = hml::points(logarithmic) | ranges::to<std::vector>();
  const auto listed_points = hml::points(listed) | ranges::to<std::vector>();
  ASSERT_EQ(linear_points.size(), 17u);
  ASSERT_EQ(log_points.size(), 13u);
  ASSERT_EQ(listed_points.size(), 3u);
  for (std::size_t i = 0; i < linear.size(); ++i) EXPECT_EQ(linear_points[i], linear[i]);
  for (std::size_t i = 0; i < logarithmic.size(); ++i) EXPECT_EQ(log_points[i], logarithmic[i]);
  for (std::size_t i = 0; i < listed.size(); ++i) EXPECT_EQ(listed_points[i], listed[i]);
  EXPECT_EQ(log_points.front(), 1_GBps);
  EXPECT_EQ(log_points.back(), 1_TBps);
  // A constant ratio: 1 GB/s to 1 TB/s in 12 steps is 10^(1/4) per step.
  for (std::size_t i = 1; i < log_points.size(); ++i) {
    EXPECT_NEAR(log_points[i] / log_points[i - 1], 1.7782794100389228, 1e-12);
  }
}

TEST(Sweep, RunTimeSweepsAreLazyAndAnySize) {
  // A million points: nothing is stored, so only what is consumed is computed.
  const auto big = hml::grid(hml::log_axis(1_Gbps, 10_Tbps, 1000), hml::log_axis(0.01, 1000.0, 1000));
  std::size_t evaluated = 0;
  auto results = hml::lazy_sweep(big, [&](hml::data_rate b, double i) {
    ++evaluated;
    return seed(b, i * hml::flop_per_byte).limit;
  });
  std::size_t compute_bound = 0;
  for (hml::regime r : results) compute_bound += r == hml::regime::compute_bound ? 1u : 0u;
  EXPECT_EQ(evaluated, 1'000'000u);
  EXPECT_GT(compute_bound, 0u);
  // Rows of a grid, via chunk: each row flips at most once along intensity.
  std::size_t rows = 0;
  for (const auto& row : hml::sweep_rows(big, [](hml::data_rate b, double i) { return seed(b, i * hml::flop_per_byte); })) {
    EXPECT_LE(hml::count_flips(row, [](const hml::time_breakdown& t) { return t.memory_time > t.compute_time; }), 1u);
    if (++rows == 50) break;
  }
  EXPECT_EQ(rows, 50u);
}

// Over a grid lazy_sweep calls f a block at a time: reading a point computes it and the points after it in
// its row, 16 at most, and reading again or reading those points computes nothing more.
TEST(Sweep, LazySweepOfAGridComputesABlockOfARowWhenItsFirstPointIsRead) {
  const auto g = hml::grid(hml::linear_axis(1.0, 3.0, 3), hml::linear_axis(0.0, 39.0, 40));  // rows of 40
  std::size_t calls = 0;
  const auto sweep = hml::lazy_sweep(g, [&](double row, double column) {
    ++calls;
    return 100.0 * row + column;
  });
  auto it = sweep.begin();
  EXPECT_EQ(calls, 0u);
  EXPECT_EQ(*it, 100.0);
  EXPECT_EQ(calls, 16u);
  EXPECT_EQ(*it, 100.0);
  const auto copy = it;
  for (int k = 0; k < 15; ++k) ++it;
  EXPECT_EQ(*it, 115.0);
  EXPECT_EQ(*copy, 100.0);
  EXPECT_EQ(calls, 16u);
  ++it;  // the second block of the row: not computed until read
  EXPECT_EQ(calls, 16u);
  EXPECT_EQ(*it, 116.0);
  EXPECT_EQ(calls, 32u);
  for (int k = 0; k < 16; ++k) ++it;  // the row's last 8 points, unread, then the next row
  EXPECT_EQ(*it, 132.0);
  EXPECT_EQ(calls, 40u);  // a block ends where its row does
  for (int k = 0; k < 8; ++k) ++it;
  EXPECT_EQ(*it, 200.0);
  EXPECT_EQ(calls, 56u);
  EXPECT_FALSE(it == copy);
  auto again = copy;
  for (int k = 0; k < 40; ++k) ++again;
  EXPECT_TRUE(again == it);
}

// A result that cannot sit in a block (no default constructor) is computed at each point as it is read; in
// blocks or not, every point's result is f at that point, in order, rows shorter than a block included.
struct labelled {
  explicit labelled(double v) : value{v} {}
  double value;
};

TEST(Sweep, LazySweepOfAGridGivesEachPointsResultInBlocksOrNot) {
  const auto g = hml::grid(hml::log_axis(1.0, 1000.0, 7), hml::values(0.5, 0.25, 0.125));  // rows of 3
  const auto f = [](double a, double b) { return a * b + 1.0 / a; };
  std::vector<double> expected;
  hml::for_each_point(g, [&](double a, double b) { expected.push_back(f(a, b)); });
  std::size_t i = 0;
  std::size_t calls = 0;
  for (const labelled& r : hml::lazy_sweep(g, [&](double a, double b) {
         ++calls;
         return labelled{f(a, b)};
       })) {
    ASSERT_LT(i, expected.size());
    EXPECT_EQ(r.value, expected[i]) << "point " << i;
    EXPECT_EQ(calls, i + 1) << "point " << i;
    ++i;
  }
  EXPECT_EQ(i, g.size());
  const auto in_blocks = hml::lazy_sweep(g, f) | ranges::to<std::vector>();
  EXPECT_EQ(in_blocks, expected);
}

TEST(Sweep, AxesRejectBadArguments) {
  EXPECT_THROW((void)hml::log_axis(0.0, 1.0, 3), std::invalid_argument);
  EXPECT_THROW((void)hml::linear_axis(2.0, 1.0, 3), std::invalid_argument);
  EXPECT_THROW((void)hml::linear_axis(1.0, 2.0, 0), std::invalid_argument);
  // The thirty-fourth trial: an infinite end made NaN, a span past a double -inf, and one point from 1 to 5
  // was 1 where parse_axis refuses it.
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_THROW((void)hml::linear_axis(0.0, inf, 3), std::invalid_argument);
  EXPECT_THROW((void)hml::linear_axis(-inf, 0.0, 3), std::invalid_argument);
  EXPECT_THROW((void)hml::linear_axis(-1.7e308, 1.7e308, 3), std::invalid_argument);
  EXPECT_THROW((void)hml::linear_axis(1.0, 5.0, 1), std::invalid_argument);
  EXPECT_EQ(hml::linear_axis(5.0, 5.0, 1)[0], 5.0);
  EXPECT_EQ(hml::linear_axis(-8e307, 8e307, 3)[1], 0.0);
}

}  // namespace
