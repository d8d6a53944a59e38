// `hml llm`: a transformer's inference on a catalog device: prefill and decode per operator on the roofline,
// the time to first token, the time per token and tokens/s, the ridge batch, and the memory against the
// device's capacity. Every figure comes from hml.transformer. This file reads the options into a run's
// settings (llm_model.cpp: its model and its precisions' checks); llm_run.cpp runs it and prints.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <optional>
#include <stdexcept>
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
using llm::number, llm::percent, llm::text;
}  // namespace

std::string llm::percent(double share) { return hml::percent_text(share * 100, hml::general(3)); }

std::string llm::count_text(double count) {
  return std::string{hml::format_number(count, count >= 1000 ? hml::fixed(0) : hml::general(4)).view()};
}

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
  std::string_view example;  // a link to name where one is missing
  bool a_compared_run = false;  // a run of --compare's file: the link is its `link` column, and no option gives a latency
};

// The link with the latency given for it (none given: its own).
hml::link with_latency_given(hml::link l, std::string_view option, const std::string& latency) {
  if (!latency.empty()) {
    l.latency = quantity_of<hml::duration>(option, latency);
    check_option(option, [&] { hml::validate_link_latency(l.latency); });
    if (!(l.latency < 1 * hml::second))  // as a machine file's link latency
      throw input_error(std::string{option} + ": " + latency + " is 1 s or more; give a message's latency, below 1 s (microseconds, as 2us)");
  }
  return l;
}

// The link between `count` devices: none for one (a link given with it is a slip, a forgotten --tp); for more, a
// catalog link (per direction, duplex, latency) or a rate, as `hml offload --link` reads it, with its latency.
hml::link link_between(machine_files& files, const link_options& o) {
  const std::string devices_option{o.devices_option};
  if (o.count <= 1) {
    if (o.link.empty() && o.latency.empty()) return {};
    throw input_error(std::string{o.link.empty() ? o.latency_option : o.link_option} + ": the link between " +
                      std::string{o.devices} + "; give " + devices_option + " 2 or more with it");
  }
  if (o.link.empty()) {
    throw input_error(std::string{o.link_option} + ": " + devices_option + " above 1 needs the link between the devices; give it, e.g. " +
                      std::string{o.link_option} + " " + std::string{o.example});
  }
  const hml::link l = with_latency_given(files.link(o.link_option, o.link), o.latency_option, o.latency);
  if (l.latency.value() == 0 && o.latency.empty())  // none paid ranked PCIe 4.0 above NVLink 4 at --tp 8
    note((o.a_compared_run ? "link" : std::string{o.link_option}) + ": " + o.link + " publishes no latency: its messages are taken "
         "at 0 s, where a link that publishes one pays it (nvlink4: 1.93 us a message); give " +
         (o.a_compared_run ? "the link a latency in a machine file (its links' `latency`)" : std::string{o.latency_option}) + " to weigh them alike");
  return l;
}

// How the --tp devices all-reduce (none given: ring); what NCCL does not run inside a node, or NVLS where no
// figure holds, is refused. The name is checked here too: a runs file's all_reduce column is not an option.
hml::all_reduce_algorithm all_reduce_of(const llm_options& o) {
  if (o.all_reduce.empty()) return hml::all_reduce_algorithm::ring;
  if (o.all_reduce == "tree") {
    throw input_error("--all-reduce: NCCL runs no tree inside a node (it chains the devices; NVIDIA/nccl issue 1103), "
                      "and --link joins the devices of one node: give ring, nvls or one-shot");
  }
  const auto* named = std::ranges::find(hml::all_reduce_algorithms, std::string_view{o.all_reduce},
                                        [](hml::all_reduce_algorithm a) { return hml::to_string(a); });
  if (named == std::ranges::end(hml::all_reduce_algorithms)) {
    throw input_error("--all-reduce: \"" + hml::message_text(o.all_reduce.substr(0, 64)) + "\" is not an algorithm; give ring, nvls or one-shot");
  }
  if (o.tp <= 1) throw input_error("--all-reduce: how the tensor-parallel devices all-reduce; give --tp 2 or more with it");
  if (*named != hml::all_reduce_algorithm::nvls) return *named;
  if (o.tp != hml::nvls_devices) {
    // Below 8, what is known is that NVLS gains nothing on 2 to 4 H100s; past 8 nothing is measured.
    throw input_error("--all-reduce, --tp: NVLS is measured on " + std::to_string(hml::nvls_devices) + " devices (--tp " +
                      std::to_string(hml::nvls_devices) + ") alone; " +
                      (o.tp <= 4 ? "on 2 to 4 H100s it runs about as fast as the ring (NVIDIA/nccl issue 1455)"
                                 : "no figure is measured on " + std::to_string(o.tp)) +
                      ": give --all-reduce ring");
  }
  return hml::all_reduce_algorithm::nvls;
}

