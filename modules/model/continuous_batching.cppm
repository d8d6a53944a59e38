// hml.continuous_batching — a mix of requests served by continuous (in-flight) batching: requests join the
// running batch as others finish instead of waiting for a whole batch to end. All requests are queued at
// time 0 (an offline run at maximum load, as TensorRT-LLM's trtllm-bench and vLLM's benchmark_throughput
// run them).
//
// The scheduler (vLLM's default scheduler before chunked prefill, which gives waiting prompts priority):
//   - at most `concurrency` sequences run at once: the least of max_batch (vLLM's max_num_seqs), max_tokens
//     (a decode step's tokens are its sequences), the sequences whose KV cache of their whole length (the
//     mix's longest prompt + output, as an engine that reserves each request's cache up front: TensorRT-LLM's
//     "Guaranteed No Evict") fits in memory beside the weights and the activations of the largest prefill
//     step the scheduler forms, and the requests;
//   - a step with room and a request waiting is a prefill step of requests of the queue's first kind, as
//     many as there is room for and as fit in max_tokens (whole prompts: a prompt longer than max_tokens is
//     an error); the request's first token comes from it;
//   - any other step is a decode step of every running sequence, timed as hml::decode_step over their mean
//     context (rounded; attention's bytes and FLOP are linear in the context, so the mean gives their sum);
//     a sequence leaves when it has produced its tokens, and its place is free for the next step.
// Prefill and decode do not share a step (TensorRT-LLM and vLLM's V1 engine mix them: not modelled).
//
// The figures are serving benchmarks' (hml::serving's definitions), averaged over the requests: the time to
// first token from time 0 (queueing included), the time per output token (end-to-end - TTFT) / (generate -
// 1) over the requests that generate more than one, the end-to-end latency, and the output throughput,
// every request's tokens over the time the last one ends.
module;
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>
export module hml.continuous_batching;
export import hml.transformer;

