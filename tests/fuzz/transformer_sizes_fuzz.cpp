// libFuzzer target: hml.transformer on arbitrary sizes, as `hml llm --layers ... --batch ...` hands them
// over. The input is whitespace-separated integers: layers hidden ffn heads kv_heads head_dim vocab batch
// prompt tensor_parallel device weights activations kv_cache (the last four index the catalog's devices and
// hml::all_precisions), and a fifteenth, if given, for a GPT-style block: bit 0 biases, bit 1 LayerNorm,
// the rest the learned positions (0: rotary). Either the model refuses the sizes with std::invalid_argument, or every time,
// size and ridge it returns is a number (finite, >= 0; the ridge a batch or never) and the step's time is
// the sum of its operators'; anything else (a crash, an overflow caught by the sanitizers, a NaN) is a
// finding.
#include <charconv>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <string_view>

import hml;

namespace {

using namespace hml::literals;

bool read_numbers(std::string_view text, std::uint64_t (&out)[15]) {
  std::size_t at = 0;
  for (std::size_t i = 0; i < 15; ++i) {
    std::uint64_t& value = out[i];
    while (at < text.size() && (text[at] == ' ' || text[at] == '\n' || text[at] == '\t')) ++at;
    if (i == 14 && at == text.size()) return true;  // the GPT-style bits are optional
    const auto [end, error] = std::from_chars(text.data() + at, text.data() + text.size(), value);
    if (error != std::errc{}) return false;
    at = static_cast<std::size_t>(end - text.data());
  }
  return true;
}

void expect_number(double x) {
  if (!(x >= 0) || std::isnan(x) || std::isinf(x)) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::uint64_t v[15]{};
  if (!read_numbers({reinterpret_cast<const char*>(data), size}, v)) return 0;
  const hml::transformer model{.name = "fuzz", .layers = v[0], .hidden = v[1], .ffn = v[2], .heads = v[3],
                               .kv_heads = v[4], .head_dim = v[5], .vocab = v[6],
                               .norm = (v[14] & 2) != 0 ? hml::normalization_kind::layer_norm : hml::normalization_kind::rms_norm,
                               .biases = (v[14] & 1) != 0, .qkv_biases = (v[14] & 4) != 0,
                               .learned_positions = v[14] >> 3};
  const hml::device& device = *hml::devices::all[v[10] % hml::devices::all.size()];
  const auto precision = [](std::uint64_t i) { return hml::all_precisions[i % hml::all_precisions.size()]; };
  const hml::inference_options options{
      .types = {precision(v[11]), precision(v[12]), precision(v[13])},
      .tensor_parallel = static_cast<unsigned>(v[9] > 64 ? 64 : v[9]),
      .link = {450_GBps, 5_us}};
  try {
    for (const hml::step_shape& shape : {hml::prefill_step(v[7], v[8]), hml::decode_step(v[7], v[8])}) {
      const hml::step_analysis step = hml::analyze_step(model, shape, device, options);
      double sum = 0;
      for (const hml::operator_time& op : step.operators) {
        expect_number(op.time.value());
        sum += op.time.value();
      }
      expect_number(step.time.value.value());
      if (std::abs(sum - step.time.value.value()) > 1e-9 * sum) std::abort();
    }
    const hml::memory_use memory = hml::memory_needed(model, v[7], v[8], options);
    expect_number(memory.total().value());
    // The parameter count in 64-bit integers must be the count in doubles (no wrap-around).
    const auto d = [](std::uint64_t x) { return static_cast<double>(x); };
    const double norm = (model.norm == hml::normalization_kind::layer_norm ? 2 : 1) * d(model.hidden);
    const double biases = (model.biases || model.qkv_biases ? (d(model.heads) + 2 * d(model.kv_heads)) * d(model.head_dim) : 0) +
                          (model.biases ? 2 * d(model.ffn) + 2 * d(model.hidden) : 0);
    const double per_layer = d(model.hidden) * (2 * d(model.heads) + 2 * d(model.kv_heads)) * d(model.head_dim) +
                             3 * d(model.hidden) * d(model.ffn) + biases + 2 * norm;
    const double parameters = d(model.layers) * per_layer + norm + 2 * d(model.vocab) * d(model.hidden) +
                              d(model.learned_positions) * d(model.hidden);
    if (std::abs(d(hml::parameters(model)) - parameters) > 1e-9 * parameters) std::abort();
    const hml::decode_ridge ridge = hml::ridge_batch(model, v[8], device, options);
    if (ridge.reached() && !(ridge.batch() >= 0 && std::isfinite(ridge.batch()))) std::abort();
    if (hml::main_memory(device).capacity.published()) (void)hml::largest_batch(model, v[8], device, options);
  } catch (const std::invalid_argument&) {
  }
  return 0;
}
