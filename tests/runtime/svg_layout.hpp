// Reads what a chart's SVG draws as geometry, independently of the writer: each text's box (from an estimate
// of the font's glyph widths), each line, polyline and frame as segments (clipped to the plot where the
// element is clipped), each marker as a polygon. Then finds what collides: a text over another text, a line
// or a marker. Plain text search, as svg_read.hpp: the writer puts one element on a line.
//
// The font the SVG names first is DejaVu Sans. Its advance widths (DejaVuSans.ttf, hmtx table, 2048 units
// per em) range from 0.275 em (') to 1.0 em (@); the estimate takes, for each class of characters, the widest
// glyph of the class, rounded up, so a text's box is at least as wide as the text drawn in DejaVu Sans (and
// than in Helvetica or Arial, which are narrower):
//   narrow  ' i j l I J space , . / : ; \ | f - ( ) [ ] t ! r     0.42 em  (widest: r, 0.411)
//   wide    m w M W % @ # + < = > ^ ~ &                        1.0 em   (widest: @, 1.0)
//   other capitals                                             0.8 em   (widest: O and Q, 0.787)
//   everything else in ASCII (lower case, digits, ...)         0.64 em  (widest: digits, 0.636)
//   any character outside ASCII                                1.0 em
// Bold text is 1.11 times as wide (DejaVu Sans Bold's widest glyph is 1.103 em). Vertically the box runs from
// the ascender (0.93 em above the baseline) to the descender (0.24 em below), hhea of the same file.
#pragma once
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstddef>
#include <cstdlib>
#include <limits>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "svg_read.hpp"

namespace svg_layout {

struct vec {
  double x, y;
};

// A convex polygon; two vertices make a segment.
struct shape {
  std::vector<vec> corners;
  std::string what;  // for messages: the text, or the element
};

inline double em_width(unsigned char c) {
  constexpr std::string_view narrow = "'ijlIJ ,./:;\\|f-()[]t!r";
  constexpr std::string_view wide = "mwMW%@#+<=>^~&";
  if (c >= 0x80) return 1.0;
  if (narrow.find(static_cast<char>(c)) != std::string_view::npos) return 0.42;
  if (wide.find(static_cast<char>(c)) != std::string_view::npos) return 1.0;
  if (c >= 'A' && c <= 'Z') return 0.8;
  return 0.64;
}

inline double text_width(std::string_view text, double font_size, bool bold) {
  double ems = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c >= 0x80 && (c & 0xC0) == 0x80) continue;  // a UTF-8 continuation byte: counted with its lead byte
    ems += em_width(c);
  }
  return ems * font_size * (bold ? 1.11 : 1.0);
}

inline std::string unescaped(std::string_view text) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '&') {
      out += text[i];
      continue;
    }
    // A decimal character reference below U+0080 (the writer's tab and line breaks): that character.
    if (text.substr(i).starts_with("&#") && text.find(';', i) != std::string_view::npos) {
      const std::size_t end = text.find(';', i);
      const long code = std::strtol(std::string{text.substr(i + 2, end - i - 2)}.c_str(), nullptr, 10);
      if (code > 0 && code < 0x80) {
        out += static_cast<char>(code);
        i = end;
        continue;
      }
    }
    for (const auto& [entity, c] : {std::pair{"&amp;", '&'}, {"&lt;", '<'}, {"&gt;", '>'}, {"&quot;", '"'}}) {
      if (text.substr(i).starts_with(entity)) {
        out += c;
        i += std::string_view{entity}.size() - 1;
        break;
      }
    }
  }
  return out;
}

// --- separating axes: two convex shapes overlap if no edge normal of either separates them ------------

inline bool overlap_on(const shape& a, const shape& b, vec axis, double tolerance) {
  double a_low = std::numeric_limits<double>::infinity(), a_high = -a_low, b_low = a_low, b_high = -a_low;
  for (const vec& p : a.corners) {
    a_low = std::min(a_low, p.x * axis.x + p.y * axis.y);
    a_high = std::max(a_high, p.x * axis.x + p.y * axis.y);
  }
  for (const vec& p : b.corners) {
    b_low = std::min(b_low, p.x * axis.x + p.y * axis.y);
    b_high = std::max(b_high, p.x * axis.x + p.y * axis.y);
  }
  return a_high - b_low > tolerance && b_high - a_low > tolerance;
}

