// hml.transformer — a decoder-only transformer (Llama-style) and its inference on a machine description:
// the operators of a prefill step (batch x prompt tokens) and of a decode step (one token per sequence over
// a growing context), each placed on the machine's roofline at the precision it computes in; the time of a
// step, a phase and a token; the batch at which decode turns compute-bound, in closed form; the memory it
// needs (weights + KV cache + activations) against the machine's typed capacity; efficiency factors and
// their fit from one measured time; tensor parallelism over N devices joined by a link, and pipeline
// parallelism over stages of layers (hml.pipeline schedules their micro-batches); beside the ideal
// bound, the expected time of a GPU run (matrix products tiled in waves over the SMs, a fixed cost a kernel).
//
// Conventions (docs/explanation/transformer-conventions.md states them all, with what they leave out):
//   - every operand crosses main memory once per operator (ideal on-chip reuse), compute and memory overlap
//     within an operator (time = max of the two), operators run one after another (times add);
//   - a decode step reads all the weights of the linear layers, one embedding row per sequence, the final
//     norm and LM head, and the whole KV cache of the context; it writes the new token's keys and values;
//   - the LM head runs on the last token of each sequence only (prefill included);
//   - GEMMs run in the wider of the activations' and weights' precision (tensor units for 16 bits and
//     narrower, vector units for FP32 and FP64: hml::matrix_compute); norms, softmax's
//     element-wise neighbours and activations on FP32 vector units; a precision the machine publishes no
//     peak for is an error (a compile error in a constant expression), never a fallback.
//   - parameters are stored at the weights' precision; biases (GPT-2, OPT; Llama and Mistral have none) add a
//     weight and a FLOP per output of a projection's row, in its epilogue; a learned position table is read
//     a row per token, where rotary embeddings are not applied.
//   - mixture of experts: each token runs `active_experts` of the `experts` MLPs, chosen by a router (a
//     hidden x experts GEMM); a step reads the weights of min(experts, tokens x active) experts, every
//     token's experts counted as distinct until all are touched (an upper bound for uniform routing); the
//     weighted sum of the experts' outputs is not counted (hidden per active expert per token: small).
module;
#include <algorithm>
#include <array>
#include <compare>
#include <cstddef>
#include <cstdint>
#include <string_view>
export module hml.transformer;
export import hml.operators;
export import hml.analysis;
export import hml.link;
export import hml.pipeline;

using namespace std::string_view_literals;

namespace hml::detail {

// a / b rounded up (b > 0): the shards, tiles, waves and cache blocks a count fills.
constexpr std::uint64_t ceil_div(std::uint64_t a, std::uint64_t b) noexcept { return (a + b - 1) / b; }

}  // namespace hml::detail

