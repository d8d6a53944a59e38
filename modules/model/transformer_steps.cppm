// hml.transformer:steps — how a model runs (precisions, efficiencies, memory policy, tensor and pipeline
// parallelism) and the operators of one step on one device.
module;
#include <algorithm>
#include <array>
#include <compare>
#include <cstddef>
#include <cstdint>
#include <string_view>
export module hml.transformer:steps;
import hml.operators;
import hml.analysis;
import hml.link;
import hml.pipeline;
import :model;

using namespace std::string_view_literals;

export namespace hml {

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
          "hml: a weight group is INT8's or INT4's (NVFP4 and MXFP4 count their blocks' scales themselves); give int8 or "
          "int4 weights with it");
  expects(p.weight_group >= 2 && p.weight_group <= max_weight_group, "hml: a weight group holds 2 to 2^20 weights");
}

// Bits a weight takes in memory with its share of its group's scale and zero point: INT4 in groups of 32,
// 4 + 2 x 16 / 32 = 5.
[[nodiscard]] constexpr double stored_weight_bits(const precisions& p) noexcept {
  constexpr double scale_and_zero_bits = 2 * 16;
  return bits_of(p.weights) + (p.weight_group > 0 ? scale_and_zero_bits / static_cast<double>(p.weight_group) : 0.0);
}

// An operator whose weights are stored in `p`: each weight read with its share of its group's scale and zero
// point (the operator's weights counted at p.weights' bits, as operators count them).
[[nodiscard]] constexpr operator_cost with_group_scales(operator_cost op, const precisions& p) noexcept {
  if (p.weight_group > 0) op.weights = op.weights * (stored_weight_bits(p) / bits_of(p.weights));
  return op;
}

enum class attention_kernel { fused, unfused };

// How the element-wise operations of a layer run: each a kernel of its own that reads its inputs from memory
// and writes its output back (separate; LLM-Viewer counts them so), or fused into their neighbours as
// inference engines run them (TensorRT-LLM, FasterTransformer; llm-analysis counts them so): the rotary
// embedding and the cache store in the attention kernel, a residual add in the norm after it, the MLP's
// activation in its up projection's epilogue. Fused, they move no bytes of their own but the cache's writes,
// the norm reads and writes the residual too, the up projection writes its activated half, and each takes
// its FLOP into the kernel it joins: docs/explanation/transformer-conventions.md.
enum class elementwise_kernels { separate, fused };

// Achieved share of the compute peak and of the memory bandwidth, in (0, 1].
struct efficiency {
  double compute = 1.0;
  double memory = 1.0;
};

