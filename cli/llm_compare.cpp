// `hml llm --compare FILE`: each run of a CSV of published measurements (hml::read_measured_runs_csv) is run
// as `hml llm` would run it with the row's options, and each measured figure is printed beside the
// prediction of the same figure (hml::serving's definitions), with the relative error, then the mean absolute
// percentage error over all of them and over each kind. The predictions use the command's efficiencies,
// figures and memory options, the same for every run.
#include <algorithm>
#include <array>
#include <cstddef>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <sys/stat.h>

#include "common.hpp"
#include "llm.hpp"

namespace hml_cli::llm {

namespace {

// The largest measured-runs file read (a table of published runs is a few kilobytes).
constexpr std::size_t largest_runs_file = std::size_t{16} << 20;

std::string signed_percent(double share) { return (share >= 0 ? "+" : "") + percent(share); }

// A measured or predicted figure as the table prints it: a time with its unit, or tokens a second.
std::string figure_text(hml::serving_metric m, double value) {
  if (hml::is_time(m)) return quantity_text(hml::duration::from_value(value));
  return count_text(value);
}

struct comparison {
  const hml::measured_run* run;
  hml::serving_metric metric;
  double measured, predicted, error;
};

// The runs' machines, each read once: a catalog name, or a machine file (a relative path is the runs file's
// neighbour, as the runs file is usually shipped with the machine files it names, and so is a name without a
// dot or a slash where that neighbour exists: never a file of the working folder, which made one runs file
// two sets of predictions; any other name, such as a catalog name with a slip, is the catalog's did-you-mean).
class run_machines {
 public:
  run_machines(machine_files& files, std::filesystem::path folder) : files_{files}, folder_{std::move(folder)} {}

  const hml::machine_description& operator()(const std::string& where, const std::string& name) {
    if (name == "-")  // standard input is the runs file's, or no file's: a run names a machine or a machine file
      throw input_error(where + "machine: - would be standard input; give a machine or a machine file");
    if (is_standard_input(path_of(name)))  // however it is spelt (/dev/stdin, /dev/fd/0)
      throw input_error(where + "machine: " + hml::message_text(name) + " is standard input; give a machine or a machine file");
    if (hml::find_machine(name) == nullptr && !looks_like_a_path(name))
      check_option(where + "machine", [&] { (void)hml::machine_named(name); });
    // A file is read once however its runs spell it (m.yaml, ./m.yaml): read again, a file replaced between
    // two runs gave them two machines.
    const std::string key = identity(name);
    if (const auto known = read_.find(key); known != read_.end()) return *known->second;
    return *read_.emplace(key, &files_.machine(where + "machine", path_of(name))).first->second;
  }

  // The machine a run names, as the runs file's reader tells runs apart: a catalog entry by its id, a file as
  // the file it is (a.yaml, ./a.yaml, its absolute path, a symbolic or a hard link to it are one: its device
  // and inode); a file that is not there by its path made plain (reading it will say why).
  std::string identity(std::string_view name) const {
    if (hml::find_machine(name) != nullptr || !looks_like_a_path(name)) return hml::plain_machine_identity(name);
    const std::string path = path_of(name);
    struct ::stat file{};
    if (::stat(path.c_str(), &file) != 0) return hml::plain_machine_identity(path);
    return "file " + std::to_string(file.st_dev) + ":" + std::to_string(file.st_ino);
  }

 private:
  bool looks_like_a_path(std::string_view name) const {
    return name.find_first_of("/.") != std::string_view::npos || machine_files::is_there((folder_ / name).string());
  }
  std::string path_of(std::string_view name) const {
    const bool relative_file = hml::find_machine(name) == nullptr && looks_like_a_path(name) && std::filesystem::path{name}.is_relative();
    return relative_file ? (folder_ / name).string() : std::string{name};
  }