// A mixture of experts over the --tp devices: its experts whole with --ep, attention data-parallel with
// --dp-attention.
hml::parallel_experts parallel_experts_of(const llm_options& o, const hml::transformer& t) {
  if (o.ep) {
    if (o.tp <= 1) throw input_error("--ep: spreads the experts over the --tp devices; give --tp 2 or more with it");
    if (t.experts <= 1)
      throw input_error("--ep: " + std::string{t.name} + " is dense: expert parallelism spreads a mixture of experts' experts; leave --ep out");
    if (t.experts % o.tp != 0) {
      std::vector<std::uint64_t> divisors;  // the device counts past one that take whole experts
      for (std::uint64_t n = 2; n <= std::min<std::uint64_t>(t.experts, llm::most_tensor_parallel) && divisors.size() < 13; ++n)
        if (t.experts % n == 0) divisors.push_back(n);
      throw input_error("--ep, --tp: " + std::to_string(t.experts) + " experts do not divide over " + std::to_string(o.tp) +
                        " devices; give a --tp that divides them" + (divisors.size() <= 12 ? ": " + one_of(divisors) : std::string{}));
    }
  }
  if (!o.dp_attention) return {.expert_parallel = o.ep};
  if (o.tp <= 1) throw input_error("--dp-attention: spreads the sequences over the --tp devices; give --tp 2 or more with it");
  if (t.experts <= 1)
    throw input_error("--dp-attention: " + std::string{t.name} +
                      " is dense: data-parallel attention serves a mixture of experts; leave --dp-attention out (a dense model runs replicas)");
  if (o.pp > 1) throw input_error("--dp-attention, --pp: data-parallel attention is not modelled with pipeline stages; leave one of them "
                    "out");
  if (!o.all_reduce.empty())
    throw input_error("--all-reduce: data-parallel attention gathers and scatters the experts' tokens by ring (NCCL's "
                      "all-gather and reduce-scatter) and all-reduces nothing; leave --all-reduce out");
  return {.data_parallel_attention = true, .expert_parallel = o.ep};
}

// The link an NVLS all-reduce sees: the link's measured NVLS bus bandwidth (a machine file's, or the catalog's), at
// its latency or the one given.
hml::link nvls_link(const machine_files& files, const llm_options& o) {
  const hml::link_description* own = files.find_link("--all-reduce, --link", o.link);
  if (own == nullptr) {
    throw input_error("--all-reduce, --link: NVLS takes a described link's measured NVLS bus bandwidth" +
                      (o.link.empty() ? std::string{} : ", and " + o.link + " is not one") + "; give --link nvlink4");
  }
  const hml::link l = with_latency_given(check_option("--all-reduce, --link", [&] { return hml::nvls_link_of(*own); }),
                                         "--link-latency", o.link_latency);
  note(std::string{own->id} + ": NVLS all-reduce at its measured bus bandwidth, " +
       quantity_text(own->nvls_bus_bandwidth.value) + " on " + std::to_string(hml::nvls_devices) + " devices");
  return l;
}

}  // namespace

