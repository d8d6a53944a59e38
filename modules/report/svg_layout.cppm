// hml.report:svg_layout — where things are on the chart: every line, marker and text drawn so far, in a grid
// over the page and two bitmaps, so that each label goes where it crosses nothing, nearest its anchor first.
module;
#include <algorithm>
#include <array>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <set>
#include <unordered_map>
#include <cmath>
#include <cstddef>
#include <iterator>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>
export module hml.report:svg_layout;
import hml.format;
import :csv;  // detail::append_shortest
import hml.analysis;
import :svg_chart;
import :svg_axes;

namespace hml::detail::svg {
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

// A name as wide as `room` at most: cut after the last character that leaves room for an ellipsis (a name
// comes from a file or a command line, and a page has edges). `cut` says the whole name went in a tooltip.
struct fitted_text {
  std::string shown;
  bool cut = false;
};

inline fitted_text fitted(std::string_view content, double room, double size) {
  if (text_width(content, size) <= room) return {std::string{content}};
  constexpr std::string_view ellipsis = "\u2026";
  const double kept_room = room - text_width(ellipsis, size);
  fitted_text out{{}, true};
  double used = 0;
  bool full = false;
  for_each_character(content, [&](std::string_view c) {
    used += em_width(static_cast<unsigned char>(c[0])) * size;
    full = full || used > kept_room;
    if (!full) out.shown += c;
  });
  out.shown += ellipsis;
  return out;
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
  // that costs least: inside the plot rather than out, crossing lines rather than covering a text or marker. Where the label names something (`named`, a marker's box) and lands more
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
    // A shape drawn again (the markers of kernels at one point) meets what it met: kept once, or every label
    // near N such kernels is tested against N shapes (3,000 at one point took a minute).
    std::vector<double> key{solid ? 1.0 : 0.0};
    for (const point2& c : corners) key.insert(key.end(), {c.x, c.y});
    if (!drawn_.insert(std::move(key)).second) return;
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

  // What a spot that is not clear costs: a text or a marker covered hides it, so it weighs more than any
  // number of lines a label could cross; a corner outside the plot, more than anything it could cover.
  static constexpr std::size_t line_crossed = 1, solid_covered = 256, corner_outside = 1 << 20;

  // The cost of what `probe` overlaps near it (only solid shapes where `solid_only`), counting up to `enough`.
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
          if (surely || overlap(probe, other.corners)) {
            count += other.solid ? solid_covered : line_crossed;
            if (count >= enough) return count;
          }
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
      for (const point2& c : with_clearance) {
        met_here += (c.x < left || c.x > right || c.y < top || c.y > bottom) ? corner_outside : 0;
      }
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
  std::set<std::vector<double>> drawn_;             // each shape's solidity and corners, as add() keeps them once
  std::vector<std::vector<std::uint32_t>> cells_;  // row by row: the shapes whose box covers each cell
  std::vector<std::uint32_t> seen_;                // per shape: the last query that tested it
  std::uint32_t query_ = 0;
  std::vector<std::uint64_t> covered_;  // row by row, a bit a pixel: met inside by a marker or unrotated text
  std::vector<std::uint64_t> covered_whole_;  // the same, covered whole
};

}  // namespace hml::detail::svg
