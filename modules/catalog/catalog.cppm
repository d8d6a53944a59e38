// hml.catalog — real devices as constexpr values: peak memory bandwidth and peak compute per precision,
// each figure typed and tagged with where it comes from, each device with its sources (the source list
// of docs/hardware notes). docs/catalog.md is printed from this file by examples/catalog_markdown.cpp.
//
// Tensor figures are dense. Vendors also quote "with sparsity" figures, twice the dense ones; they are not
// stored, so that no sparse figure can pass for a dense one.
//
// Seed 004's profile_kernel.py has a GPU table with wrong FP32 peaks, e.g. H100 "1980 GFLOPS" where the
// H100 SXM does 67 TFLOP/s (33x more; 1,979 TFLOP/s is its FP16-sparse / FP8-dense tensor figure, ~2 PF),
// A100 "1248" (19.5 TFLOP/s), V100 "1245" (15.7), RTX 4090 "1321" (82.6), RTX 3090 "1188" (35.6), GH200
// "1980" (67). It also gives the A100 "SXM" 1935 GB/s, the A100 PCIe 80GB's bandwidth (SXM: 2,039).
// The table in docs/catalog.md lists them next to these figures.
module;
#include <array>
#include <string_view>
export module hml.catalog;
export import hml.analysis;

export namespace hml {

// Where a figure comes from.
enum class provenance {
  vendor_stated,  // in the vendor's datasheet or press release
  derived,        // computed from stated figures (channels x transfer rate x width, cores x clock x FLOP/cycle)
  measured,       // a published benchmark result
  unconfirmed,    // third-party or from memory: not confirmed in a retrieved text
};

[[nodiscard]] constexpr std::string_view to_string(provenance p) noexcept {
  switch (p) {
    case provenance::vendor_stated: return "vendor-stated";
    case provenance::derived: return "derived";
    case provenance::measured: return "measured";
    case provenance::unconfirmed: return "unconfirmed";
  }
  return "?";
}

// A value and where it comes from; a zero value means "not published" (or not offered).
template <class Quantity>
struct figure {
  Quantity value{};
  provenance kind = provenance::vendor_stated;

  [[nodiscard]] constexpr bool published() const noexcept { return value.value() > 0; }
};

template <class Quantity>
[[nodiscard]] constexpr figure<Quantity> stated(Quantity q) noexcept { return {q, provenance::vendor_stated}; }
template <class Quantity>
[[nodiscard]] constexpr figure<Quantity> derived(Quantity q) noexcept { return {q, provenance::derived}; }
template <class Quantity>
[[nodiscard]] constexpr figure<Quantity> unconfirmed(Quantity q) noexcept { return {q, provenance::unconfirmed}; }

// Compute ceilings, dense. Vector units for FP64 and FP32, tensor / matrix units for the rest.
enum class precision { fp64, fp64_tensor, fp32, tf32_tensor, fp16_tensor };
inline constexpr std::array<precision, 5> all_precisions{precision::fp64, precision::fp64_tensor, precision::fp32,
                                                         precision::tf32_tensor, precision::fp16_tensor};

[[nodiscard]] constexpr std::string_view to_string(precision p) noexcept {
  switch (p) {
    case precision::fp64: return "FP64";
    case precision::fp64_tensor: return "FP64 tensor";
    case precision::fp32: return "FP32";
    case precision::tf32_tensor: return "TF32 tensor";
    case precision::fp16_tensor: return "FP16 tensor";
  }
  return "?";
}

// A DRAM / HBM interface: every pin moves `pin_rate` bits per second.
struct memory_interface {
  unsigned bus_bits = 0;  // 0: not published
  figure<data_rate> pin_rate;
};

// The interface's bandwidth: pin rate x bus width (6.4 Gbit/s x 256 bits = 204.8 GB/s).
[[nodiscard]] constexpr data_rate interface_bandwidth(const memory_interface& i) {
  expects(i.bus_bits > 0 && i.pin_rate.published(), "hml: the memory interface is not published");
  return i.pin_rate.value * bus_width{i.bus_bits};
}

struct device {
  std::string_view name;
  std::string_view memory;      // capacity and type, as stated
  figure<data_rate> bandwidth;  // peak DRAM / HBM bandwidth
  memory_interface interface;
  figure<compute_rate> fp64, fp64_tensor, fp32, tf32_tensor, fp16_tensor;
  std::string_view source;
  std::string_view note;
};

[[nodiscard]] constexpr figure<compute_rate> peak(const device& d, precision p) noexcept {
  switch (p) {
    case precision::fp64: return d.fp64;
    case precision::fp64_tensor: return d.fp64_tensor;
    case precision::fp32: return d.fp32;
    case precision::tf32_tensor: return d.tf32_tensor;
    case precision::fp16_tensor: return d.fp16_tensor;
  }
  return {};
}

// The device's roofline for one precision: peak bandwidth and that precision's peak.
[[nodiscard]] constexpr roof roof_of(const device& d, precision p = precision::fp32) {
  expects(peak(d, p).published(), "hml: the device publishes no peak for this precision");
  return {d.bandwidth.value, peak(d, p).value};
}

// `analyze(matmul<float>(4096), devices::h100_sxm).bound == regime::compute_bound`
[[nodiscard]] constexpr roofline_point analyze(const kernel& k, const device& d, precision p = precision::fp32) {
  return analyze(k, roof_of(d, p));
}

}  // namespace hml

