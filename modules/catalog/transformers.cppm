// hml.catalog.transformers — widely used open models as transformer descriptions (hml.transformer), each
// with the Hugging Face config.json it was read from, and lookup by name. The parameter counts that follow
// from these configurations are checked against the published sizes below and in
// tests/compile_time/transformer.cpp.
module;
#include <array>
#include <cstddef>
#include <string_view>
export module hml.catalog.transformers;
export import hml.transformer;

export namespace hml::models {

// clang-format off
inline constexpr transformer llama_2_7b{
    .name = "llama-2-7b", .layers = 32, .hidden = 4096, .ffn = 11008, .heads = 32, .kv_heads = 32, .head_dim = 128,
    .vocab = 32000, .max_positions = 4096, .source = "https://huggingface.co/meta-llama/Llama-2-7b-hf/blob/main/config.json"};
inline constexpr transformer llama_2_13b{
    .name = "llama-2-13b", .layers = 40, .hidden = 5120, .ffn = 13824, .heads = 40, .kv_heads = 40, .head_dim = 128,
    .vocab = 32000, .max_positions = 4096, .source = "https://huggingface.co/meta-llama/Llama-2-13b-hf/blob/main/config.json"};
inline constexpr transformer llama_2_70b{
    .name = "llama-2-70b", .layers = 80, .hidden = 8192, .ffn = 28672, .heads = 64, .kv_heads = 8, .head_dim = 128,
    .vocab = 32000, .max_positions = 4096, .source = "https://huggingface.co/meta-llama/Llama-2-70b-hf/blob/main/config.json"};
inline constexpr transformer llama_3_8b{
    .name = "llama-3-8b", .layers = 32, .hidden = 4096, .ffn = 14336, .heads = 32, .kv_heads = 8, .head_dim = 128,
    .vocab = 128256, .max_positions = 8192, .source = "https://huggingface.co/meta-llama/Meta-Llama-3-8B/blob/main/config.json"};
inline constexpr transformer llama_3_70b{
    .name = "llama-3-70b", .layers = 80, .hidden = 8192, .ffn = 28672, .heads = 64, .kv_heads = 8, .head_dim = 128,
    .vocab = 128256, .max_positions = 8192, .source = "https://huggingface.co/meta-llama/Meta-Llama-3-70B/blob/main/config.json"};
// Mistral 7B v0.1 attends a sliding window of 4,096 tokens (config.json's sliding_window); hml counts the
// whole context's attention and KV cache, so past 4,096 tokens it over-counts both.
inline constexpr transformer mistral_7b{
    .name = "mistral-7b", .layers = 32, .hidden = 4096, .ffn = 14336, .heads = 32, .kv_heads = 8, .head_dim = 128,
    .vocab = 32000, .max_positions = 32768, .source = "https://huggingface.co/mistralai/Mistral-7B-v0.1/blob/main/config.json"};
inline constexpr transformer mixtral_8x7b{
    .name = "mixtral-8x7b", .layers = 32, .hidden = 4096, .ffn = 14336, .heads = 32, .kv_heads = 8, .head_dim = 128,
    .vocab = 32000, .experts = 8, .active_experts = 2,
    .max_positions = 32768, .source = "https://huggingface.co/mistralai/Mixtral-8x7B-v0.1/blob/main/config.json"};
// Llama 3.1 405B: Llama 3's block at 126 layers of 16,384 (its RoPE scaling for long contexts changes no count).
inline constexpr transformer llama_3_1_405b{
    .name = "llama-3.1-405b", .layers = 126, .hidden = 16384, .ffn = 53248, .heads = 128, .kv_heads = 8, .head_dim = 128,
    .vocab = 128256, .max_positions = 131072, .source = "https://huggingface.co/meta-llama/Llama-3.1-405B/blob/main/config.json"};
// Qwen2.5: Llama's block with biases on Q, K and V alone, and a vocabulary of 152,064.
inline constexpr transformer qwen2_5_7b{
    .name = "qwen2.5-7b", .layers = 28, .hidden = 3584, .ffn = 18944, .heads = 28, .kv_heads = 4, .head_dim = 128,
    .vocab = 152064, .qkv_biases = true, .max_positions = 131072, .source = "https://huggingface.co/Qwen/Qwen2.5-7B/blob/main/config.json"};
inline constexpr transformer qwen2_5_72b{
    .name = "qwen2.5-72b", .layers = 80, .hidden = 8192, .ffn = 29568, .heads = 64, .kv_heads = 8, .head_dim = 128,
    .vocab = 152064, .qkv_biases = true, .max_positions = 131072, .source = "https://huggingface.co/Qwen/Qwen2.5-72B/blob/main/config.json"};
// A GPT-style block, as GPT-2 and OPT have it: LayerNorm, biases, learned positions, a plain GELU MLP, the LM
// head tied to the embedding.
inline constexpr transformer gpt2_xl{
    .name = "gpt2-xl", .layers = 48, .hidden = 1600, .ffn = 6400, .heads = 25, .kv_heads = 25, .head_dim = 64,
    .vocab = 50257, .gated_mlp = false, .tied_embeddings = true, .norm = normalization_kind::layer_norm, .biases = true,
    .learned_positions = 1024, .max_positions = 1024, .source = "https://huggingface.co/openai-community/gpt2-xl/blob/main/config.json"};
// DeepSeek-V3: multi-head latent attention (a KV latent of 512 and a rotary key of 64 cached a token and layer)
// and DeepSeekMoE: 256 routed experts of 2,048, 8 a token, one shared expert, a router with a bias an expert
// (topk_method noaux_tc), after 3 dense layers of 18,432. The multi-token prediction module
// (num_nextn_predict_layers) is not counted: the 671 B are the main model's.
inline constexpr transformer deepseek_v3{
    .name = "deepseek-v3", .layers = 61, .hidden = 7168, .ffn = 2048, .heads = 128, .kv_heads = 128, .head_dim = 128,
    .latent = {.q_rank = 1536, .kv_rank = 512, .rope_dim = 64, .value_dim = 128}, .vocab = 129280,
    .experts = 256, .active_experts = 8, .shared_experts = 1, .router_biases = true, .dense_layers = 3, .dense_ffn = 18432,
    .max_positions = 163840, .source = "https://huggingface.co/deepseek-ai/DeepSeek-V3/blob/main/config.json"};
// DeepSeek-V2: the same attention, 160 routed experts of 1,536, 6 a token, two shared, after one dense layer.
inline constexpr transformer deepseek_v2{
    .name = "deepseek-v2", .layers = 60, .hidden = 5120, .ffn = 1536, .heads = 128, .kv_heads = 128, .head_dim = 128,
    .latent = {.q_rank = 1536, .kv_rank = 512, .rope_dim = 64, .value_dim = 128}, .vocab = 102400,
    .experts = 160, .active_experts = 6, .shared_experts = 2, .dense_layers = 1, .dense_ffn = 12288,
    .max_positions = 163840, .source = "https://huggingface.co/deepseek-ai/DeepSeek-V2/blob/main/config.json"};
// clang-format on

// The one list of presets, in this order for `hml llm --help`.
inline constexpr std::array<const transformer*, 13> all{
    &llama_2_7b, &llama_2_13b,  &llama_2_70b,  &llama_3_8b,  &llama_3_70b, &llama_3_1_405b, &qwen2_5_7b,
    &qwen2_5_72b, &mistral_7b, &mixtral_8x7b, &deepseek_v2, &deepseek_v3, &gpt2_xl};

}  // namespace hml::models

