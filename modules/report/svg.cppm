// hml.report:svg — a roofline chart as SVG: log-log axes with decade ticks, kernels as labelled points with a
// marker per kind, and a legend. It draws either of two things:
// - one machine's hierarchical roofline: every bandwidth and compute ceiling drawn and labelled, the ridge of
//   the highest roof marked, the memory- and compute-bound regions under the roof shaded;
// - one or more machines' rooflines side by side: each its own line min(peak, I x bandwidth) in its own
//   colour, with its own ridge marked and a legend entry (regions shaded only for a single machine, since
//   they differ between machines).
// With several machines, each machine's points have its colour and a marker shape of their own, shown in the
// legend; a kernel drawn on several machines is labelled once, beside the column of its markers.
// Every label (ceilings, ridges, points) is placed where it crosses no line, marker or other label: the
// candidates around its anchor are tried nearest first against the geometry drawn so far (a conservative
// estimate of DejaVu Sans's glyph widths gives each text's box), each only against what lies near it (a
// grid over the page), so N kernels take O(N) tests. Past max_chart_forced_labels kernels a kernel's label
// goes only where it is clear, else the kernel stays unlabelled and the legend counts it.
// tests/runtime/chart_layout_test.cpp checks the written charts of the sample kernel lists for collisions.
// All text goes through escaped(), so the SVG is well-formed XML whatever the names and title hold.
// The input is generic (named ceilings, roofs and points), so any roofline analysis can draw through it.
// The plot's axis ranges and each roof's figures are written as data-* attributes, so that a program can
// read positions back out of the SVG.
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

// A chart holds at most this many kernels (points per roof), so that drawing one takes seconds and bounded
// memory; beyond a few hundred, the picture says more than the labels anyway.
inline constexpr std::size_t max_chart_kernels = 100'000;

// Readability: the first this many kernels are labelled even where no spot is clear (at the spot that meets
// the fewest things); every later kernel is labelled only where its label meets nothing, else left
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
  const std::size_t most = max_chart_kernels * std::max<std::size_t>(chart.roofs.size(), 1);
  require(chart.points.size() <= most, std::to_string(chart.points.size()) + " points; a chart holds at most " +
                                           std::to_string(max_chart_kernels) + " kernels on each roof");
  for (const chart_point& p : chart.points) {
    require_positive(p.intensity.value(), "point '" + p.label + "': intensity");
    require_positive(p.achieved.value(), "point '" + p.label + "': rate");
    require(p.roof.empty() || std::any_of(chart.roofs.begin(), chart.roofs.end(),
                                          [&](const labelled_roof& r) { return r.name == p.roof; }),
            "point '" + p.label + "': no roof is named '" + p.roof + "'");
  }
}

// --- where things are: every line, marker and text drawn so far, so that a label goes where it is clear ---
//
// A text's box comes from an estimate of the glyph widths of DejaVu Sans, the font the SVG names first
// (DejaVuSans.ttf, hmtx table, 2048 units per em): for each class of characters the widest glyph of the
// class, rounded up, so the box is never narrower than the text drawn (Helvetica and Arial, the fallbacks,
// are narrower still). Vertically it runs from the ascender, 0.93 em above the baseline, to the descender,
// 0.24 em below. tests/runtime/svg_layout.hpp checks the written SVG with the same estimate, independently.

struct point2 {
  double x, y;
};
// Convex, at most four corners (a text's box, a marker, a rectangle); two corners make a segment. Held in
// place, not on the heap: a chart tests hundreds of candidate boxes for each label.
struct polygon {
  std::array<point2, 4> corners{};
  std::size_t count = 0;

  polygon(std::initializer_list<point2> points) : count{std::min(points.size(), corners.size())} {
    std::copy_n(points.begin(), count, corners.begin());
  }
  [[nodiscard]] std::size_t size() const { return count; }
  [[nodiscard]] const point2& operator[](std::size_t i) const { return corners[i]; }
  [[nodiscard]] const point2* begin() const { return corners.data(); }
  [[nodiscard]] const point2* end() const { return corners.data() + count; }
  point2* begin() { return corners.data(); }
  point2* end() { return corners.data() + count; }
};

