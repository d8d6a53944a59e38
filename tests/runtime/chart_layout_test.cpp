// The charts people look at must be readable: on the sample kernel lists (cli/kernels.csv and the roofline
// example's operations) on one, two and three devices, on a given roof, and for the library's own example
// charts, no text overlaps another text, a line (roofs, ceilings, ridge markers' dashes, frames) or a marker,
// and none leaves the picture; with several devices, each device's points have a marker of their own (shape
// and colour) that the legend shows. The geometry is read back from the SVG (svg_layout.hpp), with a
// conservative estimate of the font's glyph widths, not taken from the writer.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

#include "roofline_analysis.hpp"  // the roofline example's operations
#include "svg_layout.hpp"

import hml;

namespace {

namespace fs = std::filesystem;
using namespace hml::literals;

std::string read_file(const fs::path& p) {
  std::ifstream in{p, std::ios::binary};
  std::ostringstream content;
  content << in.rdbuf();
  return content.str();
}

void expect_no_collisions(const std::string& svg, const std::string& scenario) {
  ASSERT_TRUE(svg.starts_with("<svg ")) << scenario;
  EXPECT_EQ(svg_read::xml_problems(svg), "") << scenario << ": not well-formed XML";
  const std::vector<std::string> found = svg_layout::collisions(svg);
  std::string listed;
  for (const std::string& f : found) listed += "  " + f + "\n";
  EXPECT_TRUE(found.empty()) << scenario << ": " << found.size() << " collisions\n" << listed;
}

// The checker itself: it must see a text struck through by a line, a text on a marker, two texts on one
// another, a rotated text over a line, and a text leaving the picture; and nothing where things are apart.
TEST(ChartLayout, TheCheckerSeesCollisions) {
  const std::string head =
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"400\" height=\"300\" font-family=\"DejaVu Sans\" "
      "font-size=\"12\">\n<rect class=\"frame\" x=\"50\" y=\"20\" width=\"300\" height=\"250\" "
      "data-intensity-range=\"1 10\" data-rate-range=\"1 10\" fill=\"none\" stroke=\"black\"/>\n";
  const auto svg = [&](const std::string& body) { return head + body + "</svg>\n"; };
  EXPECT_TRUE(svg_layout::collisions(svg("<text x=\"100\" y=\"100\">apart</text>\n")).empty());
  // "matmul" at 12 px is at least 6 characters * 0.611 em (DejaVu Sans, measured) = 44 px wide.
  EXPECT_EQ(svg_layout::collisions(svg("<text x=\"100\" y=\"100\">matmul</text>\n"
                                       "<line x1=\"140\" y1=\"60\" x2=\"140\" y2=\"140\" stroke=\"red\"/>\n"))
                .size(),
            1u);
  EXPECT_TRUE(svg_layout::collisions(svg("<text x=\"100\" y=\"100\">matmul</text>\n"
                                         "<line x1=\"160\" y1=\"60\" x2=\"160\" y2=\"140\" stroke=\"red\"/>\n"))
                  .empty());
  EXPECT_EQ(svg_layout::collisions(svg("<text x=\"100\" y=\"100\">matmul</text>\n"
                                       "<circle cx=\"104\" cy=\"104\" r=\"5\" fill=\"blue\"/>\n"))
                .size(),
            1u);
  EXPECT_EQ(svg_layout::collisions(svg("<text x=\"100\" y=\"100\">matmul</text>\n"
                                       "<text x=\"120\" y=\"108\" text-anchor=\"middle\">4096</text>\n"))
                .size(),
            1u);
  // Rotated 90 degrees about (200, 100), the text runs down from there and crosses a horizontal line.
  EXPECT_EQ(svg_layout::collisions(svg("<text x=\"0\" y=\"0\" transform=\"translate(200 100) rotate(90)\">DRAM "
                                       "100 GB/s</text>\n<line x1=\"150\" y1=\"140\" x2=\"250\" y2=\"140\" "
                                       "stroke=\"red\"/>\n"))
                .size(),
            1u);
  EXPECT_EQ(svg_layout::collisions(svg("<text x=\"390\" y=\"10\">outside</text>\n")).size(), 1u);
  // A line under clip-path counts only where it is inside the plot.
  EXPECT_TRUE(svg_layout::collisions(svg("<text x=\"100\" y=\"290\">below</text>\n"
                                         "<line x1=\"90\" y1=\"285\" x2=\"200\" y2=\"285\" stroke=\"red\" "
                                         "clip-path=\"url(#plot)\"/>\n"))
                  .empty());
}

TEST(ChartLayout, LibraryExampleChartsAreClear) {
  // The chart of docs/roofline-example.svg (report_test's example): two bandwidths, two compute ceilings,
  // a point of each kind.
  const hml::roofline_chart example{"A <two-ceiling> roofline & points",
                                    {{"DRAM", 100_GBps}, {"L2", 1_TBps}},
                                    {{"FP32", 10_TFLOPS}, {"FP64", 5_TFLOPS}},
                                    {{"stream", 0.1 * hml::flop_per_byte, 9_GFLOPS, hml::point_kind::measured},
                                     {"gemm", 50.0 * hml::flop_per_byte, 7_TFLOPS, hml::point_kind::predicted},
                                     {"stencil", 0.5 * hml::flop_per_byte, 40_GFLOPS, hml::point_kind::before},
                                     {"stencil tiled", 4.0 * hml::flop_per_byte, 300_GFLOPS, hml::point_kind::after}}};
  const std::string example_svg = hml::to_svg(example);
  expect_no_collisions(example_svg, "the library's example chart");
  // docs/roofline-example.svg (the README shows it) is this chart as the writer draws it now; to write it
  // again after a change to the writer: HML_WRITE_DOCS=1 build/default/bin/hml_runtime_tests
  // --gtest_filter=ChartLayout.LibraryExampleChartsAreClear
  const fs::path docs_svg = fs::path{HML_SOURCE_DIR} / "docs" / "roofline-example.svg";
  if (std::getenv("HML_WRITE_DOCS") != nullptr) std::ofstream{docs_svg, std::ios::binary} << example_svg;
  EXPECT_EQ(read_file(docs_svg), example_svg) << docs_svg << " is not the writer's current drawing of this chart";

  // The roofline example's operations on one given roof, as predicted points.
  const hml::roof roof{205_GBps, 5300_GFLOPS};
  hml::roofline_chart seed{"roofline example", {}, {}, {}};
  seed.roofs = {{"m1", roof}};
  for (const hml::kernel& k : roofline_analysis::operations) {
    const hml::roofline_point p = hml::analyze(k, roof);
    if (!(p.intensity.value() > 0) || !std::isfinite(p.intensity.value())) continue;
    seed.points.push_back({std::string{k.name}, p.intensity, p.attainable, hml::point_kind::predicted});
  }
  expect_no_collisions(hml::to_svg(seed), "the roofline example's operations on one roof");
}

// A chart of `count` kernels on one roof, spread over the plot by a fixed sequence (no two alike): the
// first max_chart_forced_labels named "forced-i", the others "late-i".
hml::roofline_chart crowded_chart(std::size_t count) {
  const hml::roof roof{205_GBps, 5300_GFLOPS};
  hml::roofline_chart chart{"crowded", {}, {}, {}};
  chart.roofs = {{"m1", roof}};
  std::uint64_t state = 12345;
  const auto uniform = [&] {  // a linear congruential sequence: the same points on every run and library
    state = state * 6364136223846793005u + 1442695040888963407u;
    return static_cast<double>(state >> 11) / 9007199254740992.0;
  };
  for (std::size_t i = 0; i < count; ++i) {
    const double intensity = std::pow(10.0, -2 + 5 * uniform());
    const double rate = std::min(5300e9, 205e9 * intensity) * std::pow(10.0, -3 * uniform());
    chart.points.push_back({(i < hml::max_chart_forced_labels ? "forced-" : "late-") + std::to_string(i),
                            intensity * hml::flop_per_byte, hml::compute_rate::from_value(rate),
                            hml::point_kind::measured});
  }
  return chart;
}

std::size_t occurrences(const std::string& text, const std::string& part) {
  std::size_t n = 0;
  for (std::size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++n;
  return n;
}

// Up to max_chart_forced_labels kernels every one is labelled; past it a kernel is labelled only where its
// label meets nothing drawn before it (so no collision involves a late label), and the legend counts the
// others.
TEST(ChartLayout, PastTheForcedLabelsOnlyClearOnesAndACount) {
  const hml::drawn_chart few = hml::draw_svg(crowded_chart(hml::max_chart_forced_labels));
  EXPECT_EQ(few.kernels, hml::max_chart_forced_labels);
  EXPECT_EQ(few.unlabelled, 0u);
  EXPECT_EQ(occurrences(few.svg, ">forced-"), hml::max_chart_forced_labels);
  EXPECT_EQ(few.svg.find("unlabelled"), std::string::npos);
  EXPECT_EQ(few.svg, hml::to_svg(crowded_chart(hml::max_chart_forced_labels)));

  const std::size_t count = 400;
  const hml::drawn_chart many = hml::draw_svg(crowded_chart(count));
  EXPECT_EQ(many.kernels, count);
  EXPECT_GT(many.unlabelled, 0u);
  EXPECT_LT(many.unlabelled, count - hml::max_chart_forced_labels);  // some late ones found a clear spot
  EXPECT_EQ(occurrences(many.svg, ">forced-"), hml::max_chart_forced_labels);
  EXPECT_EQ(occurrences(many.svg, ">late-"), count - hml::max_chart_forced_labels - many.unlabelled);
  EXPECT_EQ(occurrences(many.svg, ">" + std::to_string(many.unlabelled) + " kernels unlabelled</text>"), 1u);
  EXPECT_EQ(svg_read::xml_problems(many.svg), "");
  for (const std::string& found : svg_layout::collisions(many.svg)) {
    EXPECT_EQ(found.find("'late-"), std::string::npos) << found;
  }
}

// Names come from files: a kernel named by 5,000 characters, a machine's and a title of hundreds, and a
// label with no clear spot beside two ridges' labels (the eighteenth held-out trial's chart, where such a
// label was drawn over "h100_sxm ridge 21.6 FLOP/B" and the long name ran off the page). Each name is cut
// with an ellipsis to its place and kept whole in a tooltip; no text leaves the page, and where a forced
// label finds no clear spot it crosses lines rather than another text.
TEST(ChartLayout, LongNamesAreCutToThePageAndLabelsAvoidTexts) {
  const std::string long_kernel(5000, 'L'), long_machine(300, 'M'), long_title(300, 'T');
  hml::roofline_chart chart{long_title, {}, {}, {}};
  chart.roofs = {{"h100_sxm", {2.97_TBps, 64.3_TFLOPS}}, {long_machine, {200_GBps, 5.2_TFLOPS}}};
  const hml::kernel kernels[] = {{"a<b&c>\"q\"", 1_GFLOP, 1_GB},        {"tiny", 1e-20 * hml::flop, 1e20 * hml::byte},
                                 {"huge", 1e30 * hml::flop, 1_B},         {"]]>--<!-- x", 5_GFLOP, 100_MB},
                                 {"\u00e9\u4e2d", 1_GFLOP, 100_MB}, {long_kernel, 1_GFLOP, 100_MB},
                                 {" sp ", 1_GFLOP, 2_GB}};
  for (const hml::labelled_roof& r : chart.roofs) {
    for (const hml::kernel& k : kernels) {
      const hml::roofline_point p = hml::analyze(k, r.roof);
      chart.points.push_back({std::string{k.name}, p.intensity, p.attainable, hml::point_kind::predicted, r.name});
    }
  }
  const std::string svg = hml::to_svg(chart);
  EXPECT_EQ(svg_read::xml_problems(svg), "");
  for (const std::string& found : svg_layout::collisions(svg)) {
    EXPECT_EQ(found.find("leaves the picture"), std::string::npos) << found;
    EXPECT_EQ(found.find("overlaps text"), std::string::npos) << found;
  }
  for (const std::string& whole : {long_kernel, long_machine, long_title}) {
    EXPECT_EQ(occurrences(svg, "<title>" + whole + "</title>"), 1u) << whole.substr(0, 8);
    EXPECT_EQ(occurrences(svg, whole + "</text>"), 0u) << whole.substr(0, 8) << " drawn whole";
  }
  EXPECT_EQ(occurrences(svg, "LLLLLLLLLL\u2026</text>"), 1u);
}

TEST(ChartLayout, MoreKernelsThanAChartHoldsAreRefused) {
  hml::roofline_chart chart = crowded_chart(1);
  chart.points.resize(hml::max_chart_kernels + 1, chart.points.front());
  try {
    (void)hml::to_svg(chart);
    ADD_FAILURE() << "no error for " << chart.points.size() << " points on one roof";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string{e.what()}.find("a chart holds at most 100000 (a kernel on each roof is a point each)"), std::string::npos)
        << e.what();
  }
}

// Names and titles come from files and command lines: whatever bytes they hold, the SVG is well-formed XML
// (a real parser reads it), markup characters are escaped, tab and line breaks kept as character references,
// and control characters and invalid UTF-8 replaced with U+FFFD; valid UTF-8 goes through as it is.
TEST(ChartLayout, HostileNamesAndTitlesMakeWellFormedXml) {
  const std::string replacement = "\xEF\xBF\xBD";
  struct hostile {
    std::string raw, written;  // the name, and its text in the SVG
  };
  const hostile names[] = {
      {"esc \x1b[31mred", "esc " + replacement + "[31mred"},
      {std::string{"nul \0 bel \x07", 11}, "nul " + replacement + " bel " + replacement},  // NUL inside
      {"del \x7f c1 \xc2\x85", "del " + replacement + " c1 " + replacement},
      {"ff \xff stray \x80", "ff " + replacement + " stray " + replacement},
      {"cut \xc3", "cut " + replacement},
      {"overlong \xc0\xaf", "overlong " + replacement + replacement},
      {"surrogate \xed\xa0\x80", "surrogate " + replacement + replacement + replacement},
      {"nonchar \xef\xbf\xbe", "nonchar " + replacement},
      {"past \xf4\x90\x80\x80", "past " + replacement + replacement + replacement + replacement},
      {"tab\tnl\ncr\r", "tab&#9;nl&#10;cr&#13;"},
      {"<b>&amp;\"q\" 'a'", "&lt;b&gt;&amp;amp;&quot;q&quot; 'a'"},
      {"caf\xc3\xa9 \xe6\xbc\xa2 \xf0\x9d\x84\x9e", "caf\xc3\xa9 \xe6\xbc\xa2 \xf0\x9d\x84\x9e"},
  };
  hml::roofline_chart chart = crowded_chart(std::size(names));
  chart.title = "title \x1b]0;x\x07 <&> \xfe";
  chart.roofs.front().name = "roof \x01\xff\"";
  for (std::size_t i = 0; i < std::size(names); ++i) {
    chart.points[i].label = names[i].raw;
    chart.points[i].roof = chart.roofs.front().name;
  }
  const std::string svg = hml::to_svg(chart);
  EXPECT_EQ(svg_read::xml_problems(svg), "");
  for (const hostile& h : names) EXPECT_NE(svg.find(">" + h.written + "</text>"), std::string::npos) << h.written;
  EXPECT_NE(svg.find(">title " + replacement + "]0;x" + replacement + " &lt;&amp;&gt; " + replacement + "</text>"),
            std::string::npos);
  EXPECT_NE(svg.find(" data-name=\"roof " + replacement + replacement + "&quot;\""), std::string::npos);
  // No control byte but the line breaks between elements.
  EXPECT_EQ(std::count_if(svg.begin(), svg.end(), [](char c) { return static_cast<unsigned char>(c) < 0x20 && c != '\n'; }), 0);
  // Each label's box is measured on the text as written, so the placement still holds.
  expect_no_collisions(svg, "hostile names");
}

#ifdef HML_CLI

std::string shell_quoted(const std::string& arg) {
  std::string quoted = "'";
  for (char c : arg) quoted += c == '\'' ? std::string{"'\\''"} : std::string(1, c);
  return quoted + "'";
}

// `hml chart ARGS -o FILE`; the SVG it wrote.
std::string chart_of(const std::vector<std::string>& args, const fs::path& out) {
  std::string command = shell_quoted(HML_CLI) + " chart";
  for (const std::string& arg : args) command += " " + shell_quoted(arg);
  command += " -o " + shell_quoted(out.string()) + " 2>/dev/null";
  EXPECT_EQ(std::system(command.c_str()), 0) << command;
  return read_file(out);
}

struct chart_case {
  std::string name;
  std::vector<std::string> devices;  // --device ids; none: the given roof
};

TEST(ChartLayout, CliChartsOfTheSampleListsAreClear) {
  const fs::path dir = fs::temp_directory_path() / ("hml-chart-layout-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  // The roofline example's operations as CSV (names quoted: some hold commas).
  {
    std::ofstream csv{dir / "seed.csv"};
    csv << "name,flops,memory_bytes\n";
    for (const hml::kernel& k : roofline_analysis::operations) {
      char flops[64], bytes[64];
      std::snprintf(flops, sizeof flops, "%.17g", k.flops.value());
      std::snprintf(bytes, sizeof bytes, "%.17g", k.bytes.value());
      csv << '"' << k.name << "\"," << flops << ',' << bytes << '\n';
    }
  }
  const std::string lists[] = {std::string{HML_SOURCE_DIR} + "/cli/kernels.csv", (dir / "seed.csv").string()};
  const chart_case cases[] = {{"one device", {"h100_sxm"}},
                              {"two devices (the README's)", {"h100_sxm", "mi300x"}},
                              {"three devices", {"h100_sxm", "a100_sxm_80gb", "mi300x"}},
                              {"a given roof", {}}};
  for (const std::string& list : lists) {
    for (const chart_case& c : cases) {
      std::vector<std::string> args;
      for (const std::string& d : c.devices) args.insert(args.end(), {"--device", d});
      if (c.devices.empty()) {
        args.insert(args.end(), {"--peak-compute", "5.3TFLOP/s", "--peak-bandwidth", "205GB/s"});
      } else {
        args.insert(args.end(), {"--precision", "fp32"});
      }
      args.insert(args.end(), {"--ops", list});
      const std::string svg = chart_of(args, dir / "chart.svg");
      const std::string scenario = c.name + ", " + fs::path{list}.filename().string();
      expect_no_collisions(svg, scenario);
      // To look at them: HML_CHART_DIR=/tmp/charts keeps each chart there (rsvg-convert makes PNGs).
      if (const char* keep = std::getenv("HML_CHART_DIR")) {
        std::ofstream{fs::path{keep} / (fs::path{list}.stem().string() + "-" + std::to_string(c.devices.size()) + ".svg")}
            << svg;
      }

      // Each device's points: one marker shape and colour, their own, and in the legend.
      if (c.devices.size() < 2) continue;
      std::map<std::string, std::set<std::string>> styles;  // device -> marker styles of its points and key
      std::map<std::string, int> in_legend;                  // device -> its markers in the legend
      std::istringstream lines{svg};
      for (std::string element; std::getline(lines, element);) {
        const std::string roof = svg_read::attribute(element, "data-roof");
        const std::string role = svg_read::attribute(element, "class");
        if (roof.empty() || (role != "point" && role != "key")) continue;  // not a marker (a ridge's label)
        const std::string kind = element.substr(1, element.find(' ') - 1);
        const std::string path = svg_read::attribute(element, "d");
        styles[roof].insert(kind + " " + svg_read::attribute(element, "fill") + " " +
                            svg_read::attribute(element, "stroke") + " " +
                            std::to_string(std::count(path.begin(), path.end(), 'L')));
        if (role == "key") ++in_legend[roof];
      }
      ASSERT_EQ(styles.size(), c.devices.size()) << scenario;
      std::set<std::string> all;
      for (const auto& [device, style] : styles) {
        EXPECT_EQ(style.size(), 1u) << scenario << ": " << device << " has points in several styles";
        all.insert(style.begin(), style.end());
        EXPECT_EQ(in_legend[device], 1) << scenario << ": " << device << " in the legend";
      }
      EXPECT_EQ(all.size(), c.devices.size()) << scenario << ": two devices share a marker";
    }
  }
  fs::remove_all(dir);
}

#endif

}  // namespace