namespace hml::devices {
using namespace hml::literals;  // for the figures below; not exported
}  // namespace hml::devices

export namespace hml::devices {

inline constexpr figure<compute_rate> none{};  // not published, or no such unit

// Sources, as listed in the hardware notes.
inline constexpr std::string_view source_n1 =
    "N1: H100 datasheet table (archive-lib.hpctech.co.jp/gpuproduct/nvidia-h100.html); PCIe product brief PB-11133-001";
inline constexpr std::string_view source_n1_n2_n3 =
    "N1: H100 datasheet table (archive-lib.hpctech.co.jp/gpuproduct/nvidia-h100.html); N2: "
    "glennklockwood.com/garden/processors/h100; N3: anandtech.com/show/21136";
inline constexpr std::string_view source_n3_n4 =
    "N3: anandtech.com/show/21136; N4: H200 specs (aiwiki.ai/wiki/nvidia_h200)";
inline constexpr std::string_view source_n6 =
    "N6: GB200 NVL72 / HGX B200 spec table (zdszero.github.io/Computer/Artificial_Intelligence/Hardware.html); "
    "glennklockwood.com/garden/processors/B200";
inline constexpr std::string_view source_n7 =
    "N7: A100 datasheet (nvidia-a100-datasheet-us-nvidia-1758950-r4-web.pdf); thundercompute.com A100 guide";
inline constexpr std::string_view source_n8 = "N8: V100 datasheet; Volta whitepaper (techrival.com copy)";
inline constexpr std::string_view source_n9 = "N9: L40S datasheet (table at mullet.se)";
inline constexpr std::string_view source_n10_n11 =
    "N10/N11: Tom's Hardware 4090/3090 tables (holynerdvana.blogspot.com); waredb.com";
inline constexpr std::string_view source_a1 =
    "A1: ROCm/legacy-rocm-build docs/conceptual/gpu-arch/mi300.md; ROCm/rocm-docs docs/reference/gpu-specs.rst";
inline constexpr std::string_view source_a2 =
    "A2: AMD MI200 launch table (zexron.com copy); gpu-specs.rst; siliconcat.net";
inline constexpr std::string_view source_p1 =
    "P1: Apple press release (18 Oct 2021); techzone.top; winabode.com; notebookcheck";
inline constexpr std::string_view source_c1 = "C1: hpctech.co.jp/product/amd-epyc-9004-series";
inline constexpr std::string_view source_c2_c3 =
    "C2: servethehome.com Xeon Max 9480 article; C3: stackoverflow.com/q/15655835";

// clang-format off
inline constexpr device h100_sxm{
    "NVIDIA H100 SXM5 80GB", "80 GB HBM3", stated(3.35_TBps), {5120, stated(5.24_Gbps)},
    stated(34_TFLOPS), stated(67_TFLOPS), stated(67_TFLOPS), stated(494.7_TFLOPS), stated(989_TFLOPS),
    source_n1_n2_n3, "FP32 = 16,896 lanes x 2 x 1.98 GHz = 66.9 TFLOP/s"};
inline constexpr device h100_pcie{
    "NVIDIA H100 PCIe 80GB", "80 GB HBM2e", stated(2000_GBps), {5120, {}},
    stated(26_TFLOPS), stated(51_TFLOPS), stated(51_TFLOPS), stated(378_TFLOPS), stated(756_TFLOPS),
    source_n1, "Chips and Cheese gives 2.04 TB/s"};
inline constexpr device h200{
    "NVIDIA H200 SXM 141GB", "141 GB HBM3e", stated(4.8_TBps), {},
    stated(34_TFLOPS), stated(67_TFLOPS), stated(67_TFLOPS), stated(494.7_TFLOPS), stated(989_TFLOPS),
    source_n3_n4, "bus width: sources disagree (6144-bit or 8192-bit)"};
inline constexpr device b200{
    "NVIDIA B200 (HGX)", "180 GB HBM3e", stated(7.7_TBps), {8192, {}},
    stated(37_TFLOPS), stated(37_TFLOPS), stated(75_TFLOPS), stated(1100_TFLOPS), stated(2250_TFLOPS),
    source_n6, "current datasheet; GTC-2024 figures were 192 GB, 8 TB/s, FP64 40, FP32 80"};
inline constexpr device a100_sxm_80gb{
    "NVIDIA A100 SXM4 80GB", "80 GB HBM2e", stated(2039_GBps), {5120, stated(3.19_Gbps)},
    stated(9.7_TFLOPS), stated(19.5_TFLOPS), stated(19.5_TFLOPS), stated(156_TFLOPS), stated(312_TFLOPS),
    source_n7, ""};
inline constexpr device a100_sxm_40gb{
    "NVIDIA A100 SXM4 40GB", "40 GB HBM2", stated(1555_GBps), {5120, stated(2.43_Gbps)},
    stated(9.7_TFLOPS), stated(19.5_TFLOPS), stated(19.5_TFLOPS), stated(156_TFLOPS), stated(312_TFLOPS),
    source_n7, ""};
inline constexpr device v100{
    "NVIDIA V100 SXM2 32GB", "32 GB HBM2", stated(900_GBps), {4096, {}},
    stated(7.8_TFLOPS), none, stated(15.7_TFLOPS), none, stated(125_TFLOPS),
    source_n8, "final datasheet (1530 MHz); no FP64 or TF32 tensor cores; the FP16 tensor figure is FP16 only"};
inline constexpr device l40s{
    "NVIDIA L40S", "48 GB GDDR6 ECC", stated(864_GBps), {384, stated(18_Gbps)},
    unconfirmed(1.4_TFLOPS), none, stated(91.6_TFLOPS), stated(183_TFLOPS), stated(362_TFLOPS),
    source_n9, "FP64 ~1.4 (1:64) is third-party"};
inline constexpr device rtx_4090{
    "NVIDIA GeForce RTX 4090", "24 GB GDDR6X", stated(1008_GBps), {384, stated(21_Gbps)},
    stated(1.29_TFLOPS), none, stated(82.6_TFLOPS), stated(82.6_TFLOPS), stated(165.2_TFLOPS),
    source_n10_n11, "FP16 tensor with FP32 accumulate (FP16 accumulate: 330.3)"};
inline constexpr device rtx_3090{
    "NVIDIA GeForce RTX 3090", "24 GB GDDR6X", stated(936_GBps), {384, stated(19.5_Gbps)},
    stated(0.56_TFLOPS), none, stated(35.6_TFLOPS), stated(35.6_TFLOPS), stated(71_TFLOPS),
    source_n10_n11, "FP16 tensor with FP32 accumulate (FP16 accumulate: 142)"};
inline constexpr device mi300x{
    "AMD Instinct MI300X", "192 GB HBM3", stated(5.3_TBps), {8192, {}},
    stated(81.7_TFLOPS), stated(163.4_TFLOPS), stated(163.4_TFLOPS), stated(653.7_TFLOPS), stated(1307.4_TFLOPS),
    source_a1, "AMD: 5.3 TB/s is not achievable in real-world tests (BabelStream: 4.09-4.26 TB/s)"};
inline constexpr device mi250x{
    "AMD Instinct MI250X", "128 GB HBM2e (2 GCDs x 64 GB)", stated(3276.8_GBps), {8192, stated(3.2_Gbps)},
    stated(47.9_TFLOPS), stated(95.7_TFLOPS), stated(47.9_TFLOPS), none, stated(383_TFLOPS),
    source_a2, "FP32 95.7 packed; FP32 matrix 95.7; no sparsity figures"};
inline constexpr device m1_pro{
    "Apple M1 Pro, 16-core GPU", "<= 32 GB LPDDR5, unified", stated(200_GBps), {256, stated(6.4_Gbps)},
    none, none, stated(5.2_TFLOPS), none, none,
    source_p1, "LPDDR5-6400 x 256 bits = 204.8 GB/s; the tinygrad tutorial uses 205 GB/s and 5.3 TFLOP/s"};
inline constexpr device epyc_9654{
    "AMD EPYC 9654 (one socket)", "12 ch DDR5-4800", derived(460.8_GBps), {},
    derived(3.6864_TFLOPS), none, none, none, none,
    source_c1, "BW = 12 ch x 4800 MT/s x 8 B; FP64 = 96 cores x 2.4 GHz base x 16 FLOP/cycle"};
inline constexpr device xeon_8480_plus{
    "Intel Xeon Platinum 8480+ (one socket)", "8 ch DDR5-4800", derived(307.2_GBps), {},
    unconfirmed(3.584_TFLOPS), none, none, none, none,
    source_c2_c3, "BW = 8 ch x 4800 MT/s x 8 B; FP64 = 56 cores x 2.0 GHz x 32 FLOP/cycle (base clock from "
    "memory; AVX-512 runs below base)"};
// clang-format on

inline constexpr std::array<const device*, 15> all{&h100_sxm,  &h100_pcie, &h200,      &b200,     &a100_sxm_80gb,
                                                   &a100_sxm_40gb, &v100,  &l40s,      &rtx_4090, &rtx_3090,
                                                   &mi300x,    &mi250x,    &m1_pro,    &epyc_9654, &xeon_8480_plus};

}  // namespace hml::devices
