// Attention kernels, kernel launches and a whole Llama 3 8B measured on a GPU, against hml's models. Three
// tables:
// - FlashAttention-2's prefill and PyTorch's decode kernels beside hml's attention operators (the bound and
//   the expected time of `hml llm`), with the rate each prefill reaches on the tiles it computes; the
//   catalog's attention rate is the fastest of the longest sequences', and the report fails where it drifts;
// - a small kernel issued from Python and replayed from a CUDA graph, beside the catalog's kernel overhead;
// - the whole model's prefill and decode steps beside `hml llm`'s step model.
#include "attention_report.hpp"

#include <cstdint>
#include <string>
#include <vector>

#include "report_support.hpp"

import hml;

namespace gpu {
namespace {

struct attention_run {
  std::string phase, model, kernel;
  std::uint64_t batch = 0, tokens = 0;
  bool causal = true;
  hml::duration time{}, eager{};
};

struct step_run {
  std::string phase;
  std::uint64_t batch = 0, tokens = 0;
  hml::duration time{};
};

const hml::transformer& model_named(const std::string& name) {
  if (name == "llama-3-8b") return hml::models::llama_3_8b;
  if (name == "llama-3-70b") return hml::models::llama_3_70b;
  throw std::runtime_error("no model '" + name + "' in the catalog");
}

std::vector<attention_run> read_attention(const std::string& folder) {
  std::vector<attention_run> runs;
  for (const auto& r : read_csv(folder, "attention.csv", "phase,model,batch,tokens,kernel,causal,seconds,eager_seconds,torch").rows) {
    runs.push_back({r[0], r[1], r[4], count(r[2]), count(r[3]), r[5] == "1", number(r[6]) * hml::second,
                    number(r[7]) * hml::second});
  }
  return runs;
}

// The FLOP a prefill kernel computes: the causal tiles, or every tile without the mask.
hml::work computed_work(const attention_run& r) {
  const hml::attention_shape a = hml::attention_of(model_named(r.model));
  if (r.causal) return hml::causal_tile_work(r.batch, r.tokens, a);
  return hml::attention_prefill_fused(r.batch, r.tokens, a, hml::precision::bf16).flops;
}

// The catalog's attention rate: the fastest causal prefill over the longest sequences measured.
hml::compute_rate attention_rate_of(const std::vector<attention_run>& runs) {
  std::uint64_t longest = 0;
  for (const attention_run& r : runs)
    if (r.phase == "prefill" && r.causal && r.batch == 1 && r.tokens > longest) longest = r.tokens;
  hml::compute_rate fastest{};
  for (const attention_run& r : runs) {
    if (r.phase != "prefill" || !r.causal || r.batch != 1 || r.tokens != longest) continue;
    const hml::compute_rate rate = computed_work(r) / r.time;
    if (rate > fastest) fastest = rate;
  }
  return fastest;
}

std::string prefill_table(const std::vector<attention_run>& runs, const machine_views& on, error_summary& bound_errors,
                          error_summary& at_peak_errors, error_summary& expected_errors) {
  hml::table t{{"model", "batch", "tokens", "mask", "measured", "rate on its tiles", "bound", "error",
                "expected, every score at the peak", "error", "expected (hml llm)", "error"},
               {}};
  hml::machine_description without_rate = on.measured;  // the rule of a machine that publishes no attention rate
  without_rate.attention_rate = {};
  for (const attention_run& r : runs) {
    if (r.phase != "prefill") continue;
    const hml::operator_cost op =
        hml::attention_prefill_fused(r.batch, r.tokens, hml::attention_of(model_named(r.model)), hml::precision::bf16);
    std::vector<hml::cell> row{r.model, static_cast<double>(r.batch), static_cast<double>(r.tokens),
                               r.causal ? "causal" : "none", text(r.time), text(computed_work(r) / r.time)};
    if (r.causal) {  // hml's prefill is causal: a kernel without the mask is shown for its rate alone
      const hml::duration bound = hml::time_on(op, on.stated, options_for(hml::precision::bf16, hml::estimate::bound)).time;
      const auto expected_on = [&](const hml::machine_description& m) {
        return hml::time_on(op, m, options_for(hml::precision::bf16, hml::estimate::expected)).time;
      };
      const hml::duration expected = expected_on(on.measured), at_peak = expected_on(without_rate);
      const double bound_error = bound_errors.add(bound, r.time), at_peak_error = at_peak_errors.add(at_peak, r.time);
      const double expected_error = expected_errors.add(expected, r.time);
      row.insert(row.end(), {text(bound), percent(bound_error), text(at_peak), percent(at_peak_error), text(expected),
                             percent(expected_error)});
    } else {
      row.insert(row.end(), {"-", "-", "-", "-", "-", "-"});
    }
    t.add_row(std::move(row));
  }
  return code_block(t);
}

// Decode: one new token a sequence over its cache, as PyTorch's default kernel and FlashAttention-2 (split-KV)
// run it, against the faster of the two (an engine runs its best).
std::string decode_table(const std::vector<attention_run>& runs, const machine_views& on, error_summary& bound_errors,
                         error_summary& expected_errors) {
  hml::table t{{"model", "batch", "context", "default kernel", "FlashAttention-2", "cache read rate", "bound", "error",
                "expected (hml llm)", "error"},
               {}};
  for (const attention_run& r : runs) {
    if (r.phase != "decode" || r.kernel != "default") continue;
    const attention_run* flash = nullptr;
    for (const attention_run& f : runs) {
      if (f.phase == "decode" && f.kernel == "flash" && f.model == r.model && f.batch == r.batch && f.tokens == r.tokens) flash = &f;
    }
    const hml::duration faster = flash != nullptr && flash->time < r.time ? flash->time : r.time;
    constexpr hml::precision bf16 = hml::precision::bf16;
    const hml::operator_cost op = hml::attention_decode(r.batch, r.tokens, hml::attention_of(model_named(r.model)), bf16, bf16);
    const hml::duration bound = hml::time_on(op, on.stated, options_for(bf16, hml::estimate::bound)).time;
    const hml::duration expected = hml::time_on(op, on.measured, options_for(bf16, hml::estimate::expected)).time;
    const double bound_error = bound_errors.add(bound, faster), expected_error = expected_errors.add(expected, faster);
    t.add_row({r.model, static_cast<double>(r.batch), static_cast<double>(r.tokens), text(r.time),
               flash != nullptr ? text(flash->time) : "-", text(op.kv_read / faster), text(bound), percent(bound_error),
               text(expected), percent(expected_error)});
  }
  return code_block(t);
}

std::string launch_table(const std::string& folder, const hml::device& d) {
  hml::table t{{"issued", "a kernel's time", "catalog kernel overhead"}, {}};
  const std::string overhead = d.kernel_overhead.published() ? text(d.kernel_overhead.value) : "-";
  for (const auto& r : read_csv(folder, "launch.csv", "mode,kernels,seconds_per_kernel,torch").rows) {
    t.add_row({r[0] == "graph" ? "from a CUDA graph" : "from Python (eager)", text(number(r[2]) * hml::second), overhead});
  }
  return code_block(t);
}

std::string model_table(const std::string& folder, const machine_views& on, error_summary& bound_errors,
                        error_summary& expected_errors) {
  hml::table t{{"step", "batch", "tokens", "measured", "bound (hml llm)", "error", "expected (hml llm)", "error"}, {}};
  for (const auto& r : read_csv(folder, "model.csv", "model,phase,batch,tokens,seconds,torch").rows) {
    const step_run run{r[1], count(r[2]), count(r[3]), number(r[4]) * hml::second};
    const hml::step_shape step = run.phase == "prefill" ? hml::prefill_step(run.batch, run.tokens)
                                                        : hml::decode_step(run.batch, run.tokens);
    const hml::duration bound = bf16_step(model_named(r[0]), step, on, hml::estimate::bound).time.value;
    const hml::duration expected = bf16_step(model_named(r[0]), step, on, hml::estimate::expected).time.value;
    const double bound_error = bound_errors.add(bound, run.time), expected_error = expected_errors.add(expected, run.time);
    t.add_row({run.phase == "prefill" ? "prefill (eager)" : "decode (graph)", static_cast<double>(run.batch),
               static_cast<double>(run.tokens), text(run.time), text(bound), percent(bound_error), text(expected),
               percent(expected_error)});
  }
  return code_block(t);
}

}  // namespace

std::string attention_and_model_report(const std::string& folder, const hml::device& d, const machine_views& on) {
  const std::vector<attention_run> runs = read_attention(folder);
  const hml::compute_rate rate = attention_rate_of(runs);
  if (!d.attention_rate.published() || text(d.attention_rate.value) != text(rate)) {
    throw std::runtime_error("the catalog's attention rate of " + std::string{d.id} + " is not the measured " + text(rate));
  }
  std::string out = "#### Attention kernels (PyTorch's scaled_dot_product_attention, BF16, heads of 128)\n\n";
  error_summary prefill_bound, prefill_at_peak, prefill_expected, decode_bound, decode_expected;
  const std::string prefill = prefill_table(runs, on, prefill_bound, prefill_at_peak, prefill_expected);
  out += "Prefill under FlashAttention-2; the catalog's attention rate, " + text(rate) +
         ", is the fastest at the longest sequence.\n\n" + prefill + "\n";
  const std::string decode = decode_table(runs, on, decode_bound, decode_expected);
  out += "Decode, one new token a sequence; the errors are against the faster kernel.\n\n" + decode + "\n";
  out += "**Mean absolute error of the attention operators: prefill, expected " + prefill_expected.text() +
         " (every score at the peak: " + prefill_at_peak.text() + "), bound " + prefill_bound.text() + "; decode, expected " +
         decode_expected.text() + ", bound " + decode_bound.text() + ".**\n\n";
  out += "#### Kernel launches (an add on 1,024 floats, 2,000 in a row)\n\n" + launch_table(folder, d) + "\n";
  error_summary model_bound, model_expected;
  const std::string model = model_table(folder, on, model_bound, model_expected);
  out += "#### A whole Llama 3 8B (PyTorch, BF16, random weights)\n\n" + model + "\n";
  out += "**Mean absolute error of the whole model's steps: expected " + model_expected.text() + ", bound " +
         model_bound.text() + ".**\n";
  return out;
}

}  // namespace gpu
