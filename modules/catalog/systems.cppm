// hml.catalog.systems — links and systems as sourced, typed data: PCIe 3 to 6 x16, NVLink 3 to 5,
// NVLink-C2C and CXL 2.0 / 3.0 (x8, x16), and machines joined by them: a GH200 (Grace LPDDR5X + Hopper
// HBM3 over NVLink-C2C), an MI300A (one HBM pool for CPU and GPU: nothing to copy), a Xeon Max 9480 (HBM2e
// + DDR5, both peaks derived from channels x width x rate; its two tiers are the hml.tiers question) and an
// H100 PCIe in a PCIe 5.0 host (the catalog's H100 PCIe and Xeon 8480+).
//
// Every figure cites a source, as the device catalog's do (the keys are checked against both lists), and
// says stated, derived or measured. Link rates built from their parts (PCIe lanes x rate x encoding, NVLink
// links x rate) are derived in code by hml.link's pcie() and nvlink(); a datasheet's bidirectional total
// enters as a bidirectional_total and is halved by per_direction_of(). Measured transfer rates sit beside
// the datasheet figure, never in its place.
module;
#include <array>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>
export module hml.catalog.systems;
export import hml.catalog;
export import hml.system;

namespace hml::systems {
using namespace hml::literals;  // for the figures below; not exported
using enum hml::precision;
using enum hml::compute_unit;

constexpr std::string_view pcie_table = "pcie-generations";
constexpr std::string_view pcie6_spec = "pcie-6-overview";
constexpr std::string_view nvlink_math = "nvlink-generations";
constexpr std::string_view cxl3 = "rambus-cxl-3";
constexpr std::string_view gh200_wiki = "aiwiki-gh200";
constexpr std::string_view gh200_guide = "spheron-gh200";
constexpr std::string_view gh200_c2c = "gh200-c2c-per-direction";
constexpr std::string_view schieffer = "schieffer-gh200-icpp24";
constexpr std::string_view mi300a_papers = "mi300a-overview";
constexpr std::string_view mccalpin = "mccalpin-xeon-max-isc23";
constexpr std::string_view sth_xeon_max = "sth-xeon-max-9480";
constexpr std::string_view azure_nccl = "azure-nccl-tests";
constexpr std::string_view nccl_ring_h100 = "nccl-ring-h100";

}  // namespace hml::systems


