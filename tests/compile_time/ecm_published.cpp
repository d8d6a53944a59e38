// Published ECM analyses reproduced from their stated inputs: the expected results of kerncraft's own test
// suite (RRZE-HPC/kerncraft, tests/test_kerncraft.py at commit a08af4de; machine files
// tests/test_files/phinally_gcc.yaml and hasep1.yaml, in hml::cpus with their figures). kerncraft's tests
// compare with assertAlmostEqual(places=1) (within 0.05 cy) for L1-L2 and L2-L3 and places=0 (within 0.5)
// for L3-MEM; so do these. All in cy/CL; kerncraft's layer conditions take the whole cache (share 1).
#include <cstdint>
#include <string_view>
import hml;

namespace {

using hml::cpus::haswell_ep_e5_2695v3;
using hml::cpus::sandy_bridge_ep_e5_2680;

constexpr bool within(hml::cycles value, double expected, double tolerance) {
  const double v = hml::in(value, hml::cycle);
  return v > expected - tolerance && v < expected + tolerance;
}

// 1. test_2d5pt_ECM: 2d-5pt.c (b[j][i] = (a[j][i-1] + a[j][i+1] + a[j-1][i] + a[j+1][i]) * s), N = 2000,
//    M = 1000, on Sandy Bridge EP; in-core from IACA as the test states it: T_OL = 26, T_nOL = 20.
//    Expected: L1-L2 10, L2-L3 6, L3-MEM 13. By hand: rows of 2000 doubles need 32N - 16 = 63,984 B > 32 kB,
//    so L1 loses rows j-1 and j+1: 3 loads + write-allocate + eviction = 5 lines x 64 B / 32 B/cy = 10;
//    L2 (256 kB) keeps them: 3 lines = 6; L3 too, 3 lines over memory, whose stream mix is copy's (1 read,
//    1 write): 27.47 GB/s x (1 + 2) / (1 + 1) for the uncounted write-allocate = 41.2 GB/s = 15.26 B/cy at
//    2.7 GHz: 192 / 15.26 = 12.58 cy.
constexpr auto stencil = hml::ecm(hml::kernels::stencil2d5(1000, 2000), sandy_bridge_ep_e5_2680,
                                  {26 * hml::cycle, 20 * hml::cycle});
static_assert(within(stencil.transfers[0].time, 10, 0.05));
static_assert(within(stencil.transfers[1].time, 6, 0.05));
static_assert(within(stencil.transfers[2].time, 13, 0.5));
static_assert(within(stencil.transfers[2].time, 12.58, 0.005));  // the hand derivation above
// The composition (not asserted by kerncraft's test): max(26, 20 + 10 + 6 + 12.58) = 48.58 cy/CL, and
// memory saturates at ceil(48.58 / 12.58) = 4 of the 8 cores.
static_assert(within(stencil.time, 48.58, 0.005));
static_assert(stencil.saturation_cores == 4);
// Its single-core Roofline per level: nothing adds, the in-core T_OL (26) bounds every level.
static_assert(hml::roofline_prediction(stencil, 0) == 26 * hml::cycle && hml::roofline_prediction(stencil, 3) == 26 * hml::cycle);

// 2. test_2d5pt_ECMData_LC's neighbour test_2d5pt_ECMData: N = 1000, M = 50. Rows need 31,984 B <= 32,768 B:
//    the layer condition holds in L1 (3 lines = 6 cy); L2 (256 kB) is smaller than the arrays (800 kB):
//    3 lines = 6 cy; L3 holds both arrays, so no line comes from memory. kerncraft expects 6 and 6, and
//    3.9 for L3-MEM, marked in the test "FIXME should be 0" (its stores ignore full caching): hml gives 0.
constexpr auto small = hml::ecm(hml::kernels::stencil2d5(50, 1000), sandy_bridge_ep_e5_2680);
static_assert(within(small.transfers[0].time, 6, 0.05) && within(small.transfers[1].time, 6, 0.05));
static_assert(small.transfers[2].time == 0 * hml::cycle && small.saturation_cores == 0);

// 3. test_copy_ECMData(_LC): copy.c (a[i] = b[i]), N = 1,000,000 on Haswell EP. Expected L1-L2 6, L2-L3 6:
//    load + write-allocate + eviction = 3 lines x 2 cy ("cycles per cacheline transfer: 2"). The arrays
//    (16 MB) fit the 35 MB L3: kerncraft's 2.3 cy for L3-MEM is marked "FIXME ... should be 0.0"; hml gives 0.
constexpr auto copy = hml::ecm(hml::kernels::copy(1'000'000), haswell_ep_e5_2695v3);
static_assert(within(copy.transfers[0].time, 6, 0.05) && within(copy.transfers[1].time, 6, 0.05));
static_assert(copy.transfers[2].time == 0 * hml::cycle);

// 4. test_sclar_product_ECMData(_LC): scalar_product.c (s += a[i] * b[i]), N = 10,000 on Haswell EP.
//    Expected L1-L2 4 (2 loads x 2 cy), L2-L3 0 and L3-MEM 0: both arrays (160 kB) fit L2.
constexpr auto dot = hml::ecm(hml::kernels::scalar_product(10'000), haswell_ep_e5_2695v3);
static_assert(within(dot.transfers[0].time, 4, 0.05));
static_assert(dot.transfers[1].time == 0 * hml::cycle && dot.transfers[2].time == 0 * hml::cycle);
// With data in L1 the two models agree (max(T_OL, T_nOL)); in L2 the ECM adds the L1-L2 term (4 cy) to
// T_nOL where the Roofline takes the longer of the two.
static_assert(hml::roofline_prediction(dot, 0) == dot.predictions[0]);
static_assert(dot.predictions[1] > hml::roofline_prediction(dot, 1));

// 5. One Cluster-on-Die domain of the same Haswell EP (kerncraft's HaswellEP_E5-2695v3_CoD.yml), the
//    inputs of PMBS'15's Haswell results, whose table is not reproduced here (the paper could not be
//    retrieved): what its figures give, by hand. STREAM triad in memory: 4 lines a CL (2 loads, the
//    write-allocate, the eviction), 8 cy between the caches at 32 B/cy; 3 of the 4 lines read, nearest
//    the triad mix's 4 of 5 (its write stream counted as read too), whose 22.65 GB/s counts 4 of the 5
//    lines it moves: 22.65 x 5/4 = 28.3125 GB/s, 12.31 B/cy at 2.3 GHz, so 256 B take 20.80 cy. The whole
//    socket (hasep1.yaml, above) measures 43.47 GB/s for the mix: the domain's memory term is 1.92 times it.
constexpr auto cod_triad = hml::ecm(hml::kernels::stream_triad(100'000'000), hml::cpus::haswell_ep_e5_2695v3_cod);
static_assert(within(cod_triad.transfers[0].time, 8, 1e-9) && within(cod_triad.transfers[1].time, 8, 1e-9));
static_assert(within(cod_triad.transfers[2].time, 256 * 2.3 / (22.65 * 1.25), 1e-9));
static_assert(within(cod_triad.transfers[2].time, 20.80, 0.005));
static_assert(within(hml::ecm(hml::kernels::stream_triad(100'000'000), haswell_ep_e5_2695v3).transfers[2].time,
                     256 * 2.3 / (43.47 * 1.25), 1e-9));  // the socket's: 10.84 cy
static_assert(within(hml::ecm(hml::kernels::stream_triad(100'000'000), haswell_ep_e5_2695v3).transfers[2].time, 10.84, 0.005));
static_assert(hml::cpus::haswell_ep_e5_2695v3_cod.cores == 7 &&
              hml::cpus::haswell_ep_e5_2695v3_cod.memory[2].capacity.value == 18'874'368.0 * hml::byte);

// 6. tests/test_layer_condition.py's test_3d_7pt (commit 0a275311): 3d-7pt.c (b[k][j][i] = (a[k][j][i] +
//    a[k][j][i-1] + a[k][j][i+1] + a[k][j-1][i] + a[k][j+1][i] + a[k-1][j][i] + a[k+1][j][i]) * s over
//    double a[M][N][N], b[M][N][N]) on phinally_gcc.yaml, kerncraft's layer conditions per dimension: the
//    cache requirement of keeping each dimension's reuse is 64 B (1st), 48N - 32 B (2nd) and 16N^2 +
//    16N(N - 1) B (3rd). hml's requirement is the largest that fits each cache, so at N = 100 (M = 1000,
//    the arrays far larger than the L3) L1 and L2 keep the 2nd dimension (4,768 B; the 3rd's 318,400 B is
//    past L2's 262,144) and L3 the 3rd; at N = 1000 L1 keeps only the 1st (47,968 B is past its 32,768), L2
//    the 2nd, and L3 the 2nd too (the 3rd's 31,984,000 B is past its 20,971,520).
constexpr hml::loop_kernel kerncraft_3d7pt(std::int64_t m, std::int64_t n) {
  const hml::kernel_array a{.name = "a", .element_bytes = 8, .extents = {m, n, n}};
  const hml::kernel_array b{.name = "b", .element_bytes = 8, .extents = {m, n, n}};
  using hml::access_kind;
  return {.name = "3d-7pt.c",
          .dimensions = 3,
          .extents = {m - 2, n - 2, n - 2},
          .arrays = {a, b},
          .accesses = {{0, access_kind::read, {0, 0, 0}},
                       {0, access_kind::read, {0, 0, -1}},
                       {0, access_kind::read, {0, 0, 1}},
                       {0, access_kind::read, {0, -1, 0}},
                       {0, access_kind::read, {0, 1, 0}},
                       {0, access_kind::read, {-1, 0, 0}},
                       {0, access_kind::read, {1, 0, 0}},
                       {1, access_kind::write, {0, 0, 0}}},
          .flops = {.add = 6, .mul = 1}};
}
constexpr double first_dimension() { return 64; }
constexpr double second_dimension(std::int64_t n) { return 48.0 * static_cast<double>(n) - 32; }
constexpr double third_dimension(std::int64_t n) {
  const double d = static_cast<double>(n);
  return 16 * d * d + 16 * d * (d - 1);
}
constexpr hml::traffic_options whole_cache{.layer_condition_share = 1.0};
constexpr hml::cache_traffic lc_100 = hml::cache_traffic_of(kerncraft_3d7pt(1000, 100), sandy_bridge_ep_e5_2680, whole_cache);
constexpr hml::cache_traffic lc_1000 = hml::cache_traffic_of(kerncraft_3d7pt(1000, 1000), sandy_bridge_ep_e5_2680, whole_cache);
static_assert(second_dimension(100) == 4'768 && third_dimension(100) == 318'400);
static_assert(lc_100.levels[0].requirement == second_dimension(100) * hml::byte &&
              lc_100.levels[1].requirement == second_dimension(100) * hml::byte &&
              lc_100.levels[2].requirement == third_dimension(100) * hml::byte);
static_assert(second_dimension(1000) == 47'968 && third_dimension(1000) == 31'984'000);
static_assert(lc_1000.levels[0].requirement == first_dimension() * hml::byte &&
              lc_1000.levels[1].requirement == second_dimension(1000) * hml::byte &&
              lc_1000.levels[2].requirement == second_dimension(1000) * hml::byte);
// Lines between the levels follow: 2 (a's new row, b's write-allocate) + b's eviction where the 3rd
// dimension is kept, 2 more rows of a where only the 2nd is, 2 more where only the 1st is.
static_assert(lc_100.levels[2].lines() == 3 && lc_100.levels[0].lines() == 5 && lc_1000.levels[0].lines() == 7);

// 7. The current testbeds' inputs, by hand: STREAM triad in memory (2 loads, the write-allocate and the
//    eviction: 3 lines in, 1 out). Sapphire Rapids, one SNC4 domain (kerncraft's SapphireRapids_Platinum-8470.yml):
//    4 lines at 64 B/cy from L2 (4 cy); L3 <-> L2 at 16 B/cy each way, its L3 a victim cache: none of the 3
//    lines the L2 takes in come from it, and all 3 go out into it, a dirty, b and c clean (the inclusive
//    view: 3 in, 1 out); 3 lines take the time either way (12 cy, where a half-duplex path would take 16 or
//    12); the triad mix's 59.35 GB/s x 5/4 at 2.0 GHz, 37.09 B/cy, for 256 B: 6.90 cy. Skylake-SP the same
//    way at 2.4 GHz and 86.29 GB/s: 4, 12 and 5.70 cy.
constexpr auto spr_triad = hml::ecm(hml::kernels::stream_triad(100'000'000), hml::cpus::sapphire_rapids_8470);
static_assert(within(spr_triad.transfers[0].time, 4, 1e-9) && within(spr_triad.transfers[1].time, 12, 1e-9));
static_assert(within(spr_triad.transfers[2].time, 256 * 2.0 / (59.35 * 1.25), 1e-9) && within(spr_triad.transfers[2].time, 6.90, 0.005));
constexpr auto skx_triad = hml::ecm(hml::kernels::stream_triad(100'000'000), hml::cpus::skylake_sp_gold_6148);
static_assert(within(skx_triad.transfers[0].time, 4, 1e-9) && within(skx_triad.transfers[1].time, 12, 1e-9));
static_assert(within(skx_triad.transfers[2].time, 256 * 2.4 / (86.29 * 1.25), 1e-9) && within(skx_triad.transfers[2].time, 5.70, 0.005));
static_assert(hml::cpus::sapphire_rapids_8470.cores == 13 &&
              hml::cpus::sapphire_rapids_8470.memory[2].capacity.value == 26.25 * 1024 * 1024 * hml::byte);
static_assert(spr_triad.traffic.levels[1].loads == 0 && spr_triad.traffic.levels[1].clean_victims == 2 &&
              hml::busier_direction(spr_triad.traffic, 1) == 3);

// 8. AMD's Genoa (EPYC 9654, Zen 4), a core's view: 32 KiB L1, 1 MiB L2, its CCD's 32 MiB L3 (a victim cache),
//    L2 -> L1 at 32 B/cy and L3 <-> L2 at 27 B/cy, each way at once, both overlapping the in-core time and
//    each other; main memory not. The port model: 2 vector loads (32 B), 1 store and 3 of the two together,
//    2 FMA a cycle. Schoenauer triad a = b + c d: T_OL 2 (2 stores of 32 B), T_nOL 3 (6 loads over 2; the 8
//    memory operations over 3 are 2.67); with data in L2, 4 lines in and 1 out each way at once: 4 x 2 = 8
//    cy, the whole prediction as it overlaps (summed it would be 3 + 8 = 11); in L3, 4 lines in (the L3's
//    hits) and 4 out (every line the L2 evicts): 4 x 64 / 27 = 9.48 cy; in memory 5 lines at the measured
//    360 GB/s (load, no write-allocate to scale) at 2.4 GHz: 5 x 64 x 2.4 / 360 = 2.13 cy, added to T_nOL:
//    max(2, 8, 9.48, 3 + 2.13) = 9.48. STREAM triad the same way: {2 || 2 | 6 | 7.11 | 1.71}, copy
//    {2 || 1.33 | 4 | 4.74 | 1.28}.
constexpr auto genoa = hml::cpus::genoa_epyc_9654;
constexpr auto genoa_schoenauer = hml::ecm(hml::kernels::schoenauer_triad(100'000'000), genoa);
static_assert(within(genoa_schoenauer.core.overlapping, 2, 1e-9) && within(genoa_schoenauer.core.non_overlapping, 3, 1e-9));
static_assert(within(genoa_schoenauer.transfers[0].time, 8, 1e-9) &&
              within(genoa_schoenauer.transfers[1].time, 4 * 64 / 27.0, 1e-9) &&
              within(genoa_schoenauer.transfers[1].time, 9.48, 0.005) &&
              within(genoa_schoenauer.transfers[2].time, 5 * 64 * 2.4 / 360, 1e-9) &&
              within(genoa_schoenauer.transfers[2].time, 2.13, 0.005));
static_assert(within(genoa_schoenauer.predictions[1], 8, 1e-9) && within(genoa_schoenauer.predictions[2], 9.48, 0.005) &&
              genoa_schoenauer.time == genoa_schoenauer.predictions[2]);
static_assert(genoa_schoenauer.traffic.levels[1].loads == 0 && genoa_schoenauer.traffic.levels[1].clean_victims == 3 &&
              genoa_schoenauer.traffic.levels[1].evictions == 1);
constexpr auto genoa_triad = hml::ecm(hml::kernels::stream_triad(100'000'000), genoa);
static_assert(within(genoa_triad.core.overlapping, 2, 1e-9) && within(genoa_triad.core.non_overlapping, 2, 1e-9) &&
              within(genoa_triad.transfers[0].time, 6, 1e-9) && within(genoa_triad.transfers[1].time, 7.11, 0.005) &&
              within(genoa_triad.transfers[2].time, 1.71, 0.005));
constexpr auto genoa_copy = hml::ecm(hml::kernels::copy(100'000'000), genoa);
static_assert(within(genoa_copy.core.overlapping, 2, 1e-9) && within(genoa_copy.core.non_overlapping, 4 / 3.0, 1e-9) &&
              within(genoa_copy.transfers[0].time, 4, 1e-9) && within(genoa_copy.transfers[1].time, 4.74, 0.005) &&
              within(genoa_copy.transfers[2].time, 1.28, 0.005));
// The datasheet's view (--figures stated) drops the measured 360 GB/s stream mixes for the derived
// 460.8 GB/s of twelve DDR5-4800 channels: STREAM triad in memory 4 lines x 64 B x 2.4 GHz / 460.8 GB/s
// = 1.33 cy, where the measured figure gives 1.71.
constexpr auto genoa_stated = hml::with_figures(genoa, hml::basis::datasheet);
static_assert(genoa_stated.memory_bandwidths.empty() &&
              !hml::with_figures(genoa, hml::basis::measured_where_published).memory_bandwidths.empty());
static_assert(within(hml::ecm(hml::kernels::stream_triad(100'000'000), genoa_stated).transfers[2].time, 4 * 64 * 2.4 / 460.8, 1e-9));
// A kerncraft machine's own bandwidth is a measurement (likwid-bench's load run): no datasheet figure, so the
// datasheet's view keeps its stream mixes and the ECM model predicts as it does by default (Sandy Bridge's
// Schoenauer triad in memory, the twenty-seventh trial's 17.4 cy/CL where dropping them gave 15.6).
constexpr auto snb = sandy_bridge_ep_e5_2680;
static_assert(snb.memory.back().bandwidth.kind == hml::provenance::measured && !snb.memory_bandwidths.empty());
static_assert(hml::with_figures(snb, hml::basis::datasheet).memory_bandwidths == snb.memory_bandwidths);
static_assert(hml::ecm(hml::kernels::schoenauer_triad(100'000'000), hml::with_figures(snb, hml::basis::datasheet)).transfers.back().time ==
              hml::ecm(hml::kernels::schoenauer_triad(100'000'000), snb).transfers.back().time);
// With the caches' transfers summed, as on Intel's cores, the Schoenauer triad in L2 would take 3 + 8 = 11 cy.
constexpr auto genoa_summed = [] {
  hml::machine_description m = genoa;
  m.memory[1].upstream.overlaps = false;
  m.memory[2].upstream.overlaps = false;
  return m;
}();
static_assert(within(hml::ecm(hml::kernels::schoenauer_triad(10'000), genoa_summed).time, 11, 1e-9) &&
              within(hml::ecm(hml::kernels::schoenauer_triad(10'000), genoa).time, 8, 1e-9));
static_assert(genoa.cores == 96 && genoa.memory[2].victim && genoa.memory[2].capacity.value == 32 * 1024 * 1024 * hml::byte &&
              genoa.llvm_cpu == "znver4");

}  // namespace
