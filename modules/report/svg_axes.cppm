// hml.report:svg_axes — the chart's page and its log-log axes: what they must show (the ridges, roofs and
// points), their decades, and the checks that keep a log axis from 0, negatives and non-finite values.
module;
#include <algorithm>
#include <array>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <unordered_map>
#include <cmath>
#include <cstddef>
#include <iterator>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>
export module hml.report:svg_axes;
import hml.format;
import :csv;  // detail::append_shortest
import hml.analysis;
import :svg_chart;

namespace hml::detail::svg {
inline constexpr double width = 910;
inline constexpr double height = 560;
inline constexpr double left = 120;    // room for "100 GFLOP/s" tick labels and, left of them, the axis title
inline constexpr double right = 700;   // the legend sits to the right of the plot
inline constexpr double top = 56;
inline constexpr double bottom = 490;

// Distinct on white and from the points' blue, red and green markers' shapes; max_chart_roofs entries.
inline constexpr std::string_view roof_colours[] = {"#e66100", "#5d3a9b", "#0f8b8d", "#c2185b",
                                                    "#7a5c00", "#2e7d32", "#1565c0", "#6d6d6d"};
static_assert(std::size(roof_colours) == max_chart_roofs);

inline std::string number(double x) { return std::string{format_number(x, fixed(1)).view()}; }

// The shortest text that reads back as the same double: data-* attributes carry exact values.
inline std::string exact(double x) {
  std::string text;
  append_shortest(text, x);
  return text;
}

// The characters of `text` as an XML 1.0 document may hold them, each passed to `visit` as its UTF-8 bytes:
// a valid UTF-8 sequence as it is; U+FFFD (the replacement character) for each byte of an invalid one (a
// stray continuation byte, a truncated or overlong sequence, a surrogate, past U+10FFFF), and one for a control
// character other than tab, line feed and carriage return (C0, DEL, C1: XML forbids C0, and none of them
// shows) and for U+FFFE and U+FFFF, which XML forbids too. Kernel names and titles come from files and
// command lines, so anything may be in them; the SVG is well-formed XML whatever they hold.
template <class Visit>
void for_each_character(std::string_view text, Visit visit) {
  constexpr std::string_view replacement = "\xEF\xBF\xBD";
  for (std::size_t i = 0; i < text.size();) {
    const utf8_character c = utf8_character_at(text, i);
    if (c.length == 0) {
      visit(replacement);  // each byte of an ill-formed sequence on its own
      ++i;
      continue;
    }
    const bool kept_control = c.code == '\t' || c.code == '\n' || c.code == '\r';
    visit((is_control(c.code) && !kept_control) || c.code == 0xFFFE || c.code == 0xFFFF ? replacement
                                                                                       : text.substr(i, c.length));
    i += c.length;
  }
}

// Text for the SVG, as element content or a double-quoted attribute: the five characters of markup as
// entities, tab and line breaks as character references (a parser keeps them, and the element stays on one
// line), and what for_each_character replaces, replaced. The one escaping function for SVG text.
inline std::string escaped(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for_each_character(text, [&](std::string_view c) {
    switch (c.size() == 1 ? c[0] : '\0') {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\t': out += "&#9;"; break;
      case '\n': out += "&#10;"; break;
      case '\r': out += "&#13;"; break;
      default: out += c;
    }
  });
  return out;
}

inline double decade_below(double x) { return std::pow(10.0, std::floor(std::log10(x) + 1e-9)); }
inline double decade_above(double x) { return std::pow(10.0, std::ceil(std::log10(x) - 1e-9)); }

// Log-log mapping from (FLOP/B, FLOP/s) to the plot rectangle.
struct axes {
  double x_low, x_high, y_low, y_high;