hml::inference_options llm::inference_of(const llm_options& o, const hml::transformer& t, machine_files& files) {
  hml::inference_options i{};
  i.types = {llm::inference_type_of("--weights", o.weights), llm::inference_type_of("--activations", o.activations),
             llm::inference_type_of("--kv", o.kv), o.weight_group};
  i.attention = llm::attention_kernel_of(o);
  i.elementwise = llm::elementwise_of(o);
  i.all_reduce = all_reduce_of(o);
  i.experts = parallel_experts_of(o, t);
  // A draft that cannot serve is said first (a misspelt one where it is read); then a group must divide the
  // rows whole, and the groups offered divide each device's under --tp, --ep and --dp-attention, and a draft's
  // where it splits over them (whether it does is said after the model's own split).
  const hml::transformer* draft =
      o.draft.empty() ? nullptr : hml::find_named(o.draft, std::span<const hml::transformer* const>{hml::models::all});
  if (draft != nullptr) llm::check_draft(o, t, *draft, i);
  const hml::transformer* offered_beside = draft != nullptr && llm::splits_over(*draft, i, o.tp) ? draft : nullptr;
  llm::check_weight_group(t, i, "--weight-group", o.tp, offered_beside);
  i.tensor_parallel = o.tp;
  // Whether the model splits over the devices, before the link between them is asked for.
  if (t.heads > 0 && t.kv_heads > 0 && t.ffn > 0)
    llm::check_tensor_split(t, i, "--tp", o.model.empty() ? std::string{"the model's "} : std::string{t.name} + "'s ");
  check_option("--tp", [&] { hml::validate_tensor_split(t, i); });
  // A group that divides the rows whole may not divide a device's share of them.
  if (o.tp > 1) llm::check_weight_group(t, i, "--weight-group, --tp", o.tp, offered_beside);
  i.link = i.all_reduce == hml::all_reduce_algorithm::nvls
               ? nvls_link(files, o)
               : link_between(files, {"--tp", "tensor-parallel devices", o.tp, "--link", o.link, "--link-latency",
                                      o.link_latency, "nvlink4", o.a_compared_run});
  // Said before the link between stages, which a count past the layers does not need.
  if (o.pp > t.layers) {
    throw input_error("--pp: " + std::to_string(o.pp) + " stages for " + std::to_string(t.layers) +
                      " layers, where a stage holds at least one layer; give --pp " + std::to_string(t.layers) + " or fewer");
  }
  i.pipeline = {.stages = o.pp, .micro_batches = o.micro_batches};
  i.pipeline.link =
      link_between(files, {"--pp", "pipeline stages", o.pp, "--pp-link", o.pp_link, "--pp-link-latency",
                                        o.pp_link_latency, "50GB/s"});
  if (o.pp <= 1 && o.micro_batches > 0)
    throw input_error("--micro-batches: a pipeline step's micro-batches; give --pp 2 or more with it");
  if (o.micro_batches > o.batch && !o.requests && o.compare.empty())
    throw input_error("--micro-batches, --batch: " + std::to_string(o.micro_batches) + " micro-batches of " +
                      std::to_string(o.batch) + (o.batch == 1 ? " sequence" : " sequences") +
                      " (a micro-batch holds one sequence at least); give --micro-batches " + std::to_string(o.batch) + " or fewer, or a larger --batch");
  // Continuous batching runs as many at once as the requests and --max-batch allow, at most.
  if (const std::uint64_t most = o.requests ? std::min(*o.requests, batching_limits_of(o).max_batch) : 0;
      o.requests && o.compare.empty() && o.micro_batches > most) {
    const bool by_max_batch = o.max_batch && *o.max_batch < *o.requests;
    throw input_error(std::string{"--micro-batches, "} + (by_max_batch ? "--max-batch: " : "--requests: ") +
                      std::to_string(o.micro_batches) + " micro-batches where at most " +
                      counted(most, "sequence runs", "sequences run") + " at once (" +
                      (by_max_batch ? "--max-batch" : "the requests") +
                      "; a micro-batch holds one sequence at least); give --micro-batches " + std::to_string(most) + " or fewer");
  }
  i.achieved = llm::efficiency_of(o);
  i.estimate = llm::estimate_of(o);
  i.memory = {.kv_block_tokens = o.kv_block, .memory_utilization = o.memory_utilization};
  // --memory-utilization's range and --kv-block's are held as they are read (bounded_by, whole_number).
  check_option("--tp", [&] { hml::validate(t, i); });
  return i;
}

