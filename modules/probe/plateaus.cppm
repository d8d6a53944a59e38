// hml.probe:plateaus — from bandwidth samples over growing working sets to one ceiling per memory level.
//
// Bandwidth stays flat while the working set fits a level and falls when it spills into the next one.
// Samples, ordered by working set, are grouped while they stay within a tolerance of the group's first
// sample; a group of fewer than `min_samples` before the last one is a transition between levels and
// dropped (the first group too: at the smallest sizes a lone sample is timing overhead more often than a
// level). Noise can still cut one level in two, so while there are more groups than a machine has
// levels, the two neighbours with the closest bandwidths are merged; neighbours wholly inside one cache
// the system reports are merged first, before transitions are dropped. The last group is served by the
// slowest level probed: DRAM, if the largest working sets are well beyond the last cache.
module;
#include <algorithm>
#include <array>
#include <cstddef>
#include <optional>
#include <span>
#include <string_view>
#include <tuple>
#include <utility>
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

// Working sets from `smallest` to `largest`, all threads together.
struct working_set_span {
  data_size smallest;
  data_size largest;
};

struct plateau_options {
  double tolerance = 0.25;      // a sample more than 25 % off the level's first sample starts a new level
  std::size_t min_samples = 2;  // fewer samples than this, between two levels, are a transition
  std::size_t max_levels = 4;   // L1, L2, L3 and DRAM; more groups than this are merged
  // The working sets each cache the system reports serves, L1 first: from what the level inside holds to
  // what it holds, all threads together (none: nothing reported). Neighbouring groups wholly inside one
  // are one level: below a few KiB a pass is too short to hide the loop's start-up, and its bandwidth
  // climbs with the set while L1 serves every one.
  std::vector<working_set_span> inside_caches{};
};

// The median of some measurements (the mean of the middle two of an even count); not of none.
template <class Quantity>
[[nodiscard]] Quantity median(std::vector<Quantity> values) {
  expects(!values.empty(), "hml: the median of no measurements");
  std::ranges::sort(values);
  const std::size_t middle = values.size() / 2;
  return values.size() % 2 == 1 ? values[middle] : (values[middle - 1] + values[middle]) / 2.0;
}

namespace detail {
// The bandwidths of the samples whose working set lies within [smallest, largest].
[[nodiscard]] inline std::vector<data_rate> bandwidths_within(std::span<const bandwidth_sample> samples,
                                                              data_size smallest, data_size largest) {
  std::vector<data_rate> inside;
  for (const bandwidth_sample& s : samples) {
    if (!(s.working_set < smallest) && !(largest < s.working_set)) inside.push_back(s.bandwidth);
  }
  return inside;
}
}  // namespace detail

// The median bandwidth of the samples whose working set lies within [smallest, largest]; none if no
// sample does. What a level delivers where its capacity is known: the samples clearly inside it.
[[nodiscard]] inline std::optional<data_rate> median_within(std::span<const bandwidth_sample> samples,
                                                            data_size smallest, data_size largest) {
  std::vector<data_rate> inside = detail::bandwidths_within(samples, smallest, largest);
  if (inside.empty()) return std::nullopt;
  return median(std::move(inside));
}

// The fastest of those samples; none if no sample lies within. What a core's own loads and stores reach:
// inside L1 nothing is shared, so a slower sample only lost time to something else (a pass too short to
// hide the loop's start-up, another process).
[[nodiscard]] inline std::optional<data_rate> fastest_within(std::span<const bandwidth_sample> samples,
                                                             data_size smallest, data_size largest) {
  const std::vector<data_rate> inside = detail::bandwidths_within(samples, smallest, largest);
  if (inside.empty()) return std::nullopt;
  return std::ranges::max(inside);
}

