// hml.transformer:time — a step's time on a machine: each operator at its roofline, or the expected
// time of a GPU run (tiles in waves over the SMs, a kernel's overhead); a pipeline's schedule; a generation.
module;
#include <algorithm>
#include <array>
#include <compare>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <string_view>
export module hml.transformer:time;
import hml.operators;
import hml.analysis;
import hml.link;
import hml.pipeline;
import :model;
import :steps;

using namespace std::string_view_literals;

export namespace hml {

// --- Time --------------------------------------------------------------------------------------------

// Distinct times, so that one is never taken for the other: a step's time (one forward pass) and the
// time per token (a step's time over the tokens it produced). Each compares with a duration (a budget,
// a measurement: `step.time < 10_ms`), never with the other, and becomes one only by name (`.value`).
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wc++26-extensions"  // `= delete("reason")` is C++26; clang takes it in C++20
struct step_time {
  duration value{};
  operator duration() const = delete("hml: a step's time is not a plain duration: read it as step.time.value");
  friend constexpr step_time operator+(step_time a, step_time b) noexcept { return {a.value + b.value}; }
  friend constexpr bool operator==(step_time, step_time) noexcept = default;
  friend constexpr bool operator==(step_time a, duration b) noexcept { return a.value == b; }
  friend constexpr std::partial_ordering operator<=>(step_time a, duration b) noexcept {
    return a.value.value() <=> b.value();
  }
};
struct time_per_token {
  duration value{};
  operator duration() const = delete("hml: a time per token is not a plain duration: read it as t.value");
  friend constexpr bool operator==(time_per_token, time_per_token) noexcept = default;
  friend constexpr bool operator==(time_per_token a, duration b) noexcept { return a.value == b; }
  friend constexpr std::partial_ordering operator<=>(time_per_token a, duration b) noexcept {
    return a.value.value() <=> b.value();
  }
};
#pragma clang diagnostic pop
namespace detail {
template <class>
inline constexpr bool never = false;
}  // namespace detail
// A step's time against a time per token, said in hml's words: clang called it ambiguous between the two
// comparisons with a duration, and a deleted overload's diagnostic lists every candidate. An exact match,
// these are picked over both and fail as they are instantiated.
template <std::same_as<time_per_token> Other>
constexpr bool operator==(step_time, Other) {
  static_assert(detail::never<Other>, "hml: a step's time is not a time per token: compare step.time.value with t.value, "
                                      "or per_token(step.time, step.produced()) with t");
  return false;
}
template <std::same_as<time_per_token> Other>
constexpr std::partial_ordering operator<=>(step_time, Other) {
  static_assert(detail::never<Other>, "hml: a step's time is not a time per token: compare step.time.value with t.value, "
                                      "or per_token(step.time, step.produced()) with t");
  return std::partial_ordering::unordered;
}
// Tokens per second.
struct token_rate {
  double per_second = 0;
};

[[nodiscard]] constexpr time_per_token per_token(step_time t, tokens produced) {
  expects(produced.count > 0, "hml: a step produces at least one token");
  expects(t.value.value() >= 0 && t.value.value() <= largest_finite, "hml: a step's time must be finite and >= 0");
  return {t.value / static_cast<double>(produced.count)};
}
[[nodiscard]] constexpr token_rate throughput(step_time t, tokens produced) {
  expects(t.value.value() > 0 && t.value.value() <= largest_finite,
          "hml: a throughput needs a time that is finite and > 0 (a step's, or a run's)");
  return {static_cast<double>(produced.count) / t.value.value()};
}

// --- Expected time: tiles and waves ----------------------------------------------------------------------

// A GEMM kernel's output tile on a GPU's tensor units: 128 x 128 outputs, one tile on an SM at a time (the
// common tile of cuBLAS's and CUTLASS's tensor-core kernels); a product of fewer rows or columns takes a
// tile of them rounded up to 16, a tensor-core MMA's height, as small-batch kernels do.
inline constexpr std::uint64_t tile_rows = 128;
inline constexpr std::uint64_t tile_columns = 128;
inline constexpr std::uint64_t tile_step = 16;
// The least depth (k) a slice of a split-K product keeps. cuBLASLt splits the K loop of a product whose
// tiles leave SMs idle: this project's measured H100 and H200 GEMMs (docs/explanation/benchmarks/gpu.md) run
// products of 128 and 256 tokens with K = 4096 to 14336 as if split so, while Azure's 1024^3 GEMMs, from
// which the kernel overhead is derived, run as one wave of whole tiles, and Azure's large products keep
// their last wave's idle SMs. 512 to 2048 give the same errors on those measurements within half a point; 1024
// leaves a 1024-deep product whole.
inline constexpr std::uint64_t split_depth = 1024;

// How much longer a matrix product takes than its FLOP at the machine's matmul rate on `sms` SMs: its outputs
// padded to whole tiles; where the tiles are fewer than the SMs, its K loop split into as many slices as one
// wave holds (each split_depth deep or more); the tiles' slices run in waves of `sms`, each at an SM's share
// of the rate. So waves x sms x tile rows x tile columns x slice depth / (outputs x depth), 1
// or more: a 1024^3 GEMM on an A100's 108 SMs is 64 tiles in one wave, 108 / 64 = 1.6875; a 128-token down
// projection of Llama 3 8B (K = 14336) on an H100's 132 SMs, 32 tiles in 4 slices, 132 / 128. The products
// `shorter` by a row take the same tile height (a grouped GEMM's kernel has one) and count their own rows.
// Not a matrix product, or no SM count: 1. time_on takes it for products on tensor units only (a CPU's
// vector GEMMs are not tiled so).
[[nodiscard]] constexpr double tiling_factor(const gemm_shape& g, unsigned sms) {
  if (g.count == 0 || g.rows == 0 || g.columns == 0 || sms == 0) return 1.0;
  expects(g.shorter < g.count, "hml: a GEMM's products a row shorter are fewer than its products");
  std::uint64_t outputs = 0;
  expects(!__builtin_mul_overflow(g.count, g.rows, &outputs) && !__builtin_mul_overflow(outputs, g.columns, &outputs) &&
              outputs < std::uint64_t{1} << 62,
          "hml: a GEMM's outputs (count x rows x columns) must stay below 2^62 to count");
  using detail::ceil_div;
  const auto tile = [](std::uint64_t n, std::uint64_t most) { return n >= most ? most : ceil_div(n, tile_step) * tile_step; };
  const std::uint64_t rows = tile(g.rows, tile_rows);
  const std::uint64_t columns = tile(g.columns, tile_columns);
  // Whole tiles: no more than the outputs, below 2^62.
  const std::uint64_t row_tiles = (g.count - g.shorter) * ceil_div(g.rows, rows) + g.shorter * ceil_div(g.rows - 1, rows);
  const std::uint64_t tiles = row_tiles * ceil_div(g.columns, columns);
  const std::uint64_t slices = tiles < sms ? std::max<std::uint64_t>(1, std::min(g.depth / split_depth, sms / tiles)) : 1;
  const double slice_share =
      slices == 1 ? 1.0 : static_cast<double>(ceil_div(g.depth, slices)) / static_cast<double>(g.depth);
  const auto waves = static_cast<double>(ceil_div(tiles * slices, sms));
  return waves * sms * static_cast<double>(rows * columns) * slice_share /
         (static_cast<double>(g.count * g.rows - g.shorter) * static_cast<double>(g.columns));
}

// The fixed cost the machine's kernels pay (0 s where it publishes none).
[[nodiscard]] constexpr duration kernel_overhead_of(const machine_description& m) {
  const double seconds = m.kernel_overhead.value.value();
  if (seconds == 0) return {};  // none published
  expects(seconds > 0 && seconds <= 1e-3, "hml: a kernel's overhead is from 0 to 1 ms");  // NaN and -1 us were none
  return m.kernel_overhead.value;
}

// Whether an expected time takes this operator at the machine's measured attention rate: fused prefill
// attention on 16-bit activations (the precision the rate is measured at) where the machine publishes one.
[[nodiscard]] constexpr bool at_attention_rate(const operator_cost& op, const machine_description& m) noexcept {
  const bool sixteen_bit = op.compute.type == precision::bf16 || op.compute.type == precision::fp16;
  return op.attention_work.value() > 0 && sixteen_bit && m.attention_rate.published();
}

// Whether an expected time reads this operator's weights at the machine's INT4 weight rate: a weight-only
// INT4 product (wider activations: not W4A4 on INT4 tensor units), of any rows, on a machine that publishes
// one below main memory's bandwidth as the machine is viewed (a rate between the measured and the datasheet's
// bandwidth binds on the datasheet's figures alone; efficiencies scale both alike). The rate is one row's;
// more rows take longer still (tinygemm turns compute-bound at about 30 TFLOP/s from 4 rows on an H100), which
// the expected time does not know: docs/explanation/transformer-conventions.md.
[[nodiscard]] constexpr bool at_int4_weight_rate(const operator_cost& op, const machine_description& m,
                                                 const precisions& types) noexcept {
  return types.weights == precision::int4 && op.compute.type != precision::int4 && op.gemm.count > 0 &&
         m.int4_weight_rate.published() && !m.memory.empty() &&
         m.int4_weight_rate.value < bandwidth_of(main_memory(m), basis::datasheet).value;
}

enum class limit { compute, memory, link };

[[nodiscard]] constexpr std::string_view to_string(limit l) noexcept {
  switch (l) {
    case limit::compute: return "compute";
    case limit::memory: return "memory";
    case limit::link: return "link";
  }
  return "?";
}

// One operator on the machine: its intensity, the time its FLOP and its bytes take at the achieved rates
// (in an expected time, a product's FLOP tiled into waves, a fused prefill's attention as its causal tiles at
// the machine's attention rate, a weight-only INT4 product's weights at its INT4 weight rate), the link time,
// its kernels' overhead (expected time only), its time (max of compute and memory, plus the link and the
// overhead) and what binds it.
struct operator_time {
  operator_cost op{};
  arithmetic_intensity intensity{};
  duration compute_time{};
  duration memory_time{};
  duration link_time{};
  duration overhead{};
  duration time{};
  limit bound = limit::memory;
};

// The roof an operator sees: the machine's main-memory bandwidth and the peak of its compute kind, each
// scaled by the achieved share. A machine without a peak for that kind fails here: a compile error in a
// constant expression, std::invalid_argument at run time.
namespace detail {

// What binds an operator, or a step's sums: the link where its time exceeds both the memory's and the
// compute's, else the longer of those two.
[[nodiscard]] constexpr limit limit_of(duration link, duration memory, duration compute) noexcept {
  if (link > memory && link > compute) return limit::link;
  return compute > memory ? limit::compute : limit::memory;
}

// time_on for efficiencies already validated (a step's operators share them: a long generation in a constant
// expression would pay for each operator's check).
[[nodiscard]] constexpr operator_time time_on_unchecked(const operator_cost& op, const machine_description& m,
                                                       const inference_options& o) {
  operator_time r{.op = op};
  const data_size moved = op.bytes();
  r.intensity = op.intensity();
  // The time model's streaming transfer and compute time (no latency: operators stream their bytes).
  const memory streaming{.latency = 0 * second,
                         .bandwidth = bandwidth_of(main_memory(m), basis::datasheet).value * o.achieved.memory};
  expects(streaming.bandwidth.value() > 0, "hml: the machine publishes no main-memory bandwidth; give main memory's bandwidth");
  validate_bandwidth(streaming.bandwidth);  // normal: 1e-310 B/s made an infinite step
  r.memory_time = detail::transfer_time_unchecked(streaming, moved, sequential_access);  // streaming checked above
  if (op.flops.value() > 0) {
    r.compute_time = compute_time(compute_core{roof_of(m, op.compute).peak * o.achieved.compute}, op.flops);
  }
  if (o.estimate == estimate::expected) {
    if (at_attention_rate(op, m)) {
      // As FlashAttention runs: its causal tiles, at the measured rate scaled as every roof is.
      r.compute_time = op.attention_work / (m.attention_rate.value * o.achieved.compute);
    } else if (op.compute.unit == compute_unit::tensor) {
      r.compute_time = r.compute_time * tiling_factor(op.gemm, m.cores);
    }
    if (at_int4_weight_rate(op, m, o.types)) {
      // Its weights at the rate (scaled as every roof is), the rest of its bytes at the memory's.
      const data_rate rate = m.int4_weight_rate.value * o.achieved.memory;
      r.memory_time += op.weights / rate - op.weights / streaming.bandwidth;
    }
    if (op.link_messages == 0) r.overhead = op.repeats * kernel_overhead_of(m);  // one kernel a run
  }
  if (op.link_sent.value() > 0 || op.link_messages > 0) {
    expects(op.link_messages > 0, "hml: link traffic needs at least one message");
    validate(o.link);
    // Each message of a ring sends a chunk to the next device while it receives one from the previous:
    // at once on a full-duplex link, in turn on a half-duplex one (hml.link says how long each takes).
    const data_size chunk = op.link_sent / op.link_messages;
    r.link_time = op.link_messages * detail::link_time_both_ways_of(o.link, chunk, chunk);
  }
  validate_memory_time(r.memory_time);  // no infinite time from finite figures (a rate near 0)
  validate_compute_time(r.compute_time);
  r.time = combine(r.memory_time, r.compute_time, overlap::full) + r.link_time;
  if (o.estimate == estimate::expected) r.time += r.overhead;  // the bound skips it: constexpr steps are a budget
  r.bound = limit_of(r.link_time, r.memory_time, r.compute_time);
  return r;
}

}  // namespace detail

[[nodiscard]] constexpr operator_time time_on(const operator_cost& op, const machine_description& m,
                                              const inference_options& o) {
  validate(o.achieved);
  return detail::time_on_unchecked(op, m, o);
}

// A step on a machine: its operators, their totals, its time and what binds it overall. Under pipeline
// parallelism, the operators are the busiest stage's for all the step's micro-batches, and the step's time
// adds what that stage waits (pipeline_wait): the bubble, and its micro-batches' hand-offs from stage to stage.
struct step_analysis {
  step_shape shape{};
  fixed_list<operator_time, max_step_operators> operators{};
  work flops{};
  data_size weights{};
  data_size kv_read{};
  data_size bytes{};
  duration compute_time{};  // sum of the operators' compute times
  duration memory_time{};   // sum of the operators' memory times
  duration link_time{};
  duration overhead{};      // the kernels' fixed costs (expected time only)
  duration pipeline_wait{};
  step_time time{};

