// The seed lab's model as `hml lab` and `hml sweep` take it: a streaming kernel (size, ops per byte, access
// pattern) on a flat memory (latency, bandwidth) or a two-tier one (hit rate, fast and slow tiers), and a
// compute core. `lab` takes one value per parameter; `sweep` takes an axis for any of them.
#pragma once
#include <cstddef>
#include <functional>
#include <string>
#include <vector>
#include <CLI/CLI.hpp>

#include "common.hpp"

namespace hml_cli {

// The options as given; the defaults are the seed's "Low bandwidth" case.
struct model_options {
  std::string size = "10MiB";
  std::string bandwidth = "1Gbit/s";
  std::string ops_per_byte = "1";
  std::string latency = "50ns";
  std::string peak = "10GFLOP/s";
  std::string hit_rate;  // given: a two-tier memory of --fast and --slow
  std::string fast;
  std::string slow;
  std::string pattern = "sequential";
  std::string element = "8B";
  std::string line = "64B";
  double outstanding = 1.0;
  std::string overlap = "none";
  std::vector<const CLI::Option*> random_only;  // --element, --line, --outstanding: with --pattern random only
};

void add_model_options(CLI::App& command, model_options& options, bool axes);

// One configuration of the model and what the library computes for it.
struct model_point {
  hml::data_size size;
  hml::data_rate bandwidth;  // flat memory
  double hit_rate = 0;       // two-tier memory: hit rate, fast and slow tiers
  hml::data_rate fast;
  hml::data_rate slow;
  hml::arithmetic_intensity ops_per_byte;
  hml::duration latency;
  hml::compute_rate peak;
  hml::time_breakdown result;
};

// The parameters as axes (one value each when a parameter is not swept), read from the options.
struct model_space {
  hml::sampled_axis<hml::data_size> size;
  hml::sampled_axis<hml::data_rate> bandwidth;
  hml::sampled_axis<double> hit_rate;  // empty: flat memory
  hml::sampled_axis<hml::data_rate> fast;
  hml::sampled_axis<hml::data_rate> slow;
  hml::sampled_axis<hml::arithmetic_intensity> ops_per_byte;
  hml::sampled_axis<hml::duration> latency;
  hml::sampled_axis<hml::compute_rate> peak;
  hml::access_pattern pattern;
  hml::time_options time;

  [[nodiscard]] bool two_tier() const noexcept { return hit_rate.size() > 0; }
  [[nodiscard]] std::size_t points() const noexcept;
};

// The most points `hml sweep` runs. Output streams, so memory does not limit it; time and disk do: 10^7
// points are about 1 GB of CSV and seconds of writing in a release build, so more is almost surely a typo.
inline constexpr std::size_t max_sweep_points = 10'000'000;

model_space space_of(const model_options& options, bool axes);

// Runs the model at every point of the space, last parameter varying fastest.
void for_each_point(const model_space& space, const std::function<void(const model_point&)>& visit);

}  // namespace hml_cli
