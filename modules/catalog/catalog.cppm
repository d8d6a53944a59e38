// hml.catalog — real devices as constexpr machine descriptions (hml.machine_description): memory levels with
// typed capacities and bandwidths, compute ceilings per precision and unit, every figure tagged stated,
// derived, measured or unconfirmed and citing a source by key. The sources are a list of their own
// (hml::devices::sources: key, title, where to find it), and hml::devices::all is the one list of devices:
// their ids, lookup by name, `hml devices` and docs/reference/catalog.md all read it.
//
// Tensor figures are dense; the vendor's "with sparsity" figures (twice the dense ones) are kept apart in
// each ceiling's `sparse`, so that no sparse figure can pass for a dense one. Derived figures (a bandwidth
// from its interface, a CPU's peak from cores x clock x FLOP/cycle) are computed here from their parts, not
// typed. Where a published measurement exists it is carried beside the datasheet figure as `measured`:
// BabelStream / gpu-stream triads for HBM, and the empirical (ERT) hierarchical roofline of a V100; and this
// project's own measurements of an H100 and an H200 (benchmarks/gpu: L1, L2, vector and FP64/TF32 tensor peaks).
//
// Seed 004's profile_kernel.py has a GPU table with wrong FP32 peaks, e.g. H100 "1980 GFLOPS" where the
// H100 SXM does 67 TFLOP/s (33x more; 1,979 TFLOP/s is its FP16-sparse / INT8-dense tensor figure, ~2 PF),
// A100 "1248" (19.5 TFLOP/s), V100 "1245" (15.7), RTX 4090 "1321" (82.6), RTX 3090 "1188" (35.6), GH200
// "1980" (67). It also gives the A100 "SXM" 1935 GB/s, the A100 PCIe 80GB's bandwidth (SXM: 2,039).
// The table in docs/reference/catalog.md lists them next to these figures.
module;
#include <array>
#include <cstddef>
#include <string_view>
export module hml.catalog;
export import hml.machine_description;

export namespace hml {

// A catalog device is a machine description.
using device = machine_description;

}  // namespace hml

namespace hml::devices {
using namespace hml::literals;  // for the figures below; not exported
using enum hml::precision;
using enum hml::compute_unit;

// Source keys, so that a mistyped key is a compile error (and every key is checked against the list below).
constexpr std::string_view h100_datasheet = "nvidia-h100-datasheet";
constexpr std::string_view h100_pcie_brief = "nvidia-h100-pcie-brief";
constexpr std::string_view lockwood_h100 = "lockwood-h100";
constexpr std::string_view anandtech_h200 = "anandtech-21136";
constexpr std::string_view aiwiki_h200 = "aiwiki-h200";
constexpr std::string_view blackwell_table = "blackwell-spec-table";
constexpr std::string_view a100_datasheet = "nvidia-a100-datasheet";
constexpr std::string_view v100_datasheet = "nvidia-v100-datasheet";
constexpr std::string_view v100_ert = "yang-kurth-williams-ert-v100";
constexpr std::string_view l40s_datasheet = "nvidia-l40s-datasheet";
constexpr std::string_view geforce_tables = "tomshardware-geforce-tables";
constexpr std::string_view mi300_docs = "amd-rocm-mi300";
constexpr std::string_view mi200_table = "amd-mi200-launch";
constexpr std::string_view apple_m1_pro = "apple-m1-pro-press";
constexpr std::string_view epyc_9004 = "amd-epyc-9004";
constexpr std::string_view xeon_8480 = "intel-xeon-8480";
constexpr std::string_view babelstream = "azure-babelstream";
constexpr std::string_view gpu_stream = "gpu-benches-gpu-stream";
constexpr std::string_view mamf = "bekman-mamf";
constexpr std::string_view azure_gemm = "azure-cublaslt-gemm";
constexpr std::string_view hml_h100 = "hml-gpu-h100-sxm";
constexpr std::string_view hml_h200 = "hml-gpu-h200";
constexpr std::string_view hml_weight_only = "hml-gpu-weight-only";

// Ceilings, dense; `sparse` where the vendor states a sparsity figure.
constexpr ceiling_description vec(precision p, figure<compute_rate> dense, figure<compute_rate> achieved = {}) {
  return {.type = p, .unit = compute_unit::vector, .dense = dense, .measured = achieved};
}
constexpr ceiling_description tc(precision p, figure<compute_rate> dense, figure<compute_rate> sparse = {},
                                 figure<compute_rate> achieved = {}) {
  return {.type = p, .unit = compute_unit::tensor, .dense = dense, .sparse = sparse, .measured = achieved};
}

}  // namespace hml::devices

