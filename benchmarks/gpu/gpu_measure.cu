// gpu_measure: what an NVIDIA GPU does, measured, as plain CSV files; no model here (gpu.cpp holds the
// measurements against the catalog and the models, and runs anywhere). Built by nvcc alone, so that it can be
// carried to a machine that has a GPU and a CUDA driver but none of hml's build tools.
//
//   bandwidth.csv  reads, writes, copies and triads over working sets from the L1 to HBM
//   peaks.csv      FP32 and FP64 FMA chains on the vector units
//   gemm.csv       cuBLASLt matrix products (FP64, TF32, FP16, BF16, FP8) at peak and at LLM shapes
//   device.csv     the device as CUDA reports it
//
// Each time is the median of several timed trials (CUDA events), after a warm-up; inputs are random, never
// zeros. Every CUDA and cuBLAS call is checked; a product cuBLASLt cannot run is written as skipped.
#include <cublasLt.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

void check(cudaError_t status, const char* what) {
  if (status != cudaSuccess) throw std::runtime_error(std::string{what} + ": " + cudaGetErrorString(status));
}
void check(cublasStatus_t status, const char* what) {
  if (status != CUBLAS_STATUS_SUCCESS) throw std::runtime_error(std::string{what} + ": cuBLAS status " + std::to_string(status));
}

// Device memory, freed on scope exit.
class device_buffer {
public:
  explicit device_buffer(std::size_t bytes) : bytes_{bytes} { check(cudaMalloc(&data_, bytes), "cudaMalloc"); }
  device_buffer(const device_buffer&) = delete;
  device_buffer& operator=(const device_buffer&) = delete;
  ~device_buffer() { cudaFree(data_); }
  template <class T>
  T* as() const {
    return static_cast<T*>(data_);
  }
  std::size_t bytes() const { return bytes_; }

private:
  void* data_ = nullptr;
  std::size_t bytes_ = 0;
};

__device__ float random_unit(std::uint64_t i, std::uint32_t seed) {  // in [-0.5, 0.5), a hash of i
  std::uint64_t x = i * 0x9E3779B97F4A7C15ull + seed;
  x ^= x >> 31;
  x *= 0xBF58476D1CE4E5B9ull;
  x ^= x >> 29;
  return static_cast<float>(x >> 40) / 16777216.0f - 0.5f;
}

template <class T>
__global__ void fill_random(T* a, std::size_t n, std::uint32_t seed) {
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < n; i += std::size_t{gridDim.x} * blockDim.x)
    a[i] = static_cast<T>(random_unit(i, seed));
}

template <class T>
void randomize(const device_buffer& b, std::uint32_t seed) {
  fill_random<T><<<4096, 256>>>(b.as<T>(), b.bytes() / sizeof(T), seed);
  check(cudaGetLastError(), "fill_random");
}

