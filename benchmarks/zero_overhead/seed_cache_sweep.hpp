// The sweep both sides of the zero-overhead benchmark evaluate: seed 000's cache model (10 MB streamed at
// 1 FLOP/B on a 10 GFLOP/s core, 50 ns latency, a 500 Gbit/s fast tier) over a grid of slow-tier bandwidths
// (1 to 100 Gbit/s) x hit rates (0 to 1), as hml values. The raw-double side reads the same values out.
#pragma once
#include <cstddef>
#include <vector>

import hml;

namespace zero_overhead {

using namespace hml::literals;

struct sweep_size {
  std::size_t bandwidths;
  std::size_t hit_rates;

  [[nodiscard]] std::size_t points() const noexcept { return bandwidths * hit_rates; }
};

// The fixed part of every configuration.
struct seed_cache {
  hml::kernel kernel = hml::streaming(10_MB, 1.0 * hml::flop_per_byte);
  hml::duration latency = 50_ns;
  hml::data_rate fast = 500_Gbps;
  hml::compute_core core{10_GFLOPS};

  [[nodiscard]] hml::two_tier_memory memory(hml::data_rate slow, double hit_rate) const noexcept {
    return {.latency = latency, .fast = fast, .slow = slow, .hit_rate = hit_rate};
  }
  [[nodiscard]] hml::time_breakdown run(hml::data_rate slow, double hit_rate) const {
    return hml::run(kernel, memory(slow, hit_rate), core);
  }
};

[[nodiscard]] inline auto configurations(sweep_size size) {
  return hml::grid(hml::linear_axis(1_Gbps, 100_Gbps, size.bandwidths), hml::linear_axis(0.0, 1.0, size.hit_rates));
}

// The same points as plain lists, for loops that index them directly.
struct axis_values {
  std::vector<hml::data_rate> slow_bandwidths;
  std::vector<double> hit_rates;
};

[[nodiscard]] inline axis_values values_of(sweep_size size) {
  const auto grid = configurations(size);
  axis_values v;
  for (std::size_t i = 0; i < size.bandwidths; ++i) v.slow_bandwidths.push_back(std::get<0>(grid.axes)[i]);
  for (std::size_t j = 0; j < size.hit_rates; ++j) v.hit_rates.push_back(std::get<1>(grid.axes)[j]);
  return v;
}

// What a sweep adds up, so that the optimizer cannot drop an evaluation and the paths can be compared.
struct sweep_total {
  double total_seconds = 0.0;
  std::size_t memory_bound = 0;

  void add(double seconds, bool is_memory_bound) noexcept {
    total_seconds += seconds;
    memory_bound += is_memory_bound ? 1 : 0;
  }
  friend bool operator==(const sweep_total&, const sweep_total&) = default;
};

}  // namespace zero_overhead
