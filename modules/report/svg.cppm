// hml.report:svg — a roofline chart as SVG: log-log axes with decade ticks, kernels as labelled points with a
// marker per kind, and a legend. It draws either of two things:
// - one machine's hierarchical roofline: every bandwidth and compute ceiling drawn and labelled, the ridge of
//   the highest roof marked, the memory- and compute-bound regions under the roof shaded;
// - one or more machines' rooflines side by side: each its own line min(peak, I x bandwidth) in its own
//   colour, with its own ridge marked and a legend entry (regions shaded only for a single machine, since
//   they differ between machines).
// The input is generic (named ceilings, roofs and points), so any roofline analysis can draw through it.
// The plot's axis ranges and each roof's figures are written as data-* attributes, so that a program can
// read positions back out of the SVG.
module;
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <iterator>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>
export module hml.report:svg;
import hml.format;
import :csv;  // detail::append_shortest
import hml.analysis;  // roof and the bandwidth and compute ceilings: the chart draws the roofline's own types

export namespace hml {

// What a point on the chart is: a measurement or a prediction, a kernel before or after a change.
enum class point_kind { measured, predicted, before, after };

struct chart_point {
  std::string label;
  arithmetic_intensity intensity;
  compute_rate achieved;
  point_kind kind = point_kind::measured;
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

}  // namespace hml

namespace hml::detail::svg {

inline constexpr double width = 910;
inline constexpr double height = 560;
inline constexpr double left = 112;    // room for "100 GFLOP/s" tick labels and the axis title
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

inline std::string escaped(std::string_view text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
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
  return {lowest->peak.value() / fastest->bandwidth.value(), highest->peak.value() / slowest->bandwidth.value(),
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

inline void require_positive(double value, const std::string& what) {
  require(std::isfinite(value) && value > 0, what + " must be finite and > 0");
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
  for (const chart_point& p : chart.points) {
    require_positive(p.intensity.value(), "point '" + p.label + "': intensity");
    require_positive(p.achieved.value(), "point '" + p.label + "': rate");
  }
}

// --- drawing ------------------------------------------------------------------------------------------

inline std::string text(double x, double y, std::string_view content, std::string_view attributes = {}) {
  return "<text x=\"" + number(x) + "\" y=\"" + number(y) + "\"" + (attributes.empty() ? "" : " ") +
         std::string{attributes} + ">" + escaped(content) + "</text>\n";
}

inline std::string line(double x1, double y1, double x2, double y2, std::string_view attributes) {
  return "<line x1=\"" + number(x1) + "\" y1=\"" + number(y1) + "\" x2=\"" + number(x2) + "\" y2=\"" + number(y2) +
         "\" " + std::string{attributes} + "/>\n";
}

inline std::string circle(double x, double y, std::string_view attributes) {
  return "<circle cx=\"" + number(x) + "\" cy=\"" + number(y) + "\" " + std::string{attributes} + "/>\n";
}

// The marker of each point kind: filled or hollow circle (measured, predicted), hollow square (before),
// filled triangle (after).
inline std::string marker(point_kind kind, double x, double y) {
  switch (kind) {
    case point_kind::measured:
      return "<circle cx=\"" + number(x) + "\" cy=\"" + number(y) + "\" r=\"5\" fill=\"#1f4e9c\"/>\n";
    case point_kind::predicted:
      return "<circle cx=\"" + number(x) + "\" cy=\"" + number(y) +
             "\" r=\"5\" fill=\"white\" stroke=\"#1f4e9c\" stroke-width=\"2\"/>\n";
    case point_kind::before:
      return "<rect x=\"" + number(x - 5) + "\" y=\"" + number(y - 5) +
             "\" width=\"10\" height=\"10\" fill=\"white\" stroke=\"#b03a2e\" stroke-width=\"2\"/>\n";
    case point_kind::after:
      return "<path d=\"M" + number(x) + " " + number(y - 6) + " L" + number(x + 6) + " " + number(y + 5) + " L" +
             number(x - 6) + " " + number(y + 5) + " Z\" fill=\"#1e8449\"/>\n";
  }
  return {};
}

inline std::string_view kind_name(point_kind kind) {
  switch (kind) {
    case point_kind::measured: return "measured";
    case point_kind::predicted: return "predicted";
    case point_kind::before: return "before";
    case point_kind::after: return "after";
  }
  return "?";
}

inline std::string rate_text(compute_rate r) { return to_string(r, {.number = general(3)}); }
inline std::string rate_text(data_rate r) { return to_string(r, {.number = general(3), .prefixes = prefix_system::decimal}); }
inline std::string ridge_text(double ridge) {
  return "ridge " + to_string(arithmetic_intensity::from_value(ridge), {.number = general(3)});
}

inline std::string header(std::string_view title) {
  std::string out;
  out += "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + number(width) + "\" height=\"" + number(height) +
         "\" viewBox=\"0 0 " + number(width) + " " + number(height) +
         "\" font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\" font-size=\"12\">\n";
  out += "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  out += "<clipPath id=\"plot\"><rect x=\"" + number(left) + "\" y=\"" + number(top) + "\" width=\"" +
         number(right - left) + "\" height=\"" + number(bottom - top) + "\"/></clipPath>\n";
  out += text((left + right) / 2, 30, title, "text-anchor=\"middle\" font-size=\"16\" font-weight=\"bold\"");
  return out;
}

// One machine's regions under its roof: memory-bound left of the ridge, compute-bound right of it.
inline std::string regions(const axes& a, double bandwidth, double peak) {
  const double ridge_x = a.x(peak / bandwidth);
  const double ridge_y = a.y(peak);
  std::string out = "<g clip-path=\"url(#plot)\">\n";
  out += "<path d=\"M" + number(a.x(a.x_low)) + " " + number(bottom) + " L" + number(a.x(a.x_low)) + " " +
         number(a.y(bandwidth * a.x_low)) + " L" + number(ridge_x) + " " + number(ridge_y) + " L" + number(ridge_x) +
         " " + number(bottom) + " Z\" fill=\"#dbe8f7\"/>\n";
  out += "<rect x=\"" + number(ridge_x) + "\" y=\"" + number(ridge_y) + "\" width=\"" + number(right - ridge_x) +
         "\" height=\"" + number(bottom - ridge_y) + "\" fill=\"#fbe5d0\"/>\n";
  out += "</g>\n";
  return out;
}

// Decade grid lines and ticks, minor ticks at 2..9, labels under and left of the axes, the frame (which
// carries the axis ranges) and the axis titles.
inline std::string grid(const axes& a) {
  std::string out;
  for (double d = a.x_low; d <= a.x_high * 1.0001; d *= 10) {
    const double x = a.x(d);
    out += line(x, top, x, bottom, "stroke=\"#d0d0d0\"");
    out += line(x, bottom, x, bottom + 6, "stroke=\"black\"");
    out += text(x, bottom + 20, std::string{format_number(d, general(6)).view()}, "text-anchor=\"middle\"");
    for (int m = 2; m < 10 && d * 10 <= a.x_high * 1.0001; ++m) {
      const double minor = a.x(d * m);
      out += line(minor, bottom, minor, bottom + 3, "stroke=\"black\"");
    }
  }
  for (double d = a.y_low; d <= a.y_high * 1.0001; d *= 10) {
    const double y = a.y(d);
    out += line(left, y, right, y, "stroke=\"#d0d0d0\"");
    out += line(left - 6, y, left, y, "stroke=\"black\"");
    out += text(left - 9, y + 4, rate_text(compute_rate::from_value(d)), "text-anchor=\"end\"");
    for (int m = 2; m < 10 && d * 10 <= a.y_high * 1.0001; ++m) {
      const double minor = a.y(d * m);
      out += line(left - 3, minor, left, minor, "stroke=\"black\"");
    }
  }
  out += "<rect class=\"frame\" x=\"" + number(left) + "\" y=\"" + number(top) + "\" width=\"" + number(right - left) +
         "\" height=\"" + number(bottom - top) + "\" data-intensity-range=\"" + exact(a.x_low) + " " +
         exact(a.x_high) + "\" data-rate-range=\"" + exact(a.y_low) + " " + exact(a.y_high) +
         "\" fill=\"none\" stroke=\"black\"/>\n";
  out += text((left + right) / 2, bottom + 44, "Arithmetic intensity (FLOP/B)",
              "text-anchor=\"middle\" font-size=\"13\"");
  out += text(0, 0, "Performance (FLOP/s)",
              "text-anchor=\"middle\" font-size=\"13\" transform=\"translate(20 " + number((top + bottom) / 2) +
                  ") rotate(-90)\"");
  return out;
}

// One machine's hierarchical ceilings: each bandwidth rises until it meets the highest compute roof; each
// compute roof runs from its ridge with the fastest bandwidth to the right edge; one ridge, where the fastest
// memory meets the highest roof. Labels sit on the lines, inside the plot.
inline std::string ceilings(const axes& a, const std::vector<bandwidth_ceiling>& bandwidths,
                            const std::vector<compute_ceiling>& computes) {
  const double peak = highest_peak(computes);
  const double fastest = fastest_bandwidth(bandwidths);
  const double ridge = peak / fastest;
  const double ridge_x = a.x(ridge);
  const double ridge_y = a.y(peak);

  std::string out = "<g clip-path=\"url(#plot)\">\n";
  for (const compute_ceiling& c : computes) {
    const double y = a.y(c.peak.value());
    out += line(a.x(c.peak.value() / fastest), y, right, y, "stroke=\"#a04000\" stroke-width=\"2\"");
  }
  for (const bandwidth_ceiling& b : bandwidths) {
    out += line(a.x(a.x_low), a.y(b.bandwidth.value() * a.x_low), a.x(peak / b.bandwidth.value()), ridge_y,
                "stroke=\"#1a5276\" stroke-width=\"2\"");
  }
  out += "</g>\n";
  for (const compute_ceiling& c : computes) {
    out += text(right - 6, a.y(c.peak.value()) - 6, std::string{c.name} + " " + rate_text(c.peak),
                "text-anchor=\"end\" fill=\"#a04000\"");
  }
  // A diagonal's screen angle: one decade in x and one in y have different lengths on screen.
  const double angle = -std::atan2((bottom - top) / std::log10(a.y_high / a.y_low),
                                   (right - left) / std::log10(a.x_high / a.x_low)) * 180.0 / 3.14159265358979;
  for (const bandwidth_ceiling& b : bandwidths) {
    // Start where the line enters the plot, a little way along it.
    const double enters = std::max(a.x_low, a.y_low / b.bandwidth.value());
    const double at = enters * std::pow(peak / b.bandwidth.value() / enters, 0.12);
    const double x = a.x(at) + 4;
    const double y = a.y(b.bandwidth.value() * at) - 7;
    out += text(0, 0, std::string{b.name} + " " + rate_text(b.bandwidth),
                "fill=\"#1a5276\" transform=\"translate(" + number(x) + " " + number(y) + ") rotate(" + number(angle) +
                    ")\"");
  }

  out += line(ridge_x, ridge_y, ridge_x, bottom, "stroke=\"#555\" stroke-dasharray=\"4 3\"");
  out += circle(ridge_x, ridge_y, "r=\"6\" fill=\"#f5b041\" stroke=\"black\"");
  // Above the roof, where no line or point can be.
  out += text(ridge_x, ridge_y - 12, ridge_text(ridge), "text-anchor=\"middle\"");
  return out;
}

// Each machine's roofline on its own: the polyline min(peak, I x bandwidth) from the left edge through its
// ridge to the right edge, the ridge marked and labelled, all in the roof's colour. The group carries the
// roof's figures (data-*) and a title (a tooltip in browsers).
inline std::string roof_lines(const axes& a, const std::vector<labelled_roof>& roofs) {
  std::string out;
  for (std::size_t i = 0; i < roofs.size(); ++i) {
    const labelled_roof& r = roofs[i];
    const std::string colour{roof_colours[i]};
    const double bandwidth = r.roof.bandwidth.value();
    const double peak = r.roof.peak.value();
    const double ridge = ridge_point(r.roof).value();
    const double ridge_x = a.x(ridge);
    const double ridge_y = a.y(peak);
    out += "<g class=\"roof\" data-name=\"" + escaped(r.name) + "\" data-bandwidth=\"" + exact(bandwidth) +
           "\" data-peak=\"" + exact(peak) + "\" data-ridge=\"" + exact(ridge) + "\">\n";
    out += "<title>" + escaped(r.name + ": " + rate_text(r.roof.bandwidth) + ", " + rate_text(r.roof.peak) + ", " +
                               ridge_text(ridge)) +
           "</title>\n";
    out += "<polyline points=\"" + number(a.x(a.x_low)) + "," + number(a.y(bandwidth * a.x_low)) + " " +
           number(ridge_x) + "," + number(ridge_y) + " " + number(right) + "," + number(ridge_y) +
           "\" fill=\"none\" stroke=\"" + colour + "\" stroke-width=\"2\" clip-path=\"url(#plot)\"/>\n";
    out += line(ridge_x, ridge_y, ridge_x, bottom, "stroke=\"" + colour + "\" stroke-dasharray=\"4 3\"");
    out += circle(ridge_x, ridge_y, "r=\"6\" fill=\"" + colour + "\" stroke=\"black\"");
    // Above the roof; with several machines the label names whose ridge it is.
    out += text(ridge_x, ridge_y - 12, (roofs.size() > 1 ? r.name + " " : std::string{}) + ridge_text(ridge),
                "text-anchor=\"middle\" fill=\"" + colour + "\"");
    out += "</g>\n";
  }
  return out;
}

inline std::string points(const axes& a, const std::vector<chart_point>& kernels) {
  std::string out;
  for (const chart_point& p : kernels) {
    const double x = a.x(p.intensity.value());
    const double y = a.y(p.achieved.value());
    out += marker(p.kind, x, y);
    // Right of the marker, or left of it where the label would leave the plot (about 7 px a character).
    if (x + 9 + 7.0 * static_cast<double>(p.label.size()) > right) {
      out += text(x - 9, y + 4, p.label, "text-anchor=\"end\"");
    } else {
      out += text(x + 9, y + 4, p.label);
    }
  }
  return out;
}

// The legend right of the plot: rows of a swatch and a text, in a box sized to them.
class legend {
 public:
  void row(const std::string& swatch, std::string_view label) {
    rows_ += swatch;
    rows_ += text(x + 22, y_ + 11, label);
    y_ += 20;
  }
  void region(std::string_view fill, std::string_view label) {
    row("<rect x=\"" + number(x) + "\" y=\"" + number(y_) + "\" width=\"14\" height=\"12\" fill=\"" +
            std::string{fill} + "\"/>\n",
        label);
  }
  void ridge_point() { row(circle(x + 7, y_ + 6, "r=\"6\" fill=\"#f5b041\" stroke=\"black\""), "ridge point"); }
  // A roof: its colour's line and ridge marker, its name, and its figures on a second line.
  void roof(std::string_view colour, const labelled_roof& r) {
    const std::string c{colour};
    rows_ += line(x, y_ + 6, x + 14, y_ + 6, "stroke=\"" + c + "\" stroke-width=\"2\"");
    rows_ += circle(x + 7, y_ + 6, "r=\"4\" fill=\"" + c + "\" stroke=\"black\"");
    rows_ += text(x + 22, y_ + 11, r.name);
    rows_ += text(x + 22, y_ + 26, rate_text(r.roof.bandwidth) + ", " + rate_text(r.roof.peak),
                  "font-size=\"11\" fill=\"#444\"");
    y_ += 36;
  }
  void kinds(const std::vector<chart_point>& kernels) {
    std::vector<point_kind> seen;
    for (const chart_point& p : kernels) {
      if (std::find(seen.begin(), seen.end(), p.kind) == seen.end()) seen.push_back(p.kind);
    }
    for (point_kind kind : seen) row(marker(kind, x + 7, y_ + 6), std::string{kind_name(kind)} + " kernel");
  }
  [[nodiscard]] std::string boxed() const {
    return "<rect x=\"" + number(x - 10) + "\" y=\"" + number(first - 10) + "\" width=\"" + number(width - x) +
           "\" height=\"" + number(y_ - first + 10) + "\" fill=\"white\" stroke=\"#888\"/>\n" + rows_;
  }

 private:
  static constexpr double x = right + 20;
  static constexpr double first = top + 10;
  double y_ = first;
  std::string rows_;
};

}  // namespace hml::detail::svg

export namespace hml {

// The chart as an SVG document; std::invalid_argument for an empty chart, both kinds of input at once, or a
// value a log axis cannot show (0, negative, not finite).
[[nodiscard]] inline std::string to_svg(const roofline_chart& chart) {
  namespace s = detail::svg;
  s::validate(chart);
  const bool hierarchical = chart.roofs.empty();
  const s::axes a = s::axes_for(hierarchical ? s::extent_of(chart.bandwidths, chart.computes) : s::extent_of(chart.roofs),
                                chart.points);

  std::string out = s::header(chart.title);
  s::legend key;
  if (hierarchical) {
    // The regions under the highest roof with the fastest memory.
    out += s::regions(a, s::fastest_bandwidth(chart.bandwidths), s::highest_peak(chart.computes));
    out += s::grid(a);
    out += s::ceilings(a, chart.bandwidths, chart.computes);
    key.region("#dbe8f7", "memory-bound region");
    key.region("#fbe5d0", "compute-bound region");
    key.ridge_point();
  } else {
    // Regions belong to one machine: with several, each kernel's region depends on the machine.
    const bool one_machine = chart.roofs.size() == 1;
    if (one_machine) out += s::regions(a, chart.roofs.front().roof.bandwidth.value(), chart.roofs.front().roof.peak.value());
    out += s::grid(a);
    out += s::roof_lines(a, chart.roofs);
    if (one_machine) {
      key.region("#dbe8f7", "memory-bound region");
      key.region("#fbe5d0", "compute-bound region");
    }
    for (std::size_t i = 0; i < chart.roofs.size(); ++i) key.roof(s::roof_colours[i], chart.roofs[i]);
  }
  out += s::points(a, chart.points);
  key.kinds(chart.points);
  out += key.boxed();
  out += "</svg>\n";
  return out;
}

}  // namespace hml
