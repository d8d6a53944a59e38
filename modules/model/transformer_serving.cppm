// hml.transformer:serving — serving figures as benchmarks define them, chunked prefill, speculative
// decoding and the ridge batch, from a step's time.
module;
#include <algorithm>
#include <array>
#include <compare>
#include <cstddef>
#include <cstdint>
#include <string_view>
export module hml.transformer:serving;
import hml.operators;
import hml.analysis;
import hml.link;
import hml.pipeline;
import :model;
import :steps;
import :time;

export namespace hml {

// --- Serving figures ---------------------------------------------------------------------------------

// A generation as serving benchmarks report it, for `g.batch` requests that start together and run as one
// batch (no queue, no continuous batching), each with g.prompt tokens in and g.generate out. The
// definitions are vLLM's benchmarks/benchmark_serving.py (SGLang's bench_serving follows them): the time to
// first token is the prefill; the time per output token is per request, excluding the first token,
// (end-to-end latency - TTFT) / (output tokens - 1), not the decode time over every token of the batch;
// the end-to-end latency is the prefill and every decode step; the output throughput is every token the
// batch produced (batch x generate, the first tokens included) over the end-to-end latency.
struct serving_figures {
  step_time time_to_first_token{};
  time_per_token time_per_output_token{};  // 0 s where one token is generated (vLLM reports none)
  step_time end_to_end{};
  token_rate output_throughput{};
};

namespace detail {
[[nodiscard]] constexpr std::uint64_t tokens_produced(const generation& g) {
  expects(g.batch > 0 && g.prompt > 0 && g.generate > 0, "hml: batch, prompt and generate must be >= 1");
  std::uint64_t produced = 0;
  expects(!__builtin_mul_overflow(g.batch, g.generate, &produced), "hml: batch x generate tokens are too many to count");
  return produced;
}
}  // namespace detail

// The serving figures of the generation `r` analysed (r.run).
[[nodiscard]] constexpr serving_figures serving(const generation_analysis& r) {
  const std::uint64_t produced = detail::tokens_produced(r.run);
  serving_figures s{.time_to_first_token = r.prefill, .end_to_end = r.total};
  if (r.run.generate > 1) s.time_per_output_token = per_token(r.decode, tokens{r.run.generate - 1});
  s.output_throughput = throughput(r.total, tokens{produced});
  return s;
}

// The same, given the generation again: it must be the one analysed, since another (an edited copy) would
// spread r's decode time over its own tokens.
[[nodiscard]] constexpr serving_figures serving(const generation_analysis& r, const generation& g) {
  (void)detail::tokens_produced(g);
  expects(g == r.run, "hml: serving's generation is not the one analysed (batch, prompt and generate differ); "
                      "give the same, or call serving(r)");
  return serving(r);
}

// --- Chunked prefill -------------------------------------------------------------------------------------

// A prompt prefilled `chunk` tokens a step (vLLM's and SGLang's chunked prefill, which keeps a long prompt
// from stalling the batch's decode steps): the first chunk a prefill step of its own tokens, each later
// one its tokens attending to the cache of all before them and to each other (decode attention over
// several queries). Each step reads the weights again, so chunks too small to keep the GEMMs compute-bound
// cost more in all; a chunk as long as the prompt is the plain prefill. A chunk's queries see only the
// keys before them and their own, the causal saving that the plain prefill's convention (every query
// against every key) does not take: large chunks can come out a little faster than the prefill at once.
// The other requests' decode tokens a server mixes into each step are not modelled here.
struct chunked_prefill_time {
  step_time time{};  // the time to first token
  std::uint64_t steps = 0;
};

// The most steps a chunked prefill takes: each is analysed, so that a run stays within seconds.
inline constexpr std::uint64_t max_prefill_chunks = 1'000'000;

constexpr void validate_chunking(std::uint64_t prompt, std::uint64_t chunk) {
  expects(prompt > 0 && chunk > 0, "hml: prompt and chunk must be >= 1");
  expects(detail::ceil_div(prompt, chunk) <= max_prefill_chunks,
          "hml: a chunked prefill takes at most 1000000 steps (the prompt over the chunk); give a larger chunk");
}

[[nodiscard]] constexpr chunked_prefill_time chunked_prefill(const transformer& t, std::uint64_t batch,
                                                              std::uint64_t prompt, std::uint64_t chunk,
                                                              const machine_description& m,
                                                              const inference_options& o = {}) {
  expects(batch > 0, "hml: batch must be >= 1");
  validate_chunking(prompt, chunk);
  chunked_prefill_time r{};
  for (std::uint64_t done = 0; done < prompt; done += chunk) {
    const std::uint64_t now = prompt - done < chunk ? prompt - done : chunk;
    const step_shape shape = done == 0 ? prefill_step(batch, now) : step_shape{phase::decode, batch, now, done + now};
    r.time = r.time + step_time_of(t, shape, m, o);
    ++r.steps;
  }
  return r;
}

// --- Speculative decoding ------------------------------------------------------------------------------

// Speculative decoding (Leviathan, Kalman and Matias, "Fast Inference from Transformers via Speculative
// Decoding", ICML 2023; Chen et al., arXiv:2302.01318): a small draft model proposes `lookahead` tokens one
// decode step at a time, the target verifies them and one more in one step, and keeps the drafted tokens up
// to the first it rejects plus one of its own. With each drafted token accepted with probability
// `acceptance` (alpha) independently, a step yields (1 - alpha^(gamma + 1)) / (1 - alpha) tokens on
// average (gamma + 1 where every token is accepted): the paper's Theorem 3.8.
// The most tokens a draft proposes a step: each is a decode step of the draft, and past a few the gain has
// gone at any acceptance short of 1 (0.9^65 < 0.001). The bound keeps every loop over them short.
inline constexpr unsigned max_lookahead = 64;

[[nodiscard]] constexpr double expected_tokens_per_step(double acceptance, unsigned lookahead) {
  expects(acceptance >= 0 && acceptance <= 1, "hml: the acceptance rate must be within [0, 1]; give the share of the draft's tokens the target accepts, as 0.8");
  expects(lookahead >= 1 && lookahead <= max_lookahead, "hml: speculative decoding drafts 1 to 64 tokens a step");
  double power = 1;  // alpha^(gamma + 1)
  for (unsigned k = 0; k <= lookahead; ++k) power *= acceptance;
  return acceptance == 1 ? lookahead + 1.0 : (1 - power) / (1 - acceptance);
}

// One speculative step of a batch at `context` tokens: the draft's `lookahead` decode steps, the target's
// verifying step, and what they give per output token against the target's plain decode step. The paper
// takes the verifying step as long as a decode step (its c is the draft's step over the target's); hml
// times it (its attention runs gamma + 1 queries, its GEMMs gamma + 1 rows a sequence).
struct speculative_step {
  step_time draft{};   // the draft's steps, all of them
  step_time verify{};  // the target's step over gamma + 1 tokens a sequence
  step_time plain{};   // the target's plain decode step, for comparison
  double tokens_per_step = 0;  // per sequence, on average
  time_per_token per_output_token{};

