// hml.probe:plateaus — from bandwidth samples over growing working sets to one ceiling per memory level.
//
// Bandwidth stays flat while the working set fits a level and falls when it spills into the next one.
// Samples, ordered by working set, are grouped while they stay within a tolerance of the group's first
// sample; a group of fewer than `min_samples` between two others is a transition between levels and
// dropped. The last group is served by the slowest level probed: DRAM, if the largest working sets are
// well beyond the last cache.
module;
#include <algorithm>
#include <array>
#include <cstddef>
#include <span>
#include <string_view>
#include <vector>
export module hml.probe:plateaus;
import hml.analysis;

export namespace hml {

struct bandwidth_sample {
  data_size working_set;  // all arrays of all threads together
  data_rate bandwidth;
};

// One memory level as the samples show it: its ceiling and the working sets it served.
struct bandwidth_plateau {
  bandwidth_ceiling ceiling;  // the median bandwidth of the level's samples
  data_size smallest;
  data_size largest;
  std::size_t samples;
};

struct plateau_options {
  double tolerance = 0.25;      // a sample more than 25 % off the level's first sample starts a new level
  std::size_t min_samples = 2;  // fewer samples than this, between two levels, are a transition
};

[[nodiscard]] inline std::vector<bandwidth_plateau> find_plateaus(std::span<const bandwidth_sample> samples,
                                                                  plateau_options options = {}) {
  expects(options.tolerance > 0.0 && options.tolerance < 1.0, "hml: plateau tolerance must be within (0, 1)");
  for (const bandwidth_sample& s : samples) {
    expects(isfinite(s.bandwidth) && s.bandwidth.value() > 0, "hml: every sample needs a finite bandwidth > 0");
  }
  std::vector<bandwidth_sample> sorted(samples.begin(), samples.end());
  std::ranges::sort(sorted, {}, [](const bandwidth_sample& s) { return s.working_set.value(); });

  std::vector<std::vector<data_rate>> rates;
  std::vector<bandwidth_plateau> groups;
  for (const bandwidth_sample& s : sorted) {
    const bool joins = !groups.empty() && [&] {
      const double ratio = s.bandwidth / rates.back().front();
      return ratio >= 1.0 - options.tolerance && ratio <= 1.0 / (1.0 - options.tolerance);
    }();
    if (joins) {
      groups.back().largest = s.working_set;
      ++groups.back().samples;
      rates.back().push_back(s.bandwidth);
    } else {
      groups.push_back({{}, s.working_set, s.working_set, 1});
      rates.push_back({s.bandwidth});
    }
  }

  static constexpr std::array<std::string_view, 8> cache_names{"L1", "L2", "L3", "L4", "L5", "L6", "L7", "L8"};
  std::vector<bandwidth_plateau> levels;
  for (std::size_t g = 0; g < groups.size(); ++g) {
    const bool last = g + 1 == groups.size();
    if (!last && groups[g].samples < options.min_samples) continue;
    std::vector<data_rate>& group = rates[g];
    std::ranges::sort(group);
    const std::size_t middle = group.size() / 2;
    const data_rate median = group.size() % 2 == 1 ? group[middle] : (group[middle - 1] + group[middle]) / 2.0;
    const std::string_view name =
        last ? std::string_view{"DRAM"} : cache_names[std::min(levels.size(), cache_names.size() - 1)];
    levels.push_back({{name, median}, groups[g].smallest, groups[g].largest, groups[g].samples});
  }
  return levels;
}

}  // namespace hml
