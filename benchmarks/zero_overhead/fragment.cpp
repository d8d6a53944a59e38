#include <stdexcept>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include "../markdown_row.hpp"
#include "fragment.hpp"

import hml;

namespace zero_overhead {

void collecting_reporter::ReportRuns(const std::vector<Run>& runs) {
  for (const Run& run : runs) {
    const std::string& name = run.run_name.function_name;
    const bool median = run.run_type == Run::RT_Aggregate && run.aggregate_name == "median";
    if (median || (run.run_type == Run::RT_Iteration && !from_median_[name])) {
      rates_[name] = run.counters.at("items_per_second").value;
      from_median_[name] = median;
      repetitions_ = static_cast<int>(run.repetitions);
    }
  }
  ConsoleReporter::ReportRuns(runs);
}

namespace {

std::string number(double x, hml::number_format f = hml::general(3)) { return std::string{hml::format_number(x, f).view()}; }

}  // namespace

std::string fragment(sweep_size size, const collecting_reporter& results, const sweep_total& total) {
  const auto rate = [&](const char* name) {
    const auto found = results.rates().find(name);
    if (found == results.rates().end()) throw std::runtime_error(std::string{"the sweep "} + name + " did not run");
    return found->second;
  };
  const double points = static_cast<double>(size.points());
  const auto sweep_row = [&](const char* name, const std::string& description) {
    const double per_second = rate(name);
    return bench::markdown_row({description, hml::to_string(points / per_second * hml::second),
                hml::to_string(1.0 / per_second * hml::second), number(per_second / 1e6) + " M"});
  };

  const std::string repetitions =
      results.repetitions() > 1 ? "median of " + std::to_string(results.repetitions()) + " repetitions" : "one run";
  std::string md = "Seed 000's cache model over " + number(static_cast<double>(size.bandwidths), hml::fixed(0)) +
                   " slow-tier bandwidths x " + number(static_cast<double>(size.hit_rates), hml::fixed(0)) +
                   " hit rates = " + number(points, hml::fixed(0)) + " configurations per sweep; CPU time on one core, " +
                   repetitions + "; build type " HML_BUILD_TYPE ".\n\n";
  md += bench::markdown_row({"sweep", "time per sweep", "per evaluation", "evaluations/s per core"});
  md += bench::markdown_row({"---", "---:", "---:", "---:"});
  md += sweep_row(names::raw_checked, "raw doubles with hml's checks (baseline)");
  md += sweep_row(names::raw_unchecked, "raw doubles, no checks");
  md += sweep_row(names::hml_quantities, "hml quantities, `hml::run`");
  md += sweep_row(names::raw_flat, "raw doubles with the checks, one flat loop over the points");
  md += sweep_row(names::hml_for_each_point, "`hml::for_each_point(grid, f)` (a loop per axis)");
  md += sweep_row(names::hml_sweep_rows, "`hml::sweep_rows(grid, f)`, a range-for over rows and one over each row");
  md += sweep_row(names::hml_grid, "range-for over the `hml::grid`'s points (one flat loop)");
  md += sweep_row(names::hml_lazy_sweep, "range-for over `hml::lazy_sweep(grid, f)` (one flat loop, f in blocks)");

  const double ratio = rate(names::raw_checked) / rate(names::hml_quantities);
  const double unchecked_ratio = rate(names::raw_unchecked) / rate(names::hml_quantities);
  const auto against = [&](const char* name, const char* baseline) { return number(rate(baseline) / rate(name)) + "x"; };
  md += "\n**hml quantities / raw doubles: " + number(ratio) + "x the time (target <= 1.05).** ";
  md += "Against raw doubles without the checks: " + number(unchecked_ratio) + "x. ";
  md += "**Sweeping through hml, against the nested loop by hand (target <= 1.5): `hml::for_each_point` " +
        against(names::hml_for_each_point, names::raw_checked) + ", `hml::sweep_rows` " +
        against(names::hml_sweep_rows, names::raw_checked) + ", a range-for over `hml::lazy_sweep(grid, f)` " +
        against(names::hml_lazy_sweep, names::raw_checked) + "; a range-for over the grid's points, one flat loop, "
        "against the same flat loop by hand: " + against(names::hml_grid, names::raw_flat) + " (target <= 1.5).** ";
  md += "Against the nested loop the range-for over the grid's points takes " +
        against(names::hml_grid, names::raw_checked) + ", and the flat loop by hand " +
        against(names::raw_flat, names::raw_checked) + ": in one flat loop what depends on the bandwidth alone (its "
        "check, its reciprocal) runs at every point instead of once a row. The range-for's body is the caller's own "
        "code, into which clang inlines `hml::run` because the grid's end marks the loop's exit cold (see the "
        "explanation below the table). `hml::lazy_sweep` of a grid computes its results 16 at a time along a row, in "
        "a loop of its own, so what depends on the bandwidth alone runs once a block: " +
        against(names::hml_lazy_sweep, names::raw_flat) + " of the flat loop by hand. For the most speed over a "
        "grid, sweep it with `hml::sweep_rows` or `hml::for_each_point`. ";
  md += "hml and raw doubles agree to the bit at every configuration, and every sweep adds up to the same "
        "total (" + number(static_cast<double>(total.memory_bound), hml::fixed(0)) + " memory-bound configurations).\n";
  return md;
}

}  // namespace zero_overhead
