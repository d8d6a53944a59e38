// hml.pipeline — micro-batches through a pipeline of stages: each stage a device (or a tensor-parallel group)
// that holds a contiguous part of the work, each micro-batch handed from a stage to the next. Two schedules:
//   - fill and drain (GPipe's forward pass: Huang et al., "GPipe", NeurIPS 2019): a step's m micro-batches
//     enter an empty pipeline one after another, and the step ends when the last leaves the last stage. Stage
//     s starts micro-batch j once it has finished j - 1 and j has arrived from stage s - 1. With p equal
//     stages of time t and no hand-off time that is (m + p - 1) t, of which (p - 1) t is the bubble: (p - 1) / m
//     of the ideal m t (Narayanan et al., "Efficient Large-Scale Language Model Training on GPU Clusters Using
//     Megatron-LM", SC 2021, section 2.2.1).
//   - steady state (a serving engine's decode: a micro-batch starts its next step once its token has left the
//     last stage, as vLLM's virtual engines, one a stage, run): every micro-batch passes once in the longer of
//     its round trip (every stage and hand-off) and the busiest stage's work for all of them. For equal stages
//     max(p t, m t): no bubble from m = p micro-batches on. These are the two kinds of cycle of the schedule
//     (a stage's, a micro-batch's); for unequal micro-batches the longest of each kind is taken.
module;
#include <array>
#include <cstddef>
export module hml.pipeline;
export import hml.units;

export namespace hml {

inline constexpr unsigned max_pipeline_stages = 64;

constexpr void validate_pipeline(unsigned stages, unsigned micro_batches) {
  expects(stages >= 1 && stages <= max_pipeline_stages, "hml: a pipeline has 1 to 64 stages");
  expects(micro_batches >= 1, "hml: a pipeline runs at least one micro-batch");
}

// The fill-and-drain schedule's time: `stage_time(s, j)` is stage s's time for micro-batch j, `hand_off(j)`
// the time micro-batch j takes from one stage to the next.
template <class StageTime, class HandOff>
[[nodiscard]] constexpr duration fill_and_drain(unsigned stages, unsigned micro_batches, StageTime stage_time,
                                                HandOff hand_off) {
  validate_pipeline(stages, micro_batches);
  std::array<duration, max_pipeline_stages> done{};  // when each stage finished its latest micro-batch
  for (unsigned j = 0; j < micro_batches; ++j) {
    duration arrived{};
    for (unsigned s = 0; s < stages; ++s) {
      const duration start = done[s] > arrived ? done[s] : arrived;
      done[s] = start + stage_time(s, j);
      arrived = done[s] + hand_off(j);
    }
  }
  return done[stages - 1];
}

// The steady state's time for every micro-batch to pass once: the longest round trip (its stages and the
// p - 1 hand-offs between them) or the busiest stage's work, whichever is longer. The micro-batches come in
// `kinds` kinds, `count(k)` alike of kind k (a batch split into micro-batches has two sizes at most), so that
// a step costs stages x kinds, not stages x micro-batches: `stage_time(s, k)` and `hand_off(k)` are one of
// kind k's.
template <class Count, class StageTime, class HandOff>
[[nodiscard]] constexpr duration steady_state_cycle(unsigned stages, unsigned kinds, Count count, StageTime stage_time,
                                                    HandOff hand_off) {
  validate_pipeline(stages, kinds);
  duration longest{};
  for (unsigned k = 0; k < kinds; ++k) {
    duration round_trip = static_cast<double>(stages - 1) * hand_off(k);
    for (unsigned s = 0; s < stages; ++s) round_trip += stage_time(s, k);
    if (round_trip > longest) longest = round_trip;
  }
  for (unsigned s = 0; s < stages; ++s) {
    duration work{};
    for (unsigned k = 0; k < kinds; ++k) work += static_cast<double>(count(k)) * stage_time(s, k);
    if (work > longest) longest = work;
  }
  return longest;
}

// The same with every micro-batch a kind of its own: `stage_time(s, j)`, `hand_off(j)` of micro-batch j.
template <class StageTime, class HandOff>
[[nodiscard]] constexpr duration steady_state_cycle(unsigned stages, unsigned micro_batches, StageTime stage_time,
                                                    HandOff hand_off) {
  return steady_state_cycle(stages, micro_batches, [](unsigned) { return 1U; }, stage_time, hand_off);
}

}  // namespace hml
