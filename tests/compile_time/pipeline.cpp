// Pipeline parallelism at compile time: the two schedules against their closed forms (GPipe's and
// Megatron-LM's bubble), vLLM's split of the layers, and a transformer's steps and memory on a pipeline,
// each against its stages timed one by one.
#include <cstdint>

import hml;

namespace {

using namespace hml::literals;
namespace devices = hml::devices;
namespace models = hml::models;

constexpr bool near(double a, double b, double tolerance) { return a > b * (1 - tolerance) && a < b * (1 + tolerance); }

// --- The schedules ---------------------------------------------------------------------------------------

// p equal stages of t, m micro-batches, hand-offs of h.
constexpr hml::duration t = 1_ms;
constexpr auto equal = [](unsigned, unsigned) { return t; };
constexpr auto instant = [](unsigned) { return hml::duration{}; };
constexpr auto hand_off = [](unsigned) { return 0.1_ms; };

// Fill and drain: (m + p - 1) t, of which the bubble, (p - 1) t, is (p - 1) / m of the ideal m t (Narayanan
// et al., SC 2021, section 2.2.1: 4 stages, 8 micro-batches, 3/8).
static_assert(near(hml::fill_and_drain(4, 8, equal, instant) / 1_ms, 11, 1e-12));
static_assert(near((hml::fill_and_drain(4, 8, equal, instant) - 8 * t) / (8 * t), 3.0 / 8, 1e-12));
// Each micro-batch also waits for its p - 1 hand-offs, once: m t + (p - 1)(t + h).
static_assert(near(hml::fill_and_drain(4, 8, equal, hand_off) / 1_ms, 8 + 3 * 1.1, 1e-12));
// One stage is no pipeline: the micro-batches one after another.
static_assert(near(hml::fill_and_drain(1, 8, equal, hand_off) / 1_ms, 8, 1e-12));

// Steady state: the longer of a round trip (p t + (p - 1) h) and a stage's work for all (m t). Fewer
// micro-batches than stages leave stages idle; from m = p on there is no bubble.
static_assert(near(hml::steady_state_cycle(4, 2, equal, hand_off) / 1_ms, 4 + 3 * 0.1, 1e-12));
static_assert(near(hml::steady_state_cycle(4, 4, equal, instant) / 1_ms, 4, 1e-12));
static_assert(near(hml::steady_state_cycle(4, 8, equal, hand_off) / 1_ms, 8, 1e-12));
// A slower stage sets the pace: its work for every micro-batch.
static_assert(near(hml::steady_state_cycle(4, 8, [](unsigned s, unsigned) { return s == 2 ? 2_ms : 1_ms; }, instant) / 1_ms, 16, 1e-12));

// --- The stages of a transformer ---------------------------------------------------------------------------

// vLLM's split (vllm/distributed/utils.py, get_pp_indices): the remainder a layer each to the stages before
// the last, from the last but one back. Its documented 61 layers over 4 stages: 15, 15, 16, 15.
constexpr hml::transformer sixty_one = [] {
  hml::transformer m = models::llama_2_7b;
  m.layers = 61;
  return m;
}();
static_assert(hml::stage_of(sixty_one, 4, 0).layers == 15 && hml::stage_of(sixty_one, 4, 1).layers == 15 &&
              hml::stage_of(sixty_one, 4, 2).layers == 16 && hml::stage_of(sixty_one, 4, 3).layers == 15);
static_assert(hml::stage_of(sixty_one, 4, 0).first && !hml::stage_of(sixty_one, 4, 0).last &&
              hml::stage_of(sixty_one, 4, 3).last && !hml::stage_of(sixty_one, 4, 3).first);
// 7 over 4: 2, 2, 2, 1.
constexpr hml::transformer seven = [] {
  hml::transformer m = models::llama_2_7b;
  m.layers = 7;
  return m;
}();
static_assert(hml::stage_of(seven, 4, 0).layers == 2 && hml::stage_of(seven, 4, 2).layers == 2 &&
              hml::stage_of(seven, 4, 3).layers == 1);

// The stages hold every parameter once; a tied LM head is the embedding, held by the first and the last.
constexpr std::uint64_t over_stages(const hml::transformer& m, unsigned stages) {
  std::uint64_t sum = 0;
  for (unsigned i = 0; i < stages; ++i) sum += hml::stage_parameters(m, hml::stage_of(m, stages, i));
  return sum;
}
static_assert(over_stages(models::llama_2_70b, 4) == hml::parameters(models::llama_2_70b));
static_assert(over_stages(sixty_one, 4) == hml::parameters(sixty_one));
static_assert(models::gpt2_xl.tied_embeddings &&
              over_stages(models::gpt2_xl, 2) == hml::parameters(models::gpt2_xl) + models::gpt2_xl.vocab * models::gpt2_xl.hidden);

// --- Steps on a pipeline ----------------------------------------------------------------------------------

// Llama 2 70B in FP16 over 2 stages of one H100 each (40 layers each), hand-offs over a 50 GB/s link with
// 5 us latency (an InfiniBand NDR port's 400 Gb/s).
constexpr auto& h100 = devices::h100_sxm;
constexpr auto& llama = models::llama_2_70b;
constexpr hml::link between{50_GBps, 5_us};
constexpr hml::inference_options two_stages{.pipeline = {.stages = 2, .link = between}};
constexpr hml::pipeline_stage first = hml::stage_of(llama, 2, 0);
constexpr hml::pipeline_stage last = hml::stage_of(llama, 2, 1);
// One sequence's hidden state, 8192 FP16 elements.
constexpr hml::duration one_hand_off = hml::link_time(between, 8192 * 2_B);

// Batch 1 is one micro-batch: a decode step is its round trip, each stage and the hand-off between them; the
// rows are the last stage's (the LM head's), which waits for the first and the hand-off.
constexpr hml::step_analysis decode_1 = hml::analyze_step(llama, hml::decode_step(1, 1024), h100, two_stages);
constexpr hml::step_analysis first_1 = hml::analyze_stage(llama, hml::decode_step(1, 1024), h100, two_stages, first);
constexpr hml::step_analysis last_1 = hml::analyze_stage(llama, hml::decode_step(1, 1024), h100, two_stages, last);
static_assert(near(decode_1.time.value / 1_ms, (first_1.time.value + one_hand_off + last_1.time.value) / 1_ms, 1e-12));
static_assert(last_1.time.value > first_1.time.value && decode_1.weights == last_1.weights);
static_assert(near(decode_1.pipeline_wait / 1_ms, (first_1.time.value + one_hand_off) / 1_ms, 1e-12));
// Two stages of half the model each: the same step as on one device but for the hand-off (the operators
// are timed alike; the stages' sum is the whole model's).
constexpr hml::step_analysis whole_1 = hml::analyze_step(llama, hml::decode_step(1, 1024), h100);
static_assert(near((decode_1.time.value - one_hand_off) / 1_ms, whole_1.time.value / 1_ms, 1e-12));

// Batch 64 in 2 micro-batches of 32 (one a stage): in steady state the busier stage runs both micro-batches
// back to back, and nothing waits.
constexpr hml::step_analysis decode_64 = hml::analyze_step(llama, hml::decode_step(64, 1024), h100, two_stages);
constexpr hml::step_analysis last_32 = hml::analyze_stage(llama, hml::decode_step(32, 1024), h100, two_stages, last);
static_assert(decode_64.pipeline_wait == hml::duration{} && near(decode_64.time.value / 1_ms, 2 * last_32.time.value / 1_ms, 1e-12));
static_assert(decode_64.flops == 2 * last_32.flops && decode_64.weights == 2 * last_32.weights);
// The weights are read once a micro-batch: a pipeline's decode step reads each stage's twice.
static_assert(decode_64.weights == 2 * hml::analyze_stage(llama, hml::decode_step(64, 1024), h100, two_stages, last).weights);

// A prefill step fills and drains: the first stage's first micro-batch, a hand-off, then the last stage
// runs both (it is the busier). 4 sequences of 512 tokens in 2 micro-batches of 2.
constexpr hml::step_analysis prefill_4 = hml::analyze_step(llama, hml::prefill_step(4, 512), h100, two_stages);
constexpr hml::step_analysis first_2 = hml::analyze_stage(llama, hml::prefill_step(2, 512), h100, two_stages, first);
constexpr hml::step_analysis last_2 = hml::analyze_stage(llama, hml::prefill_step(2, 512), h100, two_stages, last);
static_assert(near(prefill_4.time.value / 1_ms,
                   (first_2.time.value + hml::link_time(between, 2 * 512 * 8192 * 2_B) + 2 * last_2.time.value) / 1_ms, 1e-12));

// Micro-batches that do not divide the batch: 5 sequences in 2 micro-batches, of 3 and 2.
constexpr hml::step_analysis decode_5 = hml::analyze_step(llama, hml::decode_step(5, 1024), h100, two_stages);
static_assert(decode_5.flops == hml::analyze_stage(llama, hml::decode_step(3, 1024), h100, two_stages, last).flops +
                                    hml::analyze_stage(llama, hml::decode_step(2, 1024), h100, two_stages, last).flops);
static_assert(decode_5.produced().count == 5);

// A step's time alone (a generation's middle steps) is the analysed step's to the last bit, with micro-batches
// of two sizes and without, for a prefill and for decode.
static_assert(hml::step_time_of(llama, hml::decode_step(5, 1024), h100, two_stages).value == decode_5.time.value);
static_assert(hml::step_time_of(llama, hml::decode_step(64, 1024), h100, two_stages).value == decode_64.time.value);
static_assert(hml::step_time_of(llama, hml::prefill_step(4, 512), h100, two_stages).value == prefill_4.time.value);

// --- Memory and the ridge ----------------------------------------------------------------------------------

// Each device holds its stage's weights and its layers' KV cache: 70B in FP16 does not fit one 80 GB H100,
// and fits two stages.
static_assert(!hml::fits(llama, 1, 4096, h100) && hml::fits(llama, 1, 4096, h100, two_stages));
static_assert(hml::memory_needed(llama, 1, 4096, two_stages).weights ==
              static_cast<double>(hml::stage_parameters(llama, last)) * 2_B);
static_assert(hml::kv_cache_size(llama, 8, 4096, two_stages) * 2 == hml::kv_cache_size(llama, 8, 4096));

// Decode turns compute-bound when each micro-batch does: at the stages (micro-batches) times one's ridge.
static_assert(hml::ridge_batch(llama, 1024, h100, two_stages).batch() == 2 * hml::ridge_batch(llama, 1024, h100).batch());

}  // namespace
