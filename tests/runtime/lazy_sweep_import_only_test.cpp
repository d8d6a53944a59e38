// Range-for over hml's lazy sweeps with nothing but `import hml;`: no range-v3 header in this file, so the
// iterators' comparisons must come with the module (a missing one is `invalid operands ... operator!=`).
#include <gtest/gtest.h>

#include <cstddef>
#include <tuple>

import hml;

namespace {

using namespace hml::literals;

hml::time_breakdown seed(hml::data_rate bandwidth, double ops_per_byte) {
  return hml::run(hml::streaming(10_MiB, ops_per_byte * hml::flop_per_byte), hml::memory{50_ns, bandwidth},
                  hml::compute_core{10_GFLOPS});
}

const auto seed_grid = hml::grid(hml::log_axis(1_Gbps, 1000_Gbps, 7), hml::linear_axis(0.25, 16.0, 5));

TEST(LazySweepImportOnly, RangeForOverAGridSweepVisitsEveryPointInOrder) {
  std::size_t i = 0;
  for (const hml::time_breakdown& t : hml::lazy_sweep(seed_grid, seed)) {
    const auto [bandwidth, ops] = seed_grid[i];
    EXPECT_EQ(t.total, seed(bandwidth, ops).total) << "point " << i;
    ++i;
  }
  EXPECT_EQ(i, seed_grid.size());
}

TEST(LazySweepImportOnly, RangeForOverAnAxisSweepAndTheAxisPoints) {
  const auto bandwidths = hml::log_axis(1_Gbps, 1000_Gbps, 9);
  std::size_t i = 0;
  for (hml::regime r : hml::lazy_sweep(bandwidths, [](hml::data_rate b) { return seed(b, 1.0).limit; })) {
    EXPECT_EQ(r, seed(bandwidths[i], 1.0).limit) << "point " << i;
    ++i;
  }
  EXPECT_EQ(i, bandwidths.size());
  std::size_t j = 0;
  for (hml::data_rate b : hml::points(bandwidths)) EXPECT_EQ(b, bandwidths[j++]);  // range-v3's own views
  EXPECT_EQ(j, bandwidths.size());
}

TEST(LazySweepImportOnly, RangeForOverRowsAndPointsWithResults) {
  std::size_t rows = 0;
  for (const auto& row : hml::sweep_rows(seed_grid, seed)) {
    std::size_t in_row = 0;
    for ([[maybe_unused]] const hml::time_breakdown& t : row) ++in_row;
    EXPECT_EQ(in_row, std::get<1>(seed_grid.axes).size());
    ++rows;
  }
  EXPECT_EQ(rows, std::get<0>(seed_grid.axes).size());
  std::size_t i = 0;
  for (const auto& [point, result] : hml::sweep_with_points(seed_grid, seed)) {
    EXPECT_EQ(point, seed_grid[i]);
    EXPECT_EQ(result.total, std::apply(seed, seed_grid[i]).total);
    ++i;
  }
  EXPECT_EQ(i, seed_grid.size());
}

TEST(LazySweepImportOnly, RangeForOverAGridItself) {
  std::size_t i = 0;
  for (const auto& point : seed_grid) EXPECT_EQ(point, seed_grid[i++]);
  EXPECT_EQ(i, seed_grid.size());
}

// Three axes (the odometer carries twice), one axis, and a sweep over three: every point in row-major order.
TEST(LazySweepImportOnly, RangeForOverGridsOfOneAndThreeAxes) {
  const auto cube = hml::grid(hml::linear_axis(1.0, 2.0, 2), hml::values(1_Gbps, 10_Gbps, 100_Gbps),
                              hml::log_axis(0.25, 16.0, 4));
  std::size_t i = 0;
  for (const auto& point : cube) EXPECT_EQ(point, cube[i++]) << "point " << i;
  EXPECT_EQ(i, cube.size());
  std::size_t j = 0;
  for (double ops : hml::lazy_sweep(cube, [](double scale, hml::data_rate, double ops) { return scale * ops; })) {
    EXPECT_EQ(ops, std::get<0>(cube[j]) * std::get<2>(cube[j])) << "point " << j;
    ++j;
  }
  EXPECT_EQ(j, cube.size());
  const auto line = hml::grid(hml::log_axis(1_Gbps, 1000_Gbps, 7));
  std::size_t k = 0;
  for (const auto& [bandwidth] : line) EXPECT_EQ(bandwidth, std::get<0>(line.axes)[k++]);
  EXPECT_EQ(k, line.size());
}

}  // namespace
