// A bandwidth x intensity grid on the seed model (10 MiB streaming kernel, 50 ns latency, 10 GFLOP/s):
// the regime at every point as an aligned table, where it flips along bandwidth (closed form, checked
// against the grid at compile time), and with `--svg FILE` the seed's two-ceiling roofline as a chart.
#include <cstdio>
#include <string>
#include <tuple>
#include <vector>

#include "bandwidth_sweep.hpp"
#include "output_options.hpp"

namespace {

using namespace hml::literals;
using bandwidth_sweep::base_latency;
using bandwidth_sweep::core;
using bandwidth_sweep::problem_size;

constexpr auto bandwidths = hml::log_axis(1_Gbps, 1000_Gbps, 7);
constexpr auto intensities = hml::values(0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 16.0);
constexpr auto seed_grid = hml::grid(bandwidths, intensities);

using bandwidth_sweep::memory_dominates;

// The seed model over an intensity axis of plain numbers (FLOP per byte).
constexpr hml::time_breakdown seed(hml::data_rate bandwidth, double ops_per_byte) {
  return bandwidth_sweep::model(bandwidth, ops_per_byte * hml::flop_per_byte);
}

// The same grid at compile time: along bandwidth, every intensity flips exactly once.
constexpr auto regimes = hml::sweep<seed_grid>(seed);
static_assert(hml::flips_once_along<0>(seed_grid, regimes, memory_dominates));

std::string in_bits(hml::data_rate rate, int digits = 3) {
  return hml::to_string(rate, {.number = hml::general(digits), .information = hml::information_unit::bits});
}

}  // namespace

int main(int argc, char** argv) {
  const examples::output_options options = examples::parse_output_options(argc, argv, true);

  std::printf("Regime of a 10 MiB streaming kernel (50 ns latency, 10 GFLOP/s) by bandwidth and FLOP/B\n\n");
  hml::table grid_table;
  grid_table.columns.push_back("bandwidth");
  for (double ops : hml::points(intensities)) {
    grid_table.columns.push_back(std::string{hml::format_number(ops, hml::general(3)).view()} + " FLOP/B");
  }
  // Rows of the lazy run-time sweep (range-v3 chunk), one per bandwidth.
  std::size_t row_index = 0;
  for (const auto& row : hml::sweep_rows(seed_grid, seed)) {
    std::vector<hml::cell> cells{in_bits(bandwidths[row_index++])};
    for (const hml::time_breakdown& t : row) cells.emplace_back(std::string{hml::to_string(t.limit)});
    grid_table.add_row(std::move(cells));
  }
  std::fputs(hml::format_table(grid_table).c_str(), stdout);

  std::printf("\nCompute-bound from (memory time = compute time, closed form):\n");
  hml::table flips{{"FLOP/B", "bandwidth", "ridge without latency"}, {}};
  for (double ops : hml::points(intensities)) {
    const auto at = hml::balance_bandwidth(hml::streaming(problem_size, ops * hml::flop_per_byte), base_latency, core);
    const hml::data_rate ridge_bandwidth = core.peak / (ops * hml::flop_per_byte);
    flips.add_row({ops, at.exists() ? in_bits(at.value, 6) : std::string{"never"}, in_bits(ridge_bandwidth, 6)});
  }
  std::fputs(hml::format_table(flips, hml::general(3)).c_str(), stdout);

  if (options.svg.empty()) return 0;
  hml::roofline_chart chart{"Seed model: 100 Gbit/s memory, 10 GFLOP/s core", {{"memory", 100_Gbps}},
                            {{"peak", core.peak}}, {}};
  for (const bandwidth_sweep::scenario& s : bandwidth_sweep::scenarios) {
    if (s.bandwidth != 10_Gbps) continue;
    const hml::kernel k = hml::streaming(problem_size, s.ops_per_byte);
    const auto predicted = hml::run(k, hml::memory{base_latency, 100_Gbps}, core);
    chart.points.push_back({std::string{s.title}, s.ops_per_byte, k.flops / predicted.total, hml::point_kind::predicted});
  }
  return examples::write_output(options.svg, hml::to_svg(chart)) ? 0 : 1;
}