export namespace hml::systems {

inline constexpr std::array<source, 13> sources{{
    {pcie_table, "PCI Express link speeds: transfer rate, encoding and bandwidth per generation (from the PCI-SIG "
                 "specifications, via Wikipedia)",
     "hpc-notes.pages.dev/reference/pcie; geratools.com/pcie-generation-reference"},
    {pcie6_spec, "PCI Express Base Specification 6.0: 64 GT/s PAM4, FLIT mode, 128 GB/s per direction for x16",
     "PCI-SIG, PCIe 6.0 specification overview (summaries at geratools.com/pcie-generation-reference)"},
    {nvlink_math, "NVLink bandwidth per generation: links x per-link rate, bidirectional aggregate (NVIDIA NVLink "
                  "page: 18 links x 100 GB/s = 1.8 TB/s for Blackwell)",
     "nvidia.com/en-us/data-center/nvlink (copy at catalogone.com); factryze.ai/scale-atlas/interconnect/"
     "nvlink-bandwidth-math"},
    {cxl3, "Rambus, \"CXL 3.0\": CXL 1.x and 2.0 use PCIe 5.0 electricals (32 GT/s NRZ); CXL 3.0 uses PCIe 6.0 "
           "(64 GT/s PAM4)",
     "design-reuse.com/industryexpertblogs/52423/cxl-3-0.html"},
    {gh200_wiki, "NVIDIA GH200 Grace Hopper Superchip (72 Neoverse V2 cores, up to 480 GB LPDDR5X, NVLink-C2C)",
     "aiwiki.ai/wiki/nvidia_gh200"},
    {gh200_guide, "Spheron, NVIDIA GH200 guide: 96 GB HBM3 at 4 TB/s, 480 GB LPDDR5X, NVLink-C2C 900 GB/s "
                  "bidirectional",
     "spheron.network/blog/nvidia-gh200-guide"},
    {gh200_c2c, "GH200 NVLink-C2C: 900 GB/s bidirectional, 450 GB/s each direction; LPDDR5X ~500 GB/s",
     "emergentmind.com/topics/gh200-superchip (summary of Fusco et al. 2024 and others)"},
    {schieffer, "G. Schieffer et al., \"Harnessing Integrated CPU-GPU System Memory for HPC: a first look into "
                "Grace Hopper\" (ICPP'24): STREAM 486 GB/s CPU, 3.4 TB/s GPU; C2C 375 GB/s host to device, 297 "
                "GB/s device to host (figures via an HPCwire summary: secondary)",
     "arXiv 2407.07850"},
    {mi300a_papers, "AMD Instinct MI300A: 24 Zen 4 cores, 228 CDNA 3 CUs, 128 GB HBM3 (8 stacks), 5.3 TB/s peak, "
                    "one physical pool for CPU and GPU (Wahlgren et al. 2025)",
     "emergentmind.com/topics/mi300a-apus; tomshardware via hardforum.com thread 2038013"},
    {mccalpin, "J. McCalpin, Xeon Max 9480 memory (ISC'23 IXPUG): DDR5 8 ch x 8 B x 4.8 GT/s = 307.2 GB/s; HBM 4 "
               "stacks x 128 B x 3.2 GT/s = 1638.4 GB/s; HBM 3.5x the STREAM bandwidth of DDR5",
     "IXPUG workshop at ISC High Performance 2023, McCalpin's slides (ixpug.org, the ISC'23 workshop's program)"},
    {sth_xeon_max, "ServeTheHome, Intel Xeon Max 9480 deep dive: 56 cores, four 16 GB HBM2e stacks, 8 DDR5 "
                   "channels, flat and cache modes",
     "servethehome.com/intel-xeon-max-9480-deep-dive-intel-has-64gb-hbm2e-onboard-like-a-gpu-or-ai-accelerator"},
    {azure_nccl, "Azure AI benchmarking guide: NCCL all-reduce bus bandwidth, 8 GPUs of a node, in place, 1 KB to "
                 "8 GB (nccl-tests, NCCL 2.18.5): 8 x A100 SXM4 80GB (ND A100 v4), 8 x H100 SXM (ND H100 v5)",
     "github.com/Azure/AI-benchmarking-guide, Azure_Results/ND_A100_v4_results.md (commit 3bb66ca); the fork "
     "yosoyjay/AI-benchmarking-guide, Azure_Results/ND_H100_v5_results.md (commit a8263ef)"},
    {nccl_ring_h100, "NCCL's maintainer (S. Jeaugey, NVIDIA) on H100 NVLink 4: NCCL gets an effective bandwidth of "
                     "370 GB/s each direction with NCCL_ALGO=RING, ~480 GB/s of all-reduce bus bandwidth with "
                     "NVLink SHARP on 8 GPUs",
     "github.com/NVIDIA/nccl-tests/issues/212; github.com/NVIDIA/nccl/issues/1442"},
}};

[[nodiscard]] constexpr const source* find_source(std::string_view key) noexcept {
  for (const source& s : sources) {
    if (s.key == key) return &s;
  }
  return devices::find_source(key);
}

// --- Links -------------------------------------------------------------------------------------------

// clang-format off
inline constexpr link_description pcie3_x16{.id = "pcie3x16", .name = "PCIe 3.0 x16",
    .bandwidth = derived(pcie(3, 16), pcie_table), .note = "8 GT/s x 16 x 128/130 = 15.75 GB/s"};
inline constexpr link_description pcie4_x16{.id = "pcie4x16", .name = "PCIe 4.0 x16",
    .bandwidth = derived(pcie(4, 16), pcie_table), .note = "16 GT/s x 16 x 128/130 = 31.5 GB/s"};
inline constexpr link_description pcie5_x16{.id = "pcie5x16", .name = "PCIe 5.0 x16",
    .bandwidth = derived(pcie(5, 16), pcie_table), .note = "32 GT/s x 16 x 128/130 = 63.0 GB/s"};
inline constexpr link_description pcie6_x16{.id = "pcie6x16", .name = "PCIe 6.0 x16",
    .bandwidth = derived(pcie(6, 16), pcie6_spec),
    .note = "64 GT/s PAM4 x 16, FLIT mode counted at the raw rate (242/256 of a FLIT is payload: ~121 GB/s)"};
// NVLink between the GPUs of a node. The latency is a message's as NCCL's all-reduce of 8 GPUs pays it: the
// 8 KB all-reduce, whose time is nearly all latency (8 KB x 2 (8 - 1) / 8 / bus bandwidth: 0.33 GB/s on the
// A100s, 43.4 us; 0.53 GB/s on the H100s, 27.0 us), split evenly over the 2 (n - 1) = 14 messages of hml's
// ring (3.10 and 1.93 us a message), NCCL's launch included. An assumption: NCCL does not run that message as
// a ring (the pages name NVLS, which the A100 does not have), and a copy over the link pays it too.
// The measured rate each way is what NCCL's ring moves, its bus bandwidth: on the A100s the 8 GB all-reduce's
// 231.58 GB/s (a ring: the A100 has no NVLS, and NCCL has no tree inside a node); on the H100s the 370 GB/s
// NCCL's maintainer gives for the ring, since that page's 8 GB all-reduce ran NVLS: its 478.87 GB/s, above
// the link's 450, is the NVLS bus bandwidth.
inline constexpr link_description nvlink3{.id = "nvlink3", .name = "NVLink 3 (A100, 12 links)",
    .bandwidth = derived(nvlink(12, {25_GBps}), nvlink_math), .latency = derived(3.10_us, azure_nccl),
    .measured_to_device = measured(per_direction{231.58_GBps}, azure_nccl),
    .measured_from_device = measured(per_direction{231.58_GBps}, azure_nccl),
    .note = "600 GB/s bidirectional; measured: NCCL's ring all-reduce; latency: 8 A100s' 8 KB all-reduce over its "
            "14 ring messages"};
inline constexpr link_description nvlink4{.id = "nvlink4", .name = "NVLink 4 (H100, 18 links)",
    .bandwidth = derived(nvlink(18, {25_GBps}), nvlink_math), .latency = derived(1.93_us, azure_nccl),
    .measured_to_device = measured(per_direction{370_GBps}, nccl_ring_h100),
    .measured_from_device = measured(per_direction{370_GBps}, nccl_ring_h100),
    .nvls_bus_bandwidth = measured(478.87_GBps, azure_nccl),
    .note = "900 GB/s bidirectional; measured: NCCL's ring all-reduce; NVLS: 8 H100s' 8 GB all-reduce; latency: "
            "8 H100s' 8 KB all-reduce over its 14 ring messages"};
inline constexpr link_description nvlink5{.id = "nvlink5", .name = "NVLink 5 (B200, 18 links)",
    .bandwidth = derived(nvlink(18, {50_GBps}), nvlink_math), .note = "1.8 TB/s bidirectional"};
inline constexpr link_description nvlink_c2c{.id = "c2c", .name = "NVLink-C2C (GH200)",
    .bandwidth = stated(per_direction_of(bidirectional_total{900_GBps}, duplex::full), gh200_c2c),
    .measured_to_device = measured(per_direction{375_GBps}, schieffer),
    .measured_from_device = measured(per_direction{297_GBps}, schieffer),
    .note = "datasheet 900 GB/s is both directions; measured 83 % (to the GPU) and 66 % (back) of 450 GB/s"};
inline constexpr link_description cxl2_x8{.id = "cxl2x8", .name = "CXL 2.0 x8",
    .bandwidth = derived(pcie(5, 8), cxl3), .note = "PCIe 5.0 PHY; CXL flit overhead not counted"};
inline constexpr link_description cxl2_x16{.id = "cxl2x16", .name = "CXL 2.0 x16",
    .bandwidth = derived(pcie(5, 16), cxl3), .note = "PCIe 5.0 PHY; CXL flit overhead not counted"};
inline constexpr link_description cxl3_x8{.id = "cxl3x8", .name = "CXL 3.0 x8",
    .bandwidth = derived(pcie(6, 8), cxl3), .note = "PCIe 6.0 PHY at the raw rate, as PCIe 6.0 here"};
inline constexpr link_description cxl3_x16{.id = "cxl3x16", .name = "CXL 3.0 x16",
    .bandwidth = derived(pcie(6, 16), cxl3), .note = "PCIe 6.0 PHY at the raw rate, as PCIe 6.0 here"};

inline constexpr std::array<const link_description*, 12> links{&pcie3_x16, &pcie4_x16, &pcie5_x16, &pcie6_x16,
                                                               &nvlink3, &nvlink4, &nvlink5, &nvlink_c2c,
                                                               &cxl2_x8, &cxl2_x16, &cxl3_x8, &cxl3_x16};

// --- Machines of the systems -------------------------------------------------------------------------

// Grace: FP64 = 72 cores x clock x 16 FLOP/cycle (Neoverse V2: four 128-bit FMA pipes); FP32 twice that.
inline constexpr machine_description grace = [] {
  machine_description m{
      .id = "grace", .name = "NVIDIA Grace (GH200 CPU)",
      .memory = {{.name = "LPDDR5X", .capacity = stated(480_GB, gh200_wiki), .bandwidth = stated(500_GBps, gh200_c2c),
                  .measured_bandwidth = measured(486_GBps, schieffer)}},
      .cores = 72, .clock = unconfirmed(3.1_GHz, gh200_wiki),
      .note = "clock 3.1 GHz from memory (not in the retrieved text): its peaks are unconfirmed"};
  m.compute.push_back({.type = fp64, .unit = vector, .dense = derived_peak(m.cores, m.clock, 16)});
  m.compute.push_back({.type = fp32, .unit = vector, .dense = derived_peak(m.cores, m.clock, 32)});
  return m;
}();
// Its compute is the H100 SXM's datasheet; the H100 SXM's measured matmul rates are that board's, not this one's.
inline constexpr machine_description gh200_hopper = [] {
  machine_description m{
      .id = "gh200_hopper", .name = "NVIDIA H100 of a GH200 (96 GB HBM3)",
      .memory = {{.name = "L2", .capacity = devices::h100_sxm.memory[1].capacity},
                 {.name = "HBM3", .capacity = stated(96_GB, gh200_guide), .bandwidth = stated(4_TBps, gh200_guide),
                  .measured_bandwidth = measured(3.4_TBps, schieffer)}},
      .compute = devices::h100_sxm.compute, .cores = 132, .clock = devices::h100_sxm.clock,
      .note = "compute as the H100 SXM"};
  for (std::size_t i = 0; i < m.compute.size(); ++i) m.compute[i].measured = {};
  return m;
}();
inline constexpr machine_description mi300a{
    .id = "mi300a", .name = "AMD Instinct MI300A (one HBM3 pool)",
    .memory = {{.name = "Infinity Cache", .capacity = stated(256_MB, mi300a_papers)},
               {.name = "HBM3", .capacity = stated(128_GB, mi300a_papers), .bandwidth = stated(5.3_TBps, mi300a_papers),
                .interface = {.bus_bits = 8192}}},
    .cores = 228,
    .note = "24 Zen 4 cores and 228 CDNA 3 CUs share the pool; compute peaks not in a retrieved source"};
// clang-format on

// Xeon Max 9480, one socket, flat mode: HBM2e (4 stacks x 1024 bits x 3.2 GT/s) then DDR5 (8 x 64 bits x
// 4.8 GT/s) as main memory. 512 GiB of DDR5 is a configuration (8 channels x one 64 GiB DIMM), not a spec.
inline constexpr machine_description xeon_max_9480 = [] {
  machine_description m{.id = "xeon_max_9480", .name = "Intel Xeon Max 9480 (one socket, flat mode)",
                        .cores = 56,
                        .note = "DDR5 capacity is this configuration's: 8 channels x one 64 GiB DIMM"};
  const memory_interface hbm{.channels = 4, .bus_bits = 1024, .pin_rate = stated(3.2_Gbps, mccalpin)};
  const memory_interface ddr5{.channels = 8, .bus_bits = 64, .pin_rate = stated(4.8_Gbps, mccalpin)};
  m.memory.push_back({.name = "HBM2e", .capacity = stated(64_GiB, sth_xeon_max), .bandwidth = derived_bandwidth(hbm),
                      .interface = hbm, .addressable = true});
  m.memory.push_back({.name = "DDR5-4800", .capacity = derived(512_GiB, sth_xeon_max),
                      .bandwidth = derived_bandwidth(ddr5), .interface = ddr5});
  return m;
}();

// --- Systems -----------------------------------------------------------------------------------------

inline constexpr system_description gh200{
    .id = "gh200", .name = "NVIDIA GH200 Grace Hopper", .host = &grace, .device = &gh200_hopper,
    .joined_by = &nvlink_c2c, .note = "the GPU reads LPDDR5X in place over C2C (zero-copy)"};
inline constexpr system_description mi300a_apu{
    .id = "mi300a", .name = "AMD Instinct MI300A", .host = &mi300a, .device = &mi300a,
    .note = "one pool: CPU and GPU read the same HBM, nothing to copy"};
inline constexpr system_description xeon_max{
    .id = "xeon_max", .name = "Intel Xeon Max 9480", .host = &xeon_max_9480, .device = &xeon_max_9480,
    .note = "one socket, two tiers: HBM2e and DDR5 (hml tiers)"};
inline constexpr system_description h100_pcie_host{
    .id = "h100_pcie_host", .name = "NVIDIA H100 PCIe in a Xeon 8480+ host", .host = &devices::xeon_8480_plus,
    .device = &devices::h100_pcie, .joined_by = &pcie5_x16, .note = "Sapphire Rapids has PCIe 5.0 lanes"};

inline constexpr std::array<const system_description*, 4> all{&gh200, &mi300a_apu, &xeon_max, &h100_pcie_host};

[[nodiscard]] constexpr const link_description* find_link(std::string_view id) noexcept {
  for (const link_description* l : links) {
    if (l->id == id) return l;
  }
  return nullptr;
}

[[nodiscard]] constexpr const system_description* find_system(std::string_view id) noexcept {
  for (const system_description* s : all) {
    if (s->id == id) return s;
  }
  return nullptr;
}

}  // namespace hml::systems

