// CUDA kernels and their timing (CUDA events, best of repetitions). No reporting here: see gpu.cpp.
#include "gpu_kernels.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>

namespace gpu {
namespace {

void check(cudaError_t status, const char* what) {
  if (status != cudaSuccess) throw std::runtime_error(std::string{what} + ": " + cudaGetErrorString(status));
}

__global__ void fill(float* a, std::size_t n, float value) {
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < n; i += std::size_t{gridDim.x} * blockDim.x)
    a[i] = value;
}

// A device buffer of n floats, filled with `value`.
class buffer {
public:
  buffer(std::size_t n, float value) {
    check(cudaMalloc(&data_, n * sizeof(float)), "cudaMalloc");
    fill<<<blocks(n), threads_per_block>>>(data_, n, value);
    check(cudaGetLastError(), "fill");
  }
  buffer(const buffer&) = delete;
  buffer& operator=(const buffer&) = delete;
  ~buffer() { cudaFree(data_); }
  float* get() const { return data_; }

  static constexpr int threads_per_block = 256;
  static unsigned blocks(std::size_t n) {
    return static_cast<unsigned>(std::min<std::size_t>((n + threads_per_block - 1) / threads_per_block, 65535u * 32u));
  }

private:
  float* data_ = nullptr;
};

__global__ void triad(float* a, const float* b, const float* c, float s, std::size_t n) {
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < n; i += std::size_t{gridDim.x} * blockDim.x)
    a[i] = b[i] + s * c[i];
}

__global__ void vector_add(float* c, const float* a, const float* b, std::size_t n) {
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < n; i += std::size_t{gridDim.x} * blockDim.x)
    c[i] = a[i] + b[i];
}

constexpr int fma_chains = 8;
constexpr int fma_rounds = 1 << 15;  // about 10 ms on an H100

// x = x * m + a converges, so the values stay finite; the sum is stored so nothing is optimised away.
__global__ void fma_peak(float* out) {
  float x[fma_chains];
  for (int c = 0; c < fma_chains; ++c) x[c] = static_cast<float>(threadIdx.x + c);
  for (int r = 0; r < fma_rounds; ++r) {
#pragma unroll
    for (int c = 0; c < fma_chains; ++c) x[c] = fmaf(x[c], 0.999999f, 1e-6f);
  }
  float sum = 0;
  for (int c = 0; c < fma_chains; ++c) sum += x[c];
  out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

// Best time of `repetitions` runs of `launch`, after a warm-up run.
template <class Launch>
double best_time(int repetitions, Launch launch) {
  cudaEvent_t start, stop;
  check(cudaEventCreate(&start), "cudaEventCreate");
  check(cudaEventCreate(&stop), "cudaEventCreate");
  launch();
  check(cudaDeviceSynchronize(), "warm-up");
  float best_ms = 0;
  for (int r = 0; r < repetitions; ++r) {
    check(cudaEventRecord(start), "cudaEventRecord");
    launch();
    check(cudaEventRecord(stop), "cudaEventRecord");
    check(cudaEventSynchronize(stop), "kernel");
    float ms = 0;
    check(cudaEventElapsedTime(&ms, start, stop), "cudaEventElapsedTime");
    best_ms = r == 0 ? ms : std::min(best_ms, ms);
  }
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  return best_ms / 1e3;
}

}  // namespace

device_info first_device() {
  device_info info;
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
    cudaGetLastError();  // clear the sticky "no device" error
    return info;
  }
  cudaDeviceProp properties{};
  check(cudaGetDeviceProperties(&properties, 0), "cudaGetDeviceProperties");
  info.present = true;
  std::strncpy(info.name, properties.name, sizeof info.name - 1);
  info.multiprocessors = properties.multiProcessorCount;
  return info;
}

double time_device_copy(std::size_t n, int repetitions) {
  const buffer a{n, 0.0f}, b{n, 1.0f};
  return best_time(repetitions, [&] {
    check(cudaMemcpyAsync(a.get(), b.get(), n * sizeof(float), cudaMemcpyDeviceToDevice), "cudaMemcpyAsync");
  });
}

double time_triad(std::size_t n, int repetitions) {
  const buffer a{n, 0.0f}, b{n, 1.0f}, c{n, 2.0f};
  return best_time(repetitions, [&] {
    triad<<<buffer::blocks(n), buffer::threads_per_block>>>(a.get(), b.get(), c.get(), 3.0f, n);
    check(cudaGetLastError(), "triad");
  });
}

double time_vector_add(std::size_t n, int repetitions) {
  const buffer a{n, 1.0f}, b{n, 2.0f}, c{n, 0.0f};
  return best_time(repetitions, [&] {
    vector_add<<<buffer::blocks(n), buffer::threads_per_block>>>(c.get(), a.get(), b.get(), n);
    check(cudaGetLastError(), "vector add");
  });
}

double time_fma_peak(int repetitions, double& flops) {
  int device = 0, multiprocessors = 0;
  check(cudaGetDevice(&device), "cudaGetDevice");
  check(cudaDeviceGetAttribute(&multiprocessors, cudaDevAttrMultiProcessorCount, device), "cudaDeviceGetAttribute");
  const unsigned blocks = static_cast<unsigned>(multiprocessors) * 32;
  const unsigned threads = 256;
  const buffer out{std::size_t{blocks} * threads, 0.0f};
  flops = 2.0 * fma_chains * fma_rounds * static_cast<double>(blocks) * threads;
  return best_time(repetitions, [&] {
    fma_peak<<<blocks, threads>>>(out.get());
    check(cudaGetLastError(), "fma peak");
  });
}

}  // namespace gpu