export namespace hml {

// --- The model ---------------------------------------------------------------------------------------

struct transformer {
  std::string_view name{};
  std::uint64_t layers = 0;
  std::uint64_t hidden = 0;    // d_model
  std::uint64_t ffn = 0;       // intermediate size of the MLP
  std::uint64_t heads = 0;     // query heads
  std::uint64_t kv_heads = 0;  // key-value heads (= heads without grouped-query attention)
  std::uint64_t head_dim = 0;  // usually hidden / heads
  std::uint64_t vocab = 0;
  bool gated_mlp = true;       // SwiGLU: gate and up projections, then down
  std::uint64_t experts = 1;         // MLPs per layer (mixture of experts); 1: a dense model
  std::uint64_t active_experts = 1;  // of them, those each token runs
  bool tied_embeddings = false;
  normalization_kind norm = normalization_kind::rms_norm;
  bool biases = false;                   // every projection adds a bias (GPT-2, OPT); Llama and Mistral have none
  bool qkv_biases = false;               // Q, K and V alone add a bias (Qwen2); `biases` implies them
  std::uint64_t learned_positions = 0;   // a learned table of this many positions (GPT-2: 1,024); 0: rotary
  std::string_view source{};   // where the configuration comes from
};

constexpr void validate(const transformer& t) {
  expects(t.layers > 0 && t.hidden > 0 && t.ffn > 0 && t.vocab > 0,
          "hml: a transformer needs layers, hidden, ffn and vocab >= 1");
  validate(attention_shape{t.heads, t.kv_heads, t.head_dim});
  expects(t.experts >= 1 && t.active_experts >= 1 && t.active_experts <= t.experts,
          "hml: a mixture of experts needs 1 <= active experts <= experts");
}

[[nodiscard]] constexpr attention_shape attention_of(const transformer& t) noexcept {
  return {t.heads, t.kv_heads, t.head_dim};
}

// Parameters of one MLP (one expert's in a mixture of experts): 3 hidden ffn gated (gate, up, down), else
// 2 hidden ffn; with biases, one per output of each projection.
[[nodiscard]] constexpr std::uint64_t mlp_parameters(const transformer& t) noexcept {
  const std::uint64_t biases = t.biases ? (t.gated_mlp ? 2 : 1) * t.ffn + t.hidden : 0;
  return (t.gated_mlp ? 3 : 2) * t.hidden * t.ffn + biases;
}

// Parameters of one layer's linear projections: Q and O are hidden x (heads d), K and V hidden x (kv d),
// with biases one per output (Q, K and V's alone with qkv_biases); the MLP once per expert, plus the
// router (hidden x experts) in a mixture of experts.
[[nodiscard]] constexpr std::uint64_t linear_parameters_per_layer(const transformer& t) noexcept {
  const std::uint64_t biases = (t.biases || t.qkv_biases ? (t.heads + 2 * t.kv_heads) * t.head_dim : 0) +
                               (t.biases ? t.hidden : 0);
  const std::uint64_t attention = t.hidden * (2 * t.heads + 2 * t.kv_heads) * t.head_dim + biases;
  const std::uint64_t router = t.experts > 1 ? t.hidden * t.experts : 0;
  return attention + t.experts * mlp_parameters(t) + router;
}

// The parameters of a norm: RMSNorm a gain per element, LayerNorm a gain and a bias.
[[nodiscard]] constexpr std::uint64_t norm_parameters(const transformer& t) noexcept {
  return (t.norm == normalization_kind::rms_norm ? 1 : 2) * t.hidden;
}

// A contiguous part of the layers, as a pipeline stage holds them: the first stage also holds the embedding
// (and a learned position table), the last the final norm and the LM head. The whole model is one stage.
struct pipeline_stage {
  std::uint64_t layers = 0;
  bool first = true;
  bool last = true;
  friend constexpr bool operator==(const pipeline_stage&, const pipeline_stage&) = default;
};

[[nodiscard]] constexpr pipeline_stage whole_model(const transformer& t) noexcept { return {t.layers, true, true}; }

// Stage `index` of `stages`, split as vLLM splits the layers (vllm/distributed/utils.py, get_pp_indices):
// layers / stages each, the remainder a layer each to the stages before the last, from the last but one
// back (the last runs the LM head): 61 layers over 4 stages are 15, 15, 16 and 15.
[[nodiscard]] constexpr pipeline_stage stage_of(const transformer& t, unsigned stages, unsigned index) {
  expects(stages >= 1 && index < stages && stages <= t.layers, "hml: a pipeline stage holds at least one layer");
  const std::uint64_t extra = t.layers % stages;
  const bool one_more = index + 1 < stages && index + 1 + extra >= stages;
  return {t.layers / stages + (one_more ? 1 : 0), index == 0, index + 1 == stages};
}

// The parameters a stage holds: its layers' projections and norms (2 per layer), the embedding (vocab x hidden)
// and a learned position table (positions x hidden) on the first, the final norm and the LM head (another
// vocab x hidden) on the last. A tied LM head is the embedding: held once where one stage holds both, else by
// each of the two.
[[nodiscard]] constexpr std::uint64_t stage_parameters(const transformer& t, const pipeline_stage& s) noexcept {
  const std::uint64_t table = t.vocab * t.hidden;
  const std::uint64_t embedding = s.first ? table + t.learned_positions * t.hidden : 0;
  const std::uint64_t head = s.last ? norm_parameters(t) + (t.tied_embeddings && s.first ? 0 : table) : 0;
  return s.layers * (linear_parameters_per_layer(t) + 2 * norm_parameters(t)) + embedding + head;
}

// All parameters: the whole model's stage.
// Llama-2 7B: 32 (4 x 4096^2 + 3 x 4096 x 11008 + 2 x 4096) + 4096 + 2 x 32000 x 4096 = 6,738,415,616.
[[nodiscard]] constexpr std::uint64_t parameters(const transformer& t) noexcept {
  return stage_parameters(t, whole_model(t));
}

// The parameters a token runs through: all but the experts it does not use (Mixtral 8x7B: 12.9 G of 46.7 G).
[[nodiscard]] constexpr std::uint64_t active_parameters(const transformer& t) noexcept {
  return parameters(t) - t.layers * (t.experts - t.active_experts) * mlp_parameters(t);
}

// --- How it runs -------------------------------------------------------------------------------------

// Weight-only quantization to INT8 or INT4 stores the weights in groups that share a scale and a zero point
// (gpt-fast's and torchao's int4: a BF16 scale and a BF16 zero for each 32, 64, 128 or 256 weights along a
// row; AWQ and GPTQ: groups of 128, FP16 scales): `weight_group` weights a group, each group's 16-bit scale
// and 16-bit zero point read with its weights (0: none counted, as for per-channel scales, one a row of
// thousands). A group divides every projection's rows. AWQ and GPTQ pack their zero points in 4 bits, so at
// their groups of 128 hml counts 0.25 bits a weight where they store 0.16 (2 % of an INT4 weight's bits).
struct precisions {
  precision weights = precision::fp16;
  precision activations = precision::fp16;
  precision kv_cache = precision::fp16;
  std::uint64_t weight_group = 0;
};

inline constexpr std::uint64_t max_weight_group = std::uint64_t{1} << 20;

constexpr void validate(const precisions& p) {
  if (p.weight_group == 0) return;
  expects(p.weights == precision::int8 || p.weights == precision::int4,
          "hml: a weight group is INT8's or INT4's (NVFP4 and MXFP4 count their blocks' scales themselves)");
  expects(p.weight_group >= 2 && p.weight_group <= max_weight_group, "hml: a weight group holds 2 to 2^20 weights");
}

// Bits a weight takes in memory with its share of its group's scale and zero point: INT4 in groups of 32,
// 4 + 2 x 16 / 32 = 5.
[[nodiscard]] constexpr double stored_weight_bits(const precisions& p) noexcept {
  constexpr double scale_and_zero_bits = 2 * 16;
  return bits_of(p.weights) + (p.weight_group > 0 ? scale_and_zero_bits / static_cast<double>(p.weight_group) : 0.0);
}

enum class attention_kernel { fused, unfused };

// Achieved share of the compute peak and of the memory bandwidth, in (0, 1].
struct efficiency {
  double compute = 1.0;
  double memory = 1.0;
};

constexpr void validate(const efficiency& e) {
  expects(e.compute > 0 && e.compute <= 1 && e.memory > 0 && e.memory <= 1,
          "hml: efficiencies must be within (0, 1]");
}

// How a serving system holds the KV cache and how much of the memory it may take, as vLLM does (PagedAttention,
// Kwon et al., SOSP 2023): the cache in blocks of `kv_block_tokens` tokens, a sequence taking whole blocks
// (vLLM's default block: 16; 0: one contiguous buffer of exactly its tokens), and `memory_utilization` of
// the device's memory for weights, activations and cache together (vLLM's gpu_memory_utilization, 0.9 by
// default; 1: all of it).
struct memory_policy {
  std::uint64_t kv_block_tokens = 0;
  double memory_utilization = 1.0;
};

constexpr void validate(const memory_policy& p) {
  expects(p.kv_block_tokens <= (std::uint64_t{1} << 20), "hml: a KV block holds at most 2^20 tokens");
  expects(p.memory_utilization > 0 && p.memory_utilization <= 1, "hml: the memory utilization is within (0, 1]");
}

// Which time a step takes: the ideal bound (each operator at its roofline: the larger of its compute and
// memory times, plus its link time), or the expected time of a run on a GPU, which adds what the machine's
// measured figures say kernels lose: matrix products run as tiles in waves over the SMs (tiling_factor),
// and each kernel but the collectives pays the machine's kernel overhead (the collectives' measured latency
// holds their own). A machine without those figures (no SM count, no kernel overhead) loses nothing there.
enum class estimate { bound, expected };

// Pipeline parallelism: the layers split over `stages` devices (or tensor-parallel groups) as stage_of
// splits them; a step's batch split into `micro_batches` (0: one a stage, as vLLM runs a virtual engine a
// stage; never more than the batch's sequences, the first ones a sequence larger where they do not divide
// it); each micro-batch's hidden states sent from a stage to the next over `link`, one message. A prefill
// step fills and drains the pipeline; decode steps run in its steady state (hml.pipeline's schedules).
struct pipeline_parallelism {
  unsigned stages = 1;
  unsigned micro_batches = 0;
  hml::link link{};  // between stages (needed when stages > 1): per direction, latency
};

inline constexpr unsigned max_micro_batches = 1024;

struct inference_options {
  precisions types{};
  attention_kernel attention = attention_kernel::fused;
  unsigned tensor_parallel = 1;  // devices each stage is split over
  hml::link link{};              // joins them (needed when tensor_parallel > 1): per direction, latency, duplex
  pipeline_parallelism pipeline{};
  efficiency achieved{};
  memory_policy memory{};
  hml::estimate estimate = hml::estimate::bound;
};

// A weight group divides the rows it is taken along: every projection's input on one device (the hidden
// size; the heads' width and the FFN size over the tensor-parallel devices).
constexpr void validate_weight_group(const transformer& t, const inference_options& o) {
  validate(o.types);
  const std::uint64_t g = o.types.weight_group;
  const std::uint64_t n = o.tensor_parallel > 0 ? o.tensor_parallel : 1;
  expects(g == 0 || (t.hidden % g == 0 && (t.heads / n * t.head_dim) % g == 0 && (t.ffn / n) % g == 0),
          "hml: a weight group divides every projection's rows (the hidden size, and the heads' width and the FFN "
          "size per device): gpt-fast takes 32 to 256, AWQ and GPTQ 128");
}

constexpr void validate(const transformer& t, const pipeline_parallelism& p) {
  validate_pipeline(p.stages, p.micro_batches > 0 ? p.micro_batches : p.stages);  // 0: one a stage
  expects(p.stages <= t.layers, "hml: a pipeline stage holds at least one layer: no more stages than layers");
  expects(p.micro_batches <= max_micro_batches, "hml: a pipeline step runs at most 1024 micro-batches");
  if (p.stages > 1) validate(p.link);
}

constexpr void validate(const transformer& t, const inference_options& o) {
  validate(t);
  validate_weight_group(t, o);
  validate(o.achieved);
  validate(o.memory);
  const std::uint64_t n = o.tensor_parallel;
  expects(n >= 1, "hml: tensor parallelism needs at least one device");
  expects(t.heads % n == 0 && t.kv_heads % n == 0 && t.ffn % n == 0,
          "hml: heads, kv heads and ffn must divide by the tensor-parallel devices");
  if (n > 1) validate(o.link);
  validate(t, o.pipeline);
}

// The micro-batches a pipeline step of `batch` sequences runs: those asked for (else one a stage), no more
// than the sequences.
[[nodiscard]] constexpr std::uint64_t micro_batches_of(const pipeline_parallelism& p, std::uint64_t batch) noexcept {
  const std::uint64_t asked = p.micro_batches > 0 ? p.micro_batches : p.stages;
  return asked < batch ? asked : batch;
}

// The operators count elements in 64-bit integers (then FLOP and bytes in doubles): every element count
// must stay below 2^62, far from overflow (a batch of 10^9 sequences of 10^6 tokens would not).
[[nodiscard]] constexpr bool counts_are_exact(const transformer& t, std::uint64_t batch, std::uint64_t new_tokens,
                                              std::uint64_t context) noexcept {
  constexpr double limit = 4611686018427387904.0;  // 2^62
  const auto d = [](std::uint64_t x) { return static_cast<double>(x); };
  const double rows = d(batch) * d(new_tokens);
  const double widest = d(t.hidden) > 2.0 * d(t.ffn) * d(t.active_experts) ? d(t.hidden)
                                                                              : 2.0 * d(t.ffn) * d(t.active_experts);
  return rows * (widest > d(t.vocab) ? widest : d(t.vocab)) * (d(t.heads) + 2.0 * d(t.kv_heads)) < limit &&
         rows * d(context) * d(t.heads) < limit &&
         2.0 * d(t.layers) * d(batch) * d(context) * d(t.kv_heads) * d(t.head_dim) < limit &&
         4.0 * d(t.layers) * d(t.hidden) * (d(t.ffn) * d(t.experts) + (d(t.heads) + d(t.kv_heads)) * d(t.head_dim)) +
                 2.0 * d(t.vocab) * d(t.hidden) + d(t.learned_positions) * d(t.hidden) <
             limit;
}

constexpr void validate_counts(const transformer& t, std::uint64_t batch, std::uint64_t new_tokens,
                               std::uint64_t context) {
  expects(counts_are_exact(t, batch, new_tokens, context),
          "hml: the sizes are too large to count (element counts must stay below 2^62)");
}

// A model with a learned position table has no position past its last row.
constexpr void validate_context(const transformer& t, std::uint64_t context) {
  expects(t.learned_positions == 0 || context <= t.learned_positions,
          "hml: the context is longer than the model's learned positions");
}

enum class phase { prefill, decode };

[[nodiscard]] constexpr std::string_view to_string(phase p) noexcept {
  return p == phase::prefill ? "prefill" : "decode";
}

// One forward pass: `batch` sequences, each adding `new_tokens` tokens (the prompt in prefill, 1 in decode)
// to a context of `context` tokens in all (the new ones included).
struct step_shape {
  phase kind = phase::decode;
  std::uint64_t batch = 1;
  std::uint64_t new_tokens = 1;
  std::uint64_t context = 1;
};

[[nodiscard]] constexpr step_shape prefill_step(std::uint64_t batch, std::uint64_t prompt) noexcept {
  return {phase::prefill, batch, prompt, prompt};
}
[[nodiscard]] constexpr step_shape decode_step(std::uint64_t batch, std::uint64_t context) noexcept {
  return {phase::decode, batch, 1, context};
}
// The target model's step of speculative decoding: each sequence's `draft_tokens` drafted tokens and the
// last accepted one, verified at once over the context that holds them.
[[nodiscard]] constexpr step_shape verify_step(std::uint64_t batch, std::uint64_t draft_tokens,
                                               std::uint64_t context) noexcept {
  return {phase::decode, batch, draft_tokens + 1, context};
}

// Ring all-reduce of `size` bytes over n devices: each device sends 2 (n - 1) / n x size, in 2 (n - 1)
// messages one after another (reduce-scatter, then all-gather).
[[nodiscard]] constexpr operator_cost all_reduce(data_size size, unsigned n) {
  expects(n >= 1, "hml: an all-reduce needs at least one device");
  const double steps = 2.0 * (n - 1);
  return {.name = "all-reduce"sv, .link_sent = size * (steps / n), .link_messages = steps};
}

// The most operators a step has: 15 (the embedding, a position table or rotary, the norm, QKV, the cache store,
// attention, O, the residual add, an all-reduce, a router, the MLP's three, the norms, the LM head) and one
// spare. No more: every step fills a list this long, and a compile-time generation pays for each slot.
inline constexpr std::size_t max_step_operators = 16;
using operator_list = fixed_list<operator_cost, max_step_operators>;

// The operators of one step on one device of a pipeline stage, each summed over the stage's layers: the
// embedding (and a position table) on the first stage only, the final norm and the LM head on the last. Under
// tensor parallelism over n devices, Q/K/V and gate/up are split by columns and O and down by rows
// (Megatron-LM), the heads, kv heads and ffn by n, the LM head by vocabulary; the embedding and the norms are
// replicated; two all-reduces of the tokens' hidden states per layer (after attention and after the MLP).
[[nodiscard]] constexpr operator_list stage_operators(const transformer& t, const step_shape& s,
                                                      const inference_options& o, const pipeline_stage& stage) {
  validate(t, o);
  expects(stage.layers >= 1 && stage.layers <= t.layers, "hml: a pipeline stage holds 1 to all of the layers");
  expects(s.batch > 0 && s.new_tokens > 0 && s.context >= s.new_tokens,
          "hml: a step needs batch and new tokens >= 1 and a context that holds them");
  validate_counts(t, s.batch, s.new_tokens, s.context);
  validate_context(t, s.context);
  const precision act = o.types.activations;
  const precision w = o.types.weights;
  const precision kv = o.types.kv_cache;
  const std::uint64_t n = o.tensor_parallel;
  const std::uint64_t rows = s.batch * s.new_tokens;
  const attention_shape a{t.heads / n, t.kv_heads / n, t.head_dim};
  const std::uint64_t ffn = t.ffn / n;
  const std::uint64_t L = stage.layers;
  const bool gated = t.gated_mlp;

  // A bias adds one weight and one FLOP per output of a row (in the GEMM's epilogue: no operator of its own).
  const auto with_bias = [&](bool has_bias, operator_cost op, std::uint64_t op_rows, std::uint64_t out) {
    if (!has_bias) return op;
    op.weights += bytes_of(out, w);
    op.flops += static_cast<double>(op_rows * out) * flop;
    return op;
  };
  const auto biased = [&](operator_cost op, std::uint64_t op_rows, std::uint64_t out) {
    return with_bias(t.biases, op, op_rows, out);
  };
  const std::uint64_t qkv = (a.heads + 2 * a.kv_heads) * a.head_dim;

  operator_list ops;
  if (stage.first) ops.push_back(embedding_lookup(rows, t.hidden, act, w));
  if (stage.first && t.learned_positions > 0) {  // each token's position row read and added to its embedding
    operator_cost positions = elementwise("position embedding"sv, rows * t.hidden, 1, 1.0, act);
    positions.weights = bytes_of(rows * t.hidden, w);
    ops.push_back(positions);
  }
  ops.push_back(repeated(normalization_layer(rows, t.hidden, t.norm, act, w), L));
  ops.push_back(repeated(with_bias(t.biases || t.qkv_biases, linear("QKV projection"sv, rows, t.hidden, qkv, act, w), rows, qkv), L));
  if (t.learned_positions == 0) ops.push_back(repeated(rotary(rows, a, act), L));
  ops.push_back(repeated(kv_cache_store(rows, a, act, kv), L));
  if (s.kind == phase::decode) {
    ops.push_back(repeated(attention_decode(s.batch, s.context, a, act, kv, s.new_tokens), L));
  } else if (o.attention == attention_kernel::fused) {
    ops.push_back(repeated(attention_prefill_fused(s.batch, s.new_tokens, a, act), L));
  } else {
    ops.push_back(repeated(attention_prefill_unfused(s.batch, s.new_tokens, a, act), L));
  }
  ops.push_back(repeated(biased(linear("O projection"sv, rows, a.heads * a.head_dim, t.hidden, act, w), rows, t.hidden), L));
  ops.push_back(repeated(elementwise("residual add"sv, rows * t.hidden, 2, 1.0, act), 2 * L));
  if (n > 1) ops.push_back(repeated(all_reduce(bytes_of(rows * t.hidden, act), o.tensor_parallel), 2 * L));
  // A mixture of experts: the router, then each token through its experts (rows x active token-expert
  // pairs), reading the weights of the experts the step touches.
  const std::uint64_t pairs = rows * t.active_experts;
  const double touched = static_cast<double>(pairs < t.experts ? pairs : t.experts);
  const auto experts = [&](operator_cost op) {  // one grouped GEMM over the touched experts
    op.weights *= touched;
    const auto groups = static_cast<std::uint64_t>(touched);
    op.gemm = {groups, detail::ceil_div(pairs, groups), op.gemm.columns, op.gemm.depth};
    return op;
  };
  if (t.experts > 1) ops.push_back(repeated(linear("router"sv, rows, t.hidden, t.experts, act, w), L));
  ops.push_back(repeated(experts(biased(linear(gated ? "gate+up projection"sv : "up projection"sv, pairs, t.hidden,
                                               (gated ? 2 : 1) * ffn, act, w),
                                        pairs, (gated ? 2 : 1) * ffn)),
                         L));
  ops.push_back(repeated(gated ? elementwise("SwiGLU"sv, pairs * ffn, 2, 5.0, act)
                               : elementwise("GELU"sv, pairs * ffn, 1, 8.0, act), L));
  ops.push_back(repeated(experts(biased(linear("down projection"sv, pairs, ffn, t.hidden, act, w), pairs, t.hidden)), L));
  // The norms after attention and after the last layer, and the LM head on each sequence's last token.
  operator_cost norms = normalization_layer(rows, t.hidden, t.norm, act, w);
  norms = repeated(norms, L);
  if (stage.last) {
    const operator_cost final_norm = normalization_layer(s.batch, t.hidden, t.norm, act, w);
    norms.flops += final_norm.flops;
    norms.weights += final_norm.weights;
    norms.activations_read += final_norm.activations_read;
    norms.activations_written += final_norm.activations_written;
    norms.name = "norms (MLP, final)"sv;
  } else {
    norms.name = "norms (MLP)"sv;
  }
  ops.push_back(norms);
  if (stage.last) ops.push_back(linear("LM head"sv, s.batch, t.hidden, detail::ceil_div(t.vocab, n), act, w));
  if (o.types.weight_group > 0) {  // each weight read with its share of its group's scale and zero point
    const double stored = stored_weight_bits(o.types) / bits_of(w);
    for (std::size_t i = 0; i < ops.size(); ++i) ops[i].weights = ops[i].weights * stored;
  }
  return ops;
}

// The operators of one step of the whole model on one device (each of n tensor-parallel devices).
[[nodiscard]] constexpr operator_list step_operators(const transformer& t, const step_shape& s,
                                                     const inference_options& o = {}) {
  return stage_operators(t, s, o, whole_model(t));
}

// --- Time --------------------------------------------------------------------------------------------

// Distinct times, so that one is never taken for the other: a step's time (one forward pass) and the
// time per token (a step's time over the tokens it produced). Each compares with a duration (a budget,
// a measurement: `step.time < 10_ms`), never with the other.
struct step_time {
  duration value{};
  friend constexpr step_time operator+(step_time a, step_time b) noexcept { return {a.value + b.value}; }
  friend constexpr bool operator==(step_time, step_time) noexcept = default;
  friend constexpr bool operator==(step_time a, duration b) noexcept { return a.value == b; }
  friend constexpr std::partial_ordering operator<=>(step_time a, duration b) noexcept {
    return a.value.value() <=> b.value();
  }
};
struct time_per_token {
  duration value{};
  friend constexpr bool operator==(time_per_token, time_per_token) noexcept = default;
  friend constexpr bool operator==(time_per_token a, duration b) noexcept { return a.value == b; }
  friend constexpr std::partial_ordering operator<=>(time_per_token a, duration b) noexcept {
    return a.value.value() <=> b.value();
  }
};
// Tokens per second.
struct token_rate {
  double per_second = 0;
};

[[nodiscard]] constexpr time_per_token per_token(step_time t, tokens produced) {
  expects(produced.count > 0, "hml: a step produces at least one token");
  return {t.value / static_cast<double>(produced.count)};
}
[[nodiscard]] constexpr token_rate throughput(step_time t, tokens produced) noexcept {
  return {static_cast<double>(produced.count) / t.value.value()};
}

// --- Expected time: tiles and waves ----------------------------------------------------------------------

// A GEMM kernel's output tile on a GPU's tensor units: 128 x 128 outputs, one tile on an SM at a time (the
// common tile of cuBLAS's and CUTLASS's tensor-core kernels); a product of fewer rows or columns takes a
// tile of them rounded up to 16, a tensor-core MMA's height, as small-batch kernels do.
inline constexpr std::uint64_t tile_rows = 128;
inline constexpr std::uint64_t tile_columns = 128;
inline constexpr std::uint64_t tile_step = 16;
// The least depth (k) a slice of a split-K product keeps. cuBLASLt splits the K loop of a product whose
// tiles leave SMs idle: this project's measured H100 and H200 GEMMs (docs/explanation/benchmarks/gpu.md) run
// products of 128 and 256 tokens with K = 4096 to 14336 as if split so, while Azure's 1024^3 GEMMs, from
// which the kernel overhead is derived, run as one wave of whole tiles, and Azure's large products keep
// their last wave's idle SMs. 512 to 2048 give the same errors on those measurements within half a point; 1024
// leaves a 1024-deep product whole.
inline constexpr std::uint64_t split_depth = 1024;

// How much longer a matrix product takes than its FLOP at the machine's matmul rate on `sms` SMs: its outputs
// padded to whole tiles; where the tiles are fewer than the SMs, its K loop split into as many slices as one
// wave holds (each split_depth deep or more); the tiles' slices run in waves of `sms`, each at an SM's share
// of the rate. So waves x sms x tile rows x tile columns x slice depth / (count x rows x columns x depth), 1
// or more: a 1024^3 GEMM on an A100's 108 SMs is 64 tiles in one wave, 108 / 64 = 1.6875; a 128-token down
// projection of Llama 3 8B (K = 14336) on an H100's 132 SMs, 32 tiles in 4 slices, 132 / 128. Not a matrix
// product, or no SM count: 1. time_on takes it for products on tensor units only (a CPU's vector GEMMs are
// not tiled so).
[[nodiscard]] constexpr double tiling_factor(const gemm_shape& g, unsigned sms) noexcept {
  if (g.count == 0 || g.rows == 0 || g.columns == 0 || sms == 0) return 1.0;
  using detail::ceil_div;
  const auto tile = [](std::uint64_t n, std::uint64_t most) { return n >= most ? most : ceil_div(n, tile_step) * tile_step; };
  const std::uint64_t rows = tile(g.rows, tile_rows);
  const std::uint64_t columns = tile(g.columns, tile_columns);
  // Whole tiles: no more than the outputs, which validate_counts keeps below 2^62.
  const std::uint64_t tiles = g.count * ceil_div(g.rows, rows) * ceil_div(g.columns, columns);
  const std::uint64_t slices = tiles < sms ? std::max<std::uint64_t>(1, std::min(g.depth / split_depth, sms / tiles)) : 1;
  const double slice_share =
      slices == 1 ? 1.0 : static_cast<double>(ceil_div(g.depth, slices)) / static_cast<double>(g.depth);
  const auto waves = static_cast<double>(ceil_div(tiles * slices, sms));
  return waves * sms * static_cast<double>(rows * columns) * slice_share /
         (static_cast<double>(g.count) * static_cast<double>(g.rows) * static_cast<double>(g.columns));
}

// The fixed cost the machine's kernels pay (0 s where it publishes none).
[[nodiscard]] constexpr duration kernel_overhead_of(const machine_description& m) noexcept {
  return m.kernel_overhead.published() ? m.kernel_overhead.value : duration{};
}

enum class limit { compute, memory, link };

[[nodiscard]] constexpr std::string_view to_string(limit l) noexcept {
  switch (l) {
    case limit::compute: return "compute";
    case limit::memory: return "memory";
    case limit::link: return "link";
  }
  return "?";
}

// One operator on the machine: its intensity, the time its FLOP and its bytes take at the achieved rates
// (the FLOP's tiled into waves in an expected time), the link time, its kernels' overhead (expected time
// only), its time (max of compute and memory, plus the link and the overhead) and what binds it.
struct operator_time {
  operator_cost op{};
  arithmetic_intensity intensity{};
  duration compute_time{};
  duration memory_time{};
  duration link_time{};
  duration overhead{};
  duration time{};
  limit bound = limit::memory;
};

// The roof an operator sees: the machine's main-memory bandwidth and the peak of its compute kind, each
// scaled by the achieved share. A machine without a peak for that kind fails here: a compile error in a
// constant expression, std::invalid_argument at run time.
namespace detail {

// time_on for efficiencies already validated (a step's operators share them: a long generation in a constant
// expression would pay for each operator's check).
[[nodiscard]] constexpr operator_time time_on_validated(const operator_cost& op, const machine_description& m,
                                                        const inference_options& o) {
  operator_time r{.op = op};
  const data_size moved = op.bytes();
  r.intensity = moved.value() > 0 ? op.flops / moved : arithmetic_intensity{};
  // The time model's streaming transfer and compute time (no latency: operators stream their bytes).
  const memory streaming{.latency = 0 * second,
                         .bandwidth = bandwidth_of(main_memory(m), basis::datasheet).value * o.achieved.memory};
  expects(streaming.bandwidth.value() > 0, "hml: the machine publishes no main-memory bandwidth");
  r.memory_time = detail::transfer_time_of(streaming, moved, sequential_access);  // streaming checked above
  if (op.flops.value() > 0) {
    r.compute_time = compute_time(compute_core{roof_of(m, op.compute).peak * o.achieved.compute}, op.flops);
  }
  if (o.estimate == estimate::expected) {
    if (op.compute.unit == compute_unit::tensor) r.compute_time = r.compute_time * tiling_factor(op.gemm, m.cores);
    if (op.link_messages == 0) r.overhead = op.repeats * kernel_overhead_of(m);  // one kernel a run
  }
  if (op.link_sent.value() > 0 || op.link_messages > 0) {
    expects(op.link_messages > 0, "hml: link traffic needs at least one message");
    validate(o.link);
    // Each message of a ring sends a chunk to the next device while it receives one from the previous:
    // at once on a full-duplex link, in turn on a half-duplex one (hml.link says how long each takes).
    const data_size chunk = op.link_sent / op.link_messages;
    r.link_time = op.link_messages * detail::link_time_both_ways_of(o.link, chunk, chunk);
  }
  r.time = combine(r.memory_time, r.compute_time, overlap::full) + r.link_time;
  if (o.estimate == estimate::expected) r.time += r.overhead;  // the bound skips it: constexpr steps are a budget
  r.bound = r.link_time > combine(r.memory_time, r.compute_time, overlap::full) ? limit::link
            : r.compute_time > r.memory_time                                    ? limit::compute
                                                                                : limit::memory;
  return r;
}

}  // namespace detail

[[nodiscard]] constexpr operator_time time_on(const operator_cost& op, const machine_description& m,
                                              const inference_options& o) {
  validate(o.achieved);
  return detail::time_on_validated(op, m, o);
}

// A step on a machine: its operators, their totals, its time and what binds it overall. Under pipeline
// parallelism, the operators are the busiest stage's for all the step's micro-batches, and the step's time
// adds what that stage waits (pipeline_wait): the bubble, and its micro-batches' hand-offs from stage to stage.
struct step_analysis {
  step_shape shape{};
  fixed_list<operator_time, max_step_operators> operators{};
  work flops{};
  data_size weights{};
  data_size kv_read{};
  data_size bytes{};
  duration compute_time{};  // sum of the operators' compute times
  duration memory_time{};   // sum of the operators' memory times
  duration link_time{};
  duration overhead{};      // the kernels' fixed costs (expected time only)
  duration pipeline_wait{};
  step_time time{};

