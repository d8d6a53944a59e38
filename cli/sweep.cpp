// `hml sweep`: the seed lab's model over axes of any of its parameters, as a table, CSV or JSON.
#include <bit>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>
#include <CLI/CLI.hpp>

#include "commands.hpp"
#include "model.hpp"

namespace hml_cli {

namespace {

// A column of the sweep: its name with the unit of its numbers (CSV, JSON: "latency_s"), its label in the
// aligned table ("latency", where the text carries the unit), and how to read it off a point as a number
// and as text.
struct column {
  std::string name;
  std::string label;
  std::function<double(const model_point&)> number;
  std::function<std::string(const model_point&)> text;
  bool swept = true;  // the aligned table shows only the parameters that vary, then the results
};

template <class Q>
std::function<std::string(const model_point&)> as_text(Q model_point::*member) {
  return [member](const model_point& p) { return hml::to_string(p.*member); };
}

std::vector<column> columns_of(const model_space& s) {
  std::vector<column> columns;
  columns.push_back({"size_B", "size", [](const model_point& p) { return p.size.value(); }, as_text(&model_point::size),
                     s.size.size() > 1});
  if (s.two_tier()) {
    columns.push_back(
        {"hit_rate", "hit rate", [](const model_point& p) { return p.hit_rate; },
         [](const model_point& p) { return std::string{hml::format_number(p.hit_rate, hml::general(3)).view()}; },
         s.hit_rate.size() > 1});
    columns.push_back({"fast_B_per_s", "fast", [](const model_point& p) { return p.fast.value(); },
                       as_text(&model_point::fast), s.fast.size() > 1});
    columns.push_back({"slow_B_per_s", "slow", [](const model_point& p) { return p.slow.value(); },
                       as_text(&model_point::slow), s.slow.size() > 1});
  } else {
    columns.push_back({"bandwidth_B_per_s", "bandwidth", [](const model_point& p) { return p.bandwidth.value(); },
                       as_text(&model_point::bandwidth), s.bandwidth.size() > 1});
  }
  columns.push_back({"ops_per_byte", "ops per byte", [](const model_point& p) { return p.ops_per_byte.value(); },
                     [](const model_point& p) {  // 1000 FLOP/B in digits, as the roofline's table writes it
                       return hml::to_string(p.ops_per_byte, {.number = hml::significant_format(p.ops_per_byte.value(), 3)});
                     },
                     s.ops_per_byte.size() > 1});
  columns.push_back({"latency_s", "latency", [](const model_point& p) { return p.latency.value(); },
                     as_text(&model_point::latency), s.latency.size() > 1});
  columns.push_back({"peak_FLOP_per_s", "peak", [](const model_point& p) { return p.peak.value(); },
                     as_text(&model_point::peak), s.peak.size() > 1});
  if (s.pattern.order == hml::access_order::random) {  // constants of the run, so the file reads on its own
    const hml::access_pattern pattern = s.pattern;
    columns.push_back({"element_B", "element", [pattern](const model_point&) { return pattern.element.value(); },
                       [pattern](const model_point&) { return hml::to_string(pattern.element); }, false});
    columns.push_back({"line_B", "line", [pattern](const model_point&) { return pattern.line.value(); },
                       [pattern](const model_point&) { return hml::to_string(pattern.line); }, false});
    columns.push_back({"outstanding", "outstanding", [pattern](const model_point&) { return pattern.outstanding; },
                       [pattern](const model_point&) {
                         return std::string{hml::format_number(pattern.outstanding, hml::general(6)).view()};
                       },
                       false});
  }
  for (const hml::time_column& t : hml::time_breakdown_times) {
    const auto member = t.member;
    columns.push_back({std::string{t.name}, std::string{t.label},
                       [member](const model_point& p) { return (p.result.*member).value(); },
                       [member](const model_point& p) { return hml::to_string(p.result.*member); }, true});
  }
  return columns;
}

// Writes the sweep as its points are computed: nothing is kept but one row. The text table runs the model
// twice, once to measure its columns and once to write them (a point costs a few nanoseconds; its text
// costs more, so the table is the slowest format, but its memory stays flat too).
void write_sweep(const model_space& space, output_format format, output_stream& out) {
  const bool as_text = format == output_format::table;
  std::vector<column> columns = columns_of(space);
  std::erase_if(columns, [as_text](const column& c) { return as_text && !c.swept; });
  std::vector<std::string> names;
  for (const column& c : columns) names.push_back(as_text ? c.label : c.name);
  names.emplace_back(hml::regime_column);

  std::vector<hml::cell_view> row(names.size());
  // The text table's cells, which the row views; a column's text is a function of its number, so it is
  // formatted again only when the number changes (most columns of a sweep repeat over many rows).
  std::vector<std::string> texts(columns.size());
  std::vector<std::optional<std::uint64_t>> text_of_bits(columns.size());
  const auto row_of = [&](const model_point& p) -> const std::vector<hml::cell_view>& {
    for (std::size_t c = 0; c < columns.size(); ++c) {
      if (as_text) {
        const auto bits = std::bit_cast<std::uint64_t>(columns[c].number(p));
        if (text_of_bits[c] != bits) {
          texts[c] = columns[c].text(p);
          text_of_bits[c] = bits;
        }
        row[c] = std::string_view{texts[c]};
      } else {
        row[c] = columns[c].number(p);
      }
    }
    row.back() = hml::to_string(p.result.limit);
    return row;
  };
  if (!as_text) {  // CSV and JSON as every command streams its rows
    row_stream rows{names, format, out};
    for_each_point(space, [&](const model_point& p) { rows.add(std::span<const hml::cell_view>{row_of(p)}); });
    rows.finish();
    return;
  }
  hml::table_layout layout{names};
  for_each_point(space, [&](const model_point& p) { layout.measure(row_of(p)); });
  layout.header(out.buffer());
  for_each_point(space, [&](const model_point& p) {
    layout.row(out.buffer(), row_of(p));
    out.flush_if_full();
  });
  out.finish();
}

}  // namespace

void add_sweep_command(CLI::App& hml) {
  auto* command = hml.add_subcommand("sweep", "the lab's model over axes of any parameter: table, CSV or JSON");
  command->footer(
      "Axes: FROM:TO:POINTS (linear), FROM:TO:POINTS:log, a comma list, or one value.\n"
      "Example: hml sweep --bandwidth 1Gbit/s:1Tbit/s:7:log --ops-per-byte 0.25,1,4,16\n"
      "         hml sweep --size 10MB --hit-rate 0:1:11 --fast 500Gbit/s --slow 10Gbit/s --format csv\n"
      "CSV and JSON hold every parameter in base units (B, s, B/s, FLOP/B, FLOP/s) at full precision,\n"
      "with element_B, line_B and outstanding for --pattern random; --overlap is the command's own.");
  auto options = std::make_shared<model_options>();
  auto output = std::make_shared<output_options>();
  add_model_options(*command, *options, true);
  add_output_options(*command, *output);
  command->callback([options, output] {
    const model_space space = space_of(*options, true);
    output_stream out{*output};
    write_sweep(space, output->chosen(), out);
  });
}

}  // namespace hml_cli