export namespace hml {

// `count` requests, each `prompt` tokens in and `generate` out.
struct request_class {
  std::uint64_t count = 1;
  std::uint64_t prompt = 1;
  std::uint64_t generate = 1;
};

// The scheduler's limits, as serving engines name them; the defaults are theirs (vLLM's max_num_seqs,
// TensorRT-LLM's max_num_tokens).
struct batching_limits {
  std::uint64_t max_batch = 256;
  std::uint64_t max_tokens = 8192;
};

// What bounds the sequences that run at once.
enum class concurrency_limit { max_batch, max_tokens, memory, requests };

[[nodiscard]] constexpr std::string_view to_string(concurrency_limit l) noexcept {
  switch (l) {
    case concurrency_limit::max_batch: return "the scheduler's max batch";
    case concurrency_limit::max_tokens: return "the scheduler's max tokens a step";
    case concurrency_limit::memory: return "memory (each sequence's KV cache at its whole length)";
    case concurrency_limit::requests: return "the requests";
  }
  return "?";
}

struct continuous_batching_result {
  std::uint64_t requests = 0;
  std::uint64_t concurrency = 0;  // the most sequences at once
  concurrency_limit limited_by = concurrency_limit::requests;
  std::uint64_t prefill_steps = 0;
  std::uint64_t decode_steps = 0;
  step_time makespan{};  // until the last request ends
  step_time mean_time_to_first_token{};
  time_per_token mean_time_per_output_token{};  // 0 s where no request generates more than one token
  step_time mean_end_to_end{};
  token_rate output_throughput{};
};

// The averages as serving figures (hml::serving's fields), to set beside a serving benchmark's.
[[nodiscard]] constexpr serving_figures serving(const continuous_batching_result& r) noexcept {
  return {r.mean_time_to_first_token, r.mean_time_per_output_token, r.mean_end_to_end, r.output_throughput};
}

// The most steps one run may take (each is analysed): a mix that needs more is refused, not run for hours.
inline constexpr std::uint64_t max_batching_steps = 1'000'000;

// The fewest steps `requests` requests of `generate` tokens take: prefills of `per_prefill` prompts, then the
// tokens past each request's first, `concurrency` a decode step; each count rounded up. The scheduler checks a
// mix against max_batching_steps by it before it runs a step, and a measured-runs reader each run it is given.
[[nodiscard]] constexpr std::uint64_t fewest_batching_steps(std::uint64_t requests, std::uint64_t generate,
                                                            std::uint64_t per_prefill, std::uint64_t concurrency) {
  expects(generate >= 1 && per_prefill >= 1 && concurrency >= 1,
          "hml: the fewest steps need generate, prompts a prefill and concurrency >= 1");
  std::uint64_t decoded = 0;  // the tokens past each request's first
  expects(!__builtin_mul_overflow(requests, generate - 1, &decoded), "hml: requests x generate tokens are too many to count");
  return detail::ceil_div(requests, per_prefill) + detail::ceil_div(decoded, concurrency);
}

[[nodiscard]] constexpr continuous_batching_result continuous_batching(const transformer& t,
                                                                       std::span<const request_class> mix,
                                                                       const batching_limits& limits,
                                                                       const machine_description& m,
                                                                       const inference_options& o = {}) {
  expects(!mix.empty(), "hml: a request mix needs at least one kind of request");
  expects(limits.max_batch >= 1 && limits.max_tokens >= 1, "hml: max batch and max tokens must be >= 1");
  continuous_batching_result r{};
  std::uint64_t longest = 0, output_tokens = 0, multi_token_requests = 0;
  for (const request_class& c : mix) {
    expects(c.count >= 1 && c.prompt >= 1 && c.generate >= 1, "hml: requests, prompt and generate must be >= 1");
    expects(c.prompt <= limits.max_tokens,
            "hml: a prompt longer than max tokens a step needs chunked prefill, which this scheduler does not do");
    validate_counts(t, c.count, c.prompt, c.prompt + c.generate);
    validate_context(t, c.prompt + c.generate);
    r.requests += c.count;
    output_tokens += c.count * c.generate;
    if (c.generate > 1) multi_token_requests += c.count;
    if (c.prompt + c.generate > longest) longest = c.prompt + c.generate;
  }
  // The sequences at once, and what bounds them (the first of equals, in this order).
  r.concurrency = limits.max_batch;
  r.limited_by = concurrency_limit::max_batch;
  const auto bound = [&](std::uint64_t most, concurrency_limit why) {
    if (most < r.concurrency) r.concurrency = most, r.limited_by = why;
  };
  bound(limits.max_tokens, concurrency_limit::max_tokens);
  // The most prompts of each kind a prefill step takes: as many whole prompts as max tokens holds, of the
  // kind's requests, at most max batch, and no more than leave room for as many sequences' caches.
  std::vector<std::uint64_t> prefill_cap;
  for (const request_class& c : mix) prefill_cap.push_back(std::min({limits.max_tokens / c.prompt, c.count, limits.max_batch}));
  if (main_memory(m).capacity.published()) {
    // Beside the weights, the activations of the largest prefill step (a decode step's are far smaller),
    // then each sequence's cache; under data-parallel attention each device holds its share of them.
    const double devices = o.experts.data_parallel_attention ? static_cast<double>(o.tensor_parallel) : 1.0;
    const data_size usable = usable_memory(m, o), per_sequence = kv_cache_size(t, 1, longest, o);
    const auto fitting = [&](data_size weights_and_activations) {  // sequences whose caches fit beside them
      const data_size room = usable - weights_and_activations;
      return room > data_size{} ? devices * (room / per_sequence) : 0.0;
    };
    const auto prefill_memory = [&](std::uint64_t prompts, std::uint64_t prompt) {
      const memory_use step = memory_needed(t, prompts, prompt, o);
      return step.weights + step.activations;
    };
    data_size fixed{};  // the weights, and the activations of the largest prefill step
    for (std::size_t i = 0; i < mix.size(); ++i) {
      // The largest count up to the cap whose step leaves room for as many sequences (the room falls as it
      // grows), or one.
      std::uint64_t low = 1, high = prefill_cap[i];
      while (low < high) {
        const std::uint64_t middle = low + (high - low + 1) / 2;
        if (fitting(prefill_memory(middle, mix[i].prompt)) >= static_cast<double>(middle)) {
          low = middle;
        } else {
          high = middle - 1;
        }
      }
      prefill_cap[i] = low;
      fixed = std::max(fixed, prefill_memory(low, mix[i].prompt));
    }
    const double fit = fitting(fixed);
    expects(fit >= 1, "hml: one sequence of the mix's longest length does not fit in memory");
    if (fit < static_cast<double>(r.concurrency)) bound(static_cast<std::uint64_t>(fit), concurrency_limit::memory);
  }
  bound(r.requests, concurrency_limit::requests);
  // The fewest steps the mix can take (prefills as full as the limits allow, decode steps of `concurrency`
  // sequences), checked before any is run: a mix past the bound is refused at once.
  std::uint64_t fewest_steps = 0;
  for (std::size_t i = 0; i < mix.size(); ++i) {
    fewest_steps += fewest_batching_steps(mix[i].count, mix[i].generate, std::min(r.concurrency, prefill_cap[i]), r.concurrency);
  }
  // Said of what holds the sequences at once: a larger batch cannot help where memory holds fewer.
  const char* const too_many_steps =
      r.limited_by == concurrency_limit::memory
          ? "hml: the request mix needs more than 10^6 steps at the sequences memory holds at once; give fewer requests, or more memory"
          : "hml: the request mix needs more than 10^6 steps; give fewer requests, or a larger batch or max tokens";
  expects(fewest_steps <= max_batching_steps, too_many_steps);

  // Requests admitted in one prefill step run in step with each other: a cohort.
  struct cohort {
    std::uint64_t size, prompt, generate, produced;
    duration first_token;
  };
  std::vector<cohort> running;
  std::uint64_t sequences = 0;
  std::size_t next_kind = 0;
  std::uint64_t waiting_of_kind = mix[0].count;
  duration now{}, ttft_sum{}, e2e_sum{}, tpot_sum{};
  const auto finish = [&](const cohort& c) {
    e2e_sum = e2e_sum + now * static_cast<double>(c.size);
    if (c.generate > 1) tpot_sum = tpot_sum + (now - c.first_token) * (static_cast<double>(c.size) / static_cast<double>(c.generate - 1));
  };
  while (waiting_of_kind > 0 || !running.empty()) {
    expects(r.prefill_steps + r.decode_steps < max_batching_steps, too_many_steps);
    const request_class& kind = mix[next_kind];
    if (waiting_of_kind > 0 && sequences < r.concurrency) {
      std::uint64_t admitted = r.concurrency - sequences;
      if (waiting_of_kind < admitted) admitted = waiting_of_kind;
      if (prefill_cap[next_kind] < admitted) admitted = prefill_cap[next_kind];
      now = now + step_time_of(t, prefill_step(admitted, kind.prompt), m, o).value;
      ++r.prefill_steps;
      ttft_sum = ttft_sum + now * static_cast<double>(admitted);
      const cohort c{admitted, kind.prompt, kind.generate, 1, now};
      if (c.generate == 1) {
        finish(c);
      } else {
        running.push_back(c);
        sequences += admitted;
      }
      waiting_of_kind -= admitted;
      while (waiting_of_kind == 0 && next_kind + 1 < mix.size()) waiting_of_kind = mix[++next_kind].count;
      continue;
    }
    std::uint64_t context_sum = 0;
    for (const cohort& c : running) context_sum += c.size * (c.prompt + c.produced);
    const std::uint64_t mean_context = (context_sum + sequences / 2) / sequences;
    now = now + step_time_of(t, decode_step(sequences, mean_context), m, o).value;
    ++r.decode_steps;
    std::erase_if(running, [&](cohort& c) {
      if (++c.produced < c.generate) return false;
      finish(c);
      sequences -= c.size;
      return true;
    });
  }
  const auto requests = static_cast<double>(r.requests);
  r.makespan = {now};
  r.mean_time_to_first_token = {ttft_sum / requests};
  r.mean_end_to_end = {e2e_sum / requests};
  if (multi_token_requests > 0) r.mean_time_per_output_token = {tpot_sum / static_cast<double>(multi_token_requests)};
  r.output_throughput = throughput(r.makespan, tokens{output_tokens});
  return r;
}

}  // namespace hml