  [[nodiscard]] constexpr tokens produced() const noexcept {
    return {shape.kind == phase::decode ? shape.batch : shape.batch * shape.new_tokens};
  }
  // The share of the step's time an operator takes.
  [[nodiscard]] constexpr double share(const operator_time& t) const noexcept { return t.time / time.value; }
  // Memory-bound overall when the operators' memory times add up to more than their compute times.
  [[nodiscard]] constexpr limit bound() const noexcept {
    if (link_time > memory_time && link_time > compute_time) return limit::link;
    return compute_time > memory_time ? limit::compute : limit::memory;
  }
};

namespace detail {

// An operator's figures added to its step's totals and time.
constexpr void add_to_totals(step_analysis& r, const operator_time& ot) noexcept {
  r.flops += ot.op.flops;
  r.weights += ot.op.weights;
  r.kv_read += ot.op.kv_read;
  r.bytes += ot.op.bytes();
  r.compute_time += ot.compute_time;
  r.memory_time += ot.memory_time;
  r.link_time += ot.link_time;
  r.overhead += ot.overhead;
  r.time.value += ot.time;
}

// An operator run `runs` times more, added to another run of it (the same operator of another micro-batch).
constexpr void add_runs(operator_time& into, const operator_time& more, std::uint64_t runs) noexcept {
  const operator_cost op = repeated(more.op, runs);
  into.op.flops += op.flops;
  into.op.weights += op.weights;
  into.op.kv_read += op.kv_read;
  into.op.kv_written += op.kv_written;
  into.op.activations_read += op.activations_read;
  into.op.activations_written += op.activations_written;
  into.op.link_sent += op.link_sent;
  into.op.link_messages += op.link_messages;
  into.op.repeats += op.repeats;
  const data_size moved = into.op.bytes();
  into.intensity = moved.value() > 0 ? into.op.flops / moved : arithmetic_intensity{};
  const double n = static_cast<double>(runs);
  into.compute_time += n * more.compute_time;
  into.memory_time += n * more.memory_time;
  into.link_time += n * more.link_time;
  into.overhead += n * more.overhead;
  into.time += n * more.time;
  into.bound = into.link_time > combine(into.memory_time, into.compute_time, overlap::full) ? limit::link
               : into.compute_time > into.memory_time                                          ? limit::compute
                                                                                                : limit::memory;
}

}  // namespace detail

// One device's step of a pipeline stage (the whole model where there is no pipeline).
[[nodiscard]] constexpr step_analysis analyze_stage(const transformer& t, const step_shape& s, const machine_description& m,
                                                    const inference_options& o, const pipeline_stage& stage) {
  step_analysis r{.shape = s};
  for (const operator_cost& op : stage_operators(t, s, o, stage)) {  // which validates o
    const operator_time ot = detail::time_on_validated(op, m, o);
    r.operators.push_back(ot);
    detail::add_to_totals(r, ot);
  }
  return r;
}

namespace detail {

// A step of a pipeline: each kind of stage (its layers, first, last) timed once for each micro-batch size
// (the batch's sequences over the micro-batches, and one more for the first `batch % count`), the
// schedule's time from those, and the busiest stage's operators for every micro-batch.
[[nodiscard]] constexpr step_analysis analyze_pipeline_step(const transformer& t, const step_shape& s,
                                                            const machine_description& m, const inference_options& o) {
  const unsigned stages = o.pipeline.stages;
  const std::uint64_t count = micro_batches_of(o.pipeline, s.batch);
  const std::uint64_t small = s.batch / count;
  const std::uint64_t larger = s.batch % count;  // micro-batches of small + 1 sequences
  const auto sequences = [&](unsigned j) { return j < larger ? small + 1 : small; };
  const auto shape_of = [&](std::uint64_t batch) {
    step_shape r = s;
    r.batch = batch;
    return r;
  };
  std::array<duration, max_pipeline_stages> small_time{}, large_time{};
  step_analysis small_step{}, large_step{}, busiest_small{}, busiest_large{};
  duration busiest_work{};
  for (unsigned i = 0; i < stages; ++i) {
    const pipeline_stage stage = stage_of(t, stages, i);
    if (i == 0 || !(stage == stage_of(t, stages, i - 1))) {
      small_step = analyze_stage(t, shape_of(small), m, o, stage);
      if (larger > 0) large_step = analyze_stage(t, shape_of(small + 1), m, o, stage);
    }
    small_time[i] = small_step.time.value;
    large_time[i] = large_step.time.value;
    const duration work = static_cast<double>(count - larger) * small_time[i] + static_cast<double>(larger) * large_time[i];
    if (i == 0 || work > busiest_work) {
      busiest_work = work;
      busiest_small = small_step;
      busiest_large = large_step;
    }
  }
  const auto stage_time = [&](unsigned i, unsigned j) { return j < larger ? large_time[i] : small_time[i]; };
  const auto hand_off = [&](unsigned j) {
    return link_time(o.pipeline.link, bytes_of(sequences(j) * s.new_tokens * t.hidden, o.types.activations));
  };
  const auto micro = static_cast<unsigned>(count);
  const duration time = s.kind == phase::prefill ? fill_and_drain(stages, micro, stage_time, hand_off)
                                                 : steady_state_cycle(stages, micro, stage_time, hand_off);
  step_analysis r{.shape = s, .pipeline_wait = time - busiest_work, .time = {time - busiest_work}};
  for (std::size_t k = 0; k < busiest_small.operators.size(); ++k) {
    operator_time op{.op = repeated(busiest_small.operators[k].op, 0)};
    add_runs(op, busiest_small.operators[k], count - larger);
    if (larger > 0) add_runs(op, busiest_large.operators[k], larger);
    r.operators.push_back(op);
    add_to_totals(r, op);
  }
  return r;
}

}  // namespace detail

// A step on the machine: the whole model on each tensor-parallel device, or a pipeline's step.
[[nodiscard]] constexpr step_analysis analyze_step(const transformer& t, const step_shape& s,
                                                   const machine_description& m, const inference_options& o = {}) {
  if (o.pipeline.stages > 1) {
    validate(t, o);
    expects(s.batch > 0, "hml: a step needs batch and new tokens >= 1 and a context that holds them");
    return detail::analyze_pipeline_step(t, s, m, o);
  }
  return analyze_stage(t, s, m, o, whole_model(t));
}

// Where the link starts to bind: the per-direction bandwidth below which a step's link time exceeds both
// its memory and its compute time. Each device sends S bytes in k messages and receives as much: on a
// full-duplex link both at once, S / B + k latency; on a half-duplex one in turn, 2 (S / B + k latency).
// So B* = w S / (max(memory, compute) - w k latency), w = 1 full duplex, 2 half (in an expected time the
// kernels' overhead joins max(memory, compute)). Infinite when the
// latencies alone exceed them (any bandwidth binds); zero when the step sends nothing.
[[nodiscard]] constexpr data_rate binding_link_bandwidth(const step_analysis& s, const inference_options& o) {
  data_size sent{};
  double messages = 0;
  for (const operator_time& t : s.operators) {
    sent += t.op.link_sent;
    messages += t.op.link_messages;
  }
  if (sent.value() == 0) return data_rate{};
  const double ways = o.link.mode == duplex::half ? 2.0 : 1.0;
  const duration other = combine(s.memory_time, s.compute_time, overlap::full) + s.overhead;  // 0 at the bound
  const duration slack = other - ways * messages * o.link.latency;
  if (slack.value() <= 0) return data_rate::from_value(__builtin_inf());
  return ways * sent / slack;
}

// A request: `batch` sequences of `prompt` tokens, each generating `generate` tokens (the first of them by
// the prefill, the rest by decode steps over contexts prompt + 1 ... prompt + generate - 1).
struct generation {
  std::uint64_t batch = 1;
  std::uint64_t prompt = 1;
  std::uint64_t generate = 1;
};

struct generation_analysis {
  step_time prefill{};          // time to first token
  step_time decode{};           // all decode steps
  step_time total{};
  time_per_token decode_per_token{};  // decode time over the tokens decode produced
  token_rate decode_throughput{};
  step_analysis first_decode{};
  step_analysis last_decode{};
};

[[nodiscard]] constexpr generation_analysis analyze_generation(const transformer& t, const generation& g,
                                                               const machine_description& m,
                                                               const inference_options& o = {}) {
  expects(g.batch > 0 && g.prompt > 0 && g.generate > 0, "hml: batch, prompt and generate must be >= 1");
  generation_analysis r{};
  r.prefill = analyze_step(t, prefill_step(g.batch, g.prompt), m, o).time;
  // Each step is kept only where it is the first or the last: copying every step's operators would cost a
  // long generation more constexpr steps than analysing it.
  for (std::uint64_t i = 1; i < g.generate; ++i) {
    if (i == 1) {
      r.first_decode = analyze_step(t, decode_step(g.batch, g.prompt + i), m, o);
      r.decode = r.decode + r.first_decode.time;
    } else if (i + 1 == g.generate) {
      r.last_decode = analyze_step(t, decode_step(g.batch, g.prompt + i), m, o);
      r.decode = r.decode + r.last_decode.time;
    } else {
      r.decode = r.decode + analyze_step(t, decode_step(g.batch, g.prompt + i), m, o).time;
    }
  }
  if (g.generate == 2) r.last_decode = r.first_decode;
  r.total = r.prefill + r.decode;
  if (g.generate > 1) {
    const tokens decoded{g.batch * (g.generate - 1)};
    r.decode_per_token = per_token(r.decode, decoded);
    r.decode_throughput = throughput(r.decode, decoded);
  }
  return r;
}

// --- Serving figures ---------------------------------------------------------------------------------

// A generation as serving benchmarks report it, for `g.batch` requests that start together and run as one
// batch (no queue, no continuous batching), each with g.prompt tokens in and g.generate out. The
// definitions are vLLM's benchmarks/benchmark_serving.py (SGLang's bench_serving follows them): the time to
// first token is the prefill; the time per output token is per request, excluding the first token,
// (end-to-end latency - TTFT) / (output tokens - 1), not the decode time over every token of the batch;
// the end-to-end latency is the prefill and every decode step; the output throughput is every token the
// batch produced (batch x generate, the first tokens included) over the end-to-end latency.
struct serving_figures {
  step_time time_to_first_token{};
  time_per_token time_per_output_token{};  // 0 s where one token is generated (vLLM reports none)
  step_time end_to_end{};
  token_rate output_throughput{};
};

[[nodiscard]] constexpr serving_figures serving(const generation_analysis& r, const generation& g) {
  expects(g.batch > 0 && g.prompt > 0 && g.generate > 0, "hml: batch, prompt and generate must be >= 1");
  serving_figures s{.time_to_first_token = r.prefill, .end_to_end = r.total};
  if (g.generate > 1) s.time_per_output_token = per_token(r.decode, tokens{g.generate - 1});
  s.output_throughput = throughput(r.total, tokens{g.batch * g.generate});
  return s;
}

// --- Chunked prefill -------------------------------------------------------------------------------------

// A prompt prefilled `chunk` tokens a step (vLLM's and SGLang's chunked prefill, which keeps a long prompt
// from stalling the batch's decode steps): the first chunk a prefill step of its own tokens, each later
// one its tokens attending to the cache of all before them and to each other (decode attention over
// several queries). Each step reads the weights again, so chunks too small to keep the GEMMs compute-bound
// cost more in all; a chunk as long as the prompt is the plain prefill. A chunk's queries see only the
// keys before them and their own, the causal saving that the plain prefill's convention (every query
// against every key) does not take: large chunks can come out a little faster than the prefill at once.
// The other requests' decode tokens a server mixes into each step are not modelled here.
struct chunked_prefill_time {
  step_time time{};  // the time to first token
  std::uint64_t steps = 0;
};

[[nodiscard]] constexpr chunked_prefill_time chunked_prefill(const transformer& t, std::uint64_t batch,
                                                              std::uint64_t prompt, std::uint64_t chunk,
                                                              const machine_description& m,
                                                              const inference_options& o = {}) {
  expects(batch > 0 && prompt > 0 && chunk > 0, "hml: batch, prompt and chunk must be >= 1");
  chunked_prefill_time r{};
  for (std::uint64_t done = 0; done < prompt; done += chunk) {
    const std::uint64_t now = prompt - done < chunk ? prompt - done : chunk;
    const step_shape shape = done == 0 ? prefill_step(batch, now) : step_shape{phase::decode, batch, now, done + now};
    r.time = r.time + analyze_step(t, shape, m, o).time;
    ++r.steps;
  }
  return r;
}

// --- Speculative decoding ------------------------------------------------------------------------------

// Speculative decoding (Leviathan, Kalman and Matias, "Fast Inference from Transformers via Speculative
// Decoding", ICML 2023; Chen et al., arXiv:2302.01318): a small draft model proposes `lookahead` tokens one
// decode step at a time, the target verifies them and one more in one step, and keeps the drafted tokens up
// to the first it rejects plus one of its own. With each drafted token accepted with probability
// `acceptance` (alpha) independently, a step yields (1 - alpha^(gamma + 1)) / (1 - alpha) tokens on
// average (gamma + 1 where every token is accepted): the paper's Theorem 3.8.
[[nodiscard]] constexpr double expected_tokens_per_step(double acceptance, unsigned lookahead) {
  expects(acceptance >= 0 && acceptance <= 1, "hml: the acceptance rate is within [0, 1]");
  expects(lookahead >= 1, "hml: speculative decoding drafts at least one token a step");
  double power = 1;  // alpha^(gamma + 1)
  for (unsigned k = 0; k <= lookahead; ++k) power *= acceptance;
  return acceptance == 1 ? lookahead + 1.0 : (1 - power) / (1 - acceptance);
}

// One speculative step of a batch at `context` tokens: the draft's `lookahead` decode steps, the target's
// verifying step, and what they give per output token against the target's plain decode step. The paper
// takes the verifying step as long as a decode step (its c is the draft's step over the target's); hml
// times it (its attention runs gamma + 1 queries, its GEMMs gamma + 1 rows a sequence).
struct speculative_step {
  step_time draft{};   // the draft's steps, all of them
  step_time verify{};  // the target's step over gamma + 1 tokens a sequence
  step_time plain{};   // the target's plain decode step, for comparison
  double tokens_per_step = 0;  // per sequence, on average
  time_per_token per_output_token{};