// Median of `trials` timed runs of `launch` (each may launch many kernels), after one warm-up run.
double median_time(int trials, const std::function<void()>& launch) {
  cudaEvent_t start, stop;
  check(cudaEventCreate(&start), "cudaEventCreate");
  check(cudaEventCreate(&stop), "cudaEventCreate");
  launch();
  check(cudaGetLastError(), "launch");
  check(cudaDeviceSynchronize(), "warm-up");
  std::vector<double> times;
  for (int t = 0; t < trials; ++t) {
    check(cudaEventRecord(start), "cudaEventRecord");
    launch();
    check(cudaEventRecord(stop), "cudaEventRecord");
    check(cudaEventSynchronize(stop), "cudaEventSynchronize");
    check(cudaGetLastError(), "launch");
    float ms = 0;
    check(cudaEventElapsedTime(&ms, start, stop), "cudaEventElapsedTime");
    times.push_back(ms * 1e-3);
  }
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

// --- Bandwidth: every block works on slices of the arrays, 256 threads, one float4 a thread at a time ----
//
// `own`: block b works on slice b in every pass, so a block re-reads what its SM's L1 holds when the slices
// of the blocks on one SM fit there. `rotating`: in pass p block b works on slice (b + p * shift) mod slices,
// a slice another SM touched last, so the data comes from the L2 when all slices fit there, else from HBM.
constexpr int threads = 256;
constexpr int blocks_per_sm = 8;

struct slicing {
  unsigned slice4 = 0;  // float4s in one slice of one array
  unsigned slices = 0;
  unsigned passes = 0;
  unsigned shift = 0;   // 0: own slice
};

// The slice a block works on, pass after pass: advanced by `shift` without a division (a modulo each pass
// costs more instructions than a small slice's loads).
struct slice_cursor {
  unsigned index;
  __device__ explicit slice_cursor(const slicing&) : index{blockIdx.x} {}
  __device__ std::size_t start(const slicing& s) const { return std::size_t{index} * s.slice4; }
  __device__ void advance(const slicing& s) {
    index += s.shift;
    if (index >= s.slices) index -= s.slices;
  }
};

__global__ void read_kernel(const float4* a, slicing s, float* sink) {
  float4 acc{0, 0, 0, 0};
  slice_cursor slice{s};
  for (unsigned p = 0; p < s.passes; ++p, slice.advance(s)) {
    const float4* base = a + slice.start(s);
#pragma unroll 4
    for (unsigned i = threadIdx.x; i < s.slice4; i += threads) {
      const float4 v = base[i];
      acc.x += v.x;
      acc.y += v.y;
      acc.z += v.z;
      acc.w += v.w;
    }
  }
  if (acc.x + acc.y + acc.z + acc.w == 1234.5f) sink[0] = acc.x;  // keeps the loads; never true for these inputs
}

// Stores alone: what a level takes in writes (a GPU writes whole sectors: nothing is read for them).
__global__ void write_kernel(float4* a, slicing s) {
  slice_cursor slice{s};
  for (unsigned p = 0; p < s.passes; ++p, slice.advance(s)) {
    const std::size_t start = slice.start(s);
    const float v = static_cast<float>(p);
#pragma unroll 4
    for (unsigned i = threadIdx.x; i < s.slice4; i += threads) a[start + i] = float4{v, v, v, v};
  }
}

__global__ void copy_kernel(float4* a, const float4* b, slicing s) {
  slice_cursor slice{s};
  for (unsigned p = 0; p < s.passes; ++p, slice.advance(s)) {
    const std::size_t start = slice.start(s);
#pragma unroll 4
    for (unsigned i = threadIdx.x; i < s.slice4; i += threads) a[start + i] = b[start + i];
  }
}

__global__ void triad_kernel(float4* a, const float4* b, const float4* c, float scalar, slicing s) {
  slice_cursor slice{s};
  for (unsigned p = 0; p < s.passes; ++p, slice.advance(s)) {
    const std::size_t start = slice.start(s);
#pragma unroll 4
    for (unsigned i = threadIdx.x; i < s.slice4; i += threads) {
      const float4 x = b[start + i], y = c[start + i];
      a[start + i] = float4{x.x + scalar * y.x, x.y + scalar * y.y, x.z + scalar * y.z, x.w + scalar * y.w};
    }
  }
}

// Shared memory: each block reads its own 16 KiB of shared memory `passes` times, a float4 a thread at a
// time (conflict-free: consecutive threads, consecutive 16-byte words).
constexpr unsigned shared_floats4 = 1024;  // 16 KiB a block, 128 KiB for the 8 blocks of an SM

__global__ void shared_read_kernel(const float4* a, unsigned passes, float* sink) {
  __shared__ float4 tile[shared_floats4];
  for (unsigned i = threadIdx.x; i < shared_floats4; i += threads) tile[i] = a[blockIdx.x * shared_floats4 + i];
  __syncthreads();
  float4 acc{0, 0, 0, 0};
  for (unsigned p = 0; p < passes; ++p) {
#pragma unroll
    for (unsigned i = threadIdx.x; i < shared_floats4; i += threads) {
      const float4 v = tile[i ^ (p & 1)];  // the index depends on the pass, so the loads are not hoisted
      acc.x += v.x;
      acc.y += v.y;
      acc.z += v.z;
      acc.w += v.w;
    }
  }
  if (acc.x + acc.y + acc.z + acc.w == 1234.5f) sink[0] = acc.x;
}

void measure_bandwidth(int sms, std::FILE* out, bool tiny) {
  std::fprintf(out, "kernel,reuse,arrays,slice_bytes,slices,passes,seconds\n");
  const unsigned slices = static_cast<unsigned>(sms * blocks_per_sm);
  struct point {
    const char* reuse;
    std::size_t slice_bytes;
  };
  std::vector<point> points;
  for (std::size_t kib : {4, 8, 12, 16, 24, 32, 48, 64}) points.push_back({"own", kib << 10});
  for (std::size_t kib = 4; kib <= (tiny ? 16 : 4096); kib *= 2) points.push_back({"rotating", kib << 10});

  std::size_t largest = 0;
  for (const point& pt : points) largest = std::max(largest, pt.slice_bytes * slices);
  device_buffer a{largest}, b{largest}, c{largest};
  randomize<float>(a, 1);
  randomize<float>(b, 2);
  randomize<float>(c, 3);
  device_buffer sink{sizeof(float)};
  const double target_bytes = tiny ? 1e8 : 16e9;  // a trial moves about this much: milliseconds at any level

  {  // shared memory, written as the slices of one array held in it
    const unsigned passes = tiny ? 16 : 20000;
    const double seconds = median_time(tiny ? 3 : 9, [&] {
      shared_read_kernel<<<slices, threads>>>(a.as<float4>(), passes, sink.as<float>());
    });
    std::fprintf(out, "shared-read,own,1,%zu,%u,%u,%.9g\n", shared_floats4 * sizeof(float4), slices, passes, seconds);
  }
  for (const char* kernel : {"read", "write", "copy", "triad"}) {
    const bool writes_only = std::strcmp(kernel, "write") == 0;
    const unsigned arrays = std::strcmp(kernel, "read") == 0 || writes_only ? 1 : std::strcmp(kernel, "copy") == 0 ? 2 : 3;
    for (const point& pt : points) {
      slicing s{static_cast<unsigned>(pt.slice_bytes / sizeof(float4)), slices, 1,
                std::strcmp(pt.reuse, "own") == 0 ? 0u : slices / 2 + 1};
      const double per_pass = static_cast<double>(pt.slice_bytes) * slices * arrays;
      s.passes = static_cast<unsigned>(std::max(1.0, std::round(target_bytes / per_pass)));
      const auto launch = [&] {
        if (writes_only) write_kernel<<<slices, threads>>>(a.as<float4>(), s);
        if (arrays == 1 && !writes_only) read_kernel<<<slices, threads>>>(a.as<float4>(), s, sink.as<float>());
        if (arrays == 2) copy_kernel<<<slices, threads>>>(a.as<float4>(), b.as<float4>(), s);
        if (arrays == 3) triad_kernel<<<slices, threads>>>(a.as<float4>(), b.as<float4>(), c.as<float4>(), 0.5f, s);
      };
      const double seconds = median_time(tiny ? 3 : 9, launch);
      std::fprintf(out, "%s,%s,%u,%zu,%u,%u,%.9g\n", kernel, pt.reuse, arrays, pt.slice_bytes, slices, s.passes, seconds);
      std::fflush(out);
    }
  }
}

// --- Vector peaks: independent FMA chains in registers ---------------------------------------------------
constexpr int fma_chains = 8;

// x = x * m + a converges, so the values stay finite; the sum is stored so that nothing is optimised away.
template <class T>
__global__ void fma_kernel(T* out, int rounds) {
  T x[fma_chains];
#pragma unroll
  for (int c = 0; c < fma_chains; ++c) x[c] = static_cast<T>(threadIdx.x + c);
#pragma unroll 16  // so that the loop's own instructions take few of the issue slots the FMAs need
  for (int r = 0; r < rounds; ++r) {
#pragma unroll
    for (int c = 0; c < fma_chains; ++c) x[c] = fma(x[c], static_cast<T>(0.999999), static_cast<T>(1e-6));
  }
  T sum = 0;
#pragma unroll
  for (int c = 0; c < fma_chains; ++c) sum += x[c];
  out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

template <class T>
void measure_peak(const char* name, int sms, int rounds, std::FILE* out) {
  const unsigned blocks = static_cast<unsigned>(sms * blocks_per_sm);
  device_buffer sink{std::size_t{blocks} * threads * sizeof(T)};
  const double seconds = median_time(9, [&] { fma_kernel<T><<<blocks, threads>>>(sink.as<T>(), rounds); });
  const double flop = 2.0 * fma_chains * static_cast<double>(rounds) * blocks * threads;
  std::fprintf(out, "%s,%.17g,%.9g\n", name, flop, seconds);
  std::fflush(out);
}

// --- Matrix products through cuBLASLt, as frameworks call them -----------------------------------------
//
// C (m x n) = A^T B in cuBLAS's column-major terms, A k x m, B k x n: what a linear layer y = x W^T is with
// m = output features, n = tokens, k = input features (PyTorch's call; FP8 products must be in this "TN"
// form). For the LLM shapes the weights rotate among enough copies to exceed the L2, as a model's layers do.
struct gemm_type {
  const char* name;
  cudaDataType_t ab, cd;
  cublasComputeType_t compute;
  cudaDataType_t scale;
  std::size_t ab_bytes, cd_bytes;
};

const gemm_type gemm_types[] = {
    {"fp64", CUDA_R_64F, CUDA_R_64F, CUBLAS_COMPUTE_64F, CUDA_R_64F, 8, 8},
    {"tf32", CUDA_R_32F, CUDA_R_32F, CUBLAS_COMPUTE_32F_FAST_TF32, CUDA_R_32F, 4, 4},
    {"fp16", CUDA_R_16F, CUDA_R_16F, CUBLAS_COMPUTE_32F, CUDA_R_32F, 2, 2},
    {"bf16", CUDA_R_16BF, CUDA_R_16BF, CUBLAS_COMPUTE_32F, CUDA_R_32F, 2, 2},
    {"fp8", CUDA_R_8F_E4M3, CUDA_R_16BF, CUBLAS_COMPUTE_32F, CUDA_R_32F, 1, 2},
};

const gemm_type& type_named(const std::string& name) {
  for (const gemm_type& t : gemm_types) {
    if (name == t.name) return t;
  }
  throw std::runtime_error("no GEMM type " + name);
}

void randomize_as(const device_buffer& b, cudaDataType_t type, std::uint32_t seed) {
  switch (type) {
    case CUDA_R_64F: randomize<double>(b, seed); break;
    case CUDA_R_32F: randomize<float>(b, seed); break;
    case CUDA_R_16F: randomize<__half>(b, seed); break;
    case CUDA_R_16BF: randomize<__nv_bfloat16>(b, seed); break;
    case CUDA_R_8F_E4M3: randomize<__nv_fp8_e4m3>(b, seed); break;
    default: throw std::runtime_error("randomize_as: unexpected type");
  }
}

class lt_gemm {
public:
  lt_gemm(cublasLtHandle_t handle, const gemm_type& t, std::uint64_t m, std::uint64_t n, std::uint64_t k,
          const device_buffer& workspace)
      : handle_{handle}, type_{t}, workspace_{workspace} {
    check(cublasLtMatmulDescCreate(&op_, t.compute, t.scale), "cublasLtMatmulDescCreate");
    const cublasOperation_t transposed = CUBLAS_OP_T, plain = CUBLAS_OP_N;
    check(cublasLtMatmulDescSetAttribute(op_, CUBLASLT_MATMUL_DESC_TRANSA, &transposed, sizeof transposed), "TRANSA");
    check(cublasLtMatmulDescSetAttribute(op_, CUBLASLT_MATMUL_DESC_TRANSB, &plain, sizeof plain), "TRANSB");
    check(cublasLtMatrixLayoutCreate(&a_, t.ab, k, m, k), "layout A");
    check(cublasLtMatrixLayoutCreate(&b_, t.ab, k, n, k), "layout B");
    check(cublasLtMatrixLayoutCreate(&c_, t.cd, m, n, m), "layout C");
    cublasLtMatmulPreference_t preference;
    check(cublasLtMatmulPreferenceCreate(&preference), "cublasLtMatmulPreferenceCreate");
    const std::size_t workspace_bytes = workspace.bytes();
    check(cublasLtMatmulPreferenceSetAttribute(preference, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &workspace_bytes,
                                               sizeof workspace_bytes),
          "workspace preference");
    int found = 0;
    const cublasStatus_t status =
        cublasLtMatmulAlgoGetHeuristic(handle, op_, a_, b_, c_, c_, preference, 1, &heuristic_, &found);
    cublasLtMatmulPreferenceDestroy(preference);
    supported_ = status == CUBLAS_STATUS_SUCCESS && found > 0;
  }
  lt_gemm(const lt_gemm&) = delete;
  lt_gemm& operator=(const lt_gemm&) = delete;
  ~lt_gemm() {
    cublasLtMatrixLayoutDestroy(c_);
    cublasLtMatrixLayoutDestroy(b_);
    cublasLtMatrixLayoutDestroy(a_);
    cublasLtMatmulDescDestroy(op_);
  }
  bool supported() const { return supported_; }

  void run(const void* a, const void* b, void* c) const {
    const double one64 = 1, zero64 = 0;
    const float one32 = 1, zero32 = 0;
    const bool wide = type_.scale == CUDA_R_64F;
    check(cublasLtMatmul(handle_, op_, wide ? static_cast<const void*>(&one64) : &one32, a, a_, b, b_,
                         wide ? static_cast<const void*>(&zero64) : &zero32, c, c_, c, c_, &heuristic_.algo,
                         workspace_.as<void>(), workspace_.bytes(), nullptr),
          "cublasLtMatmul");
  }

private:
  cublasLtHandle_t handle_;
  const gemm_type& type_;
  const device_buffer& workspace_;
  cublasLtMatmulDesc_t op_{};
  cublasLtMatrixLayout_t a_{}, b_{}, c_{};
  cublasLtMatmulHeuristicResult_t heuristic_{};
  bool supported_ = false;
};

void measure_gemm(cublasLtHandle_t handle, const char* label, const gemm_type& t, std::uint64_t m, std::uint64_t n,
                  std::uint64_t k, std::FILE* out, bool tiny) {
  const device_buffer workspace{64u << 20};
  const lt_gemm gemm{handle, t, m, n, k, workspace};
  if (!gemm.supported()) {
    std::fprintf(out, "%s,%s,%llu,%llu,%llu,0,skipped\n", label, t.name, static_cast<unsigned long long>(m),
                 static_cast<unsigned long long>(n), static_cast<unsigned long long>(k));
    return;
  }
  const std::size_t a_bytes = m * k * t.ab_bytes;
  const std::size_t copies = std::clamp<std::size_t>((std::size_t{256} << 20) / a_bytes + 1, 1, 64);
  const device_buffer weights{copies * a_bytes};
  randomize_as(weights, t.ab, 10);
  const device_buffer b{n * k * t.ab_bytes}, c{m * n * t.cd_bytes};
  randomize_as(b, t.ab, 7);
  std::size_t next = 0;
  const auto one = [&] { gemm.run(weights.as<char>() + (next++ % copies) * a_bytes, b.as<void>(), c.as<void>()); };
  // Enough products a trial to take milliseconds, so that launch gaps hide behind the queue.
  const double single = median_time(3, one);
  const int repeats = tiny ? 1 : static_cast<int>(std::clamp(std::ceil(5e-3 / single), 1.0, 500.0));
  const double seconds = median_time(tiny ? 3 : 7, [&] {
    for (int r = 0; r < repeats; ++r) one();
  }) / repeats;
  std::fprintf(out, "%s,%s,%llu,%llu,%llu,%d,%.9g\n", label, t.name, static_cast<unsigned long long>(m),
               static_cast<unsigned long long>(n), static_cast<unsigned long long>(k), repeats, seconds);
  std::fflush(out);
}

void measure_gemms(std::FILE* out, bool tiny) {
  cublasLtHandle_t handle;
  check(cublasLtCreate(&handle), "cublasLtCreate");
  std::fprintf(out, "shape,precision,m,n,k,repeats,seconds\n");
  const std::uint64_t big = tiny ? 1024 : 8192;
  for (const gemm_type& t : gemm_types) measure_gemm(handle, "peak", t, big, big, big, out, tiny);
  // Llama 3 8B's linear layers (QKV, O, gate+up, down) and Llama 3 70B's gate+up, at decode and prefill
  // token counts: m output features, k input features, n tokens.
  struct layer {
    const char* label;
    std::uint64_t out_features, in_features;
  };
  const layer layers[] = {{"llama-3-8b QKV", 6144, 4096},
                          {"llama-3-8b O", 4096, 4096},
                          {"llama-3-8b gate+up", 28672, 4096},
                          {"llama-3-8b down", 4096, 14336},
                          {"llama-3-70b gate+up", 57344, 8192}};
  std::vector<std::uint64_t> tokens{1, 8, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192};
  if (tiny) tokens = {1, 512};
  for (const char* precision : {"bf16", "fp8"}) {
    for (const layer& l : layers) {
      for (const std::uint64_t n : tokens) {
        measure_gemm(handle, l.label, type_named(precision), l.out_features, n, l.in_features, out, tiny);
      }
    }
  }
  cublasLtDestroy(handle);
}

std::FILE* open_csv(const std::string& folder, const char* name) {
  const std::string path = folder + "/" + name;
  std::FILE* f = std::fopen(path.c_str(), "w");
  if (f == nullptr) throw std::runtime_error("cannot write " + path);
  return f;
}

}  // namespace

int main(int argc, char** argv) {
  std::string folder = ".";
  bool tiny = false;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--tiny") {
      tiny = true;
    } else if (arg == "--out" && i + 1 < argc) {
      folder = argv[++i];
    } else {
      std::fprintf(stderr, "usage: gpu_measure [--tiny] [--out FOLDER]\n");
      return 2;
    }
  }
  try {
    int devices = 0;
    if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
      std::fputs("gpu_measure: no CUDA device found; nothing measured\n", stderr);
      return 0;
    }
    cudaDeviceProp p{};
    check(cudaGetDeviceProperties(&p, 0), "cudaGetDeviceProperties");
    int driver = 0, runtime = 0;
    check(cudaDriverGetVersion(&driver), "cudaDriverGetVersion");
    check(cudaRuntimeGetVersion(&runtime), "cudaRuntimeGetVersion");
    std::FILE* device = open_csv(folder, "device.csv");
    std::fprintf(device, "name,multiprocessors,l2_bytes,memory_bytes,memory_bus_bits,compute_capability,cuda_driver,cuda_runtime,cublaslt\n");
    std::fprintf(device, "%s,%d,%d,%zu,%d,%d.%d,%d,%d,%zu\n", p.name, p.multiProcessorCount, p.l2CacheSize, p.totalGlobalMem,
                 p.memoryBusWidth, p.major, p.minor, driver, runtime, cublasLtGetVersion());
    std::fclose(device);
    std::fprintf(stderr, "gpu_measure: %s, %d SMs\n", p.name, p.multiProcessorCount);

    std::FILE* peaks = open_csv(folder, "peaks.csv");
    std::fprintf(peaks, "precision,flop,seconds\n");
    measure_peak<float>("fp32", p.multiProcessorCount, tiny ? 64 : 1 << 17, peaks);
    measure_peak<double>("fp64", p.multiProcessorCount, tiny ? 64 : 1 << 16, peaks);
    std::fclose(peaks);
    std::fputs("gpu_measure: peaks done\n", stderr);

    std::FILE* bandwidth = open_csv(folder, "bandwidth.csv");
    measure_bandwidth(p.multiProcessorCount, bandwidth, tiny);
    std::fclose(bandwidth);
    std::fputs("gpu_measure: bandwidth done\n", stderr);

    std::FILE* gemm = open_csv(folder, "gemm.csv");
    measure_gemms(gemm, tiny);
    std::fclose(gemm);
    std::fputs("gpu_measure: gemm done\n", stderr);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "gpu_measure: error: %s\n", e.what());
    return 1;
  }
  return 0;
}
