// hml.report:svg_chart — what a roofline chart holds (one machine's ceilings, or several machines' roofs, and
// the kernels on them) and its bounds; hml.report:svg draws it.
module;
#include <cstddef>
#include <string>
#include <vector>
export module hml.report:svg_chart;
import hml.analysis;  // roof and the bandwidth and compute ceilings: the chart draws the roofline's own types

export namespace hml {

// What a point on the chart is: a measurement or a prediction, a kernel before or after a change.
enum class point_kind { measured, predicted, before, after };

struct chart_point {
  std::string label;
  arithmetic_intensity intensity;
  compute_rate achieved;
  point_kind kind = point_kind::measured;
  // On a chart of several machines: the name of the roof (labelled_roof::name) the point belongs to, which
  // gives it that machine's marker and colour; empty: the marker of its kind.
  std::string roof = {};
};

// One machine's roofline on a chart of several: its name (a device id, say) and its roof.
struct labelled_roof {
  std::string name;
  hml::roof roof;
};

// A chart holds either one machine's ceilings (`bandwidths` and `computes`, at least one of each) or
// `roofs` (one or more machines), not both.
struct roofline_chart {
  std::string title;
  std::vector<bandwidth_ceiling> bandwidths;
  std::vector<compute_ceiling> computes;
  std::vector<chart_point> points;
  std::vector<labelled_roof> roofs = {};  // last and defaulted: {title, bandwidths, computes, points} reads as before
};

// Each roof gets a colour of its own from a fixed palette, so a chart compares at most this many.
inline constexpr std::size_t max_chart_roofs = 8;

// A chart holds at most this many points (kernels on one roof; on n roofs, a kernel is n points), so that
// drawing one takes seconds and bounded memory; beyond a few hundred, the picture says more than the labels.
inline constexpr std::size_t max_chart_kernels = 100'000;

// Readability: the first this many kernels are labelled even where no spot is clear (at the spot that costs
// least: crossing lines rather than covering a text or marker); every later kernel is labelled only where its label meets nothing, else left
// unlabelled, which the legend counts ("N kernels unlabelled").
inline constexpr std::size_t max_chart_forced_labels = 64;

// A chart as SVG, and how many of its kernels (one label each, shared by a kernel's points on several
// roofs) it left unlabelled.
struct drawn_chart {
  std::string svg;
  std::size_t kernels = 0;
  std::size_t unlabelled = 0;
};

}  // namespace hml