inline double em_width(unsigned char c) {
  constexpr std::string_view narrow = "'ijlIJ ,./:;\\|f-()[]t!r";  // widest: r, 0.411 em
  constexpr std::string_view wide = "mwMW%@#+<=>^~&";             // widest: @, 1.0 em
  if (c >= 0x80) return 1.0;
  if (narrow.find(static_cast<char>(c)) != std::string_view::npos) return 0.42;
  if (wide.find(static_cast<char>(c)) != std::string_view::npos) return 1.0;
  if (c >= 'A' && c <= 'Z') return 0.8;  // widest: O and Q, 0.787 em
  return 0.64;                           // lower case and digits; widest: the digits, 0.636 em
}

// The width of the text as escaped() writes it: each character by its first byte (a replaced one is U+FFFD).
inline double text_width(std::string_view content, double font_size) {
  double ems = 0;
  for_each_character(content, [&](std::string_view c) { ems += em_width(static_cast<unsigned char>(c[0])); });
  return ems * font_size;
}

inline constexpr double ascent = 0.93;   // em above the baseline
inline constexpr double descent = 0.24;  // em below it
inline constexpr double font_size = 12;
inline constexpr double text_height = (ascent + descent) * font_size;
inline constexpr double clearance = 2.5;  // px kept free around every label

// Where a text goes: its anchor point and how it hangs from it, as SVG's text-anchor and rotate() say.
struct text_spot {
  double x, y;  // the baseline's anchor point
  std::string_view anchor = "start";
  double angle = 0;  // degrees, about (x, y)
};

// The text's box, grown by `margin` on every side, as a polygon on the page.
inline polygon box_of(const text_spot& at, double text_wide, double margin) {
  const double shift = at.anchor == "middle" ? text_wide / 2 : at.anchor == "end" ? text_wide : 0;
  const double x0 = -shift - margin, x1 = text_wide - shift + margin;
  const double y0 = -ascent * font_size - margin, y1 = descent * font_size + margin;
  polygon corners{{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}};
  if (at.angle == 0) {  // the same figures as the rotation by 0 below, without its sine and cosine
    for (point2& c : corners) c = {at.x + c.x, at.y + c.y};
    return corners;
  }
  const double a = at.angle * 3.14159265358979 / 180;
  for (point2& c : corners) {
    c = {at.x + c.x * std::cos(a) - c.y * std::sin(a), at.y + c.x * std::sin(a) + c.y * std::cos(a)};
  }
  return corners;
}

inline polygon rectangle(double x0, double y0, double x1, double y1) { return {{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}}; }

// Separating axes: two convex polygons are apart when the projections on some edge normal do not overlap.
inline bool overlap(const polygon& a, const polygon& b) {
  const auto apart_along = [&](point2 axis) {
    double a_low = 1e300, a_high = -1e300, b_low = 1e300, b_high = -1e300;
    for (const point2& p : a) a_low = std::min(a_low, p.x * axis.x + p.y * axis.y), a_high = std::max(a_high, p.x * axis.x + p.y * axis.y);
    for (const point2& p : b) b_low = std::min(b_low, p.x * axis.x + p.y * axis.y), b_high = std::max(b_high, p.x * axis.x + p.y * axis.y);
    return a_high <= b_low || b_high <= a_low;
  };
  for (const polygon* shape : {&a, &b}) {
    const std::size_t n = shape->size();
    for (std::size_t i = 0; i < (n == 2 ? 1 : n); ++i) {
      const point2 p = (*shape)[i], q = (*shape)[(i + 1) % n];
      if (apart_along({p.y - q.y, q.x - p.x})) return false;
      if (n == 2 && apart_along({q.x - p.x, q.y - p.y})) return false;
    }
  }
  return true;
}