inline void add_axes(const shape& s, std::vector<vec>& axes) {
  const std::size_t n = s.corners.size();
  for (std::size_t i = 0; i < (n == 2 ? 1 : n); ++i) {
    const vec p = s.corners[i], q = s.corners[(i + 1) % n];
    const double length = std::hypot(q.x - p.x, q.y - p.y);
    if (length > 0) axes.push_back({-(q.y - p.y) / length, (q.x - p.x) / length});
  }
}

// Overlap deeper than `tolerance` (px) along every axis.
inline bool collide(const shape& a, const shape& b, double tolerance = 0.1) {
  std::vector<vec> axes;
  add_axes(a, axes);
  add_axes(b, axes);
  if (a.corners.size() == 2 && b.corners.size() == 2) {
    // Two segments: also their own directions.
    for (const shape* s : {&a, &b}) {
      const vec d{s->corners[1].x - s->corners[0].x, s->corners[1].y - s->corners[0].y};
      const double length = std::hypot(d.x, d.y);
      if (length > 0) axes.push_back({d.x / length, d.y / length});
    }
  }
  return std::all_of(axes.begin(), axes.end(), [&](vec axis) { return overlap_on(a, b, axis, tolerance); });
}

// --- reading the SVG ------------------------------------------------------------------------------------

struct drawing {
  std::vector<shape> texts;
  std::vector<shape> lines;    // segments
  std::vector<shape> markers;  // polygons
  double width = 0, height = 0;
};

// Liang-Barsky: the part of p-q inside the rectangle, if any.
inline bool clip(vec& p, vec& q, double x0, double y0, double x1, double y1) {
  double t0 = 0, t1 = 1;
  const double dx = q.x - p.x, dy = q.y - p.y;
  for (const auto& [d, distance] : {std::pair{-dx, p.x - x0}, {dx, x1 - p.x}, {-dy, p.y - y0}, {dy, y1 - p.y}}) {
    if (d == 0) {
      if (distance < 0) return false;
      continue;
    }
    const double t = distance / d;
    if (d < 0) {
      t0 = std::max(t0, t);
    } else {
      t1 = std::min(t1, t);
    }
  }
  if (t0 > t1) return false;
  const vec a{p.x + t0 * dx, p.y + t0 * dy}, b{p.x + t1 * dx, p.y + t1 * dy};
  p = a;
  q = b;
  return true;
}

inline std::vector<double> numbers_in(std::string_view text) {
  const std::string copy{text};
  std::vector<double> out;
  for (const char* at = copy.c_str(); *at != '\0';) {
    if (std::isdigit(static_cast<unsigned char>(*at)) || *at == '-' || *at == '.') {
      char* end = nullptr;
      out.push_back(std::strtod(at, &end));
      at = end;
    } else {
      ++at;
    }
  }
  return out;
}

