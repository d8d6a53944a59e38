// hml.report:measured_runs_csv — published measurements of transformer serving runs, one run a record, for
// `hml llm --compare`:
//
//   model,machine,tp,link,weights,activations,kv,batch,prompt,generate,ttft,tpot,e2e,output_tokens_per_s,system,source
//   llama-2-7b,a100_sxm_80gb,1,,fp16,fp16,fp16,1,128,128,22 ms,10 ms,,102.21,LMDeploy v0.1.0a1,github.com/...
//
// The columns in any order, each once. The model, machine, link and precisions are names as `hml llm`
// takes them (checked where they are used); tp, batch, prompt and generate are whole numbers. Each run
// gives at least one of the four measured figures: ttft, tpot and e2e are times with their unit ("22 ms",
// "0.022 s"; a bare number is refused, since sources print both), output_tokens_per_s a plain number (every
// token the run produced a second, over all its devices). `system` (the software that ran it) and `source`
// (where the figure is published) are required text. Three columns may be left out: `requests`, for a run
// of that many requests served by continuous batching (hml.continuous_batching), `batch` then being the
// scheduler's max batch; `max_tokens`, its max tokens a step (with requests only; empty: the default);
// `weight_group`, INT8 or INT4 weights in groups of that many sharing a scale and a zero point; and `parallel`,
// how a mixture of experts runs over its tp devices: dp-attention (hml llm --dp-attention), dp-attention+ep
// (with --ep) or ep (--ep alone: attention tensor-parallel); empty: tensor parallelism; and `all_reduce`, how the tp devices all-reduce, as --all-reduce
// takes it (checked where it is used; empty: ring).
// Records are RFC 4180, read by the kernels CSV's
// record reader (the same bounds: a record of at most 1 MiB, no NUL byte). A file may ask for at most
// max_measured_runs runs and max_measured_steps steps in all (a continuous batch's at the fewest its
// requests take), so that it is predicted in seconds. A measurement may be given once: a row that repeats an
// earlier row's run (its fields but its figures and source) with one of its figures is refused, as it would
// count twice in a mean; the same run with other figures is another measurement of it. Every error is
// "line N: <what is wrong>".
module;
#include <algorithm>
#include <array>
#include <charconv>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>
#include <unordered_map>
#include <utility>
#include <vector>
export module hml.report:measured_runs_csv;
import hml.serving_comparison;
import hml.catalog.lookup;  // name_key, alike_keys_of
import hml.continuous_batching;  // batching_limits, fewest_batching_steps
import hml.spelling;
import :kernels_csv;  // the record reader, kernels_csv_error, byte_source
import :csv;  // detail::append_shortest

export namespace hml {

struct measured_run {
  std::string model, machine, link;                // names as hml llm's --model, --machine, --link take them
  std::string weights, activations, kv;            // precisions, as --weights, --activations, --kv
  std::uint64_t tp = 1, batch = 1, prompt = 1, generate = 1;
  std::optional<std::uint64_t> requests;           // continuous batching of this many, `batch` at once at most
  std::optional<std::uint64_t> max_tokens;         // its max tokens a step
  std::optional<std::uint64_t> weight_group;       // as --weight-group
  bool dp_attention = false, ep = false;           // as --dp-attention, --ep (the parallel column)
  std::string all_reduce;                          // as --all-reduce; empty: ring
  std::array<std::optional<double>, 4> measured;   // by serving_metric, in s or tokens/s; one at least
  std::string system, source;
  std::size_t line = 0;  // 1-based line of the CSV text where the record starts

  [[nodiscard]] const std::optional<double>& figure(serving_metric m) const noexcept {
    return measured[static_cast<std::size_t>(m)];
  }
};

inline constexpr std::string_view measured_runs_header =
    "model,machine,tp,link,weights,activations,kv,batch,prompt,generate,ttft,tpot,e2e,output_tokens_per_s,system,source";

// Bounds on what one file asks for: a table of published runs holds tens; each decode step is predicted.
inline constexpr std::size_t max_measured_runs = 10'000;
inline constexpr std::uint64_t max_measured_steps = 1'000'000;

}  // namespace hml

