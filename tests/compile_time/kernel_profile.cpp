// The kernel_profile example: seed 004's four normalization configurations on catalog GPUs, and where
// its "AI < 10 => memory bound" rule and the ridge point disagree.
#include <string_view>

#include "kernel_profile.hpp"

namespace {

using hml::line;
using namespace hml::literals;
namespace k = kernel_profile;

constexpr auto text = k::report();

// 6L + 1 FLOP per packet; 2 x 4 x packets x L bytes.
static_assert(k::seed_configs[0].flops == 1024 * (6 * 128 + 1) * hml::flop);
static_assert(k::seed_configs[0].bytes == 2 * 4 * 1024 * 128 * hml::byte);
static_assert(k::seed_configs[3].bytes == 134'217'728_B && k::seed_configs[3].flops == 100'679'680_FLOP);

static_assert(line(text, 3) == "  NVIDIA H100 SXM5 80GB: 3.35 TB/s, 67 TFLOP/s, ridge 20.00 FLOP/B");
static_assert(line(text, 4) == "  NVIDIA A100 SXM4 80GB: 2.039 TB/s, 19.5 TFLOP/s, ridge 9.56 FLOP/B");
static_assert(line(text, 5) == "  NVIDIA GeForce RTX 4090: 1.008 TB/s, 82.6 TFLOP/s, ridge 81.94 FLOP/B");

static_assert(line(text, 7) == "normalization 1024x128: 1.05 MB, 787 kFLOP, 0.75 FLOP/B");
static_assert(line(text, 8) ==
              "  NVIDIA H100 SXM5 80GB: 313 ns at 2.52 TFLOP/s; roofline: memory-bound, the script's rule: memory-bound");
static_assert(line(text, 12) == "normalization 4096x256: 8.39 MB, 6.3 MFLOP, 0.75 FLOP/B");
static_assert(line(text, 17) == "normalization 8192x512: 33.6 MB, 25.2 MFLOP, 0.75 FLOP/B");
static_assert(line(text, 22) == "normalization 16384x1024: 134 MB, 101 MFLOP, 0.75 FLOP/B");
static_assert(line(text, 25) ==
              "  NVIDIA GeForce RTX 4090: 133 us at 756 GFLOP/s; roofline: memory-bound, the script's rule: memory-bound");

// The normalization configs: both verdicts agree (memory-bound) on every device.
static_assert([] {
  for (const hml::kernel& kernel : k::seed_configs)
    for (const hml::device* d : k::devices)
      if (k::disagrees(kernel, *d) || hml::analyze(kernel, *d, hml::precision::fp32).bound != hml::regime::memory_bound) return false;
  return true;
}());

// matmul 64 (10.67 FLOP/B): the seed rule says compute-bound; below the H100's and 4090's ridges it is not.
static_assert(line(text, 27) == "matmul 64x64 (extra, not in the profiling script): 49.2 kB, 524 kFLOP, 10.67 FLOP/B");
static_assert(line(text, 28) == "  NVIDIA H100 SXM5 80GB: 14.7 ns at 35.7 TFLOP/s; roofline: memory-bound, the script's rule: "
                                "compute-bound  <- disagree");
static_assert(k::disagrees(k::extra_kernels[0], hml::devices::h100_sxm));
static_assert(!k::disagrees(k::extra_kernels[0], hml::devices::a100_sxm_80gb));
static_assert(k::disagrees(k::extra_kernels[0], hml::devices::rtx_4090));
// matmul 58 (9.67 FLOP/B): above the A100's ridge (9.56), so compute-bound there; the seed rule says memory.
static_assert(line(text, 34) == "  NVIDIA A100 SXM4 80GB: 20 ns at 19.5 TFLOP/s; roofline: compute-bound, the script's rule: "
                                "memory-bound  <- disagree");
static_assert(k::disagrees(k::extra_kernels[1], hml::devices::a100_sxm_80gb));
static_assert(line(text, 36).empty() && !line(text, 35).empty());

}  // namespace
