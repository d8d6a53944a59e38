// `hml llm`'s run: the steps, the generation, the serving figures and the memory from hml.transformer, as a
// table or as CSV and JSON rows (llm.cpp reads the options); and the check that the machine has a peak for
// each operator's precision, blaming the options that chose it.
#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common.hpp"
#include "llm.hpp"

namespace hml_cli {

namespace {

using llm_options = llm::run_options;
using llm::model_title;
using llm::number;
using llm::percent;
using llm::text;

const std::vector<std::string> table_columns{"operator", "FLOP", "read", "written", "intensity", "bound", "time", "share"};
const std::vector<std::string> csv_columns{"phase",         "operator",      "flops",         "bytes_read",
                                           "bytes_written", "intensity",     "bound",         "compute_time_s",
                                           "memory_time_s", "link_time_s",   "overhead_s",    "time_s",
                                           "share"};

// An intensity where bytes of main memory move; none where none do (an all-reduce's are the link's), not 0.
hml::cell intensity_cell(hml::arithmetic_intensity intensity, hml::data_size moved, bool human) {
  if (!(moved.value() > 0)) return human ? hml::cell{std::string{}} : hml::cell{hml::no_value{}};
  return human ? hml::cell{text(intensity)} : hml::cell{intensity.value()};
}

void add_rows(hml::table& table, std::string_view phase, const hml::step_analysis& s, bool human) {
  for (const hml::operator_time& op : s.operators) {
    if (human) {
      table.add_row({std::string{op.op.name}, text(op.op.flops), text(op.op.bytes_read()), text(op.op.bytes_written()),
                     intensity_cell(op.intensity, op.op.bytes(), human), std::string{to_string(op.bound)}, text(op.time),
                     percent(s.share(op))});
    } else {
      table.add_row({std::string{phase}, std::string{op.op.name}, op.op.flops.value(), op.op.bytes_read().value(),
                     op.op.bytes_written().value(), intensity_cell(op.intensity, op.op.bytes(), human), std::string{to_string(op.bound)},
                     op.compute_time.value(), op.memory_time.value(), op.link_time.value(), op.overhead.value(),
                     op.time.value(), s.share(op)});
    }
  }
  // A pipeline's stage waits for the others and for the hand-offs: a row of time, of no FLOP or bytes (0 in
  // every format; its intensity and bound do not apply).
  if (s.pipeline_wait.value() > 0 && human) {
    table.add_row({std::string{"pipeline wait"}, text(hml::work{}), text(hml::data_size{}), text(hml::data_size{}), std::string{},
                   std::string{}, text(s.pipeline_wait), percent(s.pipeline_wait / s.time.value)});
  } else if (s.pipeline_wait.value() > 0) {
    table.add_row({std::string{phase}, std::string{"pipeline wait"}, 0.0, 0.0, 0.0, hml::no_value{}, hml::no_value{}, 0.0, 0.0,
                   0.0, 0.0, s.pipeline_wait.value(), s.pipeline_wait / s.time.value});
  }
  hml::data_size read{}, written{};  // the step's bytes, as its rows split them
  for (const hml::operator_time& op : s.operators) {
    read += op.op.bytes_read();
    written += op.op.bytes_written();
  }
  if (human) {
    table.add_row({std::string{"total"}, text(s.flops), text(read), text(written), intensity_cell(s.intensity(), s.bytes, human),
                   std::string{to_string(s.bound())}, text(s.time.value), hml::percent_text(100)});
  } else {
    table.add_row({std::string{phase}, std::string{"total"}, s.flops.value(), read.value(), written.value(),
                   intensity_cell(s.intensity(), s.bytes, human), std::string{to_string(s.bound())}, s.compute_time.value(),
                   s.memory_time.value(), s.link_time.value(), s.overhead.value(), s.time.value.value(), 1.0});
  }
}

// The memory a run may take: the capacity, or the share of it --memory-utilization gives.
std::string memory_limit(const hml::machine_description& d, const hml::inference_options& i) {
  if (i.memory.memory_utilization == 1) return text(hml::capacity_of(d));
  return text(hml::usable_memory(d, i)) + " (" + percent(i.memory.memory_utilization) + " of " + text(hml::capacity_of(d)) + ")";
}

// With --pp: the stages' layers, the micro-batches of the batch, and the link between stages.
std::string pipeline_line(const hml::transformer& t, const hml::inference_options& i, std::uint64_t batch) {
  const hml::pipeline_parallelism& p = i.pipeline;
  if (p.stages <= 1) return {};
  std::string layers;
  for (unsigned s = 0; s < p.stages; ++s) layers += (s == 0 ? "" : ", ") + std::to_string(hml::stage_of(t, p.stages, s).layers);
  const std::uint64_t count = hml::micro_batches_of(p, batch);
  const std::uint64_t largest = (batch + count - 1) / count;
  return "pipeline: " + std::to_string(p.stages) + " stages of " + layers + " layers" +
         (i.tensor_parallel > 1 ? ", " + std::to_string(i.tensor_parallel) + " devices each" : std::string{}) + "; " +
         counted(count, "micro-batch", "micro-batches") + " of " + (largest * count == batch ? "" : "up to ") +
         counted(largest, "sequence", "sequences") + " a step; hand-offs at " + quantity_text(p.link.bandwidth.rate) +
         " per direction, " + text(p.link.latency) + " latency\n";
}

// With --dp-attention or --ep: who runs what of a mixture of experts.
std::string experts_line(const hml::transformer& t, const hml::inference_options& i) {
  const std::string n = std::to_string(i.tensor_parallel);
  if (!i.experts.data_parallel_attention) {
    if (!i.experts.expert_parallel) return {};
    return "expert parallelism: the " + std::to_string(t.experts) + " experts whole, " +
           std::to_string(t.experts / i.tensor_parallel) + " a device, each running its share of the tokens' experts; "
           "attention tensor-parallel over the " + n + ", the experts' sums all-reduced each layer\n";
  }
  return "data-parallel attention: each of " + n + " devices its own sequences with whole attention weights; the " +
         std::to_string(t.experts) + " experts " +
         (i.experts.expert_parallel ? "whole, " + std::to_string(t.experts / i.tensor_parallel) + " a device"
                                    : "split by their width over the " + n) +
         ", every device's tokens gathered to them and scattered back each layer\n";
}

// The draft of --draft, held beside the model on each device; none without. speculation() has checked it.
const hml::transformer* draft_of(const llm_options& o) { return o.draft.empty() ? nullptr : &hml::model_named(o.draft); }

// The memory a run takes, fits in and leaves room for: the model's, with its draft's beside it where there is one.
hml::memory_use memory_beside(const hml::transformer& t, const hml::transformer* draft, std::uint64_t batch,
                              std::uint64_t context, const hml::inference_options& i) {
  return draft != nullptr ? hml::memory_needed(t, *draft, batch, context, i) : hml::memory_needed(t, batch, context, i);
}
bool fits_beside(const hml::transformer& t, const hml::transformer* draft, std::uint64_t batch, std::uint64_t context,
                 const hml::machine_description& d, const hml::inference_options& i) {
  return draft != nullptr ? hml::fits(t, *draft, batch, context, d, i) : hml::fits(t, batch, context, d, i);
}
// The largest batch that fits, up to the most --batch takes: past it the sizes stop being exact counts and
// the library's search stops short (a capacity of 10^30 B gave 2,759,558,595), so that is said as "or more";
// so is a batch one more of which the model counts no longer exactly, where memory would hold more (1 EB held
// 249,700,578 sequences of 1000 tokens "at most", where it holds 1.2 x 10^9).
struct largest_fit {
  std::uint64_t sequences = 0;
  bool or_more = false;  // memory holds more than the counts reach
};
largest_fit largest_beside(const hml::transformer& t, const hml::transformer* draft, std::uint64_t context,
                           const hml::machine_description& d, const hml::inference_options& i) {
  const std::uint64_t found = std::min(draft != nullptr ? hml::largest_batch(t, *draft, context, d, i) : hml::largest_batch(t, context, d, i),
                                       llm::most_sequences);
  const std::uint64_t slots = hml::kv_slots(context, i.memory);
  const auto counted_exactly = [&](const hml::transformer& m) { return hml::counts_are_exact(m, found + 1, context, slots); };
  return {found, found == llm::most_sequences || !counted_exactly(t) || (draft != nullptr && !counted_exactly(*draft))};
}
std::string largest_text(largest_fit largest, std::uint64_t context) {
  return (largest.sequences == llm::most_sequences ? std::string{"10^9 sequences"} : counted(largest.sequences, "sequence", "sequences")) +
         " of " + counted(context, "token", "tokens") +
         (largest.or_more ? " or more" : " at most");
}

// The machine's measured rates a step's operators take: the attention rate (a fused 16-bit prefill's), the INT4
// weight rate (a weight-only INT4 product of few rows).
llm::rates_taken rates_taken_by(const hml::step_analysis& s, const hml::machine_description& d,
                                const hml::inference_options& i) {
  const auto any = [&](auto takes) { return std::any_of(s.operators.begin(), s.operators.end(), takes); };
  return {.attention = any([&](const hml::operator_time& x) { return hml::at_attention_rate(x.op, d); }),
          .int4_weights = any([&](const hml::operator_time& x) { return hml::at_int4_weight_rate(x.op, d, i.types); })};
}
// ... by either of a generation's two steps.
llm::rates_taken rates_taken_by(const hml::step_analysis& prefill, const hml::step_analysis& decode,
                                const hml::machine_description& d, const hml::inference_options& i) {
  const llm::rates_taken a = rates_taken_by(prefill, d, i), b = rates_taken_by(decode, d, i);
  return {.attention = a.attention || b.attention, .int4_weights = a.int4_weights || b.int4_weights};
}

// A model's size as its makers say it, in billions ("6.738 B"), a small one's in millions or whole
// ("41280", where "4.128e-05 B" was printed).
std::string parameters_text(std::uint64_t parameters) {
  const auto count = static_cast<double>(parameters);
  if (parameters >= 1'000'000'000) return number(count / 1e9) + " B";
  if (parameters >= 1'000'000) return number(count / 1e6) + " M";
  return std::to_string(parameters);
}

// The run's first lines: the model and machine, what is run, the precisions and efficiencies, and the memory
// per device (`memory`, at `context` tokens) against its capacity; `rates`: the machine's measured rates a step
// takes, which the time's line then names.
std::string heading(const llm_options& o, const hml::transformer& t, const hml::machine_description& d,
                    const hml::inference_options& i, const std::string& what, std::uint64_t context,
                    const hml::memory_use& memory, const hml::transformer* draft, llm::rates_taken rates) {
  const auto precision = [](hml::precision p) { return std::string{hml::to_string(p)}; };
  const bool capacity_known = hml::main_memory(d).capacity.published();
  const unsigned devices = i.tensor_parallel * i.pipeline.stages;
  return model_title(o, t) + " (" + parameters_text(hml::parameters(t)) + " parameters) on " +
         std::string{d.name} + (devices > 1 ? " x " + std::to_string(devices) : "") + ": batch " +
         std::to_string(o.batch) + ", " + what + "\n" + pipeline_line(t, i, o.batch) + experts_line(t, i) +
         "precisions: weights " + precision(i.types.weights) +
         (i.types.weight_group > 0 ? " in groups of " + std::to_string(i.types.weight_group) : "") +
         ", activations " + precision(i.types.activations) + ", KV cache " + precision(i.types.kv_cache) +
         "; efficiency: compute " + percent(i.achieved.compute) + ", memory " + percent(i.achieved.memory) + "\n" +
         "time: " + llm::estimate_text(d, i, rates) + "\n" +
         "memory per device" + (draft != nullptr ? " (the model's and the draft's)" : std::string{}) + ": weights " +
         text(memory.weights) + " + KV cache" +
         (i.memory.kv_block_tokens > 0 ? " (blocks of " + counted(i.memory.kv_block_tokens, "token", "tokens") + ")" : "") +
         " " + text(memory.kv_cache) + " + activations " + text(memory.activations) + " = " + text(memory.total()) +
         (capacity_known ? " of " + memory_limit(d, i) + (fits_beside(t, draft, o.batch, context, d, i) ? " (fits; " : " (does NOT fit; ") +
                               largest_text(largest_beside(t, draft, context, d, i), context) + ")"
                         : std::string{" (the device publishes no capacity)"}) +
         "\n\n";
}

// Speculative decoding with --draft, at the decode step of `context` tokens; none without --draft.
std::optional<hml::speculative_step> speculation(const llm_options& o, const hml::transformer& t,
                                                 const hml::machine_description& d, const hml::inference_options& i,
                                                 std::uint64_t context) {
  if (o.draft.empty()) {
    if (o.acceptance) throw input_error("--acceptance: the share of a draft model's tokens accepted; give --draft with it");
    return std::nullopt;
  }
  const hml::transformer& draft = check_option("--draft", [&]() -> const hml::transformer& { return hml::model_named(o.draft); });
  // A draft that cannot serve is said before the figure it would need (its vocabulary and experts with the
  // options: llm::inference_of).
  if (!o.acceptance) throw input_error("--acceptance: missing, and --draft needs the share of its tokens the target accepts; give it, e.g. --acceptance 0.8");
  llm::check_tensor_split(draft, i, "--draft, --tp", o.draft + "'s ", &t);
  llm::check_weight_group(draft, i, "--draft, --weight-group", i.tensor_parallel, &t);  // offered for both models
  check_option("--draft", [&] { hml::validate(draft, i); });
  return check_option("--draft, --lookahead", [&] {
    return hml::speculative_decoding(t, draft, o.batch, context, o.lookahead, *o.acceptance, d, i);
  });
}

// The speedup is over plain decode's step at the context the draft's step was timed at (a run's first decode
// step, whose time can differ from the run's mean time per output token): the line says which.
std::string speculation_line(const llm_options& o, const std::optional<hml::speculative_step>& s, std::uint64_t context) {
  if (!s) return {};
  return "speculative decoding (draft " + o.draft + ", " + counted(o.lookahead, "token", "tokens") + " ahead, acceptance " +
         number(*o.acceptance) + "): " + number(s->tokens_per_step) + (s->tokens_per_step == 1 ? " token" : " tokens") + " a step; draft " + text(s->draft.value) +
         " + verify " + text(s->verify.value) + " = " + text(s->total().value) + " a step; " + text(s->per_output_token.value) +
         " per output token, " + number(s->speedup(), 3) + "x plain decode's " + text(s->plain.value) + " a step at context " +
         std::to_string(context) + "\n";
}

// Where decode at `context` turns compute-bound, if it does.
std::string ridge_line(const hml::transformer& t, const hml::machine_description& d, const hml::inference_options& i,
                       std::uint64_t context) {
  const hml::decode_ridge ridge = hml::ridge_batch(t, context, d, i);
  const std::string at = " at context " + std::to_string(context);
  if (!ridge.reached())
    return "decode never turns compute-bound" + at + ": each sequence's bytes (its KV cache and activations) take longer to "
           "move than its FLOP\n";
  // The affine times cross below one sequence where the machine's compute is slow for its memory.
  if (ridge.batch() <= 1)
    return "decode is compute-bound from batch 1" + at + " (at the ideal bound; the times cross at batch " +
           number(ridge.batch()) + ")\n";
  return "decode turns compute-bound at batch " + llm::count_text(ridge.batch()) + at + " (at the ideal bound)\n";
}

// A number of the JSON summary, or null where there is none.
hml::cell number_or_none(bool known, double x) { return known ? hml::cell{x} : hml::cell{hml::no_value{}}; }

// The JSON summary's decode_ridge_batch, the table's ridge line: null where decode never turns compute-bound.
void add_ridge(hml::table& summary, const hml::transformer& t, const hml::machine_description& d,
               const hml::inference_options& i, std::uint64_t context) {
  const hml::decode_ridge ridge = hml::ridge_batch(t, context, d, i);
  summary.columns.emplace_back("decode_ridge_batch");
  summary.rows.back().push_back(number_or_none(ridge.reached(), ridge.reached() ? ridge.batch() : 0.0));
}

// The memory the run may take in bytes (the capacity times --memory-utilization), and the most sequences of
// `context` tokens that fit in it; null where the device publishes no capacity.
hml::cell capacity_cell(const hml::machine_description& d, const hml::inference_options& i) {
  const bool known = hml::main_memory(d).capacity.published();
  return number_or_none(known, known ? hml::usable_memory(d, i).value() : 0.0);
}
hml::cell largest_batch_cell(const hml::transformer& t, const hml::transformer* draft, std::uint64_t context,
                             const hml::machine_description& d, const hml::inference_options& i) {
  const bool known = hml::main_memory(d).capacity.published();
  return number_or_none(known, known ? static_cast<double>(largest_beside(t, draft, context, d, i).sequences) : 0.0);
}

// Beside an expected time, the same run at the ideal bound; none where the run is the bound.
std::optional<hml::inference_options> bound_beside(hml::inference_options i) {
  if (i.estimate == hml::estimate::bound) return std::nullopt;
  i.estimate = hml::estimate::bound;
  return i;
}

// The JSON summary's bound_* figures; the table's line.
void add_bound(hml::table& summary, const std::optional<hml::serving_figures>& b, bool decodes) {
  if (!b) return;
  for (const char* name : {"bound_time_to_first_token_s", "bound_time_per_output_token_s", "bound_end_to_end_latency_s",
                           "bound_output_tokens_per_s"}) {
    summary.columns.emplace_back(name);
  }
  summary.rows.back().insert(summary.rows.back().end(),
                             {b->time_to_first_token.value.value(),
                              number_or_none(decodes, b->time_per_output_token.value.value()), b->end_to_end.value.value(),
                              b->output_throughput.per_second});
}

std::string bound_line(const std::optional<hml::serving_figures>& b, bool decodes) {
  if (!b) return {};
  return "ideal bound (--bound): TTFT " + text(b->time_to_first_token.value) +
         (decodes ? ", TPOT " + text(b->time_per_output_token.value) : std::string{}) + ", end-to-end " +
         text(b->end_to_end.value) + ", output " + llm::count_text(b->output_throughput.per_second) + " tokens/s\n";
}

// With --draft, the summary's speculative-decoding figures at the first decode step.
void add_speculation(hml::table& summary, const std::optional<hml::speculative_step>& s) {
  if (!s) return;
  for (const char* name : {"speculative_tokens_per_step", "speculative_time_per_output_token_s", "speculative_speedup"})
    summary.columns.emplace_back(name);
  summary.rows.back().insert(summary.rows.back().end(),
                             {hml::cell{s->tokens_per_step}, hml::cell{s->per_output_token.value.value()}, hml::cell{s->speedup()}});
}

// The pipeline line above is the batch's; continuous batching splits each step's sequences of its own.
std::string continuous_line(const llm_options& o, const hml::inference_options& i,
                            const std::optional<hml::continuous_batching_result>& c) {
  if (!c) return {};
  const std::string micro_batches =
      i.pipeline.stages > 1 ? counted(hml::micro_batches_of(i.pipeline, c->concurrency), "micro-batch", "micro-batches") +
                                  " a step at most; "
                            : std::string{};
  return "continuous batching of " + counted(c->requests, "request", "requests") + " (room for " + std::to_string(c->concurrency) +
         " at once, set by " + std::string{hml::to_string(c->limited_by)} + "; " + micro_batches + "max batch " +
         std::to_string(llm::batching_limits_of(o).max_batch) + ", max tokens " +
         std::to_string(llm::batching_limits_of(o).max_tokens) + "): on average TTFT " + text(c->mean_time_to_first_token.value) +
         (o.generate > 1 ? ", TPOT " + text(c->mean_time_per_output_token.value) : std::string{}) + ", end-to-end " +
         text(c->mean_end_to_end.value) + "; output " + llm::count_text(c->output_throughput.per_second) + " tokens/s over " +
         text(c->makespan.value) + " (" + std::to_string(c->prefill_steps) + " prefill and " + std::to_string(c->decode_steps) +
         " decode steps)\n";
}

void add_continuous(hml::table& summary, const std::optional<hml::continuous_batching_result>& c) {
  if (!c) return;
  for (const char* name : {"continuous_concurrency", "continuous_time_to_first_token_s", "continuous_time_per_output_token_s",
                           "continuous_end_to_end_latency_s", "continuous_output_tokens_per_s", "continuous_makespan_s"})
    summary.columns.emplace_back(name);
  summary.rows.back().insert(summary.rows.back().end(),
                             {hml::cell{static_cast<double>(c->concurrency)}, hml::cell{c->mean_time_to_first_token.value.value()},
                              number_or_none(c->mean_time_per_output_token.value.value() > 0, c->mean_time_per_output_token.value.value()),
                              hml::cell{c->mean_end_to_end.value.value()}, hml::cell{c->output_throughput.per_second},
                              hml::cell{c->makespan.value.value()}});
}

// --format csv: the operator rows; --format json: an object, the summary beside them.
void emit_rows(const output_options& out, output_format format, const hml::table& operators, const hml::table& summary) {
  if (format == output_format::csv) {
    emit(out, render(operators, format));
    return;
  }
  const std::array<hml::json_part, 2> parts{hml::json_part{"summary", &summary, true}, hml::json_part{"operators", &operators}};
  emit(out, hml::to_json_object(parts));
}

// The operators of a step as `hml chart` and `hml roofline` read kernels: name,flops,memory_bytes.
void emit_as_kernels(const llm_options& o, const hml::step_analysis& step) {
  if (step.shape.kind == hml::phase::decode && o.attention_given)
    throw input_error("--attention, --as-kernels decode: not together; --attention chooses the prefill's attention "
                      "kernel, and a decode step's attention reads the cache whichever it is");
  // CSV by default; a table asked for by name would be written as CSV without a word.
  if (o.output.format != "csv" && (o.output.format != "table" || o.format_given)) {
    throw input_error("--as-kernels, --format: the kernels are written as the CSV that hml roofline and hml chart "
                      "read; give no --format (or csv)");
  }
  hml::table kernels{{"name", "flops", "memory_bytes"}, {}};
  for (const hml::operator_time& op : step.operators) {
    if (op.op.bytes().value() > 0) kernels.add_row({std::string{op.op.name}, op.op.flops.value(), op.op.bytes().value()});
  }
  emit({.format = "csv", .formats = {"csv"}, .path = o.output.path}, hml::to_csv(kernels));  // -o's name: .csv
}

// The options a context past a learned position table blames: its lengths, and --learned-positions where that
// gave the table (as much at fault as the lengths it is too short for).
std::string lengths_against_table(const llm_options& o, std::string_view lengths) {
  return (o.learned_positions ? "--learned-positions, " : "") + std::string{lengths};
}

// CSV is the operator rows alone: what --requests, --chunk and --draft add has no place in it, and went
// without a word (a --context run's speculative figures did).
void refuse_csv_beside_additions(const llm_options& o) {
  if (o.output.chosen() == output_format::csv && (o.requests || o.chunk || !o.draft.empty())) {
    throw input_error("--format csv: the operator rows alone, without what --requests, --chunk and --draft add; "
                      "give --format json (their figures beside the rows) or no --format");
  }
}

// --context N: one decode step of the batch over N tokens each (the N-th token's step: its attention reads
// N tokens of cache), the question "how fast is decode at this length" without a prefill to run first.
void run_decode_step(const llm_options& o, const hml::transformer& t, const hml::machine_description& d,
                     const hml::inference_options& i) {
  const std::uint64_t n = *o.context;
  llm::check_learned_positions(t, n, lengths_against_table(o, "--context"));
  // Its memory counts the prefill of the context (memory_needed's heaviest step); a batch of one is no cause.
  llm::check_countable(t, o.batch, n, i, "--context");  // the step's counts, and those of its memory
  llm::note_past_max_positions(t, n);
  llm::check_step_precisions(t, hml::decode_step(o.batch, n), d, i);  // the step alone: no prefill runs
  const hml::step_analysis step = hml::analyze_step(t, hml::decode_step(o.batch, n), d, i);
  if (!o.as_kernels.empty()) {
    if (o.as_kernels != "decode") throw input_error("--as-kernels, --context: --context runs one decode step; give --as-kernels decode");
    emit_as_kernels(o, step);
    return;
  }
  refuse_csv_beside_additions(o);
  // Every request makes one token a step: the step's time is each request's time per output token.
  const hml::time_per_token each = hml::per_token(step.time, hml::tokens{1});
  const hml::token_rate rate = hml::throughput(step.time, step.produced());
  const std::optional<hml::speculative_step> speculative = speculation(o, t, d, i, n);
  const hml::transformer* draft = draft_of(o);
  const hml::memory_use memory = memory_beside(t, draft, o.batch, n, i);
  std::optional<hml::step_analysis> bound;
  if (const auto at_bound = bound_beside(i)) bound = hml::analyze_step(t, hml::decode_step(o.batch, n), d, *at_bound);
  const output_format format = o.output.chosen();
  if (format != output_format::table) {
    hml::table table{csv_columns, {}};
    add_rows(table, "decode", step, false);
    hml::table summary{{"time_per_output_token_s", "output_tokens_per_s", "memory_per_device_B", "memory_capacity_B",
                        "largest_batch"},
                       {}};
    summary.add_row({each.value.value(), rate.per_second, memory.total().value(), capacity_cell(d, i), largest_batch_cell(t, draft, n, d, i)});
    llm::add_time_choices(summary, i.estimate, i.elementwise, std::nullopt);  // one decode step: no prefill
    if (bound) {
      summary.columns.insert(summary.columns.end(), {"bound_time_per_output_token_s", "bound_output_tokens_per_s"});
      summary.rows.back().insert(summary.rows.back().end(),
                                 {bound->time.value.value(), hml::throughput(bound->time, bound->produced()).per_second});
    }
    add_speculation(summary, speculative);
    add_ridge(summary, t, d, i, n);
    emit_rows(o.output, format, table, summary);
    return;
  }
  hml::table rows{table_columns, {}};
  add_rows(rows, "decode", step, true);
  emit(o.output, heading(o, t, d, i, "one decode step at context " + std::to_string(n), n, memory, draft, rates_taken_by(step, d, i)) + "decode step (batch " +
                     std::to_string(o.batch) + ", context " + std::to_string(n) + "):\n" + hml::format_table(rows) +
                     "\n" + "time per output token (each request's; the step): " + text(each.value) + ", output " +
                     llm::count_text(rate.per_second) + " tokens/s\n" +
                     (bound ? "ideal bound (--bound): " + text(bound->time.value) + ", output " +
                                  llm::count_text(hml::throughput(bound->time, bound->produced()).per_second) +
                                  " tokens/s\n"
                            : std::string{}) +
                     speculation_line(o, speculative, n) + ridge_line(t, d, i, n));
}

}  // namespace

void llm::run(const run_options& o) {
  if (!o.compare.empty()) {
    llm::run_compare(o);
    return;
  }
  if (o.device.empty()) throw input_error("--machine: missing; give --machine NAME|FILE, or --compare FILE (see `hml llm --help`)");
  machine_files files;
  // The kernels are FLOP and bytes, whatever the figures: no note of measured ones in place of the datasheet's.
  if (o.as_kernels.empty()) files.use(figures_basis(o.figures));
  const hml::machine_description& d = files.machine("--machine", o.device);
  if (o.as_kernels.empty()) require_main_memory_bandwidth("--machine", o.device, d);  // the kernels need none
  require_compute_peak("--machine", o.device, d);  // a machine without any: no precision would find one
  if (o.memory_utilization < 1 && !hml::main_memory(d).capacity.published())  // a share of nothing: said, not dropped unseen
    note("--memory-utilization: " + std::string{d.name} + " publishes no capacity, of which it would take a share; not used");
  const hml::transformer t = llm::model_of(o);
  // The scheduler runs the model alone: a draft beside it would take memory and steps it does not count.
  if (o.requests && !o.draft.empty())
    throw input_error("--requests, --draft: not together; continuous batching is modelled without speculative decoding "
                      "(the draft's weights, its KV cache and its steps); give one of them");
  const hml::inference_options i = llm::inference_of(o, t, files);
  if (o.context) {
    run_decode_step(o, t, d, i);
    return;
  }
  const hml::generation g{o.batch, o.prompt, o.generate};
  llm::check_generation(t, g, i, lengths_against_table(o, "--prompt, --generate"));
  llm::check_precisions(t, g, d, i);

  const hml::step_analysis prefill = hml::analyze_step(t, hml::prefill_step(g.batch, g.prompt), d, i);
  const hml::step_analysis decode = hml::analyze_step(t, hml::decode_step(g.batch, g.prompt + 1), d, i);
  if (!o.as_kernels.empty()) {
    emit_as_kernels(o, o.as_kernels == "prefill" ? prefill : decode);
    return;
  }
  refuse_csv_beside_additions(o);
  // Its scheduler takes each prompt whole in a step (its --max-tokens): a chunk beside it changed nothing.
  if (o.requests && o.chunk)
    throw input_error("--requests, --chunk: not together; continuous batching takes each prompt whole in a step "
                      "(--max-tokens); --chunk times one sequence's chunked prefill: give one of them");
  // Continuous batching first: its checks refuse a run at once that the generation below would take
  // seconds to analyse (a million tokens) before them.
  const std::optional<hml::continuous_batching_result> continuous = llm::continuous_run(o, t, d, i);
  if (o.chunk) {
    check_option("--chunk", [&] { hml::validate_chunking(g.prompt, *o.chunk); });
    if (*o.chunk > g.prompt)  // a step takes the prompt whole: the run would be --chunk = the prompt's, said as more
      throw input_error("--chunk, --prompt: a chunk of " + std::to_string(*o.chunk) + " tokens is past the prompt's " +
                        std::to_string(g.prompt) + ", which one step takes whole; give --chunk " + std::to_string(g.prompt) +
                        " at most");
  }
  if (!o.draft.empty() && o.lookahead >= g.generate)  // the first token comes from the prefill
    throw input_error("--lookahead, --generate: the draft proposes " + std::to_string(o.lookahead) + " tokens a step, past the " +
                      std::to_string(g.generate - 1) + " left to decode after the first; " +
                      (g.generate > 1 ? "give --lookahead " + std::to_string(g.generate - 1) + " at most, or " : "give ") +
                      "--generate " + std::to_string(o.lookahead + 1) + " or more");
  const hml::generation_analysis run = hml::analyze_generation(t, g, d, i);
  const std::uint64_t context = g.prompt + g.generate;
  const hml::serving_figures serving = hml::serving(run, g);
  const std::optional<hml::speculative_step> speculative = speculation(o, t, d, i, g.prompt + 1);
  const hml::transformer* draft = draft_of(o);
  const hml::memory_use memory = memory_beside(t, draft, g.batch, context, i);
  const std::optional<hml::chunked_prefill_time> chunked =
      o.chunk ? std::optional{hml::chunked_prefill(t, g.batch, g.prompt, *o.chunk, d, i)} : std::nullopt;
  std::optional<hml::serving_figures> bound;
  if (const auto at_bound = bound_beside(i)) bound = hml::serving(hml::analyze_generation(t, g, d, *at_bound), g);
  if (bound && serving.time_to_first_token.value < bound->time_to_first_token.value)
    note("the expected time to first token is below the ideal bound's: the bound takes every score of the causal "
         "attention at the tensor peak, as the calculators do, the expected time the causal tiles at the attention rate");
  const output_format format = o.output.chosen();
  if (format != output_format::table) {
    hml::table table{csv_columns, {}};
    add_rows(table, "prefill", prefill, false);
    if (g.generate > 1) add_rows(table, "decode", decode, false);  // one token comes from the prefill alone
    // The serving figures and the memory (JSON only; the CSV is the rows alone).
    hml::table summary{{"time_to_first_token_s", "time_per_output_token_s", "end_to_end_latency_s",
                        "output_tokens_per_s", "memory_per_device_B", "memory_capacity_B", "largest_batch"},
                       {}};
    summary.add_row({serving.time_to_first_token.value.value(),
                     number_or_none(g.generate > 1, serving.time_per_output_token.value.value()),
                     serving.end_to_end.value.value(), serving.output_throughput.per_second, memory.total().value(),
                     capacity_cell(d, i), largest_batch_cell(t, draft, context, d, i)});
    if (chunked) {
      summary.columns.emplace_back("chunked_time_to_first_token_s");
      summary.rows.back().emplace_back(chunked->time.value.value());
    }
    llm::add_time_choices(summary, i.estimate, i.elementwise, i.attention);
    add_bound(summary, bound, g.generate > 1);
    add_speculation(summary, speculative);
    add_continuous(summary, continuous);
    if (g.generate > 1) add_ridge(summary, t, d, i, g.prompt + 1);
    emit_rows(o.output, format, table, summary);
    return;
  }
  hml::table prefill_table{table_columns, {}};
  hml::table decode_table{table_columns, {}};
  add_rows(prefill_table, "prefill", prefill, true);
  add_rows(decode_table, "decode", decode, true);
  std::string out = heading(o, t, d, i, "prompt " + std::to_string(g.prompt) + ", generate " + std::to_string(g.generate),
                            context, memory, draft, rates_taken_by(prefill, g.generate > 1 ? decode : prefill, d, i)) +
                    "prefill (" + std::to_string(g.batch) + " x " + std::to_string(g.prompt) + " tokens):\n" +
                    hml::format_table(prefill_table) + "\n" +
                    (g.generate > 1 ? "decode step (batch " + std::to_string(g.batch) + ", context " +
                                          std::to_string(g.prompt + 1) + "):\n" + hml::format_table(decode_table) + "\n"
                                    : std::string{"no decode step: the one token generated comes from the prefill\n"}) +
                    "time to first token: " + text(run.prefill.value) + "\n";
  if (g.generate > 1) {
    out += "decode: " + text(run.decode.value) + " for " + counted(g.generate - 1, "step", "steps") + ", " +
           // Per token of all the batch's sequences: a sequence's own, TPOT below, is batch times as long.
           text(run.decode_per_token.value) + " per token" + (g.batch > 1 ? " (over the batch of " + std::to_string(g.batch) + ")" : "") + ", " +
           llm::count_text(run.decode_throughput.per_second) +
           " tokens/s\n";
  }
  out += "total: " + text(run.total.value) + "\n";
  out += "as serving benchmarks report it (vLLM's): TTFT " + text(serving.time_to_first_token.value) +
         (g.generate > 1 ? ", TPOT " + text(serving.time_per_output_token.value) : std::string{}) + ", end-to-end " +
         text(serving.end_to_end.value) + ", output " + llm::count_text(serving.output_throughput.per_second) + " tokens/s\n";
  out += bound_line(bound, g.generate > 1);
  if (chunked) {
    out += "chunked prefill (" + counted(*o.chunk, "token", "tokens") + " a step): time to first token " + text(chunked->time.value) +
           " in " + std::to_string(chunked->steps) + (chunked->steps == 1 ? " step (" : " steps (") +
           number(chunked->time.value / run.prefill.value, 3) +
           "x the prefill at once)\n";
  }
  out += speculation_line(o, speculative, g.prompt + 1);
  out += continuous_line(o, i, continuous);
  if (g.generate > 1) out += ridge_line(t, d, i, g.prompt + 1);
  if (i.tensor_parallel > 1) {
    const auto rate = [](hml::data_rate r) {
      return r.value() == __builtin_inf() ? std::string{"any bandwidth (its latencies alone exceed the step)"}
                                          : hml::to_string(r, {.number = hml::general(4),
                                                               .prefixes = hml::prefix_system::decimal});
    };
    out += "link: " + rate(i.link.bandwidth.rate) +
           (i.all_reduce == hml::all_reduce_algorithm::nvls ? " of NVLS bus bandwidth, " : " per direction, ") +
           std::string{hml::to_string(i.link.mode)} + ", " + text(i.link.latency) + " a message; " +
           (i.experts.data_parallel_attention ? std::string{"all-gather and reduce-scatter by ring"}
                                              : "all-reduce by " + std::string{hml::to_string(i.all_reduce)}) +
           "\n";
    out += "the link binds the prefill below " + rate(hml::binding_link_bandwidth(prefill, i)) +
           ", a decode step below " + rate(hml::binding_link_bandwidth(decode, i)) + "\n";
  }
  emit(o.output, out);
}

// A type an inference stores its weights, activations or KV cache in: the precisions --help lists. FP64 is
// no inference type, and TF32 is a tensor core's way to multiply FP32, not a format data is kept in.
hml::precision llm::inference_type_of(std::string_view option, const std::string& text) {
  const hml::precision p = data_type_of(option, text);
  if (p == hml::precision::fp64 || p == hml::precision::tf32) {
    throw input_error(std::string{option} + ": " + std::string{hml::id_of(p)} +
                      " is not a type hml llm keeps data in; give fp32, bf16, fp16, fp8, int8, int4, nvfp4 or mxfp4");
  }
  return p;
}

}  // namespace hml_cli