namespace hml::detail::measured_runs {

enum column : std::size_t {
  model, machine, tp, link, weights, activations, kv, batch, prompt, generate, ttft, tpot, e2e, throughput, system, source,
  required,  // the columns before this one must be in the header; those after it may be
  requests = required, max_tokens, weight_group, parallel, all_reduce,
  columns
};

inline constexpr std::array<std::string_view, columns> column_names{
    "model", "machine", "tp", "link", "weights", "activations", "kv", "batch", "prompt", "generate",
    field_name(serving_metric::time_to_first_token), field_name(serving_metric::time_per_output_token),
    field_name(serving_metric::end_to_end_latency), field_name(serving_metric::output_throughput), "system", "source",
    "requests", "max_tokens", "weight_group", "parallel", "all_reduce"};

// Where each column is in the file: at[column] is its field's index.
using positions = std::array<std::size_t, columns>;

inline positions read_header(const kernels_csv::record& header) {
  constexpr std::size_t missing = static_cast<std::size_t>(-1);
  const std::string expected = "expected the columns " + std::string{measured_runs_header} +
                               " (in any order, each once), and requests, max_tokens, weight_group, parallel and all_reduce if wanted";
  positions at;
  at.fill(missing);
  for (std::size_t c = 0; c < header.fields.size(); ++c) {
    const std::string_view name = trimmed(header.fields[c]);
    const auto* known = std::find(column_names.begin(), column_names.end(), name);
    if (known == column_names.end()) {
      const std::string close = did_you_mean(name, column_names);
      throw kernels_csv_error{header.line, "unknown column \"" + std::string{name.substr(0, 64)} + "\"; " +
                                               (close.empty() ? expected : close)};
    }
    std::size_t& slot = at[static_cast<std::size_t>(known - column_names.begin())];
    if (slot != missing) throw kernels_csv_error{header.line, "the header names the column " + std::string{name} + " twice; " + expected};
    slot = c;
  }
  for (std::size_t c = 0; c < required; ++c) {
    if (at[c] == missing) throw kernels_csv_error{header.line, "no column " + std::string{column_names[c]} + "; " + expected};
  }
  return at;
}

// Text that goes into tables and JSON: printable UTF-8, at most max_name_bytes (a name or a citation).
inline std::string text_field(const kernels_csv::record& r, std::string_view field, column c, bool required) {
  const std::string_view text = trimmed(field);
  const std::string name{column_names[c]};
  if (!is_printable_utf8(text)) throw kernels_csv_error{r.line, name + ": " + unprintable_part(text) + "; write printable UTF-8 text, on one line"};
  if (text.size() > max_name_bytes) throw kernels_csv_error{r.line, name + ": longer than " + std::to_string(max_name_bytes) + " bytes; shorten it"};
  if (required && text.empty()) throw kernels_csv_error{r.line, name + ": empty; every run needs one"};
  return std::string{text};
}

// A whole number within [least, most].
inline std::uint64_t count_field(const kernels_csv::record& r, std::string_view field, column c, std::uint64_t most,
                                 std::uint64_t least = 1) {
  const std::string_view text = trimmed(field);
  std::uint64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || error != std::errc{} || end != text.data() + text.size() || value < least || value > most) {
    const std::string range = "a whole number from " + std::to_string(least) + " to " + std::to_string(most);
    throw kernels_csv_error{r.line, std::string{column_names[c]} + ": \"" + message_text(text.substr(0, 64)) + "\"" +
                                        (text.starts_with('+') ? " has a plus sign; write " + range + " without it"
                                                               : " is not " + range + "; write one")};
  }
  return value;
}

// A measured figure, if the field is not empty: a time with its unit, or a rate of tokens a second.
inline std::optional<double> figure_field(const kernels_csv::record& r, std::string_view field, column c) {
  const std::string_view text = trimmed(field);
  if (text.empty()) return std::nullopt;
  const std::string name{column_names[c]};
  double value = 0;
  if (c == throughput) {
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc{} || end != text.data() + text.size()) {
      throw kernels_csv_error{r.line, name + ": \"" + std::string{text.substr(0, 64)} +
                                          "\" is not a number; write the output tokens a second as a number alone, as 94.5"};
    }
  } else {
    try {
      value = parse<duration>(text).value();
    } catch (const parse_error& e) {
      throw kernels_csv_error{r.line, name + ": " + e.what()};
    }
  }
  try {
    validate_measured_figure(value);
  } catch (const std::invalid_argument& e) {
    throw kernels_csv_error{r.line, name, e};
  }
  // What a measured serving run can be: a time from 1 us to a day, 0.001 to 10^9 tokens a second. Past them a
  // unit is wrong, and the error against it would read as 10^34 %.
  const bool time = c != throughput;
  if (time ? (value < 1e-6 || value > 86400) : (value < 1e-3 || value > 1e9)) {
    throw kernels_csv_error{r.line, name + ": " + std::string{text.substr(0, 64)} + " is outside " +
                                        (time ? "1 us to 1 day" : "0.001 to 1e9 tokens a second") +
                                        ", what a measured run can be; check the unit"};
  }
  return value;
}

