// `hml analyze`: a kernel that was timed, against a roofline: achieved rates, % of each roof, bound.
#include <cstdio>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <CLI/CLI.hpp>

#include "commands.hpp"
#include "common.hpp"

namespace hml_cli {

namespace {

struct analyze_options {
  std::string name = "kernel";
  std::string flops;
  std::string bytes;
  std::string time;
  roof_options roof;
  output_options output;
};

std::string rate(hml::compute_rate r) { return hml::to_string(r, {.number = hml::general(4)}); }
std::string rate(hml::data_rate r) { return quantity_text(r); }
std::string percent(double x) { return hml::percent_text(x, hml::significant_format(x, 3)); }
std::string percent_number(double x) { return std::string{hml::format_number(x, hml::significant_format(x, 3)).view()}; }

// The machine's datasheet roof at the precision asked, where it publishes one: what a kernel past a measured
// roof is held against. None for given peaks, which are the figures themselves.
std::optional<hml::roof> datasheet_roof(const roof_options& o, const named_roof& taken) {
  if (taken.machine == nullptr) return std::nullopt;
  try {
    return hml::roof_named(o.files.own_of(*taken.machine), hml::precision_named(o.precision), hml::basis::datasheet);
  } catch (const std::invalid_argument&) {
    return std::nullopt;  // no datasheet peak or bandwidth: the measured roof is all there is
  }
}

// How far the kernel is from the roofline; a kernel of no FLOP is judged by its bandwidth alone.
std::string verdict(const hml::measured_point& m) {
  if (m.achieved_compute.value() == 0) {
    return "no FLOP: a data movement, at " + percent(m.percent_of_bandwidth) + " of the memory roof\n";
  }
  return "the roofline allows " + rate(m.attainable) + ", " +
         std::string{hml::format_number(m.gap, hml::general(3)).view()} + "x the achieved rate\n";
}

void run(const analyze_options& o) {
  const named_roof roof = roofs_of(o.roof).front();
  const hml::kernel k{o.name, quantity_of<hml::work>("--flops", o.flops),
                      quantity_of<hml::data_size>("--bytes", o.bytes)};
  check_option("--bytes", [&] { hml::validate_kernel_bytes(k.bytes); });
  const hml::duration time = quantity_of<hml::duration>("--time", o.time);
  check_option("--time", [&] { hml::validate_measured_time(time); });
  if (k.flops.value() == 0 && k.bytes.value() == 0) {
    throw input_error("--flops, --bytes: a kernel of 0 FLOP and 0 B has nothing to analyse; give the work or the bytes it has");
  }
  const hml::measured_point m = hml::analyze_measured(k, time, roof.roof);
  // Above a datasheet's roof is not a result but a slip: a time in the wrong unit, or bytes the caches served.
  // Above a measured roof (the default figures) and within the datasheet's, the kernel beat a measurement.
  const std::optional<hml::roof> datasheet = datasheet_roof(o.roof, roof);
  const auto note_past = [&](double percent, std::string_view roof_name, double achieved, std::optional<double> stated,
                             std::string_view or_else) {
    if (percent <= 100) return;
    std::string text = "the kernel reached " + percent_number(percent) + " % of the " + std::string{roof_name};
    if (stated && achieved <= *stated)
      text += " as measured, " + percent_number(100 * achieved / *stated) + " % of the datasheet's: it beat the "
              "measurement" + std::string{or_else} + "; --figures stated takes the datasheet's";
    else
      text += "; check --time and its unit";
    note(text);
  };
  note_past(m.percent_of_peak_compute, "peak compute", m.achieved_compute.value(),
            datasheet ? std::optional{datasheet->peak.value()} : std::nullopt, "");
  note_past(m.percent_of_bandwidth, "memory bandwidth", m.achieved_bandwidth.value(),
            datasheet ? std::optional{datasheet->bandwidth.value()} : std::nullopt, ", or the caches served some bytes");
  const output_format format = o.output.chosen();
  if (format != output_format::table) {
    emit(o.output, render(hml::measured_table({&m, 1}), format));
    return;
  }
  const std::string intensity = hml::to_string(m.intensity, {.number = hml::significant_format(m.intensity.value(), 3)});
  emit(o.output, o.name + ": " + hml::to_string(k.flops) + ", " +
                     hml::to_string(k.bytes, {.prefixes = hml::prefix_system::decimal}) + ", " + intensity + ", " +
                     hml::to_string(time, {.number = hml::general(6)}) + " on " +
                     roof.title + " (" + roof_text(roof.roof) + ")\n" +
                     "achieved compute:   " + rate(m.achieved_compute) + " (" + percent(m.percent_of_peak_compute) +
                     " of " + rate(roof.roof.peak) + ")\n" + "achieved bandwidth: " + rate(m.achieved_bandwidth) +
                     " (" + percent(m.percent_of_bandwidth) + " of " + rate(roof.roof.bandwidth) + ")\n" +
                     "bound: " + std::string{hml::to_string(m.bound)} + "; " + verdict(m));
}

}  // namespace

void add_analyze_command(CLI::App& hml) {
  auto* command = hml.add_subcommand("analyze", "a measured kernel against a roofline: achieved rates, % of roofs");
  command->footer(
      "Example: hml analyze --flops 10MFLOP --bytes 120MB --time 660.713us --machine m1_pro --precision fp32\n"
      "         hml analyze --flops 10MFLOP --bytes 120MB --time 660.713us --peak-compute 5.3TFLOP/s "
      "--peak-bandwidth 205GB/s");
  auto o = std::make_shared<analyze_options>();
  command->add_option("--name", o->name, "the kernel's name in the output")->check(name_text())->capture_default_str();
  command->add_option("--flops", o->flops, "work done, e.g. 10MFLOP (a plain number is FLOP)")
      ->type_name("WORK")
      ->required();
  command->add_option("--bytes", o->bytes, "bytes moved, e.g. 120MB (a plain number is bytes)")
      ->type_name("SIZE")
      ->required();
  command->add_option("--time", o->time, "measured time, e.g. 660.713us")->type_name("TIME")->required();
  add_roof_options(*command, o->roof);
  add_output_options(*command, o->output);
  command->callback([o] { run(*o); });
}

}  // namespace hml_cli
