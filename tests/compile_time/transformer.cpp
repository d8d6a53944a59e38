// Transformer inference at compile time: each operator's FLOP and bytes on small cases worked by hand;
// the presets' parameter counts (in hml.catalog.transformers); decode of Llama-2 7B on an H100 SXM at
// batch 1 is memory-bound; the ridge batch in closed form; "fits in 80 GB"; a compile-time sweep over batch
// x context; and published figures of other calculators reproduced, with the differences stated.
#include <array>
#include <cstdint>
#include <initializer_list>
#include <string_view>
#include <tuple>

#include "llm_decode.hpp"  // the example's figures, checked below

import hml;

namespace {

using namespace hml::literals;
namespace devices = hml::devices;
namespace models = hml::models;
using hml::precision;

constexpr bool near(double a, double b, double tolerance) { return a > b * (1 - tolerance) && a < b * (1 + tolerance); }

// --- Operators, by hand ------------------------------------------------------------------------------

// C = A B, 2 x 4 times 4 x 3 in FP16: 2 x 2 x 3 x 4 = 48 FLOP; A 8 and B 12 elements read (40 B), C 6
// written (12 B).
constexpr auto g = hml::gemm("g", 2, 3, 4);
static_assert(g.flops == 48_FLOP && g.bytes_read() == 40_B && g.bytes_written() == 12_B);
static_assert(g.compute == hml::compute_kind{precision::fp16, hml::compute_unit::tensor});
// Batched: 5 of them, five times everything.
static_assert(hml::gemm("g", 2, 3, 4, {}, 5).flops == 240_FLOP && hml::gemm("g", 2, 3, 4, {}, 5).bytes() == 260_B);
// GEMV (n = 1) in FP32: 2 x 4 x 1 x 2 = 16 FLOP; (8 + 4) x 4 B read, 2 x 4 B written.
static_assert(hml::gemm("v", 2, 1, 4, {precision::fp32, precision::fp32, precision::fp32}).bytes() == 56_B);

// A linear layer of 2 rows, 4 in, 3 out, FP16 activations, INT4 weights: 48 FLOP; 12 weights in 6 B;
// 8 activations read (16 B), 6 written (12 B); it computes at FP16 (weight-only quantization).
constexpr auto w4a16 = hml::linear("l", 2, 4, 3, precision::fp16, precision::int4);
static_assert(w4a16.flops == 48_FLOP && w4a16.weights == 6_B && w4a16.activations_read == 16_B &&
              w4a16.activations_written == 12_B && w4a16.compute.type == precision::fp16);
// W8A8 computes at INT8.
static_assert(hml::linear("l", 2, 4, 3, precision::int8, precision::int8).compute.type == precision::int8);

// Prefill attention, 1 sequence of 4 tokens, 2 heads, 1 kv head, head dim 8, FP16: 2 x 16 = 32 scores;
// FLOP 4 x 32 x 8 + 5 x 32 = 1,184. Unfused: Q (2 x 4 x 8) + K, V (2 x 1 x 4 x 8) = 128 elements, scores
// read twice (64): 192 elements, 384 B read; scores written twice (64) and O (64): 256 B written.
// Fused: only Q, K, V read (256 B) and O written (128 B).
constexpr hml::attention_shape small{.heads = 2, .kv_heads = 1, .head_dim = 8};
constexpr auto unfused = hml::attention_prefill_unfused(1, 4, small, precision::fp16);
constexpr auto fused = hml::attention_prefill_fused(1, 4, small, precision::fp16);
static_assert(unfused.flops == 1184_FLOP && unfused.bytes_read() == 384_B && unfused.bytes_written() == 256_B);
static_assert(fused.flops == 1184_FLOP && fused.bytes_read() == 256_B && fused.bytes_written() == 128_B);

// Decode attention, 2 sequences, context 10, 4 heads, 2 kv heads, d 8, FP8 cache: 80 scores; FLOP
// 4 x 80 x 8 + 5 x 80 = 2,960; K and V of 2 x 2 x 10 x 8 elements, 1 B each: 640 B; the query and the
// output, 2 x 4 x 8 FP16 elements each: 128 B.
constexpr auto decode_attention =
    hml::attention_decode(2, 10, {.heads = 4, .kv_heads = 2, .head_dim = 8}, precision::fp16, precision::fp8);
static_assert(decode_attention.flops == 2960_FLOP && decode_attention.kv_read == 640_B &&
              decode_attention.activations_read == 128_B && decode_attention.activations_written == 128_B);

// RMSNorm of 3 rows of 4: 4 FLOP an element (48); the gain (4 FP16, 8 B) and the rows (24 B) read, 24 B
// written. LayerNorm: 7 an element, gain and bias.
constexpr auto rms = hml::normalization_layer(3, 4, hml::normalization_kind::rms_norm, precision::fp16, precision::fp16);
static_assert(rms.flops == 48_FLOP && rms.bytes_read() == 32_B && rms.bytes_written() == 24_B);
static_assert(hml::normalization_layer(3, 4, hml::normalization_kind::layer_norm, precision::fp16, precision::fp16)
                  .flops == 84_FLOP);
// SwiGLU on 10 elements: 5 FLOP each, two inputs: 50 FLOP, 40 B read, 20 B written.
constexpr auto swiglu = hml::elementwise("SwiGLU", 10, 2, 5.0, precision::fp16);
static_assert(swiglu.flops == 50_FLOP && swiglu.bytes_read() == 40_B && swiglu.bytes_written() == 20_B);
// Rotary on 2 tokens, (2 + 1) heads of 8: 48 elements, 3 FLOP each, read and written in place.
static_assert(hml::rotary(2, small, precision::fp16).flops == 144_FLOP &&
              hml::rotary(2, small, precision::fp16).bytes() == 192_B);
// The embedding: one row per token, no FLOP.
static_assert(hml::embedding_lookup(3, 4, precision::fp16, precision::int8).weights == 12_B &&
              hml::embedding_lookup(3, 4, precision::fp16, precision::int8).flops == 0_FLOP);
// The KV cache store of 3 tokens, 1 kv head of 8, INT8 cache: 48 elements written, 48 B.
static_assert(hml::kv_cache_store(3, small, precision::fp16, precision::int8).kv_written == 48_B);
// Element sizes: INT4 packs two elements a byte.
static_assert(hml::bytes_of(10, precision::int4) == 5_B && hml::bytes_of(3, precision::bf16) == 6_B);
// Block-scaled FP4 carries its scales: 16 NVFP4 elements and their FP8 scale are 9 B, 32 MXFP4 elements and
// their E8M0 scale 17 B.
static_assert(hml::bytes_of(16, precision::nvfp4) == 9_B && hml::bytes_of(32, precision::mxfp4) == 17_B);

// --- Decode on an H100 SXM ---------------------------------------------------------------------------

// Llama-2 7B, FP16, batch 1, 512 tokens of context: the step reads the linear layers' weights
// (32 x 202,375,168), the LM head (32,000 x 4,096), one embedding row and the norms' gains, 2 B each.
constexpr auto decode_7b = hml::analyze_step(models::llama_2_7b, hml::decode_step(1, 512), devices::h100_sxm);
constexpr double linear_weights = 32.0 * 202'375'168 + 32'000.0 * 4096;
static_assert(decode_7b.weights == 2 * (linear_weights + 4096 + 65 * 4096) * 1_B);
// ... and the KV cache of 512 tokens: 2 x 32 layers x 32 heads x 128 x 512 x 2 B = 256 MiB.
static_assert(decode_7b.kv_read == 256_MiB);
// Memory-bound, every GEMM included, and about 4 ms a token (13.2 GB at 3.35 TB/s).
static_assert(decode_7b.bound() == hml::limit::memory);
static_assert(decode_7b.operators[2].op.name == "QKV projection" && decode_7b.operators[2].bound == hml::limit::memory);
static_assert(near(decode_7b.time.value / 1_ms, (2 * linear_weights * 1_B + 256_MiB) / 3.35_TBps / 1_ms, 0.01));
static_assert(hml::per_token(decode_7b.time, decode_7b.produced()) == hml::time_per_token{decode_7b.time.value});
// About 1 FLOP a byte: 2 FLOP a weight of 2 B, as LLM-Viewer's decode step is (its operators' bytes summed).
static_assert(near(decode_7b.intensity().value(), 1.0, 0.05));

// --- The ridge batch ---------------------------------------------------------------------------------

// In closed form; below it decode is memory-bound, above it compute-bound (context 1: no KV cache).
constexpr double ridge_7b = hml::ridge_batch(models::llama_2_7b, 1, devices::h100_sxm).batch();
constexpr auto ridge_floor = static_cast<std::uint64_t>(ridge_7b);
static_assert(hml::analyze_step(models::llama_2_7b, hml::decode_step(ridge_floor, 1), devices::h100_sxm).bound() ==
              hml::limit::memory);
static_assert(hml::analyze_step(models::llama_2_7b, hml::decode_step(ridge_floor + 1, 1), devices::h100_sxm).bound() ==
              hml::limit::compute);
// Decomposed: C(b) = c b (no FLOP without a sequence) and M(b) = M0 + m b. M0 / c alone is the weights-only
// pivot, peak x 2 B / (2 x bandwidth) = 989 / 3.35 = 295; the activations each sequence moves (about
// 15 MB a token in FP16: the element-wise ops are not fused) take m = 27 % of c and raise the ridge to
// M0 / (c - m) = 403.
constexpr auto at_1 = hml::analyze_step(models::llama_2_7b, hml::decode_step(1, 1), devices::h100_sxm);
constexpr auto at_2 = hml::analyze_step(models::llama_2_7b, hml::decode_step(2, 1), devices::h100_sxm);
constexpr double c_per_sequence = (at_2.compute_time - at_1.compute_time).value();
constexpr double m_per_sequence = (at_2.memory_time - at_1.memory_time).value();
constexpr double m0 = at_1.memory_time.value() - m_per_sequence;
static_assert(near(m0 / c_per_sequence, 989.0 / 3.35, 0.01));
static_assert(near(ridge_7b, m0 / (c_per_sequence - m_per_sequence), 1e-9) && near(ridge_7b, 403, 0.01));
// At long contexts the KV cache grows with the batch as fast as the compute: decode never turns, and says so
// in its type (no infinity that `> 64` would take; tests/must_not_compile/llm_ridge_compared_as_a_number.cpp).
static_assert(!hml::ridge_batch(models::llama_2_7b, 8192, devices::h100_sxm).reached());
static_assert(hml::ridge_batch(models::llama_2_7b, 8192, devices::h100_sxm) == hml::decode_ridge::never());

// --- Memory ------------------------------------------------------------------------------------------

// FP16 weights of Llama-2 7B: 13.48 GB; the KV cache at 4,096 tokens: 2 GiB a sequence.
static_assert(hml::memory_needed(models::llama_2_7b, 1, 4096).weights == 2 * 6'738'415'616.0 * 1_B);
static_assert(hml::kv_cache_size(models::llama_2_7b, 1, 4096) == 2_GiB);
// Fits in the H100's 80 GB at batch 1 and 4,096 tokens; 70B in FP16 (141 GB of weights) does not.
static_assert(hml::fits(models::llama_2_7b, 1, 4096, devices::h100_sxm));
static_assert(!hml::fits(models::llama_2_70b, 1, 1, devices::h100_sxm));
// ... but in INT4 (35 GB) it does; GQA keeps its cache at 1/8 of the heads'.
constexpr hml::inference_options int4_weights{.types = {.weights = precision::int4}};
static_assert(hml::fits(models::llama_2_70b, 1, 4096, devices::h100_sxm, int4_weights));
// In NVFP4 its weights are 4.5 bits a parameter, an eighth more than INT4's 4 (the scales' share).
constexpr hml::inference_options nvfp4_weights{.types = {.weights = precision::nvfp4}};
static_assert(hml::memory_needed(models::llama_2_70b, 1, 4096, nvfp4_weights).weights ==
              hml::memory_needed(models::llama_2_70b, 1, 4096, int4_weights).weights * 1.125);
// gpt-fast's int4: groups of 32 weights, each with a BF16 scale and a BF16 zero point, 4 + 32/32 = 5 bits a
// weight, a quarter more than plain INT4, in memory and in every step's weight traffic (its activations and
// FLOP unchanged); AWQ's groups of 128 with FP16 activations, 4.25.
constexpr hml::inference_options int4_g32{.types = {precision::int4, precision::bf16, precision::bf16, 32}};
constexpr hml::inference_options int4_bf16{.types = {precision::int4, precision::bf16, precision::bf16}};
static_assert(hml::stored_weight_bits(int4_g32.types) == 5 &&
              hml::stored_weight_bits({precision::int4, precision::fp16, precision::fp16, 128}) == 4.25);
// The scale and zero point are 16 bits whatever the activations (FP32 activations: still 5 bits at 32).
static_assert(hml::stored_weight_bits({precision::int4, precision::fp32, precision::fp32, 32}) == 5);
static_assert(hml::memory_needed(models::llama_2_7b, 1, 4096, int4_g32).weights == 6'738'415'616.0 * 5 / 8 * 1_B);
constexpr auto decode_g32 = hml::analyze_step(models::llama_2_7b, hml::decode_step(1, 512), devices::a100_sxm_80gb, int4_g32);
constexpr auto decode_int4 = hml::analyze_step(models::llama_2_7b, hml::decode_step(1, 512), devices::a100_sxm_80gb, int4_bf16);
static_assert(near(decode_g32.weights / decode_int4.weights, 1.25, 1e-12) && decode_g32.flops == decode_int4.flops);
// One product alone (the gpu report's weight-only table): Llama 2 7B's 4096 x 4096 output projection of one
// token in INT4 groups of 32 reads 10,485,760 B, its 8,388,608 B of weights and 2,097,152 B of scales and zeros;
// without groups, the weights alone.
constexpr hml::operator_cost wo_int4 = hml::linear("wo", 1, 4096, 4096, precision::bf16, precision::int4);
static_assert(hml::with_group_scales(wo_int4, int4_g32.types).weights == 10'485'760 * 1_B &&
              hml::with_group_scales(wo_int4, int4_bf16.types).weights == 8'388'608 * 1_B);

// On a B200, all in NVFP4 (W4A4: FP4 tensor units), the prefill of 4,096 tokens is compute-bound at 9
// PFLOP/s, twice as fast as FP8's compute at 4.5.
constexpr hml::inference_options nvfp4_all{.types = {precision::nvfp4, precision::nvfp4, precision::fp8}};
constexpr hml::inference_options fp8_all{.types = {precision::fp8, precision::fp8, precision::fp8}};
constexpr hml::step_analysis b200_prefill_fp4 =
    hml::analyze_step(models::llama_2_70b, hml::prefill_step(1, 4096), devices::b200, nvfp4_all);
constexpr hml::step_analysis b200_prefill_fp8 =
    hml::analyze_step(models::llama_2_70b, hml::prefill_step(1, 4096), devices::b200, fp8_all);
static_assert(b200_prefill_fp4.bound() == hml::limit::compute && b200_prefill_fp8.bound() == hml::limit::compute);
static_assert(b200_prefill_fp8.time.value / b200_prefill_fp4.time.value > 1.9 &&
              b200_prefill_fp8.time.value / b200_prefill_fp4.time.value < 2.0);
// The largest batch at 4,096 tokens: a sequence holds 2 GiB of cache, and the prefill of its 4,096 tokens
// keeps SwiGLU's two inputs and output live, 4,096 x 3 x 11,008 x 2 B = 270.5 MB: (80 GB - 13.48 GB) /
// 2.418 GB = 27.5, so 27.
constexpr std::uint64_t batch_at_4k = hml::largest_batch(models::llama_2_7b, 4096, devices::h100_sxm);
static_assert((80_GB - 2 * 6'738'415'616.0 * 1_B) / (2_GiB + 4096 * 3 * 11008 * 2_B) > 27.4);
static_assert(batch_at_4k == 27);
static_assert(hml::fits(models::llama_2_7b, batch_at_4k, 4096, devices::h100_sxm) &&
              !hml::fits(models::llama_2_7b, batch_at_4k + 1, 4096, devices::h100_sxm));
static_assert(hml::largest_context(models::llama_2_7b, 1, devices::h100_sxm).count > 100'000);
// A paged cache (vLLM's PagedAttention, blocks of 16 tokens) holds a sequence in whole blocks: 4,100 tokens
// take 4,112 slots, 4,096 take 4,096.
constexpr hml::inference_options paged{.memory = {.kv_block_tokens = 16}};
static_assert(hml::kv_slots(4100, paged.memory) == 4112 && hml::kv_slots(4096, paged.memory) == 4096);
static_assert(hml::kv_cache_size(models::llama_2_7b, 1, 4100, paged) == hml::kv_cache_size(models::llama_2_7b, 1, 4112));
// With vLLM's gpu_memory_utilization of 0.9 the run may take 72 GB of the 80: (72 GB - 13.48 GB) / 2.418 GB
// = 24.2, so 24 sequences of 4,096 tokens where the whole memory held 27.
constexpr hml::inference_options vllm{.memory = {.kv_block_tokens = 16, .memory_utilization = 0.9}};
static_assert(hml::usable_memory(devices::h100_sxm, vllm) == 72_GB);
static_assert((72_GB - 2 * 6'738'415'616.0 * 1_B) / (2_GiB + 4096 * 3 * 11008 * 2_B) > 24.1);
static_assert(hml::largest_batch(models::llama_2_7b, 4096, devices::h100_sxm, vllm) == 24);

// --- Precisions --------------------------------------------------------------------------------------

// FP8 weights and activations run on FP8 tensor units: on an H200 (FP8 1,979 TFLOP/s, twice its FP16 peak)
// half the bytes at twice the FLOP/s leave the ridge batch where FP16's is (the FP32 vector ops move it <1 %).
// W8A8 on the H100's INT8 tensor units does the same.
constexpr hml::inference_options fp8{.types = {precision::fp8, precision::fp8, precision::fp8}};
static_assert(hml::analyze_step(models::llama_2_7b, hml::decode_step(1, 1), devices::h200, fp8)
                  .operators[2].op.compute == hml::compute_kind{precision::fp8, hml::compute_unit::tensor});
static_assert(near(hml::ridge_batch(models::llama_2_7b, 1, devices::h200, fp8).batch(),
                   hml::ridge_batch(models::llama_2_7b, 1, devices::h200).batch(), 0.01));
// The H100 SXM's FP8 tensor peak (1,979 TFLOP/s dense, twice its FP16 989.4; NVIDIA H100 datasheet): FP8
// runs there too, at the same ridge as FP16, and a memory-bound FP8 decode step takes half the FP16 one's
// time (every byte but the FP32 norms' halves).
static_assert(hml::analyze_step(models::llama_2_7b, hml::decode_step(1, 1), devices::h100_sxm, fp8)
                  .operators[2].op.compute == hml::compute_kind{precision::fp8, hml::compute_unit::tensor});
static_assert(near(hml::roof_of(devices::h100_sxm, hml::compute_kind{precision::fp8, hml::compute_unit::tensor}).peak /
                       hml::roof_of(devices::h100_sxm, hml::compute_kind{precision::fp16, hml::compute_unit::tensor}).peak,
                   2.0, 0.001));
static_assert(near(hml::ridge_batch(models::llama_2_7b, 1, devices::h100_sxm, fp8).batch(),
                   hml::ridge_batch(models::llama_2_7b, 1, devices::h100_sxm).batch(), 0.01));
static_assert(near(hml::analyze_step(models::llama_2_7b, hml::decode_step(1, 1), devices::h100_sxm, fp8).time.value /
                       hml::analyze_step(models::llama_2_7b, hml::decode_step(1, 1), devices::h100_sxm).time.value,
                   0.5, 0.01));
constexpr hml::inference_options w8a8{.types = {precision::int8, precision::int8, precision::int8}};
static_assert(hml::analyze_step(models::llama_2_7b, hml::decode_step(1, 1), devices::h100_sxm, w8a8)
                  .operators[2].op.compute == hml::compute_kind{precision::int8, hml::compute_unit::tensor});
static_assert(near(hml::ridge_batch(models::llama_2_7b, 1, devices::h100_sxm, w8a8).batch(), ridge_7b, 0.01));
// FP32 matrix products run on vector units (FP32 on tensor units would be TF32): on an M1 Pro, which has
// only FP32 vector units, Llama-2 7B in FP32 decodes memory-bound (26.4 GB of weights read at 200 GB/s: 132 ms).
constexpr hml::inference_options fp32{.types = {precision::fp32, precision::fp32, precision::fp32}};
static_assert(hml::linear("l", 1, 4, 4, precision::fp32, precision::fp32).compute ==
              hml::compute_kind{precision::fp32, hml::compute_unit::vector});
constexpr auto m1_decode = hml::analyze_step(models::llama_2_7b, hml::decode_step(1, 1), devices::m1_pro, fp32);
static_assert(m1_decode.bound() == hml::limit::memory && near(m1_decode.time.value / 1_ms, 2 * 13.21 / 0.2, 0.01));
// INT4 weights with FP16 activations (weight-only) quarter the weights' bytes (M0) and keep FP16 compute:
// the ridge falls to a quarter.
static_assert(near(hml::ridge_batch(models::llama_2_7b, 1, devices::h100_sxm, int4_weights).batch(), ridge_7b / 4, 0.001));

// --- Efficiency --------------------------------------------------------------------------------------

// At 80 % of the bandwidth a memory-bound step takes 1/0.8 as long; fitting the efficiency from that time
// gives 0.8 back.
constexpr hml::inference_options at_80{.achieved = {.compute = 1.0, .memory = 0.8}};
constexpr auto decode_80 = hml::analyze_step(models::llama_2_7b, hml::decode_step(1, 512), devices::h100_sxm, at_80);
static_assert(near(decode_80.time.value / decode_7b.time.value, 1.25, 1e-9));
static_assert(near(hml::fit_memory_efficiency(models::llama_2_7b, hml::decode_step(1, 512), devices::h100_sxm,
                                              decode_80.time),
                   0.8, 1e-6));

// --- Tensor parallelism ------------------------------------------------------------------------------

// Llama-2 70B in FP16 on 2 H100s over a 450 GB/s-per-direction link (NVLink 4, 900 GB/s both ways) with
// 5 us a message: each device holds half the weights (70 GB: fits); a decode step reads half of them and
// pays 2 all-reduces per layer of 8,192 x 2 B each (2 (n - 1) / n of it sent: 16 KiB) - latency-bound.
constexpr hml::inference_options tp2{.tensor_parallel = 2, .link = {450_GBps, 5_us}};
static_assert(hml::fits(models::llama_2_70b, 1, 4096, devices::h100_sxm, tp2));
constexpr auto decode_70b_tp2 = hml::analyze_step(models::llama_2_70b, hml::decode_step(1, 512), devices::h100_sxm, tp2);
static_assert(near(decode_70b_tp2.link_time / (160 * (16384_B / 450_GBps + 2 * 5_us)), 1.0, 1e-12));
static_assert(decode_70b_tp2.bound() == hml::limit::memory);
// An all-reduce moves no main memory in this model: the operator itself is always link-bound (here 160 of
// 256 MiB each, in a prefill of 8 x 2,048 tokens).
static_assert(hml::analyze_step(models::llama_2_70b, hml::prefill_step(8, 2048), devices::h100_sxm, tp2)
                  .operators[8].bound == hml::limit::link);

// Where the link binds the whole step: for that prefill (8 x 2,048 tokens: 1.1 PFLOP a device, compute-
// bound), a link below B* = S / (compute time - 320 x 5 us) makes the step link-bound. S: 160 all-reduces
// of 8 x 2,048 x 8,192 x 2 B, all of each sent (2 (n - 1) / n = 1), 160 x 268 MB = 42.9 GB over 1.18 s of
// compute: B* = 36.4 GB/s, so PCIe 5 x16 (64 GB/s a direction) does not bind it and 25 GB/s does.
constexpr auto prefill_70b_tp2 = hml::analyze_step(models::llama_2_70b, hml::prefill_step(8, 2048), devices::h100_sxm, tp2);
constexpr hml::data_rate binding = hml::binding_link_bandwidth(prefill_70b_tp2, tp2);
static_assert(near(binding / 1_GBps,
                   160 * (8 * 2048 * 8192 * 2_B).value() / (prefill_70b_tp2.compute_time - 320 * 5_us).value() / 1e9,
                   1e-9));
static_assert(near(binding / 1_GBps, 36.38, 0.001));
constexpr hml::inference_options slow_link{.tensor_parallel = 2, .link = {binding * 0.99, 5_us}};
constexpr hml::inference_options fast_link{.tensor_parallel = 2, .link = {binding * 1.01, 5_us}};
static_assert(hml::analyze_step(models::llama_2_70b, hml::prefill_step(8, 2048), devices::h100_sxm, slow_link).bound() ==
              hml::limit::link);
static_assert(hml::analyze_step(models::llama_2_70b, hml::prefill_step(8, 2048), devices::h100_sxm, fast_link).bound() ==
              hml::limit::compute);

// --- NVLink 4 against PCIe 5.0 x16: where the link binds Llama-2 70B (FP16, H100 SXM, catalog links) --

// By hand. Per token, a device computes 2 x (68.451 G linear + 0.262 G LM-head parameters) / n FLOP at
// 989 TFLOP/s: 69.5 us at TP 2, 34.7 us at TP 4. It sends 2 all-reduces x 80 layers of 8,192 x 2 B, of which
// 2 (n - 1) / n each: 2.62 MB at TP 2, 3.93 MB at TP 4, over PCIe 5.0 x16 (32 GT/s x 16 x 128/130 =
// 63.0 GB/s per direction) or NVLink 4 (18 x 25 = 450 GB/s per direction), both full duplex, no published
// latency: 41.6 or 5.8 us a token at TP 2, 62.4 or 8.7 us at TP 4.
// Prefill (compute-bound): the link binds below 2.62 MB / 69.5 us = 37.7 GB/s at TP 2, 3.93 MB / 34.7 us =
// 113 GB/s at TP 4 (attention's FLOP, 4 % of a 2,048-token prefill's, lower both a little). So PCIe 5.0
// x16 binds at TP 4 and not at TP 2; NVLink 4 at neither (4x and 12x above the threshold).
// Decode at context 513 (TP 4): memory reads 34.4 GB of weights a device (10.3 ms) plus 42 MB of KV cache
// and ~8 MB of activations a sequence (15 us); over PCIe the link's 62.4 us a sequence overtakes that above
// batch 10.3 ms / (62.4 - 15) us = 217, and the compute (34.7 us a sequence) never does. Over NVLink 4 the
// link (8.7 us a sequence) stays below the compute at every batch.
constexpr hml::inference_options tp2_pcie{.tensor_parallel = 2, .link = hml::link_of(hml::systems::pcie5_x16)};
constexpr hml::inference_options tp4_pcie{.tensor_parallel = 4, .link = hml::link_of(hml::systems::pcie5_x16)};
constexpr hml::inference_options tp2_nvlink{.tensor_parallel = 2, .link = hml::link_of(hml::systems::nvlink4)};
constexpr hml::inference_options tp4_nvlink{.tensor_parallel = 4, .link = hml::link_of(hml::systems::nvlink4)};
static_assert(near(tp4_pcie.link.bandwidth.rate / 1_GBps, 63.02, 0.001) && tp4_nvlink.link.bandwidth.rate == 450_GBps);
constexpr auto prefill_on = [](const hml::inference_options& o) {
  return hml::analyze_step(models::llama_2_70b, hml::prefill_step(8, 2048), devices::h100_sxm, o);
};
static_assert(near(hml::binding_link_bandwidth(prefill_on(tp2_pcie), tp2_pcie) / 1_GBps, 37.7, 0.05));
static_assert(near(hml::binding_link_bandwidth(prefill_on(tp4_pcie), tp4_pcie) / 1_GBps, 113, 0.05));
static_assert(prefill_on(tp2_pcie).bound() == hml::limit::compute && prefill_on(tp4_pcie).bound() == hml::limit::link);
static_assert(prefill_on(tp2_nvlink).bound() == hml::limit::compute && prefill_on(tp4_nvlink).bound() == hml::limit::compute);
constexpr auto decode_on = [](std::uint64_t batch, const hml::inference_options& o) {
  return hml::analyze_step(models::llama_2_70b, hml::decode_step(batch, 513), devices::h100_sxm, o).bound();
};
static_assert(decode_on(192, tp4_pcie) == hml::limit::memory && decode_on(256, tp4_pcie) == hml::limit::link);
static_assert(decode_on(256, tp4_nvlink) == hml::limit::memory && decode_on(4096, tp4_nvlink) == hml::limit::compute);
static_assert(decode_on(4096, tp2_pcie) == hml::limit::compute);  // TP 2: 41.6 us < 69.5 us a token, never
// A half-duplex link of the same rate carries each ring step's send and receive in turn: twice the time,
// so the binding bandwidth doubles.
constexpr hml::inference_options tp4_half{.tensor_parallel = 4,
                                          .link = {hml::link_of(hml::systems::pcie5_x16).bandwidth, {}, hml::duplex::half}};
static_assert(near(hml::binding_link_bandwidth(prefill_on(tp4_half), tp4_half) /
                       hml::binding_link_bandwidth(prefill_on(tp4_pcie), tp4_pcie),
                   2.0, 1e-9));
static_assert(near(prefill_on(tp4_half).link_time / prefill_on(tp4_pcie).link_time, 2.0, 1e-9));

// --- All-reduce by algorithm: NCCL's ring and NVLS on 8 H100s (NVLink 4, measured figures) -------------
// Both send nccl-tests' bus bytes, 2 (n - 1) / n of the buffer; the ring in 14 messages at 370 GB/s (its
// measured rate), NVLS in one at its 478.87 GB/s bus bandwidth, each message paying 1.93 us.
static_assert(hml::all_reduce(1_MB, 8, hml::all_reduce_algorithm::nvls).link_sent == hml::all_reduce(1_MB, 8).link_sent);
static_assert(hml::all_reduce(1_MB, 8, hml::all_reduce_algorithm::nvls).link_messages == 1 &&
              hml::all_reduce(1_MB, 8).link_messages == 14);
constexpr hml::inference_options tp8_ring{
    .tensor_parallel = 8, .link = hml::link_of(hml::systems::nvlink4, hml::basis::measured_where_published)};
constexpr hml::inference_options tp8_nvls{.tensor_parallel = 8,
                                          .link = hml::nvls_link_of(hml::systems::nvlink4),
                                          .all_reduce = hml::all_reduce_algorithm::nvls};
// Llama-2 70B's prefill of 8 x 2,048 tokens: 160 all-reduces of 268 MB each. Ring: 14 x 1.93 us + 268 MB x
// 1.75 / 370 GB/s = 1.30 ms each; NVLS: 1.93 us + 268 MB x 1.75 / 478.87 GB/s = 0.983 ms, 0.758x.
constexpr hml::data_size prefill_buffer = 8 * 2048 * 8192 * 2_B;
constexpr auto prefill_tp8 = [](const hml::inference_options& o) {
  return hml::analyze_step(models::llama_2_70b, hml::prefill_step(8, 2048), devices::h100_sxm, o);
};
static_assert(near(prefill_tp8(tp8_ring).link_time / (160 * (14 * 1.93_us + prefill_buffer * 1.75 / 370_GBps)), 1.0, 1e-12));
static_assert(near(prefill_tp8(tp8_nvls).link_time / (160 * (1.93_us + prefill_buffer * 1.75 / 478.87_GBps)), 1.0, 1e-12));
static_assert(near(prefill_tp8(tp8_nvls).link_time / prefill_tp8(tp8_ring).link_time, 0.758, 0.001));
// Its decode at batch 1: 16 KiB an all-reduce, all but latency: 27.1 us a ring, 1.99 us by NVLS.
constexpr auto decode_tp8 = [](const hml::inference_options& o) {
  return hml::analyze_step(models::llama_2_70b, hml::decode_step(1, 513), devices::h100_sxm, o).link_time / 160;
};
static_assert(near(decode_tp8(tp8_ring) / 1_us, 27.10, 0.01) && near(decode_tp8(tp8_nvls) / 1_us, 1.99, 0.01));

// --- One-shot, the serving engines' own all-reduce of small messages, against a measurement ------------
// Each device reads the others' buffers ((n - 1) x the size in) between two barriers: three latencies.
static_assert(hml::all_reduce(4096_B, 8, hml::all_reduce_algorithm::one_shot).link_sent == 7 * 4096_B &&
              hml::all_reduce(4096_B, 8, hml::all_reduce_algorithm::one_shot).link_messages == 3 &&
              hml::all_reduce(4096_B, 1, hml::all_reduce_algorithm::one_shot).link_messages == 0);
constexpr auto one_shot_us = [](hml::data_size size, unsigned n) {
  const hml::inference_options o{.tensor_parallel = n,
                                 .link = hml::link_of(hml::systems::nvlink4, hml::basis::measured_where_published),
                                 .all_reduce = hml::all_reduce_algorithm::one_shot};
  return hml::time_on(hml::all_reduce(size, n, o.all_reduce), devices::h100_sxm, o).link_time / 1_us;
};
// SGLang's pull request 2904 measured its custom all-reduce (TensorRT-LLM's one-shot kernel, no CUDA graph)
// on H100s: 5.9, 5.7 and 7.8 us for 512 B, 4 KiB and 32 KiB over 8. The model: 5.80, 5.87 and 6.41 us
// (-1.7 %, +2.9 %, -17.8 %): the latencies hold, and a larger read is slower than the link's measured rate.
static_assert(near(one_shot_us(512_B, 8), 5.80, 0.005) && near(one_shot_us(4096_B, 8), 5.87, 0.005) &&
              near(one_shot_us(32768_B, 8), 6.41, 0.005));
// Over 2 and 4 it measured 3.9 and 3.7 us for 4 KiB, where the model pays 8 devices' latencies: 5.80 and
// 5.82 us (+49 %, +57 %). Against NCCL's ring over 8 (14 latencies, 27.1 us above) one-shot is 4.6x as fast.
static_assert(near(one_shot_us(4096_B, 2), 5.80, 0.005) && near(one_shot_us(4096_B, 4), 5.82, 0.005));

// --- Mixture of experts: Mixtral 8x7B on an H100 SXM (FP16) -----------------------------------------

// At batch 1 a decode step runs 2 of the 8 experts: it reads the active parameters but the embedding table
// (12.88 G - 0.131 G) x 2 B = 25.5 GB, 7.6 ms at 3.35 TB/s. From batch 4 (8 experts / 2 a token) every
// expert is touched: (46.70 G - 0.131 G) x 2 B = 93.1 GB, 27.8 ms, while the FLOP stay at the active
// parameters' 2 x 12.75 G a token (25.8 us at 989 TFLOP/s). So the ridge is past the weights-only pivot
// 27.8 ms / 25.8 us = 1,078 (the activations each token moves push it further), against Mistral 7B's 400.
constexpr auto mixtral_1 = hml::analyze_step(models::mixtral_8x7b, hml::decode_step(1, 1), devices::h100_sxm);
constexpr auto mixtral_4 = hml::analyze_step(models::mixtral_8x7b, hml::decode_step(4, 1), devices::h100_sxm);
constexpr auto mixtral_8 = hml::analyze_step(models::mixtral_8x7b, hml::decode_step(8, 1), devices::h100_sxm);
constexpr double mixtral_embedding = 32000.0 * 4096;
static_assert(mixtral_1.weights == (hml::active_parameters(models::mixtral_8x7b) - mixtral_embedding) * 2 * 1_B +
                                       4096 * 2_B);  // + the one embedding row
static_assert(mixtral_4.weights == (hml::parameters(models::mixtral_8x7b) - mixtral_embedding) * 2 * 1_B + 4 * 4096 * 2_B &&
              mixtral_8.weights == mixtral_4.weights + 4 * 4096 * 2_B);
static_assert(mixtral_1.bound() == hml::limit::memory && near(mixtral_1.time.value / 1_ms, 7.6, 0.02));
constexpr double mixtral_ridge = hml::ridge_batch(models::mixtral_8x7b, 1, devices::h100_sxm).batch();
static_assert(mixtral_ridge > 1078 && mixtral_ridge < 1.6 * 1078);
static_assert(hml::analyze_step(models::mixtral_8x7b, hml::decode_step(static_cast<std::uint64_t>(mixtral_ridge) - 1, 1),
                                devices::h100_sxm)
                  .bound() == hml::limit::memory &&
              hml::analyze_step(models::mixtral_8x7b, hml::decode_step(static_cast<std::uint64_t>(mixtral_ridge) + 1, 1),
                                devices::h100_sxm)
                  .bound() == hml::limit::compute);
// All 46.7 G parameters must be held (93.4 GB in FP16): not on one 80 GB H100, on two with TP 2.
static_assert(!hml::fits(models::mixtral_8x7b, 1, 1, devices::h100_sxm) &&
              hml::fits(models::mixtral_8x7b, 1, 4096, devices::h100_sxm, tp2));

// --- A compile-time sweep: decode of Llama-2 7B on an H100 SXM over batch x context ------------------

constexpr auto batches = hml::values(1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0, 128.0, 256.0, 512.0);
constexpr auto contexts = hml::values(1.0, 512.0, 8192.0);
constexpr auto batch_by_context = hml::grid(batches, contexts);
constexpr auto decode_limits = hml::sweep<batch_by_context>([](double batch, double context) {
  return hml::analyze_step(models::llama_2_7b,
                           hml::decode_step(static_cast<std::uint64_t>(batch), static_cast<std::uint64_t>(context)),
                           devices::h100_sxm)
      .bound();
});
constexpr auto is_memory = [](hml::limit l) { return l == hml::limit::memory; };
// Batch 1 is memory-bound at every context; at 8,192 tokens every batch is.
static_assert(decode_limits[0] == hml::limit::memory && decode_limits[1] == hml::limit::memory &&
              decode_limits[2] == hml::limit::memory);
static_assert(hml::every_point(batch_by_context, decode_limits, [](const auto& point, hml::limit l) {
  return std::get<1>(point) < 8192.0 || l == hml::limit::memory;
}));
// With no cache the step turns once, between batch 256 and 512, where the closed form says (403).
static_assert(decode_limits[8 * 3] == hml::limit::memory && decode_limits[9 * 3] == hml::limit::compute);
static_assert(ridge_7b > 256 && ridge_7b < 512);
static_assert(!hml::flips_once_along<0>(batch_by_context, decode_limits, is_memory));  // 8,192 never flips

// --- Published figures -------------------------------------------------------------------------------

// 1. llm-analysis (cli99/llm-analysis, the inference "pivot" batch: peak x bytes per weight / bandwidth / 2)
//    gives about 153 tokens for an A100 SXM 80GB in FP16 (312 TFLOP/s, 2,039 GB/s: 312 / 2.039 = 153.0).
//    Under its convention (weights only: M0 / c) ours is the same to 1 %; counting the activations each
//    sequence moves, ours is 177 (+16 %), the difference being the activation traffic it leaves out.
constexpr auto a100_1 = hml::analyze_step(models::llama_2_7b, hml::decode_step(1, 1), devices::a100_sxm_80gb);
constexpr auto a100_2 = hml::analyze_step(models::llama_2_7b, hml::decode_step(2, 1), devices::a100_sxm_80gb);
constexpr double a100_c = (a100_2.compute_time - a100_1.compute_time).value();
constexpr double a100_m0 = 2 * a100_1.memory_time.value() - a100_2.memory_time.value();
static_assert(near(a100_m0 / a100_c, 153.0, 0.01));
static_assert(near(hml::ridge_batch(models::llama_2_7b, 1, devices::a100_sxm_80gb).batch(), 177.2, 0.001));
// 2. "A Llama 3 70B model in float16 requires 140 GB of weights. An A100 80GB GPU has ~2 TB/s memory
//    bandwidth. Loading all weights takes roughly 70ms per decoding step" (gadaalabs.com, LLM inference
//    optimization): ours at batch 1, context 1, is 68.2 ms, 2.6 % less: they take 140 GB at 2 TB/s; we
//    read 139.0 GB (all weights but the 1.05 G-parameter embedding table, of which one row) at the
//    datasheet's 2,039 GB/s.
constexpr auto decode_70b = hml::analyze_step(models::llama_3_70b, hml::decode_step(1, 1), devices::a100_sxm_80gb);
static_assert(near(decode_70b.time.value / 1_ms, 70.0, 0.03) && near(decode_70b.time.value / 1_ms, 68.2, 0.001));
static_assert(!hml::fits(models::llama_3_70b, 1, 1, devices::a100_sxm_80gb));  // which needs 2 of them
// 3. KV cache "for LLaMA 3 8B at 4K context: 32 layers x 32 heads x 4096 tokens x 128 dim x 2 x 2 bytes
//    (fp16) = ~2.1 GB" (yellamaraju.com, LLM mastery, inference optimization). That counts 32 KV heads;
//    Llama-3 8B has 8 (grouped-query attention), so ours is a quarter, 0.54 GB; with 32 KV heads (as in
//    Llama-2 7B) ours is the page's 2.1 GB.
static_assert(hml::kv_cache_size(models::llama_3_8b, 1, 4096) == 0.5_GiB);
static_assert(near(hml::kv_cache_size(models::llama_2_7b, 1, 4096) / 1_GB, 2.1, 0.03));

// 4. Prefill: "a prompt of P tokens costs 2 · N · P FLOPs. Divide by the rate the GPU actually achieves —
//    peak FLOP/s scaled by MFU ... TTFT ≈ 3.2e13 / 4.95e14 ≈ 0.065 s = 65 ms" for an 8B model and a 2K
//    prompt on an H100 (jiahuanglin.xyz, ML system design lesson 3a, "Estimating latency — TTFT and TPOT in
//    milliseconds"). Its inputs: N = 8e9 parameters, P = 2,000 tokens (2 N P = 3.2e13), 989 TFLOP/s at 50 %
//    MFU (4.95e14 FLOP/s). With Llama-3 8B's 8.03 G parameters and the catalog's H100 SXM FP16 peak, that
//    formula gives 64.9 ms. Ours, same inputs (batch 1, prompt 2,000, FP16, compute efficiency 0.5), is
//    64.8 ms: the totals agree to 0.3 %, but the terms differ. We count 30.04 TFLOP, not 32.1: the
//    projections 2 x 6.979 G x 2,000 = 27.92 T (the embedding is a lookup, not a GEMM, and the LM head runs on
//    the last token only, where 2 N P counts both 525 M-parameter tables for every token: 4.2 T, 8.5 ms) plus
//    attention's QK^T and PV over all 2,000 x 2,000 scores, 32 x 32 x (4 x 2000^2 x 128 + 5 x 2000^2) =
//    2.12 T (4.3 ms, which 2 N P leaves out), 60.7 ms at 494.5 TFLOP/s; and the memory-bound element-wise
//    operators and norms (SwiGLU, residual adds, rotary, RMSNorm: ~4 ms at 3.35 TB/s) that a FLOP-only
//    estimate has no term for.
constexpr hml::inference_options at_half_compute{.achieved = {.compute = 0.5, .memory = 1.0}};
constexpr auto prefill_8b = hml::analyze_step(models::llama_3_8b, hml::prefill_step(1, 2000), devices::h100_sxm,
                                              at_half_compute);
constexpr double their_formula_ms =
    2.0 * static_cast<double>(hml::parameters(models::llama_3_8b)) * 2000 /
    (hml::roof_of(devices::h100_sxm, hml::compute_kind{precision::fp16, hml::compute_unit::tensor}).peak.value() * 0.5) *
    1e3;
static_assert(near(their_formula_ms, 65.0, 0.002));
static_assert(near(prefill_8b.flops / 1_TFLOP, 2 * 6'979'321'856.0 * 2000 / 1e12 + 2.12 + 0.001, 0.002));
static_assert(near(prefill_8b.time.value / 1_ms, 65.0, 0.005) && near(prefill_8b.time.value / 1_ms, 64.82, 0.001));
static_assert(prefill_8b.bound() == hml::limit::compute);

// 5. llm-analysis's own ideal inference table for LLaMA (cli99/llm-analysis, examples/llama/
//    outputs_infer_ideal at commit b60b392, run_infer.sh: A100 SXM 80GB, FP16 throughout, batch 1, prompt
//    512, 32 tokens generated, flops and memory efficiency 1): prefill 22.41, 43.1 and 107.74 ms and decode
//    6.73, 12.94 and 32.36 ms a token for LLaMA 7B, 13B and 33B (LLaMA-1's 7B and 13B have Llama-2's shapes;
//    33B: 60 layers of 6,656, FFN 17,920, 52 heads). Our bound on the datasheet's figures: prefill 4.1 to
//    5.1 % longer, decode 0.7 to 1.6 % shorter (a decode step at each context from 513 to 543, where they
//    time every step at the cache of 544 tokens). The prefill's difference is the element-wise kernels this
//    model runs unfused (rotary, the KV cache store, the residual adds, SwiGLU: 1.45, 2.27 and 4.43 ms),
//    which llm-analysis folds into its layers (it adds the norms alone); without them ours is 1.4 % and
//    0.4 % shorter and 0.03 % longer, its LM head running on all 512 tokens where ours runs on the last.
constexpr hml::transformer llama_33b{.name = "llama-33b", .layers = 60, .hidden = 6656, .ffn = 17920, .heads = 52,
                                     .kv_heads = 52, .head_dim = 128, .vocab = 32000, .max_positions = 2048};
constexpr hml::generation llm_analysis_run{1, 512, 32};
constexpr double ms(hml::duration t) { return t / 1_ms; }
constexpr double unfused_element_wise_ms(const hml::step_analysis& step) {
  double sum = 0;
  for (const hml::operator_time& o : step.operators) {
    if (o.op.name == "rotary" || o.op.name == "KV cache store" || o.op.name == "residual add" || o.op.name == "SwiGLU")
      sum += ms(o.time);
  }
  return sum;
}
struct llm_analysis_row {
  double prefill_ms, decode_ms;  // theirs
  double our_prefill_ms, our_decode_ms, folded_ms;
};
constexpr bool matches_llm_analysis(const hml::transformer& t, llm_analysis_row r) {
  const hml::generation_analysis run = hml::analyze_generation(t, llm_analysis_run, devices::a100_sxm_80gb);
  const hml::step_analysis prefill = hml::analyze_step(t, hml::prefill_step(1, 512), devices::a100_sxm_80gb);
  return near(ms(run.prefill.value), r.our_prefill_ms, 0.0005) && near(ms(run.decode_per_token.value), r.our_decode_ms, 0.0005) &&
         near(r.our_prefill_ms, r.prefill_ms, 0.052) && near(r.our_decode_ms, r.decode_ms, 0.017) &&
         near(unfused_element_wise_ms(prefill), r.folded_ms, 0.005) &&
         near(ms(prefill.time.value) - unfused_element_wise_ms(prefill), r.prefill_ms, 0.015);
}
static_assert(matches_llm_analysis(models::llama_2_7b, {22.41, 6.73, 23.55, 6.622, 1.452}));
static_assert(matches_llm_analysis(models::llama_2_13b, {43.1, 12.94, 45.19, 12.83, 2.273}));
static_assert(matches_llm_analysis(llama_33b, {107.74, 32.36, 112.2, 32.13, 4.427}));
static_assert(hml::parameters(llama_33b) == 32'528'943'616);
// With the element-wise operations fused (--elementwise fused), as llm-analysis counts a layer (the norms
// alone beside the products and attention), the prefills come within -0.2 %, +0.5 % and +0.8 % of its table
// (22.36, 43.33 and 108.5 ms) and the decode steps as before.
constexpr hml::inference_options fused_elementwise{.elementwise = hml::elementwise_kernels::fused};
struct fused_row {
  double prefill_ms, decode_ms;  // theirs
  double our_prefill_ms, our_decode_ms;
};
constexpr bool fused_matches_llm_analysis(const hml::transformer& t, fused_row r) {
  const hml::generation_analysis run = hml::analyze_generation(t, llm_analysis_run, devices::a100_sxm_80gb, fused_elementwise);
  return near(ms(run.prefill.value), r.our_prefill_ms, 0.0005) && near(ms(run.decode_per_token.value), r.our_decode_ms, 0.0005) &&
         near(r.our_prefill_ms, r.prefill_ms, 0.008) && near(r.our_decode_ms, r.decode_ms, 0.017);
}
static_assert(fused_matches_llm_analysis(models::llama_2_7b, {22.41, 6.73, 22.36, 6.620}));
static_assert(fused_matches_llm_analysis(models::llama_2_13b, {43.1, 12.94, 43.33, 12.82}));
static_assert(fused_matches_llm_analysis(llama_33b, {107.74, 32.36, 108.55, 32.12}));
// Fused, a step keeps its FLOP and its cache's writes, and moves less: rotary's queries and keys read and
// written ((heads + kv) d twice), the cache store's read (2 kv d), the adds' third pass over the hidden state
// (2 adds, 3 passes each, where the norms take 2 more), SwiGLU's three passes and the half of the up
// projection's output it no longer writes (4 ffn): 76,800 elements a token a layer for Llama-2 7B, in 160
// kernels fewer (5 a layer), each the A100's overhead of 4.62 us in the expected time.
constexpr auto prefill_separate = hml::analyze_step(models::llama_2_7b, hml::prefill_step(1, 512), devices::a100_sxm_80gb);
constexpr auto prefill_fused = hml::analyze_step(models::llama_2_7b, hml::prefill_step(1, 512), devices::a100_sxm_80gb, fused_elementwise);
constexpr auto cache_written = [](const hml::step_analysis& s) {
  hml::data_size sum{};
  for (const hml::operator_time& o : s.operators) sum += o.op.kv_written;
  return sum;
};
static_assert(near(prefill_fused.flops / prefill_separate.flops, 1.0, 1e-12));
static_assert(cache_written(prefill_fused) == cache_written(prefill_separate));
static_assert(prefill_separate.operators.size() - prefill_fused.operators.size() == 4);  // rotary, store, add, SwiGLU
static_assert(near((prefill_separate.bytes - prefill_fused.bytes) / 1_B,
                   512.0 * (2 * 64 * 128 + 2 * 32 * 128 + 2 * 4096 + 4 * 11008) * 2 * 32, 1e-12));
static_assert(2 * 64 * 128 + 2 * 32 * 128 + 2 * 4096 + 4 * 11008 == 76'800);
static_assert(near((prefill_separate.bytes - prefill_fused.bytes) / 1_GB, 2.517, 0.0002));
// The memory a step needs is the separate operators' live sets either way: an engine's fused add and norm
// works in place (counted as four buffers, it made fewer of DeepSeek-V3's sequences fit, fused, under --ep).
constexpr hml::inference_options fused_ep{.elementwise = hml::elementwise_kernels::fused,
                                          .tensor_parallel = 8,
                                          .link = {450_GBps},
                                          .experts = {.expert_parallel = true}};
constexpr hml::inference_options separate_ep{.tensor_parallel = 8, .link = {450_GBps}, .experts = {.expert_parallel = true}};
static_assert(hml::memory_needed(models::deepseek_v3, 16, 4096, fused_ep).total() ==
              hml::memory_needed(models::deepseek_v3, 16, 4096, separate_ep).total());
static_assert(hml::memory_needed(models::llama_2_7b, 4, 2048, fused_elementwise).total() ==
              hml::memory_needed(models::llama_2_7b, 4, 2048).total());
constexpr hml::inference_options expected_fused{.elementwise = hml::elementwise_kernels::fused,
                                                .estimate = hml::estimate::expected};
constexpr hml::inference_options expected_separate{.estimate = hml::estimate::expected};
static_assert(near((hml::analyze_step(models::llama_2_7b, hml::prefill_step(1, 512), devices::a100_sxm_80gb, expected_separate).overhead -
                    hml::analyze_step(models::llama_2_7b, hml::prefill_step(1, 512), devices::a100_sxm_80gb, expected_fused).overhead) /
                       1_us,
                   160 * 4.62, 1e-9));
// Its conventions beside ours: 32 decode steps timed where we time 31; the weights with the embedding
// (13.48 GB, theirs 13.15 + 0.26); the largest batch holding a prefill's activations (207, theirs 230).
constexpr auto two_tokens = hml::analyze_generation(models::llama_2_7b, {1, 512, 2}, devices::a100_sxm_80gb);
static_assert(two_tokens.decode.value ==
              hml::analyze_step(models::llama_2_7b, hml::decode_step(1, 513), devices::a100_sxm_80gb).time.value);
static_assert(near(hml::memory_needed(models::llama_2_7b, 1, 544).weights / 1_GB, 13.48, 0.001));
static_assert(hml::largest_batch(models::llama_2_7b, 544, devices::a100_sxm_80gb) == 207);

// --- The example's figures (examples/llm_decode.cpp, docs/how-to/transformer-inference.md) -----------

// The step reads 13.21 GB of weights and 268 MB of cache: at 3.35 TB/s, 4.03 ms; 248 tokens/s.
static_assert(near(llm_decode::step.time.value / 1_ms, (llm_decode::step.weights + 256_MiB) / 3.35_TBps / 1_ms, 0.002));
static_assert(near(hml::throughput(llm_decode::step.time, llm_decode::step.produced()).per_second, 248.2, 0.001));

// Serving figures as vLLM's benchmark_serving defines them, for 4 requests of 512 tokens in, 32 out, started
// together: TTFT the prefill, TPOT per request ((E2E - TTFT) / 31 = the decode time / 31, four times the
// decode time over all 124 tokens the batch decoded), output throughput all 128 tokens over E2E.
constexpr hml::generation four{4, 512, 32};
constexpr auto four_run = hml::analyze_generation(models::llama_2_7b, four, devices::h100_sxm);
constexpr hml::serving_figures four_served = hml::serving(four_run, four);
static_assert(four_served.time_to_first_token == four_run.prefill && four_served.end_to_end == four_run.total);
static_assert(near(four_served.time_per_output_token.value / 1_s, (four_run.total.value - four_run.prefill.value) / 31 / 1_s, 1e-12));
static_assert(near(four_served.time_per_output_token.value / four_run.decode_per_token.value, 4, 1e-12));
static_assert(near(four_served.output_throughput.per_second, 128 / (four_run.total.value / 1_s), 1e-12));
static_assert(hml::serving(hml::analyze_generation(models::llama_2_7b, {1, 512, 1}, devices::h100_sxm), {1, 512, 1})
                  .time_per_output_token.value == 0_s);
static_assert(near(llm_decode::ridge_empty.batch(), 403.4, 0.001) && !llm_decode::ridge_at_context.reached());
static_assert(llm_decode::largest_batch == batch_at_4k && llm_decode::memory.kv_cache == 2_GiB);
// INT4 weights read a quarter of the weights' bytes; W8A8 half of everything.
static_assert(near(llm_decode::step_int4.time.value / 1_ms, (llm_decode::step.weights / 4 + 256_MiB) / 3.35_TBps / 1_ms, 0.01));
static_assert(near(llm_decode::step_w8a8.time.value / llm_decode::step.time.value, 0.5, 0.001));
// A step's time and a time per token compare with a duration (a budget), either way round.
static_assert(llm_decode::step.time > 4_ms && llm_decode::step.time < 5_ms && 5_ms > llm_decode::step.time);
static_assert(hml::per_token(llm_decode::step.time, llm_decode::step.produced()) < 5_ms);
static_assert(llm_decode::step.time == llm_decode::step.time.value && llm_decode::step.time != 4_ms);
static_assert(!llm_decode::big_fits_one && llm_decode::big_fits_two);
// The fitted efficiency of a memory-bound step is the model's time over the measured one: 4.028 / 5.
static_assert(near(llm_decode::fitted_memory_efficiency, llm_decode::step.time.value / 5_ms, 1e-6));

}  // namespace

// --- Speculative decoding --------------------------------------------------------------------------------

// Leviathan et al.'s Theorem 3.8: (1 - alpha^(gamma + 1)) / (1 - alpha) tokens a step. alpha = 0.8, gamma = 4:
// (1 - 0.32768) / 0.2 = 3.3616; every token accepted: gamma + 1; none: the target's own token.
static_assert(near(hml::expected_tokens_per_step(0.8, 4), 3.3616, 1e-12));
static_assert(hml::expected_tokens_per_step(1.0, 4) == 5 && hml::expected_tokens_per_step(0.0, 4) == 1);
// Llama-2 70B in INT4 drafted by Llama-2 7B in INT4 on an H100, batch 1 at 1,024 tokens: decode reads the
// weights each step, so the verifying step of 5 tokens costs about one decode step (10.44 against 10.37 ms at 3.35 TB/s),
// the draft's four steps 0.44 of one (its weights are a tenth of the target's; its cache and fixed parts
// add to that), and 3.36 tokens a step come out 2.3x faster than plain decode.
constexpr hml::inference_options int4_all{.types = {.weights = precision::int4}};
constexpr hml::speculative_step spec =
    hml::speculative_decoding(models::llama_2_70b, models::llama_2_7b, 1, 1024, 4, 0.8, devices::h100_sxm, int4_all);
static_assert(spec.verify.value / spec.plain.value > 1 && spec.verify.value / spec.plain.value < 1.05);
static_assert(spec.draft.value / spec.plain.value > 0.35 && spec.draft.value / spec.plain.value < 0.45);
static_assert(spec.speedup() > 2.3 && spec.speedup() < 2.5);
// The time per output token compares with a duration, as every step time does.
static_assert(spec.per_output_token < spec.plain.value);
// Both models stay on the device: the two models' weights at 4 bits, the two KV caches at 1,024 tokens
// (70B: 80 layers x 2 x 8 KV heads x 128 x 2 B = 320 KiB a token; 7B: 32 x 2 x 32 x 128 x 2 B = 512 KiB), and
// the larger of the two live sets of activations, as the two run in turn.
constexpr hml::memory_use with_draft = hml::memory_needed(models::llama_2_70b, models::llama_2_7b, 1, 1024, int4_all);
static_assert(with_draft.weights ==
              static_cast<double>(hml::parameters(models::llama_2_70b) + hml::parameters(models::llama_2_7b)) / 2 * 1_B);
static_assert(with_draft.kv_cache == (320 + 512) * 1024.0 * 1024 * 1_B);
static_assert(with_draft.activations == hml::memory_needed(models::llama_2_70b, 1, 1024, int4_all).activations);
static_assert(hml::memory_needed(models::llama_2_7b, 1, 1024, int4_all).activations <= with_draft.activations);
// A draft too large for the device leaves no room: Llama 3 8B fits an H100 alone, not with Llama 3 70B
// (141 GB in FP16) drafting for it.
static_assert(hml::largest_batch(models::llama_3_8b, 1024, devices::h100_sxm) > 0);
static_assert(hml::largest_batch(models::llama_3_8b, models::llama_3_70b, 1024, devices::h100_sxm) == 0);
static_assert(hml::largest_batch(models::llama_2_70b, models::llama_2_7b, 1024, devices::h100_sxm, int4_all) <
              hml::largest_batch(models::llama_2_70b, 1024, devices::h100_sxm, int4_all));

// --- Chunked prefill ---------------------------------------------------------------------------------------

// A chunk as long as the prompt is the plain prefill. Chunks of 512 of a 4,096-token prompt take 8 steps, each
// still compute-bound (512 rows a GEMM), so re-reading the weights costs nothing, and each chunk's queries
// see only the keys before them: the causal saving the plain prefill's convention does not take (every
// query against every key), so 0.953x its 71.07 ms (Llama-2 7B, batch 1, H100). Chunks of 128 turn
// memory-bound and cost 2.12x; one token a chunk is a decode step a token.
constexpr auto whole_prompt = hml::chunked_prefill(models::llama_2_7b, 1, 4096, 4096, devices::h100_sxm);
static_assert(whole_prompt.steps == 1 &&
              whole_prompt.time == hml::analyze_step(models::llama_2_7b, hml::prefill_step(1, 4096), devices::h100_sxm).time);
constexpr auto chunks_of_512 = hml::chunked_prefill(models::llama_2_7b, 1, 4096, 512, devices::h100_sxm);
static_assert(chunks_of_512.steps == 8);
static_assert(chunks_of_512.time.value < whole_prompt.time.value && chunks_of_512.time.value > 0.5 * whole_prompt.time.value);
// One token a chunk is one decode step a token: far slower than the prompt at once.
static_assert(hml::chunked_prefill(models::llama_2_7b, 1, 64, 1, devices::h100_sxm).time.value >
              10 * hml::chunked_prefill(models::llama_2_7b, 1, 64, 64, devices::h100_sxm).time.value);

// --- Predicted against measured (docs/explanation/llm-measured-runs.md) ---------------------------------
// hml llm --compare: a measured figure beside the prediction of the same run, on the machine's measured
// figures as the command runs by default.
namespace compared {
constexpr hml::machine_description a100 = hml::with_figures(devices::a100_sxm_80gb, hml::basis::measured_where_published);
// TensorRT-LLM 0.9.0, Llama-2 7B on an A100 in FP16, 128 prompt tokens: 16.2 ms to the first token.
constexpr hml::serving_figures seven = hml::serving(hml::analyze_generation(models::llama_2_7b, {1, 128, 1}, a100), {1, 128, 1});
static_assert(near(seven.time_to_first_token.value / 1_ms, 8.685, 0.001));
static_assert(near(-hml::relative_error(hml::figure_of(seven, hml::serving_metric::time_to_first_token), 0.0162), 0.464, 0.002));
// LMDeploy 0.1.0a1, Llama-2 13B, batch 1, 128 tokens in and 128 out: 17 ms a token (its 50th percentile).
constexpr hml::serving_figures thirteen = hml::serving(hml::analyze_generation(models::llama_2_13b, {1, 128, 128}, a100), {1, 128, 128});
static_assert(near(thirteen.time_per_output_token.value / 1_ms, 15.22, 0.001));
static_assert(near(-hml::relative_error(hml::figure_of(thirteen, hml::serving_metric::time_per_output_token), 0.017), 0.105, 0.01));
// The mean absolute error is the mean of the errors' magnitudes, and 0 over none.
constexpr double errors[] = {-0.5, 0.25, 0.0};
static_assert(hml::mean_absolute_error(errors) == 0.25 && hml::mean_absolute_error({}) == 0);
static_assert(hml::relative_error(3, 2) == 0.5 && hml::relative_error(1, 2) == -0.5);
static_assert(hml::to_string(hml::serving_metric::time_per_output_token) == "TPOT" &&
              !hml::is_time(hml::serving_metric::output_throughput));
}  // namespace compared

// --- Continuous batching (hml.continuous_batching) ----------------------------------------------------
namespace continuous {
constexpr hml::generation g{4, 16, 4};
constexpr hml::serving_figures static_batch = hml::serving(hml::analyze_generation(models::llama_2_7b, g, devices::h100_sxm), g);
// Requests that all fit at once are one static batch: one prefill step, then its decode steps.
constexpr hml::request_class four[] = {{4, 16, 4}};
constexpr hml::continuous_batching_result at_once = hml::continuous_batching(models::llama_2_7b, four, {}, devices::h100_sxm);
static_assert(at_once.concurrency == 4 && at_once.limited_by == hml::concurrency_limit::requests);
static_assert(at_once.prefill_steps == 1 && at_once.decode_steps == 3);
static_assert(at_once.makespan == static_batch.end_to_end.value);
static_assert(at_once.mean_time_to_first_token == static_batch.time_to_first_token.value);
static_assert(near(at_once.mean_time_per_output_token.value / static_batch.time_per_output_token.value, 1, 1e-12));
static_assert(near(at_once.output_throughput.per_second, static_batch.output_throughput.per_second, 1e-12));
// Twice as many with room for four: two such batches one after the other (the second waits for the first,
// whose sequences all end in the same step). Its requests' first tokens come one whole batch later.
constexpr hml::request_class eight[] = {{8, 16, 4}};
constexpr hml::continuous_batching_result waves =
    hml::continuous_batching(models::llama_2_7b, eight, {.max_batch = 4}, devices::h100_sxm);
static_assert(waves.concurrency == 4 && waves.limited_by == hml::concurrency_limit::max_batch);
static_assert(waves.prefill_steps == 2 && waves.decode_steps == 6);
// The fewest steps, counted before any runs, are the steps these waves take: 8 / 4 prefills, 8 x 3 / 4 decodes.
static_assert(hml::fewest_batching_steps(8, 4, 4, 4) == waves.prefill_steps + waves.decode_steps);
static_assert(hml::fewest_batching_steps(9, 4, 4, 4) == 3 + 7);  // each count rounded up
static_assert(near(waves.makespan.value / static_batch.end_to_end.value, 2, 1e-12));
static_assert(near(waves.mean_time_to_first_token.value / 1_s,
                   (static_batch.time_to_first_token.value + static_batch.end_to_end.value / 2) / 1_s, 1e-12));
static_assert(near(waves.output_throughput.per_second, static_batch.output_throughput.per_second, 1e-12));
// A step holds at most max_tokens tokens: 64-token prompts, 128 tokens a step, two prefills a step.
static_assert(hml::continuous_batching(models::llama_2_7b, std::array{hml::request_class{4, 64, 2}}, {.max_tokens = 128},
                                       devices::h100_sxm).prefill_steps == 2);
// Two kinds, in queue order: the first's prefill, then the second's (room for both), then decode steps of
// all four over their mean context (2 x 17 and 2 x 33 tokens: 25, then 26 and 27).
constexpr hml::request_class two_kinds[] = {{2, 16, 4}, {2, 32, 4}};
constexpr auto step = [](hml::step_shape s) { return hml::analyze_step(models::llama_2_7b, s, devices::h100_sxm).time.value; };
constexpr hml::continuous_batching_result mixed = hml::continuous_batching(models::llama_2_7b, two_kinds, {.max_batch = 4}, devices::h100_sxm);
static_assert(mixed.prefill_steps == 2 && mixed.decode_steps == 3);
static_assert(near(mixed.makespan.value / 1_s,
                   (step(hml::prefill_step(2, 16)) + step(hml::prefill_step(2, 32)) + step(hml::decode_step(4, 25)) +
                    step(hml::decode_step(4, 26)) + step(hml::decode_step(4, 27))) / 1_s,
                   1e-12));
static_assert(near(mixed.mean_time_to_first_token.value / 1_s,
                   (step(hml::prefill_step(2, 16)) + step(hml::prefill_step(2, 32)) / 2) / 1_s, 1e-12));
// A kind of one token ends at its prefill and frees its room at once; only the other decodes.
constexpr hml::request_class one_token_first[] = {{2, 16, 1}, {2, 32, 3}};
constexpr hml::continuous_batching_result short_first =
    hml::continuous_batching(models::llama_2_7b, one_token_first, {.max_batch = 2}, devices::h100_sxm);
static_assert(short_first.prefill_steps == 2 && short_first.decode_steps == 2);
static_assert(near(short_first.mean_time_per_output_token.value / 1_s,
                   (step(hml::decode_step(2, 33)) + step(hml::decode_step(2, 34))) / 2 / 1_s, 1e-12));
}  // namespace continuous

// --- A GPT-style block (GPT-2 XL) ------------------------------------------------------------------------
namespace gpt_style {
constexpr auto decode = hml::step_operators(models::gpt2_xl, hml::decode_step(1, 100));
constexpr const hml::operator_cost* named(std::string_view name) {
  for (const hml::operator_cost& op : decode)
    if (op.name == name) return &op;
  return nullptr;
}
// Learned positions: a row of the table read and added per token, and no rotary embedding.
static_assert(named("position embedding") != nullptr && named("rotary") == nullptr);
static_assert(named("position embedding")->weights == 1600 * 2_B && named("position embedding")->flops == 1600 * hml::flop);
// Biases: one weight per output of each projection, read with it, and a FLOP per output of a row.
static_assert(named("QKV projection")->weights == 48 * (1600 * 4800 + 4800) * 2_B);
static_assert(named("QKV projection")->flops == 48 * (2.0 * 1600 * 4800 + 4800) * hml::flop);
static_assert(named("down projection")->weights == 48 * (6400 * 1600 + 1600) * 2_B);
// Llama has neither: its QKV projection is its weights alone.
static_assert(hml::step_operators(models::llama_2_7b, hml::decode_step(1, 100))[2].weights == 32 * 4096 * 3 * 4096 * 2_B);
// Qwen2.5 has biases on Q, K and V alone: its QKV projection reads 3,584 + 2 x 512 of them a layer, its O
// and MLP projections none.
constexpr auto qwen = hml::step_operators(models::qwen2_5_7b, hml::decode_step(1, 100));
static_assert(qwen[2].name == "QKV projection" && qwen[2].weights == 28 * (3584 * 4608 + 4608) * 2_B);
static_assert(qwen[2].flops == 28 * (2.0 * 3584 * 4608 + 4608) * hml::flop);
static_assert(qwen[6].name == "O projection" && qwen[6].weights == 28 * 3584 * 3584 * 2_B);
}  // namespace gpt_style

// --- The context a model's configuration gives ----------------------------------------------------------
// Llama-2 was made for 4,096 positions, Llama 3 for 8,192, Llama 3.1 for 131,072 (config.json's
// max_position_embeddings): a context past them is still counted, and the CLI notes it.
static_assert(!hml::past_max_positions(models::llama_2_7b, 4096) && hml::past_max_positions(models::llama_2_7b, 4097));
static_assert(hml::past_max_positions(models::llama_3_8b, 8193) && !hml::past_max_positions(models::llama_3_1_405b, 8193));
// A model described by its sizes alone gives none, and nothing is past it.
static_assert(!hml::past_max_positions(hml::transformer{.max_positions = 0}, 1'000'000));
// A learned table has no row past its last: GPT-2 XL's 1,024 positions end there; a rotary model has no table.
static_assert(!hml::past_learned_positions(models::gpt2_xl, 1024) && hml::past_learned_positions(models::gpt2_xl, 1025));
static_assert(!hml::past_learned_positions(models::llama_3_8b, 1'000'000));

// --- The expected time: tiles in waves, a kernel overhead ------------------------------------------------

namespace expected_time {
constexpr hml::inference_options expected{.estimate = hml::estimate::expected};

// Tiles of 128 x 128 outputs (rows rounded up to 16 below 128) in waves over the SMs: a 1024^3 GEMM on an
// A100's 108 SMs is 64 tiles in one wave, 108/64; 128 x 4096 on 132 SMs, 32 tiles, 132/32; one row pads to
// 16, 32 tiles of 16 x 128 in one wave, 132 x 16 x 128 / 4096; 8192^2 outputs, 4096 tiles in 32 waves of
// 132, 4224/4096. Not a matrix product, or no SM count: 1.
static_assert(hml::tiling_factor({1, 1024, 1024}, 108) == 1.6875);
static_assert(hml::tiling_factor({1, 128, 4096}, 132) == 4.125);
static_assert(hml::tiling_factor({1, 1, 4096}, 132) == 66.0);
static_assert(hml::tiling_factor({1, 8192, 8192}, 132) == 4224.0 / 4096);
static_assert(hml::tiling_factor({}, 132) == 1.0 && hml::tiling_factor({1, 128, 128}, 0) == 1.0);
// Narrow columns round up to 16 as rows do: a router of 8 experts over 2048 tokens is 16 tiles of 128 x 16,
// one wave: 132 x 128 x 16 / (2048 x 8) = 16.5.
static_assert(hml::tiling_factor({1, 2048, 8}, 132) == 16.5);
// A grouped GEMM whose rows do not share out evenly: 2,058 token-expert pairs over 8 experts are 6 of 257
// rows and 2 of 258, each in 3 tiles of 128 rows; the factor is over the 2,058 rows there are (it was over
// 8 x 258, and Mixtral's prefill of 1,029 tokens came out shorter than of 1,028: the fifty-third trial).
static_assert(near(hml::tiling_factor({8, 258, 4096, 0, 6}, 132) * 2058, hml::tiling_factor({8, 257, 4096}, 132) * 2056, 1e-12));
// A shorter product can take a tile fewer: 257 rows over 2 products are 129 and 128, 2 tiles and 1 of 128.
static_assert(hml::tiling_factor({2, 129, 128, 0, 1}, 132) == 132.0 * 128 / 257);
static_assert(hml::analyze_step(models::mixtral_8x7b, hml::prefill_step(1, 1029), devices::h100_sxm, expected).time.value >=
              hml::analyze_step(models::mixtral_8x7b, hml::prefill_step(1, 1028), devices::h100_sxm, expected).time.value);
// Where the tiles are fewer than the SMs, a deep K loop is split into as many slices of split_depth (1024)
// or more as one wave holds: a 128-token down projection of Llama 3 8B (K = 14336) is 32 tiles in 4 slices,
// one wave of 128 on 132 SMs. A 512-token QKV projection (192 tiles) is not split, nor a 1024-deep product
// (the kernel overhead's derivation), nor one too shallow for two slices.
static_assert(hml::split_depth == 1024);
static_assert(hml::tiling_factor({1, 128, 4096, 14336}, 132) == 132.0 / 128);
static_assert(hml::tiling_factor({1, 512, 6144, 4096}, 132) == 264.0 / 192);
static_assert(hml::tiling_factor({1, 1024, 1024, 1024}, 108) == 1.6875);
static_assert(hml::tiling_factor({1, 128, 4096, 2047}, 132) == 4.125);
// As many slices as one wave holds: 64 tiles (256 x 4096 outputs) take 2 of the 14 a K of 14336 allows. A
// K that does not divide pads its last slice: 2 slices of 1501 for 3001.
static_assert(hml::tiling_factor({1, 256, 4096, 14336}, 132) == 132.0 / 128);
static_assert(hml::tiling_factor({1, 128, 4096, 3001}, 132) == 132.0 * 1501 / (32 * 3001));

// Against cuBLASLt's measured GEMM rates (Azure's tables, the catalog's source azure-cublaslt-gemm): each
// shape's rate as the expected time gives it, on the default figures (measured where published). The
// compute-bound shapes come within -9 % to +12 % on the A100 (FP16), -2 % to +7 % on the H100 and -1 % to +4 %
// on the H200 (FP8); the skinny 802816 x 192 x 768, memory-bound, 13 % to 39 % fast (its kernels do not reach
// BabelStream's bandwidth). The 1024^3 GEMMs are where the kernel overhead is derived: 0 %.
struct gemm_rate {
  std::uint64_t m, n, k;
  double measured_tflops;
};
constexpr double expected_error(const hml::device& d, precision p, const gemm_rate& g) {
  const hml::machine_description view = hml::with_figures(d, hml::basis::measured_where_published);
  const hml::operator_cost op = hml::gemm("GEMM", g.m, g.n, g.k, {p, p, precision::fp16});
  const hml::operator_time t = hml::time_on(op, view, expected);
  return op.flops / t.time / (g.measured_tflops * 1_TFLOPS) - 1;
}
constexpr bool within_range(const hml::device& d, precision p, std::initializer_list<gemm_rate> shapes, double low,
                            double high) {
  for (const gemm_rate& g : shapes) {
    const double e = expected_error(d, p, g);
    if (e < low || e > high) return false;
  }
  return true;
}
static_assert(within_range(devices::a100_sxm_80gb, precision::fp16,
                           {{2048, 2048, 2048, 221.8}, {4096, 4096, 4096, 228.0}, {8192, 8192, 8192, 253.7},
                            {16384, 16384, 16384, 256.5}, {1024, 2145, 1024, 132.8}, {6144, 12288, 12288, 250.8}},
                           -0.09, 0.12));
static_assert(within_range(devices::h100_sxm, precision::fp8,
                           {{2048, 2048, 2048, 1011.3}, {4096, 4096, 4096, 1216.9}, {8192, 8192, 8192, 1290.1},
                            {16384, 16384, 16384, 1377.3}, {32768, 32768, 32768, 1382.2}, {1024, 2145, 1024, 410.7},
                            {6144, 12288, 12288, 1351.4}},
                           -0.02, 0.07));
static_assert(within_range(devices::h200, precision::fp8,
                           {{2048, 2048, 2048, 1013.4}, {4096, 4096, 4096, 1249.1}, {8192, 8192, 8192, 1300.6},
                            {16384, 16384, 16384, 1366.3}, {32768, 32768, 32768, 1349.5}, {1024, 2145, 1024, 407.9},
                            {6144, 12288, 12288, 1318.0}},
                           -0.01, 0.04));
static_assert(within_range(devices::a100_sxm_80gb, precision::fp16, {{802816, 192, 768, 157.8}}, 0.13, 0.39) &&
              within_range(devices::h100_sxm, precision::fp8, {{802816, 192, 768, 663.8}}, 0.12, 0.39) &&
              within_range(devices::h200, precision::fp8, {{802816, 192, 768, 717.5}}, 0.13, 0.39));
static_assert(within_range(devices::a100_sxm_80gb, precision::fp16, {{1024, 1024, 1024, 119.4}}, -0.001, 0.001) &&
              within_range(devices::h100_sxm, precision::fp8, {{1024, 1024, 1024, 274.1}}, -0.001, 0.001));

// A step's expected time is its bound plus each operator's tiles and each kernel's overhead. Llama-2 7B's
// decode at batch 1 on an A100 runs 387 kernels (11 operators in each of 32 layers, the residual add twice,
// the embedding, the final norm and the LM head once), 387 x 4.62 us = 1.788 ms; batch 1 keeps every GEMM
// memory-bound, so that is all it adds. (The final norm was summed with the layers' as no run of its own: 386.)
constexpr auto decode_bound = hml::analyze_step(models::llama_2_7b, hml::decode_step(1, 512), devices::a100_sxm_80gb);
constexpr auto decode_expected =
    hml::analyze_step(models::llama_2_7b, hml::decode_step(1, 512), devices::a100_sxm_80gb, expected);
static_assert(decode_bound.overhead == 0_s && near(decode_expected.overhead / 1_ms, 387 * 4.62e-3, 1e-9));
static_assert(near(decode_expected.time.value / 1_ms, (decode_bound.time.value + decode_expected.overhead) / 1_ms, 1e-9));
// A prefill of 128 tokens on an H100: the O projection's 128 x 4096 outputs are 32 tiles for 132 SMs, its K
// of 4096 split in 4 slices, so its FLOP take 132/128 times as long (132/32 = 4.125 whole).
constexpr auto prefill_bound = hml::analyze_step(models::llama_2_7b, hml::prefill_step(1, 128), devices::h100_sxm);
constexpr auto prefill_expected =
    hml::analyze_step(models::llama_2_7b, hml::prefill_step(1, 128), devices::h100_sxm, expected);
constexpr std::size_t o_projection = 6;
static_assert(prefill_bound.operators[o_projection].op.name == "O projection");
static_assert(near(prefill_expected.operators[o_projection].compute_time / prefill_bound.operators[o_projection].compute_time,
                   132.0 / 128, 1e-12));
// The ridge batch stays the bound's.
static_assert(hml::ridge_batch(models::llama_2_7b, 1, devices::h100_sxm, expected) ==
              hml::ridge_batch(models::llama_2_7b, 1, devices::h100_sxm));
}  // namespace expected_time
