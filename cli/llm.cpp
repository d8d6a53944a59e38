// `hml llm`: a transformer's inference on a catalog device: prefill and decode per operator on the roofline,
// the time to first token, the time per token and tokens/s, the ridge batch, and the memory against the
// device's capacity. Every figure comes from hml.transformer; this file only reads options and prints.
#include <algorithm>
#include <array>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>
#include <CLI/CLI.hpp>

#include "commands.hpp"
#include "common.hpp"
#include "llm.hpp"

namespace hml_cli {

namespace {

using llm_options = llm::run_options;
using llm::percent;

std::string text(hml::work w) { return hml::to_string(w, {.number = hml::general(4)}); }
std::string text(hml::data_size s) { return quantity_text(s); }
std::string text(hml::duration t) { return hml::to_string(t, {.number = hml::general(4)}); }
std::string text(hml::arithmetic_intensity i) { return hml::to_string(i, {.number = hml::general(4)}); }
std::string number(double x, int digits = 4) { return std::string{hml::format_number(x, hml::general(digits)).view()}; }

hml::precision precision_of_option(std::string_view option, const std::string& name) {
  return check_option(option, [&] { return hml::precision_named(name).type; });
}

}  // namespace

std::string llm::percent(double share) { return hml::percent_text(share * 100, hml::general(3)); }

std::string llm::token_rate_text(double per_second) {
  return std::string{hml::format_number(per_second, per_second >= 1000 ? hml::fixed(0) : hml::general(4)).view()};
}

namespace {

// The options that set a model's sizes, each with its value where given: what changed a preset, for its
// title and for the errors its sizes make.
std::array<std::pair<std::string_view, std::optional<std::uint64_t>>, 10> size_options(const llm_options& o) {
  return {{{"--layers", o.layers},
           {"--hidden", o.hidden},
           {"--ffn", o.ffn},
           {"--heads", o.heads},
           {"--kv-heads", o.kv_heads},
           {"--head-dim", o.head_dim},
           {"--vocab", o.vocab},
           {"--experts", o.experts},
           {"--active-experts", o.active_experts},
           {"--learned-positions", o.learned_positions}}};
}

}  // namespace

hml::transformer llm::model_of(const llm_options& o) {
  hml::transformer t{};
  if (!o.model.empty()) {
    t = check_option("--model", [&]() -> const hml::transformer& { return hml::model_named(o.model); });
  } else if (!o.layers || !o.hidden || !o.ffn || !o.heads || !o.vocab) {
    throw input_error("--model: give a preset, or --layers, --hidden, --ffn, --heads and --vocab");
  } else {
    t.name = "custom";
  }
  if (o.layers) t.layers = *o.layers;
  if (o.hidden) t.hidden = *o.hidden;
  if (o.ffn) t.ffn = *o.ffn;
  if (o.heads) t.heads = *o.heads;
  if (o.vocab) t.vocab = *o.vocab;
  if (o.kv_heads) {
    t.kv_heads = *o.kv_heads;
  } else if (o.model.empty()) {
    t.kv_heads = t.heads;
  }
  if (o.head_dim) {
    t.head_dim = *o.head_dim;
  } else if (o.model.empty() || o.hidden || o.heads) {
    // The head size is the hidden size per head; a remainder would drop part of the model without a word.
    if (t.heads > 0 && t.hidden % t.heads != 0) {
      throw input_error("--hidden, --heads: " + std::to_string(t.hidden) + " is not a multiple of " +
                        std::to_string(t.heads) + " heads; give --head-dim for a head size of its own");
    }
    t.head_dim = t.heads > 0 ? t.hidden / t.heads : 0;
  }
  if (o.no_gated) t.gated_mlp = false;
  if (o.biases) t.biases = true;
  if (o.qkv_biases) t.qkv_biases = true;
  if (o.tied_embeddings) t.tied_embeddings = true;
  if (o.learned_positions) t.learned_positions = *o.learned_positions;
  if (!o.norm.empty()) t.norm = o.norm == "layer" ? hml::normalization_kind::layer_norm : hml::normalization_kind::rms_norm;
  if (o.experts) t.experts = *o.experts;
  if (o.active_experts) t.active_experts = *o.active_experts;
  // A fault of the model is the options that changed it, as given (else the preset's, --model).
  std::string sizes;
  for (const auto& [option, value] : size_options(o))
    if (value) sizes += (sizes.empty() ? "" : ", ") + std::string{option};
  check_option(sizes.empty() ? std::string{"--model"} : sizes, [&] {
    hml::validate(t);
    hml::validate_counts(t, 1, 1, 1);  // the model alone, before any batch or context is counted with it
  });
  return t;
}

namespace {

// The model's name as the output says it: a preset with sizes changed says which, so that the title does not
// name a model the figures are not of ("llama-2-7b with --layers 4").
std::string model_title(const llm_options& o, const hml::transformer& t) {
  std::string changed;
  const auto add = [&](std::string_view option, const std::optional<std::uint64_t>& value) {
    if (value) changed += (changed.empty() ? " with " : ", ") + std::string{option} + " " + std::to_string(*value);
  };
  if (!o.model.empty()) {
    for (const auto& [option, value] : size_options(o)) add(option, value);
    // A flag is named where it changed the preset: --qkv-biases on a Qwen preset, which has them, is not.
    const hml::transformer& preset = hml::model_named(o.model);
    const auto flag = [&](bool changes, std::string_view text) {
      if (changes) changed += (changed.empty() ? " with " : ", ") + std::string{text};
    };
    flag(t.gated_mlp != preset.gated_mlp, "--no-gated");
    flag(t.biases != preset.biases, "--biases");
    flag(t.qkv_biases != preset.qkv_biases, "--qkv-biases");
    flag(t.tied_embeddings != preset.tied_embeddings, "--tied-embeddings");
    flag(t.norm != preset.norm, "--norm " + o.norm);
  }
  return std::string{t.name} + changed;
}

}  // namespace

namespace {

// The options of a link between parallel devices: how many (--tp), the link and its latency.
struct link_options {
  std::string_view devices_option;
  std::string_view devices;
  unsigned count;
  std::string_view link_option;
  const std::string& link;
  std::string_view latency_option;
  const std::string& latency;
};

// The link between `count` devices: none for one (a link given with it is a slip, a forgotten --tp, not a
// setting); for more, a catalog link (per direction, duplex, latency) or a rate, as `hml offload --link` reads
// it, with its latency where given.
hml::link link_between(machine_files& files, const link_options& o) {
  const std::string devices_option{o.devices_option};
  if (o.count <= 1) {
    if (o.link.empty() && o.latency.empty()) return {};
    throw input_error(std::string{o.link.empty() ? o.latency_option : o.link_option} + ": the link between " +
                      std::string{o.devices} + "; give " + devices_option + " 2 or more with it");
  }
  if (o.link.empty()) {
    throw input_error(std::string{o.link_option} + ": " + devices_option + " above 1 needs the link, e.g. " +
                      std::string{o.link_option} + (devices_option == "--tp" ? " nvlink4" : " 50GB/s"));
  }
  hml::link l = files.link(o.link_option, o.link);
  if (!o.latency.empty()) {
    l.latency = quantity_of<hml::duration>(o.latency_option, o.latency);
    check_option(o.latency_option, [&] { hml::validate_link_latency(l.latency); });
  }
  return l;
}

}  // namespace

hml::inference_options llm::inference_of(const llm_options& o, const hml::transformer& t, machine_files& files) {
  hml::inference_options i{};
  i.types = {precision_of_option("--weights", o.weights), precision_of_option("--activations", o.activations),
             precision_of_option("--kv", o.kv), o.weight_group};
  check_option("--weight-group", [&] { hml::validate_weight_group(t, i); });
  i.attention = o.attention == "unfused" ? hml::attention_kernel::unfused : hml::attention_kernel::fused;
  i.tensor_parallel = o.tp;
  i.link = link_between(files, {"--tp", "tensor-parallel devices", o.tp, "--link", o.link, "--link-latency", o.link_latency});
  i.pipeline = {.stages = o.pp, .micro_batches = o.micro_batches};
  i.pipeline.link =
      link_between(files, {"--pp", "pipeline stages", o.pp, "--pp-link", o.pp_link, "--pp-link-latency", o.pp_link_latency});
  if (o.pp <= 1 && o.micro_batches > 0)
    throw input_error("--micro-batches: a pipeline step's micro-batches; give --pp 2 or more with it");
  i.achieved = {o.efficiency_compute, o.efficiency_memory};
  i.estimate = llm::estimate_of(o);
  check_option("--efficiency-compute, --efficiency-memory", [&] { hml::validate(i.achieved); });
  i.memory = {.kv_block_tokens = o.kv_block, .memory_utilization = o.memory_utilization};
  check_option("--memory-utilization", [&] { hml::validate(i.memory); });  // --kv-block's range: its validator
  if (o.pp > t.layers) {
    throw input_error("--pp: " + std::to_string(o.pp) + " stages for " + std::to_string(t.layers) +
                      " layers; a stage holds at least one layer");
  }
  check_option("--tp", [&] { hml::validate(t, i); });
  return i;
}

void llm::check_generation(const hml::transformer& t, const hml::generation& g) {
  check_option("--batch, --prompt, --generate", [&] {
    hml::expects(g.batch > 0 && g.prompt > 0 && g.generate > 0, "hml: must each be >= 1");
    hml::validate_counts(t, g.batch, g.prompt, g.prompt + g.generate);
    hml::validate_context(t, g.prompt + g.generate);
  });
}

hml::batching_limits llm::batching_limits_of(const run_options& o) {
  constexpr hml::batching_limits defaults{};
  return {.max_batch = o.max_batch.value_or(defaults.max_batch), .max_tokens = o.max_tokens.value_or(defaults.max_tokens)};
}

std::optional<hml::continuous_batching_result> llm::continuous_run(const run_options& o, const hml::transformer& t,
                                                                   const hml::machine_description& d,
                                                                   const hml::inference_options& i,
                                                                   const batching_names& names) {
  if (!o.requests) return std::nullopt;
  const hml::batching_limits limits = batching_limits_of(o);
  const auto listed = [](std::initializer_list<std::string_view> parts) {
    std::string text;
    for (const std::string_view part : parts) {
      if (!part.empty()) text += (text.empty() ? "" : ", ") + std::string{part};
    }
    return text;
  };
  // A limit the user left at its default is not theirs to blame, but its value is said.
  const std::string_view max_batch = o.max_batch ? names.max_batch : std::string_view{};
  const std::string_view max_tokens = o.max_tokens ? names.max_tokens : std::string_view{};
  const std::string lengths = listed({names.prompt, names.generate});
  if (o.prompt > limits.max_tokens) {  // the scheduler admits a prompt whole, so one step must hold it
    throw input_error(listed({names.prompt, max_tokens}) + ": a prompt of " + std::to_string(o.prompt) +
                      " tokens is longer than a step's " + std::to_string(limits.max_tokens) + " max tokens" +
                      (o.max_tokens ? "" : " (the default)") +
                      "; this scheduler does not chunk a prompt: give a shorter prompt or " + std::string{names.max_tokens} +
                      " " + std::to_string(o.prompt) + " or more");
  }
  // A sequence too long for the memory is the lengths' fault, said before any step is run.
  const std::uint64_t longest = o.prompt + o.generate;
  check_option(lengths, [&] { hml::validate_context(t, longest); });
  if (hml::main_memory(d).capacity.published() && hml::largest_batch(t, longest, d, i) == 0) {
    if (hml::largest_batch(t, 1, d, i) == 0)  // not even a token's cache beside the weights: the model's fault
      throw input_error(std::string{names.requests} + ": the model does not fit in the memory of " + std::string{d.name} +
                        " even for one sequence; split it over devices (--tp) or take a larger machine");
    throw input_error(lengths + ": one sequence of " + std::to_string(longest) + " tokens does not fit in the memory of " +
                      std::string{d.name} + "; give shorter ones");
  }
  const hml::request_class mix[] = {{*o.requests, o.prompt, o.generate}};
  return check_option(listed({names.requests, max_batch, max_tokens}),
                      [&] { return hml::continuous_batching(t, mix, limits, d, i); });
}

void llm::add_estimate(hml::table& summary, hml::estimate e) {
  summary.columns.emplace_back("estimate");
  summary.rows.back().emplace_back(std::string{e == hml::estimate::bound ? "bound" : "expected"});
}

std::string llm::estimate_text(const hml::machine_description& d, const hml::inference_options& i) {
  if (i.estimate == hml::estimate::bound) return "ideal bound (--bound)";
  // Tiles are a GPU's: a product on tensor units, over the machine's SMs.
  const bool tensor_units = std::ranges::any_of(
      d.compute, [](const hml::ceiling_description& c) { return c.unit == hml::compute_unit::tensor; });
  const std::string tiles = !tensor_units ? std::string{"no tensor units, no tiles"}
                            : d.cores > 0 ? std::to_string(hml::tile_rows) + " x " + std::to_string(hml::tile_columns) +
                                                " tiles, K split past " + std::to_string(hml::split_depth) +
                                                ", in waves over " + std::to_string(d.cores) + " SMs"
                                          : std::string{"no SM count, no tiles"};
  const std::string overhead = d.kernel_overhead.published() ? text(d.kernel_overhead.value) + " a kernel"
                                                             : std::string{"no kernel overhead published"};
  return "expected (" + tiles + ", " + overhead + "; --bound for the ideal bound)";
}

void llm::check_precisions(const hml::transformer& t, const hml::generation& g, const hml::machine_description& d,
                           const hml::inference_options& i) {
  for (const hml::step_shape& s : {hml::prefill_step(g.batch, g.prompt), hml::decode_step(g.batch, g.prompt + 1)}) {
    for (const hml::operator_cost& op : hml::step_operators(t, s, i)) {
      if (op.flops.value() == 0 || hml::peak(d, op.compute).published()) continue;
      std::string has;
      for (const hml::compute_kind& k : hml::published_kinds(d)) has += (has.empty() ? "" : ", ") + std::string{to_string(k)};
      throw input_error("--weights, --activations: " + std::string{d.name} + " publishes no " +
                        std::string{to_string(op.compute)} + " peak (for the " + std::string{op.name} +
                        "); it has " + has);
    }
  }
}

namespace {

const std::vector<std::string> table_columns{"operator", "FLOP", "read", "written", "intensity", "bound", "time", "share"};
const std::vector<std::string> csv_columns{"phase",         "operator",      "flops",         "bytes_read",
                                           "bytes_written", "intensity",     "bound",         "compute_time_s",
                                           "memory_time_s", "link_time_s",   "overhead_s",    "time_s",
                                           "share"};

void add_rows(hml::table& table, std::string_view phase, const hml::step_analysis& s, bool human) {
  for (const hml::operator_time& op : s.operators) {
    if (human) {
      table.add_row({std::string{op.op.name}, text(op.op.flops), text(op.op.bytes_read()), text(op.op.bytes_written()),
                     text(op.intensity), std::string{to_string(op.bound)}, text(op.time), percent(s.share(op))});
    } else {
      table.add_row({std::string{phase}, std::string{op.op.name}, op.op.flops.value(), op.op.bytes_read().value(),
                     op.op.bytes_written().value(), op.intensity.value(), std::string{to_string(op.bound)},
                     op.compute_time.value(), op.memory_time.value(), op.link_time.value(), op.overhead.value(),
                     op.time.value(), s.share(op)});
    }
  }
  // A pipeline's stage waits for the others and for the hand-offs: a row of time without FLOP or bytes.
  if (s.pipeline_wait.value() > 0 && human) {
    table.add_row({std::string{"pipeline wait"}, std::string{}, std::string{}, std::string{}, std::string{}, std::string{},
                   text(s.pipeline_wait), percent(s.pipeline_wait / s.time.value)});
  } else if (s.pipeline_wait.value() > 0) {
    table.add_row({std::string{phase}, std::string{"pipeline wait"}, 0.0, 0.0, 0.0, hml::no_value{}, hml::no_value{}, 0.0, 0.0,
                   0.0, 0.0, s.pipeline_wait.value(), s.pipeline_wait / s.time.value});
  }
  if (human) {
    table.add_row({std::string{"total"}, text(s.flops), text(s.bytes), std::string{}, std::string{},
                   std::string{to_string(s.bound())}, text(s.time.value), hml::percent_text(100)});
  } else {
    table.add_row({std::string{phase}, std::string{"total"}, s.flops.value(), s.bytes.value(), hml::no_value{},
                   hml::no_value{}, std::string{to_string(s.bound())}, s.compute_time.value(), s.memory_time.value(),
                   s.link_time.value(), s.overhead.value(), s.time.value.value(), 1.0});
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
         std::to_string(count) + (count == 1 ? " micro-batch" : " micro-batches") + " of " +
         (largest * count == batch ? std::to_string(largest) : "up to " + std::to_string(largest)) +
         (largest == 1 ? " sequence" : " sequences") + " a step; hand-offs at " + quantity_text(p.link.bandwidth.rate) +
         " per direction, " + text(p.link.latency) + " latency\n";
}

// The run's first lines: the model and machine, what is run, the precisions and efficiencies, and the memory
// per device (`memory`, at `context` tokens) against its capacity.
std::string heading(const llm_options& o, const hml::transformer& t, const hml::machine_description& d,
                    const hml::inference_options& i, const std::string& what, std::uint64_t context,
                    const hml::memory_use& memory) {
  const auto precision = [](hml::precision p) { return std::string{hml::to_string(p)}; };
  const bool capacity_known = hml::main_memory(d).capacity.published();
  const unsigned devices = i.tensor_parallel * i.pipeline.stages;
  return model_title(o, t) + " (" + number(static_cast<double>(hml::parameters(t)) / 1e9) + " B parameters) on " +
         std::string{d.name} + (devices > 1 ? " x " + std::to_string(devices) : "") + ": batch " +
         std::to_string(o.batch) + ", " + what + "\n" + pipeline_line(t, i, o.batch) + "precisions: weights " + precision(i.types.weights) +
         (i.types.weight_group > 0 ? " in groups of " + std::to_string(i.types.weight_group) : "") +
         ", activations " + precision(i.types.activations) + ", KV cache " + precision(i.types.kv_cache) +
         "; efficiency: compute " + percent(i.achieved.compute) + ", memory " + percent(i.achieved.memory) + "\n" +
         "time: " + llm::estimate_text(d, i) + "\n" +
         "memory per device: weights " + text(memory.weights) + " + KV cache" +
         (i.memory.kv_block_tokens > 0 ? " (blocks of " + std::to_string(i.memory.kv_block_tokens) + " tokens)" : "") +
         " " + text(memory.kv_cache) + " + activations " + text(memory.activations) + " = " + text(memory.total()) +
         (capacity_known ? " of " + memory_limit(d, i) + (hml::fits(t, o.batch, context, d, i) ? " (fits; " : " (does NOT fit; ") +
                               std::to_string(hml::largest_batch(t, context, d, i)) + " sequences of " +
                               std::to_string(context) + " tokens at most)"
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
  if (!o.acceptance) throw input_error("--acceptance: --draft needs the share of its tokens the target accepts, e.g. 0.8");
  const hml::transformer& draft = check_option("--draft", [&]() -> const hml::transformer& { return hml::model_named(o.draft); });
  if (draft.vocab != t.vocab)
    throw input_error("--draft: " + o.draft + " has a vocabulary of " + std::to_string(draft.vocab) + " tokens, the model " +
                      std::to_string(t.vocab) + ": a draft shares its target's");
  check_option("--acceptance", [&] { (void)hml::expected_tokens_per_step(*o.acceptance, o.lookahead); });
  check_option("--draft", [&] { hml::validate(draft, i); });
  return check_option("--draft, --lookahead", [&] {
    return hml::speculative_decoding(t, draft, o.batch, context, o.lookahead, *o.acceptance, d, i);
  });
}

std::string speculation_line(const llm_options& o, const std::optional<hml::speculative_step>& s) {
  if (!s) return {};
  return "speculative decoding (draft " + o.draft + ", " + std::to_string(o.lookahead) + " tokens ahead, acceptance " +
         number(*o.acceptance) + "): " + number(s->tokens_per_step) + " tokens a step; draft " + text(s->draft.value) +
         " + verify " + text(s->verify.value) + " = " + text(s->total().value) + " a step; " + text(s->per_output_token.value) +
         " per output token, " + number(s->speedup(), 3) + "x plain decode's " + text(s->plain.value) + "\n";
}

// Where decode at `context` turns compute-bound, if it does.
std::string ridge_line(const hml::transformer& t, const hml::machine_description& d, const hml::inference_options& i,
                       std::uint64_t context) {
  const hml::decode_ridge ridge = hml::ridge_batch(t, context, d, i);
  const std::string at = " at context " + std::to_string(context);
  return ridge.reached()
             ? "decode turns compute-bound at batch " + number(ridge.batch()) + at + " (at the ideal bound)\n"
             : "decode never turns compute-bound" + at + ": each sequence's KV cache takes longer to read than its FLOP\n";
}

// A number of the JSON summary, or null where there is none.
hml::cell number_or_none(bool known, double x) { return known ? hml::cell{x} : hml::cell{hml::no_value{}}; }

// The memory the run may take in bytes (the capacity times --memory-utilization), and the most sequences of
// `context` tokens that fit in it; null where the device publishes no capacity.
hml::cell capacity_cell(const hml::machine_description& d) {
  const bool known = hml::main_memory(d).capacity.published();
  return number_or_none(known, known ? hml::capacity_of(d).value() : 0.0);
}
hml::cell largest_batch_cell(const hml::transformer& t, std::uint64_t context, const hml::machine_description& d,
                             const hml::inference_options& i) {
  const bool known = hml::main_memory(d).capacity.published();
  return number_or_none(known, known ? static_cast<double>(hml::largest_batch(t, context, d, i)) : 0.0);
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
         text(b->end_to_end.value) + ", output " + llm::token_rate_text(b->output_throughput.per_second) + " tokens/s\n";
}

// With --draft, the summary's speculative-decoding figures at the first decode step.
void add_speculation(hml::table& summary, const std::optional<hml::speculative_step>& s) {
  if (!s) return;
  for (const char* name : {"speculative_tokens_per_step", "speculative_time_per_output_token_s", "speculative_speedup"})
    summary.columns.emplace_back(name);
  summary.rows.back().insert(summary.rows.back().end(),
                             {hml::cell{s->tokens_per_step}, hml::cell{s->per_output_token.value.value()}, hml::cell{s->speedup()}});
}

std::string continuous_line(const llm_options& o, const std::optional<hml::continuous_batching_result>& c) {
  if (!c) return {};
  return "continuous batching of " + std::to_string(c->requests) + " requests (room for " + std::to_string(c->concurrency) +
         " at once, set by " + std::string{hml::to_string(c->limited_by)} + "; max batch " +
         std::to_string(llm::batching_limits_of(o).max_batch) + ", max tokens " +
         std::to_string(llm::batching_limits_of(o).max_tokens) + "): on average TTFT " + text(c->mean_time_to_first_token.value) +
         (o.generate > 1 ? ", TPOT " + text(c->mean_time_per_output_token.value) : std::string{}) + ", end-to-end " +
         text(c->mean_end_to_end.value) + "; output " + llm::token_rate_text(c->output_throughput.per_second) + " tokens/s over " +
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
  if (o.output.format != "table" && o.output.format != "csv") {
    throw input_error("--as-kernels, --format: the kernels are written as the CSV that hml roofline and hml chart "
                      "read; give no --format (or csv)");
  }
  hml::table kernels{{"name", "flops", "memory_bytes"}, {}};
  for (const hml::operator_time& op : step.operators) {
    if (op.op.bytes().value() > 0) kernels.add_row({std::string{op.op.name}, op.op.flops.value(), op.op.bytes().value()});
  }
  emit(o.output, hml::to_csv(kernels));
}

// --context N: one decode step of the batch over N tokens each (the N-th token's step: its attention reads
// N tokens of cache), the question "how fast is decode at this length" without a prefill to run first.
void run_decode_step(const llm_options& o, const hml::transformer& t, const hml::machine_description& d,
                     const hml::inference_options& i) {
  const std::uint64_t n = *o.context;
  check_option("--batch, --context", [&] {
    hml::validate_counts(t, o.batch, 1, n);
    hml::validate_context(t, n);
  });
  llm::check_precisions(t, {o.batch, 1, 1}, d, i);
  const hml::step_analysis step = hml::analyze_step(t, hml::decode_step(o.batch, n), d, i);
  if (!o.as_kernels.empty()) {
    if (o.as_kernels != "decode") throw input_error("--as-kernels, --context: --context runs one decode step; give --as-kernels decode");
    emit_as_kernels(o, step);
    return;
  }
  // Every request makes one token a step: the step's time is each request's time per output token.
  const hml::time_per_token each = hml::per_token(step.time, hml::tokens{1});
  const hml::token_rate rate = hml::throughput(step.time, step.produced());
  const hml::memory_use memory = hml::memory_needed(t, o.batch, n, i);
  const std::optional<hml::speculative_step> speculative = speculation(o, t, d, i, n);
  std::optional<hml::step_analysis> bound;
  if (const auto at_bound = bound_beside(i)) bound = hml::analyze_step(t, hml::decode_step(o.batch, n), d, *at_bound);
  const output_format format = o.output.chosen();
  if (format != output_format::table) {
    hml::table table{csv_columns, {}};
    add_rows(table, "decode", step, false);
    hml::table summary{{"time_per_output_token_s", "output_tokens_per_s", "memory_per_device_B", "memory_capacity_B",
                        "largest_batch"},
                       {}};
    summary.add_row({each.value.value(), rate.per_second, memory.total().value(), capacity_cell(d), largest_batch_cell(t, n, d, i)});
    llm::add_estimate(summary, i.estimate);
    if (bound) {
      summary.columns.insert(summary.columns.end(), {"bound_time_per_output_token_s", "bound_output_tokens_per_s"});
      summary.rows.back().insert(summary.rows.back().end(),
                                 {bound->time.value.value(), hml::throughput(bound->time, bound->produced()).per_second});
    }
    add_speculation(summary, speculative);
    emit_rows(o.output, format, table, summary);
    return;
  }
  hml::table rows{table_columns, {}};
  add_rows(rows, "decode", step, true);
  emit(o.output, heading(o, t, d, i, "one decode step at context " + std::to_string(n), n, memory) + "decode step (batch " +
                     std::to_string(o.batch) + ", context " + std::to_string(n) + "):\n" + hml::format_table(rows) +
                     "\n" + "time per output token (each request's; the step): " + text(each.value) + ", output " +
                     llm::token_rate_text(rate.per_second) + " tokens/s\n" +
                     (bound ? "ideal bound (--bound): " + text(bound->time.value) + ", output " +
                                  llm::token_rate_text(hml::throughput(bound->time, bound->produced()).per_second) +
                                  " tokens/s\n"
                            : std::string{}) +
                     speculation_line(o, speculative) + ridge_line(t, d, i, n));
}

void run(const llm_options& o) {
  if (!o.compare.empty()) {
    llm::run_compare(o);
    return;
  }
  if (o.device.empty()) throw input_error("--machine: missing; give --machine NAME|FILE, or --compare FILE (see `hml llm --help`)");
  machine_files files;
  files.use(figures_basis(o.figures));
  const hml::machine_description& d = files.machine("--machine", o.device);
  const hml::transformer t = llm::model_of(o);
  const hml::inference_options i = llm::inference_of(o, t, files);
  if (o.context) {
    run_decode_step(o, t, d, i);
    return;
  }
  const hml::generation g{o.batch, o.prompt, o.generate};
  llm::check_generation(t, g);
  llm::check_precisions(t, g, d, i);

  const hml::step_analysis prefill = hml::analyze_step(t, hml::prefill_step(g.batch, g.prompt), d, i);
  const hml::step_analysis decode = hml::analyze_step(t, hml::decode_step(g.batch, g.prompt + 1), d, i);
  if (!o.as_kernels.empty()) {
    emit_as_kernels(o, o.as_kernels == "prefill" ? prefill : decode);
    return;
  }
  // Continuous batching first: its checks refuse a run at once that the generation below would take
  // seconds to analyse (a million tokens) before them.
  const std::optional<hml::continuous_batching_result> continuous = llm::continuous_run(o, t, d, i);
  const hml::generation_analysis run = hml::analyze_generation(t, g, d, i);
  const std::uint64_t context = g.prompt + g.generate;
  const hml::memory_use memory = hml::memory_needed(t, g.batch, context, i);
  const hml::serving_figures serving = hml::serving(run, g);
  const std::optional<hml::speculative_step> speculative = speculation(o, t, d, i, g.prompt + 1);
  const std::optional<hml::chunked_prefill_time> chunked =
      o.chunk ? std::optional{hml::chunked_prefill(t, g.batch, g.prompt, *o.chunk, d, i)} : std::nullopt;
  std::optional<hml::serving_figures> bound;
  if (const auto at_bound = bound_beside(i)) bound = hml::serving(hml::analyze_generation(t, g, d, *at_bound), g);
  const output_format format = o.output.chosen();
  if (format != output_format::table) {
    hml::table table{csv_columns, {}};
    add_rows(table, "prefill", prefill, false);
    add_rows(table, "decode", decode, false);
    // The serving figures and the memory (JSON only; the CSV is the rows alone).
    hml::table summary{{"time_to_first_token_s", "time_per_output_token_s", "end_to_end_latency_s",
                        "output_tokens_per_s", "memory_per_device_B", "memory_capacity_B", "largest_batch"},
                       {}};
    summary.add_row({serving.time_to_first_token.value.value(),
                     number_or_none(g.generate > 1, serving.time_per_output_token.value.value()),
                     serving.end_to_end.value.value(), serving.output_throughput.per_second, memory.total().value(),
                     capacity_cell(d), largest_batch_cell(t, context, d, i)});
    if (chunked) {
      summary.columns.emplace_back("chunked_time_to_first_token_s");
      summary.rows.back().emplace_back(chunked->time.value.value());
    }
    llm::add_estimate(summary, i.estimate);
    add_bound(summary, bound, g.generate > 1);
    add_speculation(summary, speculative);
    add_continuous(summary, continuous);
    emit_rows(o.output, format, table, summary);
    return;
  }
  hml::table prefill_table{table_columns, {}};
  hml::table decode_table{table_columns, {}};
  add_rows(prefill_table, "prefill", prefill, true);
  add_rows(decode_table, "decode", decode, true);
  std::string out = heading(o, t, d, i, "prompt " + std::to_string(g.prompt) + ", generate " + std::to_string(g.generate),
                            context, memory) +
                    "prefill (" + std::to_string(g.batch) + " x " + std::to_string(g.prompt) + " tokens):\n" +
                    hml::format_table(prefill_table) + "\n" + "decode step (batch " + std::to_string(g.batch) +
                    ", context " + std::to_string(g.prompt + 1) + "):\n" + hml::format_table(decode_table) + "\n" +
                    "time to first token: " + text(run.prefill.value) + "\n";
  if (g.generate > 1) {
    out += "decode: " + text(run.decode.value) + " for " + std::to_string(g.generate - 1) + " steps, " +
           text(run.decode_per_token.value) + " per token, " + llm::token_rate_text(run.decode_throughput.per_second) +
           " tokens/s\n";
  }
  out += "total: " + text(run.total.value) + "\n";
  out += "as serving benchmarks report it (vLLM's): TTFT " + text(serving.time_to_first_token.value) +
         (g.generate > 1 ? ", TPOT " + text(serving.time_per_output_token.value) : std::string{}) + ", end-to-end " +
         text(serving.end_to_end.value) + ", output " + llm::token_rate_text(serving.output_throughput.per_second) + " tokens/s\n";
  out += bound_line(bound, g.generate > 1);
  if (chunked) {
    out += "chunked prefill (" + std::to_string(*o.chunk) + " tokens a step): time to first token " + text(chunked->time.value) +
           " in " + std::to_string(chunked->steps) + (chunked->steps == 1 ? " step (" : " steps (") +
           number(chunked->time.value / run.prefill.value, 3) +
           "x the prefill at once)\n";
  }
  out += speculation_line(o, speculative);
  out += continuous_line(o, continuous);
  out += ridge_line(t, d, i, g.prompt + 1);
  if (i.tensor_parallel > 1) {
    const auto rate = [](hml::data_rate r) {
      return r.value() == __builtin_inf() ? std::string{"any bandwidth (its latencies alone exceed the step)"}
                                          : hml::to_string(r, {.number = hml::general(4),
                                                               .prefixes = hml::prefix_system::decimal});
    };
    out += "link: " + rate(i.link.bandwidth.rate) + " per direction, " + std::string{hml::to_string(i.link.mode)} +
           ", " + text(i.link.latency) + " a message\n";
    out += "the link binds the prefill below " + rate(hml::binding_link_bandwidth(prefill, i)) +
           ", a decode step below " + rate(hml::binding_link_bandwidth(decode, i)) + "\n";
  }
  emit(o.output, out);
}

}  // namespace

void add_llm_command(CLI::App& hml) {
  auto* command = hml.add_subcommand("llm", "transformer inference on a device: prefill, decode, memory, ridge batch");
  std::string models;
  for (const hml::transformer* m : hml::models::all) models += (models.empty() ? "" : ", ") + std::string{m->name};
  command->footer(
      "Models: " + models +
      " (or --layers --hidden --ffn --heads --vocab [--kv-heads --head-dim --experts --active-experts]).\n"
      "Precisions: fp32, bf16, fp16, fp8, int8, int4, nvfp4, mxfp4 (4-bit floats with a scale a block of 16 or 32).\n"
      "The compute ceiling of each operator follows its precision; "
      "a device without that peak is an error. Conventions: docs/explanation/transformer-conventions.md.\n"
      "Example: hml llm --model llama-2-7b --machine a100_sxm_80gb --batch 1 --prompt 512 --generate 32\n"
      "         hml llm --model llama-2-70b --machine h100_sxm --weights int4 --kv fp8 --tp 2 "
      "--link nvlink4 --efficiency-memory 0.8 --format csv\n"
      "         hml llm --model llama-3-8b --machine h100_sxm --batch 64 --context 8192\n"
      "         hml llm --model llama-3-8b --machine h100_sxm --batch 64 --as-kernels decode | "
      "hml chart --machine h100_sxm --precision fp16 --ops - -o decode.svg");
  auto o = std::make_shared<llm_options>();
  command->add_option("--model", o->model, "a preset model (see below)")->type_name("NAME");
  command->add_option("--machine,--device", o->device,
                      std::string{machine_help} + "; --device is its name before 0.9, kept for one release")
      ->type_name("NAME|FILE");
  add_figures_option(*command, o->figures);
  const CLI::Validator count = whole_number(1, 1'000'000'000);
  command->add_option("--batch", o->batch, "sequences in a batch")->check(count)->capture_default_str();
  CLI::Option* prompt =
      command->add_option("--prompt", o->prompt, "prompt tokens per sequence")->check(count)->capture_default_str();
  CLI::Option* generate = command->add_option("--generate", o->generate, "tokens generated per sequence")
                              ->check(whole_number(1, 1'000'000))
                              ->capture_default_str();
  command->add_option("--context", o->context,
                      "one decode step over this many tokens per sequence, instead of --prompt and --generate")
      ->check(whole_number(1, 1'000'000'000))
      ->excludes(prompt)
      ->excludes(generate);
  command->add_option("--weights", o->weights, "precision of the weights")->capture_default_str();
  command->add_option("--activations", o->activations, "precision of the activations")->capture_default_str();
  command->add_option("--kv", o->kv, "precision of the KV cache")->capture_default_str();
  command->add_option("--weight-group", o->weight_group,
                      "INT8 or INT4 weights in groups of this many sharing a 16-bit scale and zero point; a group "
                      "divides every projection's rows (gpt-fast's int4: 32 to 256; AWQ, GPTQ: 128)")
      ->check(whole_number(2, hml::max_weight_group));
  command->add_option("--attention", o->attention, "prefill attention kernel: fused or unfused")
      ->check(CLI::IsMember({"fused", "unfused"}))
      ->capture_default_str();
  command->add_option("--tp", o->tp, "tensor-parallel devices")->check(whole_number(1, 4096))->capture_default_str();
  command->add_option("--link", o->link,
                      "the link between the --tp devices: pcie3x16 ... pcie6x16, nvlink3/4/5, c2c, cxl2x8 ..., "
                      "or a rate per direction")
      ->type_name("LINK");
  command->add_option("--link-latency", o->link_latency,
                      "latency of one message on the link, e.g. 5us (default: the catalog link's, else 0 s)")
      ->type_name("TIME");
  command->add_option("--pp", o->pp, "pipeline stages: the layers split over this many devices (each --tp devices)")
      ->check(whole_number(1, hml::max_pipeline_stages))
      ->capture_default_str();
  command->add_option("--micro-batches", o->micro_batches,
                      "micro-batches a pipeline step runs (default: one a stage, as vLLM; at most the batch's sequences)")
      ->check(whole_number(1, hml::max_micro_batches));
  command->add_option("--pp-link", o->pp_link, "the link between pipeline stages: a catalog link or a rate per direction")
      ->type_name("LINK");
  command->add_option("--pp-link-latency", o->pp_link_latency,
                      "latency of a hand-off between stages, e.g. 5us (default: the catalog link's, else 0 s)")
      ->type_name("TIME");
  command->add_option("--efficiency-compute", o->efficiency_compute, "achieved share of peak compute, (0, 1]")
      ->capture_default_str();
  command->add_option("--efficiency-memory", o->efficiency_memory, "achieved share of bandwidth, (0, 1]")
      ->capture_default_str();
  command->add_flag("--bound", o->bound,
                    "the ideal bound: every operator at its roofline (default: the expected time, matrix products "
                    "in tiles over the SMs and a kernel overhead each, from the machine's figures)");
  command->add_option("--chunk", o->chunk, "chunked prefill: prompt tokens a step (the time to first token in chunks, beside the plain one)")
      ->check(whole_number(1, std::uint64_t{1} << 30))
      ->excludes("--context");
  CLI::Option* draft =
      command->add_option("--draft", o->draft, "speculative decoding: a preset draft model that shares the model's vocabulary")
          ->type_name("NAME");
  command->add_option("--lookahead", o->lookahead, "tokens the draft proposes a step")
      ->check(whole_number(1, 64))
      ->needs(draft)
      ->capture_default_str();
  command->add_option("--acceptance", o->acceptance, "the share of drafted tokens the model accepts, [0, 1]");
  command->add_option("--kv-block", o->kv_block,
                      "paged KV cache: tokens a block, a sequence taking whole blocks (vLLM's default: 16; 0: contiguous)")
      ->check(whole_number(0, std::uint64_t{1} << 20))
      ->capture_default_str();
  command->add_option("--memory-utilization", o->memory_utilization,
                      "share of the device's memory the run may take, (0, 1] (vLLM's gpu_memory_utilization: 0.9)")
      ->capture_default_str();
  command->add_option("--layers", o->layers, "layers")->check(count);
  command->add_option("--hidden", o->hidden, "hidden size")->check(count);
  command->add_option("--ffn", o->ffn, "MLP intermediate size")->check(count);
  command->add_option("--heads", o->heads, "attention heads")->check(count);
  command->add_option("--kv-heads", o->kv_heads, "key-value heads (default: --heads)")->check(count);
  command->add_option("--head-dim", o->head_dim, "head dimension (default: hidden / heads)")->check(count);
  command->add_option("--vocab", o->vocab, "vocabulary size")->check(count);
  command->add_flag("--no-gated", o->no_gated, "a plain (GELU) MLP instead of SwiGLU");
  command->add_flag("--biases", o->biases, "a bias on every projection (GPT-2, OPT)");
  command->add_flag("--qkv-biases", o->qkv_biases, "a bias on the Q, K and V projections alone (Qwen2)");
  command->add_flag("--tied-embeddings", o->tied_embeddings, "the LM head shares the embedding's weights");
  command->add_option("--norm", o->norm, "the norms: rms (RMSNorm) or layer (LayerNorm, gain and bias)")
      ->check(CLI::IsMember({"rms", "layer"}));
  command->add_option("--learned-positions", o->learned_positions,
                      "a learned position table of this many positions instead of rotary embeddings (GPT-2: 1024)")
      ->check(whole_number(1, 1'000'000'000));
  command->add_option("--experts", o->experts, "MLP experts per layer (mixture of experts; default 1: dense)")->check(count);
  command->add_option("--active-experts", o->active_experts, "experts each token runs (default 1)")->check(count);
  command->add_option("--as-kernels", o->as_kernels,
                      "write the operators of this phase (prefill or decode) as a kernels CSV for `hml chart --ops`")
      ->check(CLI::IsMember({"prefill", "decode"}))
      ->type_name("PHASE");
  CLI::Option* requests =
      command->add_option("--requests", o->requests,
                          "continuous batching: this many requests of --prompt and --generate tokens, all queued at once")
          ->check(whole_number(1, 1'000'000'000))
          ->excludes("--context");
  command->add_option("--max-batch", o->max_batch, "continuous batching: sequences running at once at most (vLLM's max_num_seqs)")
      ->check(whole_number(1, 1'000'000'000))
      ->needs(requests)
      ->default_str(std::to_string(hml::batching_limits{}.max_batch));
  command->add_option("--max-tokens", o->max_tokens, "continuous batching: tokens a step at most (TensorRT-LLM's max_num_tokens)")
      ->check(whole_number(1, 1'000'000'000))
      ->needs(requests)
      ->default_str(std::to_string(hml::batching_limits{}.max_tokens));
  CLI::Option* compare =
      command->add_option("--compare", o->compare,
                          "predict each run of a CSV of measured runs (examples/llm/measured-runs.csv) beside its "
                          "measurements, with the errors")
          ->type_name("FILE");
  // A file of runs gives each run's model, machine, sizes, precisions and parallelism: the options of one run
  // beside it would be ignored, so they are refused. The efficiencies, figures and memory policy apply to all.
  std::vector<const CLI::Option*> one_run;
  for (const CLI::Option* option : command->get_options()) {
    const std::string name = option->get_name();
    const bool for_every_run = name == "--compare" || name == "--help" || name == "--figures" || name == "--attention" ||
                               name.starts_with("--efficiency") || name == "--kv-block" || name == "--memory-utilization" ||
                               name == "--bound";
    if (!for_every_run) one_run.push_back(option);
  }
  // --as-kernels writes a step's operators, their FLOP and bytes: what only sets the time, the memory or the
  // run around that step would be ignored, so it is refused.
  std::vector<const CLI::Option*> beside_kernels;
  for (const char* name : {"--generate", "--figures", "--efficiency-compute", "--efficiency-memory", "--bound", "--chunk",
                           "--draft", "--lookahead", "--acceptance", "--kv-block", "--memory-utilization", "--requests",
                           "--max-batch", "--max-tokens", "--link-latency", "--pp-link-latency"})
    beside_kernels.push_back(command->get_option(name));
  const CLI::Option* as_kernels = command->get_option("--as-kernels");
  add_output_options(*command, o->output);
  command->callback([o, compare, one_run, as_kernels, beside_kernels] {
    for (const CLI::Option* option : one_run) {
      if (compare->count() > 0 && option->count() > 0) {
        throw input_error(option->get_name() + ", --compare: not together; the file gives each run's settings (beside "
                          "--compare: --figures, --efficiency-*, --attention, --kv-block, --memory-utilization, --bound)");
      }
    }
    for (const CLI::Option* option : beside_kernels) {
      if (as_kernels->count() > 0 && option->count() > 0) {
        throw input_error(option->get_name() + ", --as-kernels: not together; the kernels are the step's FLOP and bytes, "
                          "which " + option->get_name() + " does not change");
      }
    }
    run(*o);
  });
}

}  // namespace hml_cli
