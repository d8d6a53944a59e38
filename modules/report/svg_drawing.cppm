// hml.report:svg_drawing — the chart's SVG elements: grid, regions, ceilings and roofs, markers, labels and
// legend, each placed through the layout.
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
export module hml.report:svg_drawing;
import hml.format;
import :csv;  // detail::append_shortest
import hml.analysis;
import :svg_chart;
import :svg_axes;
import :svg_layout;

namespace hml::detail::svg {
// --- drawing ------------------------------------------------------------------------------------------

inline std::string text(double x, double y, std::string_view content, std::string_view attributes = {}) {
  return "<text x=\"" + number(x) + "\" y=\"" + number(y) + "\"" + (attributes.empty() ? "" : " ") +
         std::string{attributes} + ">" + escaped(content) + "</text>\n";
}

// A placed label: its anchor, rotation and further attributes.
inline std::string text(const text_spot& at, std::string_view content, std::string_view attributes = {}) {
  std::string all = at.anchor == "start" ? std::string{} : "text-anchor=\"" + std::string{at.anchor} + "\"";
  if (!attributes.empty()) all += (all.empty() ? "" : " ") + std::string{attributes};
  if (at.angle == 0) return text(at.x, at.y, content, all);
  return text(0, 0, content,
              all + (all.empty() ? "" : " ") + "transform=\"translate(" + number(at.x) + " " + number(at.y) +
                  ") rotate(" + number(at.angle) + ")\"");
}

inline std::string line(double x1, double y1, double x2, double y2, std::string_view attributes) {
  return "<line x1=\"" + number(x1) + "\" y1=\"" + number(y1) + "\" x2=\"" + number(x2) + "\" y2=\"" + number(y2) +
         "\" " + std::string{attributes} + "/>\n";
}

// A placed label and, where it went further away, its leader line (thin and grey, under nothing).
inline std::string labelled(const placed_label& at, std::string_view content, std::string_view attributes = {}) {
  std::string out;
  if (at.has_leader()) {
    out += line(at.leader.first.x, at.leader.first.y, at.leader.second.x, at.leader.second.y,
                "class=\"leader\" stroke=\"#888\" stroke-width=\"0.8\"");
  }
  return out + text(at.spot, content, attributes);
}

// A name drawn in a place of its own width at most (a label, a legend's row, the title): where it had to be
// cut, a group whose title, a tooltip in browsers, holds it whole.
inline std::string named_text(const fitted_text& name, std::string_view whole, std::string drawn) {
  if (!name.cut) return drawn;
  return "<g class=\"cut\">\n<title>" + escaped(whole) + "</title>\n" + drawn + "</g>\n";
}

inline constexpr double max_label_width = 280;  // px, about half the plot: a label beside its point still fits

// A label of a name from the input, at most max_label_width wide, where it meets least (see layout::place).
inline std::string placed_name(layout& page, std::string_view whole, const std::vector<text_spot>& spots,
                               const box* named = nullptr, std::string_view attributes = {}) {
  const fitted_text name = fitted(whole, max_label_width, font_size);
  return named_text(name, whole, labelled(page.place(name.shown, spots, named), name.shown, attributes));
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

// With several machines, a point's machine shows in its marker: the machine's colour and a shape of its own
// (circle, square, triangle, diamond, triangle down, pentagon, hexagon, triangle right), filled for a
// measured or after point, hollow for a predicted or before one. `extra` carries data-roof and class.
inline constexpr std::size_t shape_count = 8;
static_assert(shape_count == max_chart_roofs);

inline bool filled(point_kind kind) { return kind == point_kind::measured || kind == point_kind::after; }

inline std::string device_marker(std::size_t roof, bool solid, double x, double y, std::string_view extra = {}) {
  const std::string colour{roof_colours[roof]};
  const std::string paint = solid ? "fill=\"" + colour + "\" stroke=\"" + colour + "\" stroke-width=\"1\""
                                  : "fill=\"white\" stroke=\"" + colour + "\" stroke-width=\"2\"";
  const std::string tail = " " + paint + (extra.empty() ? "" : " " + std::string{extra}) + "/>\n";
  if (roof == 0) return "<circle cx=\"" + number(x) + "\" cy=\"" + number(y) + "\" r=\"5\"" + tail;
  // Regular polygons of radius 6: corners, first angle (degrees from the top, clockwise).
  constexpr std::pair<int, double> polygons[shape_count] = {{0, 0},  {4, 45}, {3, 0},  {4, 0},
                                                            {3, 180}, {5, 0}, {6, 30}, {3, 90}};
  const auto [corners, first] = polygons[roof % shape_count];
  std::string d;
  for (int i = 0; i < corners; ++i) {
    const double a = (first + 360.0 * i / corners) * 3.14159265358979 / 180;
    d += (i == 0 ? "M" : " L") + number(x + 6 * std::sin(a)) + " " + number(y - 6 * std::cos(a));
  }
  return "<path d=\"" + d + " Z\"" + tail;
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
  // Centred over the plot, within the page: bold DejaVu Sans is at most 1.11 times the regular's width.
  const double title_size = 16, room = 2 * std::min((left + right) / 2, width - (left + right) / 2) - 20;
  const fitted_text shown = fitted(title, room / 1.11, title_size);
  out += named_text(shown, title,
                    text((left + right) / 2, 30, shown.shown, "text-anchor=\"middle\" font-size=\"16\" font-weight=\"bold\""));
  return out;
}

// One machine's regions under its roof: memory-bound left of the ridge, compute-bound right of it.
inline std::string regions(const axes& a, double bandwidth, double peak) {
  const double ridge_x = a.x(ridge_of(peak, bandwidth));
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
// Decades between two points of an axis's ends, and how many decades apart its labels stand: every one up to
// `most` labels, else every few, so that the labels of a wide axis (a trial's 120 decades) do not overprint.
inline int decades(double low, double high) { return static_cast<int>(std::lround(std::log10(high / low))); }
inline int label_every(double low, double high, int most) { return std::max(1, (decades(low, high) + most) / (most + 1)); }

inline std::string grid(const axes& a) {
  std::string out;
  const int x_every = label_every(a.x_low, a.x_high, 12);
  int k = 0;
  for (double d = a.x_low; d <= a.x_high * 1.0001; d *= 10, ++k) {
    const double x = a.x(d);
    out += line(x, top, x, bottom, "stroke=\"#d0d0d0\"");
    out += line(x, bottom, x, bottom + 6, "stroke=\"black\"");
    if (k % x_every == 0) out += text(x, bottom + 20, std::string{format_number(d, general(6)).view()}, "text-anchor=\"middle\"");
    for (int m = 2; m < 10 && x_every == 1 && d * 10 <= a.x_high * 1.0001; ++m) {
      const double minor = a.x(d * m);
      out += line(minor, bottom, minor, bottom + 3, "stroke=\"black\"");
    }
  }
  const int y_every = label_every(a.y_low, a.y_high, 10);
  k = 0;
  for (double d = a.y_low; d <= a.y_high * 1.0001; d *= 10, ++k) {
    const double y = a.y(d);
    out += line(left, y, right, y, "stroke=\"#d0d0d0\"");
    out += line(left - 6, y, left, y, "stroke=\"black\"");
    if (k % y_every == 0) out += text(left - 9, y + 4, rate_text(compute_rate::from_value(d)), "text-anchor=\"end\"");
    for (int m = 2; m < 10 && y_every == 1 && d * 10 <= a.y_high * 1.0001; ++m) {
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
              "text-anchor=\"middle\" font-size=\"13\" transform=\"translate(16 " + number((top + bottom) / 2) +
                  ") rotate(-90)\"");
  return out;
}

// Candidate spots for a label beside a box (a marker, or a column of markers), nearest first: right of it,
// left of it, above and below it, at growing distances (the far ones get a leader line). The order depends
// on the offsets alone, so it is worked out once; each box only moves the spots.
struct beside_offset {
  enum side_of { right_of, left_of, above, below } side;
  double dx, dy;  // dy signed for right_of and left_of (down is +)
};

inline const std::vector<beside_offset>& beside_order() {
  static const std::vector<beside_offset> order = [] {
    struct scored {
      double cost;
      beside_offset offset;
    };
    std::vector<scored> spots;
    for (double dy = 0; dy <= 160; dy += 4) {
      for (double sign : {1.0, -1.0}) {
        if (dy == 0 && sign < 0) continue;
        for (double dx : {4.0, 20.0, 44.0}) {
          spots.push_back({dy + dx, {beside_offset::right_of, dx, sign * dy}});
          spots.push_back({dy + dx + 6, {beside_offset::left_of, dx, sign * dy}});
        }
      }
      spots.push_back({dy + 8, {beside_offset::above, 0, dy}});
      spots.push_back({dy + 8, {beside_offset::below, 0, dy}});
    }
    std::vector<std::size_t> by_cost(spots.size());
    for (std::size_t i = 0; i < by_cost.size(); ++i) by_cost[i] = i;
    // By cost, then as generated (std::stable_sort's buffer is deprecated in libstdc++ 12 under clang 19).
    std::ranges::sort(by_cost, [&](std::size_t i, std::size_t j) {
      return spots[i].cost < spots[j].cost || (spots[i].cost == spots[j].cost && i < j);
    });
    std::vector<beside_offset> sorted;
    for (std::size_t i : by_cost) sorted.push_back(spots[i].offset);
    return sorted;
  }();
  return order;
}

inline std::vector<text_spot> beside(const box& b) {
  const double middle = (b.y0 + b.y1) / 2 + (ascent - descent) * font_size / 2;  // baseline of a centred text
  std::vector<text_spot> spots;
  spots.reserve(beside_order().size());
  for (const beside_offset& o : beside_order()) {
    switch (o.side) {
      case beside_offset::right_of: spots.push_back({b.x1 + o.dx, middle + o.dy}); break;
      case beside_offset::left_of: spots.push_back({b.x0 - o.dx, middle + o.dy, "end"}); break;
      case beside_offset::above:
        spots.push_back({(b.x0 + b.x1) / 2, b.y0 - 3 - o.dy - descent * font_size, "middle"});
        break;
      case beside_offset::below:
        spots.push_back({(b.x0 + b.x1) / 2, b.y1 + 3 + o.dy + ascent * font_size, "middle"});
        break;
    }
  }
  return spots;
}

// Candidate spots for a ridge label: above its marker, then beside and under it.
inline std::vector<text_spot> around_ridge(double x, double y) {
  std::vector<text_spot> spots;
  for (double d : {10.0, 18.0, 28.0, 40.0, 56.0, 76.0, 100.0, 130.0}) {
    spots.push_back({x, y - d, "middle"});
    spots.push_back({x + 8, y - d});
    spots.push_back({x - 8, y - d, "end"});
    spots.push_back({x + 8, y + d + 8});
    spots.push_back({x - 8, y + d + 8, "end"});
  }
  return spots;
}

// One machine's hierarchical ceilings: each bandwidth rises until it meets the highest compute roof; each
// compute roof runs from its ridge with the fastest bandwidth to the right edge; one ridge, where the fastest
// memory meets the highest roof. Lines first (and what they occupy); labels are placed after the points.
inline std::string ceiling_lines(const axes& a, const std::vector<bandwidth_ceiling>& bandwidths,
                                 const std::vector<compute_ceiling>& computes, layout& page) {
  const double peak = highest_peak(computes);
  const double fastest = fastest_bandwidth(bandwidths);
  const double ridge_x = a.x(ridge_of(peak, fastest));
  const double ridge_y = a.y(peak);
  std::string out = "<g clip-path=\"url(#plot)\">\n";
  for (const compute_ceiling& c : computes) {
    const double x = a.x(ridge_of(c.peak.value(), fastest)), y = a.y(c.peak.value());
    out += line(x, y, right, y, "stroke=\"#a04000\" stroke-width=\"2\"");
    page.segment({x, y}, {right, y});
  }
  for (const bandwidth_ceiling& b : bandwidths) {
    const point2 from{a.x(a.x_low), a.y(b.bandwidth.value() * a.x_low)}, to{a.x(ridge_of(peak, b.bandwidth.value())), ridge_y};
    out += line(from.x, from.y, to.x, to.y, "stroke=\"#1a5276\" stroke-width=\"2\"");
    page.segment(from, to);
  }
  out += "</g>\n";
  out += line(ridge_x, ridge_y, ridge_x, bottom, "stroke=\"#555\" stroke-dasharray=\"4 3\"");
  page.segment({ridge_x, ridge_y}, {ridge_x, bottom});
  out += circle(ridge_x, ridge_y, "r=\"6\" fill=\"#f5b041\" stroke=\"black\"");
  page.marker({ridge_x - 7, ridge_y - 7, ridge_x + 7, ridge_y + 7});
  return out;
}

inline std::string ceiling_labels(const axes& a, const std::vector<bandwidth_ceiling>& bandwidths,
                                  const std::vector<compute_ceiling>& computes, layout& page) {
  const double peak = highest_peak(computes);
  const double fastest = fastest_bandwidth(bandwidths);
  std::string out;
  for (const compute_ceiling& c : computes) {
    // Along the roof, right end first, above it or under it.
    const double y = a.y(c.peak.value());
    const double start = a.x(ridge_of(c.peak.value(), fastest));
    std::vector<text_spot> spots;
    for (double f : {1.0, 0.75, 0.5, 0.25}) {
      const double x = start + 14 + f * (right - 6 - start - 14);
      spots.push_back({x, y - 6, "end"});
      spots.push_back({x, y + 4 + ascent * font_size, "end"});
    }
    out += placed_name(page, std::string{c.name} + " " + rate_text(c.peak), spots, nullptr, "fill=\"#a04000\"");
  }
  // A diagonal's screen angle: one decade in x and one in y have different lengths on screen.
  const double angle = -std::atan2((bottom - top) / std::log10(a.y_high / a.y_low),
                                   (right - left) / std::log10(a.x_high / a.x_low)) * 180.0 / 3.14159265358979;
  const double slant = angle * 3.14159265358979 / 180;
  for (const bandwidth_ceiling& b : bandwidths) {
    // Along the line from where it enters the plot, above it or under it.
    const double enters = std::max(a.x_low, a.y_low / b.bandwidth.value());
    const double meets = ridge_of(peak, b.bandwidth.value());  // where the line meets the highest roof
    std::vector<text_spot> spots;
    for (double f : {0.12, 0.05, 0.22, 0.32, 0.42, 0.52}) {
      const double at = enters * std::pow(meets / enters, f);
      const double x = a.x(at), y = a.y(b.bandwidth.value() * at);
      // Offsets perpendicular to the line: the baseline 5 px above it, or the top 5 px under it.
      for (const double off : {-5.0 - descent * font_size, 5.0 + ascent * font_size}) {
        spots.push_back({x - off * std::sin(slant), y + off * std::cos(slant), "start", angle});
      }
    }
    out += placed_name(page, std::string{b.name} + " " + rate_text(b.bandwidth), spots, nullptr, "fill=\"#1a5276\"");
  }
  const double ridge = ridge_of(peak, fastest);
  const std::string content = ridge_text(ridge);
  const box marker{a.x(ridge) - 7, a.y(peak) - 7, a.x(ridge) + 7, a.y(peak) + 7};
  out += labelled(page.place(content, around_ridge(a.x(ridge), a.y(peak)), &marker), content);
  return out;
}

// Each machine's roofline on its own: the polyline min(peak, I x bandwidth) from the left edge through its
// ridge to the right edge, the ridge marked, all in the roof's colour. The group carries the roof's figures
// (data-*) and a title (a tooltip in browsers). The ridge's label is placed once the points are drawn
// (ridge_labels) and names its roof in data-roof.
inline std::string roof_lines(const axes& a, const std::vector<labelled_roof>& roofs, layout& page) {
  std::string out;
  for (std::size_t i = 0; i < roofs.size(); ++i) {
    const labelled_roof& r = roofs[i];
    const std::string colour{roof_colours[i]};
    const double bandwidth = r.roof.bandwidth.value();
    const double peak = r.roof.peak.value();
    const double ridge = ridge_point(r.roof).value();
    const point2 start{a.x(a.x_low), a.y(bandwidth * a.x_low)}, corner{a.x(ridge), a.y(peak)}, end{right, a.y(peak)};
    page.segment(start, corner);
    page.segment(corner, end);
    page.segment(corner, {corner.x, bottom});
    page.marker({corner.x - 7, corner.y - 7, corner.x + 7, corner.y + 7});
    out += "<g class=\"roof\" data-name=\"" + escaped(r.name) + "\" data-bandwidth=\"" + exact(bandwidth) +
           "\" data-peak=\"" + exact(peak) + "\" data-ridge=\"" + exact(ridge) + "\">\n";
    out += "<title>" + escaped(r.name + ": " + rate_text(r.roof.bandwidth) + ", " + rate_text(r.roof.peak) + ", " +
                               ridge_text(ridge)) +
           "</title>\n";
    out += "<polyline points=\"" + number(start.x) + "," + number(start.y) + " " + number(corner.x) + "," +
           number(corner.y) + " " + number(end.x) + "," + number(end.y) + "\" fill=\"none\" stroke=\"" + colour +
           "\" stroke-width=\"2\" clip-path=\"url(#plot)\"/>\n";
    out += line(corner.x, corner.y, corner.x, bottom, "stroke=\"" + colour + "\" stroke-dasharray=\"4 3\"");
    out += circle(corner.x, corner.y, "r=\"6\" fill=\"" + colour + "\" stroke=\"black\"");
    out += "</g>\n";
  }
  return out;
}

inline std::string ridge_labels(const axes& a, const std::vector<labelled_roof>& roofs, layout& page) {
  std::string out;
  for (std::size_t i = 0; i < roofs.size(); ++i) {
    const labelled_roof& r = roofs[i];
    const double ridge = ridge_point(r.roof).value();
    // With several machines the label names whose ridge it is.
    const std::string content = (roofs.size() > 1 ? r.name + " " : std::string{}) + ridge_text(ridge);
    const double x = a.x(ridge), y = a.y(r.roof.peak.value());
    const box marker{x - 7, y - 7, x + 7, y + 7};
    out += placed_name(page, content, around_ridge(x, y), &marker,
                       "class=\"ridge\" data-roof=\"" + escaped(r.name) + "\" fill=\"" + std::string{roof_colours[i]} + "\"");
  }
  return out;
}

// The points' markers, which take their place before any label is placed.
struct drawn_point {
  const chart_point* point;
  double x, y;
};

inline std::string point_markers(const axes& a, const std::vector<chart_point>& kernels,
                                 const std::vector<labelled_roof>& roofs, layout& page,
                                 std::vector<drawn_point>& drawn) {
  std::string out;
  for (const chart_point& p : kernels) {
    const double x = a.x(p.intensity.value());
    const double y = a.y(p.achieved.value());
    const auto roof = std::find_if(roofs.begin(), roofs.end(), [&](const labelled_roof& r) { return r.name == p.roof; });
    if (roofs.size() > 1 && roof != roofs.end()) {
      out += device_marker(static_cast<std::size_t>(roof - roofs.begin()), filled(p.kind), x, y,
                           "class=\"point\" data-roof=\"" + escaped(p.roof) + "\"");
    } else {
      out += marker(p.kind, x, y);
    }
    page.marker({x - 7, y - 7, x + 7, y + 7});
    drawn.push_back({&p, x, y});
  }
  return out;
}

// One label per kernel: the points of one kernel on several machines (one label, one intensity) share it,
// placed beside the column of their markers. The first max_chart_forced_labels kernels are labelled where
// their label meets the fewest things if no spot is clear; later ones only where clear, else not at all.
struct kernel_labels {
  std::string svg;
  std::size_t kernels = 0, unlabelled = 0;
};

inline kernel_labels point_labels(const std::vector<drawn_point>& drawn, layout& page) {
  struct column_of_markers {
    const chart_point* first;
    double x0, x1, y0, y1;
  };
  struct same_kernel {
    std::size_t operator()(const chart_point* p) const {
      return std::hash<std::string_view>{}(p->label) ^ (std::hash<double>{}(p->intensity.value()) * 31);
    }
    bool operator()(const chart_point* a, const chart_point* b) const {
      return a->label == b->label && a->intensity.value() == b->intensity.value();
    }
  };
  // Each kernel's column, in the order of its first point.
  std::vector<column_of_markers> columns;
  std::unordered_map<const chart_point*, std::size_t, same_kernel, same_kernel> column_of;
  for (const drawn_point& d : drawn) {
    const auto [at, added] = column_of.try_emplace(d.point, columns.size());
    if (added) {
      columns.push_back({d.point, d.x, d.x, d.y, d.y});
      continue;
    }
    column_of_markers& c = columns[at->second];
    c.x0 = std::min(c.x0, d.x), c.x1 = std::max(c.x1, d.x);
    c.y0 = std::min(c.y0, d.y), c.y1 = std::max(c.y1, d.y);
  }
  kernel_labels out{.svg = {}, .kernels = columns.size(), .unlabelled = 0};
  for (std::size_t i = 0; i < columns.size(); ++i) {
    const std::string& whole = columns[i].first->label;
    const box column{columns[i].x0 - 7, columns[i].y0 - 7, columns[i].x1 + 7, columns[i].y1 + 7};
    if (i < max_chart_forced_labels) {
      out.svg += placed_name(page, whole, beside(column), &column);
    } else if (const fitted_text name = fitted(whole, max_label_width, font_size);
               const std::optional<placed_label> at = page.place_if_clear(name.shown, beside(column), &column)) {
      out.svg += named_text(name, whole, labelled(*at, name.shown));
    } else {
      ++out.unlabelled;
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
  // A roof: its colour's line and, when its points have a marker of their own, that marker; its name, and
  // its figures on a second line.
  void roof(std::size_t index, const labelled_roof& r, const std::string& point_marker) {
    const std::string c{roof_colours[index]};
    rows_ += line(x - 4, y_ + 6, x + 18, y_ + 6, "stroke=\"" + c + "\" stroke-width=\"2\"");
    rows_ += point_marker.empty() ? circle(x + 7, y_ + 6, "r=\"4\" fill=\"" + c + "\" stroke=\"black\"") : point_marker;
    const fitted_text name = fitted(r.name, width - (x + 22) - 6, font_size);
    rows_ += named_text(name, r.name, text(x + 22, y_ + 11, name.shown));
    rows_ += text(x + 22, y_ + 26, rate_text(r.roof.bandwidth) + ", " + rate_text(r.roof.peak),
                  "font-size=\"11\" fill=\"#444\"");
    y_ += 36;
  }
  // The point kinds: in their own markers, or, where markers show the machine, filled or hollow in grey.
  void kinds(const std::vector<chart_point>& kernels, bool by_machine) {
    std::vector<point_kind> seen;
    for (const chart_point& p : kernels) {
      if (std::find(seen.begin(), seen.end(), p.kind) == seen.end()) seen.push_back(p.kind);
    }
    for (point_kind kind : seen) {
      const std::string swatch =
          by_machine ? circle(x + 7, y_ + 6, filled(kind) ? "r=\"5\" fill=\"#666\""
                                                          : "r=\"5\" fill=\"white\" stroke=\"#666\" stroke-width=\"2\"")
                     : marker(kind, x + 7, y_ + 6);
      row(swatch, std::string{kind_name(kind)} + " kernel");
    }
  }
  // A line of text of its own: what the chart leaves out.
  void remark(std::string_view content) {
    rows_ += text(x, y_ + 11, content, "font-size=\"11\" fill=\"#444\"");
    y_ += 20;
  }
  [[nodiscard]] double next_y() const { return y_; }
  [[nodiscard]] std::string boxed() const {
    return "<rect x=\"" + number(x - 10) + "\" y=\"" + number(first - 10) + "\" width=\"" + number(width - x) +
           "\" height=\"" + number(y_ - first + 10) + "\" fill=\"white\" stroke=\"#888\"/>\n" + rows_;
  }

  static constexpr double x = right + 20;

 private:
  static constexpr double first = top + 10;
  double y_ = first;
  std::string rows_;
};

}  // namespace hml::detail::svg
