// `hml chart`: the roofline chart (SVG) of a CSV list of kernels on one or more devices or a given roof.
#include <cctype>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>
#include <CLI/CLI.hpp>

#include "commands.hpp"
#include "common.hpp"

namespace hml_cli {

namespace {

struct chart_options {
  roof_options roof;
  std::string operations;
  std::string title;
  output_options output;
};

// The writer produces SVG only: a path that names another format (roofline.png, chart.pdf) would get SVG
// text under a name that promises something else, so it is refused before anything is read or written.
// Standard output (-) and a name without an extension (a device, a FIFO) take the SVG as it is.
void check_output_name(const std::string& path) {
  if (path == "-") return;
  // The name's end after its last dot (a name that is an extension alone, ".csv", too).
  const std::string name = hml::ascii_lowercase(std::filesystem::path{path}.filename().string());
  const std::size_t dot = name.find_last_of('.');
  if (dot == std::string::npos || name.ends_with(".svg")) return;
  const std::string extension = name.substr(dot + 1);
  throw input_error("--output: '" + hml::message_text(path) + "': hml chart writes SVG only, not " +
                    (extension.empty() ? std::string{"a name ending in '.'"} : hml::message_text(extension)) +
                    "; name the file .svg (rsvg-convert or inkscape can convert it)");
}

// The kernels of the list, all in memory (a chart draws them all), each a point on each machine's roof, at
// most hml::max_chart_kernels points in all (100,000 kernels on eight machines took 35 s and 446 MiB):
// reading stops at the first kernel past the bound, so a huge file fails at once and in bounded memory.
std::vector<hml::kernel_record> read_chart_kernels(const std::string& path, std::size_t machines) {
  input_file input{"--ops", path};
  const std::size_t most = hml::max_chart_kernels / machines;
  std::vector<hml::kernel_record> kernels;
  for_each_kernel<int>(
      input, [](const hml::kernel_record&, int&) {},
      [&](const hml::kernel_record& k, int) {
        if (kernels.size() == most) {
          const std::string bound = std::to_string(most);
          throw input_error(input.where(k.line) + "more than " + bound + " kernels; a chart " +
                            (machines > 1 ? "of " + std::to_string(machines) + " machines draws at most " + bound +
                                                ", each on each (" + std::to_string(hml::max_chart_kernels) + " points; split the file)"
                                          : "draws at most " + bound + " (split the file)"));
        }
        kernels.push_back(k);
      });
  return kernels;
}

void run(const chart_options& o) {
  check_output_name(o.output.path);
  const std::vector<named_roof> roofs = roofs_of(o.roof);  // a device given twice is an input error there
  if (roofs.size() > hml::max_chart_roofs) {
    throw input_error("--machine: a chart compares at most " + std::to_string(hml::max_chart_roofs) + " machines, not " +
                      std::to_string(roofs.size()) + "; chart them in groups of " + std::to_string(hml::max_chart_roofs));
  }
  const std::vector<hml::kernel_record> records = read_chart_kernels(o.operations, roofs.size());
  hml::roofline_chart chart;
  chart.title =
      o.title.empty() ? "Roofline: " + roofs.front().title + (roofs.size() > 1 ? " and others" : "") : o.title;
  // Each device its own roofline, ridge and colour (not the ceilings of one machine's hierarchy).
  for (const named_roof& r : roofs) chart.roofs.push_back({std::string{r.label}, r.roof});
  // Each kernel where the roofline puts it on each device; no point for an intensity of 0 or infinity,
  // which a logarithmic axis cannot show.
  std::vector<std::string> left_out;
  for (const hml::kernel_record& record : records) {
    for (const named_roof& r : roofs) {
      const hml::roofline_point p = hml::analyze(record.as_kernel(), r.roof);
      if (!(p.intensity.value() > 0) || !std::isfinite(p.intensity.value())) {
        if (&r == &roofs.front()) left_out.push_back(record.name);
        continue;
      }
      // One label per kernel; with several devices, the marker says which device a point is on.
      chart.points.push_back({record.name, p.intensity, p.attainable, hml::point_kind::predicted, std::string{r.label}});
    }
  }
  const hml::drawn_chart drawn = hml::draw_svg(chart);
  emit(o.output, drawn.svg);
  for (const std::string& name : left_out) {
    std::fprintf(stderr, "hml: note: '%s' is not drawn: its intensity is 0 or infinite\n", name.c_str());
  }
  if (drawn.unlabelled > 0) {
    note(std::to_string(drawn.unlabelled) + " of " + std::to_string(drawn.kernels) +
         " kernels left unlabelled (no clear spot)");
  }
  // A label tells kernels apart by name: names given to several kernels, or that print alike ('k' and 'k '),
  // are said (the first of them).
  std::unordered_map<std::string, std::size_t> kernels_named;
  std::vector<std::pair<std::string, std::string_view>> shared;  // printed alike, and as first given
  for (const hml::kernel_record& record : records)
    if (std::string printed = hml::look_alike(record.name); ++kernels_named[printed] == 2) shared.emplace_back(printed, record.name);
  if (!shared.empty()) {
    const auto& [printed, given] = shared.front();
    note(counted(shared.size(), "name is", "names are") + " given to more than one kernel, or printed alike ('" +
         hml::message_text(given) + "': " + std::to_string(kernels_named[printed]) +
         " kernels); their labels do not tell them apart, and a kernel given twice is drawn twice at one spot");
  }
}

}  // namespace

void add_chart_command(CLI::App& hml) {
  auto* command = hml.add_subcommand("chart", "the roofline chart (SVG) of a list of kernels on devices");
  command->footer(
      "FILE is CSV as for `hml roofline` (name,flops,memory_bytes). Each --machine (at most " +
      std::to_string(hml::max_chart_roofs) + ", each once)\n"
      "adds its own roofline, ridge and colour; each kernel is drawn at its attainable rate on each device.\n"
      "At most " + std::to_string(hml::max_chart_kernels) + " points (a kernel on a machine): " +
      std::to_string(hml::max_chart_kernels) + " kernels on one machine, " +
      std::to_string(hml::max_chart_kernels / hml::max_chart_roofs) + " on eight.\n"
      "Labels go where they cross nothing; the first " +
      std::to_string(hml::max_chart_forced_labels) + " kernels are\n"
      "labelled regardless, later ones only where clear, else left unlabelled (counted in the legend and a note).\n"
      "Example: hml chart --machine h100_sxm --machine a100_sxm_80gb --precision fp32 --ops kernels.csv -o roofline.svg\n"
      "         hml chart --peak-compute 5.3TFLOP/s --peak-bandwidth 205GB/s --ops kernels.csv -o m1.svg");
  auto o = std::make_shared<chart_options>();
  add_roof_options(*command, o->roof, true);
  command->add_option("--ops", o->operations, "CSV file of kernels, or - for standard input")
      ->type_name("FILE")
      ->required();
  command->add_option("--title", o->title, "the chart's title")->check(name_text());
  add_output_options(*command, o->output, false);
  o->output.format = "svg";  // what the writer's check holds -o's name to (check_output_name, first, to .svg alone)
  command->get_option("--output")
      ->required()
      ->description("write the SVG to FILE (atomically), or to standard output (-); a FILE named for another format "
                    "(.txt, .png) is refused, as it would not hold what its name says (one without an extension takes the SVG)");
  command->callback([o] { run(*o); });
}

}  // namespace hml_cli
