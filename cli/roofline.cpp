// `hml roofline`: seed 002's roofline analysis of a CSV list of operations on a device or a given roof.
#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
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

// Streams: each operation is read, analysed and written before the next is read, so memory does not grow
// with the number of operations. The text table takes two passes over the input (column widths, then rows).
void run(const roofline_options& o) {
  const named_roof roof = roofs_of(o.roof).front();
  const output_format format = o.output.chosen();
  if (o.round && format == output_format::table)
    throw input_error("--round: rounds CSV and JSON as the roofline exercise does; the table has its own digits: give --format csv or json");
  input_file input{"--ops", o.operations};
  output_stream out{o.output};
  const std::vector<std::string> columns(hml::roofline_fields.begin(), hml::roofline_fields.end());
  // Analysed and rounded on the reading thread; the row views the kernel's name, which outlives the visit.
  using row = std::array<hml::cell_view, hml::roofline_fields.size()>;
  std::uint64_t rounded_away = 0;  // kernels with a figure --round made 0
  const auto prepare = [&](const hml::kernel_record& k, row& r) {
    const hml::roofline_point point = hml::analyze(k.as_kernel(), roof.roof);
    r = hml::roofline_row(point, o.round);
    if (o.round && hml::rounds_to_zero(r, point)) ++rounded_away;
  };
  const auto each_row = [&](const auto& visit) {
    for_each_kernel<row>(input, prepare, [&](const hml::kernel_record&, const row& r) {
      visit(r);
      out.flush_if_full();
    });
  };
  switch (format) {
    case output_format::csv: {
      hml::csv_writer csv{columns};
      csv.header(out.buffer());
      each_row([&](const auto& row) { csv.row(out.buffer(), row); });
      break;
    }
    case output_format::json: {
      hml::json_writer json{columns};
      each_row([&](const auto& row) { json.row(out.buffer(), row); });
      json.finish(out.buffer());
      break;
    }
    case output_format::table: {
      // For people: quantities with their units and prefixes, efficiency in % (CSV and JSON keep base units).
      using text_row = std::array<std::string, hml::roofline_text_fields.size()>;
      const auto prepare_text = [&](const hml::kernel_record& k, text_row& r) {
        r = hml::roofline_text_row(hml::analyze(k.as_kernel(), roof.roof));
      };
      const auto cells = [](const text_row& r) {
        std::array<hml::cell_view, hml::roofline_text_fields.size()> viewed;
        for (std::size_t c = 0; c < r.size(); ++c) viewed[c] = std::string_view{r[c]};
        return viewed;
      };
      hml::table_layout layout{{hml::roofline_text_fields.begin(), hml::roofline_text_fields.end()}};
      input.keep_copy();
      for_each_kernel<text_row>(input, prepare_text,
                                [&](const hml::kernel_record&, const text_row& r) { layout.measure(cells(r)); });
      input.rewind();
      out.buffer() = "roofline on " + roof.title + ": " + roof_text(roof.roof) + "\n";
      layout.header(out.buffer());
      for_each_kernel<text_row>(input, prepare_text, [&](const hml::kernel_record&, const text_row& r) {
        layout.row(out.buffer(), cells(r));
        out.flush_if_full();
      });
      break;
    }
  }
  out.finish();
  if (rounded_away > 0)
    note("--round wrote a figure that is not 0 as 0 in " + counted(rounded_away, "row", "rows") +
         " (it keeps 4, 4, 2 and 8 decimals, as the roofline exercise does); leave --round out for every figure in full");
}

}  // namespace

void add_roofline_command(CLI::App& hml) {
  auto* command = hml.add_subcommand("roofline", "the roofline analysis of a list of operations on a device or a given roof");
  command->footer(
      "FILE is CSV with the header name,flops,memory_bytes; plain numbers are FLOP and bytes, numbers with\n"
      "units (10 MFLOP, 12 MB) are accepted too. Output fields: name, arithmetic_intensity, attainable_flops,\n"
      "bound, efficiency, estimated_time_s (CSV and JSON: FLOP/B, FLOP/s, percent, seconds at full precision;\n"
      "the table: the same with SI prefixes and units, efficiency in %). As seed 002 defines them, a row of\n"
      "0 bytes has an infinite intensity, and one of 0 FLOP an infinite time (no FLOP/s attainable): both\n"
      "print as inf (JSON: \"inf\"); `hml analyze` takes a data movement's measured time instead.\n"
      "Example: hml roofline --peak-compute 5.3TFLOP/s --peak-bandwidth 205GB/s --ops kernels.csv\n"
      "         hml roofline --machine h100_sxm --precision fp32 --ops - --format json --round < kernels.csv");
  auto o = std::make_shared<roofline_options>();
  add_roof_options(*command, o->roof);
  command->add_option("--ops", o->operations, "CSV file of operations, or - for standard input")
      ->type_name("FILE")
      ->required();
  command->add_flag("--round", o->round, "round CSV and JSON as the roofline exercise does: 4, 4, 2 and 8 decimals");
  add_output_options(*command, o->output);
  command->callback([o] { run(*o); });
}

}  // namespace hml_cli