void llm::check_learned_positions(const hml::transformer& t, std::uint64_t context, std::string_view lengths) {
  if (!hml::past_learned_positions(t, context)) return;
  throw input_error(std::string{lengths} + ": a context of " + std::to_string(context) + " tokens is longer than " +
                    std::string{t.name} + "'s table of " + std::to_string(t.learned_positions) +
                    " learned positions, past which no token has a position; give fewer tokens");
}

void llm::check_countable(const hml::transformer& t, std::uint64_t batch, std::uint64_t context, const hml::inference_options& i,
                          std::string_view lengths) {
  if (hml::memory_counts_are_exact(t, batch, context, i)) return;
  const std::uint64_t longest = hml::longest_countable_context(t, batch, i);
  const std::string what = "a context of " + std::to_string(context) + " tokens" + (batch > 1 ? " at batch " + std::to_string(batch) : "") +
                           " is too large to count (element counts must stay below 2^62)";
  if (longest == 0) throw input_error("--batch: " + what + "; give a smaller --batch");
  throw input_error((batch > 1 ? "--batch, " : "") + std::string{lengths} + ": " + what + "; give a context of at most " +
                    std::to_string(longest) + " tokens" + (batch > 1 ? ", or a smaller --batch" : ""));
}

void llm::check_generation(const hml::transformer& t, const hml::generation& g, const hml::inference_options& i,
                           std::string_view lengths) {
  check_learned_positions(t, g.prompt + g.generate, lengths);
  check_option("--batch, --prompt, --generate", [&] { hml::expects(g.batch > 0 && g.prompt > 0 && g.generate > 0, "hml: must each be >= 1"); });
  check_countable(t, g.batch, g.prompt + g.generate, i, lengths);  // counts the prompt's too
  note_past_max_positions(t, g.prompt + g.generate);
}

void llm::note_past_max_positions(const hml::transformer& t, std::uint64_t context) {
  if (!hml::past_max_positions(t, context)) return;
  note(std::string{t.name} + " is made for contexts of up to " + std::to_string(t.max_positions) +
       " tokens (max_position_embeddings in its config.json); this run reaches " + std::to_string(context) +
       ", which is counted all the same");
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
  check_learned_positions(t, longest, lengths);
  if (hml::main_memory(d).capacity.published() && hml::largest_batch(t, longest, d, i) == 0) {
    // Where the whole memory would hold the sequence, the share --memory-utilization leaves is at fault.
    hml::inference_options whole = i;
    whole.memory.memory_utilization = 1;
    if (i.memory.memory_utilization < 1 && hml::largest_batch(t, longest, d, whole) > 0) {
      const hml::data_size needed = hml::memory_needed(t, 1, longest, i).total();
      // The least share in whole percent that holds it (the whole memory does).
      hml::inference_options least = i;
      for (auto share = static_cast<int>(std::ceil(needed / hml::capacity_of(d) * 100));
           least.memory.memory_utilization = std::min(share / 100.0, 1.0), share < 100 && !hml::fits(t, 1, longest, d, least);)
        ++share;
      throw input_error("--memory-utilization: one sequence of " + std::to_string(longest) + " tokens needs " +
                        quantity_text(needed) + ", more than the " + quantity_text(hml::usable_memory(d, i)) + " (" +
                        percent(i.memory.memory_utilization) + ") it leaves of the " + quantity_text(hml::capacity_of(d)) +
                        " of " + std::string{d.name} + "; give --memory-utilization " +
                        number(least.memory.memory_utilization, 2) + " or more");
    }
    if (hml::largest_batch(t, 1, d, i) == 0) {  // not even a token's cache beside the weights
      hml::inference_options contiguous = i;
      contiguous.memory.kv_block_tokens = 0;
      if (i.memory.kv_block_tokens > 1 && hml::largest_batch(t, 1, d, contiguous) > 0)  // a block is too large
        throw input_error("--kv-block: one block of " + std::to_string(i.memory.kv_block_tokens) + " tokens' cache (" +
                          quantity_text(hml::kv_cache_size(t, 1, 1, i)) + ") does not fit beside the weights in the memory of " +
                          std::string{d.name} + "; give a smaller block (vLLM's is 16 tokens)");
      throw input_error(std::string{names.requests} + ": the model does not fit in the memory of " + std::string{d.name} +
                        " even for one sequence; split it over " + (i.tensor_parallel > 1 ? "more devices" : "devices") +
                        " (--tp) or take a larger machine");
    }
    throw input_error(lengths + ": one sequence of " + std::to_string(longest) + " tokens does not fit in the memory of " +
                      std::string{d.name} + "; give shorter ones");
  }
  const hml::request_class mix[] = {{*o.requests, o.prompt, o.generate}};
  return check_option(listed({names.requests, max_batch, max_tokens}),
                      [&] { return hml::continuous_batching(t, mix, limits, d, i); });
}

