// `hml roofline`: seed 002's roofline analysis of a CSV list of operations on a device or a given roof.
#include <memory>
#include <string>
#include <vector>
#include <CLI/CLI.hpp>

#include "commands.hpp"
#include "common.hpp"

namespace hml_cli {

namespace {

struct roofline_options {
  roof_options roof;
  std::string operations;
  bool round = false;
  output_options output;
};

void run(const roofline_options& o) {
  const named_roof roof = roofs_of(o.roof).front();
  const std::vector<hml::kernel_record> records = read_kernels("--ops", o.operations);
  std::vector<hml::roofline_point> points;
  for (const hml::kernel_record& r : records) points.push_back(hml::analyze(r.as_kernel(), roof.roof));
  const output_format format = o.output.chosen();
  std::string out;
  if (format == output_format::table) out = "roofline on " + roof.title + ": " + describe(roof.roof) + "\n";
  out += render(hml::roofline_table(points, o.round), format);
  emit(o.output, out);
}

}  // namespace

void add_roofline_command(CLI::App& hml) {
  auto* command = hml.add_subcommand("roofline", "seed 002's roofline analysis of a list of operations");
  command->footer(
      "FILE is CSV with the header name,flops,memory_bytes; plain numbers are FLOP and bytes, numbers with\n"
      "units (10 MFLOP, 12 MB) are accepted too. Output fields: name, arithmetic_intensity, attainable_flops,\n"
      "bound, efficiency, estimated_time_s.\n"
      "Example: hml roofline --peak-compute 5.3TFLOP/s --peak-bandwidth 205GB/s --ops kernels.csv\n"
      "         hml roofline --device h100_sxm --precision fp32 --ops - --format json --round < kernels.csv");
  auto o = std::make_shared<roofline_options>();
  add_roof_options(*command, o->roof);
  command->add_option("--ops", o->operations, "CSV file of operations, or - for standard input")
      ->type_name("FILE")
      ->required();
  command->add_flag("--round", o->round, "round as seed 002 does: 4, 4, 2 and 8 decimals");
  add_output_options(*command, o->output);
  command->callback([o] { run(*o); });
}

}  // namespace hml_cli