constexpr void validate(const efficiency& e) {
  expects(e.compute > 0 && e.compute <= 1, "hml: the compute efficiency must be within (0, 1]; give the share of the peak reached, as 0.7 for 70 %");
  expects(e.memory > 0 && e.memory <= 1, "hml: the memory efficiency must be within (0, 1]; give the share of the bandwidth reached, as 0.8 for 80 %");
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
  expects(p.memory_utilization > 0 && p.memory_utilization <= 1, "hml: the memory utilization must be within (0, 1]; give the share of memory the engine may take, as 0.9 for 90 %");
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

// How NCCL all-reduces inside a node. Ring: reduce-scatter, then all-gather, 2 (n - 1) messages one after
// another, each device sending 2 (n - 1) / n x size. NVLS (NVLink SHARP): the switch reduces what each
// device writes and multicasts the sum, one latency whatever n (NCCL's tuning model, src/graph/tuning.cc);
// its bytes are nccl-tests' bus bytes, the same 2 (n - 1) / n x size, so that at the link's NVLS bus
// bandwidth (nvls_link_of) they take the time nccl-tests measured. NCCL has no tree inside a node (a chain).
// One-shot: not NCCL's but the serving engines' own for small messages (vLLM's and SGLang's custom
// all-reduce, TensorRT-LLM's, PyTorch's intra-node comm): each device reads the others' buffers over the link
// and sums them, (n - 1) x size in, between two barriers (each device flags every other and waits for
// theirs): three latencies whatever n, each the link's.
enum class all_reduce_algorithm { ring, nvls, one_shot };

// Every algorithm, by the names to_string gives them (hml llm --all-reduce reads those).
inline constexpr all_reduce_algorithm all_reduce_algorithms[] = {all_reduce_algorithm::ring, all_reduce_algorithm::nvls,
                                                                 all_reduce_algorithm::one_shot};

// A one-shot all-reduce's steps one after another: the opening barrier, the read, the closing barrier.
inline constexpr double one_shot_steps = 3;

[[nodiscard]] constexpr std::string_view to_string(all_reduce_algorithm a) noexcept {
  switch (a) {
    case all_reduce_algorithm::ring: return "ring";
    case all_reduce_algorithm::nvls: return "nvls";
    case all_reduce_algorithm::one_shot: return "one-shot";
  }
  return "?";
}

// A mixture of experts served over n devices as SGLang's --enable-dp-attention and vLLM's data-parallel
// deployment run it: attention, the dense layers, the embedding and the LM head data-parallel, each device its
// own sequences (the busiest ceil(batch / n)) with their whole weights and its own sequences' KV cache; each
// mixture-of-experts layer gathers every device's tokens before its experts and scatters each device's sums
// back after (an all-gather and a reduce-scatter: an all-reduce's messages and bytes, once a layer where
// tensor parallelism all-reduces twice). The experts split over the devices as tensor parallelism splits
// them (each expert's ffn over n), or, with expert parallelism (SGLang's --ep-size, vLLM's
// --enable-expert-parallel), whole: experts / n a device, the busiest taking its share of the token-expert
// pairs and of the experts the step touches, the shared experts whole on every device for its share of the
// tokens. A message of DeepEP's all-to-all carries a token to each device that holds one of its experts: for
// DeepSeek-V3's 8 experts a token over 8 devices that is the all-gather's volume too. Expert parallelism
// without data-parallel attention (vLLM's --enable-expert-parallel at data-parallel size 1) keeps attention
// tensor-parallel: every device has every token after attention's all-reduce, runs its share of the pairs
// through its whole experts, and the layer's sums are all-reduced as tensor parallelism's MLP is.
struct parallel_experts {
  bool data_parallel_attention = false;
  bool expert_parallel = false;
  friend constexpr bool operator==(const parallel_experts&, const parallel_experts&) = default;
};

struct inference_options {
  precisions types{};
  attention_kernel attention = attention_kernel::fused;
  elementwise_kernels elementwise = elementwise_kernels::separate;
  unsigned tensor_parallel = 1;  // devices each stage is split over
  hml::link link{};              // joins them (needed when tensor_parallel > 1): per direction, latency, duplex
  // How their all-reduces run; with NVLS, `link` is the link's NVLS bus bandwidth (nvls_link_of).
  all_reduce_algorithm all_reduce = all_reduce_algorithm::ring;
  parallel_experts experts{};  // a mixture of experts over the tensor_parallel devices (above)
  pipeline_parallelism pipeline{};
  efficiency achieved{};
  memory_policy memory{};
  hml::estimate estimate = hml::estimate::bound;
};

// The devices attention's heads, a dense MLP and the LM head split over: the tensor-parallel ones, or none
// under data-parallel attention, where each device runs them whole for its own sequences.
[[nodiscard]] constexpr std::uint64_t attention_split(const inference_options& o) noexcept {
  return o.experts.data_parallel_attention || o.tensor_parallel == 0 ? 1 : o.tensor_parallel;
}

// The devices an expert's MLP (a dense model's MLP) splits over: none where the experts are whole.
[[nodiscard]] constexpr std::uint64_t expert_split(const inference_options& o) noexcept {
  return o.experts.expert_parallel || o.tensor_parallel == 0 ? 1 : o.tensor_parallel;
}

// A weight group divides the rows it is taken along: every projection's input on one device (the hidden
// size; the heads' width and the FFN sizes as they split over the devices).
constexpr void validate_weight_group(const transformer& t, const inference_options& o) {
  validate(o.types);
  const std::uint64_t g = o.types.weight_group;
  const std::uint64_t a = attention_split(o);
  const latent_attention& l = t.latent;
  const std::uint64_t heads_width = t.heads / a * (has_latent_attention(t) ? l.value_dim : t.head_dim);
  const auto divides = [g](std::uint64_t rows) { return rows == 0 || rows % g == 0; };
  expects(g == 0 || (divides(t.hidden) && divides(heads_width) && divides(t.ffn / expert_split(o)) &&
                     divides(t.dense_ffn / a) && divides(l.q_rank) && divides(l.kv_rank)),
          "hml: a weight group divides every projection's rows (the hidden size, and the heads' width and the FFN "
          "size per device); give a group that divides them, as gpt-fast's 32 to 256 and AWQ's and GPTQ's 128");
}

// The micro-batches a pipeline step runs where the batch holds enough sequences: those asked for, else one
// a stage (vLLM's virtual engines).
[[nodiscard]] constexpr std::uint64_t micro_batches_asked(const pipeline_parallelism& p) noexcept {
  return p.micro_batches > 0 ? p.micro_batches : p.stages;
}

constexpr void validate(const transformer& t, const pipeline_parallelism& p) {
  validate_pipeline(p.stages, static_cast<unsigned>(micro_batches_asked(p)));
  expects(p.stages <= t.layers, "hml: a pipeline stage holds at least one layer: no more stages than layers");
  expects(p.micro_batches <= max_micro_batches, "hml: a pipeline step runs at most 1024 micro-batches");
  if (p.stages > 1) validate(p.link);
}

// Whether the model splits over the tensor-parallel devices: its heads, its FFN and its dense layers' FFN.
constexpr void validate_tensor_split(const transformer& t, const inference_options& o) {
  expects(o.tensor_parallel >= 1, "hml: tensor parallelism needs at least one device");
  const std::uint64_t a = attention_split(o);
  expects(t.heads % a == 0 && t.kv_heads % a == 0,
          "hml: the heads and kv heads must divide by the tensor-parallel devices; give a device count that divides them");
  expects(t.ffn % expert_split(o) == 0,
          "hml: the FFN size must divide by the tensor-parallel devices; give a device count that divides it");
  expects(t.dense_ffn % a == 0,
          "hml: the dense layers' FFN size must divide by the tensor-parallel devices; give a device count that divides it");
}

constexpr void validate(const transformer& t, const inference_options& o) {
  validate(t);
  validate_weight_group(t, o);
  validate(o.achieved);
  validate(o.memory);
  validate_tensor_split(t, o);
  const std::uint64_t n = o.tensor_parallel;
  if (n > 1) validate(o.link);
  if (n > 1 && o.all_reduce == all_reduce_algorithm::nvls) {  // as `hml llm --all-reduce nvls` refuses them
    expects(n == nvls_devices, "hml: NVLS is measured on 8 devices; on 2 to 4 it runs about as fast as the ring: give ring");
    expects(!o.experts.data_parallel_attention,
            "hml: data-parallel attention gathers and scatters by ring and all-reduces nothing: give ring");
  }
  validate(t, o.pipeline);
  if (o.experts.data_parallel_attention) {
    expects(n > 1 && t.experts > 1,
            "hml: data-parallel attention spreads a mixture of experts' sequences over its devices: it needs experts "
            "and two devices or more");
    expects(o.pipeline.stages == 1, "hml: data-parallel attention is not modelled with pipeline stages");
  }
  if (o.experts.expert_parallel) {
    expects(n > 1 && t.experts > 1,
            "hml: expert parallelism spreads a mixture of experts' experts over its devices: it needs experts and two "
            "devices or more");
    expects(t.experts % n == 0, "hml: expert parallelism needs the experts to divide by the devices");
  }
}

// The sequences the busiest device runs of a step's `batch`: all of them, or its share under data-parallel
// attention (the first batch % n devices one more).
[[nodiscard]] constexpr std::uint64_t device_batch(std::uint64_t batch, const inference_options& o) noexcept {
  return o.experts.data_parallel_attention ? detail::ceil_div(batch, o.tensor_parallel) : batch;
}

// The micro-batches a pipeline step of `batch` sequences runs: those asked, no more than the sequences.
[[nodiscard]] constexpr std::uint64_t micro_batches_of(const pipeline_parallelism& p, std::uint64_t batch) noexcept {
  const std::uint64_t asked = micro_batches_asked(p);
  return asked < batch ? asked : batch;
}

// The operators count elements in 64-bit integers (then FLOP and bytes in doubles): every element count
// must stay below 2^62, far from overflow (a batch of 10^9 sequences of 10^6 tokens would not).
[[nodiscard]] constexpr bool counts_are_exact(const transformer& t, std::uint64_t batch, std::uint64_t new_tokens,
                                              std::uint64_t context) noexcept {
  constexpr double limit = 4611686018427387904.0;  // 2^62
  const auto d = [](std::uint64_t x) { return static_cast<double>(x); };
  const latent_attention& l = t.latent;
  const double rows = d(batch) * d(new_tokens);
  const double ffn = std::max(d(t.ffn) * d(t.active_experts + t.shared_experts), d(t.dense_ffn));
  const double widest = std::max({d(t.hidden), 2.0 * ffn, d(t.vocab)});
  // A head's widest row: its query and key, its value, and latent attention's latent and rotary key.
  const double head = d(t.head_dim) + d(l.rope_dim) + d(l.value_dim) + d(l.kv_rank);
  const double mlps = d(t.ffn) * d(t.experts + t.shared_experts) + d(t.dense_ffn);
  return rows * widest * (d(t.heads) + 2.0 * d(t.kv_heads)) < limit &&
         rows * d(t.heads) * head < limit && rows * d(context) * d(t.heads) < limit &&
         2.0 * d(t.layers) * d(batch) * d(context) * d(t.kv_heads) * head < limit &&
         4.0 * d(t.layers) * (d(t.hidden) * (mlps + (d(t.heads) + d(t.kv_heads)) * head) +
                              d(t.heads) * head * (d(l.q_rank) + d(l.kv_rank))) +
                 2.0 * d(t.vocab) * d(t.hidden) + d(t.learned_positions) * d(t.hidden) <
             limit;
}

constexpr void validate_counts(const transformer& t, std::uint64_t batch, std::uint64_t new_tokens,
                               std::uint64_t context) {
  expects(counts_are_exact(t, batch, new_tokens, context),
          "hml: the sizes are too large to count (element counts must stay below 2^62); give smaller sizes");
}

// Whether a context runs past a learned position table's last row, where no token has a position. False for
// rotary models (no table).
[[nodiscard]] constexpr bool past_learned_positions(const transformer& t, std::uint64_t context) noexcept {
  return t.learned_positions > 0 && context > t.learned_positions;
}

constexpr void validate_context(const transformer& t, std::uint64_t context) {
  expects(!past_learned_positions(t, context), "hml: the context is longer than the model's learned positions");
}

// Whether a context runs past the positions the model's configuration gives (max_positions): a rotary model
// computes there all the same, so the counts hold, but the model was not made for it. False where none is given.
[[nodiscard]] constexpr bool past_max_positions(const transformer& t, std::uint64_t context) noexcept {
  return t.max_positions > 0 && context > t.max_positions;
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

constexpr void validate(const step_shape& s) {
  expects(s.batch > 0 && s.new_tokens > 0 && s.context >= s.new_tokens,
          "hml: a step needs batch and new tokens >= 1 and a context that holds them");
}

// An all-reduce of `size` bytes over n devices, by `algorithm` (above).
[[nodiscard]] constexpr operator_cost all_reduce(data_size size, unsigned n,
                                                 all_reduce_algorithm algorithm = all_reduce_algorithm::ring) {
  expects(n >= 1, "hml: an all-reduce needs at least one device");
  if (algorithm == all_reduce_algorithm::one_shot) {
    // Each device's buffer is read by the n - 1 others.
    return {.name = "all-reduce"sv, .link_sent = size * (n - 1.0), .link_messages = n > 1 ? one_shot_steps : 0.0};
  }
  const double steps = 2.0 * (n - 1);
  const double messages = algorithm == all_reduce_algorithm::nvls && n > 1 ? 1.0 : steps;
  return {.name = "all-reduce"sv, .link_sent = size * (steps / n), .link_messages = messages};
}

// Every device's share of `size` bytes gathered onto each (a ring all-gather: n - 1 messages, each device
// sending (n - 1) / n x size), then each device's sums scattered back (a reduce-scatter, the same): together
// a ring all-reduce's messages and bytes.
[[nodiscard]] constexpr operator_cost gather_and_scatter(data_size size, unsigned n) {
  operator_cost op = all_reduce(size, n, all_reduce_algorithm::ring);
  op.name = "all-gather, reduce-scatter"sv;
  return op;
}

// The most operators a step has: 21 (the embedding, a position table or rotary, the norm, the QKV projection
// or latent attention's four (its latents, their norms, Q up, KV up), the cache store, attention, O, the
// residual add, an all-reduce, a router, the MLP's three, a dense first layer's three, the norms, the LM
// head) and one spare. No more: every step fills a list this long, and a compile-time generation pays for
// each slot.
inline constexpr std::size_t max_step_operators = 22;
using operator_list = fixed_list<operator_cost, max_step_operators>;

// Latent attention's projections up to the heads' queries, keys and values, as vLLM and SGLang run them. A
// prefill up-projects the new tokens' KV latents to every head's keys and values (kv_rank x heads (d + d_v)),
// then attends as multi-head attention with keys of d + rope and values of d_v. A decode-phase step runs
// absorbed (DeepSeek-V2, section 2.1.4): each head's key up-projection is applied to its query (d -> kv_rank)
// and its value up-projection to its output (kv_rank -> d_v), so attention reads the latents themselves, as
// multi-query attention with keys of kv_rank + rope whose first kv_rank elements are the values. The same
// weights and FLOP a row either way; absorbed, a head's query and output cross memory at the latent's width.
[[nodiscard]] constexpr operator_cost kv_up_projection(const transformer& t, std::uint64_t rows, std::uint64_t heads,
                                                       bool absorbed, precision act, precision w) {
  const latent_attention& l = t.latent;
  operator_cost op = linear("KV up projection"sv, rows, l.kv_rank, heads * (t.head_dim + l.value_dim), act, w);
  if (!absorbed) return op;
  op.name = "KV up projection (absorbed)"sv;
  op.activations_read = bytes_of(rows * heads * (t.head_dim + l.kv_rank), act);
  op.activations_written = bytes_of(rows * heads * (l.kv_rank + l.value_dim), act);
  op.gemm = {heads, rows, l.kv_rank, t.head_dim};
  return op;
}

// The attention a step runs on one device of n tensor-parallel ones: latent attention expanded (prefill) or
// absorbed (decode, above; its keys are also what the cache holds), else as the model's heads are.
[[nodiscard]] constexpr attention_shape attention_run(const transformer& t, std::uint64_t n, bool absorbed) noexcept {
  const latent_attention& l = t.latent;
  if (!has_latent_attention(t)) return {t.heads / n, t.kv_heads / n, t.head_dim};
  if (absorbed) return {t.heads / n, 1, l.kv_rank + l.rope_dim, l.kv_rank, true};
  return {t.heads / n, t.heads / n, t.head_dim + l.rope_dim, l.value_dim};
}

// The operators of one step on one device of a pipeline stage, each summed over the stage's layers: the
// embedding (and a position table) on the first stage only, the final norm and the LM head on the last. Under
// tensor parallelism over n devices, Q/K/V and gate/up are split by columns and O and down by rows
// (Megatron-LM), the heads, kv heads and ffn by n, the LM head by vocabulary; the embedding and the norms are
// replicated; two all-reduces of the tokens' hidden states per layer (after attention and after the MLP).
// Latent attention's down-projections to its latents are replicated (each device computes them whole, as
// vLLM does) and so is its cache: each device stores every token's latent, whatever n.
[[nodiscard]] constexpr operator_list stage_operators(const transformer& t, const step_shape& s,
                                                      const inference_options& o, const pipeline_stage& stage) {
  validate(t, o);
  expects(stage.layers >= 1 && stage.layers <= t.layers && stage.dense_layers <= stage.layers,
          "hml: a pipeline stage holds 1 to all of the layers");
  validate(s);
  validate_counts(t, s.batch, s.new_tokens, s.context);
  validate_context(t, s.context);
  const precision act = o.types.activations;
  const precision w = o.types.weights;
  const precision kv = o.types.kv_cache;
  const std::uint64_t n = o.tensor_parallel;
  const bool data_parallel = o.experts.data_parallel_attention;
  // The device's own sequences and token rows; a mixture of experts takes every device's (all_rows).
  const std::uint64_t batch = device_batch(s.batch, o);
  const std::uint64_t rows = batch * s.new_tokens;
  const std::uint64_t all_rows = s.batch * s.new_tokens;
  // How attention's heads, a dense MLP and the LM head split: over the devices, or not at all where each runs
  // its own sequences.
  const std::uint64_t split = attention_split(o);
  const bool latent = has_latent_attention(t);
  const latent_attention& l = t.latent;
  const bool absorbed = latent && s.kind == phase::decode;
  const attention_shape a = attention_run(t, split, absorbed);
  // What the cache holds a token: the keys and values of the device's kv heads, or the latent and rotary key.
  const attention_shape cached = attention_run(t, split, latent);
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

  operator_list ops;
  if (stage.first) ops.push_back(embedding_lookup(rows, t.hidden, act, w));
  if (stage.first && t.learned_positions > 0) {  // each token's position row read and added to its embedding
    operator_cost positions = elementwise("position embedding"sv, rows * t.hidden, 1, 1.0, act);
    positions.weights = bytes_of(rows * t.hidden, w);
    ops.push_back(positions);
  }
  // Fused, a layer's two residual adds run in the norms after them, each norm reading and writing the
  // residual beside its rows: L in the input norms (the first layer's takes the last layer's MLP add, the same
  // bytes), L in the MLP norms.
  const bool fused_elementwise = o.elementwise == elementwise_kernels::fused;
  const operator_cost residual_add = elementwise("residual add"sv, rows * t.hidden, 2, 1.0, act);
  const auto with_residual = [&](operator_cost norm) {
    if (!fused_elementwise) return norm;
    norm.flops += residual_add.flops;
    norm.activations_read += bytes_of(rows * t.hidden, act);
    norm.activations_written += bytes_of(rows * t.hidden, act);
    return norm;
  };
  ops.push_back(repeated(with_residual(normalization_layer(rows, t.hidden, t.norm, act, w)), L));
  if (latent) {  // the query and KV latents in one product (vLLM's fused_qkv_a_proj), their norms, then up
    ops.push_back(repeated(linear("QKV latent projection"sv, rows, t.hidden, l.q_rank + l.kv_rank + l.rope_dim, act, w), L));
    operator_cost norms = normalization_layer(rows, l.q_rank + l.kv_rank, t.norm, act, w);
    norms.name = "latent norms"sv;
    ops.push_back(repeated(norms, L));
    ops.push_back(repeated(linear("Q up projection"sv, rows, l.q_rank, a.heads * (t.head_dim + l.rope_dim), act, w), L));
    ops.push_back(repeated(kv_up_projection(t, rows, a.heads, absorbed, act, w), L));
  } else {
    const std::uint64_t qkv = (a.heads + 2 * a.kv_heads) * a.head_dim;
    ops.push_back(repeated(with_bias(t.biases || t.qkv_biases, linear("QKV projection"sv, rows, t.hidden, qkv, act, w), rows, qkv), L));
  }
  // Latent attention rotates each head's rotary part and the shared rotary key; learned positions need none.
  const bool rotates = t.learned_positions == 0;
  const operator_cost rope = rotates ? rotary(rows, latent ? attention_shape{a.heads, 1, l.rope_dim} : a, act) : operator_cost{};
  const operator_cost store = kv_cache_store(rows, cached, act, kv);
  operator_cost attention = s.kind == phase::decode ? attention_decode(batch, s.context, a, act, kv, s.new_tokens)
                            : o.attention == attention_kernel::fused ? attention_prefill_fused(batch, s.new_tokens, a, act)
                                                                     : attention_prefill_unfused(batch, s.new_tokens, a, act);
  if (fused_elementwise) {
    // Rotated and stored by the attention kernel: the rotation's FLOP join its own (at its rate), the cache's
    // writes stay, and the store's read of the new keys and values goes (a prefill's attention reads them as
    // activations, a decode step's from the cache; latent attention's latents, which its expanded prefill does
    // not read, are then read by none: a small undercount).
    attention.flops += rope.flops;
    attention.kv_written += store.kv_written;
  } else {
    if (rotates) ops.push_back(repeated(rope, L));
    ops.push_back(repeated(store, L));
  }
  ops.push_back(repeated(attention, L));
  const std::uint64_t heads_out = a.heads * (latent ? l.value_dim : a.head_dim);
  ops.push_back(repeated(biased(linear("O projection"sv, rows, heads_out, t.hidden, act, w), rows, t.hidden), L));
  if (!fused_elementwise) ops.push_back(repeated(residual_add, 2 * L));
  const std::uint64_t expert_L = t.experts > 1 ? L - stage.dense_layers : L;
  if (data_parallel) {  // every device's tokens to the experts and back, once a mixture-of-experts layer
    ops.push_back(repeated(gather_and_scatter(bytes_of(all_rows * t.hidden, act), o.tensor_parallel), expert_L));
  } else if (n > 1) {
    ops.push_back(repeated(all_reduce(bytes_of(rows * t.hidden, act), o.tensor_parallel, o.all_reduce), 2 * L));
  }
  // An MLP of `ffn` over `pairs` token rows, each of its products a grouped GEMM over `groups` weight sets
  // (experts) of which every one is read; repeated over `layers`.
  const auto mlp = [&](std::string_view up_name, std::string_view act_name, std::string_view down_name,
                       std::uint64_t ffn, std::uint64_t pairs, double groups, std::uint64_t layers) {
    const auto grouped = [&](operator_cost op) {
      if (groups == 1.0) return op;
      op.weights *= groups;
      const auto count = static_cast<std::uint64_t>(groups);
      const std::uint64_t rows = detail::ceil_div(pairs, count);  // each expert's share, some a row fewer
      op.gemm = {count, rows, op.gemm.columns, op.gemm.depth, count * rows - pairs};
      return op;
    };
    const std::uint64_t up = (gated ? 2 : 1) * ffn;
    const operator_cost activation = gated ? elementwise(act_name, pairs * ffn, 2, 5.0, act)
                                           : elementwise(act_name, pairs * ffn, 1, 8.0, act);
    operator_cost up_projection = biased(linear(up_name, pairs, t.hidden, up, act, w), pairs, up);
    if (fused_elementwise) {  // activated in the epilogue: the product writes the activation's output, not its inputs
      up_projection.flops += activation.flops;
      up_projection.activations_written = activation.activations_written;
    }
    ops.push_back(repeated(grouped(up_projection), layers));
    if (!fused_elementwise) ops.push_back(repeated(activation, layers));
    ops.push_back(repeated(grouped(biased(linear(down_name, pairs, ffn, t.hidden, act, w), pairs, t.hidden)), layers));
  };
  if (expert_L > 0) {
    // A mixture of experts: the router, then each token through its experts (rows x active token-expert
    // pairs), reading the weights of the experts the step touches (every token's counted distinct until all
    // are). Shared experts run as experts every token picks, in the same grouped products (SGLang's fusion of
    // them), their weights read whatever the step. Under data-parallel attention the layer takes every
    // device's tokens (tensor-parallel attention leaves every token on every device); with expert parallelism a device holds experts / n whole and runs its share of the
    // pairs through them (and the shared experts, whole, for its share of the tokens).
    const std::uint64_t moe_rows = data_parallel ? all_rows : rows;
    const std::uint64_t chosen = moe_rows * t.active_experts;
    const bool whole_experts = o.experts.expert_parallel;
    const std::uint64_t pairs = whole_experts ? detail::ceil_div(chosen, n) + detail::ceil_div(moe_rows * t.shared_experts, n)
                                              : chosen + moe_rows * t.shared_experts;
    const std::uint64_t routed_touched = std::min(chosen, t.experts);
    const double touched =
        static_cast<double>((whole_experts ? detail::ceil_div(routed_touched, n) : routed_touched) + t.shared_experts);
    if (t.experts > 1) {  // DeepSeek-V3's router biases are added to its scores to choose the experts
      const operator_cost router = linear("router"sv, moe_rows, t.hidden, t.experts, act, w);
      ops.push_back(repeated(with_bias(t.router_biases, router, moe_rows, t.experts), expert_L));
    }
    mlp(gated ? "gate+up projection"sv : "up projection"sv, gated ? "SwiGLU"sv : "GELU"sv, "down projection"sv,
        t.ffn / expert_split(o), pairs, touched, expert_L);
  }
  if (stage.dense_layers > 0) {
    mlp("dense gate+up projection"sv, gated ? "dense SwiGLU"sv : "dense GELU"sv, "dense down projection"sv,
        t.dense_ffn / split, rows, 1.0, stage.dense_layers);
  }
  // The norms after attention and after the last layer, and the LM head on each sequence's last token.
  operator_cost norms = repeated(with_residual(normalization_layer(rows, t.hidden, t.norm, act, w)), L);
  if (stage.last) {
    // Runs of one row together: the final norm's run a kernel of its own (its overhead was left out).
    norms = together(norms, normalization_layer(batch, t.hidden, t.norm, act, w));
    norms.name = "norms (MLP, final)"sv;
  } else {
    norms.name = "norms (MLP)"sv;
  }
  ops.push_back(norms);
  if (stage.last) ops.push_back(linear("LM head"sv, batch, t.hidden, detail::ceil_div(t.vocab, split), act, w));
  for (std::size_t i = 0; i < ops.size(); ++i) ops[i] = with_group_scales(ops[i], o.types);
  return ops;
}

// The operators of one step of the whole model on one device (each of n tensor-parallel devices).
[[nodiscard]] constexpr operator_list step_operators(const transformer& t, const step_shape& s,
                                                     const inference_options& o = {}) {
  return stage_operators(t, s, o, whole_model(t));
}

}  // namespace hml
