// What `hml llm` and `hml llm --compare` share: the options of one run, and the model, the inference options
// and the precision check built from them (a row of a measured-runs file is one such run).
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "common.hpp"

namespace hml_cli::llm {

struct run_options {
  std::string model;
  std::string device;
  std::string figures;  // add_figures_option sets its default
  std::uint64_t batch = 1;
  std::uint64_t prompt = 512;
  std::uint64_t generate = 32;
  std::optional<std::uint64_t> context;  // one decode step over this many tokens, instead of a generation
  std::string weights = "fp16";
  std::string activations = "fp16";
  std::string kv = "fp16";
  std::uint64_t weight_group = 0;  // INT8/INT4 weights in groups sharing a scale and a zero point (0: none)
  std::string attention = "fused";
  bool attention_given = false;  // --attention on the command line (its default is no choice of the user's)
  std::string elementwise = "separate";  // the element-wise operations' kernels: separate or fused
  bool format_given = false;     // --format on the command line
  unsigned tp = 1;
  std::string link;
  std::string link_latency;
  std::string all_reduce;         // how the --tp devices all-reduce: ring (empty: ring, not given), nvls or one-shot
  bool dp_attention = false;      // a mixture of experts' attention data-parallel over the --tp devices
  bool ep = false;                // its experts whole over the --tp devices (with --dp-attention)
  unsigned pp = 1;                // pipeline stages
  unsigned micro_batches = 0;     // a pipeline step's (0: one a stage)
  std::string pp_link;
  std::string pp_link_latency;
  double efficiency_compute = 1.0;
  double efficiency_memory = 1.0;
  bool bound = false;  // the ideal bound, not the expected time
  std::optional<std::uint64_t> chunk;  // chunked prefill: prompt tokens a step
  std::string draft;                 // speculative decoding: the draft model (a preset)
  unsigned lookahead = 4;            // tokens it drafts a step
  std::optional<double> acceptance;  // the share of drafted tokens the target accepts
  std::uint64_t kv_block = 0;        // paged KV cache: tokens a block (0: contiguous)
  double memory_utilization = 1.0;  // share of the device's memory the run may take
  std::optional<std::uint64_t> layers, hidden, ffn, heads, kv_heads, head_dim, vocab, experts, active_experts;
  // Latent attention and DeepSeekMoE, named as config.json names them.
  std::optional<std::uint64_t> q_lora_rank, kv_lora_rank, rope_head_dim, value_head_dim, shared_experts, dense_layers,
      dense_ffn;
  bool router_biases = false;
  bool no_gated = false;
  bool biases = false;                           // a GPT-style block: biases on every projection
  bool qkv_biases = false;                       // Qwen2: biases on Q, K and V alone
  std::optional<std::uint64_t> learned_positions;  // a learned position table of this many rows (no rotary)
  std::string norm;                              // rms or layer (default: the preset's, else rms)
  bool tied_embeddings = false;
  std::string as_kernels;
  std::string compare;  // a measured-runs CSV: each run predicted beside its measurement
  bool a_compared_run = false;  // a run of --compare's file, whose columns stand for the options
  std::optional<std::uint64_t> requests;  // continuous batching of this many requests of --prompt and --generate
  std::optional<std::uint64_t> max_batch;   // the scheduler's limits, where given (else batching_limits')
  std::optional<std::uint64_t> max_tokens;
  output_options output;
};

// Quantities and numbers as the output prints them: four significant digits (sizes as quantity_text).
inline std::string text(hml::work w) { return hml::to_string(w, {.number = hml::general(4)}); }
inline std::string text(hml::data_size s) { return quantity_text(s); }
inline std::string text(hml::duration t) { return hml::to_string(t, {.number = hml::general(4)}); }
inline std::string text(hml::compute_rate r) { return hml::to_string(r, {.number = hml::general(4)}); }
inline std::string text(hml::data_rate r) { return hml::to_string(r, {.number = hml::general(4)}); }
inline std::string text(hml::arithmetic_intensity i) { return hml::to_string(i, {.number = hml::general(4)}); }
// The most sequences --batch (and --prompt's tokens) takes; the largest batch that fits is said up to it.
inline constexpr std::uint64_t most_sequences = 1'000'000'000;
// The most tensor-parallel devices --tp takes (a pod of today is 72).
inline constexpr unsigned most_tensor_parallel = 4096;
inline std::string number(double x, int digits = 4) {
  return std::string{hml::format_number(x, hml::general(digits)).view()};
}
// A share (0.25) as the output prints it: "25 %", three digits.
std::string percent(double share);
// A count that may have a fraction, tokens a second or a ridge batch, as the output prints it: whole from a
// thousand up (19854, not 1.985e+04), else four digits.
std::string count_text(double count);
// The model: a preset, with any of its sizes overridden, or all of them given.
hml::transformer model_of(const run_options& o);
// The model's name as the output says it: a preset with sizes changed says which, so that the title does not
// name a model the figures are not of ("llama-2-7b with --layers 4").
std::string model_title(const run_options& o, const hml::transformer& t);
// The precisions, attention kernel, tensor parallelism and link, efficiencies, memory policy and estimate.
hml::inference_options inference_of(const run_options& o, const hml::transformer& t, machine_files& files);
// Sizes whose counts a model can hold exactly (hml::memory_counts_are_exact); past them an error naming
// `lengths` (the options or columns that set the context) and --batch, with the longest context that fits.
void check_countable(const hml::transformer& t, std::uint64_t batch, std::uint64_t context, const hml::inference_options& i,
                     std::string_view lengths);
// The generation's counts, within what the model can count and its positions hold; errors name `options`.
void check_generation(const hml::transformer& t, const hml::generation& g, const hml::inference_options& i,
                      std::string_view lengths = "--prompt, --generate");
// A context past a learned position table (GPT-2's 1024 rows) has no position to take: refused, naming
// `lengths` (the options or columns that set the context) and the table's size.
void check_learned_positions(const hml::transformer& t, std::uint64_t context, std::string_view lengths);
// A model that does not split over --tp's devices (i.tensor_parallel): `option` names what does not divide
// (of `whose`: "llama-3-70b's ") and the counts that split it, and the model it drafts for where it is a draft.
void check_tensor_split(const hml::transformer& t, const hml::inference_options& i, std::string_view option,
                        std::string_view whose, const hml::transformer* drafted_for = nullptr);
// A draft that cannot draft for `t` run as `i`, whatever the devices: a vocabulary not t's, a dense draft where
// the experts are whole or attention data-parallel; said before the weight groups it would need.
void check_draft(const run_options& o, const hml::transformer& t, const hml::transformer& draft,
                 const hml::inference_options& i);
// Whether `t`'s heads and sizes split over `devices` run as `i` (check_tensor_split says how they do not).
bool splits_over(const hml::transformer& t, const hml::inference_options& i, unsigned devices);
// A weight group that does not divide every projection's rows on a device: `option` names the groups (powers
// of two) that would on each of `devices` (--tp's, also where i splits over none yet), for `also` too where
// another model runs beside (a draft and its target).
void check_weight_group(const hml::transformer& t, const hml::inference_options& i, std::string_view option,
                        unsigned devices, const hml::transformer* also = nullptr);
// --weights, --activations or --kv: a type inference keeps data in (not FP64 or TF32); else input_error.
hml::precision inference_type_of(std::string_view option, const std::string& text);
// A context past the positions the model's configuration gives: a note, since the counts still hold.
void note_past_max_positions(const hml::transformer& t, std::uint64_t context);
// The scheduler's limits: those given, else hml::batching_limits' defaults.
hml::batching_limits batching_limits_of(const run_options& o);
// What a continuous run's errors name, as the user gave it: the options (`--requests`), or a measured-runs
// file's columns (`requests`).
struct batching_names {
  std::string_view requests = "--requests";
  std::string_view max_batch = "--max-batch";
  std::string_view max_tokens = "--max-tokens";
  std::string_view prompt = "--prompt";
  std::string_view generate = "--generate";
};
// With o.requests, those requests served by continuous batching within the limits; none without. Each error
// names what caused it: a prompt longer than a step's tokens the prompt and max tokens (where given), a
// sequence too long for the memory the lengths, a mix of too many steps the requests and the limits given.
std::optional<hml::continuous_batching_result> continuous_run(const run_options& o, const hml::transformer& t,
                                                              const hml::machine_description& d,
                                                              const hml::inference_options& i,
                                                              const batching_names& names = {});
// --efficiency-compute and --efficiency-memory (their ranges held as they are read: bounded_by).
inline hml::efficiency efficiency_of(const run_options& o) { return {o.efficiency_compute, o.efficiency_memory}; }
// --bound: the ideal bound; else the expected time.
inline hml::estimate estimate_of(const run_options& o) { return o.bound ? hml::estimate::bound : hml::estimate::expected; }
// --elementwise: the element-wise operations each a kernel (separate) or fused into their neighbours.
inline hml::elementwise_kernels elementwise_of(const run_options& o) {
  return o.elementwise == "fused" ? hml::elementwise_kernels::fused : hml::elementwise_kernels::separate;
}
// --attention: the prefill's attention kernel, fused (FlashAttention's) or unfused.
inline hml::attention_kernel attention_kernel_of(const run_options& o) {
  return o.attention == "unfused" ? hml::attention_kernel::unfused : hml::attention_kernel::fused;
}
// The JSON summary's `estimate`, `elementwise` and `attention` columns: which time the run computed,
// "expected" or "bound", how its element-wise operations ran, "separate" or "fused", and its prefill's
// attention kernel, "fused" or "unfused" (none where no prefill runs: one decode step).
void add_time_choices(hml::table& summary, hml::estimate e, hml::elementwise_kernels k,
                      std::optional<hml::attention_kernel> a);
// What a heading says of fused element-wise operations ("" where they are separate, the default).
std::string elementwise_text(hml::elementwise_kernels k);
// The machine's measured rates a run's steps take: its attention rate, its INT4 weight rate.
struct rates_taken {
  bool attention = false;
  bool int4_weights = false;
};
// Which time is computed, as the output says it: "expected (128 x 128 tiles in waves over 132 SMs, 4.68 us a
// kernel)" or "ideal bound"; the machine's rates named where an operator takes them.
std::string estimate_text(const hml::machine_description& d, const hml::inference_options& i, rates_taken taken);
// Every compute kind the steps of `g` use (of the step `s`) must have a peak on the machine: says which does
// not, and what it has.
void check_precisions(const hml::transformer& t, const hml::generation& g, const hml::machine_description& d,
                      const hml::inference_options& i);
void check_step_precisions(const hml::transformer& t, const hml::step_shape& s, const hml::machine_description& d,
                           const hml::inference_options& i);

// One run of the options: its steps, generation, serving figures and memory, as a table, CSV or JSON.
void run(const run_options& o);
// --compare FILE: every run of the file predicted beside its measurements, with the errors.
void run_compare(const run_options& o);

}  // namespace hml_cli::llm