void llm::add_time_choices(hml::table& summary, hml::estimate e, hml::elementwise_kernels k,
                           std::optional<hml::attention_kernel> a) {
  summary.columns.insert(summary.columns.end(), {"estimate", "elementwise"});
  summary.rows.back().emplace_back(std::string{e == hml::estimate::bound ? "bound" : "expected"});
  summary.rows.back().emplace_back(std::string{k == hml::elementwise_kernels::fused ? "fused" : "separate"});
  if (!a) return;
  summary.columns.emplace_back("attention");
  summary.rows.back().emplace_back(std::string{*a == hml::attention_kernel::unfused ? "unfused" : "fused"});
}

std::string llm::elementwise_text(hml::elementwise_kernels k) {
  return k == hml::elementwise_kernels::fused
             ? "; element-wise operations fused (rotary and cache store in attention, residual adds in the norms, the "
               "MLP's activation in its up projection: --elementwise fused)"
             : std::string{};
}

std::string llm::estimate_text(const hml::machine_description& d, const hml::inference_options& i, rates_taken taken) {
  if (i.estimate == hml::estimate::bound) return "ideal bound (--bound)" + elementwise_text(i.elementwise);
  // Tiles are a GPU's: a product on tensor units, over the machine's SMs.
  const bool tensor_units = std::ranges::any_of(
      d.compute, [](const hml::ceiling_description& c) { return c.unit == hml::compute_unit::tensor; });
  const std::string tiles = !tensor_units ? std::string{"no tensor units, no tiles"}
                            : d.cores > 0 ? std::to_string(hml::tile_rows) + " x " + std::to_string(hml::tile_columns) +
                                                " tiles, K split past " + std::to_string(hml::split_depth) +
                                                ", in waves over " + std::to_string(d.cores) + (d.cores == 1 ? " SM" : " SMs")
                                          : std::string{"no SM count, no tiles"};
  const std::string overhead = d.kernel_overhead.published() ? text(d.kernel_overhead.value) + " a kernel"
                                                             : std::string{"no kernel overhead published"};
  const std::string rates =
      (taken.attention ? ", prefill attention at " + text(d.attention_rate.value) + " on its causal tiles" : "") +
      (taken.int4_weights ? ", INT4 weights at " + text(d.int4_weight_rate.value) : std::string{});
  return "expected (" + tiles + ", " + overhead + rates + "; --bound for the ideal bound)" + elementwise_text(i.elementwise);
}

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
                      std::string{machine_help} + "; --device is its older name, kept until the first release")
      ->type_name("NAME|FILE");
  add_figures_option(*command, o->figures);
  const CLI::Validator count = whole_number(1, llm::most_sequences);
  command->add_option("--batch", o->batch, "sequences in a batch")->check(count)->capture_default_str();
  CLI::Option* prompt =
      command->add_option("--prompt", o->prompt, "prompt tokens per sequence")->check(count)->capture_default_str();
  CLI::Option* generate = command->add_option("--generate", o->generate, "tokens generated per sequence")
                              ->check(whole_number(1, hml::max_generated_tokens))
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
  // One decode step (--context) has no prefill attention to choose.
  command->add_option("--attention", o->attention, "prefill attention kernel: fused or unfused")
      ->check(CLI::IsMember({"fused", "unfused"}))
      ->capture_default_str()
      ->excludes("--context");
  command->add_option("--elementwise", o->elementwise,
                      "element-wise operations (rotary, cache store, residual adds, the MLP's activation): separate, "
                      "each a kernel, or fused into their neighbours as inference engines run them")
      ->check(CLI::IsMember({"separate", "fused"}))
      ->capture_default_str();
  command->add_option("--tp", o->tp, "tensor-parallel devices")->check(whole_number(1, llm::most_tensor_parallel))->capture_default_str();
  command->add_option("--link", o->link,
                      "the link between the --tp devices: pcie3x16 ... pcie6x16, nvlink3/4/5, c2c, cxl2x8 ..., "
                      "or a rate per direction")
      ->type_name("LINK");
  command->add_option("--link-latency", o->link_latency,
                      "latency of one message on the link, e.g. 5us (default: the catalog link's, else 0 s)")
      ->type_name("TIME");
  command->add_option("--all-reduce", o->all_reduce,
                      "how the --tp devices all-reduce: as NCCL inside a node, ring (the default, at the link's "
                      "measured rate where published) or nvls (NVLink SHARP at its measured bus bandwidth, 8 devices); "
                      "or one-shot, as serving engines' own all-reduce of small messages (each device reads the "
                      "others' buffers)")
      // Empty is how a runs file's all_reduce column says ring; given as an option it is a slip (misread_argument).
      ->type_name("ALGORITHM");
  command->add_flag("--dp-attention", o->dp_attention,
                    "a mixture of experts served data-parallel over the --tp devices (SGLang's --enable-dp-attention): "
                    "each device its own sequences through attention with whole weights, the experts' tokens gathered "
                    "and scattered back");
  command->add_flag("--ep", o->ep,
                    "a mixture of experts' experts whole, experts / --tp a device (vLLM's --enable-expert-parallel, "
                    "SGLang's --ep-size), where they are otherwise split by their width; attention stays "
                    "tensor-parallel, or data-parallel with --dp-attention");
  command->add_option("--pp", o->pp, "pipeline stages: the layers split over this many devices (each --tp devices)")
      ->check(whole_number(1, hml::max_pipeline_stages))
      ->capture_default_str();
  command->add_option("--micro-batches", o->micro_batches,
                      "micro-batches a pipeline step runs (default: one a stage, as vLLM; at most the sequences that run at once)")
      ->check(whole_number(1, hml::max_micro_batches));
  command->add_option("--pp-link", o->pp_link, "the link between pipeline stages: a catalog link or a rate per direction")
      ->type_name("LINK");
  command->add_option("--pp-link-latency", o->pp_link_latency,
                      "latency of a hand-off between stages, e.g. 5us (default: the catalog link's, else 0 s)")
      ->type_name("TIME");
  command->add_option("--efficiency-compute", o->efficiency_compute, "achieved share of peak compute, (0, 1]")
      ->transform(bounded_by([](double e) { hml::validate(hml::efficiency{.compute = e}); }))
      ->capture_default_str();
  command->add_option("--efficiency-memory", o->efficiency_memory, "achieved share of bandwidth, (0, 1]")
      ->transform(bounded_by([](double e) { hml::validate(hml::efficiency{.memory = e}); }))
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
      ->check(whole_number(1, hml::max_lookahead))
      ->needs(draft)
      ->capture_default_str();
  command->add_option("--acceptance", o->acceptance, "the share of drafted tokens the model accepts, [0, 1]")
      ->transform(bounded_by([](double a) { (void)hml::expected_tokens_per_step(a, 1); }));
  command->add_option("--kv-block", o->kv_block,
                      "paged KV cache: tokens a block, a sequence taking whole blocks (vLLM's default: 16; 0: contiguous)")
      ->check(whole_number(0, std::uint64_t{1} << 20))
      ->capture_default_str();
  command->add_option("--memory-utilization", o->memory_utilization,
                      "share of the device's memory the run may take, (0, 1] (vLLM's gpu_memory_utilization: 0.9)")
      ->transform(bounded_by([](double u) { hml::validate(hml::memory_policy{.memory_utilization = u}); }))
      ->capture_default_str();
  command->add_option("--layers", o->layers, "layers")->check(count);
  command->add_option("--hidden", o->hidden, "hidden size")->check(count);
  command->add_option("--ffn", o->ffn, "MLP intermediate size")->check(count);
  command->add_option("--heads", o->heads, "attention heads")->check(count);
  command->add_option("--kv-heads", o->kv_heads, "key-value heads (default: --heads, or a preset's fewer)")->check(count);
  command->add_option("--head-dim", o->head_dim, "head dimension (default: hidden / heads, or a preset's own)")->check(count);
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
  command->add_option("--shared-experts", o->shared_experts, "experts of --ffn every token runs beside its own (DeepSeekMoE)")
      ->check(whole_number(0, 1'000'000));
  command->add_option("--dense-layers", o->dense_layers, "the first layers run a dense MLP of --dense-ffn (DeepSeek's first_k_dense_replace)")
      ->check(whole_number(0, 1'000'000'000));
  command->add_option("--dense-ffn", o->dense_ffn, "the dense first layers' MLP intermediate size")->check(count);
  command->add_flag("--router-biases", o->router_biases, "a bias an expert in the router (DeepSeek-V3)");
  command->add_option("--kv-lora-rank", o->kv_lora_rank,
                      "multi-head latent attention: the KV latent a token caches (DeepSeek-V2 and V3: 512)")
      ->check(count);
  command->add_option("--q-lora-rank", o->q_lora_rank, "latent attention: the query latent (DeepSeek: 1536)")->check(count);
  command->add_option("--rope-head-dim", o->rope_head_dim, "latent attention: the rotary key the heads share (DeepSeek: 64)")
      ->check(count);
  command->add_option("--value-head-dim", o->value_head_dim, "latent attention: a value head's dimension (DeepSeek: 128)")
      ->check(count);
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
                               name == "--elementwise" || name.starts_with("--efficiency") || name == "--kv-block" || name == "--memory-utilization" ||
                               name == "--bound";
    if (!for_every_run) one_run.push_back(option);
  }
  // --as-kernels writes a step's operators, their FLOP and bytes: what only sets the time, the memory or the
  // run around that step would be ignored, so it is refused.
  std::vector<const CLI::Option*> beside_kernels;
  for (const char* name : {"--generate", "--figures", "--efficiency-compute", "--efficiency-memory", "--bound", "--chunk",
                           "--draft", "--lookahead", "--acceptance", "--kv-block", "--memory-utilization", "--requests",
                           "--max-batch", "--max-tokens", "--link-latency", "--pp-link-latency", "--all-reduce"})
    beside_kernels.push_back(command->get_option(name));
  const CLI::Option* as_kernels = command->get_option("--as-kernels");
  const CLI::Option* attention = command->get_option("--attention");
  add_output_options(*command, o->output);
  const CLI::Option* format = command->get_option("--format")->description(
      "table (aligned text), csv (RFC 4180: the operator rows; the summary is in table and json) or json");
  command->callback([o, compare, one_run, as_kernels, beside_kernels, attention, format] {
    for (const CLI::Option* option : one_run)
      if (compare->count() > 0 && option->count() > 0)
        throw input_error(option->get_name() + ", --compare: not together; the file gives each run's settings (beside "
                          "--compare: --figures, --efficiency-*, --attention, --elementwise, --kv-block, --memory-utilization, --bound)");
    for (const CLI::Option* option : beside_kernels)
      if (as_kernels->count() > 0 && option->count() > 0)
        throw input_error(option->get_name() + ", --as-kernels: not together; the kernels are the step's FLOP and bytes, "
                          "which " + option->get_name() + " does not change");
    o->attention_given = attention->count() > 0;
    o->format_given = format->count() > 0;
    llm::run(*o);
  });
}

}  // namespace hml_cli