export namespace hml::devices {

// Every document a catalog figure cites. `where` is what a reader types or looks for; the hardware notes
// this catalog was collected from cite these, row by row.
inline constexpr std::array<source, 23> sources{{
    {h100_datasheet, "NVIDIA H100 Tensor Core GPU datasheet (specification table)",
     "archive-lib.hpctech.co.jp/gpuproduct/nvidia-h100.html"},
    {h100_pcie_brief, "NVIDIA H100 PCIe GPU product brief, PB-11133-001", "NVIDIA document PB-11133-001"},
    {lockwood_h100, "Glenn K. Lockwood, \"H100\" (processor notes)", "glennklockwood.com/garden/processors/h100"},
    {anandtech_h200, "AnandTech on the H100 and H200", "anandtech.com/show/21136"},
    {aiwiki_h200, "NVIDIA H200 specifications", "aiwiki.ai/wiki/nvidia_h200"},
    {blackwell_table, "GB200 NVL72 / HGX B200 specification table; Glenn K. Lockwood, \"B200\"",
     "zdszero.github.io/Computer/Artificial_Intelligence/Hardware.html; glennklockwood.com/garden/processors/B200"},
    {a100_datasheet, "NVIDIA A100 Tensor Core GPU datasheet", "nvidia-a100-datasheet-us-nvidia-1758950-r4-web.pdf"},
    {v100_datasheet, "NVIDIA V100 Tensor Core GPU datasheet (final, 1530 MHz); NVIDIA Tesla V100 whitepaper",
     "NVIDIA V100 datasheet; whitepaper copy at techrival.com"},
    {v100_ert,
     "C. Yang, T. Kurth, S. Williams, \"Hierarchical Roofline Analysis for GPUs: Accelerating Performance "
     "Optimization for the NERSC-9 Perlmutter System\" (CUG 2019; CCPE 2020): ERT ceilings of a V100, in the "
     "first author's plotting data",
     "github.com/cyanguwa/nersc-roofline, Plotting/data_hierarchical.txt (memroofs 14336 2996.77 828.758; "
     "comproofs 7068.86 3535.79) and Plotting/gpu.3.fma; paper text at docslib.org/doc/323895"},
    {l40s_datasheet, "NVIDIA L40S datasheet (specification table)", "mullet.se (copy of the datasheet table)"},
    {geforce_tables, "Tom's Hardware RTX 4090 / RTX 3090 specification tables",
     "holynerdvana.blogspot.com (copy); waredb.com"},
    {mi300_docs, "AMD ROCm documentation: MI300 architecture; GPU specifications",
     "github.com/ROCm/legacy-rocm-build docs/conceptual/gpu-arch/mi300.md; github.com/ROCm/rocm-docs "
     "docs/reference/gpu-specs.rst"},
    {mi200_table, "AMD Instinct MI200 launch specification table",
     "zexron.com (copy); ROCm docs/reference/gpu-specs.rst; siliconcat.net"},
    {apple_m1_pro, "Apple press release, 18 October 2021 (M1 Pro and M1 Max)",
     "apple.com/newsroom, 18 Oct 2021; techzone.top; winabode.com; notebookcheck.net"},
    {epyc_9004, "AMD EPYC 9004 series specifications", "hpctech.co.jp/product/amd-epyc-9004-series"},
    {xeon_8480, "Intel Xeon Platinum 8480+ specifications",
     "servethehome.com (Xeon Max 9480 article); stackoverflow.com/q/15655835"},
    {babelstream, "Azure AI benchmarking guide: BabelStream results (triad)",
     "github.com/Azure/AI-benchmarking-guide, Azure_Results/; MI300X: fork samuel-bohman/AI-benchmarking-guide"},
    {gpu_stream, "gpu-benches: gpu-stream results (best triad)", "github.com/te42kyfo/gpu-benches, gpu-stream/*.txt"},
    {mamf,
     "Stas Bekman, Machine Learning Engineering Open Book: Maximum Achievable Matmul FLOPS (MAMF) table, "
     "torch.matmul, mean of 100 iterations after 50 warm-up, best shape found (BF16 and FP8 inputs; the "
     "catalog takes the BF16 figure for FP16 too, which the datasheets rate the same)",
     "github.com/stas00/ml-engineering, compute/accelerator/README.md (commit b9e2972), "
     "\"Maximum Achievable Matmul FLOPS comparison table\""},
    {azure_gemm,
     "Azure AI benchmarking guide: cuBLASLt GEMM rate by shape (random initialisation, 10,000 warm-up "
     "iterations): A100 SXM4 80GB in FP16, H100 and H200 in FP8 (the H200's best, 1,366.3 TFLOP/s at 16384^3, is "
     "its measured FP8 rate); the kernel overhead is the 1024^3 GEMM's time less its one wave of 128 x 128 "
     "tiles at the catalog's matmul rate (hml::tiling_factor)",
     "github.com/Azure/AI-benchmarking-guide, Azure_Results/ND_A100_v4_results.md (commit 3bb66ca) and "
     "ND_H200_v5_results.md (commit 7f20e5f); the fork yosoyjay/AI-benchmarking-guide, "
     "Azure_Results/ND_H100_v5_results.md (commit a8263ef)"},
    {hml_h100, "hetero-memory-lab's benchmarks/gpu on an NVIDIA H100 80GB HBM3 (SXM5), driver 580.159.04, CUDA 13.0, "
               "cuBLASLt 13.1, PyTorch 2.11.0+cu130 (FlashAttention-2 through scaled_dot_product_attention), 2026-11-24",
     "benchmarks/gpu/measured/h100_sxm/ in this repository; the tables and the method in "
     "docs/explanation/benchmarks/gpu.md"},
    {hml_weight_only,
     "hetero-memory-lab's benchmarks/gpu/weight_only.py on an NVIDIA H100 80GB HBM3 (SXM5) and an H200, driver "
     "580.159.04, PyTorch 2.11.0+cu130, 2026-11-26: tinygemm's INT4 product of one token (groups of 32), the "
     "fastest of Llama 2's projections (70B's output projection); the A100's is derived from the H100's, scaled "
     "by SMs x boost clock (108 x 1.41 GHz over 132 x 1.98 GHz), as the kernel's rate is its SMs' (the same on the "
     "H100 and the H200, whose memories differ by 1.4x)",
     "benchmarks/gpu/measured/h100_sxm/ and h200/weight_only.csv in this repository; the table and the method in "
     "docs/explanation/benchmarks/gpu.md"},
    {hml_h200, "hetero-memory-lab's benchmarks/gpu on an NVIDIA H200 (SXM, 141 GB), driver 580.159.04, CUDA 13.0, "
               "cuBLASLt 13.1, PyTorch 2.11.0+cu130 (FlashAttention-2 through scaled_dot_product_attention), 2026-11-24",
     "benchmarks/gpu/measured/h200/ in this repository; the tables and the method in "
     "docs/explanation/benchmarks/gpu.md"},
}};

// The source with this key; nullptr if none.
[[nodiscard]] constexpr const source* find_source(std::string_view key) noexcept {
  for (const source& s : sources) {
    if (s.key == key) return &s;
  }
  return nullptr;
}

// clang-format off
inline constexpr device h100_sxm{
    .id = "h100_sxm", .name = "NVIDIA H100 SXM5 80GB",
    .memory = {{.name = "L1", .measured_bandwidth = measured(25.61_TBps, hml_h100), .scope = sharing::per_core},
               {.name = "L2", .capacity = stated(50_MB, lockwood_h100), .measured_bandwidth = measured(11.26_TBps, hml_h100)},
               {.name = "HBM3", .capacity = stated(80_GB, h100_datasheet), .bandwidth = stated(3.35_TBps, h100_datasheet),
                .measured_bandwidth = measured(2.97_TBps, babelstream),
                .interface = {.bus_bits = 5120, .pin_rate = stated(5.24_Gbps, lockwood_h100)}}},
    .compute = {vec(fp64, stated(34_TFLOPS, h100_datasheet), measured(32.57_TFLOPS, hml_h100)),
                tc(fp64, stated(67_TFLOPS, h100_datasheet), {}, measured(62.61_TFLOPS, hml_h100)),
                vec(fp32, stated(67_TFLOPS, h100_datasheet), measured(64.3_TFLOPS, hml_h100)),
                tc(tf32, stated(494.7_TFLOPS, h100_datasheet), stated(989_TFLOPS, h100_datasheet),
                   measured(400.7_TFLOPS, hml_h100)),
                tc(bf16, stated(989_TFLOPS, h100_datasheet), stated(1979_TFLOPS, h100_datasheet),
                   measured(794.5_TFLOPS, mamf)),
                tc(fp16, stated(989_TFLOPS, h100_datasheet), stated(1979_TFLOPS, h100_datasheet),
                   measured(794.5_TFLOPS, mamf)),
                tc(fp8, stated(1979_TFLOPS, h100_datasheet), stated(3958_TFLOPS, h100_datasheet),
                   measured(1402.6_TFLOPS, mamf)),
                tc(int8, stated(1979_TFLOPS, h100_datasheet), stated(3958_TFLOPS, h100_datasheet))},
    .cores = 132, .clock = stated(1.98_GHz, lockwood_h100), .kernel_overhead = derived(4.68_us, azure_gemm),
    .attention_rate = measured(347_TFLOPS, hml_h100), .int4_weight_rate = measured(1.924_TBps, hml_weight_only),
    .note = "FP32 = 16,896 lanes x 2 x 1.98 GHz = 66.9 TFLOP/s; tensor clock 1.83 GHz"};
inline constexpr device h100_pcie{
    .id = "h100_pcie", .name = "NVIDIA H100 PCIe 80GB",
    .memory = {{.name = "L2", .capacity = stated(50_MB, h100_datasheet)},
               {.name = "HBM2e", .capacity = stated(80_GB, h100_datasheet), .bandwidth = stated(2000_GBps, h100_pcie_brief),
                .measured_bandwidth = measured(1832_GBps, gpu_stream), .interface = {.bus_bits = 5120}}},
    .compute = {vec(fp64, stated(26_TFLOPS, h100_datasheet)), tc(fp64, stated(51_TFLOPS, h100_datasheet)),
                vec(fp32, stated(51_TFLOPS, h100_datasheet)),
                tc(tf32, stated(378_TFLOPS, h100_datasheet), stated(756_TFLOPS, h100_datasheet)),
                tc(bf16, stated(756_TFLOPS, h100_datasheet), stated(1513_TFLOPS, h100_datasheet)),
                tc(fp16, stated(756_TFLOPS, h100_datasheet), stated(1513_TFLOPS, h100_datasheet)),
                tc(fp8, stated(1513_TFLOPS, h100_datasheet), stated(3026_TFLOPS, h100_datasheet)),
                tc(int8, stated(1513_TFLOPS, h100_datasheet), stated(3026_TFLOPS, h100_datasheet))},
    .cores = 114, .clock = stated(1.755_GHz, h100_datasheet),
    .note = "Chips and Cheese gives 2.04 TB/s"};
inline constexpr device h200{
    .id = "h200", .name = "NVIDIA H200 SXM 141GB",
    .memory = {{.name = "L1", .measured_bandwidth = measured(26.97_TBps, hml_h200), .scope = sharing::per_core},
               {.name = "L2", .capacity = stated(50_MB, anandtech_h200), .measured_bandwidth = measured(12.66_TBps, hml_h200)},
               {.name = "HBM3e", .capacity = stated(141_GB, aiwiki_h200), .bandwidth = stated(4.8_TBps, aiwiki_h200),
                .measured_bandwidth = measured(4.15_TBps, babelstream)}},
    .compute = {vec(fp64, stated(34_TFLOPS, aiwiki_h200), measured(32.71_TFLOPS, hml_h200)),
                tc(fp64, stated(67_TFLOPS, aiwiki_h200), {}, measured(62.29_TFLOPS, hml_h200)),
                vec(fp32, stated(67_TFLOPS, aiwiki_h200), measured(64.04_TFLOPS, hml_h200)),
                tc(tf32, stated(494.7_TFLOPS, aiwiki_h200), stated(989_TFLOPS, aiwiki_h200),
                   measured(411.6_TFLOPS, hml_h200)),
                tc(bf16, stated(989_TFLOPS, aiwiki_h200), stated(1979_TFLOPS, aiwiki_h200),
                   measured(796.6_TFLOPS, hml_h200)),
                tc(fp16, stated(989_TFLOPS, aiwiki_h200), stated(1979_TFLOPS, aiwiki_h200),
                   measured(729.7_TFLOPS, hml_h200)),
                tc(fp8, stated(1979_TFLOPS, aiwiki_h200), stated(3958_TFLOPS, aiwiki_h200),
                   measured(1366.3_TFLOPS, azure_gemm)),
                tc(int8, stated(1979_TFLOPS, aiwiki_h200), stated(3958_TFLOPS, aiwiki_h200))},
    .cores = 132, .kernel_overhead = derived(4.14_us, azure_gemm), .attention_rate = measured(347.7_TFLOPS, hml_h200),
    .int4_weight_rate = measured(1.991_TBps, hml_weight_only),
    .note = "bus width: sources disagree (6144-bit or 8192-bit); gpu-stream measures 3.53 TB/s, BabelStream 4.15; "
            "CUDA reports 60 MiB of L2 on the H200 measured here (50 MiB on the H100)"};
inline constexpr device b200{
    .id = "b200", .name = "NVIDIA B200 (HGX)",
    .memory = {{.name = "HBM3e", .capacity = stated(180_GB, blackwell_table), .bandwidth = stated(7.7_TBps, blackwell_table),
                .interface = {.bus_bits = 8192}}},
    .compute = {vec(fp64, stated(37_TFLOPS, blackwell_table)), tc(fp64, stated(37_TFLOPS, blackwell_table)),
                vec(fp32, stated(75_TFLOPS, blackwell_table)),
                tc(tf32, stated(1100_TFLOPS, blackwell_table), stated(2200_TFLOPS, blackwell_table)),
                tc(bf16, stated(2250_TFLOPS, blackwell_table), stated(4500_TFLOPS, blackwell_table)),
                tc(fp16, stated(2250_TFLOPS, blackwell_table), stated(4500_TFLOPS, blackwell_table)),
                tc(fp8, stated(4500_TFLOPS, blackwell_table), stated(9000_TFLOPS, blackwell_table)),
                tc(int8, stated(4500_TFLOPS, blackwell_table), stated(9000_TFLOPS, blackwell_table)),
                tc(nvfp4, stated(9000_TFLOPS, blackwell_table), stated(18000_TFLOPS, blackwell_table)),
                tc(mxfp4, stated(9000_TFLOPS, blackwell_table), stated(18000_TFLOPS, blackwell_table))},
    .note = "current datasheet; GTC-2024 figures were 192 GB, 8 TB/s, FP64 40, FP32 80; FP4 (NVFP4 and MXFP4 alike) "
            "is stated as one figure"};
inline constexpr device a100_sxm_80gb{
    .id = "a100_sxm_80gb", .name = "NVIDIA A100 SXM4 80GB",
    .memory = {{.name = "L2", .capacity = stated(40_MB, a100_datasheet)},
               {.name = "HBM2e", .capacity = stated(80_GB, a100_datasheet), .bandwidth = stated(2039_GBps, a100_datasheet),
                .measured_bandwidth = measured(1.70_TBps, babelstream),
                .interface = {.bus_bits = 5120, .pin_rate = stated(3.19_Gbps, a100_datasheet)}}},
    .compute = {vec(fp64, stated(9.7_TFLOPS, a100_datasheet)), tc(fp64, stated(19.5_TFLOPS, a100_datasheet)),
                vec(fp32, stated(19.5_TFLOPS, a100_datasheet)),
                tc(tf32, stated(156_TFLOPS, a100_datasheet), stated(312_TFLOPS, a100_datasheet)),
                tc(bf16, stated(312_TFLOPS, a100_datasheet), stated(624_TFLOPS, a100_datasheet),
                   measured(271.2_TFLOPS, mamf)),
                tc(fp16, stated(312_TFLOPS, a100_datasheet), stated(624_TFLOPS, a100_datasheet),
                   measured(271.2_TFLOPS, mamf)),
                tc(int8, stated(624_TFLOPS, a100_datasheet), stated(1248_TFLOPS, a100_datasheet)),
                tc(int4, stated(1248_TFLOPS, a100_datasheet), stated(2496_TFLOPS, a100_datasheet))},
    .cores = 108, .clock = stated(1.41_GHz, a100_datasheet), .kernel_overhead = derived(4.62_us, azure_gemm),
    .int4_weight_rate = derived(1.121_TBps, hml_weight_only)};
inline constexpr device a100_sxm_40gb{
    .id = "a100_sxm_40gb", .name = "NVIDIA A100 SXM4 40GB",
    .memory = {{.name = "L2", .capacity = stated(40_MB, a100_datasheet)},
               {.name = "HBM2", .capacity = stated(40_GB, a100_datasheet), .bandwidth = stated(1555_GBps, a100_datasheet),
                .measured_bandwidth = measured(1375_GBps, gpu_stream),
                .interface = {.bus_bits = 5120, .pin_rate = stated(2.43_Gbps, a100_datasheet)}}},
    .compute = {vec(fp64, stated(9.7_TFLOPS, a100_datasheet)), tc(fp64, stated(19.5_TFLOPS, a100_datasheet)),
                vec(fp32, stated(19.5_TFLOPS, a100_datasheet)),
                tc(tf32, stated(156_TFLOPS, a100_datasheet), stated(312_TFLOPS, a100_datasheet)),
                tc(bf16, stated(312_TFLOPS, a100_datasheet), stated(624_TFLOPS, a100_datasheet),
                   measured(271.2_TFLOPS, mamf)),
                tc(fp16, stated(312_TFLOPS, a100_datasheet), stated(624_TFLOPS, a100_datasheet),
                   measured(271.2_TFLOPS, mamf)),
                tc(int8, stated(624_TFLOPS, a100_datasheet), stated(1248_TFLOPS, a100_datasheet)),
                tc(int4, stated(1248_TFLOPS, a100_datasheet), stated(2496_TFLOPS, a100_datasheet))},
    .cores = 108, .clock = stated(1.41_GHz, a100_datasheet)};
// The ERT ceilings: L1 (per SM, summed over the 80 SMs), L2 and HBM bandwidth, FP64 with and without FMA.
inline constexpr device v100{
    .id = "v100", .name = "NVIDIA V100 SXM2 32GB",
    .memory = {{.name = "L1", .measured_bandwidth = measured(14336_GBps, v100_ert), .scope = sharing::per_core},
               {.name = "L2", .capacity = stated(6_MB, v100_datasheet), .measured_bandwidth = measured(2996.77_GBps, v100_ert)},
               {.name = "HBM2", .capacity = stated(32_GB, v100_datasheet), .bandwidth = stated(900_GBps, v100_datasheet),
                .measured_bandwidth = measured(828.758_GBps, v100_ert), .interface = {.bus_bits = 4096}}},
    .compute = {{.type = fp64, .unit = vector, .dense = stated(7.8_TFLOPS, v100_datasheet),
                 .measured = measured(7068.86_GFLOPS, v100_ert)},
                {.type = fp64, .unit = vector, .measured = measured(3535.79_GFLOPS, v100_ert), .variant = "FP64 no FMA"},
                vec(fp32, stated(15.7_TFLOPS, v100_datasheet)), tc(fp16, stated(125_TFLOPS, v100_datasheet))},
    .cores = 80, .clock = stated(1.53_GHz, v100_datasheet),
    .note = "final datasheet (1530 MHz); no FP64, TF32 or INT8 tensor cores; the tensor figure is FP16 only; "
            "ERT's FP64 FMA rate, 7068.86 GFLOP/s, is 80 SMs x 32 FP64 lanes x 2 FLOP at 1.38 GHz"};
inline constexpr device l40s{
    .id = "l40s", .name = "NVIDIA L40S",
    .memory = {{.name = "GDDR6 ECC", .capacity = stated(48_GB, l40s_datasheet), .bandwidth = stated(864_GBps, l40s_datasheet),
                .interface = {.bus_bits = 384, .pin_rate = stated(18_Gbps, l40s_datasheet)}}},
    .compute = {vec(fp32, stated(91.6_TFLOPS, l40s_datasheet)),
                tc(tf32, stated(183_TFLOPS, l40s_datasheet), stated(366_TFLOPS, l40s_datasheet)),
                tc(bf16, stated(362_TFLOPS, l40s_datasheet), stated(733_TFLOPS, l40s_datasheet)),
                tc(fp16, stated(362_TFLOPS, l40s_datasheet), stated(733_TFLOPS, l40s_datasheet)),
                tc(fp8, stated(733_TFLOPS, l40s_datasheet), stated(1466_TFLOPS, l40s_datasheet)),
                tc(int8, stated(733_TFLOPS, l40s_datasheet), stated(1466_TFLOPS, l40s_datasheet))},
    .cores = 142, .clock = stated(2.52_GHz, l40s_datasheet),
    .note = "FP64 ~1.4 TFLOP/s (1:64) is only third-party, with no source to cite: left out; L2 size is not in "
            "the datasheet"};
inline constexpr device rtx_4090{
    .id = "rtx_4090", .name = "NVIDIA GeForce RTX 4090",
    .memory = {{.name = "L2", .capacity = stated(72_MB, geforce_tables)},
               {.name = "GDDR6X", .capacity = stated(24_GB, geforce_tables), .bandwidth = stated(1008_GBps, geforce_tables),
                .interface = {.bus_bits = 384, .pin_rate = stated(21_Gbps, geforce_tables)}}},
    .compute = {vec(fp64, stated(1.29_TFLOPS, geforce_tables)), vec(fp32, stated(82.6_TFLOPS, geforce_tables)),
                tc(tf32, stated(82.6_TFLOPS, geforce_tables), stated(165.2_TFLOPS, geforce_tables)),
                tc(bf16, stated(165.2_TFLOPS, geforce_tables), stated(330.4_TFLOPS, geforce_tables)),
                tc(fp16, stated(165.2_TFLOPS, geforce_tables), stated(330.4_TFLOPS, geforce_tables)),
                tc(int8, stated(660.6_TFLOPS, geforce_tables), stated(1321_TFLOPS, geforce_tables))},
    .cores = 128, .clock = stated(2.52_GHz, geforce_tables),
    .note = "FP16 and BF16 tensor with FP32 accumulate (FP16 accumulate: 330.3)"};
inline constexpr device rtx_3090{
    .id = "rtx_3090", .name = "NVIDIA GeForce RTX 3090",
    .memory = {{.name = "L2", .capacity = stated(6_MB, geforce_tables)},
               {.name = "GDDR6X", .capacity = stated(24_GB, geforce_tables), .bandwidth = stated(936_GBps, geforce_tables),
                .interface = {.bus_bits = 384, .pin_rate = stated(19.5_Gbps, geforce_tables)}}},
    .compute = {vec(fp64, stated(0.56_TFLOPS, geforce_tables)), vec(fp32, stated(35.6_TFLOPS, geforce_tables)),
                tc(tf32, stated(35.6_TFLOPS, geforce_tables), stated(71_TFLOPS, geforce_tables)),
                tc(bf16, stated(71_TFLOPS, geforce_tables), stated(142_TFLOPS, geforce_tables)),
                tc(fp16, stated(71_TFLOPS, geforce_tables), stated(142_TFLOPS, geforce_tables)),
                tc(int8, stated(284_TFLOPS, geforce_tables), stated(568_TFLOPS, geforce_tables))},
    .cores = 82, .clock = stated(1.695_GHz, geforce_tables),
    .note = "FP16 and BF16 tensor with FP32 accumulate (FP16 accumulate: 142)"};
inline constexpr device mi300x{
    .id = "mi300x", .name = "AMD Instinct MI300X",
    .memory = {{.name = "L2", .capacity = stated(32_MB, mi300_docs)},
               {.name = "Infinity Cache", .capacity = stated(256_MB, mi300_docs)},
               {.name = "HBM3", .capacity = stated(192_GB, mi300_docs), .bandwidth = stated(5.3_TBps, mi300_docs),
                .measured_bandwidth = measured(4.09_TBps, babelstream), .interface = {.bus_bits = 8192}}},
    .compute = {vec(fp64, stated(81.7_TFLOPS, mi300_docs)), tc(fp64, stated(163.4_TFLOPS, mi300_docs)),
                vec(fp32, stated(163.4_TFLOPS, mi300_docs)),
                tc(tf32, stated(653.7_TFLOPS, mi300_docs), stated(1307.4_TFLOPS, mi300_docs)),
                tc(bf16, stated(1307.4_TFLOPS, mi300_docs), stated(2614.9_TFLOPS, mi300_docs)),
                tc(fp16, stated(1307.4_TFLOPS, mi300_docs), stated(2614.9_TFLOPS, mi300_docs)),
                tc(fp8, stated(2614.9_TFLOPS, mi300_docs), stated(5229.8_TFLOPS, mi300_docs)),
                tc(int8, stated(2614.9_TFLOPS, mi300_docs), stated(5229.8_TFLOPS, mi300_docs))},
    .cores = 304, .clock = stated(2.1_GHz, mi300_docs),
    .note = "AMD: 5.3 TB/s is not achievable in real-world tests (BabelStream: 4.09-4.26 TB/s)"};
inline constexpr device mi250x{
    .id = "mi250x", .name = "AMD Instinct MI250X",
    .memory = {{.name = "L2", .capacity = stated(16_MB, mi200_table)},
               {.name = "HBM2e", .capacity = stated(128_GB, mi200_table),
                .bandwidth = stated(3276.8_GBps, mi200_table),
                .interface = {.bus_bits = 8192, .pin_rate = stated(3.2_Gbps, mi200_table)}}},
    .compute = {vec(fp64, stated(47.9_TFLOPS, mi200_table)), tc(fp64, stated(95.7_TFLOPS, mi200_table)),
                vec(fp32, stated(47.9_TFLOPS, mi200_table)), tc(fp32, stated(95.7_TFLOPS, mi200_table)),
                tc(bf16, stated(383_TFLOPS, mi200_table)), tc(fp16, stated(383_TFLOPS, mi200_table)),
                tc(int8, stated(383_TFLOPS, mi200_table))},
    .cores = 220, .clock = stated(1.7_GHz, mi200_table),
    .note = "2 GCDs x 64 GB; 3.2768 TB/s is 8192 bits x 3.2 Gbit/s; FP32 95.7 packed; no sparsity figures"};
inline constexpr device m1_pro{
    .id = "m1_pro", .name = "Apple M1 Pro, 16-core GPU",
    .memory = {{.name = "LPDDR5 (unified)", .capacity = stated(32_GB, apple_m1_pro), .bandwidth = stated(200_GBps, apple_m1_pro),
                .interface = {.bus_bits = 256, .pin_rate = stated(6.4_Gbps, apple_m1_pro)}}},
    .compute = {vec(fp32, stated(5.2_TFLOPS, apple_m1_pro))},
    .cores = 16,
    .note = "up to 32 GB; no FP64 in Metal; LPDDR5-6400 x 256 bits = 204.8 GB/s; the tinygrad tutorial uses "
            "205 GB/s and 5.3 TFLOP/s"};
// CPUs, one socket: bandwidth = channels x pin rate x 64 bits, FP64 = cores x clock x FLOP/cycle, in code.
inline constexpr device epyc_9654 = [] {
  device d{.id = "epyc_9654", .name = "AMD EPYC 9654 (one socket)",
           .memory = {{.name = "L3", .capacity = stated(384_MB, epyc_9004)}},
           .cores = 96, .clock = stated(2.4_GHz, epyc_9004),
           .note = "FP64 at the 2.4 GHz base clock, 16 FLOP/cycle (Zen 4: two 256-bit FMA pipes); 5.45 TFLOP/s at "
                   "the 3.55 GHz all-core boost (from memory)"};
  const memory_interface ddr5{.channels = 12, .bus_bits = 64, .pin_rate = stated(4.8_Gbps, epyc_9004)};
  d.memory.push_back({.name = "DDR5-4800", .bandwidth = derived_bandwidth(ddr5), .interface = ddr5});
  d.compute.push_back(vec(fp64, derived_peak(d.cores, d.clock, 16)));
  return d;
}();
inline constexpr device xeon_8480_plus = [] {
  device d{.id = "xeon_8480_plus", .name = "Intel Xeon Platinum 8480+ (one socket)",
           .memory = {{.name = "L3", .capacity = stated(105_MB, xeon_8480)}},
           .cores = 56, .clock = unconfirmed(2.0_GHz, xeon_8480),
           .note = "FP64 at the 2.0 GHz base clock (from memory), 32 FLOP/cycle (two 512-bit FMA units); AVX-512 "
                   "runs below base; DDR5 runs at 4400 with 2 DIMMs per channel"};
  const memory_interface ddr5{.channels = 8, .bus_bits = 64, .pin_rate = stated(4.8_Gbps, xeon_8480)};
  d.memory.push_back({.name = "DDR5-4800", .bandwidth = derived_bandwidth(ddr5), .interface = ddr5});
  d.compute.push_back(vec(fp64, derived_peak(d.cores, d.clock, 32)));
  return d;
}();
// clang-format on

// The one list of devices: ids, lookup, `hml devices` and docs/reference/catalog.md follow it, in this order.
inline constexpr std::array<const device*, 15> all{&h100_sxm,  &h100_pcie, &h200,      &b200,     &a100_sxm_80gb,
                                                   &a100_sxm_40gb, &v100,  &l40s,      &rtx_4090, &rtx_3090,
                                                   &mi300x,    &mi250x,    &m1_pro,    &epyc_9654, &xeon_8480_plus};

}  // namespace hml::devices

