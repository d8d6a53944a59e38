// `hml devices [NAME]`, `hml devices --file F`: the device catalog or one device (the catalog's or a
// file's), every figure with its kind and a numbered source a reader can follow.
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>
#include <CLI/CLI.hpp>

#include "commands.hpp"
#include "common.hpp"

namespace hml_cli {

namespace {

struct devices_options {
  std::string name;
  std::string file;
  output_options output;
};

template <class Q>
std::string quantity_text(Q q) {
  return hml::to_string(q, {.number = hml::general(4), .prefixes = hml::prefix_system::decimal});
}

// The sources one device cites, numbered in the order first cited: "[1]".
class citations {
public:
  citations(const hml::device& d, std::span<const hml::source> sources)
      : keys_{hml::cited_sources(d)}, sources_{sources} {}

  template <class Q>
  std::string tag(const hml::figure<Q>& f) const {
    std::string text = f.kind == hml::provenance::stated ? "" : " " + std::string{hml::to_string(f.kind)};
    for (std::size_t i = 0; i < keys_.size(); ++i) {
      if (keys_[i] == f.source) return text + " [" + std::to_string(i + 1) + "]";
    }
    return text;
  }

  // "[1] NVIDIA H100 Tensor Core GPU datasheet (specification table); archive-lib.hpctech.co.jp/..."
  std::string list() const {
    std::string out;
    for (std::size_t i = 0; i < keys_.size(); ++i) {
      const hml::source* s = nullptr;
      for (const hml::source& candidate : sources_) {
        if (candidate.key == keys_[i]) s = &candidate;
      }
      out += "  [" + std::to_string(i + 1) + "] " +
             (s ? std::string{s->title} + "; " + std::string{s->where} : std::string{keys_[i]}) + "\n";
    }
    return out;
  }

private:
  std::vector<std::string_view> keys_;
  std::span<const hml::source> sources_;
};

template <class Q>
std::string figure_text(const hml::figure<Q>& f, const citations& cite) {
  return quantity_text(f.value) + cite.tag(f);
}

std::string level_text(const hml::level_description& l, const citations& cite) {
  std::vector<std::string> parts;
  if (l.capacity.published()) parts.push_back(figure_text(l.capacity, cite));
  if (l.bandwidth.published()) parts.push_back(figure_text(l.bandwidth, cite));
  if (l.write_bandwidth.published()) parts.push_back("write " + figure_text(l.write_bandwidth, cite));
  if (l.measured_bandwidth.published()) parts.push_back(figure_text(l.measured_bandwidth, cite));
  if (l.latency.published()) parts.push_back("latency " + figure_text(l.latency, cite));
  if (l.scope == hml::sharing::per_core) parts.push_back("per core");
  std::string out = "  " + std::string{l.name} + ":";
  for (std::size_t i = 0; i < parts.size(); ++i) out += (i == 0 ? " " : ", ") + parts[i];
  out += "\n";
  const hml::memory_interface& i = l.interface;
  if (i.bus_bits > 0) {
    out += "    interface: " + (i.channels > 1 ? std::to_string(i.channels) + " x " : std::string{}) +
           std::to_string(i.bus_bits) + "-bit";
    if (i.pin_rate.published()) {
      out += " x " +
             hml::to_string(i.pin_rate.value, {.number = hml::general(4), .information = hml::information_unit::bits}) +
             " per pin" + cite.tag(i.pin_rate) + " = " + figure_text(hml::derived_bandwidth(i), cite);
    }
    out += "\n";
  }
  return out;
}

std::string ceiling_text(const hml::device& d, const hml::ceiling_description& c, const citations& cite) {
  const std::string name{c.variant.empty() ? hml::to_string(c.kind()) : c.variant};
  std::string out = "  " + name + ":";
  const hml::level_description& main = hml::main_memory(d);
  // The ridge on each basis: the datasheet's peak over main memory's datasheet bandwidth, or both measured.
  for (hml::basis b : {hml::basis::datasheet, hml::basis::measured}) {
    const hml::figure<hml::compute_rate> peak = hml::peak(c, b);
    if (!peak.published()) continue;
    out += (out.back() == ':' ? " " : "; ") + figure_text(peak, cite);
    if (b == hml::basis::datasheet && c.sparse.published()) out += " (sparse " + figure_text(c.sparse, cite) + ")";
    if (const auto memory = hml::bandwidth_of(main, b); memory.published()) {
      out += ", ridge " + quantity_text(hml::ridge_point(hml::roof{memory.value, peak.value}));
    }
  }
  return out + "\n";
}

// Where a level's measured bandwidth meets each measured compute ceiling: the hierarchical roofline.
std::string measured_ridges(const hml::device& d, const citations& cite) {
  std::string out;
  bool any_measured_peak = false;
  for (const hml::ceiling_description& c : d.compute) any_measured_peak = any_measured_peak || c.measured.published();
  if (!any_measured_peak) return out;
  for (const hml::level_description& l : d.memory) {
    if (!l.measured_bandwidth.published()) continue;
    out += "  " + std::string{l.name} + " " + figure_text(l.measured_bandwidth, cite) + ":";
    bool first = true;
    for (const hml::ceiling_description& c : d.compute) {
      if (!c.measured.published()) continue;
      out += std::string{first ? " " : ", "} + "ridge " +
             quantity_text(hml::ridge_point(hml::roof{l.measured_bandwidth.value, c.measured.value})) + " (" +
             std::string{c.variant.empty() ? hml::to_string(c.kind()) : c.variant} + ")";
      first = false;
    }
    out += "\n";
  }
  return out;
}

std::string device_text(const hml::device& d, std::span<const hml::source> sources) {
  const citations cite{d, sources};
  std::string out = std::string{d.id} + ": " + std::string{d.name} + "\n";
  if (d.cores > 0 || d.clock.published()) {
    out += "cores (SMs, CUs or CPU cores): " + (d.cores > 0 ? std::to_string(d.cores) : std::string{"-"});
    if (d.clock.published()) out += " at " + figure_text(d.clock, cite);
    out += "\n";
  }
  out += "memory, fastest first (the last is main memory):\n";
  for (const hml::level_description& l : d.memory) out += level_text(l, cite);
  out += "compute, dense (ridge = peak / main-memory bandwidth; measured peaks over measured bandwidth):\n";
  for (const hml::ceiling_description& c : d.compute) out += ceiling_text(d, c, cite);
  if (const std::string ridges = measured_ridges(d, cite); !ridges.empty()) {
    out += "measured hierarchical roofline (ridge = measured peak / the level's measured bandwidth):\n" + ridges;
  }
  out += "sources:\n" + cite.list();
  if (!d.note.empty()) out += "note: " + std::string{d.note} + "\n";
  return out;
}

// The links and systems of hml.catalog.systems (`hml offload --link ID`, `--system ID`; `hml tiers --system`).
std::string links_and_systems_text() {
  hml::table links{{"link", "name", "per direction", "kind", "measured (to, from device)"}, {}};
  for (const hml::link_description* l : hml::systems::links) {
    links.add_row({std::string{l->id}, std::string{l->name}, quantity_text(l->bandwidth.value.rate),
                   std::string{hml::to_string(l->bandwidth.kind)},
                   l->measured_to_device.published()
                       ? quantity_text(l->measured_to_device.value.rate) + ", " +
                             quantity_text(l->measured_from_device.value.rate)
                       : std::string{"-"}});
  }
  hml::table systems{{"system", "name", "host", "device", "link"}, {}};
  for (const hml::system_description* s : hml::systems::all) {
    systems.add_row({std::string{s->id}, std::string{s->name}, std::string{s->host->id}, std::string{s->device->id},
                     s->joined_by != nullptr ? std::string{s->joined_by->id} : std::string{"- (one pool)"}});
  }
  return "\nlinks (hml offload --link ID):\n" + hml::format_table(links) +
         "\nsystems (hml offload --system ID, hml tiers --system ID):\n" + hml::format_table(systems);
}

// The catalog at a glance: main memory, and the peak of each common precision (vector units where
// published, else tensor; "t" marks tensor); every figure's kind and source is in `hml devices NAME`.
std::string catalog_text() {
  hml::table figures{{"id", "name", "main memory", "bandwidth", "FP64", "FP32", "TF32", "FP16", "INT8"}, {}};
  for (const hml::device* d : hml::devices::all) {
    const hml::level_description& main = hml::main_memory(*d);
    std::vector<hml::cell> row{std::string{d->id}, std::string{d->name},
                               (main.capacity.published() ? quantity_text(main.capacity.value) + " " : "") +
                                   std::string{main.name},
                               quantity_text(main.bandwidth.value)};
    for (hml::precision p : {hml::precision::fp64, hml::precision::fp32, hml::precision::tf32, hml::precision::fp16,
                             hml::precision::int8}) {
      const hml::compute_kind k = hml::kind_for(*d, p);
      const hml::figure<hml::compute_rate> peak = hml::peak(*d, k);
      row.emplace_back(peak.published()
                           ? quantity_text(peak.value) + (k.unit == hml::compute_unit::tensor ? " t" : "") +
                                 (peak.kind == hml::provenance::stated ? "" : " (" + std::string{hml::to_string(peak.kind)} + ")")
                           : std::string{"-"});
    }
    figures.add_row(std::move(row));
  }
  return hml::format_table(figures) +
         "\nt: on tensor units (the device publishes no vector peak for that precision). `hml devices NAME` shows\n"
         "every figure of a device with its kind and source.\n" + links_and_systems_text();
}

void run(const devices_options& o) {
  const output_format format = o.output.chosen();
  std::optional<hml::loaded_device> file;
  const hml::device* one = nullptr;
  std::span<const hml::source> sources = hml::devices::sources;
  if (!o.file.empty()) {
    file.emplace(read_device_file("--file", o.file));
    one = &file->machine();
    sources = file->sources();
  } else if (!o.name.empty()) {
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
    emit(o.output, one ? device_text(*one, sources) : catalog_text());
  }
}

}  // namespace

void add_devices_command(CLI::App& hml) {
  auto* command = hml.add_subcommand("devices", "the device catalog: every figure, its kind and its source");
  command->footer(
      "Example: hml devices\n"
      "         hml devices h100_sxm\n"
      "         hml devices --file my_gpu.json   (a device described in JSON; see docs/reference/catalog.md)\n"
      "         hml devices --format json   (in base units; 0 with kind \"not published\")");
  auto o = std::make_shared<devices_options>();
  auto* name = command->add_option("name", o->name, "one device: its id (h100_sxm) or name, any case");
  command->add_option("--file", o->file, "a device described in a JSON file (or - for standard input)")
      ->type_name("FILE")
      ->excludes(name);
  add_output_options(*command, o->output);
  command->callback([o] { run(*o); });
}

}  // namespace hml_cli
