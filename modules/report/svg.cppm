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
//
// The partitions: :svg_chart (what a chart holds), :svg_axes (page and axes), :svg_layout (where labels
// go), :svg_drawing (the SVG elements); this one draws a chart with them.
module;
#include <algorithm>
#include <cstddef>
#include <string>
#include <utility>
#include <vector>
export module hml.report:svg;
export import :svg_chart;
export import :svg_axes;
export import :svg_layout;
export import :svg_drawing;

export namespace hml {

// The chart as an SVG document and its count of unlabelled kernels; std::invalid_argument for an empty chart,
// both kinds of input at once, more than max_chart_kernels points, or a value a log axis cannot show (0,
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
