// The device catalog and the machine description: figures as typed quantities with their provenance and
// sources, derived figures computed from their parts, the measured V100 hierarchical roofline, precisions
// that must be named, and the seed's simple forms as descriptions.
#include <string_view>

import hml;

namespace {

using namespace hml::literals;
namespace devices = hml::devices;
using hml::compute_unit;
using hml::precision;

constexpr hml::compute_kind fp32{precision::fp32, compute_unit::vector};

// The README's one-liner: the precision is part of the question.
static_assert(hml::analyze(hml::matmul<float>(4096), devices::h100_sxm, precision::fp32).bound ==
              hml::regime::compute_bound);
static_assert(hml::analyze(hml::vector_add<float>(1'000'000), devices::h100_sxm, hml::precision_of<float>).bound ==
              hml::regime::memory_bound);
static_assert(hml::precision_of<double> == precision::fp64 && hml::precision_of<float> == precision::fp32);

// Figures from the hardware notes, typed, capacity included.
static_assert(hml::main_memory(devices::h100_sxm).bandwidth.value == 3350_GBps);
static_assert(hml::main_memory(devices::h100_sxm).capacity.value == 80_GB);
static_assert(hml::main_memory(devices::h100_sxm).name == "HBM3");
static_assert(devices::h100_sxm.memory[1].capacity.value == 50_MB);  // L2
static_assert(hml::peak(devices::h100_sxm, fp32).value == 67_TFLOPS && hml::peak(devices::h100_pcie, fp32).value == 51_TFLOPS);
static_assert(hml::peak(devices::a100_sxm_80gb, fp32).value == 19.5_TFLOPS && hml::peak(devices::v100, fp32).value == 15.7_TFLOPS);
static_assert(hml::peak(devices::rtx_4090, fp32).value == 82.6_TFLOPS && hml::peak(devices::rtx_3090, fp32).value == 35.6_TFLOPS);
static_assert(hml::peak(devices::mi300x, {precision::fp16, compute_unit::tensor}).value == 1307.4_TFLOPS);  // dense
static_assert(hml::find_ceiling(devices::mi300x, {precision::fp16, compute_unit::tensor})->sparse.value == 2614.9_TFLOPS);
// FP8 on the MI300X is twice its FP16 (AMD's table); Ada's and Ampere's BF16 tensor rate is their FP16's
// with FP32 accumulate (the GeForce tables' FP16/BF16 column).
static_assert(hml::peak(devices::mi300x, {precision::fp8, compute_unit::tensor}).value == 2614.9_TFLOPS);
static_assert(hml::peak(devices::rtx_4090, {precision::bf16, compute_unit::tensor}).value == 165.2_TFLOPS);
static_assert(hml::peak(devices::rtx_3090, {precision::bf16, compute_unit::tensor}).value == 71_TFLOPS);
static_assert(hml::peak(devices::mi250x, fp32).value == 47.9_TFLOPS);  // not 383 (that is FP16)
static_assert(hml::peak(devices::mi250x, {precision::fp32, compute_unit::tensor}).value == 95.7_TFLOPS);
static_assert(hml::find_ceiling(devices::h100_sxm, {precision::tf32, compute_unit::tensor})->sparse.value == 989_TFLOPS);
// The A100's INT4 tensor cores (the datasheet: 1,248 TOPS dense, 2,496 with sparsity), which w4a4 runs on;
// the H100 dropped INT4 and publishes none.
static_assert(hml::peak(devices::a100_sxm_80gb, {precision::int4, compute_unit::tensor}).value == 1248_TFLOPS &&
              hml::find_ceiling(devices::a100_sxm_40gb, {precision::int4, compute_unit::tensor})->sparse.value == 2496_TFLOPS);
static_assert(!hml::peak(devices::h100_sxm, {precision::int4, compute_unit::tensor}).published());
// The B200's FP8 (4.5 PFLOP/s dense, 9 with sparsity) and FP4 (9, 18): the HGX B200 table gives one FP4
// figure, which the catalog holds for both block-scaled formats; no Hopper runs FP4.
static_assert(hml::peak(devices::b200, {precision::fp8, compute_unit::tensor}).value == 4500_TFLOPS &&
              hml::find_ceiling(devices::b200, {precision::fp8, compute_unit::tensor})->sparse.value == 9000_TFLOPS);
static_assert(hml::peak(devices::b200, {precision::nvfp4, compute_unit::tensor}).value == 9000_TFLOPS &&
              hml::peak(devices::b200, {precision::mxfp4, compute_unit::tensor}).value == 9000_TFLOPS &&
              hml::find_ceiling(devices::b200, {precision::nvfp4, compute_unit::tensor})->sparse.value == 18000_TFLOPS);
static_assert(!hml::peak(devices::h100_sxm, {precision::nvfp4, compute_unit::tensor}).published() &&
              !hml::peak(devices::h200, {precision::mxfp4, compute_unit::tensor}).published());
static_assert(devices::h100_sxm.cores == 132 && devices::h100_sxm.clock.value == 1.98_GHz);

// Seed 004's FP32 table is off by 33x for the H100: 1980 GFLOPS vs 67 TFLOP/s.
static_assert(hml::peak(devices::h100_sxm, fp32).value / 1980_GFLOPS > 33.8 &&
              hml::peak(devices::h100_sxm, fp32).value / 1980_GFLOPS < 33.9);

// Ridge points (FLOP/B): FP32 on the H100 is 20, FP16 on its tensor cores 295 (15x more), FP64 4.76 on the A100.
constexpr auto ridge_text = [](const hml::roof& r, int decimals) {
  return hml::format_number(in(hml::ridge_point(r), hml::flop_per_byte), hml::fixed(decimals));
};
static_assert(ridge_text(hml::roof_of(devices::h100_sxm, precision::fp32), 1) == "20.0");
static_assert(ridge_text(hml::roof_of(devices::h100_sxm, precision::fp16), 1) == "295.2");
static_assert(ridge_text(hml::roof_of(devices::a100_sxm_80gb, precision::fp32), 2) == "9.56");
static_assert(ridge_text(hml::roof_of(devices::a100_sxm_80gb, precision::fp64), 2) == "4.76");
// A precision alone is its vector units where published (FP64 on the H100: 34, not the tensor cores' 67) ...
static_assert(hml::kind_for(devices::h100_sxm, precision::fp64).unit == compute_unit::vector);
static_assert(hml::roof_of(devices::h100_sxm, precision::fp64).peak == 34_TFLOPS);
// ... else its tensor units.
static_assert(hml::kind_for(devices::h100_sxm, precision::fp16).unit == compute_unit::tensor);
static_assert(hml::analyze(hml::naive_matmul<double>(1024), devices::a100_sxm_80gb, precision::fp64).bound ==
              hml::regime::memory_bound);

// Derived figures, computed from their parts: pin rate x bus width, channels x pin rate x 64 bits, cores x
// clock x FLOP/cycle.
static_assert(hml::interface_bandwidth(hml::main_memory(devices::m1_pro).interface) == 204.8_GBps);
static_assert(hml::to_text(hml::interface_bandwidth(hml::main_memory(devices::h100_sxm).interface), {hml::general(5)}) ==
              "3.3536 TB/s");
static_assert(hml::interface_bandwidth(hml::main_memory(devices::rtx_4090).interface) == 1008_GBps);
static_assert(hml::interface_bandwidth(hml::main_memory(devices::mi250x).interface) ==
              hml::main_memory(devices::mi250x).bandwidth.value);
static_assert(!hml::main_memory(devices::h200).interface.pin_rate.published());
static_assert(hml::main_memory(devices::epyc_9654).bandwidth.value == 460.8_GBps);
static_assert(hml::main_memory(devices::epyc_9654).bandwidth.kind == hml::provenance::derived);
static_assert(hml::main_memory(devices::xeon_8480_plus).bandwidth.value == 307.2_GBps);
static_assert(hml::peak(devices::epyc_9654, {precision::fp64, compute_unit::vector}).value ==
              96 * 2.4_GHz * (16 * hml::flop));
static_assert(hml::peak(devices::epyc_9654, {precision::fp64, compute_unit::vector}).kind == hml::provenance::derived);
// A peak derived from an unconfirmed clock is unconfirmed.
static_assert(hml::peak(devices::xeon_8480_plus, {precision::fp64, compute_unit::vector}).kind ==
              hml::provenance::unconfirmed);
static_assert(hml::peak(devices::xeon_8480_plus, {precision::fp64, compute_unit::vector}).value == 3.584_TFLOPS);

// Provenance and sources: every figure cites a source in the list (the catalog also checks this itself).
static_assert(hml::peak(devices::h100_sxm, fp32).kind == hml::provenance::stated);
static_assert(hml::peak(devices::h100_sxm, fp32).source == "nvidia-h100-datasheet");
static_assert(devices::find_source("nvidia-h100-datasheet")->where == "archive-lib.hpctech.co.jp/gpuproduct/nvidia-h100.html");
static_assert(devices::find_source("N7") == nullptr);
// A third-party figure with no source to cite is left out (the L40S's FP64), not carried unsourced.
static_assert(!hml::peak(devices::l40s, {precision::fp64, compute_unit::vector}).published());
static_assert(!hml::peak(devices::v100, {precision::tf32, compute_unit::tensor}).published());
// The L40S's FP8 tensor peak is its datasheet's (733 dense, 1,466 with sparsity), as TensorRT-LLM's FP8 runs use it.
static_assert(hml::peak(devices::l40s, {precision::fp8, compute_unit::tensor}).value == 733_TFLOPS);
// Measured matmul rates (MAMF, BF16 and FP8 inputs; FP16 as BF16) beside the datasheets' tensor peaks: the
// A100 SXM reaches 86.9 % of its 312, the H100 SXM 80.3 % of its 989 and 70.9 % of its FP8 1,979. The
// default figures (measured where published) take them; the GH200's Hopper, another board, has none.
constexpr hml::compute_kind bf16_tensor{precision::bf16, compute_unit::tensor};
constexpr hml::compute_kind fp16_tensor{precision::fp16, compute_unit::tensor};
static_assert(hml::peak(devices::h100_sxm, bf16_tensor, hml::basis::measured).value == 794.5_TFLOPS);
static_assert(hml::peak(devices::h100_sxm, fp16_tensor, hml::basis::measured_where_published).value == 794.5_TFLOPS);
static_assert(hml::peak(devices::h100_sxm, {precision::fp8, compute_unit::tensor}, hml::basis::measured).value ==
              1402.6_TFLOPS);
static_assert(hml::peak(devices::h100_sxm, fp16_tensor).value == 989_TFLOPS);
static_assert(hml::peak(devices::a100_sxm_80gb, bf16_tensor, hml::basis::measured).value == 271.2_TFLOPS);
static_assert(hml::peak(devices::a100_sxm_80gb, fp16_tensor, hml::basis::measured).source == "bekman-mamf");
static_assert(hml::peak(devices::a100_sxm_80gb, fp16_tensor, hml::basis::measured).kind == hml::provenance::measured);
static_assert(!hml::find_ceiling(hml::systems::gh200_hopper, fp16_tensor)->measured.published());

// This project's own measurements (benchmarks/gpu, 2026-11-24; the tables in docs/explanation/benchmarks/gpu.md, whose test
// checks these figures against the measurement files): an L1 and an L2 level's read bandwidth, the vector
// FMA peaks at 96 % of the datasheets' and cuBLASLt's FP64 and TF32 tensor GEMMs; the H100's L1 reads 2.3x its
// L2, which reads 3.4x the HBM's stated 3.35 TB/s.
static_assert(hml::bandwidth_of(devices::h100_sxm.memory[0], hml::basis::measured).value == 25.61_TBps);
static_assert(devices::h100_sxm.memory[0].name == "L1" && devices::h100_sxm.memory[0].scope == hml::sharing::per_core);
static_assert(hml::bandwidth_of(devices::h100_sxm.memory[1], hml::basis::measured).value == 11.26_TBps);
static_assert(hml::bandwidth_of(devices::h100_sxm.memory[1], hml::basis::measured).source == "hml-gpu-h100-sxm");
static_assert(hml::bandwidth_of(devices::h200.memory[0], hml::basis::measured).value == 26.97_TBps);
static_assert(hml::bandwidth_of(devices::h200.memory[1], hml::basis::measured).value == 12.66_TBps);
static_assert(hml::peak(devices::h100_sxm, fp32, hml::basis::measured).value == 64.3_TFLOPS);
static_assert(hml::peak(devices::h100_sxm, fp32, hml::basis::measured).kind == hml::provenance::measured);
static_assert(hml::peak(devices::h100_sxm, {precision::fp64, compute_unit::vector}, hml::basis::measured).value == 32.57_TFLOPS);
static_assert(hml::peak(devices::h100_sxm, {precision::fp64, compute_unit::tensor}, hml::basis::measured).value == 62.61_TFLOPS);
static_assert(hml::peak(devices::h100_sxm, {precision::tf32, compute_unit::tensor}, hml::basis::measured).value == 400.7_TFLOPS);
static_assert(hml::peak(devices::h200, fp32, hml::basis::measured).value == 64.04_TFLOPS);
static_assert(hml::peak(devices::h200, {precision::fp64, compute_unit::vector}, hml::basis::measured).value == 32.71_TFLOPS);
static_assert(hml::peak(devices::h200, {precision::fp64, compute_unit::tensor}, hml::basis::measured).value == 62.29_TFLOPS);
static_assert(hml::peak(devices::h200, {precision::tf32, compute_unit::tensor}, hml::basis::measured).value == 411.6_TFLOPS);
// The H200's BF16 and FP16 GEMMs measured here (no published measurement had them): 80.5 % and 73.8 % of
// the datasheet's 989 TFLOP/s.
static_assert(hml::peak(devices::h200, {precision::bf16, compute_unit::tensor}, hml::basis::measured).value == 796.6_TFLOPS);
static_assert(hml::peak(devices::h200, {precision::fp16, compute_unit::tensor}, hml::basis::measured).value == 729.7_TFLOPS);
static_assert(hml::peak(devices::h200, {precision::bf16, compute_unit::tensor}, hml::basis::measured).source == "hml-gpu-h200");
static_assert(hml::peak(devices::h100_sxm, fp32, hml::basis::measured).value / hml::peak(devices::h100_sxm, fp32).value > 0.959);
// The H100's measured hierarchical roofline: three levels (L1, L2, HBM), fastest first, each a ridge of its own.
constexpr auto h100_measured = hml::hierarchical_roof_of<3, 7>(devices::h100_sxm, hml::basis::measured);
static_assert(h100_measured.bandwidths[0].name == "L1" && h100_measured.bandwidths[2].bandwidth == 2.97_TBps);
static_assert(h100_measured.bandwidths[0].bandwidth / h100_measured.bandwidths[1].bandwidth > 2.27 &&
              h100_measured.bandwidths[1].bandwidth / 3.35_TBps > 3.36);

// A kernel's fixed cost, derived: cuBLASLt's 1024^3 GEMM as Azure measured it (A100 FP16 119.4 TFLOP/s, H100
// FP8 274.1, H200 FP8 290.8) less the same GEMM in the expected time's tiles (64 of 128 x 128, one wave) at
// the catalog's default matmul rate (measured where published: 271.2, 1,402.6 and, the H200's best cuBLASLt
// GEMM in the same tables, 1,366.3).
constexpr double gemm_1024_flop = 2.0 * 1024 * 1024 * 1024;
constexpr double kernel_overhead_us(const hml::device& d, precision p, double measured_tflops) {
  const hml::compute_rate rate = hml::peak(d, {p, compute_unit::tensor}, hml::basis::measured_where_published).value;
  const double tiled_us = gemm_1024_flop / (rate / 1_TFLOPS * 1e12) * hml::tiling_factor({1, 1024, 1024}, d.cores) * 1e6;
  return gemm_1024_flop / (measured_tflops * 1e12) * 1e6 - tiled_us;
}
constexpr bool within(double a, double b, double tolerance) { return a - b <= tolerance && b - a <= tolerance; }
static_assert(within(kernel_overhead_us(devices::a100_sxm_80gb, precision::fp16, 119.4), 4.62, 0.005));
static_assert(within(kernel_overhead_us(devices::h100_sxm, precision::fp8, 274.1), 4.68, 0.005));
static_assert(within(kernel_overhead_us(devices::h200, precision::fp8, 290.8), 4.14, 0.005));
static_assert(hml::peak(devices::h200, {precision::fp8, compute_unit::tensor}, hml::basis::measured).value == 1366.3_TFLOPS);
static_assert(devices::h100_sxm.kernel_overhead.value == 4.68_us && devices::h200.kernel_overhead.value == 4.14_us &&
              devices::a100_sxm_80gb.kernel_overhead.value == 4.62_us);
static_assert(devices::a100_sxm_80gb.kernel_overhead.kind == hml::provenance::derived);
static_assert(!devices::l40s.kernel_overhead.published() && !devices::a100_sxm_40gb.kernel_overhead.published());
static_assert(hml::to_string(hml::provenance::derived) == "derived");
static_assert(devices::all.size() == 15);
static_assert(devices::all[0]->id == "h100_sxm" && devices::all[14]->id == "xeon_8480_plus");

// The V100's measured (ERT) hierarchical roofline beside its datasheet: L1, L2 and HBM, FP64 with and
// without FMA, and the per-level ridges that come out of it.
constexpr auto v100_ert = hml::hierarchical_roof_of<3, 2>(devices::v100, hml::basis::measured);
static_assert(v100_ert.bandwidths[0].name == "L1" && v100_ert.bandwidths[0].bandwidth == 14336_GBps);
static_assert(v100_ert.bandwidths[1].name == "L2" && v100_ert.bandwidths[1].bandwidth == 2996.77_GBps);
static_assert(v100_ert.bandwidths[2].name == "HBM2" && v100_ert.bandwidths[2].bandwidth == 828.758_GBps);
static_assert(v100_ert.peaks[0].name == "FP64" && v100_ert.peaks[0].peak == 7068.86_GFLOPS);
static_assert(v100_ert.peaks[1].name == "FP64 no FMA" && v100_ert.peaks[1].peak == 3535.79_GFLOPS);
static_assert(hml::main_memory(devices::v100).measured_bandwidth.kind == hml::provenance::measured);
static_assert(hml::main_memory(devices::v100).bandwidth.value == 900_GBps);  // the datasheet's, kept beside
static_assert(ridge_text({v100_ert.bandwidths[0].bandwidth, v100_ert.peaks[0].peak}, 3) == "0.493");
static_assert(ridge_text({v100_ert.bandwidths[1].bandwidth, v100_ert.peaks[0].peak}, 2) == "2.36");
static_assert(ridge_text({v100_ert.bandwidths[2].bandwidth, v100_ert.peaks[0].peak}, 2) == "8.53");
static_assert(ridge_text({v100_ert.bandwidths[2].bandwidth, v100_ert.peaks[1].peak}, 2) == "4.27");
static_assert(ridge_text(hml::roof_of(devices::v100, precision::fp64, hml::basis::measured), 2) == "8.53");
// A kernel at 2 FLOP/B per L2 byte and 10 per HBM byte is L2-bound on the measured V100.
static_assert(hml::analyze(hml::hierarchical_kernel<3>{"k", 1_GFLOP, {0.1_GB, 0.5_GB, 0.1_GB}, "FP64"}, v100_ert).binding ==
              "L2");

// The seed's simple forms are descriptions too, and come back unchanged.
constexpr hml::memory seed_memory{.latency = 50_ns, .bandwidth = 1_Gbps};
constexpr hml::compute_core seed_core{10_GFLOPS};
constexpr hml::machine_description seed = hml::describe(seed_memory, seed_core, precision::fp32);
static_assert(hml::memory_of(seed).bandwidth == seed_memory.bandwidth && hml::memory_of(seed).latency == 50_ns);
static_assert(hml::core_of(seed, fp32).peak == seed_core.peak);
static_assert(hml::roof_of(seed, precision::fp32).peak == 10_GFLOPS);
constexpr hml::machine_description two_tier =
    hml::describe(hml::two_tier_memory{50_ns, 100_GBps, 10_GBps, 0.9}, seed_core, precision::fp64);
static_assert(two_tier.memory.size() == 2 && hml::main_memory(two_tier).bandwidth.value == 10_GBps);
static_assert(hml::roof_of(two_tier, precision::fp64).bandwidth == 10_GBps);

// A roof needs both figures: the V100 publishes no INT8 peak (its tensor cores are FP16 only), and a
// machine that states a peak but no main-memory bandwidth has no roof either.
static_assert(hml::has_roof(devices::h100_sxm, precision::fp32) && hml::has_roof(devices::h100_sxm, precision::fp8));
static_assert(!hml::has_roof(devices::v100, precision::int8));
static_assert(!hml::has_roof(hml::machine_description{.memory = {{.name = "DRAM", .capacity = hml::stated(64_GiB)}},
                                                      .compute = {{.type = precision::fp64,
                                                                   .dense = hml::stated(1_TFLOPS)}}},
                             precision::fp64));

}  // namespace
