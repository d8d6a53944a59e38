// Prefill attention as FlashAttention runs it, at compile time: the tiles a causal kernel computes, and the
// expected time that takes them at a machine's measured attention rate where it has one and keeps the
// bound's rule where it has none, or where the activations are not 16-bit.
#include <cstdint>

import hml;

namespace {

using namespace hml::literals;
namespace devices = hml::devices;

constexpr bool near(double a, double b, double tolerance) { return a > b * (1 - tolerance) && a < b * (1 + tolerance); }

// Llama 3 8B's attention: 32 query heads over 8 key-value heads of 128.
constexpr hml::attention_shape llama_3_8b = hml::attention_of(hml::models::llama_3_8b);
static_assert(llama_3_8b.heads == 32 && llama_3_8b.kv_heads == 8 && llama_3_8b.head_dim == 128);

// --- The tiles a causal kernel computes ----------------------------------------------------------------

// 512 tokens are 4 blocks of 128: 1 + 2 + 3 + 4 = 10 tiles a head, 320 over 32 heads, of 128^2 scores at
// 4 d + 5 = 517 FLOP each: 320 x 16,384 x 517.
static_assert(hml::causal_tile_work(1, 512, llama_3_8b) == 320.0 * 16384 * 517 * hml::flop);
// A partial block is computed whole: 513 tokens take 5 blocks (15 tiles a head).
static_assert(hml::causal_tile_work(1, 513, llama_3_8b) == 32.0 * 15 * 16384 * 517 * hml::flop);
// Linear in the batch and the heads.
static_assert(hml::causal_tile_work(8, 2048, llama_3_8b) == 8 * hml::causal_tile_work(1, 2048, llama_3_8b));
// About half the scores the bound counts, a little more for short sequences: n (n + 1) / 2 of n^2 tiles.
constexpr double causal_share(std::uint64_t tokens) {
  const hml::operator_cost op = hml::attention_prefill_fused(1, tokens, llama_3_8b, hml::precision::bf16);
  return op.attention_work / op.flops;
}
static_assert(near(causal_share(512), 10.0 / 16, 1e-12));
static_assert(near(causal_share(16384), 129.0 / 256, 1e-12));
// Unfused attention and decode attention are not FlashAttention's prefill: no tiles.
static_assert(hml::attention_prefill_unfused(1, 512, llama_3_8b, hml::precision::bf16).attention_work.value() == 0);
static_assert(hml::attention_decode(1, 512, llama_3_8b, hml::precision::bf16, hml::precision::bf16).attention_work.value() == 0);
// A layer's attention repeated over the layers carries its tiles along.
static_assert(hml::repeated(hml::attention_prefill_fused(1, 512, llama_3_8b, hml::precision::bf16), 32).attention_work ==
              32 * hml::causal_tile_work(1, 512, llama_3_8b));

// --- The expected time ---------------------------------------------------------------------------------

// The catalog's H100 SXM and H200 carry the rate this project measured (FlashAttention-2, BF16, one
// sequence of 16,384 tokens: docs/explanation/benchmarks/gpu.md).
static_assert(devices::h100_sxm.attention_rate.value == 347_TFLOPS && devices::h200.attention_rate.value == 347.7_TFLOPS);
static_assert(devices::h100_sxm.attention_rate.kind == hml::provenance::measured);
static_assert(!devices::a100_sxm_80gb.attention_rate.published());

constexpr hml::inference_options options(hml::precision p, hml::estimate e) {
  hml::inference_options o;
  o.types = {p, p, p};
  o.estimate = e;
  return o;
}
constexpr hml::operator_cost prefill_16k = hml::attention_prefill_fused(1, 16384, llama_3_8b, hml::precision::bf16);

// On the H100: the causal tiles at 347 TFLOP/s, plus one kernel's overhead, 4.68 us: 6.454 ms, where the
// kernel measured 6.587 ms.
constexpr hml::operator_time on_h100 = hml::time_on(prefill_16k, devices::h100_sxm, options(hml::precision::bf16, hml::estimate::expected));
static_assert(on_h100.compute_time == hml::causal_tile_work(1, 16384, llama_3_8b) / 347_TFLOPS);
static_assert(near(on_h100.time / 1_ms, 6.454, 5e-4));
static_assert(on_h100.bound == hml::limit::compute);
// The compute efficiency scales the rate as it scales every peak.
constexpr hml::inference_options at_half = [] {
  hml::inference_options o = options(hml::precision::bf16, hml::estimate::expected);
  o.achieved.compute = 0.5;
  return o;
}();
static_assert(hml::time_on(prefill_16k, devices::h100_sxm, at_half).compute_time == 2 * on_h100.compute_time);
// The bound keeps every score at the datasheet's tensor peak.
constexpr hml::operator_time bound_h100 = hml::time_on(prefill_16k, devices::h100_sxm, options(hml::precision::bf16, hml::estimate::bound));
static_assert(bound_h100.compute_time == prefill_16k.flops / 989_TFLOPS);
// FP8 activations, and a machine that publishes no rate, keep the bound's rule (every score at the peak).
constexpr hml::operator_cost prefill_fp8 = hml::attention_prefill_fused(1, 16384, llama_3_8b, hml::precision::fp8);
static_assert(hml::time_on(prefill_fp8, devices::h100_sxm, options(hml::precision::fp8, hml::estimate::expected)).compute_time ==
              prefill_fp8.flops / 1979_TFLOPS);
static_assert(hml::time_on(prefill_16k, devices::a100_sxm_80gb, options(hml::precision::bf16, hml::estimate::expected)).compute_time ==
              prefill_16k.flops / 312_TFLOPS);

}  // namespace
