// hml.transformer:memory — what a device holds (weights, KV cache, activations) against its capacity;
// the largest batch and context; efficiencies fitted to a measured time.
module;
#include <algorithm>
#include <array>
#include <compare>
#include <cstddef>
#include <cstdint>
#include <string_view>
export module hml.transformer:memory;
import hml.operators;
import hml.analysis;
import hml.link;
import hml.pipeline;
import :model;
import :steps;
import :time;

using namespace std::string_view_literals;

export namespace hml {

// --- Memory ------------------------------------------------------------------------------------------

struct memory_use {
  data_size weights{};
  data_size kv_cache{};
  data_size activations{};
  [[nodiscard]] constexpr data_size total() const noexcept { return weights + kv_cache + activations; }
};

// The token slots a sequence of `context` tokens holds in the KV cache: its tokens, rounded up to whole blocks
// where the cache is paged (17 tokens in blocks of 16 take 32 slots).
[[nodiscard]] constexpr std::uint64_t kv_slots(std::uint64_t context, const memory_policy& p) {
  const std::uint64_t block = p.kv_block_tokens;
  expects(context < std::uint64_t{1} << 62, "hml: a context must stay below 2^62 tokens to count");
  return block == 0 ? context : detail::ceil_div(context, block) * block;
}

namespace detail {

// The KV cache of `layers` layers for `batch` sequences of `context` tokens on one device of n tensor-parallel
// ones: 2 layers (kv / n) d batch slots |kv|; with latent attention layers (kv_rank + rope) batch slots |kv|,
// whatever n (each device holds every latent). Under data-parallel attention a device holds its own sequences'
// (the busiest device's ceil(batch / n)), every head of them.
[[nodiscard]] constexpr data_size kv_cache_of(const transformer& t, std::uint64_t layers, std::uint64_t batch,
                                              std::uint64_t context, const inference_options& o) {
  const attention_shape cached = attention_run(t, attention_split(o), has_latent_attention(t));
  return bytes_of(layers * kv_elements_per_token(cached) * device_batch(batch, o) * kv_slots(context, o.memory),
                  o.types.kv_cache);
}

// The parameters one device holds of a stage: a tensor-parallel share (the stage's over n: the replicated
// norms and embedding are counted over n too, a small undercount); under data-parallel attention the routed
// experts' share and everything else whole. The shared experts split where the experts do, and are whole on
// every device under expert parallelism.
[[nodiscard]] constexpr double device_parameters(const transformer& t, const pipeline_stage& stage,
                                                 const inference_options& o) {
  const double all = static_cast<double>(stage_parameters(t, stage));
  const double n = o.tensor_parallel;
  const double layers = static_cast<double>(stage.layers - stage.dense_layers);
  const double routed = layers * static_cast<double>(t.experts * mlp_parameters(t));
  const double shared = layers * static_cast<double>(t.shared_experts * mlp_parameters(t));
  const bool whole_shared = o.experts.expert_parallel;
  if (!o.experts.data_parallel_attention) return whole_shared ? (all - shared) / n + shared : all / n;
  return all - routed - shared + routed / n + (whole_shared ? shared : shared / n);
}

}  // namespace detail

// The KV cache of `batch` sequences of `context` tokens on one device (of a pipeline, the stage of the most
// layers).
[[nodiscard]] constexpr data_size kv_cache_size(const transformer& t, std::uint64_t batch, std::uint64_t context,
                                                const inference_options& o = {}) {
  validate(t, o);
  validate_counts(t, batch, 1, kv_slots(context, o.memory));
  std::uint64_t most = 0;
  for (unsigned i = 0; i < o.pipeline.stages; ++i) most = std::max(most, stage_of(t, o.pipeline.stages, i).layers);
  return detail::kv_cache_of(t, most, batch, context, o);
}

// The counts memory_needed takes (validate_counts): the prefill of the whole context, and its KV cache's slots.
[[nodiscard]] constexpr bool memory_counts_are_exact(const transformer& t, std::uint64_t batch, std::uint64_t context,
                                                     const inference_options& o = {}) {
  return counts_are_exact(t, batch, context, context) && counts_are_exact(t, batch, 1, kv_slots(context, o.memory));
}

constexpr void validate_memory_counts(const transformer& t, std::uint64_t batch, std::uint64_t context,
                                      const inference_options& o = {}) {
  expects(batch > 0, "hml: batch must be >= 1");  // before it is split into micro-batches (0 / 0)
  validate_counts(t, batch, context, context);
  validate_counts(t, batch, 1, kv_slots(context, o.memory));
}

// The longest context whose counts are exact at this batch (0 where not even one token's are), for an error to
// say what to give: the counts grow with the context, so a bisection finds it.
[[nodiscard]] constexpr std::uint64_t longest_countable_context(const transformer& t, std::uint64_t batch,
                                                               const inference_options& o = {}) {
  std::uint64_t low = 0, high = std::uint64_t{1} << 62;  // memory_counts_are_exact(low), !...(high)
  while (high - low > 1) {
    const std::uint64_t middle = low + (high - low) / 2;
    (memory_counts_are_exact(t, batch, middle, o) ? low : high) = middle;
  }
  return low;
}

// What one device holds: its share of its stage's weights (detail::device_parameters), the KV cache of its
// layers for batch x context, and the activations: the largest live set of one operator (its activations
// read and written) of the prefill of the whole context by a micro-batch (the whole batch without a
// pipeline), the heaviest step. Of a pipeline, the stage that needs the most. The live sets are the separate
// element-wise operators' whatever o.elementwise: fused kernels move fewer bytes, but an engine's fused add and
// norm works in place, so fusing would otherwise count a norm's four passes as four buffers.
[[nodiscard]] constexpr memory_use memory_needed(const transformer& t, std::uint64_t batch, std::uint64_t context,
                                                 const inference_options& o = {}) {
  validate(t, o);
  validate_memory_counts(t, batch, context, o);
  memory_use r{};
  const std::uint64_t largest_micro_batch = detail::ceil_div(batch, micro_batches_of(o.pipeline, batch));
  inference_options separate = o;
  separate.elementwise = elementwise_kernels::separate;
  for (const operator_cost& op : step_operators(t, prefill_step(largest_micro_batch, context), separate)) {
    if (op.link_messages > 0) continue;  // a collective holds no live set of its own here
    // An operator summed over its runs (once or twice per layer) holds one run's buffers at a time.
    const data_size live = (op.activations_read + op.activations_written) / op.repeats;
    if (live > r.activations) r.activations = live;
  }
  const double weight_bits = stored_weight_bits(o.types);
  for (unsigned i = 0; i < o.pipeline.stages; ++i) {
    const pipeline_stage stage = stage_of(t, o.pipeline.stages, i);
    const data_size weights = detail::device_parameters(t, stage, o) * weight_bits * bit;
    const data_size kv = detail::kv_cache_of(t, stage.layers, batch, context, o);
    if (i == 0 || weights + kv > r.weights + r.kv_cache) {
      r.weights = weights;
      r.kv_cache = kv;
    }
  }
  return r;
}

// The capacity of the machine's main memory (typed; published by every catalog GPU).
[[nodiscard]] constexpr data_size capacity_of(const machine_description& m) {
  const figure<data_size> c = main_memory(m).capacity;
  expects(c.published(), "hml: the machine publishes no main-memory capacity");
  return c.value;
}

// The memory a run may take on the device: its capacity times the memory utilization.
[[nodiscard]] constexpr data_size usable_memory(const machine_description& m, const inference_options& o = {}) {
  validate(o.memory);
  return capacity_of(m) * o.memory.memory_utilization;
}

// Sizes too large for exact counts (see validate_counts) are far beyond any memory: they do not fit.
[[nodiscard]] constexpr bool fits(const transformer& t, std::uint64_t batch, std::uint64_t context,
                                  const machine_description& m, const inference_options& o = {}) {
  if (!counts_are_exact(t, batch, context, kv_slots(context, o.memory))) return false;
  return memory_needed(t, batch, context, o).total() <= usable_memory(m, o);
}

namespace detail {
// The largest count for which `fits` holds (0 if not even one), by bisection: memory grows with the count.
template <class Fits>
[[nodiscard]] constexpr std::uint64_t largest_fitting(Fits fits) {
  std::uint64_t low = 0, high = 1;
  while (fits(high) && high < (std::uint64_t{1} << 40)) high *= 2;
  while (high - low > 1) {
    const std::uint64_t mid = low + (high - low) / 2;
    (fits(mid) ? low : high) = mid;
  }
  return low;
}
}  // namespace detail

// The largest batch of `context`-token sequences that fits (0 if not even one).
[[nodiscard]] constexpr std::uint64_t largest_batch(const transformer& t, std::uint64_t context,
                                                    const machine_description& m, const inference_options& o = {}) {
  return detail::largest_fitting([&](std::uint64_t batch) { return fits(t, batch, context, m, o); });
}

// The longest context that `batch` sequences may hold (0 if none fits).
[[nodiscard]] constexpr tokens largest_context(const transformer& t, std::uint64_t batch,
                                               const machine_description& m, const inference_options& o = {}) {
  return {detail::largest_fitting([&](std::uint64_t context) { return fits(t, batch, context, m, o); })};
}

// Speculative decoding holds a draft model beside its target on every device, split as the target is: the
// draft's weights and its own KV cache of the same sequences. The two run in turn, so the activations are
// the larger live set of the two; the few tokens a step drafts ahead are left out of the cache.
[[nodiscard]] constexpr memory_use memory_needed(const transformer& t, const transformer& draft, std::uint64_t batch,
                                                 std::uint64_t context, const inference_options& o = {}) {
  const memory_use target = memory_needed(t, batch, context, o);
  const memory_use drafting = memory_needed(draft, batch, context, o);
  return {.weights = target.weights + drafting.weights,
          .kv_cache = target.kv_cache + drafting.kv_cache,
          .activations = std::max(target.activations, drafting.activations)};
}

[[nodiscard]] constexpr bool fits(const transformer& t, const transformer& draft, std::uint64_t batch,
                                  std::uint64_t context, const machine_description& m, const inference_options& o = {}) {
  const std::uint64_t slots = kv_slots(context, o.memory);
  if (!counts_are_exact(t, batch, context, slots) || !counts_are_exact(draft, batch, context, slots)) return false;
  return memory_needed(t, draft, batch, context, o).total() <= usable_memory(m, o);
}

[[nodiscard]] constexpr std::uint64_t largest_batch(const transformer& t, const transformer& draft, std::uint64_t context,
                                                    const machine_description& m, const inference_options& o = {}) {
  return detail::largest_fitting([&](std::uint64_t batch) { return fits(t, draft, batch, context, m, o); });
}

// --- Calibration -------------------------------------------------------------------------------------

namespace detail {
// The efficiency in [10^-6, 1] at which `time_at(efficiency)`, falling as it grows, is `measured`, by
// bisection. Refused where none is: a measurement faster than the model at full efficiency, or slower than
// at 10^-6 (the bisection's floor, which it returned for a measured 10^6 s or inf).
template <class TimeAt>
[[nodiscard]] constexpr double fitted_efficiency(TimeAt time_at, step_time measured, const char* faster) {
  const double seconds = measured.value.value();
  expects(seconds > 0 && seconds <= largest_finite, "hml: a measured time must be finite and > 0; give the time the run took, as 660us");
  expects(time_at(1.0) <= measured.value, faster);
  constexpr double floor = 1e-6;
  expects(time_at(floor) >= measured.value,
          "hml: the measured time is longer than the model's at an efficiency of 10^-6; is it one step's?");
  double low = floor, high = 1.0;
  for (int i = 0; i < 60; ++i) {
    const double mid = (low + high) / 2;
    (time_at(mid) > measured.value ? low : high) = mid;
  }
  return high;
}
}  // namespace detail

// The memory efficiency at which the model's step takes `measured` (the compute efficiency as given), by
// bisection: the step's time falls as the memory efficiency grows. Fails on a step that is compute-bound at
// full bandwidth, and where no efficiency in [10^-6, 1] gives that time (the measurement is faster than the
// model at full bandwidth).
[[nodiscard]] constexpr double fit_memory_efficiency(const transformer& t, const step_shape& s,
                                                     const machine_description& m, step_time measured,
                                                     inference_options o = {}) {
  o.achieved.memory = 1;
  expects(analyze_step(t, s, m, o).bound() != limit::compute,
          "hml: the step is compute-bound at full bandwidth, so its time says nothing of the memory efficiency; "
          "fit the compute efficiency (fit_compute_efficiency), or fit a memory-bound step (a decode step)");
  return detail::fitted_efficiency([&](double memory) {
    o.achieved.memory = memory;
    return step_time_of(t, s, m, o).value;
  }, measured, "hml: the measured time is shorter than the model's at full bandwidth");
}

// The same for the compute efficiency (the memory efficiency as given), of a step not memory-bound at full compute.
[[nodiscard]] constexpr double fit_compute_efficiency(const transformer& t, const step_shape& s,
                                                      const machine_description& m, step_time measured,
                                                      inference_options o = {}) {
  o.achieved.compute = 1;
  expects(analyze_step(t, s, m, o).bound() != limit::memory,
          "hml: the step is memory-bound at full compute, so its time says nothing of the compute efficiency; "
          "fit the memory efficiency (fit_memory_efficiency), or fit a compute-bound step (a large prefill)");
  return detail::fitted_efficiency([&](double compute) {
    o.achieved.compute = compute;
    return step_time_of(t, s, m, o).value;
  }, measured, "hml: the measured time is shorter than the model's at full compute");
}

}  // namespace hml