namespace hml::systems::detail {

template <class Q>
constexpr bool cited(const figure<Q>& f) {
  return !f.published() || find_source(f.source) != nullptr;
}

constexpr bool machine_is_sourced(const machine_description& m) {
  if (!cited(m.clock)) return false;
  for (const level_description& l : m.memory) {
    if (!cited(l.capacity) || !cited(l.bandwidth) || !cited(l.measured_bandwidth) || !cited(l.interface.pin_rate)) {
      return false;
    }
  }
  for (const ceiling_description& c : m.compute) {
    if (!cited(c.dense) || !cited(c.sparse) || !cited(c.measured)) return false;
  }
  return true;
}

consteval bool systems_are_sourced() {
  for (const link_description* l : links) {
    if (!l->bandwidth.published() || !cited(l->bandwidth) || !cited(l->latency) || !cited(l->measured_to_device) ||
        !cited(l->measured_from_device)) {
      return false;
    }
  }
  for (const system_description* s : all) {
    if (s->host == nullptr || s->device == nullptr || !machine_is_sourced(*s->host) || !machine_is_sourced(*s->device)) {
      return false;
    }
  }
  return true;
}
static_assert(systems_are_sourced(), "hml: every catalog link and system figure needs a source");

}  // namespace hml::systems::detail