// The part of the segment p-q inside the plot (Liang-Barsky); false when none is.
inline bool clip_to_plot(point2& p, point2& q) {
  double t0 = 0, t1 = 1;
  const double dx = q.x - p.x, dy = q.y - p.y;
  const double sides[4][2] = {{-dx, p.x - left}, {dx, right - p.x}, {-dy, p.y - top}, {dy, bottom - p.y}};
  for (const auto& [d, distance] : sides) {
    if (d == 0) {
      if (distance < 0) return false;
    } else if (d < 0) {
      t0 = std::max(t0, distance / d);
    } else {
      t1 = std::min(t1, distance / d);
    }
  }
  if (t0 > t1) return false;
  const point2 a{p.x + t0 * dx, p.y + t0 * dy}, b{p.x + t1 * dx, p.y + t1 * dy};
  p = a;
  q = b;
  return true;
}

// An axis-aligned box: a marker, a column of markers, an unrotated text.
struct box {
  double x0, y0, x1, y1;
};

// The nearest points of two boxes, a on the first and b on the second (equal where they overlap).
inline std::pair<point2, point2> nearest_points(const box& a, const box& b) {
  const auto span = [](double a0, double a1, double b0, double b1) {
    if (a1 < b0) return std::pair{a1, b0};
    if (b1 < a0) return std::pair{a0, b1};
    const double middle = (std::max(a0, b0) + std::min(a1, b1)) / 2;
    return std::pair{middle, middle};
  };
  const auto [ax, bx] = span(a.x0, a.x1, b.x0, b.x1);
  const auto [ay, by] = span(a.y0, a.y1, b.y0, b.y1);
  return {{ax, ay}, {bx, by}};
}

// A label where it was placed, and the leader line that ties it to what it names when it had to go further
// away than `beside` (leader.first == leader.second: none).
struct placed_label {
  text_spot spot;
  std::pair<point2, point2> leader{};
  [[nodiscard]] bool has_leader() const { return leader.first.x != leader.second.x || leader.first.y != leader.second.y; }
};

inline constexpr double beside_gap = 12;  // px: a label further than this from what it names gets a leader

inline box bounds_of(const polygon& shape) {
  box b{shape[0].x, shape[0].y, shape[0].x, shape[0].y};
  for (const point2& c : shape) b = {std::min(b.x0, c.x), std::min(b.y0, c.y), std::max(b.x1, c.x), std::max(b.y1, c.y)};
  return b;
}

// What is on the page so far, and the first clear spot among a label's candidates.
//
// Everything drawn sits in a grid of cells over the page: a shape in every cell its bounding box covers. A
// candidate is tested only against the shapes in the cells its own box covers (grown by a pixel, so that no
// rounding hides a neighbour), each once: labels and markers are a few cells across, so placing N labels
// takes O(N) tests where testing against everything drawn took O(N^2). The answers are those of testing
// everything: a shape the grid skips is more than a pixel away.
//
// Once the plot is crowded, most candidates of a label that must be clear are not: a map of the page's
// pixels, a row of bits each, says which pixels some marker or unrotated text reaches inside. A candidate
// with such a pixel wholly inside its box overlaps that shape, so it fails after a few word tests (a label is
// one line of text high), whatever the crowd; only a candidate that passes is tested against the shapes near
// it, which in a crowd are the few a pixel's width from it.
class layout {
 public:
  layout() : cells_(columns * rows), covered_(words_per_row * pixel_rows, 0), covered_whole_(covered_.size(), 0) {}

  void segment(point2 p, point2 q, bool clipped = true) {
    if (!clipped || clip_to_plot(p, q)) add({p, q}, false);
  }
  void area(const polygon& shape) { add(shape, false); }
  void marker(const box& b) { add(rectangle(b.x0, b.y0, b.x1, b.y1), true); }

  // The first candidate whose box, with clearance, is inside the plot and meets nothing drawn; else the one
  // that meets the fewest things. Where the label names something (`named`, a marker's box) and lands more
  // than beside_gap from it, a leader line joins them, which must cross no text or marker either. The label
  // (and its leader) are taken.
  placed_label place(std::string_view content, const std::vector<text_spot>& candidates, const box* named = nullptr) {
    return *take(content, candidates, named, false);
  }
  // The same, but only a candidate that meets nothing: none such, nothing is taken.
  std::optional<placed_label> place_if_clear(std::string_view content, const std::vector<text_spot>& candidates,
                                             const box* named = nullptr) {
    return take(content, candidates, named, true);
  }

