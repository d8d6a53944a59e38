// Reads a roofline chart's SVG back: the plot frame with its axis ranges (data-intensity-range,
// data-rate-range) and each roof's group (data-* figures, polyline, ridge marker) and ridge label, so that tests
// can check where things were drawn against the roofline's own arithmetic. Plain text search: the writer's
// elements are one a line, attributes in double quotes.
#pragma once
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include <sys/wait.h>
#include <unistd.h>

namespace svg_read {

// What a real XML parser says of the document: empty when it is well-formed XML 1.0, else xmllint's
// messages. xmllint (libxml2; Debian's libxml2-utils, which `./lab setup` installs) reads a copy in a file.
inline std::string xml_problems(std::string_view document) {
  static int written = 0;
  const std::filesystem::path file = std::filesystem::temp_directory_path() /
                                     ("hml-xml-" + std::to_string(::getpid()) + "-" + std::to_string(written++) + ".svg");
  std::ofstream{file, std::ios::binary} << document;
  const std::string command = "xmllint --noout '" + file.string() + "' 2>&1";
  std::string said;
  int status = -1;
  if (std::FILE* run = ::popen(command.c_str(), "r")) {
    char buffer[4096];
    for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, run)) > 0;) said.append(buffer, n);
    status = ::pclose(run);
  }
  std::filesystem::remove(file);
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return {};
  if (WIFEXITED(status) && WEXITSTATUS(status) == 127) return "xmllint not found: install libxml2-utils (./lab setup does)";
  return said.empty() ? std::string{"xmllint failed"} : said;
}

// The value of name="..." in one element's text; empty when absent.
inline std::string attribute(std::string_view element, std::string_view name) {
  const std::string key = " " + std::string{name} + "=\"";
  const std::size_t at = element.find(key);
  if (at == std::string_view::npos) return {};
  const std::size_t begin = at + key.size();
  return std::string{element.substr(begin, element.find('"', begin) - begin)};
}

inline double number(std::string_view element, std::string_view name) {
  return std::strtod(attribute(element, name).c_str(), nullptr);
}

// The start tag (up to '>') of the first element beginning with `open` at or after `from`; empty if none.
inline std::string tag(std::string_view text, std::string_view open, std::size_t from = 0) {
  const std::size_t at = text.find(open, from);
  if (at == std::string_view::npos) return {};
  return std::string{text.substr(at, text.find('>', at) - at + 1)};
}

// The log-log mapping of the plot, read from its frame.
struct plot {
  double left = 0, top = 0, width = 0, height = 0;
  double x_low = 0, x_high = 0, y_low = 0, y_high = 0;

  explicit plot(std::string_view svg) {
    const std::string frame = tag(svg, "<rect class=\"frame\"");
    left = number(frame, "x");
    top = number(frame, "y");
    width = number(frame, "width");
    height = number(frame, "height");
    std::istringstream{attribute(frame, "data-intensity-range")} >> x_low >> x_high;
    std::istringstream{attribute(frame, "data-rate-range")} >> y_low >> y_high;
  }
  [[nodiscard]] double right() const { return left + width; }
  [[nodiscard]] double x(double intensity) const {
    return left + std::log10(intensity / x_low) / std::log10(x_high / x_low) * width;
  }
  [[nodiscard]] double y(double rate) const {
    return top + height - std::log10(rate / y_low) / std::log10(y_high / y_low) * height;
  }
  [[nodiscard]] double intensity_at(double px) const { return x_low * std::pow(x_high / x_low, (px - left) / width); }
  [[nodiscard]] double rate_at(double py) const {
    return y_low * std::pow(y_high / y_low, (top + height - py) / height);
  }
};

struct point {
  double x, y;
};

// One <g class="roof"> group as the chart wrote it.
struct drawn_roof {
  std::string name;
  double bandwidth = 0, peak = 0, ridge = 0;  // data-*: B/s, FLOP/s, FLOP/B
  std::vector<point> line;                     // the polyline's corners, left to right
  std::string colour;                          // the polyline's stroke
  point marker{0, 0};                          // the ridge circle's centre
  point label_at{0, 0};
  std::string label;
};

inline std::vector<drawn_roof> roofs(std::string_view svg) {
  std::vector<drawn_roof> found;
  for (std::size_t at = svg.find("<g class=\"roof\""); at != std::string_view::npos;
       at = svg.find("<g class=\"roof\"", at + 1)) {
    const std::string_view group = svg.substr(at, svg.find("</g>", at) - at);
    drawn_roof r;
    const std::string open = tag(group, "<g ");
    r.name = attribute(open, "data-name");
    r.bandwidth = number(open, "data-bandwidth");
    r.peak = number(open, "data-peak");
    r.ridge = number(open, "data-ridge");
    const std::string polyline = tag(group, "<polyline ");
    r.colour = attribute(polyline, "stroke");
    std::istringstream corners{attribute(polyline, "points")};
    for (std::string corner; corners >> corner;) {
      const std::size_t comma = corner.find(',');
      r.line.push_back({std::strtod(corner.substr(0, comma).c_str(), nullptr),
                        std::strtod(corner.substr(comma + 1).c_str(), nullptr)});
    }
    const std::string circle = tag(group, "<circle ");
    r.marker = {number(circle, "cx"), number(circle, "cy")};
    // Its ridge label, placed where it is clear, outside the group: the text of class "ridge" naming it.
    const std::size_t named = svg.find(" class=\"ridge\" data-roof=\"" + r.name + "\"");
    if (named != std::string_view::npos) {
      const std::size_t text_at = svg.rfind("<text ", named);
      const std::string text = tag(svg, "<text ", text_at);
      r.label_at = {number(text, "x"), number(text, "y")};
      const std::size_t content = svg.find('>', text_at) + 1;
      r.label = std::string{svg.substr(content, svg.find("</text>", content) - content)};
    }
    found.push_back(r);
  }
  return found;
}

}  // namespace svg_read
