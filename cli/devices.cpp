// `hml devices [NAME|FILE]`: the one catalog (every machine: GPUs, CPUs, the machines inside systems; links;
// systems) or one entry of it, or a machine file, every figure with its kind and a numbered source a reader
// can follow; --format yaml|json writes the same as a machine file (docs/reference/machine-file.md).
#include <algorithm>
#include <iterator>
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
  std::string format = "table";
  output_options output;
};

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
      const hml::source* s = hml::source_for(keys_[i], sources_);
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

// A capacity as its datasheet gives it: in binary prefixes where it is a whole number of one and not of the
// decimal one (a 32 KiB L1, a 20 MiB L3), else in decimal (80 GB), as docs/explanation/conventions.md says.
std::string capacity_text(hml::data_size capacity) {
  return hml::to_string(capacity, {.number = hml::general(4), .prefixes = hml::prefix_system::automatic});
}
std::string capacity_text(const hml::figure<hml::data_size>& f, const citations& cite) {
  return capacity_text(f.value) + cite.tag(f);
}

std::string level_text(const hml::level_description& l, const citations& cite) {
  std::vector<std::string> parts;
  if (l.capacity.published()) parts.push_back(capacity_text(l.capacity, cite));
  if (l.bandwidth.published()) parts.push_back(figure_text(l.bandwidth, cite));
  if (l.write_bandwidth.published()) parts.push_back("write " + figure_text(l.write_bandwidth, cite));
  if (l.measured_bandwidth.published()) parts.push_back(figure_text(l.measured_bandwidth, cite));
  if (l.latency.published()) parts.push_back("latency " + figure_text(l.latency, cite));
  if (l.scope == hml::sharing::per_core) parts.push_back("per core");
  if (l.upstream.rate.published()) {
    parts.push_back("to the level inside " + std::string{hml::format_number(hml::in(l.upstream.rate.value, hml::byte_per_cycle), hml::general(4)).view()} +
                    " B/cy" + cite.tag(l.upstream.rate) + (l.upstream.overlaps ? " (overlapping)" : "") +
                    (l.upstream.full_duplex ? " each way (full duplex)" : ""));
  }
  if (l.victim) parts.push_back("a victim cache (filled with the evictions of the level inside)");
  if (l.addressable) parts.push_back("addressable (a tier of its own beside main memory)");
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
  const std::string name{c.name()};
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
  // --figures measured (the default of every command) takes each figure measured where it is: where one of
  // the two alone is, its ridge is neither of those above, and is the one `hml roofline` prints.
  const bool peak_measured = hml::peak(c, hml::basis::measured).published();
  const bool memory_measured = hml::bandwidth_of(main, hml::basis::measured).published();
  const auto mixed_peak = hml::peak(c, hml::basis::measured_where_published);
  const auto mixed_memory = hml::bandwidth_of(main, hml::basis::measured_where_published);
  if (peak_measured != memory_measured && mixed_peak.published() && mixed_memory.published()) {
    out += std::string{"; as --figures measured takes it ("} + (peak_measured ? "measured peak, datasheet bandwidth" : "datasheet peak, measured bandwidth") +
           "), ridge " + quantity_text(hml::ridge_point(hml::roof{mixed_memory.value, mixed_peak.value}));
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
             std::string{c.name()} + ")";
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
  if (d.kernel_overhead.published()) {
    out += "kernel overhead (each kernel's fixed cost): " + figure_text(d.kernel_overhead, cite) + "\n";
  }
  if (d.attention_rate.published()) {
    out += "attention rate (FlashAttention's forward, 16-bit, on the causal tiles it computes): " +
           figure_text(d.attention_rate, cite) + "\n";
  }
  if (d.int4_weight_rate.published()) {
    out += "INT4 weight rate (a weight-only INT4 product, tinygemm, groups of 32): " +
           figure_text(d.int4_weight_rate, cite) + "\n";
  }
  out += "memory, fastest first (the last is main memory):\n";
  for (const hml::level_description& l : d.memory) out += level_text(l, cite);
  if (d.compute.empty()) {
    out += "compute, dense: no peak given\n";  // a heading over nothing read as a cut-off listing
  } else {
    out += "compute, dense (ridge = peak / main-memory bandwidth; measured peaks over measured bandwidth):\n";
    for (const hml::ceiling_description& c : d.compute) out += ceiling_text(d, c, cite);
  }
  if (const std::string ridges = measured_ridges(d, cite); !ridges.empty()) {
    out += "measured hierarchical roofline (ridge = measured peak / the level's measured bandwidth):\n" + ridges;
  }
  if (!d.memory_bandwidths.empty()) {
    out += "main memory measured per stream mix (reads + writes):\n";
    for (const hml::stream_mix_bandwidth& b : d.memory_bandwidths) {
      out += "  " + std::string{b.kernel} + " (" + std::to_string(b.reads) + " + " + std::to_string(b.writes) +
             "): " + figure_text(b.bandwidth, cite) + "\n";
    }
  }
  if (!d.domains.empty()) {
    out += "domains (parts of the machine, each with its cores, last cache and memory):\n";
    for (const hml::domain_description& domain : d.domains) {
      out += "  " + std::string{domain.name} + " x " + std::to_string(domain.count) + ": " +
             (domain.cores > 0 ? std::to_string(domain.cores) + (domain.cores == 1 ? " core" : " cores") : std::string{"cores -"});
      if (domain.last_cache.published()) out += ", last cache " + capacity_text(domain.last_cache, cite);
      if (domain.memory_bandwidth.published()) out += ", memory " + figure_text(domain.memory_bandwidth, cite);
      out += "\n";
    }
  }
  if (const std::string list = cite.list(); !list.empty()) out += "sources:\n" + list;
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

// A figure of the list with its kind where it is not stated: "44.42 GB/s (measured)".
std::string marked(std::string text, hml::provenance kind) {
  return kind == hml::provenance::stated ? text : text + " (" + std::string{hml::to_string(kind)} + ")";
}

// The catalog at a glance: main memory, and the peak of each common precision (vector units where
// published, else tensor; "t" marks tensor), each marked with its kind where not stated; every figure's
// source is in `hml devices NAME`.
std::string catalog_text() {
  hml::table figures{{"id", "name", "main memory", "bandwidth", "FP64", "FP32", "TF32", "FP16", "INT8"}, {}};
  for (const hml::machine_description* d : hml::machines::all) {
    const hml::level_description& main = hml::main_memory(*d);
    std::vector<hml::cell> row{std::string{d->id}, std::string{d->name},
                               (main.capacity.published() ? capacity_text(main.capacity.value) + " " : "") +
                                   std::string{main.name},
                               marked(quantity_text(main.bandwidth.value), main.bandwidth.kind)};
    for (hml::precision p : {hml::precision::fp64, hml::precision::fp32, hml::precision::tf32, hml::precision::fp16,
                             hml::precision::int8}) {
      const hml::compute_kind k = hml::kind_for(*d, p);
      const hml::figure<hml::compute_rate> peak = hml::peak(*d, k);
      row.emplace_back(peak.published()
                           ? marked(quantity_text(peak.value) + (k.unit == hml::compute_unit::tensor ? " t" : ""), peak.kind)
                           : std::string{"-"});
    }
    figures.add_row(std::move(row));
  }
  return hml::format_table(figures) +
         "\nt: on tensor units (the machine publishes no vector peak for that precision). `hml devices ID` shows\n"
         "every figure of a machine, link or system with its kind and source.\n" + links_and_systems_text();
}

std::string link_text(const hml::link_description& l) {
  const auto cited = [](std::string value, const auto& f) {
    return value + (f.kind == hml::provenance::stated ? "" : " " + std::string{hml::to_string(f.kind)}) +
           (f.source.empty() ? "" : " [" + std::string{f.source} + "]");
  };
  const auto rate = [&](const hml::figure<hml::per_direction>& f) { return cited(quantity_text(f.value.rate), f); };
  std::string out = std::string{l.id} + ": " + std::string{l.name} + "\n";
  out += "per direction: " + rate(l.bandwidth) + ", " + std::string{hml::to_string(l.mode)} + "\n";
  if (l.latency.published()) out += "latency: " + cited(quantity_text(l.latency.value), l.latency) + "\n";
  if (l.measured_to_device.published()) out += "measured to the device: " + rate(l.measured_to_device) + "\n";
  if (l.measured_from_device.published()) out += "measured from the device: " + rate(l.measured_from_device) + "\n";
  if (l.nvls_bus_bandwidth.published()) {
    out += "NVLS all-reduce bus bandwidth (" + std::to_string(hml::nvls_devices) + " devices): " +
           cited(quantity_text(l.nvls_bus_bandwidth.value), l.nvls_bus_bandwidth) + "\n";
  }
  if (!l.note.empty()) out += "note: " + std::string{l.note} + "\n";
  return out;
}

std::string system_text(const hml::system_description& s) {
  std::string out = std::string{s.id} + ": " + std::string{s.name} + "\n";
  out += "host: " + std::string{s.host->id} + " (" + std::string{s.host->name} + ")\n";
  out += "device: " + std::string{s.device->id} + " (" + std::string{s.device->name} + ")\n";
  out += "joined by: " + (s.joined_by != nullptr ? std::string{s.joined_by->id} + " (" + std::string{s.joined_by->name} + ")"
                                                 : std::string{"- (one pool)"}) + "\n";
  if (!s.note.empty()) out += "note: " + std::string{s.note} + "\n";
  return out;
}

// CSV is a table of machines: the links and systems it leaves out are counted, not lost without a word.
void note_left_out_of_csv(std::string_view whose, std::size_t links, std::size_t systems) {
  if (links + systems == 0) return;
  note("csv is a table of machines: " + std::string{whose} + " " + counted(links, "link", "links") + " and " +
       counted(systems, "system", "systems") + " are shown by --format table, yaml or json");
}

// A machine file of several entries, as the catalog's are shown: its machines, links and systems.
void show_document(const devices_options& o, const hml::machine_file& file) {
  const hml::machine_document document{file.machines(), file.links(), file.systems()};
  if (o.format == "yaml" || o.format == "json") {
    const hml::file_syntax syntax = o.format == "yaml" ? hml::file_syntax::yaml : hml::file_syntax::json;
    emit(o.output, hml::write_machine_file(document, syntax, file.sources()));
    return;
  }
  if (o.format == "csv") {
    if (file.machines().empty())
      throw input_error("--format: csv is a table of machines, and the file has none; "
                        "show its links and systems as table, yaml or json");
    emit(o.output, render(hml::device_table(std::vector<const hml::device*>(file.machines().begin(), file.machines().end())),
                          output_format::csv));
    note_left_out_of_csv("the file's", file.links().size(), file.systems().size());
    return;
  }
  std::string text;
  for (const hml::machine_description* m : file.machines()) text += device_text(*m, file.sources()) + "\n";
  for (const hml::link_description* l : file.links()) text += link_text(*l) + "\n";
  for (const hml::system_description* s : file.systems()) text += system_text(*s);
  emit(o.output, text);
}

// A name no list holds: the closest of machines, links and systems alike, as `hml devices` takes all three.
input_error unknown_entry(const std::string& name) {
  std::vector<std::string_view> closest = hml::closest_ids(name, std::span<const hml::machine_description* const>{hml::machines::all});
  std::ranges::copy(hml::closest_ids(name, std::span<const hml::link_description* const>{hml::systems::links}),
                    std::back_inserter(closest));
  std::ranges::copy(hml::closest_ids(name, std::span<const hml::system_description* const>{hml::systems::all}),
                    std::back_inserter(closest));
  std::string suggestions;
  for (const std::string_view id : closest) suggestions += (suggestions.empty() ? "" : ", ") + std::string{id};
  if (hml::find_named(name, std::span<const hml::transformer* const>{hml::models::all}) != nullptr)
    return input_error("NAME: '" + hml::message_text(name) + "' is a model, not a machine, link or system; `hml llm --model " +
                       hml::message_text(name) + "` takes it, and hml devices lists the machines, links and systems");
  return input_error("NAME: unknown machine, link or system '" + name + "'; " +
                     (suggestions.empty() ? "hml devices lists them" : "did you mean " + suggestions + "?"));
}

void run(const devices_options& o) {
  const std::string& which = o.file.empty() ? o.name : o.file;
  machine_files files;
  const hml::machine_description* one = nullptr;
  const hml::link_description* link = nullptr;
  const hml::system_description* system = nullptr;
  std::span<const hml::source> sources;  // a file's own; the catalog's are found without them
  if (!which.empty()) {
    // --file names a file, whatever the catalog holds under that name; NAME looks the catalog up first.
    const bool file_named = !o.file.empty();
    if (!file_named) one = hml::find_machine(which);
    if (!file_named && one == nullptr) system = hml::find_named(which, std::span<const hml::system_description* const>{hml::systems::all});
    if (!file_named && one == nullptr && system == nullptr)
      link = hml::find_named(which, std::span<const hml::link_description* const>{hml::systems::links});
    // One id the catalog gives two kinds of entry (mi300a: a machine, and the system of it alone): the machine
    // is shown, and how to reach the other said.
    const hml::system_description* also =
        one != nullptr ? hml::find_named(which, std::span<const hml::system_description* const>{hml::systems::all}) : nullptr;
    if (also != nullptr)
      note("NAME " + hml::message_text(which) + " is the catalog's machine " + std::string{one->id} + " and its system " +
           std::string{also->id} + " too: shown is the machine; `hml devices \"" + std::string{also->name} + "\"` shows the system");
    if (one != nullptr || system != nullptr || link != nullptr)
      note_file_passed_over("NAME", which, one != nullptr      ? "the catalog's machine " + std::string{one->id}
                                           : system != nullptr ? "the catalog's system " + std::string{system->id}
                                                               : "the catalog's link " + std::string{link->id});
    if (one == nullptr && system == nullptr && link == nullptr) {
      if (o.file.empty() && !machine_files::looks_like_a_path(which)) throw unknown_entry(which);
      // The positional's errors are the command's: "name:" would read as a machine file's field.
      const machine_files::loaded read = files.whole_file(o.file.empty() ? "NAME" : "--file", which, !o.file.empty());
      if (read.file != nullptr &&
          (read.machine == nullptr || !read.file->links().empty() || !read.file->systems().empty())) {
        show_document(o, *read.file);  // a system's file, as `hml devices SYSTEM --format yaml` writes it
        return;
      }
      one = read.machine;
      sources = files.sources_of(*one);
    }
  }
  if (o.format == "yaml" || o.format == "json") {
    const hml::file_syntax syntax = o.format == "yaml" ? hml::file_syntax::yaml : hml::file_syntax::json;
    if (one != nullptr) {
      emit(o.output, hml::write_machine_file(*one, syntax, sources));
      return;
    }
    std::vector<const hml::machine_description*> machines;
    std::vector<const hml::link_description*> links;
    std::vector<const hml::system_description*> systems;
    if (link != nullptr) links.push_back(link);
    if (system != nullptr) {
      machines.push_back(system->host);
      if (system->device != system->host) machines.push_back(system->device);
      if (system->joined_by != nullptr) links.push_back(system->joined_by);
      systems.push_back(system);
    }
    const hml::machine_document document =
        link != nullptr || system != nullptr
            ? hml::machine_document{machines, links, systems}
            : hml::machine_document{hml::machines::all, hml::systems::links, hml::systems::all};
    emit(o.output, hml::write_machine_file(document, syntax, sources));
    return;
  }
  if (o.format == "csv") {
    if (link != nullptr || system != nullptr)
      throw input_error("--format: csv is a table of machines; show a link or system as table, yaml or json");
    const std::vector<const hml::device*> list =
        one ? std::vector<const hml::device*>{one}
            : std::vector<const hml::device*>(hml::machines::all.begin(), hml::machines::all.end());
    emit(o.output, render(hml::device_table(list), output_format::csv));
    if (one == nullptr) note_left_out_of_csv("the catalog's", hml::systems::links.size(), hml::systems::all.size());
    return;
  }
  if (link != nullptr) {
    emit(o.output, link_text(*link));
  } else if (system != nullptr) {
    emit(o.output, system_text(*system));
  } else {
    emit(o.output, one ? device_text(*one, sources) : catalog_text());
  }
}

}  // namespace

void add_devices_command(CLI::App& hml) {
  auto* command = hml.add_subcommand("devices", "the catalog: machines, links and systems, every figure with its kind and source");
  command->footer(
      "Example: hml devices\n"
      "         hml devices h100_sxm\n"
      "         hml devices c2c   (a link; gh200: a system)\n"
      "         hml devices h100_sxm --format yaml > h100.yaml   (a machine file: --machine h100.yaml in every command)\n"
      "         hml devices my_gpu.json --format yaml   (a file of an older format, converted)\n"
      "         hml devices --format json   (the whole catalog as one machine file: machines, links, systems)");
  auto o = std::make_shared<devices_options>();
  auto* name = command->add_option("NAME", o->name, "one machine, link or system: its id (h100_sxm) or name, any "
                                                    "case (the machine, where a system has its id: mi300a); or a machine file");
  command->add_option("--file", o->file, "a machine file (or - for standard input); the older way of giving "
                                         "one as NAME, kept until the first release")
      ->type_name("FILE")
      ->excludes(name);
  command->add_option("--format", o->format,
                      "table (for people), csv (the machines' figures), yaml or json (the machine file format)")
      ->type_name("FORMAT")
      ->check(CLI::IsMember({"table", "csv", "json", "yaml"}))
      ->capture_default_str();
  add_output_options(*command, o->output, false);
  o->output.formats = {"table", "csv", "json", "yaml"};
  command->callback([o, name] {
    // An empty name (a script's unset variable) would list the whole catalog as if none were given.
    if (name->count() > 0 && o->name.empty())
      throw input_error("NAME: an empty value (an unset variable?); give a machine, link or system, or none for all");
    o->output.format = o->format;  // what -o's name is held to
    run(*o);
  });
}

}  // namespace hml_cli