 private:
  static constexpr double cell = 16;  // px: about a label's height, a marker's width
  static constexpr std::size_t columns = static_cast<std::size_t>(width / cell) + 1;
  static constexpr std::size_t rows = static_cast<std::size_t>(height / cell) + 1;

  struct shape {
    polygon corners;
    box bounds;
    bool solid;    // a text or a marker, which a leader line must not cross either (lines may)
    bool aligned;  // an axis-aligned rectangle: its bounds are the shape
  };

  // Whether the box lies wholly on one side of the segment's line, more than a hair from it: then they are
  // apart, as the separating-axes test finds along the segment's normal, at a fraction of its cost (a leader
  // line's box holds many markers of a crowded plot).
  static bool beside_line(const polygon& segment, const box& b) {
    const point2 p = segment[0], d{segment[1].x - p.x, segment[1].y - p.y};
    const double hair = 1e-6 * (std::abs(d.x) + std::abs(d.y));
    int above = 0, below = 0;
    for (const point2 c : {point2{b.x0, b.y0}, point2{b.x1, b.y0}, point2{b.x1, b.y1}, point2{b.x0, b.y1}}) {
      const double side = d.x * (c.y - p.y) - d.y * (c.x - p.x);
      above += side > hair ? 1 : 0;
      below += side < -hair ? 1 : 0;
    }
    return above == 4 || below == 4;
  }

  static bool axis_aligned(const polygon& p) {
    return p.size() == 4 && p[0].y == p[1].y && p[1].x == p[2].x && p[2].y == p[3].y && p[3].x == p[0].x;
  }

  static std::size_t column_of(double x) {
    return x <= 0 ? 0 : std::min(static_cast<std::size_t>(x / cell), columns - 1);  // off the page: the edge's cells
  }
  static std::size_t row_of(double y) { return y <= 0 ? 0 : std::min(static_cast<std::size_t>(y / cell), rows - 1); }

  static constexpr std::size_t pixel_columns = static_cast<std::size_t>(width);
  static constexpr std::size_t pixel_rows = static_cast<std::size_t>(height);
  static constexpr std::size_t words_per_row = (pixel_columns + 63) / 64;

  // The pixels wholly inside [low, high] along one axis of the page: [first, last).
  static std::pair<std::size_t, std::size_t> pixels_inside(double low, double high, std::size_t count) {
    const double first = std::ceil(std::max(low, 0.0));
    const double last = std::floor(std::min(high, static_cast<double>(count)));
    if (!(first < last)) return {0, 0};
    return {static_cast<std::size_t>(first), static_cast<std::size_t>(last)};
  }

