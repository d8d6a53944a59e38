// hml.report:svg — a roofline chart as SVG: log-log axes with decade ticks, every bandwidth and compute
// ceiling drawn and labelled, the ridge of the highest roof marked, the memory- and compute-bound
// regions under the roof shaded, kernels as labelled points with a marker per kind, and a legend.
// The input is generic (named ceilings and points), so any roofline analysis can draw through it.
module;
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>
export module hml.report:svg;
import hml.format;
import hml.analysis;  // bandwidth_ceiling and compute_ceiling: the chart draws the roofline's own ceilings

export namespace hml {

// What a point on the chart is: a measurement or a prediction, a kernel before or after a change.
enum class point_kind { measured, predicted, before, after };

struct chart_point {
  std::string label;
  arithmetic_intensity intensity;
  compute_rate achieved;
  point_kind kind = point_kind::measured;
};

struct roofline_chart {
  std::string title;
  std::vector<bandwidth_ceiling> bandwidths;
  std::vector<compute_ceiling> computes;
  std::vector<chart_point> points;
};

}  // namespace hml

namespace hml::detail::svg {

inline constexpr double width = 910;
inline constexpr double height = 560;
inline constexpr double left = 112;    // room for "100 GFLOP/s" tick labels and the axis title
inline constexpr double right = 700;   // the legend sits to the right of the plot
inline constexpr double top = 56;
inline constexpr double bottom = 490;

inline std::string number(double x) { return std::string{format_number(x, fixed(1)).view()}; }

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

inline std::string text(double x, double y, std::string_view content, std::string_view attributes = {}) {
  return "<text x=\"" + number(x) + "\" y=\"" + number(y) + "\"" + (attributes.empty() ? "" : " ") +
         std::string{attributes} + ">" + escaped(content) + "</text>\n";
}

inline std::string line(double x1, double y1, double x2, double y2, std::string_view attributes) {
  return "<line x1=\"" + number(x1) + "\" y1=\"" + number(y1) + "\" x2=\"" + number(x2) + "\" y2=\"" + number(y2) +
         "\" " + std::string{attributes} + "/>\n";
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

}  // namespace hml::detail::svg

export namespace hml {

[[nodiscard]] inline std::string to_svg(const roofline_chart& chart) {
  namespace s = detail::svg;
  expects(!chart.bandwidths.empty() && !chart.computes.empty(),
          "hml: a roofline chart needs at least one bandwidth and one compute ceiling");
  const auto by_peak = [](const compute_ceiling& a, const compute_ceiling& b) { return a.peak < b.peak; };
  const auto by_bandwidth = [](const bandwidth_ceiling& a, const bandwidth_ceiling& b) { return a.bandwidth < b.bandwidth; };
  const double peak = std::max_element(chart.computes.begin(), chart.computes.end(), by_peak)->peak.value();
  const double fastest = std::max_element(chart.bandwidths.begin(), chart.bandwidths.end(), by_bandwidth)->bandwidth.value();
  const double slowest = std::min_element(chart.bandwidths.begin(), chart.bandwidths.end(), by_bandwidth)->bandwidth.value();
  const double lowest_peak = std::min_element(chart.computes.begin(), chart.computes.end(), by_peak)->peak.value();
  const double ridge = peak / fastest;

  // The x range covers every ridge and point with some margin; the y range the roofs and points.
  double x_min = std::min(lowest_peak / fastest, ridge);
  double x_max = peak / slowest;
  double y_min = std::min(lowest_peak, slowest * x_min);
  for (const chart_point& p : chart.points) {
    x_min = std::min(x_min, p.intensity.value());
    x_max = std::max(x_max, p.intensity.value());
    y_min = std::min(y_min, p.achieved.value());
  }
  s::axes a{s::decade_below(x_min / 4), s::decade_above(x_max * 4), 0, s::decade_above(peak * 2.5)};
  a.y_low = std::max(s::decade_below(std::min(y_min, slowest * a.x_low)), a.y_high / 1e7);
  if (a.y_high / a.y_low < 1e2) a.y_low = a.y_high / 1e2;

  std::string out;
  out += "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + s::number(s::width) + "\" height=\"" +
         s::number(s::height) + "\" viewBox=\"0 0 " + s::number(s::width) + " " + s::number(s::height) +
         "\" font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\" font-size=\"12\">\n";
  out += "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  out += "<clipPath id=\"plot\"><rect x=\"" + s::number(s::left) + "\" y=\"" + s::number(s::top) + "\" width=\"" +
         s::number(s::right - s::left) + "\" height=\"" + s::number(s::bottom - s::top) + "\"/></clipPath>\n";
  out += s::text((s::left + s::right) / 2, 30, chart.title, "text-anchor=\"middle\" font-size=\"16\" font-weight=\"bold\"");

  // Regions under the highest roof: memory-bound left of the ridge, compute-bound right of it.
  const double ridge_x = a.x(ridge);
  const double ridge_y = a.y(peak);
  out += "<g clip-path=\"url(#plot)\">\n";
  out += "<path d=\"M" + s::number(a.x(a.x_low)) + " " + s::number(s::bottom) + " L" + s::number(a.x(a.x_low)) + " " +
         s::number(a.y(fastest * a.x_low)) + " L" + s::number(ridge_x) + " " + s::number(ridge_y) + " L" +
         s::number(ridge_x) + " " + s::number(s::bottom) + " Z\" fill=\"#dbe8f7\"/>\n";
  out += "<rect x=\"" + s::number(ridge_x) + "\" y=\"" + s::number(ridge_y) + "\" width=\"" +
         s::number(s::right - ridge_x) + "\" height=\"" + s::number(s::bottom - ridge_y) + "\" fill=\"#fbe5d0\"/>\n";
  out += "</g>\n";

  // Decade grid lines and ticks, minor ticks at 2..9, labels under and left of the axes.
  for (double d = a.x_low; d <= a.x_high * 1.0001; d *= 10) {
    const double x = a.x(d);
    out += s::line(x, s::top, x, s::bottom, "stroke=\"#d0d0d0\"");
    out += s::line(x, s::bottom, x, s::bottom + 6, "stroke=\"black\"");
    out += s::text(x, s::bottom + 20, std::string{format_number(d, general(6)).view()}, "text-anchor=\"middle\"");
    for (int m = 2; m < 10 && d * 10 <= a.x_high * 1.0001; ++m) {
      const double minor = a.x(d * m);
      out += s::line(minor, s::bottom, minor, s::bottom + 3, "stroke=\"black\"");
    }
  }
  for (double d = a.y_low; d <= a.y_high * 1.0001; d *= 10) {
    const double y = a.y(d);
    out += s::line(s::left, y, s::right, y, "stroke=\"#d0d0d0\"");
    out += s::line(s::left - 6, y, s::left, y, "stroke=\"black\"");
    out += s::text(s::left - 9, y + 4, s::rate_text(compute_rate::from_value(d)), "text-anchor=\"end\"");
    for (int m = 2; m < 10 && d * 10 <= a.y_high * 1.0001; ++m) {
      const double minor = a.y(d * m);
      out += s::line(s::left - 3, minor, s::left, minor, "stroke=\"black\"");
    }
  }
  out += "<rect x=\"" + s::number(s::left) + "\" y=\"" + s::number(s::top) + "\" width=\"" +
         s::number(s::right - s::left) + "\" height=\"" + s::number(s::bottom - s::top) +
         "\" fill=\"none\" stroke=\"black\"/>\n";
  out += s::text((s::left + s::right) / 2, s::bottom + 44, "Arithmetic intensity (FLOP/B)",
                 "text-anchor=\"middle\" font-size=\"13\"");
  out += s::text(0, 0, "Performance (FLOP/s)",
                 "text-anchor=\"middle\" font-size=\"13\" transform=\"translate(20 " +
                     s::number((s::top + s::bottom) / 2) + ") rotate(-90)\"");

  // Ceilings: each bandwidth rises until it meets the highest compute roof; each compute roof runs from
  // its ridge with the fastest bandwidth to the right edge. Labels sit on the lines, inside the plot.
  out += "<g clip-path=\"url(#plot)\">\n";
  for (const compute_ceiling& c : chart.computes) {
    const double y = a.y(c.peak.value());
    out += s::line(a.x(c.peak.value() / fastest), y, s::right, y, "stroke=\"#a04000\" stroke-width=\"2\"");
  }
  for (const bandwidth_ceiling& b : chart.bandwidths) {
    out += s::line(a.x(a.x_low), a.y(b.bandwidth.value() * a.x_low), a.x(peak / b.bandwidth.value()), ridge_y,
                   "stroke=\"#1a5276\" stroke-width=\"2\"");
  }
  out += "</g>\n";
  for (const compute_ceiling& c : chart.computes) {
    out += s::text(s::right - 6, a.y(c.peak.value()) - 6, std::string{c.name} + " " + s::rate_text(c.peak),
                   "text-anchor=\"end\" fill=\"#a04000\"");
  }
  // A diagonal's screen angle: one decade in x and one in y have different lengths on screen.
  const double angle = -std::atan2((s::bottom - s::top) / std::log10(a.y_high / a.y_low),
                                   (s::right - s::left) / std::log10(a.x_high / a.x_low)) * 180.0 / 3.14159265358979;
  for (const bandwidth_ceiling& b : chart.bandwidths) {
    // Start where the line enters the plot, a little way along it.
    const double enters = std::max(a.x_low, a.y_low / b.bandwidth.value());
    const double at = enters * std::pow(peak / b.bandwidth.value() / enters, 0.12);
    const double x = a.x(at) + 4;
    const double y = a.y(b.bandwidth.value() * at) - 7;
    out += s::text(0, 0, std::string{b.name} + " " + s::rate_text(b.bandwidth),
                   "fill=\"#1a5276\" transform=\"translate(" + s::number(x) + " " + s::number(y) + ") rotate(" +
                       s::number(angle) + ")\"");
  }

  // The ridge of the highest roof.
  out += s::line(ridge_x, ridge_y, ridge_x, s::bottom, "stroke=\"#555\" stroke-dasharray=\"4 3\"");
  out += "<circle cx=\"" + s::number(ridge_x) + "\" cy=\"" + s::number(ridge_y) +
         "\" r=\"6\" fill=\"#f5b041\" stroke=\"black\"/>\n";
  // Above the roof, where no line or point can be.
  out += s::text(ridge_x, ridge_y - 12,
                 "ridge " + to_string(arithmetic_intensity::from_value(ridge), {.number = general(3)}),
                 "text-anchor=\"middle\"");

  for (const chart_point& p : chart.points) {
    const double x = a.x(p.intensity.value());
    const double y = a.y(p.achieved.value());
    out += s::marker(p.kind, x, y);
    // Right of the marker, or left of it where the label would leave the plot (about 7 px a character).
    if (x + 9 + 7.0 * static_cast<double>(p.label.size()) > s::right) {
      out += s::text(x - 9, y + 4, p.label, "text-anchor=\"end\"");
    } else {
      out += s::text(x + 9, y + 4, p.label);
    }
  }

  // Legend: the regions, the ridge, and each kind of point the chart uses.
  std::vector<point_kind> kinds;
  for (const chart_point& p : chart.points) {
    if (std::find(kinds.begin(), kinds.end(), p.kind) == kinds.end()) kinds.push_back(p.kind);
  }
  const double lx = s::right + 20;
  double ly = s::top + 10;
  out += "<rect x=\"" + s::number(lx - 10) + "\" y=\"" + s::number(ly - 10) + "\" width=\"" +
         s::number(s::width - lx) + "\" height=\"" + s::number(20.0 * static_cast<double>(3 + kinds.size()) + 10) +
         "\" fill=\"white\" stroke=\"#888\"/>\n";
  out += "<rect x=\"" + s::number(lx) + "\" y=\"" + s::number(ly) + "\" width=\"14\" height=\"12\" fill=\"#dbe8f7\"/>\n";
  out += s::text(lx + 22, ly + 11, "memory-bound region");
  ly += 20;
  out += "<rect x=\"" + s::number(lx) + "\" y=\"" + s::number(ly) + "\" width=\"14\" height=\"12\" fill=\"#fbe5d0\"/>\n";
  out += s::text(lx + 22, ly + 11, "compute-bound region");
  ly += 20;
  out += "<circle cx=\"" + s::number(lx + 7) + "\" cy=\"" + s::number(ly + 6) +
         "\" r=\"6\" fill=\"#f5b041\" stroke=\"black\"/>\n";
  out += s::text(lx + 22, ly + 11, "ridge point");
  for (point_kind kind : kinds) {
    ly += 20;
    out += s::marker(kind, lx + 7, ly + 6);
    out += s::text(lx + 22, ly + 11, std::string{s::kind_name(kind)} + " kernel");
  }
  out += "</svg>\n";
  return out;
}

}  // namespace hml
