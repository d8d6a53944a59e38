// Multi-head latent attention and DeepSeekMoE at compile time (DeepSeek-V2 and V3): the cache a token holds,
// the operators of a step (expanded in prefill, absorbed in decode), tensor parallelism's replicated latents,
// the dense first layers a pipeline's stages split, and what fits where. Each figure derived by hand.
#include <cstdint>
#include <string_view>

#include "step_operators.hpp"

import hml;

namespace {

using namespace hml::literals;
namespace models = hml::models;
namespace devices = hml::devices;
using hml::precision;

constexpr hml::transformer v3 = models::deepseek_v3;

constexpr hml::inference_options bf16(unsigned n = 1) {
  hml::inference_options o{.types = {precision::bf16, precision::bf16, precision::bf16}, .tensor_parallel = n};
  if (n > 1) o.link = hml::link_of(hml::systems::nvlink4);
  return o;
}

using step_operators::named;

// --- The cache -------------------------------------------------------------------------------------------

// A token caches its KV latent and its rotary key a layer: 512 + 64 = 576 elements, the DeepSeek-V2 paper's
// (d_c + d_h^R) l = 9/2 d_h l (Table 1), in BF16 61 x 576 x 2 = 70,272 B; multi-head attention of the same
// 128 heads of 128 would hold 2 x 128 x 128 = 32,768 elements a layer, 56.9 times as many.
static_assert(hml::kv_cache_size(v3, 1, 1, bf16()) == 70'272_B);
static_assert(576 * 2 == 9 * 128);
// Tensor parallelism splits the heads, not the latent: each of 8 devices holds every token's.
static_assert(hml::kv_cache_size(v3, 1, 1, bf16(8)) == 70'272_B);
// A batch of 64 sequences of 4,096 tokens: 64 x 4,096 x 70,272 B = 18.42 GB a device.
static_assert(hml::kv_cache_size(v3, 64, 4096, bf16(8)) == 64.0 * 4096 * 70'272_B);

// --- A decode step: absorbed ----------------------------------------------------------------------------

constexpr hml::operator_list decode = hml::step_operators(v3, hml::decode_step(1, 4096), bf16());

// Attention reads the latents themselves: multi-query attention of 128 heads over 4,096 keys of 576 whose
// first 512 elements are the values. FLOP a layer 128 x 4,096 x (2 x 576 + 2 x 512 + 5); the cache read,
// 4,096 x 576 x 2 B a layer.
constexpr hml::operator_cost decode_attention = named(decode, "attention (decode)");
static_assert(decode_attention.flops == 61 * 128.0 * 4096 * 2181 * hml::flop);
static_assert(decode_attention.kv_read == 61 * 4096.0 * 576 * 2_B);
// The up-projections absorbed: each head's query to the latent (128 -> 512) and its output back (512 -> 128),
// all of kv_b_proj's 512 x 128 x 256 weights read, 2 FLOP each for the one row.
constexpr hml::operator_cost absorbed = named(decode, "KV up projection (absorbed)");
static_assert(absorbed.weights == 61 * 512.0 * 128 * 256 * 2_B && absorbed.flops == 61 * 2.0 * 512 * 128 * 256 * hml::flop);
// The new token's latent and rotary key stored: 576 elements a layer.
static_assert(named(decode, "KV cache store").kv_written == 61 * 576 * 2_B);
// The rotary part of the 128 heads' queries and the shared rotary key: 129 x 64 elements at 3 FLOP.
static_assert(named(decode, "rotary").flops == 61 * 3.0 * 129 * 64 * hml::flop);

// One sequence's decode step reads the parameters a token runs through (the dense layers, 8 routed experts
// and the shared one a layer of experts, the router and its biases), but of the embedding its row alone.
constexpr hml::data_size weights_read(const hml::operator_list& ops) {
  hml::data_size sum{};
  for (const hml::operator_cost& op : ops) sum += op.weights;
  return sum;
}
static_assert(weights_read(decode) ==
              static_cast<double>(hml::active_parameters(v3) - 129280ULL * 7168 + 7168) * 2_B);
// Every expert is touched from 32 tokens on (32 x 8 = 256): a step reads all 671 G but the embedding.
static_assert(weights_read(hml::step_operators(v3, hml::decode_step(32, 4096), bf16())) ==
              static_cast<double>(hml::parameters(v3) - 129280ULL * 7168 + 32 * 7168) * 2_B);

// --- A prefill step: expanded ---------------------------------------------------------------------------

constexpr hml::operator_list prefill = hml::step_operators(v3, hml::prefill_step(1, 512), bf16());
// The latents up-projected to every head's key (128 + 64 with the shared rotary key) and value (128):
// multi-head attention whose scores cost 2 x 192 + 2 x 128 + 5 = 645 FLOP. A causal kernel's 10 tiles a head
// of 512 tokens (blocks of 128), 128 heads.
constexpr hml::operator_cost prefill_attention = named(prefill, "attention (fused)");
static_assert(prefill_attention.flops == 61 * 128.0 * 512 * 512 * 645 * hml::flop);
static_assert(prefill_attention.attention_work == 61 * 128.0 * 10 * 16384 * 645 * hml::flop);
static_assert(named(prefill, "KV up projection").weights == absorbed.weights);
static_assert(named(prefill, "KV up projection").activations_written == 61 * 512.0 * 128 * 256 * 2_B);
// The cache still stores the latents: 512 tokens x 576 a layer.
static_assert(named(prefill, "KV cache store").kv_written == 61 * 512.0 * 576 * 2_B);
// The dense first layers run their own MLP: 3 x 7,168 x 2 x 18,432 for gate and up.
static_assert(named(prefill, "dense gate+up projection").weights == 3 * 7168.0 * 2 * 18432 * 2_B);

// --- Tensor parallelism ---------------------------------------------------------------------------------

constexpr hml::operator_list decode_tp8 = hml::step_operators(v3, hml::decode_step(1, 4096), bf16(8));
// The heads split over 8 devices: an eighth of the query up-projection and of attention's FLOP, ...
static_assert(named(decode_tp8, "Q up projection").weights * 8 == named(decode, "Q up projection").weights);
static_assert(named(decode_tp8, "attention (decode)").flops * 8 == decode_attention.flops);
// ... but each device reads the whole latent cache and computes the latents whole (replicated, as vLLM runs
// them).
static_assert(named(decode_tp8, "attention (decode)").kv_read == decode_attention.kv_read);
static_assert(named(decode_tp8, "QKV latent projection").weights == named(decode, "QKV latent projection").weights);

// --- Pipeline stages ------------------------------------------------------------------------------------

// 61 layers over 4 stages are 15, 15, 16 and 15: the first holds the 3 dense layers.
static_assert(hml::stage_of(v3, 4, 0).dense_layers == 3 && hml::stage_of(v3, 4, 1).dense_layers == 0);
// With 20 dense layers, the first stage holds 15 of them and the second 5; the stages hold all parameters.
constexpr hml::transformer deeper_dense = [] {
  hml::transformer t = v3;
  t.dense_layers = 20;
  return t;
}();
static_assert(hml::stage_of(deeper_dense, 4, 0).dense_layers == 15 && hml::stage_of(deeper_dense, 4, 1).dense_layers == 5 &&
              hml::stage_of(deeper_dense, 4, 2).dense_layers == 0);
static_assert(hml::stage_parameters(deeper_dense, hml::stage_of(deeper_dense, 4, 0)) +
                  hml::stage_parameters(deeper_dense, hml::stage_of(deeper_dense, 4, 1)) +
                  hml::stage_parameters(deeper_dense, hml::stage_of(deeper_dense, 4, 2)) +
                  hml::stage_parameters(deeper_dense, hml::stage_of(deeper_dense, 4, 3)) ==
              hml::parameters(deeper_dense));

// --- What fits ------------------------------------------------------------------------------------------

// In FP8 (its released weights), 671 G parameters over 8 devices are 83.9 GB each: more than an H100's
// 80 GB, within an H200's 141 GB, as SGLang's DeepSeek-V3 guide says (one node of 8 H200s, or two of H100s).
constexpr hml::inference_options fp8_tp8{.types = {precision::fp8, precision::bf16, precision::bf16},
                                         .tensor_parallel = 8,
                                         .link = hml::link_of(hml::systems::nvlink4)};
static_assert(hml::fits(v3, 1, 4096, devices::h200, fp8_tp8));
static_assert(!hml::fits(v3, 1, 4096, devices::h100_sxm, fp8_tp8));
// In BF16 (1,342 GB), two nodes of 8 H200s hold it and one does not (the same guide's 2 x 8 x H200).
static_assert(hml::fits(v3, 1, 4096, devices::h200, bf16(16)) && !hml::fits(v3, 1, 4096, devices::h200, bf16(8)));

}  // namespace
