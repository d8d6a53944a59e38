// hml.catalog.cpus — CPUs as the ECM model needs them: machine descriptions with per-cycle transfer rates
// and main-memory bandwidths measured per stream mix. Each is a testbed of published ECM results, with the
// figures of kerncraft's machine file for it, so that those results are reproduced from the same inputs:
// kerncraft's own test machines (tests/compile_time/ecm_published.cpp) and INSPECT's Ivy Bridge EP and
// Skylake-SP (tests/compile_time/ecm_inspect.cpp). Measured bandwidths are
// likwid-bench's, the largest of the 1-thread-per-core runs on 1 to all cores of one socket (kerncraft
// takes the full socket's bandwidth for the ECM memory term).
//
// kerncraft compares a layer condition with the whole cache, so both set layer_condition_share = 1. Each
// names LLVM's model of its core (llvm_cpu), for in-core times from the compiled loop (hml.c_kernel).
module;
#include <array>
#include <string_view>
export module hml.catalog.cpus;
export import hml.ecm;

export namespace hml::cpus {

using namespace std::string_view_literals;

inline constexpr std::array<source, 13> sources{{
    {"kerncraft-snb", "kerncraft test machine file phinally_gcc.yaml (Intel Xeon E5-2680, Sandy Bridge EP)",
     "https://github.com/RRZE-HPC/kerncraft/blob/master/tests/test_files/phinally_gcc.yaml"},
    {"kerncraft-hsw", "kerncraft test machine file hasep1.yaml (Intel Xeon E5-2695 v3, Haswell EP)",
     "https://github.com/RRZE-HPC/kerncraft/blob/master/tests/test_files/hasep1.yaml"},
    {"kerncraft-ivb", "kerncraft machine file IvyBridgeEP_E5-2660v2.yml at commit 192c9ce9 (Intel Xeon E5-2660 v2, Ivy Bridge EP; INSPECT's testbed)",
     "https://github.com/RRZE-HPC/kerncraft/blob/192c9ce9/examples/machine-files/IvyBridgeEP_E5-2660v2.yml"},
    {"kerncraft-hsw-cod", "kerncraft machine file HaswellEP_E5-2695v3_CoD.yml at commit 192c9ce9 (Intel Xeon E5-2695 v3, Haswell EP in Cluster-on-Die mode; kerncraft 0.7.3)",
     "https://github.com/RRZE-HPC/kerncraft/blob/192c9ce9/examples/machine-files/HaswellEP_E5-2695v3_CoD.yml"},
    {"kerncraft-skx", "kerncraft machine file SkylakeSP_Gold-6148.yml at commit 9c208e66 (kerncraft 0.8.1.dev0; Intel Xeon Gold 6148, Skylake-SP; INSPECT's testbed)",
     "https://github.com/RRZE-HPC/kerncraft/blob/9c208e663c5227abcedd5e20a1242b652e660ace/examples/machine-files/SkylakeSP_Gold-6148.yml"},
    {"inspect-skx", "INSPECT's machine file SkylakeSP_Gold-6148_avx512.yml at commit 0a786501 (kerncraft 0.6.6; Intel Xeon Gold 6148, Skylake-SP): main memory's cores per group 4, the machine of INSPECT's published Skylake-SP results",
     "https://github.com/RRZE-HPC/INSPECT/blob/0a7865015b99257900c45703d18d6b1924abd0ce/_data/machine_files/SkylakeSP_Gold-6148_avx512.yml"},
    {"kerncraft-spr", "kerncraft machine file SapphireRapids_Platinum-8470.yml at commit 34de5f04 (kerncraft 0.8.15; Intel Xeon Platinum 8470, Sapphire Rapids, SNC4)",
     "https://github.com/RRZE-HPC/kerncraft/blob/34de5f04246c481d1e05edade53b1c36b4087643/examples/machine-files/SapphireRapids_Platinum-8470.yml"},
    {"suse-epyc-9004", "SUSE Best Practices, Optimizing Linux for AMD EPYC 9004 Series Processors with SUSE Linux Enterprise 15 SP4, section \"AMD EPYC 9004 Series Classic Processor architecture\": 12 CCDs of one 8-core CCX each, 32 MB of L3 a CCX",
     "https://github.com/SUSE/suse-best-practices/blob/02f87af5f8f8d389a6257787318be9149e21bb77/xml/MAIN-SBP-AMD-EPYC-4-SLES15SP4.xml"},
    {"cc-zen4-memory", "Chips and Cheese, AMD's Zen 4, Part 2: Memory Subsystem and Conclusion (2022-11-08): L2 doubled to 1 MB; the L3 filled only with lines evicted from L2 (a victim cache); L3 bandwidth from one core 27 B/cy on average, near the interface's; per-cycle L1 and L2 bandwidth as Zen 3's and Zen 2's",
     "https://chipsandcheese.com/p/amds-zen-4-part-2-memory-subsystem-and-conclusion"},
    {"cc-zen4-l1d", "Chips and Cheese, Zen 5's Leaked Slides (2023-10-08): \"Zen 4's 32 KB, 8-way L1D\"",
     "https://chipsandcheese.com/p/zen-5s-leaked-slides"},
    {"llvm-znver4", "LLVM's Zen 4 scheduling model, X86ScheduleZnver4.td, quoting AMD's Software Optimization Guide for Family 19h (Zen 4), 57647: three 256-bit memory operations a cycle, at most two stores, FP stores one a cycle, two FP load pipes; FMA and MUL on FP0/FP1, ADD on FP2/FP3",
     "https://github.com/llvm/llvm-project/blob/02d554c5256b11776b18eef663e3acd1ccb203e8/llvm/lib/Target/X86/X86ScheduleZnver4.td"},
    {"kerncraft-zen2", "kerncraft machine file Zen2_EPYC-7452.yml at commit 22e50afe (AMD EPYC 7452, Zen 2): L2 -> L1 \"[32 B/cy, full-duplex]\", the caches' transfers overlapping, main memory's not",
     "https://github.com/RRZE-HPC/kerncraft/blob/22e50afe/examples/machine-files/Zen2_EPYC-7452.yml"},
    {"cc-bergamo", "Chips and Cheese, Testing AMD's Bergamo: Zen 4c Spam (2024-06-22): EPYC 9754 on Genoa's SP5 platform and IO die, 12 x DDR5-4800, NPS1: \"just short of 360 GB/s of DRAM read bandwidth\" with all cores",
     "https://chipsandcheese.com/p/testing-amds-bergamo-zen-4c-spam"},
}};

namespace detail {
constexpr data_size bytes(double n) { return n * byte; }
constexpr data_rate gbps(double n) { return n * giga(byte_per_second); }
constexpr bytes_per_cycle per_cy(double n) { return n * byte_per_cycle; }
// Sandy and Ivy Bridge issue one 256-bit FP addition (port 1) and one multiplication (port 0) a cycle and
// have no FMA (Intel 64 and IA-32 Architectures Optimization Reference Manual, the Sandy Bridge chapter); the
// port model runs an FMA there as an addition and a multiplication, one on each port (fma_per_cycle 0).
// Loads and stores as examples/ecm/sandy_bridge_ep.yml states them: two 32 B loads and one store a cycle.
inline constexpr port_model sandy_bridge_ports{
    .loads_per_cycle = 2, .stores_per_cycle = 1, .fma_per_cycle = 0, .add_per_cycle = 1, .mul_per_cycle = 1, .vector_bytes = 32};
}  // namespace detail

// Sandy Bridge EP, 2.7 GHz, 8 cores per socket; L1 64 sets x 8 ways x 64 B, L2 512 x 8 x 64, L3 20480 x 16 x
// 64 shared by 8 cores; L2 -> L1 and L3 -> L2 at 32 B/cy ("upstream throughput: [32 B/cy, half-duplex]").
inline constexpr machine_description sandy_bridge_ep_e5_2680{
    .id = "snb_e5_2680",
    .name = "Intel Xeon E5-2680 (Sandy Bridge EP)",
    .memory = {{.name = "L1", .capacity = stated(detail::bytes(32768), "kerncraft-snb"), .scope = sharing::per_core},
               {.name = "L2",
                .capacity = stated(detail::bytes(262144), "kerncraft-snb"),
                .scope = sharing::per_core,
                .upstream = {.rate = stated(detail::per_cy(32), "kerncraft-snb")}},
               {.name = "L3",
                .capacity = stated(detail::bytes(20971520), "kerncraft-snb"),
                .upstream = {.rate = stated(detail::per_cy(32), "kerncraft-snb")}},
               {.name = "MEM", .bandwidth = measured(detail::gbps(44.42), "kerncraft-snb")}},
    .compute = {{.type = precision::fp64, .dense = derived_peak(8, stated(2.7 * giga(hertz), "kerncraft-snb"), 8)}},
    .cores = 8,
    .clock = stated(2.7 * giga(hertz), "kerncraft-snb"),
    .note = "MEM bandwidth: likwid-bench load, 1 thread per core, best of 1-8 cores",
    .memory_bandwidths = {{"copy"sv, 1, 1, measured(detail::gbps(27.47), "kerncraft-snb")},
                          {"triad"sv, 3, 1, measured(detail::gbps(31.77), "kerncraft-snb")},
                          {"load"sv, 1, 0, measured(detail::gbps(44.42), "kerncraft-snb")}},
    .ports = detail::sandy_bridge_ports,
    .llvm_cpu = "sandybridge",
    .layer_condition_share = 1.0,
};

// Haswell EP, 2.3 GHz, 14 cores per socket; L1 and L2 as above, L3 35840 x 16 x 64 shared by 14 cores;
// "cycles per cacheline transfer: 2" for L1 <-> L2 and L2 <-> L3: 32 B/cy.
inline constexpr machine_description haswell_ep_e5_2695v3{
    .id = "hsw_e5_2695v3",
    .name = "Intel Xeon E5-2695 v3 (Haswell EP)",
    .memory = {{.name = "L1", .capacity = stated(detail::bytes(32768), "kerncraft-hsw"), .scope = sharing::per_core},
               {.name = "L2",
                .capacity = stated(detail::bytes(262144), "kerncraft-hsw"),
                .scope = sharing::per_core,
                .upstream = {.rate = stated(detail::per_cy(32), "kerncraft-hsw")}},
               {.name = "L3",
                .capacity = stated(detail::bytes(36700160), "kerncraft-hsw"),
                .upstream = {.rate = stated(detail::per_cy(32), "kerncraft-hsw")}},
               {.name = "MEM", .bandwidth = measured(detail::gbps(62.86), "kerncraft-hsw")}},
    .compute = {{.type = precision::fp64, .dense = derived_peak(14, stated(2.3 * giga(hertz), "kerncraft-hsw"), 16)}},
    .cores = 14,
    .clock = stated(2.3 * giga(hertz), "kerncraft-hsw"),
    .note = "MEM bandwidth: likwid-bench load, 1 thread per core, best of 1-14 cores",
    .memory_bandwidths = {{"copy"sv, 1, 1, measured(detail::gbps(34.08), "kerncraft-hsw")},
                          {"triad"sv, 3, 1, measured(detail::gbps(43.47), "kerncraft-hsw")},
                          {"load"sv, 1, 0, measured(detail::gbps(62.86), "kerncraft-hsw")}},
    .llvm_cpu = "haswell",
    .layer_condition_share = 1.0,
};

// Ivy Bridge EP, 2.2 GHz, 10 cores per socket; L1 32 kB, L2 256 kB, L3 25 MB = 25600 sets x 16 ways x 64 B;
// 32 B/cy between the caches. INSPECT's stencil results were measured and modelled on it
// (tests/compile_time/ecm_inspect.cpp).
inline constexpr machine_description ivy_bridge_ep_e5_2660v2{
    .id = "ivb_e5_2660v2",
    .name = "Intel Xeon E5-2660 v2 (Ivy Bridge EP)",
    .memory = {{.name = "L1", .capacity = stated(detail::bytes(32768), "kerncraft-ivb"), .scope = sharing::per_core},
               {.name = "L2",
                .capacity = stated(detail::bytes(262144), "kerncraft-ivb"),
                .scope = sharing::per_core,
                .upstream = {.rate = stated(detail::per_cy(32), "kerncraft-ivb")}},
               {.name = "L3",
                .capacity = stated(detail::bytes(26214400), "kerncraft-ivb"),
                .upstream = {.rate = stated(detail::per_cy(32), "kerncraft-ivb")}},
               {.name = "MEM", .bandwidth = measured(detail::gbps(46.49), "kerncraft-ivb")}},
    .compute = {{.type = precision::fp64, .dense = derived_peak(10, stated(2.2 * giga(hertz), "kerncraft-ivb"), 8)}},
    .cores = 10,
    .clock = stated(2.2 * giga(hertz), "kerncraft-ivb"),
    .note = "MEM bandwidth: likwid-bench load, 1 thread per core, best of 1-10 cores",
    .memory_bandwidths = {{"copy"sv, 1, 1, measured(detail::gbps(27.10), "kerncraft-ivb")},
                          {"triad"sv, 3, 1, measured(detail::gbps(33.13), "kerncraft-ivb")},
                          {"load"sv, 1, 0, measured(detail::gbps(46.49), "kerncraft-ivb")}},
    .ports = detail::sandy_bridge_ports,
    .llvm_cpu = "ivybridge",
    .layer_condition_share = 1.0,
};

// Haswell EP in Cluster-on-Die mode, the testbed of PMBS'15's Haswell results, as kerncraft's
// HaswellEP_E5-2695v3_CoD.yml describes it: the socket's 14 cores in two NUMA domains of 7, each with its
// half of the L3 (18432 sets x 16 ways x 64 B: "18 MB (cluster on die mode!)") and its own memory
// controllers. This entry is one domain, as a kernel on one is predicted: 7 cores, the domain's L3 and its
// bandwidths, the largest of likwid-bench's runs on 1 to 7 cores (copy saturates at 17.69 GB/s within the
// domain and grows again only past 7 cores, into the other one; the whole socket's is twice that). L2 -> L1
// and L3 -> L2 at 32 B/cy ("non-overlap upstream throughput: [32 B/cy, half-duplex]"; the file notes that the
// L2's 64 B/cy "can not be reached").
inline constexpr machine_description haswell_ep_e5_2695v3_cod{
    .id = "hsw_e5_2695v3_cod",
    .name = "Intel Xeon E5-2695 v3 (Haswell EP, one Cluster-on-Die domain)",
    .memory = {{.name = "L1", .capacity = stated(detail::bytes(32768), "kerncraft-hsw-cod"), .scope = sharing::per_core},
               {.name = "L2",
                .capacity = stated(detail::bytes(262144), "kerncraft-hsw-cod"),
                .scope = sharing::per_core,
                .upstream = {.rate = stated(detail::per_cy(32), "kerncraft-hsw-cod")}},
               {.name = "L3",
                .capacity = stated(detail::bytes(18874368), "kerncraft-hsw-cod"),
                .upstream = {.rate = stated(detail::per_cy(32), "kerncraft-hsw-cod")}},
               {.name = "MEM", .bandwidth = measured(detail::gbps(32.08), "kerncraft-hsw-cod")}},
    .compute = {{.type = precision::fp64, .dense = derived_peak(7, stated(2.3 * giga(hertz), "kerncraft-hsw-cod"), 16)}},
    .cores = 7,
    .clock = stated(2.3 * giga(hertz), "kerncraft-hsw-cod"),
    .note = "one of the socket's two Cluster-on-Die domains; MEM bandwidth: likwid-bench load, 1 thread per core, best of 1-7 cores",
    .memory_bandwidths = {{"copy"sv, 1, 1, measured(detail::gbps(17.69), "kerncraft-hsw-cod")},
                          {"triad"sv, 3, 1, measured(detail::gbps(22.65), "kerncraft-hsw-cod")},
                          {"load"sv, 1, 0, measured(detail::gbps(32.08), "kerncraft-hsw-cod")}},
    .llvm_cpu = "haswell",
    .layer_condition_share = 1.0,
};

namespace detail {
// The Xeon Gold 6148 (Skylake-SP, 2.4 GHz, 20 cores per socket) as kerncraft's machine files give it, each
// figure cited to `file`: L1 32 kB and L2 1 MB per core, L2 -> L1 at 64 B/cy ("[64 B/cy, half-duplex]"), L3
// 28 MB shared by the socket ("size per group: 28 MB", a size kerncraft reads in binary units, as the other
// files' "25.00 MB"), L3 <-> L2 at 16 B/cy each way ("[16 B/cy, full-duplex]"). The L3 is a victim cache, as
// the files say ("victims_to: L3", L2's "load_from" empty: L2 misses load from memory, every L2 eviction goes
// to L3) and kerncraft's cache simulator takes it; its layer conditions, and INSPECT's columns from them,
// take the hierarchy as inclusive (hml::inclusive_caches). The files differ in main memory only: `memory`
// holds likwid-bench's load, copy and triad (1 thread per core) as each file makes kerncraft take them.
struct stream_figures {
  double load, copy, triad;  // GB/s
};
constexpr machine_description gold_6148(std::string_view file, stream_figures memory) {
  return {
      .memory = {{.name = "L1", .capacity = stated(bytes(32768), file), .scope = sharing::per_core},
                 {.name = "L2",
                  .capacity = stated(bytes(1048576), file),
                  .scope = sharing::per_core,
                  .upstream = {.rate = stated(per_cy(64), file)}},
                 {.name = "L3",
                  .capacity = stated(bytes(29360128), file),
                  .upstream = {.rate = stated(per_cy(16), file), .full_duplex = true},
                  .victim = true},
                 {.name = "MEM", .bandwidth = measured(gbps(memory.load), file)}},
      .compute = {{.type = precision::fp64, .dense = derived_peak(20, stated(2.4 * giga(hertz), file), 32)}},
      .cores = 20,
      .clock = stated(2.4 * giga(hertz), file),
      .memory_bandwidths = {{"copy"sv, 1, 1, measured(gbps(memory.copy), file)},
                            {"triad"sv, 3, 1, measured(gbps(memory.triad), file)},
                            {"load"sv, 1, 0, measured(gbps(memory.load), file)}},
      .llvm_cpu = "skylake-avx512",
      .layer_condition_share = 1.0,
  };
}
}  // namespace detail

// Skylake-SP as kerncraft's SkylakeSP_Gold-6148.yml of kerncraft 0.8.1 gives it (the version whose 28 MB L3
// INSPECT's layer conditions break at: tests/compile_time/ecm_inspect.cpp). Main memory: the largest of
// likwid-bench's runs on 1 to 20 cores, the socket's saturated bandwidth, as the ECM's memory term intends.
inline constexpr machine_description skylake_sp_gold_6148 = [] {
  machine_description m = detail::gold_6148("kerncraft-skx", {.load = 120.42, .copy = 69.68, .triad = 86.29});
  m.id = "skx_gold_6148";
  m.name = "Intel Xeon Gold 6148 (Skylake-SP)";
  m.note = "L3: a victim cache; MEM bandwidth: likwid-bench load, 1 thread per core, best of 1-20 cores";
  return m;
}();

// The same machine as INSPECT's copy of the file (kerncraft 0.6.6) gives it, the machine INSPECT's published
// Skylake-SP predictions were made on. Its main memory says `cores per group: 4` (its L3 likewise "2 groups
// of 4 cores", FIXMEs in its header), and kerncraft's ECM takes the best run on 1 to min(cores per group,
// cores per NUMA domain) cores (`get_bandwidth` in kerncraft/machinemodel.py): the same likwid-bench
// measurements on 1 to 4 cores, load 41.50, copy 45.26, triad 48.63 GB/s, a half to two-thirds of the
// socket's. kerncraft 0.8.1 corrected the groups (skx_gold_6148); this entry reproduces what INSPECT lists.
inline constexpr machine_description skylake_sp_gold_6148_inspect = [] {
  machine_description m = detail::gold_6148("inspect-skx", {.load = 41.50, .copy = 45.26, .triad = 48.63});
  m.id = "skx_gold_6148_inspect";
  m.name = "Intel Xeon Gold 6148 (Skylake-SP, INSPECT's machine file)";
  m.note = "INSPECT's kerncraft 0.6.6 file; L3: a victim cache; MEM bandwidth: likwid-bench load, 1 thread per core, best of 1-4 cores (its main memory's cores per group)";
  return m;
}();

// Sapphire Rapids, 2.0 GHz, 52 cores per socket in four Sub-NUMA-Cluster domains of 13 (SNC4), as
// kerncraft's SapphireRapids_Platinum-8470.yml (kerncraft 0.8.15) gives it. This entry is one domain, as a
// kernel on one is predicted, the way hsw_e5_2695v3_cod is one Cluster-on-Die domain: 13 cores, the
// domain's L3 ("size per group: 26.25 MB", cores per group 13, read as 26.25 MiB), and main memory's
// bandwidths as kerncraft takes them for one domain (the largest of likwid-bench's runs on 1 to 13 cores,
// 1 thread per core: copy 47.34, triad 59.35, load 69.26 GB/s; past 13 cores the runs spill into the next
// domain and grow again). L1 48 kB and L2 2 MB per core; L2 -> L1 at 64 B/cy, L3 <-> L2 at 16 B/cy each
// way ("[16 B/cy, full-duplex]"). The L3 is a victim cache, as on Skylake-SP ("victims_to: L3").
inline constexpr machine_description sapphire_rapids_8470{
    .id = "spr_platinum_8470",
    .name = "Intel Xeon Platinum 8470 (Sapphire Rapids, one SNC4 domain)",
    .memory = {{.name = "L1", .capacity = stated(detail::bytes(49152), "kerncraft-spr"), .scope = sharing::per_core},
               {.name = "L2",
                .capacity = stated(detail::bytes(2097152), "kerncraft-spr"),
                .scope = sharing::per_core,
                .upstream = {.rate = stated(detail::per_cy(64), "kerncraft-spr")}},
               {.name = "L3",
                .capacity = stated(detail::bytes(27525120), "kerncraft-spr"),
                .upstream = {.rate = stated(detail::per_cy(16), "kerncraft-spr"), .full_duplex = true},
                .victim = true},
               {.name = "MEM", .bandwidth = measured(detail::gbps(69.26), "kerncraft-spr")}},
    .compute = {{.type = precision::fp64, .dense = derived_peak(13, stated(2.0 * giga(hertz), "kerncraft-spr"), 32)}},
    .cores = 13,
    .clock = stated(2.0 * giga(hertz), "kerncraft-spr"),
    .note = "one of the socket's four SNC4 domains; L3: a victim cache; MEM bandwidth: likwid-bench load, 1 thread per core, best of 1-13 cores",
    .memory_bandwidths = {{"copy"sv, 1, 1, measured(detail::gbps(47.34), "kerncraft-spr")},
                          {"triad"sv, 3, 1, measured(detail::gbps(59.35), "kerncraft-spr")},
                          {"load"sv, 1, 0, measured(detail::gbps(69.26), "kerncraft-spr")}},
    .llvm_cpu = "sapphirerapids",
    .layer_condition_share = 1.0,
};

// Genoa, the EPYC 9654: 96 Zen 4 cores at 2.4 GHz in 12 CCDs, each one CCX of 8 cores sharing 32 MB of L3,
// 12 channels of DDR5-4800 (the roofline's whole-socket view of it is devices::epyc_9654). The L3 a core's
// kernel sees is its CCD's, so that is this entry's L3, a victim cache of the L2 (AMD fills it only with
// lines the L2 evicts). The caches' paths as kerncraft's Zen 2 file and RRZE-HPC's Zen models take Zen's:
// overlapping the in-core time and each other, main memory's not; L2 -> L1 at Zen 2's 32 B/cy, which Zen 4
// keeps, and L3 <-> L2 at the 27 B/cy one core measures (Chips and Cheese; the interface's is 32), each way
// at once. On this project's Zen 4 host the Schoenauer triad, STREAM triad and copy in L2 and L3 ran
// within 3 % of these terms (docs/explanation/ecm-model.md#a-current-amd-server-cpu, with what summed or
// half-duplex terms would give). Main memory: the interface's 460.8 GB/s
// and the read bandwidth measured on the same platform with all cores (Bergamo, 360 GB/s); one core alone
// reaches far less (about 50 GB/s), which the ECM's memory term, taken from the whole socket as kerncraft
// takes it, does not say. The share of a cache that may hold reuse is the library's default, a half.
inline constexpr machine_description genoa_epyc_9654{
    .id = "genoa_epyc_9654",
    .name = "AMD EPYC 9654 (Genoa, Zen 4; a core's view: its CCD's L3)",
    .memory = {{.name = "L1", .capacity = stated(detail::bytes(32768), "cc-zen4-l1d"), .scope = sharing::per_core},
               {.name = "L2",
                .capacity = stated(detail::bytes(1048576), "cc-zen4-memory"),
                .scope = sharing::per_core,
                .upstream = {.rate = derived(detail::per_cy(32), "kerncraft-zen2"), .overlaps = true, .full_duplex = true}},
               {.name = "L3",
                .capacity = stated(detail::bytes(33554432), "suse-epyc-9004"),
                .upstream = {.rate = measured(detail::per_cy(27), "cc-zen4-memory"), .overlaps = true, .full_duplex = true},
                .victim = true},
               {.name = "MEM",
                .bandwidth = derived_bandwidth({.channels = 12, .bus_bits = 64, .pin_rate = stated(4.8 * giga(bit_per_second), "amd-epyc-9004")}),
                .measured_bandwidth = measured(detail::gbps(360), "cc-bergamo"),
                .interface = {.channels = 12, .bus_bits = 64, .pin_rate = stated(4.8 * giga(bit_per_second), "amd-epyc-9004")}}},
    .compute = {{.type = precision::fp64, .dense = derived_peak(96, stated(2.4 * giga(hertz), "amd-epyc-9004"), 16)}},
    .cores = 96,
    .clock = stated(2.4 * giga(hertz), "amd-epyc-9004"),
    .note = "L3: one CCD's 32 MB of the socket's twelve, a victim cache; L2 -> L1 32 B/cy: Zen 2's in kerncraft's file, kept on Zen 4 (Chips and Cheese); MEM: the read bandwidth measured with all cores on Bergamo, the same SP5 platform and memory",
    .memory_bandwidths = {{"load"sv, 1, 0, measured(detail::gbps(360), "cc-bergamo")}},
    .ports = {.loads_per_cycle = 2, .stores_per_cycle = 1, .memory_ops_per_cycle = 3, .fma_per_cycle = 2,
              .add_per_cycle = 2, .mul_per_cycle = 2, .vector_bytes = 32},
    .llvm_cpu = "znver4",
    .domains = {{.name = "CCD", .count = 12, .cores = 8, .last_cache = stated(detail::bytes(33554432), "suse-epyc-9004")}},
};

inline constexpr std::array<const machine_description*, 8> all{
    &sandy_bridge_ep_e5_2680, &haswell_ep_e5_2695v3, &haswell_ep_e5_2695v3_cod, &ivy_bridge_ep_e5_2660v2,
    &skylake_sp_gold_6148,    &skylake_sp_gold_6148_inspect, &sapphire_rapids_8470, &genoa_epyc_9654};

}  // namespace hml::cpus
