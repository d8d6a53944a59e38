// Collects Google Benchmark's results and writes them as the Markdown fragment of benchmarks/README.md.
#pragma once
#include <map>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include "seed_cache_sweep.hpp"

namespace zero_overhead {

// The sweeps, as Google Benchmark names them.
namespace names {
inline constexpr const char* raw_checked = "raw_doubles_checked";
inline constexpr const char* raw_unchecked = "raw_doubles_unchecked";
inline constexpr const char* hml_quantities = "hml_quantities";
inline constexpr const char* raw_flat = "raw_doubles_flat";
inline constexpr const char* hml_grid = "hml_grid";
inline constexpr const char* hml_for_each_point = "hml_for_each_point";
inline constexpr const char* hml_lazy_sweep = "hml_lazy_sweep";
inline constexpr const char* hml_sweep_rows = "hml_sweep_rows";
}  // namespace names

// The console output as usual, and each benchmark's evaluations per second of CPU time: the median over
// the repetitions when there are several, else the one run.
class collecting_reporter : public benchmark::ConsoleReporter {
public:
  void ReportRuns(const std::vector<Run>& runs) override;
  [[nodiscard]] const std::map<std::string, double>& rates() const noexcept { return rates_; }
  [[nodiscard]] int repetitions() const noexcept { return repetitions_; }

private:
  std::map<std::string, double> rates_;
  std::map<std::string, bool> from_median_;
  int repetitions_ = 1;
};

// The table of sweeps and the ratio hml / raw doubles. Throws std::runtime_error if a sweep did not run.
[[nodiscard]] std::string fragment(sweep_size size, const collecting_reporter& results, const sweep_total& total);

}  // namespace zero_overhead