[[nodiscard]] inline std::vector<bandwidth_plateau> find_plateaus(std::span<const bandwidth_sample> samples,
                                                                  plateau_options options = {}) {
  expects(options.tolerance > 0.0 && options.tolerance < 1.0, "hml: plateau tolerance must be within (0, 1)");
  expects(options.max_levels >= 1, "hml: at least one memory level");
  for (const bandwidth_sample& s : samples) {
    expects(isfinite(s.bandwidth) && s.bandwidth.value() > 0, "hml: every sample needs a finite bandwidth > 0");
  }
  std::vector<bandwidth_sample> sorted(samples.begin(), samples.end());
  std::ranges::sort(sorted, {}, [](const bandwidth_sample& s) { return s.working_set.value(); });

  struct group {
    data_size smallest, largest;
    std::vector<data_rate> rates;  // rates.front() is the group's first sample
  };
  std::vector<group> groups;
  for (const bandwidth_sample& s : sorted) {
    const bool joins = !groups.empty() && [&] {
      const double ratio = s.bandwidth / groups.back().rates.front();
      return ratio >= 1.0 - options.tolerance && ratio <= 1.0 / (1.0 - options.tolerance);
    }();
    if (joins) {
      groups.back().largest = s.working_set;
      groups.back().rates.push_back(s.bandwidth);
    } else {
      groups.push_back({s.working_set, s.working_set, {s.bandwidth}});
    }
  }
  // Two neighbours wholly inside one reported cache are that cache.
  const auto inside_one_cache = [&](const group& a, const group& b) {
    return std::ranges::any_of(options.inside_caches, [&](const working_set_span& c) {
      return !(a.smallest < c.smallest) && !(c.largest < b.largest);
    });
  };
  const auto merge_next = [&](std::size_t g) {
    groups[g].largest = groups[g + 1].largest;
    groups[g].rates.insert(groups[g].rates.end(), groups[g + 1].rates.begin(), groups[g + 1].rates.end());
    groups.erase(groups.begin() + static_cast<std::ptrdiff_t>(g) + 1);
  };
  for (std::size_t g = groups.size(); g-- > 1;) {
    if (inside_one_cache(groups[g - 1], groups[g])) merge_next(g - 1);
  }
  // Short groups before the last are transitions (see the top of the file); the last group always stays.
  // After the merge above: sets wholly inside one cache, however their bandwidths vary, are no transition.
  for (std::size_t g = groups.size(); g-- > 1;) {
    if (groups[g - 1].rates.size() < options.min_samples) groups.erase(groups.begin() + static_cast<std::ptrdiff_t>(g) - 1);
  }

  // Noise can split a level in two: merge the two neighbours closest in bandwidth until few enough remain.
  while (groups.size() > options.max_levels) {
    std::size_t closest = 0;
    double closest_ratio = 0;
    for (std::size_t i = 0; i + 1 < groups.size(); ++i) {
      const data_rate a = median(groups[i].rates), b = median(groups[i + 1].rates);
      const double ratio = a < b ? b / a : a / b;
      if (i == 0 || ratio < closest_ratio) std::tie(closest, closest_ratio) = std::tuple{i, ratio};
    }
    merge_next(closest);
  }

  static constexpr std::array<std::string_view, 8> cache_names{"L1", "L2", "L3", "L4", "L5", "L6", "L7", "L8"};
  std::vector<bandwidth_plateau> levels;
  for (std::size_t g = 0; g < groups.size(); ++g) {
    const std::string_view name =
        g + 1 == groups.size() ? std::string_view{"DRAM"} : cache_names[std::min(g, cache_names.size() - 1)];
    levels.push_back({{name, median(groups[g].rates)}, groups[g].smallest, groups[g].largest, groups[g].rates.size()});
  }
  return levels;
}

// The probed working sets smaller than the first level's, left out of every level: from one to the next their
// bandwidths differed too much to form one (a pass too short to hide the loop's start-up, or noise), so the
// fastest level may be missing. Their span and how many; none where the first level starts at the smallest.
struct sets_in_no_level {
  working_set_span span;
  std::size_t count = 0;
};
[[nodiscard]] inline std::optional<sets_in_no_level> sets_before_first_level(std::span<const bandwidth_sample> samples,
                                                                             std::span<const bandwidth_plateau> levels) {
  if (levels.empty()) return std::nullopt;
  std::vector<data_size> before;
  for (const bandwidth_sample& s : samples)
    if (s.working_set < levels.front().smallest && std::ranges::find(before, s.working_set) == before.end())
      before.push_back(s.working_set);
  if (before.empty()) return std::nullopt;
  const auto [smallest, largest] = std::ranges::minmax(before);
  return sets_in_no_level{{smallest, largest}, before.size()};
}

}  // namespace hml