  machine_files& files_;
  std::filesystem::path folder_;
  std::map<std::string, const hml::machine_description*, std::less<>> read_;
};

// The runs file's column an option's value came from ("--max-batch": `batch`, a scheduler's max batch), or
// "" for an option the file has no column for (--kv-block, --figures: given to hml llm --compare itself).
std::string_view column_of(std::string_view option) {
  static constexpr std::array<std::pair<std::string_view, std::string_view>, 18> columns{{
      {"--model", "model"}, {"--machine", "machine"}, {"--device", "machine"}, {"--tp", "tp"}, {"--link", "link"},
      {"--weights", "weights"}, {"--activations", "activations"}, {"--kv", "kv"}, {"--batch", "batch"},
      {"--max-batch", "batch"}, {"--prompt", "prompt"}, {"--generate", "generate"}, {"--requests", "requests"},
      {"--max-tokens", "max_tokens"}, {"--weight-group", "weight_group"}, {"--dp-attention", "parallel"},
      {"--ep", "parallel"}, {"--all-reduce", "all_reduce"}}};
  for (const auto& [name, column] : columns) {
    if (option == name) return column;
  }
  return {};
}

// A message that names options ("--tp, --link: ...; give --tp 2 or more") as naming the runs file's columns
// ("tp, link: ...; give tp 2 or more"): the run's settings came from them. Options without a column stay.
std::string as_columns(const std::string& message) {
  const std::size_t end = message.starts_with("--") ? message.find(": ") : 0;
  std::string text;
  std::size_t at = 0;
  while (at < message.size()) {
    const std::size_t dashes = message.find("--", at);
    text += message.substr(at, dashes - at);  // to the end where no option follows
    if (dashes == std::string::npos) break;
    const std::size_t name_end = std::min(message.find_first_not_of("abcdefghijklmnopqrstuvwxyz-", dashes + 2), message.size());
    const std::string_view option = std::string_view{message}.substr(dashes, name_end - dashes);
    const std::string_view column = column_of(option);
    // In the opening list a column named twice (--max-batch and --batch) is said once.
    const bool opening = end != std::string::npos && dashes < end;
    if (column.empty()) {
      text += option;
    } else if (!(opening && text.find(column) != std::string::npos)) {
      text += column;
    } else if (text.ends_with(", ")) {
      text.resize(text.size() - 2);
    }
    at = dashes + option.size();
  }
  return text;
}

// The heading's words for the options every run takes, where they are not their defaults (the efficiencies
// and the element-wise kernels have words of their own there).
std::string every_run_text(const run_options& o) {
  return (attention_kernel_of(o) == hml::attention_kernel::unfused ? "; prefill attention unfused (--attention unfused)" : "") +
         (o.kv_block > 0 ? "; the KV cache in blocks of " + std::to_string(o.kv_block) + " tokens (--kv-block)" : std::string{}) +
         (o.memory_utilization < 1 ? "; " + percent(o.memory_utilization) + " of each machine's memory (--memory-utilization)"
                                   : std::string{});
}

// One run predicted: its serving figures, as `hml llm` with the row's options would print them. A run whose
// memory does not fit its machine is predicted all the same (as `hml llm` does), with a note.
hml::serving_figures predict(const run_options& base, const hml::measured_run& r, run_machines& machines,
                             machine_files& files, const std::string& where, std::vector<std::string>& unfit) {
  run_options o = base;
  o.compare.clear();
  o.a_compared_run = true;
  o.model = r.model;
  o.tp = static_cast<unsigned>(r.tp);
  o.link = r.link;
  o.weights = r.weights;
  o.activations = r.activations;
  o.kv = r.kv;
  o.weight_group = r.weight_group.value_or(0);
  o.dp_attention = r.dp_attention;
  o.ep = r.ep;
  o.all_reduce = r.all_reduce;
  o.batch = r.batch;
  o.prompt = r.prompt;
  o.generate = r.generate;
  o.requests = r.requests;
  o.max_batch = r.batch;  // continuous batching: `batch` is the scheduler's max batch
  o.max_tokens = r.max_tokens;
  // The library's and the option readers' messages name an option ("--model: ..."): here it is the column
  // of that name, on the file's line.
  try {
    const hml::machine_description& d = machines(where, r.machine);
    files.links_beside(d);  // the run's link is the catalog's or its own machine file's, not an earlier run's file's
    require_main_memory_bandwidth("--machine", r.machine, d);
    require_compute_peak("--machine", r.machine, d);
    const hml::transformer t = model_of(o);
    const hml::inference_options i = inference_of(o, t, files);
    const hml::generation g{o.batch, o.prompt, o.generate};
    check_generation(t, g, i);
    check_precisions(t, g, d, i);
    if (const auto continuous = continuous_run(o, t, d, i, {"requests", "batch", "max_tokens", "prompt", "generate"})) return hml::serving(*continuous);
    if (hml::main_memory(d).capacity.published() && !hml::fits(t, g.batch, g.prompt + g.generate, d, i)) {
      unfit.push_back(where + r.model + " at batch " + std::to_string(g.batch) + " needs " +
                      quantity_text(hml::memory_needed(t, g.batch, g.prompt + g.generate, i).total()) +
                      " a device, more than " + r.machine + "'s " + quantity_text(hml::usable_memory(d, i)) +
                      "; predicted as if it fitted");
    }
    return hml::serving(hml::analyze_generation(t, g, d, i), g);
  } catch (const input_error& e) {
    const std::string message = e.what();
    throw input_error(message.starts_with(where) ? message : where + as_columns(message));
  } catch (const std::exception& e) {  // a file system error, say: still the run's line
    throw input_error(where + "machine: " + std::string{hml::without_hml_prefix(e.what())});
  }
}

}  // namespace

void run_compare(const run_options& o) {
  // The options every run takes (efficiencies, memory utilization, KV block) are held to their ranges as they
  // are read, so that their errors are not blamed on a run.
  input_file input{"--compare", o.compare};
  const std::string text = input.read_whole(largest_runs_file);
  machine_files files;
  files.use(figures_basis(o.figures));
  // The runs' machine files lie beside the runs file; one read from standard input, however spelt, has no
  // folder but the working one (/dev/stdin's runs named /dev/h100.yaml).
  const std::filesystem::path folder =
      is_standard_input(o.compare) ? std::filesystem::path{} : std::filesystem::path{o.compare}.parent_path();
  files.paths_from(folder);
  run_machines machines{files, folder};
  std::vector<hml::measured_run> runs;
  try {
    runs = hml::read_measured_runs_csv(text, [&](std::string_view machine) { return machines.identity(machine); });
  } catch (const hml::kernels_csv_error& e) {
    throw input_error(input.where(e.line()) + e.problem());
  }

  std::vector<comparison> rows;
  std::vector<std::string> unfit;  // the runs whose memory does not fit their machine: one note says them all
  for (const hml::measured_run& r : runs) {
    const hml::serving_figures predicted = predict(o, r, machines, files, input.where(r.line), unfit);
    for (const hml::serving_metric m : hml::serving_metrics) {
      if (const std::optional<double>& measured = r.figure(m)) {
        const double p = hml::figure_of(predicted, m);
        rows.push_back({&r, m, *measured, p, hml::relative_error(p, *measured)});
      }
    }
  }
  if (!unfit.empty())
    note(unfit.front() + (unfit.size() == 1 ? std::string{}
                                            : " (and " + std::to_string(unfit.size() - 1) + " more runs whose memory does not fit)"));
  // The mean absolute error over all the figures, then over those of each kind (none: not printed).
  const auto errors_of = [&](std::optional<hml::serving_metric> kind) {
    std::vector<double> errors;
    for (const comparison& c : rows)
      if (!kind || c.metric == *kind) errors.push_back(c.error);
    return errors;
  };
  const std::vector<double> all = errors_of(std::nullopt);
  const double mape = hml::mean_absolute_error(all);

  // One row a figure: in base units for CSV and JSON (the error as a share), as text for the table, which
  // cites each source by its number in the list after it (in the order they first appear).
  const output_format format = o.output.chosen();
  const bool human = format == output_format::table;
  std::vector<std::string_view> sources;
  const auto source_cell = [&](const std::string& s) -> hml::cell {
    if (!human) return s;
    std::size_t n = 0;
    while (n < sources.size() && sources[n] != s) ++n;
    if (n == sources.size()) sources.push_back(s);
    return "[" + std::to_string(n + 1) + "]";
  };
  const auto count = [&](std::uint64_t n) -> hml::cell { return human ? hml::cell{std::to_string(n)} : hml::cell{static_cast<double>(n)}; };
  const auto figure = [&](hml::serving_metric m, double x) -> hml::cell { return human ? hml::cell{figure_text(m, x)} : hml::cell{x}; };
  // A run of continuous batching has its requests; its batch is the most at once.
  const auto requests = [&](const std::optional<std::uint64_t>& n) -> hml::cell {
    if (n) return count(*n);
    return human ? hml::cell{std::string{}} : hml::cell{hml::no_value{}};
  };
  // The weights' precision, and its group where the run gives one ("int4/32"): runs of one model and machine
  // that differ only there are told apart.
  const auto weights = [](const hml::measured_run& r) {
    return r.weights + (r.weight_group ? "/" + std::to_string(*r.weight_group) : std::string{});
  };
  // How a mixture of experts ran over its tp devices, as the file's `parallel` column says it (the table: dp,
  // dp+ep, ep); for tensor-parallel attention, its all-reduce where the file names one.
  const auto parallel = [human](const hml::measured_run& r) -> std::string {
    if (!r.dp_attention) return r.ep ? "ep" + (r.all_reduce.empty() ? std::string{} : "+" + r.all_reduce) : r.all_reduce;
    return human ? (r.ep ? "dp+ep" : "dp") : (r.ep ? "dp-attention+ep" : "dp-attention");
  };
  hml::table table{{"line", "model", "machine", "tp", "parallel", "weights", "batch", "requests", "prompt", "generate", "metric",
                    "measured", "predicted", "error", "system", "source"},
                   {}};
  for (const comparison& c : rows) {
    const hml::measured_run& r = *c.run;
    table.add_row({count(r.line), r.model, r.machine, count(r.tp), parallel(r), weights(r), count(r.batch), requests(r.requests),
                   count(r.prompt), count(r.generate),
                   std::string{to_string(c.metric)}, figure(c.metric, c.measured), figure(c.metric, c.predicted),
                   human ? hml::cell{signed_percent(c.error)} : hml::cell{c.error}, r.system, source_cell(r.source)});
  }
  if (format == output_format::csv) {
    emit(o.output, render(table, format));
    return;
  }
  if (format == output_format::json) {
    hml::table summary{{"figures", "mean_absolute_percentage_error"}, {}};
    summary.add_row({static_cast<double>(all.size()), mape * 100});
    add_time_choices(summary, estimate_of(o), elementwise_of(o), attention_kernel_of(o));
    for (const hml::serving_metric m : hml::serving_metrics) {
      const std::vector<double> errors = errors_of(m);
      if (errors.empty()) continue;
      const std::string name{hml::field_name(m)};
      summary.columns.push_back(name + "_figures");
      summary.columns.push_back(name + "_mean_absolute_percentage_error");
      summary.rows.back().insert(summary.rows.back().end(),
                                 {hml::cell{static_cast<double>(errors.size())}, hml::cell{hml::mean_absolute_error(errors) * 100}});
    }
    const std::array<hml::json_part, 2> parts{hml::json_part{"summary", &summary, true}, hml::json_part{"comparisons", &table}};
    emit(o.output, hml::to_json_object(parts));
    return;
  }
  std::string out = counted(runs.size(), "measured run", "measured runs") + " of " + visible_whole(input_name(o.compare)) +
                    ", predicted " +
                    (o.bound ? std::string{"at the ideal bound"}
                             : std::string{"as expected times (tiles in waves over each machine's SMs, its kernel overhead; "
                                           "--bound: the ideal bound)"}) +
                    elementwise_text(elementwise_of(o)) + every_run_text(o) + " at efficiency: compute " + percent(o.efficiency_compute) +
                    ", memory " + percent(o.efficiency_memory) + " (error: predicted / measured - 1)\n\n" + hml::format_table(table) +
                    "\nmean absolute percentage error: " + percent(mape) + " over " + std::to_string(all.size()) +
                    (all.size() == 1 ? " figure" : " figures");
  std::string each;
  for (const hml::serving_metric m : hml::serving_metrics) {
    const std::vector<double> errors = errors_of(m);
    if (errors.empty()) continue;
    each += (each.empty() ? "" : ", ") + std::string{to_string(m)} + " " + percent(hml::mean_absolute_error(errors)) +
            " over " + std::to_string(errors.size());
  }
  out += " (" + each + ")\n\nsources:\n";
  for (std::size_t n = 0; n < sources.size(); ++n) out += "[" + std::to_string(n + 1) + "] " + std::string{sources[n]} + "\n";
  emit(o.output, out);
}

}  // namespace hml_cli::llm
