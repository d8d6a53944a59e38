// A published ECM analysis of a stencil reproduced from its stated inputs: INSPECT, the RRZE's Intranode
// Stencil Performance Evaluation Collection (https://rrze-hpc.github.io/INSPECT/; data in RRZE-HPC/INSPECT,
// stencils/3D/1r/isotropic/star/constant/double/IvyBridgeEP_E5-2660v2/results.csv at commit 0690ff22). It
// publishes, per cube edge N, the ECM contributions {T_OL || T_nOL | T_L1L2 | T_L2L3 | T_L3MEM} and T_ECM of
// the 3D 7-point Jacobi stencil
//
//   b[k][j][i] = c0 * (a[k][j][i] + a[k][j][i-1] + a[k][j][i+1] + a[k-1][j][i] + a[k+1][j][i]
//                      + a[k][j-1][i] + a[k][j+1][i]);        double a[N][N][N], b[N][N][N]; 1 <= i,j,k < N-1
//
// on an Intel Xeon E5-2660 v2 (Ivy Bridge EP), with the cache transfers from layer conditions ("Layer
// Condition" columns; the "Cache Simulator" columns come from kerncraft's cache simulator, which hml does not
// have). The in-core part is IACA's, stated in every row: T_OL = 12, T_nOL = 15 cy/CL; hml takes it as given.
//
// The machine is kerncraft's machine file for that CPU (RRZE-HPC/kerncraft,
// examples/machine-files/IvyBridgeEP_E5-2660v2.yml at commit 192c9ce9), written below in C++: 2.2 GHz, 10
// cores; L1 32 kB, L2 256 kB (32 B/cy to L1), L3 25 MB = 25600 sets x 16 ways x 64 B (32 B/cy to L2);
// likwid-bench in main memory, the largest of the 1-thread-per-core runs on 1 to 10 cores: copy 27.10 GB/s,
// triad 33.13 GB/s, load 46.49 GB/s. kerncraft compares a layer condition with the whole cache, so the
// machine sets layer_condition_share = 1.
//
// What matches: every cache term (L1-L2 and L2-L3) at every N INSPECT lists, hence every T_ECM with data in
// the caches, and the N at which each layer condition breaks (L1 3D at 30/40, L2 3D at 90/100, L3 holds all
// at 110/120, L1 2D at 680/690, L3 3D at 900/910), each asserted on both sides.
//
// What does not, and why: T_L3MEM. INSPECT lists 10.8 cy for 3 lines (N = 120 ... 900) and 17.8 for 5 lines
// (N >= 910). From the machine file retrieved here, kerncraft's own rule (copy's bandwidth for 2 read and 1
// written line, scaled by (1 + 2) / (1 + 1) for the uncounted write-allocate) gives 192 B / (27.10 GB/s x 1.5
// / 2.2 GHz) = 10.39 cy, which hml reproduces; 10.8 implies a copy bandwidth of 26.1 GB/s, so INSPECT's run
// took another version of the file (the 5-line figure is off by the same 4 %). hml also picks the stream mix
// from the kernel's arrays (1 read, 1 written: copy) where kerncraft picks it from the lines at that level
// (4 read, 1 written: triad) once the L3 layer condition breaks: for N >= 910 hml takes copy's bandwidth,
// 17.32 cy, where kerncraft would take triad's, 17.0 cy with this file. Both gaps are asserted below as
// what they are, not hidden in a tolerance.
#include <cstdint>
import hml;

