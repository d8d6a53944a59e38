// Machines and links named on the command line: the catalog's, or read from machine files (the one
// format, and the older ones it replaces), on the figures --figures chooses.
#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdlib>
#include <exception>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>
#include <CLI/CLI.hpp>
#include <unistd.h>

#include "common.hpp"

namespace hml_cli {

namespace {

// A description is a few KiB; more than this is not one, and an endless stream fails in bounded memory.
constexpr std::size_t largest_machine_file = std::size_t{1} << 20;

void note_older_format(const std::string& path, std::string_view format) {
  note(visible_whole(input_name(path)) + " is " + std::string{format} + " (an older format), read as such; `hml devices " +
       visible_whole(path) + " --format yaml` writes it as a machine file");
}

// "PATH: " where a machine came from a file, for a message about it; nothing for a catalog machine, whose
// name the message gives.
std::string file_named(const std::string& name_or_path) {
  return machine_files::looks_like_a_path(name_or_path) ? name_or_path + ": " : std::string{};
}

}  // namespace

CLI::Option* add_figures_option(CLI::App& command, std::string& figures) {
  figures = "measured";
  return command
      .add_option("--figures", figures,
                  "which figures the models use where a machine publishes a measurement beside its datasheet's "
                  "figure: measured (each such measurement, named in a note) or stated (the datasheet's)")
      ->type_name("stated|measured")
      ->capture_default_str();
}

hml::basis figures_basis(const std::string& figures) {
  if (figures == "measured") return hml::basis::measured_where_published;
  if (figures == "stated") return hml::basis::datasheet;
  constexpr std::array<std::string_view, 2> bases{"stated", "measured"};
  throw input_error("--figures: " + hml::not_one_of(figures, "'" + hml::message_text(figures) + "'", bases, "give"));
}

namespace {

// "V100 SXM2 32GB: measured figures taken where published: HBM2 828.8 GB/s (v100_ert), ..." for the figures
// a view took in place of the machine's own; empty where it took none.
std::string figures_taken(const hml::machine_description& own, const hml::machine_description& view, bool stream_mixes) {
  std::string taken;
  const auto add = [&](std::string_view what, const auto& figure) {
    taken += (taken.empty() ? "" : ", ") + std::string{what} + " " +
             quantity_text(figure.value);
    if (!figure.source.empty()) taken += " (" + std::string{figure.source} + ")";
  };
  for (std::size_t i = 0; i < own.memory.size(); ++i) {
    if (own.memory[i].bandwidth.published() && own.memory[i].bandwidth != view.memory[i].bandwidth) {
      // The ECM's memory term takes the stream mix nearest its kernel's, not this figure.
      if (stream_mixes && i + 1 == own.memory.size() && !view.memory_bandwidths.empty()) {
        taken += (taken.empty() ? "" : ", ") + std::string{own.memory[i].name} + " by its measured stream mixes";
        continue;
      }
      add(own.memory[i].name, view.memory[i].bandwidth);
    }
  }
  for (std::size_t i = 0; i < own.compute.size(); ++i) {
    if (own.compute[i].dense.published() && own.compute[i].dense != view.compute[i].dense) {
      add(view.compute[i].name(), view.compute[i].dense);
    }
  }
  if (taken.empty()) return taken;
  return std::string{own.id.empty() ? own.name : own.id} + ": measured figures in place of the datasheet's: " +
         taken + "; --figures stated takes the datasheet's";
}

// Under --figures stated, the figures a machine gives as its own (a level's bandwidth, a ceiling's peak) but
// tags as measurements (a probe's file, a kerncraft machine): there is no datasheet figure beside them, so
// they are taken, and a note says so; also the stream mixes its datasheet's `view` keeps beside them.
std::string measurements_as_stated(const hml::machine_description& own, const hml::machine_description& view) {
  std::string taken;
  const auto add = [&](std::string_view what, const auto& figure) {
    if (figure.kind != hml::provenance::measured) return;
    taken += (taken.empty() ? "" : ", ") + std::string{what} + " " + quantity_text(figure.value);
  };
  for (const hml::level_description& l : own.memory) add(l.name, l.bandwidth);
  for (const hml::ceiling_description& c : own.compute) add(c.name(), c.dense);
  if (!taken.empty() && !view.memory_bandwidths.empty()) taken += " and main memory's stream mixes";  // the ECM's
  if (taken.empty()) return taken;
  return std::string{own.id.empty() ? own.name : own.id} + ": --figures stated takes measurements where no datasheet "
         "figure is given: " + taken;
}

}  // namespace

const hml::machine_description& machine_files::machine(std::string_view option, const std::string& text) {
  const hml::machine_description& own = resolve(option, text);
  // Every model asks main memory's bandwidth; one that only a measurement gives is gone under --figures stated,
  // which is then what the user must change, not the precision or kernel a model would otherwise blame.
  const hml::level_description& main = hml::main_memory(own);
  if (figures_ == hml::basis::datasheet && !main.bandwidth.published() && main.measured_bandwidth.published() &&
      own.memory_bandwidths.empty()) {
    // Said at the field's line (its level's, where it is left out), as the reader names a field.
    throw input_error(std::string{option} + ", --figures stated: " +
                      where(text, own, "memory[" + std::to_string(own.memory.size() - 1) + "].bandwidth") + ": " +
                      std::string{own.name} + " states no bandwidth for " + hml::message_text(main.name) +
                      ", only a measured one; give its stated bandwidth, or leave --figures stated out");
  }
  return view_of(own);
}

hml::link machine_files::link_of(const hml::link_description& own) {
  const hml::link chosen = hml::link_of(own, figures_.value_or(hml::basis::datasheet));
  if (chosen.bandwidth.rate != own.bandwidth.value.rate) {
    const bool to = own.measured_to_device.published(), from = own.measured_from_device.published();
    const bool one_rate = own.measured_to_device.value == own.measured_from_device.value;
    note(std::string{own.id} + (to != from   ? to ? ": the rate measured to the device (none from it)" : ": the rate measured from the device (none to it)"
                                : one_rate ? ": the measured rate"
                                           : ": the slower measured direction") +
         " in place of the datasheet's rate: " +
         quantity_text(chosen.bandwidth.rate) +
         " per direction; --figures stated takes the datasheet's");
  }
  return chosen;
}

std::vector<const hml::machine_file*> machine_files::files_of_links() const {
  std::vector<const hml::machine_file*> files;
  for (const auto& file : files_) {
    if (const auto* f = std::get_if<hml::machine_file>(&file); f != nullptr && (!links_only_of_ || *links_only_of_ == f)) files.push_back(f);
  }
  return files;
}

void machine_files::links_beside(const hml::machine_description& view) {
  const hml::machine_description& m = own_of(view);
  links_only_of_ = nullptr;
  for (const auto& file : files_) {
    if (const auto* f = std::get_if<hml::machine_file>(&file); f != nullptr && std::ranges::find(f->machines(), &m) != f->machines().end())
      links_only_of_ = f;
  }
}

const hml::link_description* machine_files::find_link(std::string_view option, std::string_view id_or_name) const {
  // The files' links, each once: two files may hold one link, alike.
  std::vector<const hml::link_description*> own;
  const std::vector<const hml::machine_file*> files = files_of_links();
  for (const hml::machine_file* f : files) {
    for (const hml::link_description* l : f->links()) {
      const auto same_id = std::ranges::find_if(own, [&](const hml::link_description* o) { return o->id == l->id; });
      if (same_id == own.end()) {
        own.push_back(l);
      } else if (!(**same_id == *l)) {
        throw input_error(std::string{option} + ": two of the files given describe a link " + std::string{l->id} +
                          ", differently; keep it in one");
      }
    }
  }
  const auto chosen = hml::choose_entry(id_or_name, std::span<const hml::link_description* const>{own},
                                        std::span<const hml::link_description* const>{hml::systems::links});
  if (chosen.ambiguous != nullptr)
    throw input_error(std::string{option} + ": " +
                      hml::ambiguity_problem(id_or_name, chosen, files.size() > 1 ? "the files' link" : "the file's link"));
  return chosen.entry;
}

hml::link machine_files::link(std::string_view option, const std::string& text) {
  if (const hml::link_description* l = find_link(option, text)) return link_of(*l);
  // The links of the files given are choices too: an unknown one names them beside the catalog's.
  std::string own;
  for (const hml::machine_file* f : files_of_links())
    for (const hml::link_description* l : f->links()) own += (own.empty() ? "" : ", ") + std::string{l->id};
  try {
    return hml::link_named(text);
  } catch (const std::invalid_argument& e) {
    throw input_error(std::string{option} + ": " + std::string{hml::without_hml_prefix(e.what())} +
                      (own.empty() ? "" : "; or a link of the files given: " + own));
  }
}

const hml::machine_description& machine_files::view_of(const hml::machine_description& own) {
  // Unchosen, the machine as it is (`hml devices` writes it so). The datasheet's view is its own figures, less
  // the measured stream mixes where main memory states a datasheet bandwidth of its own (hml::with_figures):
  // the machine itself where it has no mixes to drop.
  if (!figures_) return own;
  const hml::machine_description& view = stated() && own.memory_bandwidths.empty()
                                             ? own
                                             : views_.emplace_back(hml::with_figures(own, *figures_), &own).first;
  if (stated()) {
    if (std::string taken = measurements_as_stated(own, view); !taken.empty()) note(std::move(taken));
  }
  if (std::string taken = figures_taken(own, view, stream_mixes_); !taken.empty()) note(std::move(taken));
  return view;
}

const hml::machine_description& machine_files::own_of(const hml::machine_description& view) const {
  for (const auto& [v, own] : views_) {
    if (&v == &view) return *own;
  }
  return view;
}

const hml::machine_description& machine_files::resolve(std::string_view option, const std::string& text) {
  if (const hml::machine_description* m = hml::find_machine(text)) {
    note_file_passed_over(option, text, "the catalog's machine " + std::string{m->id}, folder_);
    return *m;
  }
  const loaded l = load(option, text);
  if (l.file != nullptr) {
    try {
      return l.file->machine();
    } catch (const hml::machine_file_error& e) {
      throw input_error(std::string{option} + ": " + e.what());
    }
  }
  return *l.machine;
}

machine_files::loaded machine_files::whole_file(std::string_view option, const std::string& text, bool a_file) {
  loaded l = load(option, text, a_file);
  if (l.file != nullptr && l.file->machines().size() == 1) l.machine = &view_of(*l.file->machines().front());
  if (l.file == nullptr) l.machine = &view_of(*l.machine);
  return l;
}

// Something of that name is there: a file, or a link that leads nowhere or round in a loop, which reading says.
bool machine_files::is_there(const std::string& path) {
  std::error_code error;
  return std::filesystem::exists(std::filesystem::symlink_status(path, error));
}

bool machine_files::looks_like_a_path(const std::string& text) {
  return text == "-" || text.find_first_of("/.") != std::string::npos || is_there(text);
}

machine_files::loaded machine_files::load(std::string_view option, const std::string& text, bool a_file) {
  // Unknown, or no file of that name: the did-you-mean, or what else of the catalog's it names ("PCIe 5.0 x16"
  // reads as a path for its dot, and is a link).
  const bool another_kinds = text != "-" && !is_there(text) &&
                             !hml::detail::lookup::other_kind("machine", text).empty();
  if (!a_file && (!looks_like_a_path(text) || another_kinds)) {
    check_option(option, [&] { (void)hml::machine_named(text); });
  }
  input_file input{option, text};
  const std::string content = input.read_whole(largest_machine_file);
  const std::string name = input_name(text);
  const auto named = [&](const std::invalid_argument& e) { return input_error(std::string{option} + ": " + e.what()); };
  try {
    if (hml::is_machine_file(content)) {
      return {.file = &std::get<hml::machine_file>(files_.emplace_back(hml::read_machine_file(content, name)))};
    }
    if (content.find("memory hierarchy") != std::string::npos) {
      const hml::machine_description& m =
          std::get<hml::loaded_cpu>(files_.emplace_back(hml::read_machine_yaml(content, name))).cpu();
      note_older_format(text, "an ECM machine file");
      return {.machine = &m};
    }
    // Neither names a format nor opens as JSON: a machine file that lacks its format line, said so, not a
    // device file that "is not JSON". JSON may open with a byte order mark, which nlohmann skips.
    const std::size_t byte_order_mark = content.starts_with("\xEF\xBB\xBF") ? 3 : 0;
    if (const std::size_t first = content.find_first_not_of(" \t\r\n", byte_order_mark);
        first == std::string::npos || (content[first] != '{' && content[first] != '[')) {
      return {.file = &std::get<hml::machine_file>(files_.emplace_back(hml::read_machine_file(content, name)))};
    }
    try {
      const hml::machine_description& m =
          std::get<hml::loaded_device>(files_.emplace_back(hml::read_device_json(content, name))).machine();
      note_older_format(text, "a device file");
      return {.machine = &m};
    } catch (const hml::device_file_error& e) {
      // A field the older format lacks is most likely a machine file whose format line is missing.
      const std::string what = e.what();
      const std::size_t unknown = what.find(": unknown field;"), field = what.find(": ", name.size() + 1) + 2;
      if (unknown == std::string::npos || what.rfind(name + ":", 0) != 0 ||
          !hml::is_machine_file_field(what.substr(field, unknown - field)))
        throw named(e);
      const std::string at = what.substr(name.size() + 1, what.find(';') - name.size() - 1);
      throw input_error(std::string{option} + ": " + name + ":1: format: missing; a machine file begins with \"format\": \"" +
                        std::string{hml::machine_file_format} + "\" (read as an older device file, line " + at + ")");
    }
  } catch (const hml::machine_file_error& e) {
    throw named(e);
  } catch (const hml::ecm_file_error& e) {
    throw named(e);
  }
}

std::string machine_files::where(const std::string& name_or_path, const hml::machine_description& view,
                                 std::string_view field) const {
  const hml::machine_description& own = own_of(view);
  for (const auto& file : files_) {
    if (const auto* f = std::get_if<hml::machine_file>(&file)) {
      if (const int line = f->line_of(own, field); line > 0)
        return hml::path_shown(input_name(name_or_path)) + ":" + std::to_string(line) + ": " + std::string{field};
    }
  }
  return hml::path_shown(input_name(name_or_path)) + ": " + std::string{field};
}

std::span<const hml::source> machine_files::sources_of(const hml::machine_description& view) const {
  const hml::machine_description& m = own_of(view);
  for (const auto& file : files_) {
    if (const auto* f = std::get_if<hml::machine_file>(&file)) {
      for (const hml::machine_description* each : f->machines()) {
        if (each == &m) return f->sources();
      }
    } else if (const auto* d = std::get_if<hml::loaded_device>(&file); d != nullptr && &d->machine() == &m) {
      return d->sources();
    }
  }
  return {};
}

namespace {

// "fp64, fp32, ... or mxfp4": every precision --precision takes, from the library's own list.
std::string precision_ids() {
  std::vector<std::string_view> ids;
  for (const hml::precision p : hml::all_precisions) ids.push_back(hml::id_of(p));
  return one_of(ids);
}

}  // namespace

void add_roof_options(CLI::App& command, roof_options& options, bool several_machines) {
  auto* machine = command.add_option(
      "--machine,--device,--device-file", options.machines,
      std::string{machine_help} + (several_machines ? " (repeat for several)" : "") +
          "; --device and --device-file are its older names, kept until the first release");
  machine->type_name("NAME|FILE");
  if (!several_machines) machine->expected(1);
  auto* precision = command
                        .add_option("--precision", options.precision,
                                    "required with a machine: " + precision_ids() +
                                        " (vector units where published, else tensor), or with _vector or _tensor")
                        ->type_name("NAME");
  auto* compute =
      command.add_option("--peak-compute", options.peak_compute, "peak compute, e.g. 5.3TFLOP/s")->type_name("RATE");
  auto* bandwidth =
      command.add_option("--peak-bandwidth", options.peak_bandwidth, "peak bandwidth, e.g. 205GB/s")->type_name("RATE");
  compute->excludes(machine)->needs(bandwidth);
  bandwidth->excludes(machine)->needs(compute);
  precision->excludes(compute);
  // Given peaks have no datasheet or measurement to choose between.
  add_figures_option(command, options.figures)->excludes(compute);
}

hml::precision data_type_of(std::string_view option, const std::string& text) {
  return check_option(option, [&] { return hml::data_type_named(text); });
}

// A bit rate, 8x too slow where it was meant as bytes, shows up later as a kernel faster than its roof.
hml::data_rate memory_bandwidth_of(std::string_view option, const std::string& text) {
  hml::parse_options bytes_a_second = options_for<hml::data_rate>;
  bytes_a_second.rates_in_bytes = true;
  const auto rate = check_option(option, [&] { return hml::parse<hml::data_rate>(text, bytes_a_second); });
  check_option(option, [&] { hml::validate_bandwidth(rate); });
  return rate;
}

std::vector<named_roof> roofs_of(const roof_options& options) {
  if (options.machines.empty()) {
    if (options.peak_compute.empty()) {
      throw input_error("--machine, --peak-compute: missing; give --machine NAME|FILE, or --peak-compute and --peak-bandwidth");
    }
    const hml::data_rate bandwidth = memory_bandwidth_of("--peak-bandwidth", options.peak_bandwidth);
    const auto compute = quantity_of<hml::compute_rate>("--peak-compute", options.peak_compute);
    check_option("--peak-compute", [&] { hml::validate_peak(compute); });
    return {{"given", "the given peaks", {bandwidth, compute}}};
  }
  // A machine has a roof per precision (FP32 on an H100: ridge 20 FLOP/B; FP16 tensor: 295): never assumed.
  options.files.use(figures_basis(options.figures));
  // What to do, where --precision is missing or a machine lacks it: a precision every machine has (a Sandy
  // Bridge told "e.g. fp32" was then told it has fp64 alone; a chart told its first machine's).
  const auto precisions_of_each = [&] {
    std::vector<const hml::machine_description*> given;
    for (const std::string& name : options.machines) {
      given.push_back(&options.files.machine("--machine", name));
      require_compute_peak("--machine", name, *given.back());  // none at all is the machine's fault, not --precision's
    }
    const std::vector<std::string> common = precisions_in_common(given);
    return common.empty() ? std::string{"no precision has a peak on each machine: give them one at a time"}
                          : "give --precision " + one_of(common) + (given.size() > 1 ? " (a peak on each machine)" : "");
  };
  if (options.precision.empty())
    throw input_error("--precision: missing, and a machine has a roof for each precision; " + precisions_of_each());
  const hml::precision_choice precision =
      check_option("--precision", [&] { return hml::precision_named(options.precision); });
  std::vector<named_roof> roofs;
  for (const std::string& name : options.machines) {
    const hml::machine_description& d = options.files.machine("--machine", name);
    // Another spelling of a machine already given (h100_sxm, H100-SXM) would draw it twice.
    for (std::size_t k = 0; k < roofs.size(); ++k) {
      if (roofs[k].label != d.id) continue;
      const std::string& before = options.machines[k];
      // Two files of one id (a machine and its edited copy) are two machines that a chart cannot tell apart,
      // told apart as they state their figures: on the figures chosen, an edited datasheet figure hid.
      if (roofs[k].machine != nullptr && !(options.files.own_of(*roofs[k].machine) == options.files.own_of(d))) {
        throw input_error("--machine: " + before + " and " + name +
                          " both have the id '" + roofs[k].label + "', which names a machine on the chart; give each its own id");
      }
      // The same machine twice: by one text, or by two (a catalog id and its exported file), both named.
      if (before == name) throw input_error("--machine: '" + roofs[k].label + "' is given twice; give each machine once");
      throw input_error("--machine: " + before + " and " + name + " are one machine (id '" + roofs[k].label + "'); give each machine once");
    }
    require_main_memory_bandwidth("--machine", name, d);
    // A peak that only a measurement gives is gone under --figures stated, which is then the cause.
    const hml::ceiling_description* chosen = hml::find_ceiling(d, hml::kind_for(d, precision));
    if (options.files.stated() && chosen != nullptr && !chosen->dense.published() && chosen->measured.published()) {
      throw input_error("--precision, --figures stated: " + file_named(name) + std::string{d.name} + " states no " +
                        std::string{hml::to_string(chosen->kind())} + " peak, only a measured one; give its datasheet "
                        "peak, or leave --figures stated out");
    }
    // A precision the machine publishes no peak for is --precision's fault; one without any peak, --machine's.
    require_compute_peak("--machine", name, d);
    const hml::roof roof = [&] {
      try {
        return hml::roof_named(d, precision);
      } catch (const std::invalid_argument& e) {
        // One machine says what it has, by unit where one was asked for (fp16_vector); several, what each has.
        const std::string error{hml::without_hml_prefix(e.what())};
        throw input_error("--precision: " + (options.machines.size() == 1 ? error + "; give --precision with one of those"
                                                                         : error.substr(0, error.find("; ")) + "; " + precisions_of_each()));
      }
    }();
    roofs.push_back({std::string{d.id},
                     std::string{d.name} + ", " + std::string{hml::to_string(hml::kind_for(d, precision))}, roof, &d});
  }
  return roofs;
}

std::vector<std::string> precisions_in_common(std::span<const hml::machine_description* const> machines) {
  std::vector<std::string> common;
  for (const hml::compute_kind& kind : hml::published_kinds(*machines.front())) {
    const std::string id{hml::id_of(kind.type)};
    const bool everywhere = std::ranges::all_of(machines, [&](const hml::machine_description* m) {
      return std::ranges::any_of(hml::published_kinds(*m), [&](const hml::compute_kind& k) { return k.type == kind.type; });
    });
    if (everywhere && std::ranges::find(common, id) == common.end()) common.push_back(id);
  }
  return common;
}

void require_main_memory_bandwidth(std::string_view option, const std::string& name_or_path,
                                   const hml::machine_description& m) {
  if (hml::bandwidth_of(hml::main_memory(m), hml::basis::datasheet).published()) return;
  throw input_error(std::string{option} + ": " + file_named(name_or_path) + std::string{m.name} + " states no main-memory bandwidth" +
                    (m.memory_bandwidths.empty() ? std::string{} : " (its stream mixes are the ECM's: hml ecm takes them)") +
                    "; give main memory's bandwidth");
}

void require_compute_peak(std::string_view option, const std::string& name_or_path, const hml::machine_description& m) {
  if (!hml::published_kinds(m).empty()) return;
  throw input_error(std::string{option} + ": " + file_named(name_or_path) + std::string{m.name} +
                    " states no compute peak; give it one (compute:), or another " + std::string{option});
}

std::string roof_text(const hml::roof& r) {
  return hml::to_string(r.peak, {.number = hml::general(4)}) + ", " +
         quantity_text(r.bandwidth) +
         ", ridge " + hml::to_string(hml::ridge_point(r), {.number = hml::general(4)});
}

}  // namespace hml_cli
