// A mixture of experts served data-parallel (SGLang's --enable-dp-attention, with and without --ep-size), and
// with expert parallelism under tensor-parallel attention (vLLM's --enable-expert-parallel), at compile time
// on DeepSeek-V3 over 8 H200s: what each device runs, sends and holds. Each figure derived by hand from the
// model's config (hidden 7,168; 61 layers, 3 of them dense; 256 experts of 2,048, 8 active, 1
// shared; 128 heads; the latent 512 + 64).
#include <cstdint>
#include <string_view>

#include "step_operators.hpp"

import hml;

namespace {

using namespace hml::literals;
using hml::precision;

constexpr hml::transformer v3 = hml::models::deepseek_v3;

// FP8 weights and activations, a BF16 cache, over 8 devices joined by NVLink 4; as tensor parallelism, with
// data-parallel attention, and with its experts whole too.
constexpr hml::inference_options run(bool data_parallel, bool whole_experts) {
  return {.types = {precision::fp8, precision::fp8, precision::bf16},
          .tensor_parallel = 8,
          .link = hml::link_of(hml::systems::nvlink4),
          .experts = {.data_parallel_attention = data_parallel, .expert_parallel = whole_experts}};
}
constexpr hml::inference_options tensor = run(false, false);
constexpr hml::inference_options data_parallel = run(true, false);
constexpr hml::inference_options expert_parallel = run(true, true);

using step_operators::has;
using step_operators::named;

// --- Who runs which sequences ----------------------------------------------------------------------------

// Each device its own sequences: the busiest of 8 takes ceil(1,001 / 8) = 126.
static_assert(hml::device_batch(1001, data_parallel) == 126 && hml::device_batch(1024, data_parallel) == 128 &&
              hml::device_batch(1024, tensor) == 1024);

// A decode step of 1,024 sequences at 2,048 tokens of context.
constexpr hml::operator_list dp = hml::step_operators(v3, hml::decode_step(1024, 2048), expert_parallel);
constexpr hml::operator_list tp = hml::step_operators(v3, hml::decode_step(1024, 2048), tensor);

// Attention runs a device's 128 sequences through all 128 heads: 61 x 128 x 128 x 2,048 scores of
// 2 x 576 + 2 x 512 + 5 FLOP (absorbed), where tensor parallelism runs all 1,024 through 16 heads: the same FLOP.
static_assert(named(dp, "attention (decode)").flops == 61 * 128.0 * 128 * 2048 * 2181 * hml::flop);
static_assert(named(tp, "attention (decode)").flops == named(dp, "attention (decode)").flops);
// The O projection takes the device's 128 rows over every head's 128 values: 2 x 128 x 16,384 x 7,168 a layer,
// all of its weights read (a tensor-parallel device reads an eighth).
static_assert(named(dp, "O projection").flops == 61 * 2.0 * 128 * 16384 * 7168 * hml::flop);
static_assert(named(dp, "O projection").weights == 61 * 16384.0 * 7168 * 1_B);
static_assert(named(tp, "O projection").weights == named(dp, "O projection").weights / 8);
// The LM head, the device's 128 sequences over the whole vocabulary.
static_assert(named(dp, "LM head").flops == 2.0 * 128 * 7168 * 129280 * hml::flop);

// --- What crosses the link ---------------------------------------------------------------------------------

// No all-reduce: each of the 58 layers of experts gathers every device's 1,024 tokens' hidden states (FP8:
// 7,168 B each) and scatters the sums back, a ring's 2 x 7 messages of 2 x 7 / 8 of the 7.34 MB; tensor
// parallelism all-reduces twice in each of the 61 layers.
static_assert(!has(dp, "all-reduce") && has(tp, "all-reduce"));
constexpr hml::operator_cost gathered = named(dp, "all-gather, reduce-scatter");
static_assert(gathered.link_sent == 58 * 1024.0 * 7168 * 14 / 8 * 1_B && gathered.link_messages == 58 * 14.0);
static_assert(named(tp, "all-reduce").link_sent == 2 * 61 * 1024.0 * 7168 * 14 / 8 * 1_B);

// --- The experts ---------------------------------------------------------------------------------------------

// Whole experts, 32 a device: the busiest takes its share of the 8,192 token-expert pairs and of the 128
// shared-expert rows, 1,024 + 128 = 1,152, through the 256 / 8 = 32 experts the step touches there and the
// shared one, 33 of 2,048 (gate and up: 4,096 columns), each read whole.
constexpr hml::operator_cost up = named(dp, "gate+up projection");
static_assert(up.flops == 58 * 2.0 * 1152 * 7168 * 4096 * hml::flop);
static_assert(up.weights == 58 * 33.0 * 7168 * 4096 * 1_B);
static_assert(up.gemm.count == 33 && up.gemm.rows == 35);  // ceil(1,152 / 33) rows a group
// Split by their width instead, every expert runs all 9,216 pairs at 2,048 / 8: the same FLOP and weights
// but the shared expert's, which splits too (a 257th of them: 256 + 1 experts read at an eighth each).
constexpr hml::operator_cost split = named(hml::step_operators(v3, hml::decode_step(1024, 2048), data_parallel),
                                           "gate+up projection");
static_assert(split.flops == 58 * 2.0 * 9216 * 7168 * 512 * hml::flop);
static_assert(split.weights == 58 * 257.0 * 7168 * 512 * 1_B);
// The router sees every device's 1,024 tokens.
static_assert(named(dp, "router").flops == 58 * (2.0 * 1024 * 7168 * 256 + 1024 * 256) * hml::flop);

// --- What a device holds -------------------------------------------------------------------------------------

// Its own sequences' cache, every head's latent: 128 x 2,048 x 70,272 B, an eighth of tensor parallelism's
// (which holds every sequence's latent on each device).
static_assert(hml::kv_cache_size(v3, 1024, 2048, expert_parallel) == 128.0 * 2048 * 70'272_B);
static_assert(hml::kv_cache_size(v3, 1024, 2048, tensor) == 8 * hml::kv_cache_size(v3, 1024, 2048, expert_parallel));
// Its weights: everything whole but the 58 x 256 routed experts of 3 x 7,168 x 2,048 parameters, of which it
// holds an eighth (the shared ones whole): 671,026,419,200 - 653,908,770,816 x 7 / 8 = 98,856,244,736 B in FP8;
// with the experts split by width the shared ones split too, 58 x 44,040,192 x 7 / 8 fewer.
static_assert(hml::memory_needed(v3, 1024, 2048, expert_parallel).weights == 98'856'244'736_B);
static_assert(hml::memory_needed(v3, 1024, 2048, data_parallel).weights == (98'856'244'736 - 2'235'039'744) * 1_B);
static_assert(hml::memory_needed(v3, 1024, 2048, tensor).weights == 671'026'419'200 / 8 * 1_B);
// So the weights and the cache of 1,024 sequences of 3,072 tokens take 126.5 GB of an H200's 141 GB
// data-parallel, where tensor-parallel devices each hold all 1,024 latents, 221 GB.
static_assert(hml::kv_cache_size(v3, 1024, 3072, tensor) == 1024.0 * 3072 * 70'272_B);
static_assert(hml::kv_cache_size(v3, 1024, 3072, tensor) > 141_GB);
static_assert(98'856'244'736_B + hml::kv_cache_size(v3, 1024, 3072, expert_parallel) < 127_GB);

// --- Expert parallelism with tensor-parallel attention ------------------------------------------------------

// vLLM's --enable-expert-parallel at data-parallel size 1: attention as tensor parallelism runs it, the experts
// as data-parallel attention's expert parallelism runs them.
constexpr hml::inference_options tensor_attention = run(false, true);
constexpr hml::operator_list ep = hml::step_operators(v3, hml::decode_step(1024, 2048), tensor_attention);

// Every device runs all 1,024 sequences through its 16 heads and reads an eighth of the attention weights ...
static_assert(hml::device_batch(1024, tensor_attention) == 1024);
static_assert(named(ep, "attention (decode)").flops == named(tp, "attention (decode)").flops);
static_assert(named(ep, "O projection").weights == named(tp, "O projection").weights);
// ... all-reduces twice a layer as tensor parallelism does, gathering nothing ...
static_assert(!has(ep, "all-gather, reduce-scatter"));
static_assert(named(ep, "all-reduce").link_sent == named(tp, "all-reduce").link_sent);
// ... and runs its share of the 1,024 tokens' pairs through its 32 whole experts and the shared one, as under
// data-parallel attention (the router sees the same 1,024 tokens).
static_assert(named(ep, "gate+up projection").flops == up.flops && named(ep, "gate+up projection").weights == up.weights);
static_assert(named(ep, "gate+up projection").gemm.count == 33 && named(ep, "gate+up projection").gemm.rows == 35);
static_assert(named(ep, "router").flops == named(dp, "router").flops);
// It holds tensor parallelism's eighth of the weights but for the shared experts, whole (7 / 8 of 58 x
// 44,040,192 more), and every sequence's latent, as tensor parallelism does.
static_assert(hml::memory_needed(v3, 1024, 2048, tensor_attention).weights == (83'878'302'400 + 2'235'039'744) * 1_B);
static_assert(hml::kv_cache_size(v3, 1024, 2048, tensor_attention) == hml::kv_cache_size(v3, 1024, 2048, tensor));

// --- The ridge -----------------------------------------------------------------------------------------------

// Read off batches each device divides (a device's sequences grow one in 8 batches): decode turns compute-bound
// past the point where every expert is touched (32 sequences), where the tensor-parallel step's ridge is.
constexpr hml::decode_ridge dp_ridge = hml::ridge_batch(v3, 2048, hml::devices::h200, expert_parallel);
static_assert(dp_ridge.reached() && dp_ridge.batch() > 256);

}  // namespace