namespace {

using hml::cycle;

constexpr bool within(hml::cycles value, double expected, double tolerance) {
  const double v = hml::in(value, cycle);
  return v > expected - tolerance && v < expected + tolerance;
}
// INSPECT prints one decimal; cache terms are whole cycles (lines x 64 B / 32 B/cy).
constexpr bool published(hml::cycles value, double expected) { return within(value, expected, 0.05); }

constexpr hml::data_rate gbps(double n) { return n * hml::giga(hml::byte_per_second); }

constexpr auto clock = hml::stated(2.2 * hml::giga(hml::hertz), "kerncraft-ivb");

constexpr hml::cpu_description ivy_bridge_ep_e5_2660v2{
    .machine = {.id = "ivb_e5_2660v2",
                .name = "Intel Xeon E5-2660 v2 (Ivy Bridge EP)",
                .memory = {{.name = "L1", .capacity = hml::stated(32768.0 * hml::byte, "kerncraft-ivb"),
                            .scope = hml::sharing::per_core},
                           {.name = "L2", .capacity = hml::stated(262144.0 * hml::byte, "kerncraft-ivb"),
                            .scope = hml::sharing::per_core},
                           {.name = "L3", .capacity = hml::stated(26214400.0 * hml::byte, "kerncraft-ivb")},
                           {.name = "MEM", .bandwidth = hml::measured(gbps(46.49), "kerncraft-ivb")}},
                .compute = {{.type = hml::precision::fp64, .dense = hml::derived_peak(10, clock, 8)}},
                .cores = 10,
                .clock = clock},
    .transfers = {{},
                  {.rate = hml::stated(32.0 * hml::byte_per_cycle, "kerncraft-ivb")},
                  {.rate = hml::stated(32.0 * hml::byte_per_cycle, "kerncraft-ivb")},
                  {}},
    .memory_bandwidths = {{"copy", 1, 1, hml::measured(gbps(27.10), "kerncraft-ivb")},
                          {"triad", 3, 1, hml::measured(gbps(33.13), "kerncraft-ivb")},
                          {"load", 1, 0, hml::measured(gbps(46.49), "kerncraft-ivb")}},
    .layer_condition_share = 1.0,
};

// The stencil above on an N^3 grid: seven reads of a (the centre and its six neighbours), one write of b,
// six additions and one multiplication per lattice update.
constexpr hml::loop_kernel star3d7(std::int64_t n) {
  const hml::kernel_array a{.name = "a", .element_bytes = 8, .extents = {n, n, n}};
  const hml::kernel_array b{.name = "b", .element_bytes = 8, .extents = {n, n, n}};
  using hml::access_kind;
  return {.name = "3D 7-point stencil",
          .dimensions = 3,
          .extents = {n - 2, n - 2, n - 2},
          .arrays = {a, b},
          .accesses = {{0, access_kind::read, {0, 0, 0}},
                       {0, access_kind::read, {0, 0, -1}},
                       {0, access_kind::read, {0, 0, 1}},
                       {0, access_kind::read, {-1, 0, 0}},
                       {0, access_kind::read, {1, 0, 0}},
                       {0, access_kind::read, {0, -1, 0}},
                       {0, access_kind::read, {0, 1, 0}},
                       {1, access_kind::write, {0, 0, 0}}},
          .flops = {.add = 6, .mul = 1}};
}

constexpr hml::in_core_time iaca{12 * cycle, 15 * cycle};  // INSPECT's T_OL and T_nOL, every row
constexpr hml::ecm_result at(std::int64_t n) { return hml::ecm(star3d7(n), ivy_bridge_ep_e5_2660v2, iaca); }

// Each INSPECT row with no line from memory: {12 || 15 | L1L2 | L2L3 | 0} and T_ECM, all from the data file.
constexpr bool cached_row(std::int64_t n, double l1l2, double l2l3, double t_ecm) {
  const hml::ecm_result r = at(n);
  return published(r.transfers[0].time, l1l2) && published(r.transfers[1].time, l2l3) &&
         r.transfers[2].time == 0 * cycle && published(r.time, t_ecm);
}

// N = 10: both arrays (16 kB) fit in L1: {12 || 15 | 0 | 0 | 0} = 15.
static_assert(cached_row(10, 0, 0, 15));
// N = 20, 30: the 3D layer condition holds in L1 (16 N^2 + 16 N (N - 1) = 28,320 B <= 32 kB at N = 30): a, the
// write-allocate of b and its eviction, 3 lines = 6 cy. The arrays (128 kB) fit in L2 at N = 20; at N = 30
// (432 kB) L2 keeps the 3D condition: 6 cy. INSPECT: {12 || 15 | 6 | 0 | 0} = 21, {12 || 15 | 6 | 6 | 0} = 27.
static_assert(cached_row(20, 6, 0, 21));
static_assert(cached_row(30, 6, 6, 27));
// N = 40 ... 90: L1 keeps only the 2D condition (rows j-1, j, j+1 of the current layer; layers k-1 and k+1
// miss): 3 loads + write-allocate + eviction = 5 lines = 10 cy; L2 still 3D: INSPECT {12 || 15 | 10 | 6 | 0} = 31.
static_assert(cached_row(40, 10, 6, 31) && cached_row(90, 10, 6, 31));
// N = 100, 110: L2 breaks its 3D condition (318,400 B > 256 kB at N = 100): 5 lines = 10 cy; both arrays
// still fit the 25 MB L3 (21.3 MB at N = 110): INSPECT {12 || 15 | 10 | 10 | 0} = 35.
static_assert(cached_row(100, 10, 10, 35) && cached_row(110, 10, 10, 35));

// From N = 120 (27.6 MB) lines come from memory. Lines per CL between each pair of levels, as INSPECT's cache
// terms and its "Data Transfer" columns have them: L1-L2 5, then 7 once L1 breaks its 2D condition
// (48 N - 32 B > 32 kB from N = 684); L2-L3 5; L3-MEM 3 while L3 keeps the 3D condition (up to N = 905), then 5.
constexpr hml::ecm_result n120 = at(120);
constexpr hml::ecm_result n680 = at(680);
constexpr hml::ecm_result n690 = at(690);
constexpr hml::ecm_result n900 = at(900);
constexpr hml::ecm_result n910 = at(910);
static_assert(n120.transfers[0].lines == 5 && n120.transfers[1].lines == 5 && n120.transfers[2].lines == 3);
static_assert(n680.transfers[0].lines == 5 && n690.transfers[0].lines == 7);
static_assert(n900.transfers[2].lines == 3 && n910.transfers[2].lines == 5);
// The cache terms INSPECT lists for these rows: 10 | 10 up to N = 680, 14 | 10 from N = 690.
static_assert(published(n120.transfers[0].time, 10) && published(n120.transfers[1].time, 10));
static_assert(published(n680.transfers[0].time, 10) && published(n680.transfers[1].time, 10));
static_assert(published(n690.transfers[0].time, 14) && published(n690.transfers[1].time, 10));
static_assert(published(n910.transfers[0].time, 14) && published(n910.transfers[1].time, 10));

// T_L3MEM from the retrieved machine file (see the header for why INSPECT's 10.8 and 17.8 differ):
// 3 lines x 64 B x 2.2 GHz / (27.10 GB/s x 1.5) = 10.391 cy; 5 lines = 17.319 cy.
static_assert(within(n120.transfers[2].time, 10.391, 0.001) && within(n900.transfers[2].time, 10.391, 0.001));
static_assert(within(n910.transfers[2].time, 17.319, 0.001));
// ... so T_ECM = 15 + 10 + 10 + 10.39 = 45.39 (INSPECT 45.8), 15 + 14 + 10 + 10.39 = 49.39 (INSPECT 49.8) and
// 15 + 14 + 10 + 17.32 = 56.32 (INSPECT 56.8): the cache part of each sum is INSPECT's to the cycle.
static_assert(within(n120.time, 45.391, 0.001) && within(n690.time, 49.391, 0.001));
static_assert(within(n910.time, 56.319, 0.001));
// The gap to INSPECT is the memory term alone, 3.9 % of it (10.8 / 10.391) and under 1 % of T_ECM.
static_assert(within(n120.time, 45.8, 0.45) && within(n120.transfers[2].time, 10.8, 0.45));
// Predictions per level for N = 690: data in L1 15, L2 15 + 14 = 29, L3 29 + 10 = 39, memory 49.39.
static_assert(published(n690.predictions[0], 15) && published(n690.predictions[1], 29) &&
              published(n690.predictions[2], 39));
// Memory saturates at ceil(45.39 / 10.39) = 5 of the 10 cores (INSPECT states no saturation point; its own
// figures give ceil(45.8 / 10.8) = 5 too).
static_assert(n120.saturation_cores == 5);

}  // namespace
