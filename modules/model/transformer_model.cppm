// hml.transformer:model — a decoder-only transformer's sizes, its parameters, and the stages a pipeline
// splits its layers into.
module;
#include <algorithm>
#include <array>
#include <compare>
#include <cstddef>
#include <cstdint>
#include <string_view>
export module hml.transformer:model;
import hml.operators;

export namespace hml {

// --- The model ---------------------------------------------------------------------------------------

// Multi-head latent attention (DeepSeek-V2 and V3; DeepSeek-V2 paper, arXiv:2405.04434, section 2.1): a
// token's keys and values are up-projected from one latent of `kv_rank` elements, which is what the cache
// holds, beside a rotary key of `rope_dim` elements that every head shares; the queries come through a
// latent of `q_rank` the same way. A head's query and key are head_dim (config.json's qk_nope_head_dim) plus
// rope_dim wide, its value `value_dim`. kv_rank 0: no latent (multi-head or grouped-query attention).
struct latent_attention {
  std::uint64_t q_rank = 0;     // q_lora_rank
  std::uint64_t kv_rank = 0;    // kv_lora_rank
  std::uint64_t rope_dim = 0;   // qk_rope_head_dim
  std::uint64_t value_dim = 0;  // v_head_dim
};

struct transformer {
  std::string_view name{};
  std::uint64_t layers = 0;
  std::uint64_t hidden = 0;    // d_model
  std::uint64_t ffn = 0;       // intermediate size of the MLP
  std::uint64_t heads = 0;     // query heads
  std::uint64_t kv_heads = 0;  // key-value heads (= heads without grouped-query attention)
  std::uint64_t head_dim = 0;  // usually hidden / heads
  latent_attention latent{};   // multi-head latent attention, where latent.kv_rank > 0
  std::uint64_t vocab = 0;
  bool gated_mlp = true;       // SwiGLU: gate and up projections, then down
  std::uint64_t experts = 1;         // MLPs per layer (mixture of experts); 1: a dense model
  std::uint64_t active_experts = 1;  // of them, those each token runs
  std::uint64_t shared_experts = 0;  // MLPs of `ffn` every token runs beside its chosen ones (DeepSeekMoE)
  bool router_biases = false;        // a bias an expert in the router (DeepSeek-V3's e_score_correction_bias)
  std::uint64_t dense_layers = 0;    // the first layers run one dense MLP (DeepSeek's first_k_dense_replace) ...
  std::uint64_t dense_ffn = 0;       // ... of this intermediate size (then config.json's intermediate_size)
  bool tied_embeddings = false;
  normalization_kind norm = normalization_kind::rms_norm;
  bool biases = false;                   // every projection adds a bias (GPT-2, OPT); Llama and Mistral have none
  bool qkv_biases = false;               // Q, K and V alone add a bias (Qwen2); `biases` implies them
  std::uint64_t learned_positions = 0;   // a learned table of this many positions (GPT-2: 1,024); 0: rotary
  // The longest context its configuration gives (config.json's max_position_embeddings; GPT-2's
  // n_positions); 0: not given. Past it a rotary model still computes, but was not made for it.
  std::uint64_t max_positions = 0;
  std::string_view source{};   // where the configuration comes from
};

[[nodiscard]] constexpr bool has_latent_attention(const transformer& t) noexcept { return t.latent.kv_rank > 0; }

// The layers whose MLP is a mixture of experts: all but the dense first ones (none in a dense model).
[[nodiscard]] constexpr std::uint64_t expert_layers(const transformer& t) noexcept {
  return t.experts > 1 ? t.layers - t.dense_layers : 0;
}

// A model's checks by what they concern, so that a message can name the options of that part alone.
constexpr void validate_sizes(const transformer& t) {
  expects(t.layers > 0 && t.hidden > 0 && t.ffn > 0 && t.vocab > 0,
          "hml: a transformer needs layers, hidden, ffn and vocab >= 1; give each a size of 1 or more");
  validate(attention_shape{t.heads, t.kv_heads, t.head_dim});
}

// A mixture's experts, each rule apart for a caller to say whose counts break it (validate_experts: all three).
constexpr void validate_expert_counts(const transformer& t) {
  expects(t.experts >= 1 && t.active_experts >= 1 && t.active_experts <= t.experts,
          "hml: a mixture of experts needs 1 <= active experts <= experts; give no more active experts than experts");
}
constexpr void validate_expert_parts(const transformer& t) {
  expects(t.experts > 1 || (t.shared_experts == 0 && t.dense_layers == 0 && !t.router_biases),
          "hml: shared experts, dense first layers and router biases belong to a mixture of experts; give experts too, or "
          "leave them out");
}
constexpr void validate_dense_layer_count(const transformer& t) {
  expects(t.dense_layers < t.layers, "hml: dense first layers leave at least one layer of experts; give fewer dense layers than layers");
}
constexpr void validate_experts(const transformer& t) {
  validate_expert_counts(t);
  validate_expert_parts(t);
  validate_dense_layer_count(t);
}

// Dense first layers and their FFN size come together (checked once the experts hold).
constexpr void validate_dense_layers(const transformer& t) {
  expects((t.dense_layers == 0) == (t.dense_ffn == 0),
          "hml: dense first layers need their FFN size, and only they; give the dense layers and their FFN size together");
}

constexpr void validate_latent_attention(const transformer& t) {
  const latent_attention& l = t.latent;
  if (has_latent_attention(t)) {
    expects(l.q_rank > 0 && l.rope_dim > 0 && l.value_dim > 0,
            "hml: latent attention needs its query rank, rotary dimension and value dimension >= 1; give each with the KV "
            "rank");
    expects(t.kv_heads == t.heads, "hml: latent attention gives every head its keys: kv heads = heads; give no other kv heads");
    expects(!t.biases && !t.qkv_biases && t.learned_positions == 0,
            "hml: latent attention is rotary and without biases, as DeepSeek's models have it; leave biases and learned "
            "positions out");
  } else {
    expects(l.q_rank == 0 && l.rope_dim == 0 && l.value_dim == 0,
            "hml: a query rank, rotary dimension or value dimension needs latent attention's KV rank; give the KV rank too, or "
            "leave them out");
  }
}

constexpr void validate(const transformer& t) {
  validate_sizes(t);
  validate_experts(t);
  validate_dense_layers(t);
  validate_latent_attention(t);
}

[[nodiscard]] constexpr attention_shape attention_of(const transformer& t) noexcept {
  return {t.heads, t.kv_heads, t.head_dim};
}

// Parameters of one MLP of intermediate size `ffn` (one expert's in a mixture of experts: the model's ffn):
// 3 hidden ffn gated (gate, up, down), else 2 hidden ffn; with biases, one per output of each projection.
[[nodiscard]] constexpr std::uint64_t mlp_parameters(const transformer& t, std::uint64_t ffn) noexcept {
  const std::uint64_t biases = t.biases ? (t.gated_mlp ? 2 : 1) * ffn + t.hidden : 0;
  return (t.gated_mlp ? 3 : 2) * t.hidden * ffn + biases;
}
[[nodiscard]] constexpr std::uint64_t mlp_parameters(const transformer& t) noexcept { return mlp_parameters(t, t.ffn); }

// The parameters of a norm over `width` elements (the hidden size where not given): RMSNorm a gain per
// element, LayerNorm a gain and a bias.
[[nodiscard]] constexpr std::uint64_t norm_parameters(const transformer& t, std::uint64_t width) noexcept {
  return (t.norm == normalization_kind::rms_norm ? 1 : 2) * width;
}
[[nodiscard]] constexpr std::uint64_t norm_parameters(const transformer& t) noexcept {
  return norm_parameters(t, t.hidden);
}

// Parameters of one layer's attention. Q and O are hidden x (heads d), K and V hidden x (kv d), with biases one
// per output (Q, K and V's alone with qkv_biases). Latent attention: the query latent (hidden x q_rank, its
// norm) and its up-projection to every head's query (q_rank x heads (d + rope)); the KV latent and the shared
// rotary key (hidden x (kv_rank + rope), the latent's norm) and its up-projection to every head's key and
// value (kv_rank x heads (d + d_v)); O, heads d_v x hidden.
[[nodiscard]] constexpr std::uint64_t attention_parameters(const transformer& t) noexcept {
  if (has_latent_attention(t)) {
    const latent_attention& l = t.latent;
    const std::uint64_t query = t.hidden * l.q_rank + norm_parameters(t, l.q_rank) +
                                l.q_rank * t.heads * (t.head_dim + l.rope_dim);
    const std::uint64_t key_value = t.hidden * (l.kv_rank + l.rope_dim) + norm_parameters(t, l.kv_rank) +
                                    l.kv_rank * t.heads * (t.head_dim + l.value_dim);
    return query + key_value + t.heads * l.value_dim * t.hidden;
  }
  const std::uint64_t biases = (t.biases || t.qkv_biases ? (t.heads + 2 * t.kv_heads) * t.head_dim : 0) +
                               (t.biases ? t.hidden : 0);
  return t.hidden * (2 * t.heads + 2 * t.kv_heads) * t.head_dim + biases;
}

// Parameters of a layer's mixture of experts: every expert's MLP and the shared ones', and the router
// (hidden x experts, and a bias an expert where it has them).
[[nodiscard]] constexpr std::uint64_t experts_parameters(const transformer& t) noexcept {
  const std::uint64_t router = t.hidden * t.experts + (t.router_biases ? t.experts : 0);
  return (t.experts + t.shared_experts) * mlp_parameters(t) + router;
}

// Parameters of one layer, its two norms included: its attention, then its MLP, dense or of experts (a
// dense model's MLP is of `ffn`, a mixture of experts' dense first layers' of `dense_ffn`).
[[nodiscard]] constexpr std::uint64_t layer_parameters(const transformer& t, bool dense) noexcept {
  const std::uint64_t mlp = t.experts == 1 ? mlp_parameters(t) : dense ? mlp_parameters(t, t.dense_ffn) : experts_parameters(t);
  return attention_parameters(t) + mlp + 2 * norm_parameters(t);
}

// A contiguous part of the layers, as a pipeline stage holds them: the first stage also holds the embedding
// (and a learned position table), the last the final norm and the LM head. The whole model is one stage.
// Of its layers, `dense_layers` are a mixture of experts' dense first layers.
struct pipeline_stage {
  std::uint64_t layers = 0;
  bool first = true;
  bool last = true;
  std::uint64_t dense_layers = 0;
  friend constexpr bool operator==(const pipeline_stage&, const pipeline_stage&) = default;
};

[[nodiscard]] constexpr pipeline_stage whole_model(const transformer& t) noexcept {
  return {t.layers, true, true, expert_layers(t) > 0 ? t.dense_layers : 0};
}

// Stage `index` of `stages`, split as vLLM splits the layers (vllm/distributed/utils.py, get_pp_indices):
// layers / stages each, the remainder a layer each to the stages before the last, from the last but one
// back (the last runs the LM head): 61 layers over 4 stages are 15, 15, 16 and 15.
[[nodiscard]] constexpr pipeline_stage stage_of(const transformer& t, unsigned stages, unsigned index) {
  expects(stages >= 1 && index < stages && stages <= t.layers, "hml: a pipeline stage holds at least one layer");
  const std::uint64_t extra = t.layers % stages;
  const auto size = [&](std::uint64_t i) { return t.layers / stages + (i + 1 < stages && i + 1 + extra >= stages ? 1 : 0); };
  std::uint64_t start = 0;
  for (std::uint64_t i = 0; i < index; ++i) start += size(i);
  const std::uint64_t layers = size(index);
  const std::uint64_t dense = whole_model(t).dense_layers;
  return {layers, index == 0, index + 1 == stages, dense > start ? std::min(dense - start, layers) : 0};
}

// The parameters a stage holds: its layers (dense and of experts), the embedding (vocab x hidden) and a
// learned position table (positions x hidden) on the first, the final norm and the LM head (another vocab x
// hidden) on the last. A tied LM head is the embedding: held once where one stage holds both, else by each of
// the two.
[[nodiscard]] constexpr std::uint64_t stage_parameters(const transformer& t, const pipeline_stage& s) noexcept {
  const std::uint64_t table = t.vocab * t.hidden;
  const std::uint64_t embedding = s.first ? table + t.learned_positions * t.hidden : 0;
  const std::uint64_t head = s.last ? norm_parameters(t) + (t.tied_embeddings && s.first ? 0 : table) : 0;
  return s.dense_layers * layer_parameters(t, true) + (s.layers - s.dense_layers) * layer_parameters(t, false) +
         embedding + head;
}

// All parameters: the whole model's stage.
// Llama-2 7B: 32 (4 x 4096^2 + 3 x 4096 x 11008 + 2 x 4096) + 4096 + 2 x 32000 x 4096 = 6,738,415,616.
[[nodiscard]] constexpr std::uint64_t parameters(const transformer& t) noexcept {
  return stage_parameters(t, whole_model(t));
}

// The parameters a token runs through: all but the experts it does not use (Mixtral 8x7B: 12.9 G of 46.7 G;
// the router and its biases count).
[[nodiscard]] constexpr std::uint64_t active_parameters(const transformer& t) noexcept {
  return parameters(t) - expert_layers(t) * (t.experts - t.active_experts) * mlp_parameters(t);
}

}  // namespace hml