inline drawing read(std::string_view svg) {
  drawing d;
  const std::string root = svg_read::tag(svg, "<svg ");
  d.width = svg_read::number(root, "width");
  d.height = svg_read::number(root, "height");
  const double base_font = svg_read::number(root, "font-size");
  const svg_read::plot plot{svg};
  const double x0 = plot.left, y0 = plot.top, x1 = plot.right(), y1 = plot.top + plot.height;
  bool clipped_group = false;
  const auto add_segment = [&](vec p, vec q, bool clipped, const std::string& what) {
    if (clipped && !clip(p, q, x0, y0, x1, y1)) return;
    d.lines.push_back({{p, q}, what});
  };
  std::istringstream lines{std::string{svg}};
  for (std::string element; std::getline(lines, element);) {
    if (element.starts_with("<g ")) clipped_group = svg_read::attribute(element, "clip-path") == "url(#plot)";
    if (element.starts_with("</g>")) clipped_group = false;
    const bool clipped = clipped_group || !svg_read::attribute(element, "clip-path").empty();
    const std::string stroke = svg_read::attribute(element, "stroke");
    const std::string fill = svg_read::attribute(element, "fill");
    if (element.starts_with("<text ")) {
      const std::size_t open_end = element.find('>');
      const std::string content =
          unescaped(element.substr(open_end + 1, element.find("</text>") - open_end - 1));
      const std::string size_text = svg_read::attribute(element, "font-size");
      const double size = size_text.empty() ? base_font : std::strtod(size_text.c_str(), nullptr);
      const double w = text_width(content, size, svg_read::attribute(element, "font-weight") == "bold");
      const std::string anchor = svg_read::attribute(element, "text-anchor");
      const double shift = anchor == "middle" ? w / 2 : anchor == "end" ? w : 0;
      const double x = svg_read::number(element, "x") - shift, y = svg_read::number(element, "y");
      std::vector<vec> corners{{x, y - 0.93 * size}, {x + w, y - 0.93 * size}, {x + w, y + 0.24 * size},
                               {x, y + 0.24 * size}};
      // transform="translate(tx ty) rotate(a)": rotate first, then translate.
      const std::string transform = svg_read::attribute(element, "transform");
      if (!transform.empty()) {
        const std::vector<double> t = numbers_in(transform);
        const double a = (t.size() > 2 ? t[2] : 0) * 3.14159265358979 / 180;
        for (vec& c : corners) c = {t[0] + c.x * std::cos(a) - c.y * std::sin(a), t[1] + c.x * std::sin(a) + c.y * std::cos(a)};
      }
      d.texts.push_back({corners, content});
    } else if (element.starts_with("<line ")) {
      if (stroke == "#d0d0d0") continue;  // the decade grid: background, which text may cross
      add_segment({svg_read::number(element, "x1"), svg_read::number(element, "y1")},
                  {svg_read::number(element, "x2"), svg_read::number(element, "y2")}, clipped, element);
    } else if (element.starts_with("<polyline ")) {
      const std::vector<double> n = numbers_in(svg_read::attribute(element, "points"));
      for (std::size_t i = 0; i + 3 < n.size(); i += 2) add_segment({n[i], n[i + 1]}, {n[i + 2], n[i + 3]}, clipped, element);
    } else if (element.starts_with("<rect ")) {
      const double x = svg_read::number(element, "x"), y = svg_read::number(element, "y");
      const double w = svg_read::number(element, "width"), h = svg_read::number(element, "height");
      if (svg_read::attribute(element, "width").ends_with('%')) continue;  // the background
      if (fill == "none" || (!stroke.empty() && (w > 20 || h > 20))) {  // a frame or the legend's box: four lines
        const vec c[] = {{x, y}, {x + w, y}, {x + w, y + h}, {x, y + h}};
        for (int i = 0; i < 4; ++i) add_segment(c[i], c[(i + 1) % 4], false, element);
      } else if (w <= 20 && h <= 20) {  // a marker or a legend swatch
        d.markers.push_back({{{x, y}, {x + w, y}, {x + w, y + h}, {x, y + h}}, element});
      }  // else a shaded region, under everything
    } else if (element.starts_with("<circle ")) {
      const double cx = svg_read::number(element, "cx"), cy = svg_read::number(element, "cy");
      const double r = svg_read::number(element, "r") + (stroke.empty() ? 0 : 1);
      d.markers.push_back({{{cx - r, cy - r}, {cx + r, cy - r}, {cx + r, cy + r}, {cx - r, cy + r}}, element});
    } else if (element.starts_with("<path ")) {
      const std::vector<double> n = numbers_in(svg_read::attribute(element, "d"));
      std::vector<vec> corners;
      for (std::size_t i = 0; i + 1 < n.size(); i += 2) corners.push_back({n[i], n[i + 1]});
      double low = 1e300, high = -1e300;
      for (const vec& c : corners) low = std::min(low, c.x), high = std::max(high, c.x);
      if (corners.size() >= 3 && high - low <= 20) d.markers.push_back({corners, element});  // else a region
    }
  }
  return d;
}

// Every collision as a line of text: a text over another text, a line or a marker, or out of the picture.
inline std::vector<std::string> collisions(std::string_view svg) {
  const drawing d = read(svg);
  std::vector<std::string> found;
  for (std::size_t i = 0; i < d.texts.size(); ++i) {
    const shape& t = d.texts[i];
    for (const vec& c : t.corners) {
      if (c.x < 0 || c.y < 0 || c.x > d.width || c.y > d.height) {
        found.push_back("text '" + t.what + "' leaves the picture");
        break;
      }
    }
    for (std::size_t j = i + 1; j < d.texts.size(); ++j) {
      if (collide(t, d.texts[j])) found.push_back("text '" + t.what + "' overlaps text '" + d.texts[j].what + "'");
    }
    for (const shape& l : d.lines) {
      if (collide(t, l)) found.push_back("text '" + t.what + "' is crossed by " + l.what);
    }
    for (const shape& m : d.markers) {
      if (collide(t, m)) found.push_back("text '" + t.what + "' covers marker " + m.what);
    }
  }
  return found;
}

}  // namespace svg_layout
