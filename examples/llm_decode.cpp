// Transformer decode on a catalog GPU, per operator: is it memory-bound, how long is a token, from what
// batch does it turn compute-bound, what fits. The figures are llm_decode.hpp's, computed at compile time.
#include <cstdio>
#include <string>

#include "llm_decode.hpp"

namespace {

std::string text(hml::duration t) { return hml::to_string(t, {.number = hml::general(4)}); }
std::string text(hml::data_size s) {
  return hml::to_string(s, {.number = hml::general(4), .prefixes = hml::prefix_system::decimal});
}
std::string text(hml::work w) { return hml::to_string(w, {.number = hml::general(4)}); }
std::string text(hml::arithmetic_intensity i) { return hml::to_string(i, {.number = hml::general(3)}); }

void print_step(const hml::step_analysis& s) {
  std::printf("%-20s %12s %12s %14s %8s %11s %7s\n", "operator", "FLOP", "bytes", "intensity", "bound", "time", "share");
  for (const hml::operator_time& op : s.operators) {
    std::printf("%-20s %12s %12s %14s %8s %11s %6.2f%%\n", std::string{op.op.name}.c_str(), text(op.op.flops).c_str(),
                text(op.op.bytes()).c_str(), text(op.intensity).c_str(), std::string{to_string(op.bound)}.c_str(),
                text(op.time).c_str(), 100 * s.share(op));
  }
  std::printf("%-20s %12s %12s %14s %8s %11s\n", "step", text(s.flops).c_str(), text(s.bytes).c_str(), "",
              std::string{to_string(s.bound())}.c_str(), text(s.time.value).c_str());
}

}  // namespace

int main() {
  using namespace llm_decode;
  std::printf("%s (%s) on %s, FP16, decode at batch 1, context %llu\n\n", std::string{model.name}.c_str(),
              std::string{model.source}.c_str(), std::string{gpu.name}.c_str(),
              static_cast<unsigned long long>(context));
  print_step(step);
  std::printf("\nper step: weights %s, KV cache %s read; %s per token, %.1f tokens/s\n", text(step.weights).c_str(),
              text(step.kv_read).c_str(), text(hml::per_token(step.time, step.produced()).value).c_str(),
              hml::throughput(step.time, step.produced()).per_second);

  std::printf("\n-- the ridge batch (decode turns compute-bound)\n");
  std::printf("context 1:   batch %.1f\n", ridge_empty.batch());
  std::printf("context %llu: %s\n", static_cast<unsigned long long>(context),
              ridge_at_context.reached() ? ("batch " + std::to_string(ridge_at_context.batch())).c_str()
                                         : "never (each sequence's KV cache takes longer to read than its FLOP)");

  std::printf("\n-- memory at %llu tokens (of %s)\n", static_cast<unsigned long long>(long_context),
              text(hml::capacity_of(gpu)).c_str());
  std::printf("batch 1: weights %s + KV cache %s + activations %s = %s\n", text(memory.weights).c_str(),
              text(memory.kv_cache).c_str(), text(memory.activations).c_str(), text(memory.total()).c_str());
  std::printf("largest batch that fits: %llu\n", static_cast<unsigned long long>(largest_batch));

  std::printf("\n-- precisions (decode step, batch 1)\n");
  std::printf("FP16:                      %s\n", text(step.time.value).c_str());
  std::printf("INT4 weights, FP16 math:   %s\n", text(step_int4.time.value).c_str());
  std::printf("W8A8 on INT8 tensor units: %s\n", text(step_w8a8.time.value).c_str());

  std::printf("\n-- llama-2-70b, FP16, over two H100s (450 GB/s a direction, 5 us a message)\n");
  std::printf("fits one: %s; fits two: %s\n", big_fits_one ? "yes" : "no", big_fits_two ? "yes" : "no");
  std::printf("decode step %s, of which the link %s (%s-bound overall)\n", text(big_step.time.value).c_str(),
              text(big_step.link_time).c_str(), std::string{to_string(big_step.bound())}.c_str());

  std::printf("\n-- calibration\n");
  std::printf("a step of %s means %.1f %% of the bandwidth\n", text(supposed_measurement.value).c_str(),
              100 * fitted_memory_efficiency);
}
