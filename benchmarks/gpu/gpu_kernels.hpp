// The CUDA timing layer's interface: plain numbers only, so that the .cu file (compiled by nvcc, which
// cannot import modules) and the reporting program (clang, `import hml;`) share nothing but this header.
// Every function throws std::runtime_error with CUDA's message when a CUDA call fails.
#pragma once
#include <cstddef>

namespace gpu {

struct device_info {
  bool present = false;  // false: no CUDA device (or no driver); nothing else is set
  char name[256] = {};
  int multiprocessors = 0;
};

[[nodiscard]] device_info first_device();

// Each returns the best time in seconds of `repetitions` runs, after one warm-up run.
// cudaMemcpy device to device of n floats: reads and writes 4n bytes each.
[[nodiscard]] double time_device_copy(std::size_t n, int repetitions);
// a[i] = b[i] + s * c[i] over n floats: 12n bytes, 2n FLOP.
[[nodiscard]] double time_triad(std::size_t n, int repetitions);
// c[i] = a[i] + b[i] over n floats: 12n bytes, n FLOP.
[[nodiscard]] double time_vector_add(std::size_t n, int repetitions);

// Independent FP32 FMA chains in registers on every SM; `flops` receives the FLOP one run does.
[[nodiscard]] double time_fma_peak(int repetitions, double& flops);

}  // namespace gpu