namespace hml::models::detail {

// Published sizes (the model cards' parameter counts, as the safetensors metadata gives them):
// Llama-2 7B 6,738,415,616; 13B 13,015,864,320; 70B 68,976,648,192; Llama-3 8B 8,030,261,248;
// 70B 70,553,706,496; Mistral 7B 7,241,732,096.
static_assert(parameters(llama_2_7b) == 6'738'415'616);
static_assert(parameters(llama_2_13b) == 13'015'864'320);
static_assert(parameters(llama_2_70b) == 68'976'648'192);
static_assert(parameters(llama_3_8b) == 8'030'261'248);
static_assert(parameters(llama_3_70b) == 70'553'706'496);
static_assert(parameters(mistral_7b) == 7'241'732'096);
// Llama 3.1 405B: 405,853,388,800 (its model card's 405B): 126 layers of Q and O 16,384^2 each, K and V
// 16,384 x 1,024 each, 3 x 16,384 x 53,248 of MLP and two norms, the final norm, and 2 x 128,256 x 16,384.
static_assert(parameters(llama_3_1_405b) == 405'853'388'800);
static_assert(parameters(llama_3_1_405b) ==
              126ULL * (2 * 16384ULL * 16384 + 2 * 16384ULL * 1024 + 3 * 16384ULL * 53248 + 2 * 16384) + 16384 +
                  2 * 128256ULL * 16384);
// Qwen2.5 7B: 7,615,616,512, its card's 7.61B (6.53B without the embeddings, 2 x 152,064 x 3,584): 28 layers
// of Q 3,584^2 + 3,584, K and V 3,584 x 512 + 512 each, O 3,584^2, 3 x 3,584 x 18,944 and two norms.
static_assert(parameters(qwen2_5_7b) == 7'615'616'512);
static_assert(parameters(qwen2_5_7b) ==
              28ULL * (3584ULL * 3584 + 3584 + 2 * (3584ULL * 512 + 512) + 3584ULL * 3584 + 3 * 3584ULL * 18944 + 2 * 3584) +
                  3584 + 2 * 152064ULL * 3584);
static_assert(parameters(qwen2_5_7b) - 2 * 152064ULL * 3584 == 6'525'621'760);
// Qwen2.5 72B: 72,706,203,648, its card's 72.7B.
static_assert(parameters(qwen2_5_72b) == 72'706'203'648);
// Mixtral 8x7B: 46.7 G parameters, 12.9 G active a token (Mistral AI, "Mixtral of experts"): 32 layers of
// attention 41,943,040 + 8 experts x 176,160,768 + router 32,768 + norms 8,192, plus 2 x 32,000 x 4,096 + 4,096.
static_assert(parameters(mixtral_8x7b) == 46'702'792'704);
static_assert(active_parameters(mixtral_8x7b) == 12'879'925'248);
// GPT-2 XL: 1,557,611,200 (the Hugging Face model's count): 48 layers of QKV 1600 x 4800 + 4800, O 1600^2 +
// 1600, up 1600 x 6400 + 6400, down 6400 x 1600 + 1600 and two LayerNorms of 2 x 1600; the final LayerNorm,
// the tied embedding 50,257 x 1600 and the position table 1,024 x 1600.
static_assert(parameters(gpt2_xl) == 1'557'611'200);
static_assert(parameters(gpt2_xl) == 48 * (1600 * 4800 + 4800 + 1600 * 1600 + 1600 + 2 * 1600 * 6400 + 6400 + 1600 + 4 * 1600) +
                                         2 * 1600 + 50'257 * 1600 + 1024 * 1600);

// DeepSeek-V3: 671,026,419,200, the main model's 671 B (its technical report, arXiv:2412.19437; the count of
// its checkpoint's tensors without the MTP module): a layer's latent attention is Q's latent 7,168 x 1,536, its
// norm and up-projection 1,536 x 128 x 192, the KV latent and rotary key 7,168 x 576, its norm and
// up-projection 512 x 128 x 256, and O 16,384 x 7,168; 3 dense layers of 3 x 7,168 x 18,432 and 58 of 257
// experts of 3 x 7,168 x 2,048 and a router of 7,168 x 256 with 256 biases; the embedding and LM head of
// 129,280 x 7,168. A token runs 37.55 G of them (the report's 37 B): 8 routed experts and the shared one.
static_assert(attention_parameters(deepseek_v3) ==
              7168ULL * 1536 + 1536 + 1536ULL * 128 * 192 + 7168ULL * 576 + 512 + 512ULL * 128 * 256 + 16384ULL * 7168);
static_assert(parameters(deepseek_v3) == 671'026'419'200);
static_assert(parameters(deepseek_v3) ==
              61 * (attention_parameters(deepseek_v3) + 2 * 7168ULL) + 3 * 3 * 7168ULL * 18432 +
                  58 * (257 * 3 * 7168ULL * 2048 + 7168ULL * 256 + 256) + 2 * 129280ULL * 7168 + 7168);
static_assert(active_parameters(deepseek_v3) == 37'552'297'472);
// DeepSeek-V2: 235,741,434,880, its paper's 236 B (arXiv:2405.04434), 21.38 G active a token (its 21 B).
static_assert(parameters(deepseek_v2) == 235'741'434'880);
static_assert(active_parameters(deepseek_v2) == 21'375'800'320);

}  // namespace hml::models::detail