  [[nodiscard]] constexpr tokens produced() const noexcept {
    return {shape.kind == phase::decode ? shape.batch : shape.batch * shape.new_tokens};
  }
  // The share of the step's time an operator takes.
  [[nodiscard]] constexpr double share(const operator_time& t) const noexcept { return t.time / time.value; }
  // FLOP per byte of memory the step moves: inf where it moves none (an all-reduce's bytes are the link's),
  // NaN where it also computes none; hml llm shows no intensity for either.
  [[nodiscard]] constexpr arithmetic_intensity intensity() const noexcept { return flops / bytes; }
  // Memory-bound overall when the operators' memory times add up to more than their compute times.
  [[nodiscard]] constexpr limit bound() const noexcept { return detail::limit_of(link_time, memory_time, compute_time); }
};

namespace detail {

// An operator's figures added to its step's totals and time.
constexpr void add_to_totals(step_analysis& r, const operator_time& ot) noexcept {
  r.flops += ot.op.flops;
  r.weights += ot.op.weights;
  r.kv_read += ot.op.kv_read;
  r.bytes += ot.op.bytes();
  r.compute_time += ot.compute_time;
  r.memory_time += ot.memory_time;
  r.link_time += ot.link_time;
  r.overhead += ot.overhead;
  r.time.value += ot.time;
}

// An operator run `runs` times more, added to another run of it (the same operator of another micro-batch).
constexpr void add_runs(operator_time& into, const operator_time& more, std::uint64_t runs) noexcept {
  into.op = together(into.op, repeated(more.op, runs));
  into.intensity = into.op.intensity();
  const double n = static_cast<double>(runs);
  into.compute_time += n * more.compute_time;
  into.memory_time += n * more.memory_time;
  into.link_time += n * more.link_time;
  into.overhead += n * more.overhead;
  into.time += n * more.time;
  into.bound = limit_of(into.link_time, into.memory_time, into.compute_time);
}

}  // namespace detail

// One device's step of a pipeline stage (the whole model where there is no pipeline).
[[nodiscard]] constexpr step_analysis analyze_stage(const transformer& t, const step_shape& s, const machine_description& m,
                                                    const inference_options& o, const pipeline_stage& stage) {
  step_analysis r{.shape = s};
  for (const operator_cost& op : stage_operators(t, s, o, stage)) {  // which validates o
    const operator_time ot = detail::time_on_unchecked(op, m, o);
    r.operators.push_back(ot);
    detail::add_to_totals(r, ot);
  }
  return r;
}

namespace detail {

// The step for another batch (a micro-batch's).
[[nodiscard]] constexpr step_shape with_batch(step_shape s, std::uint64_t batch) noexcept {
  s.batch = batch;
  return s;
}

// A stage's time, as analyze_stage sums it, without keeping its operators.
[[nodiscard]] constexpr duration stage_time_of(const transformer& t, const step_shape& s, const machine_description& m,
                                               const inference_options& o, const pipeline_stage& stage) {
  duration r{};
  for (const operator_cost& op : stage_operators(t, s, o, stage)) r += time_on_unchecked(op, m, o).time;
  return r;
}

// A pipeline step's micro-batches: `count` of them, the first `larger` one sequence more than the others'
// `small` (the batch's sequences over the micro-batches).
struct micro_batch_split {
  std::uint64_t count = 1;
  std::uint64_t small = 1;
  std::uint64_t larger = 0;