  // Calls `each(word, mask)` for the words of one row that hold the pixels [first, last), until it says stop.
  template <class Each>
  static bool for_each_word(std::size_t first, std::size_t last, Each each) {
    for (std::size_t w = first / 64; w <= (last - 1) / 64; ++w) {
      const std::size_t from = std::max(first, w * 64) - w * 64, to = std::min(last, w * 64 + 64) - w * 64;
      const std::uint64_t mask = (to == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << to) - 1) & ~((std::uint64_t{1} << from) - 1);
      if (each(w, mask)) return true;
    }
    return false;
  }

  // The pixels whose inside meets the inside of [low, high] along one axis of the page: [first, last).
  static std::pair<std::size_t, std::size_t> pixels_met(double low, double high, std::size_t count) {
    const double first = std::floor(std::max(low, 0.0));
    const double last = std::ceil(std::min(high, static_cast<double>(count)));
    if (!(first < last) || !(low < high)) return {0, 0};
    return {static_cast<std::size_t>(first), static_cast<std::size_t>(last)};
  }

  // An axis-aligned rectangle (a marker, an unrotated text): the pixels whose inside it meets are covered.
  // A box that holds such a pixel whole overlaps the rectangle by an area, not by a touch, so the test below
  // rejects only what the exact test would.
  void cover(const box& b) {
    mark(covered_, pixels_met(b.x0, b.x1, pixel_columns), pixels_met(b.y0, b.y1, pixel_rows));
    mark(covered_whole_, pixels_inside(b.x0, b.x1, pixel_columns), pixels_inside(b.y0, b.y1, pixel_rows));
  }

  static void mark(std::vector<std::uint64_t>& map, std::pair<std::size_t, std::size_t> columns_,
                   std::pair<std::size_t, std::size_t> rows_) {
    if (columns_.first == columns_.second) return;
    for (std::size_t r = rows_.first; r < rows_.second; ++r) {
      for_each_word(columns_.first, columns_.second, [&](std::size_t w, std::uint64_t mask) {
        map[r * words_per_row + w] |= mask;
        return false;
      });
    }
  }

  // Whether the segment passes through the inside of a pixel that a marker or unrotated text covers whole:
  // then it crosses that shape. Points a quarter pixel apart along it, each off the pixels' edges.
  [[nodiscard]] bool crosses_covered(point2 p, point2 q) const {
    const double length = std::hypot(q.x - p.x, q.y - p.y);
    const auto steps = static_cast<std::size_t>(std::min(4 * length, 1e5)) + 1;
    for (std::size_t k = 0; k <= steps; ++k) {
      const double t = static_cast<double>(k) / static_cast<double>(steps);
      const double x = p.x + (q.x - p.x) * t, y = p.y + (q.y - p.y) * t;
      if (!(x > 0 && y > 0 && x < static_cast<double>(pixel_columns) && y < static_cast<double>(pixel_rows))) continue;
      if (x == std::floor(x) || y == std::floor(y)) continue;  // on an edge
      const auto column = static_cast<std::size_t>(x), row = static_cast<std::size_t>(y);
      if ((covered_whole_[row * words_per_row + column / 64] >> (column % 64)) & 1u) return true;
    }
    return false;
  }

  // Whether a covered pixel lies wholly inside the box: then the box overlaps what covers it.
  [[nodiscard]] bool meets_covered(const box& b) const {
    const auto [column0, column1] = pixels_inside(b.x0, b.x1, pixel_columns);
    const auto [row0, row1] = pixels_inside(b.y0, b.y1, pixel_rows);
    if (column0 == column1) return false;
    for (std::size_t r = row0; r < row1; ++r) {
      if (for_each_word(column0, column1, [&](std::size_t w, std::uint64_t mask) {
            return (covered_[r * words_per_row + w] & mask) != 0;
          })) {
        return true;
      }
    }
    return false;
  }

  void add(const polygon& corners, bool solid) {
    const box b = bounds_of(corners);
    const bool aligned = axis_aligned(corners);
    if (solid && aligned) cover(b);
    const auto index = static_cast<std::uint32_t>(shapes_.size());
    shapes_.push_back({corners, b, solid, aligned});
    seen_.push_back(0);
    for (std::size_t r = row_of(b.y0); r <= row_of(b.y1); ++r) {
      for (std::size_t c = column_of(b.x0); c <= column_of(b.x1); ++c) cells_[r * columns + c].push_back(index);
    }
  }

  // How many shapes near `probe` it overlaps (only solid ones where `solid_only`), counting up to `enough`.
  std::size_t met(const polygon& probe, bool solid_only, std::size_t enough) {
    const box b = bounds_of(probe);
    const bool aligned = axis_aligned(probe);
    ++query_;
    std::size_t count = 0;
    for (std::size_t r = row_of(b.y0 - 1); r <= row_of(b.y1 + 1); ++r) {
      for (std::size_t c = column_of(b.x0 - 1); c <= column_of(b.x1 + 1); ++c) {
        for (const std::uint32_t i : cells_[r * columns + c]) {
          if (seen_[i] == query_) continue;
          seen_[i] = query_;
          const shape& other = shapes_[i];
          if (solid_only && !other.solid) continue;
          // Boxes a pixel apart cannot overlap: skip the separating-axes test.
          if (other.bounds.x0 > b.x1 + 1 || b.x0 > other.bounds.x1 + 1 || other.bounds.y0 > b.y1 + 1 ||
              b.y0 > other.bounds.y1 + 1) {
            continue;
          }
          // Two axis-aligned rectangles a hair deep into each other overlap; anything closer to touching is
          // left to the separating-axes test, which decides touching as before.
          constexpr double deep = 1e-6;
          const bool surely = aligned && other.aligned && other.bounds.x0 < b.x1 - deep && b.x0 < other.bounds.x1 - deep &&
                              other.bounds.y0 < b.y1 - deep && b.y0 < other.bounds.y1 - deep;
          if (!surely && ((probe.size() == 2 && other.aligned && beside_line(probe, other.bounds)) ||
                          (other.corners.size() == 2 && aligned && beside_line(other.corners, b)))) {
            continue;
          }
          if ((surely || overlap(probe, other.corners)) && ++count >= enough) return count;
        }
      }
    }
    return count;
  }

  // A count of things met that cannot win stops the counting: a clear spot is wanted, or it already meets as
  // many as the best so far (a later candidate must meet fewer to be chosen).
  std::optional<placed_label> take(std::string_view content, const std::vector<text_spot>& candidates,
                                   const box* named, bool clear_only) {
    const double wide = text_width(content, font_size);
    std::size_t best = 0, fewest = static_cast<std::size_t>(-1);
    std::pair<point2, point2> best_leader{};
    for (std::size_t i = 0; i < candidates.size() && fewest > 0; ++i) {
      const std::size_t enough = clear_only ? 1 : fewest;
      const polygon with_clearance = box_of(candidates[i], wide, clearance);
      std::size_t met_here = 0;
      for (const point2& c : with_clearance) met_here += (c.x < left || c.x > right || c.y < top || c.y > bottom) ? 100 : 0;
      if (met_here >= enough || (clear_only && candidates[i].angle == 0 && meets_covered(bounds_of(with_clearance)))) {
        continue;
      }
      met_here += met(with_clearance, false, enough - met_here);
      if (met_here >= enough) continue;
      std::pair<point2, point2> leader{};
      if (named != nullptr && candidates[i].angle == 0) {
        const polygon drawn = box_of(candidates[i], wide, 0);
        auto [from, to] = nearest_points(*named, {drawn[0].x, drawn[0].y, drawn[2].x, drawn[2].y});
        const double length = std::hypot(to.x - from.x, to.y - from.y);
        if (length > beside_gap) {
          // Stop short of the label, so that the line touches neither it nor the marker's box.
          to = {to.x - (to.x - from.x) * 2 / length, to.y - (to.y - from.y) * 2 / length};
          leader = {from, to};
          if (clear_only && crosses_covered(from, to)) continue;
          met_here += met({from, to}, true, enough - met_here);
        }
      }
      if (met_here < fewest) best = i, fewest = met_here, best_leader = leader;
    }
    if (candidates.empty() || (clear_only && fewest != 0)) return std::nullopt;
    add(box_of(candidates[best], wide, 0), true);
    if (best_leader.first.x != best_leader.second.x || best_leader.first.y != best_leader.second.y) {
      add({best_leader.first, best_leader.second}, false);
    }
    return placed_label{candidates[best], best_leader};
  }

  std::vector<shape> shapes_;
  std::vector<std::vector<std::uint32_t>> cells_;  // row by row: the shapes whose box covers each cell
  std::vector<std::uint32_t> seen_;                // per shape: the last query that tested it
  std::uint32_t query_ = 0;
  std::vector<std::uint64_t> covered_;  // row by row, a bit a pixel: met inside by a marker or unrotated text
  std::vector<std::uint64_t> covered_whole_;  // the same, covered whole
};

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
  out += text((left + right) / 2, 30, title, "text-anchor=\"middle\" font-size=\"16\" font-weight=\"bold\"");
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
    const std::string content = std::string{c.name} + " " + rate_text(c.peak);
    out += text(page.place(content, spots).spot, content, "fill=\"#a04000\"");
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
    const std::string content = std::string{b.name} + " " + rate_text(b.bandwidth);
    out += text(page.place(content, spots).spot, content, "fill=\"#1a5276\"");
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
    out += labelled(page.place(content, around_ridge(x, y), &marker), content,
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
    const std::string& content = columns[i].first->label;
    const box column{columns[i].x0 - 7, columns[i].y0 - 7, columns[i].x1 + 7, columns[i].y1 + 7};
    if (i < max_chart_forced_labels) {
      out.svg += labelled(page.place(content, beside(column), &column), content);
    } else if (const std::optional<placed_label> at = page.place_if_clear(content, beside(column), &column)) {
      out.svg += labelled(*at, content);
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
    rows_ += text(x + 22, y_ + 11, r.name);
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

export namespace hml {

// The chart as an SVG document and its count of unlabelled kernels; std::invalid_argument for an empty chart,
// both kinds of input at once, more than max_chart_kernels kernels, or a value a log axis cannot show (0,
// negative, not finite).
[[nodiscard]] inline drawn_chart draw_svg(const roofline_chart& chart) {
  namespace s = detail::svg;
  s::validate(chart);
  const bool hierarchical = chart.roofs.empty();
  const s::axes a = s::axes_for(hierarchical ? s::extent_of(chart.bandwidths, chart.computes) : s::extent_of(chart.roofs),
                                chart.points);

  std::string out = s::header(chart.title);
  s::legend key;
  s::layout page;  // what is drawn where: labels go where they cross nothing
  std::string labels;
  std::vector<s::drawn_point> drawn;
  const bool by_machine = chart.roofs.size() > 1;
  if (hierarchical) {
    // The regions under the highest roof with the fastest memory.
    out += s::regions(a, s::fastest_bandwidth(chart.bandwidths), s::highest_peak(chart.computes));
    out += s::grid(a);
    out += s::ceiling_lines(a, chart.bandwidths, chart.computes, page);
    out += s::point_markers(a, chart.points, chart.roofs, page, drawn);
    labels += s::ceiling_labels(a, chart.bandwidths, chart.computes, page);
    key.region("#dbe8f7", "memory-bound region");
    key.region("#fbe5d0", "compute-bound region");
    key.ridge_point();
  } else {
    // Regions belong to one machine: with several, each kernel's region depends on the machine.
    if (!by_machine) out += s::regions(a, chart.roofs.front().roof.bandwidth.value(), chart.roofs.front().roof.peak.value());
    out += s::grid(a);
    out += s::roof_lines(a, chart.roofs, page);
    out += s::point_markers(a, chart.points, chart.roofs, page, drawn);
    labels += s::ridge_labels(a, chart.roofs, page);
    if (!by_machine) {
      key.region("#dbe8f7", "memory-bound region");
      key.region("#fbe5d0", "compute-bound region");
    }
    for (std::size_t i = 0; i < chart.roofs.size(); ++i) {
      // The machine's point marker, as its first point has it (hollow where it has none).
      const auto first = std::find_if(chart.points.begin(), chart.points.end(),
                                      [&](const chart_point& p) { return p.roof == chart.roofs[i].name; });
      const std::string point_marker =
          by_machine ? s::device_marker(i, first != chart.points.end() && s::filled(first->kind), s::legend::x + 7,
                                        key.next_y() + 6,
                                        "class=\"key\" data-roof=\"" + s::escaped(chart.roofs[i].name) + "\"")
                     : std::string{};
      key.roof(i, chart.roofs[i], point_marker);
    }
  }
  out += labels;
  s::kernel_labels kernels = s::point_labels(drawn, page);
  out += kernels.svg;
  key.kinds(chart.points, by_machine);
  if (kernels.unlabelled > 0) {
    key.remark(std::to_string(kernels.unlabelled) + (kernels.unlabelled == 1 ? " kernel" : " kernels") + " unlabelled");
  }
  out += key.boxed();
  out += "</svg>\n";
  return {std::move(out), kernels.kernels, kernels.unlabelled};
}

// The chart as an SVG document (draw_svg's, without the counts).
[[nodiscard]] inline std::string to_svg(const roofline_chart& chart) { return draw_svg(chart).svg; }

}  // namespace hml
