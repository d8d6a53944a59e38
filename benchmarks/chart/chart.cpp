// Chart: how long hml::draw_svg takes to lay out and write the roofline chart of N kernels, N = 10^2, 10^3,
// 10^4, on one roof (one label per kernel) and on three (three markers per kernel, one label). The kernels
// are generated: FLOP and bytes log-uniform over six and five decades (a fixed seed), each at its attainable
// rate on the roof, as `hml chart` draws them. Each time is the best of --runs runs, measured in the process
// with steady_clock around draw_svg alone (the chart's input is built before).
//
//   chart_layout [--sizes 100,1000,10000] [--runs N] --markdown FILE
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "../markdown_row.hpp"

import hml;

namespace {

using namespace hml::literals;
using bench::markdown_row;

const std::vector<hml::labelled_roof> roofs = {{"h100", {3350_GBps, 67_TFLOPS}},
                                               {"mi300x", {5300_GBps, 163_TFLOPS}},
                                               {"a100", {2039_GBps, 19.5_TFLOPS}}};

hml::roofline_chart chart_of(std::size_t kernels, std::size_t roof_count) {
  hml::roofline_chart chart{"chart benchmark", {}, {}, {}};
  chart.roofs.assign(roofs.begin(), roofs.begin() + static_cast<std::ptrdiff_t>(roof_count));
  std::mt19937_64 random{2026};
  std::uniform_real_distribution<double> flop_decades{6, 12}, byte_decades{5, 10};
  for (std::size_t i = 0; i < kernels; ++i) {
    const std::string name = "kernel_" + std::to_string(i);
    const hml::kernel k{name, std::pow(10.0, flop_decades(random)) * hml::flop,
                        hml::data_size::from_value(std::pow(10.0, byte_decades(random)))};
    for (const hml::labelled_roof& r : chart.roofs) {
      const hml::roofline_point p = hml::analyze(k, r.roof);
      chart.points.push_back({name, p.intensity, p.attainable, hml::point_kind::predicted,
                              roof_count > 1 ? r.name : std::string{}});
    }
  }
  return chart;
}

std::string seconds_text(double s) {
  char text[32];
  if (s < 1e-3) {
    std::snprintf(text, sizeof text, "%.3g us", s * 1e6);
  } else if (s < 1) {
    std::snprintf(text, sizeof text, "%.3g ms", s * 1e3);
  } else {
    std::snprintf(text, sizeof text, "%.3g s", s);
  }
  return text;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"hml::draw_svg on generated kernel lists"};
  std::vector<std::size_t> sizes{100, 1000, 10000};
  int runs = 5;
  std::string markdown;
  app.add_option("--sizes", sizes, "kernels per chart")->delimiter(',');
  app.add_option("--runs", runs, "runs per chart; the best is reported")->check(CLI::Range(1, 1000));
  app.add_option("--markdown", markdown, "write the results here")->required();
  CLI11_PARSE(app, argc, argv);

  std::string table = markdown_row({"kernels", "roofs", "points", "draw_svg", "per kernel", "labelled", "unlabelled", "SVG"});
  table += markdown_row({"---:", "---:", "---:", "---:", "---:", "---:", "---:", "---:"});
  double largest_one_roof = 0;
  std::size_t largest = 0;
  for (const std::size_t n : sizes) {
    for (const std::size_t roof_count : {std::size_t{1}, std::size_t{3}}) {
      const hml::roofline_chart chart = chart_of(n, roof_count);
      double best = 1e300;
      hml::drawn_chart drawn;
      for (int run = 0; run < runs; ++run) {
        const auto start = std::chrono::steady_clock::now();
        drawn = hml::draw_svg(chart);
        best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
      }
      // Every kernel counted once, and every point drawn (a marker each).
      if (drawn.kernels != n || drawn.unlabelled > n) {
        std::fprintf(stderr, "chart_layout: %zu kernels gave %zu labels, %zu unlabelled\n", n, drawn.kernels,
                     drawn.unlabelled);
        return 1;
      }
      if (roof_count == 1 && n >= largest) largest = n, largest_one_roof = best;
      char size[32];
      std::snprintf(size, sizeof size, "%.3g MB", static_cast<double>(drawn.svg.size()) / 1e6);
      table += markdown_row({std::to_string(n), std::to_string(roof_count), std::to_string(chart.points.size()),
                             seconds_text(best), seconds_text(best / static_cast<double>(n)),
                             std::to_string(n - drawn.unlabelled), std::to_string(drawn.unlabelled), size});
      std::printf("%zu kernels on %zu roofs: %s\n", n, roof_count, seconds_text(best).c_str());
    }
  }

  std::ofstream out{markdown};
  out << "`hml::draw_svg` on generated kernels (FLOP and bytes log-uniform, at their attainable rate), best of "
      << runs << " runs, " << HML_BUILD_TYPE << " build. The first " << hml::max_chart_forced_labels
      << " kernels are labelled regardless; later ones only where clear.\n\n"
      << table << "\n**" << largest << " kernels on one roof: " << seconds_text(largest_one_roof)
      << " (target < 1 s in a release build).**\n";
  return out ? 0 : 1;
}