  [[nodiscard]] constexpr std::uint64_t sequences(unsigned j) const noexcept { return j < larger ? small + 1 : small; }
};

// A pipeline step's schedule: its time, the busiest stage and that stage's work for all the micro-batches.
struct pipeline_schedule {
  micro_batch_split split{};
  duration time{};
  duration busiest_work{};
  pipeline_stage busiest{};
};

// Each kind of stage (its layers, first, last) timed once for each micro-batch size, and the schedule's time
// from those: fill and drain for a prefill, the steady state's cycle for decode. Only times are kept: a step's
// operators, copied for each kind of stage, cost a long generation more than their arithmetic.
[[nodiscard]] constexpr pipeline_schedule schedule_pipeline(const transformer& t, const step_shape& s,
                                                            const machine_description& m, const inference_options& o) {
  const unsigned stages = o.pipeline.stages;
  const std::uint64_t count = micro_batches_of(o.pipeline, s.batch);
  pipeline_schedule r{.split = {.count = count, .small = s.batch / count, .larger = s.batch % count}};
  const micro_batch_split& split = r.split;
  std::array<duration, max_pipeline_stages> small_time{}, large_time{};
  pipeline_stage previous{};
  for (unsigned i = 0; i < stages; ++i) {
    const pipeline_stage stage = stage_of(t, stages, i);
    if (i > 0 && stage == previous) {  // a middle stage like the one before it
      small_time[i] = small_time[i - 1];
      large_time[i] = large_time[i - 1];
    } else {
      small_time[i] = stage_time_of(t, with_batch(s, split.small), m, o, stage);
      if (split.larger > 0) large_time[i] = stage_time_of(t, with_batch(s, split.small + 1), m, o, stage);
    }
    previous = stage;
    const duration work = static_cast<double>(count - split.larger) * small_time[i] +
                          static_cast<double>(split.larger) * large_time[i];
    if (i == 0 || work > r.busiest_work) {
      r.busiest_work = work;
      r.busiest = stage;
    }
  }
  const auto stage_time = [&](unsigned i, unsigned j) { return j < split.larger ? large_time[i] : small_time[i]; };
  const auto hand_off = [&](unsigned j) {
    return link_time(o.pipeline.link, bytes_of(split.sequences(j) * s.new_tokens * t.hidden, o.types.activations));
  };
  // In the steady state, the micro-batches by kind: kind 0 the larger ones (where there are any), kind 1 the rest.
  const unsigned kinds = split.larger > 0 ? 2 : 1;
  const auto first_of_kind = [&](unsigned k) { return k == 0 && split.larger > 0 ? 0U : static_cast<unsigned>(split.larger); };
  const auto count_of_kind = [&](unsigned k) { return k == 0 && split.larger > 0 ? split.larger : count - split.larger; };
  r.time = s.kind == phase::prefill
               ? fill_and_drain(stages, static_cast<unsigned>(count), stage_time, hand_off)
               : steady_state_cycle(
                     stages, kinds, count_of_kind, [&](unsigned i, unsigned k) { return stage_time(i, first_of_kind(k)); },
                     [&](unsigned k) { return hand_off(first_of_kind(k)); });
  return r;
}

// The busiest stage's operators, each for all the step's micro-batches, passed to `each` in order.
template <class Each>
constexpr void busiest_stage_operators(const transformer& t, const step_shape& s, const machine_description& m,
                                       const inference_options& o, const pipeline_schedule& p, Each each) {
  const micro_batch_split& split = p.split;
  const operator_list small = stage_operators(t, with_batch(s, split.small), o, p.busiest);
  const operator_list large =
      split.larger > 0 ? stage_operators(t, with_batch(s, split.small + 1), o, p.busiest) : operator_list{};
  for (std::size_t k = 0; k < small.size(); ++k) {
    operator_time op{.op = repeated(small[k], 0)};
    add_runs(op, time_on_unchecked(small[k], m, o), split.count - split.larger);
    if (split.larger > 0) add_runs(op, time_on_unchecked(large[k], m, o), split.larger);
    each(op);
  }
}

// A step of a pipeline: the schedule's time, and the busiest stage's operators for every micro-batch. The
// step's time is what that stage waits plus those operators' times, as pipeline_step_time adds them.
[[nodiscard]] constexpr step_analysis analyze_pipeline_step(const transformer& t, const step_shape& s,
                                                            const machine_description& m, const inference_options& o) {
  const pipeline_schedule p = schedule_pipeline(t, s, m, o);
  step_analysis r{.shape = s, .pipeline_wait = p.time - p.busiest_work, .time = {p.time - p.busiest_work}};
  busiest_stage_operators(t, s, m, o, p, [&](const operator_time& op) {
    r.operators.push_back(op);
    add_to_totals(r, op);
  });
  return r;
}

// A pipeline step's time alone, to the last bit analyze_pipeline_step's, without keeping its operators.
[[nodiscard]] constexpr step_time pipeline_step_time(const transformer& t, const step_shape& s,
                                                     const machine_description& m, const inference_options& o) {
  const pipeline_schedule p = schedule_pipeline(t, s, m, o);
  step_time r{p.time - p.busiest_work};
  busiest_stage_operators(t, s, m, o, p, [&](const operator_time& op) { r.value += op.time; });
  return r;
}

}  // namespace detail

// A step on the machine: the whole model on each tensor-parallel device, or a pipeline's step.
[[nodiscard]] constexpr step_analysis analyze_step(const transformer& t, const step_shape& s,
                                                   const machine_description& m, const inference_options& o = {}) {
  if (o.pipeline.stages > 1) {
    validate(t, o);
    validate(s);  // before the batch is split into micro-batches
    return detail::analyze_pipeline_step(t, s, m, o);
  }
  return analyze_stage(t, s, m, o, whole_model(t));
}

// A step's time alone, as analyze_step gives it, without keeping its operators: a long generation in a
// constant expression, or a run of a million steps, would pay for every slot of each step's list.
[[nodiscard]] constexpr step_time step_time_of(const transformer& t, const step_shape& s, const machine_description& m,
                                               const inference_options& o = {}) {
  if (o.pipeline.stages > 1) {
    validate(t, o);
    validate(s);
    return detail::pipeline_step_time(t, s, m, o);
  }
  return {detail::stage_time_of(t, s, m, o, whole_model(t))};
}

// Where the link starts to bind: the per-direction bandwidth below which a step's link time exceeds both
// its memory and its compute time. Each device sends S bytes in k messages and receives as much: on a
// full-duplex link both at once, S / B + k latency; on a half-duplex one in turn, 2 (S / B + k latency).
// So B* = w S / (max(memory, compute) - w k latency), w = 1 full duplex, 2 half (in an expected time the
// kernels' overhead joins max(memory, compute)). Infinite when the
// latencies alone exceed them (any bandwidth binds); zero when the step sends nothing.
[[nodiscard]] constexpr data_rate binding_link_bandwidth(const step_analysis& s, const inference_options& o) {
  data_size sent{};
  double messages = 0;
  for (const operator_time& t : s.operators) {
    sent += t.op.link_sent;
    messages += t.op.link_messages;
  }
  if (sent.value() == 0) return data_rate{};
  const double ways = o.link.mode == duplex::half ? 2.0 : 1.0;
  const duration other = combine(s.memory_time, s.compute_time, overlap::full) + s.overhead;  // 0 at the bound
  const duration slack = other - ways * messages * o.link.latency;
  if (slack.value() <= 0) return data_rate::from_value(__builtin_inf());
  return ways * sent / slack;
}

// A request: `batch` sequences of `prompt` tokens, each generating `generate` tokens (the first of them by
// the prefill, the rest by decode steps over contexts prompt + 1 ... prompt + generate - 1).
// The most tokens a generation's sequences produce: each is a decode step the model runs (a trial's 2^64 - 1
// never returned). hml llm's --generate has the same bound.
inline constexpr std::uint64_t max_generated_tokens = 1'000'000;

struct generation {
  std::uint64_t batch = 1;
  std::uint64_t prompt = 1;
  std::uint64_t generate = 1;
  friend constexpr bool operator==(const generation&, const generation&) noexcept = default;
};

struct generation_analysis {
  step_time prefill{};          // time to first token
  step_time decode{};           // all decode steps
  step_time total{};
  time_per_token decode_per_token{};  // decode time over the tokens decode produced
  token_rate decode_throughput{};
  step_analysis first_decode{};
  step_analysis last_decode{};
  generation run{};  // what was analysed, which serving(r) reports on
};

[[nodiscard]] constexpr generation_analysis analyze_generation(const transformer& t, const generation& g,
                                                               const machine_description& m,
                                                               const inference_options& o = {}) {
  expects(g.batch > 0 && g.prompt > 0 && g.generate > 0, "hml: batch, prompt and generate must be >= 1");
  expects(g.generate <= max_generated_tokens, "hml: generate at most 10^6 tokens (a decode step each)");
  generation_analysis r{.run = g};
  r.prefill = analyze_step(t, prefill_step(g.batch, g.prompt), m, o).time;
  // Each step is kept only where it is the first or the last: the others' operators would cost a long
  // generation more constexpr steps than their times.
  for (std::uint64_t i = 1; i < g.generate; ++i) {
    if (i == 1) {
      r.first_decode = analyze_step(t, decode_step(g.batch, g.prompt + i), m, o);
      r.decode = r.decode + r.first_decode.time;
    } else if (i + 1 == g.generate) {
      r.last_decode = analyze_step(t, decode_step(g.batch, g.prompt + i), m, o);
      r.decode = r.decode + r.last_decode.time;
    } else {
      r.decode = r.decode + step_time_of(t, decode_step(g.batch, g.prompt + i), m, o);
    }
  }
  if (g.generate == 2) r.last_decode = r.first_decode;
  r.total = r.prefill + r.decode;
  if (g.generate > 1) {
    const tokens decoded{g.batch * (g.generate - 1)};
    r.decode_per_token = per_token(r.decode, decoded);
    r.decode_throughput = throughput(r.decode, decoded);
  }
  return r;
}

}  // namespace hml
