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
  // The longest context its configuration gives (config.json's max_position_embeddings; GPT-2's
  // n_positions); 0: not given. Past it a rotary model still computes, but was not made for it.
  std::uint64_t max_positions = 0;
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

}  // namespace hml
