// `hml devices [NAME]`: the device catalog, every figure with its kind and source.
#include <memory>
#include <string>
#include <vector>
#include <CLI/CLI.hpp>

#include "commands.hpp"
#include "common.hpp"

namespace hml_cli {

namespace {

struct devices_options {
  std::string name;
  output_options output;
};

template <class Q>
std::string figure_text(const hml::figure<Q>& f) {
  if (!f.published()) return "-";
  std::string text = hml::to_string(f.value, {.number = hml::general(4), .prefixes = hml::prefix_system::decimal});
  if (f.kind != hml::provenance::vendor_stated) text += " (" + std::string{hml::to_string(f.kind)} + ")";
  return text;
}

// The catalog at a glance: figures as text, non-vendor figures marked with their kind; sources below.
std::string catalog_text() {
  hml::table figures{{"id", "name", "bandwidth"}, {}};
  for (hml::precision p : hml::all_precisions) figures.columns.emplace_back(hml::to_string(p));
  hml::table sources{{"id", "source"}, {}};
  for (const hml::device* d : hml::devices::all) {
    std::vector<hml::cell> row{std::string{hml::id_of(*d)}, std::string{d->name}, figure_text(d->bandwidth)};
    for (hml::precision p : hml::all_precisions) row.emplace_back(figure_text(hml::peak(*d, p)));
    figures.add_row(std::move(row));
    sources.add_row({std::string{hml::id_of(*d)}, std::string{d->source}});
  }
  return hml::format_table(figures) + "\n" + hml::format_table(sources);
}

std::string device_text(const hml::device& d) {
  std::string out = std::string{hml::id_of(d)} + ": " + std::string{d.name} + "\n";
  out += "memory: " + std::string{d.memory} + "\n";
  out += "bandwidth: " + figure_text(d.bandwidth) + "\n";
  if (d.interface.bus_bits > 0) {
    out += "memory interface: " + std::to_string(d.interface.bus_bits) + "-bit bus";
    if (d.interface.pin_rate.published()) {
      out += ", " +
             hml::to_string(d.interface.pin_rate.value,
                            {.number = hml::general(4), .information = hml::information_unit::bits}) +
             " per pin = " + hml::to_string(hml::interface_bandwidth(d.interface), {.number = hml::general(4)});
    }
    out += "\n";
  }
  for (hml::precision p : hml::all_precisions) {
    out += std::string{hml::to_string(p)} + ": " + figure_text(hml::peak(d, p)) + "\n";
  }
  out += "source: " + std::string{d.source} + "\n";
  if (!d.note.empty()) out += "note: " + std::string{d.note} + "\n";
  return out;
}

void run(const devices_options& o) {
  const output_format format = o.output.chosen();
  const hml::device* one = nullptr;
  if (!o.name.empty()) {
    try {
      one = &hml::device_named(o.name);
    } catch (const hml::unknown_device_error& e) {
      throw input_error(e.what());
    }
  }
  if (format != output_format::table) {
    const std::vector<const hml::device*> list =
        one ? std::vector<const hml::device*>{one}
            : std::vector<const hml::device*>(hml::devices::all.begin(), hml::devices::all.end());
    emit(o.output, render(hml::device_table(list), format));
  } else {
    emit(o.output, one ? device_text(*one) : catalog_text());
  }
}

}  // namespace

void add_devices_command(CLI::App& hml) {
  auto* command = hml.add_subcommand("devices", "the device catalog: every figure, its kind and its source");
  command->footer(
      "Example: hml devices\n"
      "         hml devices h100_sxm\n"
      "         hml devices --format json   (rates in B/s and FLOP/s; 0 with kind \"not published\")");
  auto o = std::make_shared<devices_options>();
  command->add_option("name", o->name, "one device: its id (h100_sxm) or name, any case");
  add_output_options(*command, o->output);
  command->callback([o] { run(*o); });
}

}  // namespace hml_cli