  [[nodiscard]] constexpr step_time total() const noexcept { return {draft.value + verify.value}; }
  // How much faster than plain decode (below 1: slower).
  [[nodiscard]] constexpr double speedup() const { return plain.value / per_output_token.value; }
};

[[nodiscard]] constexpr speculative_step speculative_decoding(const transformer& target, const transformer& draft,
                                                              std::uint64_t batch, std::uint64_t context,
                                                              unsigned lookahead, double acceptance,
                                                              const machine_description& m,
                                                              const inference_options& o = {}) {
  expects(draft.vocab == target.vocab, "hml: the draft model must share the target's vocabulary");
  speculative_step r{.tokens_per_step = expected_tokens_per_step(acceptance, lookahead)};
  for (unsigned k = 0; k < lookahead; ++k) r.draft = r.draft + analyze_step(draft, decode_step(batch, context + k), m, o).time;
  r.verify = analyze_step(target, verify_step(batch, lookahead, context + lookahead), m, o).time;
  r.plain = analyze_step(target, decode_step(batch, context), m, o).time;
  r.per_output_token = {r.total().value / r.tokens_per_step};  // each sequence's tokens, on average
  return r;
}

// --- The ridge batch ---------------------------------------------------------------------------------

// Where decode turns compute-bound: a batch, or never. Not a number, so that `ridge > 64` does not compile
// and an infinity cannot pass a comparison unseen: ask reached(), then batch(), which for a ridge never
// reached is an error (in a static_assert, a compile error).
class decode_ridge {
public:
  [[nodiscard]] static constexpr decode_ridge never() noexcept { return decode_ridge{}; }
  constexpr explicit decode_ridge(double batch) : batch_{batch}, reached_{true} {
    expects(batch >= 0 && batch < __builtin_inf(), "hml: a ridge batch is finite and >= 0; else it is never()");
  }
  [[nodiscard]] constexpr bool reached() const noexcept { return reached_; }
  [[nodiscard]] constexpr double batch() const {
    expects(reached_, "hml: decode never turns compute-bound here: the ridge has no batch (ask reached() first)");
    return batch_;
  }
  friend constexpr bool operator==(const decode_ridge&, const decode_ridge&) = default;

private:
  constexpr decode_ridge() = default;
  double batch_ = 0;
  bool reached_ = false;
};

// The batch at which a decode step over `context` tokens turns compute-bound overall: its compute time and
// its memory time (sums over the operators) are both affine in the batch, C(b) = C0 + c b and
// M(b) = M0 + m b (weights are read once whatever the batch; activations, KV cache and FLOP grow with it),
// so they meet at b* = (M0 - C0) / (c - m). Read off the library's own step at b = 1 and b = 2. Never
// when the step never turns (c <= m: the KV cache grows as fast as the compute, as at long contexts).
// With only the weights counted this is llm-analysis's pivot, peak x |w| / (2 bandwidth).
// A mixture of experts reads more experts' weights as the batch grows until every expert is touched, at
// batch experts / active: the affine form holds from there, and below it the first compute-bound batch is
// searched for. It is the bound's ridge whatever `o.estimate` says (tiles make the compute time a staircase).
// Of a pipeline, each micro-batch's ridge, the whole model's on one stage group, times the micro-batches (a
// stage's own ridge differs from the model's only by its share of the embedding and the LM head).
[[nodiscard]] constexpr decode_ridge ridge_batch(const transformer& t, std::uint64_t context, const machine_description& m,
                                                 inference_options o = {}) {
  o.estimate = estimate::bound;
  if (o.pipeline.stages > 1) {
    validate(t, o);
    const double micro_batches = o.pipeline.micro_batches > 0 ? o.pipeline.micro_batches : o.pipeline.stages;
    o.pipeline = {};
    const decode_ridge each = ridge_batch(t, context, m, o);
    return each.reached() ? decode_ridge{each.batch() * micro_batches} : each;
  }
  const std::uint64_t from = t.experts > 1 ? detail::ceil_div(t.experts, t.active_experts) : 1;
  const step_analysis one = analyze_step(t, decode_step(from, context), m, o);
  const step_analysis two = analyze_step(t, decode_step(from + 1, context), m, o);
  const double c = (two.compute_time - one.compute_time).value();
  const double mem = (two.memory_time - one.memory_time).value();
  const double b = static_cast<double>(from);
  const double c0 = one.compute_time.value() - c * b;
  const double m0 = one.memory_time.value() - mem * b;
  if (c <= mem) return decode_ridge::never();
  const double ridge = (m0 - c0) / (c - mem);
  if (t.experts == 1 || ridge >= b) return decode_ridge{ridge};
  for (std::uint64_t batch = 1; batch < from; ++batch) {
    if (analyze_step(t, decode_step(batch, context), m, o).bound() == limit::compute) {
      return decode_ridge{static_cast<double>(batch)};
    }
  }
  return decode_ridge{b};
}

// --- Memory ------------------------------------------------------------------------------------------

struct memory_use {
  data_size weights{};
  data_size kv_cache{};
  data_size activations{};
  [[nodiscard]] constexpr data_size total() const noexcept { return weights + kv_cache + activations; }
};

// The token slots a sequence of `context` tokens holds in the KV cache: its tokens, rounded up to whole blocks
// where the cache is paged (17 tokens in blocks of 16 take 32 slots).
[[nodiscard]] constexpr std::uint64_t kv_slots(std::uint64_t context, const memory_policy& p) noexcept {
  const std::uint64_t block = p.kv_block_tokens;
  return block == 0 ? context : detail::ceil_div(context, block) * block;
}

namespace detail {

// The KV cache of `layers` layers for `batch` sequences of `context` tokens on one device of n tensor-parallel
// ones: 2 layers (kv / n) d batch slots |kv|.
[[nodiscard]] constexpr data_size kv_cache_of(const transformer& t, std::uint64_t layers, std::uint64_t batch,
                                              std::uint64_t context, const inference_options& o) {
  return bytes_of(2 * layers * (t.kv_heads / o.tensor_parallel) * t.head_dim * batch * kv_slots(context, o.memory),
                  o.types.kv_cache);
}

}  // namespace detail

// The KV cache of `batch` sequences of `context` tokens on one device (of a pipeline, the stage of the most
// layers).
[[nodiscard]] constexpr data_size kv_cache_size(const transformer& t, std::uint64_t batch, std::uint64_t context,
                                                const inference_options& o = {}) {
  validate(t, o);
  validate_counts(t, batch, 1, kv_slots(context, o.memory));
  std::uint64_t most = 0;
  for (unsigned i = 0; i < o.pipeline.stages; ++i) most = std::max(most, stage_of(t, o.pipeline.stages, i).layers);
  return detail::kv_cache_of(t, most, batch, context, o);
}

// What one device holds: its share of its stage's weights (a stage's parameters over n: the replicated
// norms and embedding are counted once over n too, a small undercount), the KV cache of its layers for
// batch x context, and the activations: the largest live set of one operator (its activations read and
// written) of the prefill of the whole context by a micro-batch (the whole batch without a pipeline), the
// heaviest step. Of a pipeline, the stage that needs the most.
[[nodiscard]] constexpr memory_use memory_needed(const transformer& t, std::uint64_t batch, std::uint64_t context,
                                                 const inference_options& o = {}) {
  validate(t, o);
  validate_counts(t, batch, context, context);
  validate_counts(t, batch, 1, kv_slots(context, o.memory));
  memory_use r{};
  const std::uint64_t largest_micro_batch = detail::ceil_div(batch, micro_batches_of(o.pipeline, batch));
  for (const operator_cost& op : step_operators(t, prefill_step(largest_micro_batch, context), o)) {
    if (op.name == "all-reduce"sv) continue;
    // An operator summed over its runs (once or twice per layer) holds one run's buffers at a time.
    const data_size live = (op.activations_read + op.activations_written) / op.repeats;
    if (live > r.activations) r.activations = live;
  }
  const double weight_bits = stored_weight_bits(o.types);
  for (unsigned i = 0; i < o.pipeline.stages; ++i) {
    const pipeline_stage stage = stage_of(t, o.pipeline.stages, i);
    const data_size weights =
        static_cast<double>(stage_parameters(t, stage)) * weight_bits * bit / static_cast<double>(o.tensor_parallel);
    const data_size kv = detail::kv_cache_of(t, stage.layers, batch, context, o);
    if (i == 0 || weights + kv > r.weights + r.kv_cache) {
      r.weights = weights;
      r.kv_cache = kv;
    }
  }
  return r;
}

// The capacity of the machine's main memory (typed; published by every catalog GPU).
[[nodiscard]] constexpr data_size capacity_of(const machine_description& m) {
  const figure<data_size> c = main_memory(m).capacity;
  expects(c.published(), "hml: the machine publishes no main-memory capacity");
  return c.value;
}

// The memory a run may take on the device: its capacity times the memory utilization.
[[nodiscard]] constexpr data_size usable_memory(const machine_description& m, const inference_options& o = {}) {
  validate(o.memory);
  return capacity_of(m) * o.memory.memory_utilization;
}

// Sizes too large for exact counts (see validate_counts) are far beyond any memory: they do not fit.
[[nodiscard]] constexpr bool fits(const transformer& t, std::uint64_t batch, std::uint64_t context,
                                  const machine_description& m, const inference_options& o = {}) {
  if (!counts_are_exact(t, batch, context, kv_slots(context, o.memory))) return false;
  return memory_needed(t, batch, context, o).total() <= usable_memory(m, o);
}

// The largest batch of `context`-token sequences that fits (0 if not even one), by bisection: memory
// grows with the batch.
[[nodiscard]] constexpr std::uint64_t largest_batch(const transformer& t, std::uint64_t context,
                                                    const machine_description& m, const inference_options& o = {}) {
  std::uint64_t low = 0, high = 1;
  while (fits(t, high, context, m, o) && high < (std::uint64_t{1} << 40)) high *= 2;
  while (high - low > 1) {
    const std::uint64_t mid = low + (high - low) / 2;
    (fits(t, mid, context, m, o) ? low : high) = mid;
  }
  return low;
}

// The longest context that `batch` sequences may hold (0 if none fits).
[[nodiscard]] constexpr tokens largest_context(const transformer& t, std::uint64_t batch,
                                               const machine_description& m, const inference_options& o = {}) {
  std::uint64_t low = 0, high = 1;
  while (fits(t, batch, high, m, o) && high < (std::uint64_t{1} << 40)) high *= 2;
  while (high - low > 1) {
    const std::uint64_t mid = low + (high - low) / 2;
    (fits(t, batch, mid, m, o) ? low : high) = mid;
  }
  return {low};
}

// --- Calibration -------------------------------------------------------------------------------------

// The memory efficiency at which the model's step takes `measured` (the compute efficiency as given), by
// bisection: the step's time falls as the memory efficiency grows. Fails if no efficiency in (0, 1] gives
// that time (the measurement is faster than the model at full bandwidth, or compute-bound throughout).
[[nodiscard]] constexpr double fit_memory_efficiency(const transformer& t, const step_shape& s,
                                                     const machine_description& m, step_time measured,
                                                     inference_options o = {}) {
  o.achieved.memory = 1.0;
  expects(analyze_step(t, s, m, o).time.value <= measured.value,
          "hml: the measured time is shorter than the model's at full bandwidth");
  double low = 1e-6, high = 1.0;
  for (int i = 0; i < 60; ++i) {
    const double mid = (low + high) / 2;
    o.achieved.memory = mid;
    (analyze_step(t, s, m, o).time.value > measured.value ? low : high) = mid;
  }
  return high;
}

// The same for the compute efficiency (the memory efficiency as given).
[[nodiscard]] constexpr double fit_compute_efficiency(const transformer& t, const step_shape& s,
                                                      const machine_description& m, step_time measured,
                                                      inference_options o = {}) {
  o.achieved.compute = 1.0;
  expects(analyze_step(t, s, m, o).time.value <= measured.value,
          "hml: the measured time is shorter than the model's at full compute");
  double low = 1e-6, high = 1.0;
  for (int i = 0; i < 60; ++i) {
    const double mid = (low + high) / 2;
    o.achieved.compute = mid;
    (analyze_step(t, s, m, o).time.value > measured.value ? low : high) = mid;
  }
  return high;
}

}  // namespace hml