  [[nodiscard]] double x(double intensity) const {
    return left + (std::log10(intensity / x_low) / std::log10(x_high / x_low)) * (right - left);
  }
  [[nodiscard]] double y(double rate) const {
    return bottom - (std::log10(rate / y_low) / std::log10(y_high / y_low)) * (bottom - top);
  }
};

// What the axes must show before they round out to decades: the ridges' span, the roofs' heights, and the
// slowest bandwidth, whose line sets how low the y axis reaches.
struct extent {
  double lowest_ridge, highest_ridge;
  double lowest_peak, highest_peak;
  double slowest;
};

inline axes axes_for(const extent& e, const std::vector<chart_point>& kernels) {
  double x_min = e.lowest_ridge;
  double x_max = e.highest_ridge;
  const double y_min = std::min(e.lowest_peak, e.slowest * x_min);
  double y_max = e.highest_peak;
  double lowest_point = y_max;
  for (const chart_point& p : kernels) {
    x_min = std::min(x_min, p.intensity.value());
    x_max = std::max(x_max, p.intensity.value());
    y_max = std::max(y_max, p.achieved.value());
    lowest_point = std::min(lowest_point, p.achieved.value());
  }
  // A margin around the ridges and points. The slowest bandwidth's line may reach far down at the left
  // edge: it gets at most seven decades of rate; every point is shown; at least two decades.
  axes a{decade_below(x_min / 4), decade_above(x_max * 4), 0, decade_above(y_max * 2.5)};
  a.y_low = std::max(decade_below(std::min(y_min, e.slowest * a.x_low)), a.y_high / 1e7);
  a.y_low = std::min(a.y_low, decade_below(lowest_point));
  if (a.y_high / a.y_low < 1e2) a.y_low = a.y_high / 1e2;
  return a;
}

inline constexpr auto by_peak = [](const compute_ceiling& a, const compute_ceiling& b) { return a.peak < b.peak; };
inline constexpr auto by_bandwidth = [](const bandwidth_ceiling& a, const bandwidth_ceiling& b) {
  return a.bandwidth < b.bandwidth;
};

// The ridge, in FLOP/B, of a peak (FLOP/s) over a bandwidth (B/s): the roofline's own ridge_point.
inline double ridge_of(double peak, double bandwidth) {
  return ridge_point(roof{data_rate::from_value(bandwidth), compute_rate::from_value(peak)}).value();
}

inline double highest_peak(const std::vector<compute_ceiling>& computes) {
  return std::max_element(computes.begin(), computes.end(), by_peak)->peak.value();
}
inline double fastest_bandwidth(const std::vector<bandwidth_ceiling>& bandwidths) {
  return std::max_element(bandwidths.begin(), bandwidths.end(), by_bandwidth)->bandwidth.value();
}

// The hierarchical roofline's ridges run from the lowest roof on the fastest memory to the highest roof on
// the slowest.
inline extent extent_of(const std::vector<bandwidth_ceiling>& bandwidths,
                        const std::vector<compute_ceiling>& computes) {
  const auto [lowest, highest] = std::minmax_element(computes.begin(), computes.end(), by_peak);
  const auto [slowest, fastest] = std::minmax_element(bandwidths.begin(), bandwidths.end(), by_bandwidth);
  return {ridge_point(roof{fastest->bandwidth, lowest->peak}).value(), ridge_point(roof{slowest->bandwidth, highest->peak}).value(),
          lowest->peak.value(), highest->peak.value(), slowest->bandwidth.value()};
}

inline extent extent_of(const std::vector<labelled_roof>& roofs) {
  extent e{ridge_point(roofs.front().roof).value(), ridge_point(roofs.front().roof).value(),
           roofs.front().roof.peak.value(), roofs.front().roof.peak.value(), roofs.front().roof.bandwidth.value()};
  for (const labelled_roof& r : roofs) {
    const double ridge = ridge_point(r.roof).value();
    e.lowest_ridge = std::min(e.lowest_ridge, ridge);
    e.highest_ridge = std::max(e.highest_ridge, ridge);
    e.lowest_peak = std::min(e.lowest_peak, r.roof.peak.value());
    e.highest_peak = std::max(e.highest_peak, r.roof.peak.value());
    e.slowest = std::min(e.slowest, r.roof.bandwidth.value());
  }
  return e;
}

// --- input checks: a log axis cannot show 0, a negative or a non-finite value -------------------------

inline void require(bool condition, const std::string& message) {
  if (!condition) throw std::invalid_argument("hml: roofline chart: " + message);
}

// A subnormal value's decade below is 10^-324, which is 0 in a double: the axis's decades never grew.
inline void require_positive(double value, const std::string& what) {
  require(std::isfinite(value) && value >= smallest_normal, what + " must be finite and at least 2.2e-308");
}

inline void validate(const roofline_chart& chart) {
  if (chart.roofs.empty()) {
    require(!chart.bandwidths.empty() && !chart.computes.empty(),
            "give roofs, or at least one bandwidth and one compute ceiling");
  } else {
    require(chart.bandwidths.empty() && chart.computes.empty(),
            "give either roofs (machines side by side) or one machine's ceilings, not both");
    require(chart.roofs.size() <= max_chart_roofs,
            std::to_string(chart.roofs.size()) + " roofs; a chart draws at most " + std::to_string(max_chart_roofs));
  }
  for (const bandwidth_ceiling& b : chart.bandwidths) {
    require_positive(b.bandwidth.value(), "bandwidth ceiling '" + std::string{b.name} + "'");
  }
  for (const compute_ceiling& c : chart.computes) {
    require_positive(c.peak.value(), "compute ceiling '" + std::string{c.name} + "'");
  }
  for (auto r = chart.roofs.begin(); r != chart.roofs.end(); ++r) {
    require(!r->name.empty(), "a roof needs a name (its legend entry)");
    require(std::none_of(chart.roofs.begin(), r, [&](const labelled_roof& o) { return o.name == r->name; }),
            "roof '" + r->name + "' is given twice");
    require_positive(r->roof.bandwidth.value(), "roof '" + r->name + "': bandwidth");
    require_positive(r->roof.peak.value(), "roof '" + r->name + "': peak");
  }
  require(chart.points.size() <= max_chart_kernels, std::to_string(chart.points.size()) + " points; a chart holds at most " +
                                                        std::to_string(max_chart_kernels) + " (a kernel on each roof is a point each)");
  for (const chart_point& p : chart.points) {
    require_positive(p.intensity.value(), "point '" + p.label + "': intensity");
    require_positive(p.achieved.value(), "point '" + p.label + "': rate");
    require(p.roof.empty() || std::any_of(chart.roofs.begin(), chart.roofs.end(),
                                          [&](const labelled_roof& r) { return r.name == p.roof; }),
            "point '" + p.label + "': no roof is named '" + p.roof + "'");
  }
}

}  // namespace hml::detail::svg