namespace hml::devices::detail {

template <class Q>
constexpr bool cited(const figure<Q>& f) {
  return !f.published() || find_source(f.source) != nullptr;
}

// Every device has an id of its own, main memory with a bandwidth, and every published figure cites a
// source in the list.
consteval bool catalog_is_sourced() {
  for (std::size_t i = 0; i < all.size(); ++i) {
    const device& d = *all[i];
    if (d.id.empty() || d.name.empty() || d.memory.empty() || !main_memory(d).bandwidth.published()) return false;
    for (std::size_t j = 0; j < i; ++j) {
      if (all[j]->id == d.id) return false;
    }
    if (!cited(d.clock) || !cited(d.kernel_overhead) || !cited(d.attention_rate) || !cited(d.int4_weight_rate)) return false;
    for (const level_description& l : d.memory) {
      if (!cited(l.capacity) || !cited(l.bandwidth) || !cited(l.write_bandwidth) || !cited(l.measured_bandwidth) ||
          !cited(l.latency) || !cited(l.interface.pin_rate)) {
        return false;
      }
    }
    for (const ceiling_description& c : d.compute) {
      if (!cited(c.dense) || !cited(c.sparse) || !cited(c.measured)) return false;
    }
  }
  return true;
}
static_assert(catalog_is_sourced(), "hml: every catalog device needs a unique id, main-memory bandwidth and sources");

}  // namespace hml::devices::detail
