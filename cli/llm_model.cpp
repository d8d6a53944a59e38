// `hml llm`'s model: a preset, or one described by its sizes (--layers, --hidden, ...), changed by the options
// given, each fault of it blamed on the options of the part at fault; and its operators' precisions against the
// machine's peaks, a missing one blamed on the precision options that chose it, or on the machine.
#include <algorithm>
#include <array>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include "common.hpp"
#include "llm.hpp"

namespace hml_cli {

namespace {
using llm_options = llm::run_options;
}  // namespace

namespace {

// The options that set a model's sizes, each with its value where given: what changed a preset, for its
// title and for the errors its sizes make.
std::array<std::pair<std::string_view, std::optional<std::uint64_t>>, 17> size_options(const llm_options& o) {
  return {{{"--layers", o.layers},
           {"--hidden", o.hidden},
           {"--ffn", o.ffn},
           {"--heads", o.heads},
           {"--kv-heads", o.kv_heads},
           {"--head-dim", o.head_dim},
           {"--vocab", o.vocab},
           {"--experts", o.experts},
           {"--active-experts", o.active_experts},
           {"--shared-experts", o.shared_experts},
           {"--dense-layers", o.dense_layers},
           {"--dense-ffn", o.dense_ffn},
           {"--q-lora-rank", o.q_lora_rank},
           {"--kv-lora-rank", o.kv_lora_rank},
           {"--rope-head-dim", o.rope_head_dim},
           {"--value-head-dim", o.value_head_dim},
           {"--learned-positions", o.learned_positions}}};
}

// The size options given among those `chosen` accepts, as an error names them: "--heads, --kv-heads".
std::string given_size_options(const llm_options& o, auto chosen) {
  std::string given;
  for (const auto& [option, value] : size_options(o))
    if (value && chosen(option)) given += (given.empty() ? "" : ", ") + std::string{option};
  return given;
}

}  // namespace

hml::transformer llm::model_of(const llm_options& o) {
  hml::transformer t{};
  if (!o.model.empty()) {
    t = check_option("--model", [&]() -> const hml::transformer& { return hml::model_named(o.model); });
  } else if (!o.layers || !o.hidden || !o.ffn || !o.heads || !o.vocab) {
    // A model by its sizes with some left out names those, and the sizes given (--vocab alone left out was
    // told of every size and the presets, as --kv-heads alone given was).
    const std::string given = given_size_options(o, [](std::string_view) { return true; });
    std::string missing;
    const std::pair<std::string_view, bool> required[] = {{"--layers", o.layers.has_value()}, {"--hidden", o.hidden.has_value()},
                                                          {"--ffn", o.ffn.has_value()},       {"--heads", o.heads.has_value()},
                                                          {"--vocab", o.vocab.has_value()}};
    for (const auto& [option, set] : required)
      if (!set) missing += (missing.empty() ? "" : ", ") + std::string{option};
    if (given.empty())
      throw input_error("--model: no model given; give a preset (see `hml llm --help`), or --layers, --hidden, --ffn, --heads and --vocab");
    throw input_error(missing + ": missing; a model by its sizes takes --layers, --hidden, --ffn, --heads and --vocab (given: " + given +
                      "), or give a preset with --model");
  } else {
    t.name = "custom";
  }
  // A preset's heads keep a width other than hidden / heads (DeepSeek's 128: Kimi K2 is --heads 64 of them).
  const bool own_head_size = !o.model.empty() && t.heads > 0 && t.head_dim * t.heads != t.hidden;
  const bool every_head_keyed = t.kv_heads == t.heads;  // multi-head attention stays so as --heads changes
  if (o.layers) t.layers = *o.layers;
  if (o.hidden) t.hidden = *o.hidden;
  if (o.ffn) t.ffn = *o.ffn;
  if (o.heads) t.heads = *o.heads;
  if (o.vocab) t.vocab = *o.vocab;
  if (o.kv_heads) {
    t.kv_heads = *o.kv_heads;
  } else if (o.model.empty() || every_head_keyed) {
    t.kv_heads = t.heads;
  }
  // An option as a message names it: given, alone; not given, with the value it took, the preset's or the default.
  const auto named = [&](std::string_view option, bool given, std::uint64_t value) {
    return given ? std::string{option}
                 : std::string{option} + " (" + std::to_string(value) + ", " +
                       (o.model.empty() ? std::string{"the default"} : hml::message_text(o.model) + "'s") + ")";
  };
  // Two counts held against each other, one given and the other the preset's: the given one first, the
  // other with the value it took ("--heads, --hidden (4096, llama-2-7b's)"); neither given, the preset's.
  const auto held_against = [&](std::string_view first, bool first_given, std::uint64_t first_value, std::string_view second,
                                bool second_given, std::uint64_t second_value) {
    if (!first_given && !second_given) return std::string{"--model"};
    if (!first_given) return named(second, true, second_value) + ", " + named(first, false, first_value);
    return named(first, true, first_value) + ", " + named(second, second_given, second_value);
  };
  if (o.head_dim) {
    t.head_dim = *o.head_dim;
  } else if (o.model.empty() || ((o.hidden || o.heads) && !own_head_size)) {
    // The head size is the hidden size per head; a remainder would drop part of the model without a word.
    if (t.heads > 0 && t.hidden % t.heads != 0) {
      throw input_error(held_against("--hidden", o.hidden.has_value(), t.hidden, "--heads", o.heads.has_value(), t.heads) + ": " +
                        std::to_string(t.hidden) + " is not a multiple of " +
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
  if (o.shared_experts) t.shared_experts = *o.shared_experts;
  if (o.dense_layers) {
    t.dense_layers = *o.dense_layers;
    if (t.dense_layers == 0 && !o.dense_ffn) t.dense_ffn = 0;  // none left: their size goes with them
  }
  if (o.dense_ffn) t.dense_ffn = *o.dense_ffn;
  if (o.router_biases) t.router_biases = true;
  if (o.q_lora_rank) t.latent.q_rank = *o.q_lora_rank;
  if (o.kv_lora_rank) t.latent.kv_rank = *o.kv_lora_rank;
  if (o.rope_head_dim) t.latent.rope_dim = *o.rope_head_dim;
  if (o.value_head_dim) t.latent.value_dim = *o.value_head_dim;
  if (o.active_experts && !o.experts && t.experts <= 1)
    throw input_error("--active-experts: the model has no experts; give --experts too");
  // A fault of a part of the model is the options of that part that were given (else the preset's, --model).
  const auto blamed = [&](std::initializer_list<std::string_view> part, std::initializer_list<std::pair<std::string_view, bool>> flags = {}) {
    std::string given = given_size_options(o, [&](std::string_view option) { return std::ranges::find(part, option) != part.end(); });
    for (const auto& [flag, set] : flags)
      if (set) given += (given.empty() ? "" : ", ") + std::string{flag};
    return given.empty() ? std::string{"--model"} : given;
  };
  // Latent attention gives every head its keys (kv heads = heads), which no other count changes.
  if (hml::has_latent_attention(t) && t.kv_heads != t.heads)
    throw input_error(held_against("--heads", o.heads.has_value(), t.heads, "--kv-heads", o.kv_heads.has_value(), t.kv_heads) +
                      ": latent attention gives every head its keys: kv heads = heads (" +
                      std::to_string(t.heads) + "); give no other kv heads");
  // Each key-value head serves as many heads as the others: where the counts do not divide, the ones that would.
  if (t.heads > 0 && t.kv_heads > 0 && (t.kv_heads > t.heads || t.heads % t.kv_heads != 0)) {
    std::vector<std::uint64_t> divisors;
    for (std::uint64_t n = 1; n * n <= t.heads; ++n)
      if (t.heads % n == 0) divisors.insert(divisors.end(), {n, t.heads / n});
    std::ranges::sort(divisors);
    divisors.erase(std::ranges::unique(divisors).begin(), divisors.end());
    throw input_error(held_against("--heads", o.heads.has_value(), t.heads, "--kv-heads", o.kv_heads.has_value(), t.kv_heads) +
                      ": " + std::to_string(t.kv_heads) + " key-value heads for " +
                      std::to_string(t.heads) + " heads" + (t.kv_heads > t.heads ? ", more key-value heads than heads" : "") +
                      ", where each key-value head serves as many heads as the others; give key-value heads that divide the heads: " +
                      (divisors.size() <= 12 ? one_of(divisors) : "a divisor of " + std::to_string(t.heads)));
  }
  check_option(blamed({"--heads", "--kv-heads", "--head-dim"}), [&] { hml::validate(hml::attention_of(t)); });
  check_option(blamed({"--layers", "--hidden", "--ffn", "--vocab"}), [&] { hml::validate_sizes(t); });
  // validate_experts' rules in its order: active experts against experts, and dense layers against layers,
  // each pair the one given and the other with its value; the parts of a mixture without one, those given.
  check_option(held_against("--experts", o.experts.has_value(), t.experts, "--active-experts", o.active_experts.has_value(), t.active_experts),
               [&] { hml::validate_expert_counts(t); });
  check_option(blamed({"--experts", "--active-experts", "--shared-experts", "--dense-layers", "--dense-ffn"}, {{"--router-biases", o.router_biases}}),
               [&] { hml::validate_expert_parts(t); });
  check_option(held_against("--layers", o.layers.has_value(), t.layers, "--dense-layers", o.dense_layers.has_value(), t.dense_layers),
               [&] { hml::validate_dense_layer_count(t); });
  // Of dense layers and their FFN size, the one given is blamed, and the other with the value it took.
  check_option(held_against("--dense-layers", o.dense_layers.has_value(), t.dense_layers, "--dense-ffn", o.dense_ffn.has_value(), t.dense_ffn),
               [&] { hml::validate_dense_layers(t); });
  // Latent attention's parts left out are the ones to give: named with the value they took, after the KV rank
  // given that asks for them (named alone, they read as given; the parts given alone, as told to change).
  if (hml::has_latent_attention(t)) {
    std::string missing, blamed_options = o.kv_lora_rank ? "--kv-lora-rank" : "";
    for (const auto& [option, size, given] : {std::tuple{"--q-lora-rank", t.latent.q_rank, o.q_lora_rank.has_value()},
                                              {"--rope-head-dim", t.latent.rope_dim, o.rope_head_dim.has_value()},
                                              {"--value-head-dim", t.latent.value_dim, o.value_head_dim.has_value()}}) {
      if (size != 0) continue;
      missing += (missing.empty() ? "" : ", ") + std::string{option};
      blamed_options += (blamed_options.empty() ? "" : ", ") + named(option, given, size);
    }
    if (!missing.empty())
      throw input_error(blamed_options + ": latent attention (a KV rank) needs its query rank, rotary dimension and value dimension >= 1; give " +
                        missing + " with --kv-lora-rank");
  }
  check_option(blamed({"--kv-lora-rank", "--q-lora-rank", "--rope-head-dim", "--value-head-dim", "--kv-heads", "--learned-positions"},
                      {{"--biases", o.biases}, {"--qkv-biases", o.qkv_biases}}),
               [&] { hml::validate_latent_attention(t); });
  // The model alone, before any batch or context is counted with it: every size's.
  const std::string sizes = given_size_options(o, [](std::string_view) { return true; });
  check_option(sizes.empty() ? std::string{"--model"} : sizes, [&] { hml::validate_counts(t, 1, 1, 1); });
  return t;
}

std::string llm::model_title(const llm_options& o, const hml::transformer& t) {
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
    flag(t.router_biases != preset.router_biases, "--router-biases");
  }
  return std::string{t.name} + changed;
}

namespace {

// The precision options that chose an operator's precision: each whose change alone changes it (--activations
// fp8 on an A100 is --activations' fault, not --weights' left at FP16); all that equal it where none does alone
// and together they do; none where not even together (an RMSNorm's FP32 with --weights and --activations fp32).
std::string options_choosing(const hml::transformer& t, const hml::step_shape& s, const hml::inference_options& i,
                             const hml::operator_cost& op) {
  const hml::precision p = op.compute.type;
  const hml::precision elsewhere = p == hml::precision::fp16 ? hml::precision::bf16 : hml::precision::fp16;
  const auto changes = [&](const hml::inference_options& other) {
    return std::ranges::any_of(hml::step_operators(t, s, other),
                               [&](const hml::operator_cost& changed) { return changed.name == op.name && changed.compute.type != p; });
  };
  std::string alone, equal;
  hml::inference_options together = i;
  together.types.weight_group = 0;  // a group is INT8's or INT4's
  for (const auto& [option, field] : {std::pair{"--weights", &hml::precisions::weights},
                                      std::pair{"--activations", &hml::precisions::activations},
                                      std::pair{"--kv", &hml::precisions::kv_cache}}) {
    if (i.types.*field != p) continue;
    equal += (equal.empty() ? "" : ", ") + std::string{option};
    together.types.*field = elsewhere;
    hml::inference_options other = i;
    other.types.*field = elsewhere;
    other.types.weight_group = 0;
    if (changes(other)) alone += (alone.empty() ? "" : ", ") + std::string{option};
  }
  return !alone.empty() ? alone : changes(together) ? equal : std::string{};
}

}  // namespace

void llm::check_step_precisions(const hml::transformer& t, const hml::step_shape& s, const hml::machine_description& d,
                                const hml::inference_options& i) {
  // A machine without any peak is --machine's fault, said where it is read (require_compute_peak).
  for (const hml::operator_cost& op : hml::step_operators(t, s, i)) {
    if (op.flops.value() == 0 || hml::peak(d, op.compute).published()) continue;
    const std::string options = options_choosing(t, s, i, op);
    if (options.empty())  // no option would change it
      throw input_error("--machine: " + std::string{d.name} + " publishes no " + std::string{to_string(op.compute)} +
                        " peak, which the " + std::string{op.name} + " takes whatever the precisions; " +
                        hml::kinds_it_has(d) + "; give a machine with one");
    throw input_error(options + ": " + std::string{d.name} + " publishes no " +
                      std::string{to_string(op.compute)} + " peak (for the " + std::string{op.name} + "); " +
                      hml::kinds_it_has(d) + "; give precisions it has");
  }
}

void llm::check_precisions(const hml::transformer& t, const hml::generation& g, const hml::machine_description& d,
                           const hml::inference_options& i) {
  check_step_precisions(t, hml::prefill_step(g.batch, g.prompt), d, i);
  check_step_precisions(t, hml::decode_step(g.batch, g.prompt + 1), d, i);
}

namespace {

// Whether the model passes `check` (a library validator) with `change` made to a copy of the options.
template <class Change, class Check>
bool holds_with(const hml::inference_options& i, Change change, Check check) {
  hml::inference_options at = i;
  change(at);
  try {
    check(at);
    return true;
  } catch (const std::invalid_argument&) {
    return false;
  }
}

}  // namespace

void llm::check_tensor_split(const hml::transformer& t, const hml::inference_options& i, std::string_view option,
                             std::string_view whose, const hml::transformer* drafted_for) {
  if (splits_over(t, i, i.tensor_parallel)) return;
  std::vector<unsigned> counts;
  for (unsigned n = 1; n <= most_tensor_parallel; ++n)
    if (splits_over(t, i, n) && (drafted_for == nullptr || splits_over(*drafted_for, i, n))) counts.push_back(n);
  const std::uint64_t a = hml::attention_split(i);
  std::vector<std::string> parts;  // what does not divide
  if (t.heads % a != 0) parts.push_back(std::to_string(t.heads) + " heads");
  if (t.kv_heads % a != 0 && t.kv_heads != t.heads) parts.push_back(std::to_string(t.kv_heads) + " kv heads");
  if (t.ffn % hml::expert_split(i) != 0) parts.push_back("FFN size of " + std::to_string(t.ffn));
  if (t.dense_ffn % a != 0) parts.push_back("dense layers' FFN size of " + std::to_string(t.dense_ffn));
  // Past a dozen (data-parallel attention leaves the FFN's divisors), the first ten and the last.
  std::string choices = one_of(counts);
  if (counts.size() > 12) {
    choices.clear();
    for (std::size_t k = 0; k < 10; ++k) choices += std::to_string(counts[k]) + ", ";
    choices += "... or " + std::to_string(counts.back()) + " (" + std::to_string(counts.size()) + " counts)";
  }
  throw input_error(std::string{option} + ": " + std::to_string(i.tensor_parallel) + " devices do not divide " +
                    std::string{whose} + one_of(parts, " and ") + "; give --tp " + choices +
                    (drafted_for != nullptr ? ", or another draft" : ""));
}

void llm::check_draft(const run_options& o, const hml::transformer& t, const hml::transformer& draft,
                      const hml::inference_options& i) {
  if (draft.vocab != t.vocab)
    throw input_error("--draft: " + o.draft + " has a vocabulary of " + std::to_string(draft.vocab) + " tokens, the model " +
                      std::to_string(t.vocab) + ": a draft shares its target's; give a draft of the same family");
  if (i.experts.data_parallel_attention && draft.experts <= 1)  // the draft runs as the target does
    throw input_error("--draft, --dp-attention: " + o.draft + " is dense, and data-parallel attention is modelled for a "
                      "mixture of experts; give a mixture-of-experts draft, or leave --dp-attention out");
  if (i.experts.expert_parallel && draft.experts <= 1)
    throw input_error("--draft, --ep: " + o.draft + " is dense, and expert parallelism spreads a mixture of experts' "
                      "experts; give a mixture-of-experts draft, or leave --ep out");
}

bool llm::splits_over(const hml::transformer& t, const hml::inference_options& i, unsigned devices) {
  return holds_with(i, [&](hml::inference_options& at) { at.tensor_parallel = devices; },
                    [&](const hml::inference_options& at) { hml::validate_tensor_split(t, at); });
}

void llm::check_weight_group(const hml::transformer& t, const hml::inference_options& i, std::string_view option,
                             unsigned devices, const hml::transformer* also) {
  check_option(option, [&] { hml::validate(i.types); });  // a group is INT8's or INT4's: said as it is
  const auto divides = [&](const hml::transformer& model, std::uint64_t group, unsigned over) {
    return holds_with(i, [&](hml::inference_options& at) { at.types.weight_group = group; at.tensor_parallel = over; },
                      [&](const hml::inference_options& at) { hml::validate_weight_group(model, at); });
  };
  if (divides(t, i.types.weight_group, i.tensor_parallel)) return;
  // Those that divide a device's rows (and so the whole rows), of both models where two run: a group offered
  // for one device was refused at --tp 4, one offered for a target refused for its draft.
  std::vector<std::uint64_t> groups;
  for (std::uint64_t g = 2; g <= hml::max_weight_group; g *= 2)
    if (divides(t, g, devices) && (also == nullptr || divides(*also, g, devices))) groups.push_back(g);
  throw input_error(std::string{option} + ": a group of " + std::to_string(i.types.weight_group) +
                    " does not divide every projection's rows (the hidden size, and the heads' width and the FFN size per "
                    "device); " + (groups.empty() ? std::string{"no power of two does: leave --weight-group out"}
                                                  : "give --weight-group " + one_of(groups)));
}

}  // namespace hml_cli
