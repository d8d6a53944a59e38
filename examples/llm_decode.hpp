// Llama-2 7B on an H100 SXM: the decode step per operator, the ridge batch, the memory, precisions, tensor
// parallelism for Llama-2 70B, and an efficiency fitted from a time. Every figure is computed here, at
// compile time, by hml.transformer; llm_decode.cpp prints them and tests/compile_time/transformer.cpp
// checks them against hand derivations and published figures.
#pragma once
#include <cstdint>

import hml;

namespace llm_decode {

using namespace hml::literals;
using hml::precision;

inline constexpr const hml::transformer& model = hml::models::llama_2_7b;
inline constexpr const hml::device& gpu = hml::devices::h100_sxm;
inline constexpr std::uint64_t context = 512;

// One decode step at batch 1 over 512 tokens of context, FP16 throughout.
inline constexpr hml::step_analysis step = hml::analyze_step(model, hml::decode_step(1, context), gpu);

// The batch at which decode turns compute-bound: with no cache yet, and at 512 tokens.
inline constexpr hml::decode_ridge ridge_empty = hml::ridge_batch(model, 1, gpu);
inline constexpr hml::decode_ridge ridge_at_context = hml::ridge_batch(model, context, gpu);

// Memory at 4,096 tokens.
inline constexpr std::uint64_t long_context = 4096;
inline constexpr hml::memory_use memory = hml::memory_needed(model, 1, long_context);
inline constexpr std::uint64_t largest_batch = hml::largest_batch(model, long_context, gpu);

// Precisions: the same step with INT4 weights (FP16 compute), and all in INT8 (W8A8: INT8 tensor units).
inline constexpr hml::inference_options int4_weights{.types = {.weights = precision::int4}};
inline constexpr hml::inference_options all_int8{.types = {precision::int8, precision::int8, precision::int8}};
inline constexpr hml::step_analysis step_int4 = hml::analyze_step(model, hml::decode_step(1, context), gpu, int4_weights);
inline constexpr hml::step_analysis step_w8a8 = hml::analyze_step(model, hml::decode_step(1, context), gpu, all_int8);

// Llama-2 70B in FP16 over two H100s joined by NVLink 4 (450 GB/s each way; 5 us a message, an assumption).
inline constexpr hml::inference_options two_gpus{.tensor_parallel = 2, .link = {450_GBps, 5_us}};
inline constexpr bool big_fits_one = hml::fits(hml::models::llama_2_70b, 1, long_context, gpu);
inline constexpr bool big_fits_two = hml::fits(hml::models::llama_2_70b, 1, long_context, gpu, two_gpus);
inline constexpr hml::step_analysis big_step =
    hml::analyze_step(hml::models::llama_2_70b, hml::decode_step(1, context), gpu, two_gpus);

// Calibration: if a decode step were measured at 5 ms (an example input, not a measurement), the memory
// efficiency that explains it.
inline constexpr hml::step_time supposed_measurement{5_ms};
inline constexpr double fitted_memory_efficiency =
    hml::fit_memory_efficiency(model, hml::decode_step(1, context), gpu, supposed_measurement);

}  // namespace llm_decode