inline measured_run read_run(const kernels_csv::record& r, const positions& at) {
  const auto field = [&](column c) { return at[c] < r.fields.size() ? r.fields[at[c]] : std::string_view{}; };
  measured_run run;
  run.line = r.line;
  run.model = text_field(r, field(model), model, true);
  run.machine = text_field(r, field(machine), machine, true);
  run.link = text_field(r, field(link), link, false);
  run.weights = text_field(r, field(weights), weights, true);
  run.activations = text_field(r, field(activations), activations, true);
  run.kv = text_field(r, field(kv), kv, true);
  run.system = text_field(r, field(system), system, true);
  run.source = text_field(r, field(source), source, true);
  run.tp = count_field(r, field(tp), tp, 4096);
  run.batch = count_field(r, field(batch), batch, 1'000'000'000);
  run.prompt = count_field(r, field(prompt), prompt, 1'000'000'000);
  run.generate = count_field(r, field(generate), generate, 1'000'000);
  if (!trimmed(field(requests)).empty()) run.requests = count_field(r, field(requests), requests, 1'000'000'000);
  if (!trimmed(field(max_tokens)).empty()) {
    if (!run.requests) throw kernels_csv_error{r.line, "max_tokens: a continuous batch's limit; give requests with it"};
    run.max_tokens = count_field(r, field(max_tokens), max_tokens, 1'000'000'000);
  }
  if (!trimmed(field(weight_group)).empty()) run.weight_group = count_field(r, field(weight_group), weight_group, max_weight_group, 2);
  if (const std::string_view how = trimmed(field(parallel)); !how.empty()) {
    if (how != "dp-attention" && how != "dp-attention+ep" && how != "ep")
      throw kernels_csv_error{r.line, "parallel: \"" + std::string{how.substr(0, 64)} +
                                          "\" is none of dp-attention, dp-attention+ep and ep (empty: tensor parallelism)"};
    run.dp_attention = how != "ep";
    run.ep = how == "ep" || how == "dp-attention+ep";
  }
  run.all_reduce = text_field(r, field(all_reduce), all_reduce, false);
  constexpr std::array<std::pair<column, serving_metric>, 4> figures{
      std::pair{ttft, serving_metric::time_to_first_token}, std::pair{tpot, serving_metric::time_per_output_token},
      std::pair{e2e, serving_metric::end_to_end_latency}, std::pair{throughput, serving_metric::output_throughput}};
  for (const auto& [c, metric] : figures) run.measured[static_cast<std::size_t>(metric)] = figure_field(r, field(c), c);
  if (std::none_of(run.measured.begin(), run.measured.end(), [](const auto& f) { return f.has_value(); })) {
    throw kernels_csv_error{r.line, "no measured figure; give ttft, tpot, e2e or output_tokens_per_s"};
  }
  // A run of one token has no time per output token (serving benchmarks report none).
  if (run.figure(serving_metric::time_per_output_token) && run.generate < 2) {
    throw kernels_csv_error{r.line, "tpot: a time per output token needs generate 2 or more; give generate, or leave tpot empty"};
  }
  // A request's end-to-end latency holds its first token and each later one: a row past that is mistyped.
  if (const auto& e2e_s = run.figure(serving_metric::end_to_end_latency)) {
    const auto& ttft_s = run.figure(serving_metric::time_to_first_token);
    const auto& tpot_s = run.figure(serving_metric::time_per_output_token);
    const auto given = [&](column c) { return std::string{trimmed(field(c)).substr(0, 64)}; };
    if (ttft_s && *ttft_s > *e2e_s)
      throw kernels_csv_error{r.line, "ttft: " + given(ttft) + " is longer than e2e " + given(e2e) +
                                          ", which holds the first token; check the two"};
    if (tpot_s && *tpot_s * static_cast<double>(run.generate - 1) > *e2e_s)
      throw kernels_csv_error{r.line, "tpot: " + given(tpot) + " for each of " + std::to_string(run.generate - 1) +
                                          " tokens after the first is longer than e2e " + given(e2e) +
                                          ", which holds them; check the two"};
    // And it is the two together (TPOT is (e2e - TTFT) / (generate - 1), as vLLM's benchmark and hml define it,
    // linear, so means keep it): a row more than 1.5x from its sum, either way, is mistyped.
    if (ttft_s && (tpot_s || run.generate == 1)) {
      const double sum = *ttft_s + (tpot_s ? *tpot_s * static_cast<double>(run.generate - 1) : 0.0);
      if (sum > 1.5 * *e2e_s || *e2e_s > 1.5 * sum)
        throw kernels_csv_error{r.line, "e2e: " + given(e2e) + " is more than 1.5x from " +
                                            (tpot_s ? "ttft + (generate - 1) x tpot = " : "ttft (one token generated), ") +
                                            to_string(sum * second) + ", which it should equal; check " +
                                            (tpot_s ? "the three" : "the two")};
    }
    // A batch's tokens over its run: output tokens a second are batch x generate / e2e (a continuous run's
    // requests overlap, so only a batch is checked).
    const auto& tokens_per_s = run.figure(serving_metric::output_throughput);
    if (tokens_per_s && !run.requests && *e2e_s > 0) {
      const double implied = static_cast<double>(run.batch) * static_cast<double>(run.generate) / *e2e_s;
      if (*tokens_per_s > 1.5 * implied || implied > 1.5 * *tokens_per_s)
        throw kernels_csv_error{r.line, "output_tokens_per_s: " + given(throughput) + " is more than 1.5x from the " +
                                            std::to_string(static_cast<long long>(implied + 0.5)) +
                                            " that batch x generate over e2e " + given(e2e) + " give; check the two"};
    }
  }
  return run;
}

// What tells runs apart: every field as read but its figures, its line and its source: numbers as their
// values, not their text, and names as lookups take them (FP16 is fp16, H100_SXM h100_sxm, "NVIDIA A100 SXM4
// 80GB" a100_sxm_80gb, "TensorRT-LLM  0.9.0" tensorrt-llm 0.9.0; no all_reduce is the ring, no max_tokens
// the default); a machine as `machine` tells it. Its system is not in it: the caller appends one key of it
// (system_key) a form, as two names are one where any of their alike_keys is.
inline std::string run_key(const measured_run& run, const std::function<std::string(std::string_view)>& machine) {
  std::string key;
  const auto add = [&](std::string_view field) { (key += field) += '\x1f'; };  // a unit separator: in no field
  const auto add_count = [&](std::optional<std::uint64_t> n) { add(n ? std::to_string(*n) : std::string{}); };
  add(entry_key(run.model, std::span<const transformer* const>{models::all}));
  add(machine(run.machine));
  add(entry_key(run.link, std::span<const link_description* const>{systems::links}));
  for (const std::string* name : {&run.weights, &run.activations, &run.kv}) add(name_key(*name));
  add(run.all_reduce.empty() ? "ring" : name_key(run.all_reduce));
  for (const std::uint64_t n : {run.tp, run.batch, run.prompt, run.generate}) add_count(n);
  add_count(run.requests);
  // A continuous batch's max tokens left out are the default's (hml::batching_limits), as if written.
  add_count(run.requests ? std::optional{run.max_tokens.value_or(batching_limits{}.max_tokens)} : run.max_tokens);
  add_count(run.weight_group);
  add(run.dp_attention ? "dp" : "");
  add(run.ep ? "ep" : "");
  return key;
}

// A run's key with its system's, in one of the system's look-alike forms. One run measured by two systems is
// two runs; one cited from two sources is one. A system as it prints: "TRT-LLM", "TRT\u2010LLM", "TRT\u00a0LLM"
// and "TRT\u200b-LLM" are one.
inline std::string with_system(std::string run_key, std::string_view system_key) {
  (run_key += system_key) += '\x1f';
  return run_key;
}

// A run's figure as a key beside its run's: the same value however it is written (0.02 s, 20 ms).
inline std::string figure_key(const std::string& run, serving_metric m, double figure) {
  std::string key = run + std::string{field_name(m)} + '\x1f';
  append_shortest(key, figure);
  return key;
}

// The fewest steps a run takes: a batch's prefill and generate - 1 decode steps; a run of requests, its
// prefills of as many prompts as a batch and the step's max tokens hold, and its tokens a batch a step,
// each rounded up, as hml::serve_continuously counts them before it runs any.
inline std::uint64_t fewest_steps(const measured_run& run) {
  if (!run.requests) return run.generate;
  const std::uint64_t max_tokens = run.max_tokens.value_or(batching_limits{}.max_tokens);
  const std::uint64_t per_prefill = std::max<std::uint64_t>(1, std::min(run.batch, max_tokens / run.prompt));
  return fewest_batching_steps(*run.requests, run.generate, per_prefill, run.batch);
}

}  // namespace hml::detail::measured_runs

export namespace hml {

// What tells a run's machine apart, given as its row writes it. The plain one reads no file: a catalog
// entry's id (its full name too), a file's path made plain (./a.yaml is a.yaml). A caller that reads the files
// passes the file each names (hml llm --compare: a relative path is the runs file's neighbour, a link is the
// file it links to).
using machine_identity = std::function<std::string(std::string_view machine)>;
[[nodiscard]] inline std::string plain_machine_identity(std::string_view machine) {
  return machine.find_first_of("/.") != std::string_view::npos ? std::filesystem::path{machine}.lexically_normal().string()
                                                              : entry_key(machine, std::span<const machine_description* const>{machines::all});
}

// The runs of a measured-runs CSV, in order; throws kernels_csv_error ("line N: ...").
[[nodiscard]] inline std::vector<measured_run> read_measured_runs_csv(std::string_view text,
                                                                     const machine_identity& machine = plain_machine_identity) {
  namespace m = detail::measured_runs;
  detail::kernels_csv::record_reader records{text_source(text)};
  detail::kernels_csv::record record;
  if (!records.next(record)) throw kernels_csv_error{1, "no header; write the first line as " + std::string{measured_runs_header}};
  const m::positions at = m::read_header(record);
  const std::size_t at_line_of_header = record.line;
  const std::size_t fields = record.fields.size();
  std::vector<measured_run> runs;
  // A measurement given twice would count twice in a mean: the line of each run's figure, and of its whole row,
  // a map for each form of its system's alike_keys.
  std::array<std::unordered_map<std::string, std::size_t>, std::tuple_size_v<alike_keys>> line_of_row, line_of_figure;
  std::uint64_t steps = 0;
  while (records.next(record)) {
    if (record.fields.size() != fields) throw kernels_csv_error{record.line, detail::kernels_csv::field_count_problem(record, fields)};
    if (runs.size() == max_measured_runs) {
      throw kernels_csv_error{record.line, "more than " + std::to_string(max_measured_runs) + " runs (the most a file may hold); split the file"};
    }
    const measured_run& run = runs.emplace_back(m::read_run(record, at));
    // The same run however its fields are written (tp 01, 0.02 s beside 20 ms): whole, or one of its figures.
    const std::string but_its_system = m::run_key(run, machine);
    const alike_keys systems = alike_keys_of(run.system);
    for (std::size_t form = 0; form < systems.size(); ++form) {
      const std::string key = m::with_system(but_its_system, systems[form]);
      std::vector<std::pair<serving_metric, std::string>> figures;
      std::string row;
      for (const serving_metric metric : serving_metrics) {
        if (const auto& figure = run.figure(metric)) row += figures.emplace_back(metric, m::figure_key(key, metric, *figure)).second;
      }
      if (const auto first = line_of_row[form].find(row); first != line_of_row[form].end()) {
        throw kernels_csv_error{record.line, "the run of line " + std::to_string(first->second) +
                                                " again, figure for figure; give each run once (it would count twice)"};
      }
      for (const auto& [metric, figure] : figures) {
        if (const auto first = line_of_figure[form].find(figure); first != line_of_figure[form].end()) {
          throw kernels_csv_error{record.line, "the run of line " + std::to_string(first->second) + " again, with its " +
                                                  std::string{field_name(metric)} + " as that line gives it; give each measurement once "
                                                  "(it would count twice)"};
        }
      }
      line_of_row[form].emplace(std::move(row), record.line);
      for (auto& [metric, figure] : figures) line_of_figure[form].emplace(std::move(figure), record.line);
    }
    steps += m::fewest_steps(run);
    if (steps > max_measured_steps) {
      throw kernels_csv_error{record.line, "the runs so far take more than " + std::to_string(max_measured_steps) +
                                              " steps in all (the most a file may ask to predict; a run of requests takes "
                                              "requests / (prompts a prefill holds: batch, max_tokens / prompt) prefill "
                                              "steps and requests x (generate - 1) / batch decode steps at the fewest, each "
                                              "rounded up); split the file, or give its runs fewer tokens or requests"};
    }
  }
  if (runs.empty()) throw kernels_csv_error{at_line_of_header, "no runs after the header; write a run a line"};
  return runs;
}

}  // namespace hml