  [[nodiscard]] constexpr step_time total() const noexcept { return {draft.value + verify.value}; }
  // How much faster than plain decode (below 1: slower).
  [[nodiscard]] constexpr double speedup() const {
    expects(per_output_token.value.value() > 0 && plain.value.value() <= largest_finite,
            "hml: a speed-up needs a speculative step's times (speculative_decoding's), not zeros");
    return plain.value / per_output_token.value;
  }
};

[[nodiscard]] constexpr speculative_step speculative_decoding(const transformer& target, const transformer& draft,
                                                              std::uint64_t batch, std::uint64_t context,
                                                              unsigned lookahead, double acceptance,
                                                              const machine_description& m,
                                                              const inference_options& o = {}) {
  expects(draft.vocab == target.vocab, "hml: the draft model must share the target's vocabulary");
  speculative_step r{.tokens_per_step = expected_tokens_per_step(acceptance, lookahead)};
  for (unsigned k = 0; k < lookahead; ++k) r.draft = r.draft + step_time_of(draft, decode_step(batch, context + k), m, o);
  r.verify = step_time_of(target, verify_step(batch, lookahead, context + lookahead), m, o);
  r.plain = step_time_of(target, decode_step(batch, context), m, o);
  r.per_output_token = {r.total().value / r.tokens_per_step};  // each sequence's tokens, on average
  return r;
}

// --- The ridge batch ---------------------------------------------------------------------------------

// Where decode turns compute-bound: a batch, or never. Not a number, so that `ridge > 64` does not compile
// and an infinity cannot pass a comparison unseen: ask reached(), then batch(), which for a ridge never
// reached is an error (in a static_assert, a compile error).
class decode_ridge {
public:
  [[nodiscard]] static constexpr decode_ridge never() noexcept { return decode_ridge{}; }
  constexpr explicit decode_ridge(double batch) : batch_{batch}, reached_{true} {
    expects(batch >= 0 && batch < __builtin_inf(), "hml: a ridge batch is finite and >= 0; else it is never()");
  }
  [[nodiscard]] constexpr bool reached() const noexcept { return reached_; }
  [[nodiscard]] constexpr double batch() const {
    expects(reached_, "hml: decode never turns compute-bound here: the ridge has no batch (ask reached() first)");
    return batch_;
  }
  friend constexpr bool operator==(const decode_ridge&, const decode_ridge&) = default;
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wc++26-extensions"  // `= delete("reason")` is C++26; clang takes it in C++20
  // Read as a number, compared with one: refused with the way to ask.
  operator double() const = delete("hml: a decode ridge is a batch or never, not a number: ask ridge.reached(), then "
                                   "read ridge.batch()");
#pragma clang diagnostic pop

private:
  constexpr decode_ridge() = default;
  double batch_ = 0;
  bool reached_ = false;
};

// The batch at which a decode step over `context` tokens turns compute-bound overall: its compute time and
// its memory time (sums over the operators) are both affine in the batch, C(b) = C0 + c b and
// M(b) = M0 + m b (weights are read once whatever the batch; activations, KV cache and FLOP grow with it),
// so they meet at b* = (M0 - C0) / (c - m). Read off the library's own step at b = 1 and b = 2. Never
// when the step never turns (c <= m: the KV cache grows as fast as the compute, as at long contexts).
// With only the weights counted this is llm-analysis's pivot, peak x |w| / (2 bandwidth).
// A mixture of experts reads more experts' weights as the batch grows until every expert is touched, at
// batch experts / active: the affine form holds from there, and below it the first compute-bound batch is
// searched for. It is the bound's ridge whatever `o.estimate` says (tiles make the compute time a staircase).
// Of a pipeline, each micro-batch's ridge, the whole model's on one stage group, times the micro-batches (a
// stage's own ridge differs from the model's only by its share of the embedding and the LM head).
[[nodiscard]] constexpr decode_ridge ridge_batch(const transformer& t, std::uint64_t context, const machine_description& m,
                                                 inference_options o = {}) {
  o.estimate = estimate::bound;
  validate(t, o);  // before the experts are divided by the active ones
  if (o.pipeline.stages > 1) {
    const auto micro_batches = static_cast<double>(micro_batches_asked(o.pipeline));
    o.pipeline = {};
    const decode_ridge each = ridge_batch(t, context, m, o);
    return each.reached() ? decode_ridge{each.batch() * micro_batches} : each;
  }
  // Under data-parallel attention a device's sequences grow one in n batches: the affine form is read off
  // batches that each device divides.
  const std::uint64_t every = o.experts.data_parallel_attention ? o.tensor_parallel : 1;
  const std::uint64_t from = detail::ceil_div(t.experts > 1 ? detail::ceil_div(t.experts, t.active_experts) : 1, every) * every;
  const step_analysis one = analyze_step(t, decode_step(from, context), m, o);
  const step_analysis two = analyze_step(t, decode_step(from + every, context), m, o);
  const double c = (two.compute_time - one.compute_time).value() / static_cast<double>(every);
  const double mem = (two.memory_time - one.memory_time).value() / static_cast<double>(every);
  const double b = static_cast<double>(from);
  const double c0 = one.compute_time.value() - c * b;
  const double m0 = one.memory_time.value() - mem * b;
  if (c <= mem) return decode_ridge::never();
  const double ridge = std::max((m0 - c0) / (c - mem), 0.0);  // below 0: compute-bound at any batch
  if (t.experts == 1 || ridge >= b) return decode_ridge{ridge};
  for (std::uint64_t batch = 1; batch < from; ++batch) {
    if (analyze_step(t, decode_step(batch, context), m, o).bound() == limit::compute) {
      return decode_ridge{static_cast<double>(batch)};
    }
  }
  return decode_ridge{b};
}

}  // namespace hml
