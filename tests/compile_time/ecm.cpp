// The ECM model on a machine written in C++, every figure derived by hand in the comments.
import hml;

#include "ecm_triad.hpp"  // my_machine, the CPU written in C++

namespace {

using namespace hml::literals;

// A CPU at 2 GHz with 8 cores: L2 -> L1 at 64 B/cy, L3 -> L2 at 16 B/cy (both stated per cycle), main
// memory at 64 GB/s, which is 32 B/cy at 2 GHz. AVX2 ports: 2 loads, 1 store, 2 FMA per cycle.
// (examples/ecm_triad.hpp writes it once; the example prints what is checked here.)
using ecm_triad::my_machine;

// STREAM triad a = b + s * c in DRAM: 4 lines per CL between every pair (2 loads, write-allocate,
// eviction). In-core, per CL of 8 doubles with 32 B vectors: 4 loads / 2 = 2 cy (T_nOL); 2 stores / 1 and
// 2 FMA / 2: T_OL = 2 cy. Transfers: 4 x 64 B / 64 = 4 cy, 4 x 64 / 16 = 16 cy, 4 x 64 / 32 = 8 cy.
// T_ECM = max(2, 2 + 4 + 16 + 8) = 30 cy/CL; memory saturates at ceil(30 / 8) = 4 cores.
constexpr auto triad = hml::kernels::stream_triad(100'000'000);
constexpr hml::ecm_result r = hml::ecm(triad, my_machine);
static_assert(r.core.overlapping == 2 * hml::cycle && r.core.non_overlapping == 2 * hml::cycle);
static_assert(r.transfers.size() == 3);
static_assert(r.transfers[0].time == 4 * hml::cycle && r.transfers[1].time == 16 * hml::cycle &&
              r.transfers[2].time == 8 * hml::cycle);
static_assert(r.transfers[2].rate == 32 * hml::byte_per_cycle);
static_assert(r.time == 30 * hml::cycle);
static_assert(hml::ecm(triad, my_machine).saturation_cores == 4);

// Predictions for data in each level: {2 | 6 | 22 | 30} cy/CL.
static_assert(r.predictions.size() == 4);
static_assert(r.predictions[0] == 2 * hml::cycle && r.predictions[1] == 6 * hml::cycle &&
              r.predictions[2] == 22 * hml::cycle && r.predictions[3] == 30 * hml::cycle);

// Scaling: 30, 15, 10 cy/CL on 1-3 cores, then memory's 8 cy/CL from 4 cores on.
static_assert(hml::chip_time(r, 1) == 30 * hml::cycle && hml::chip_time(r, 3) == 10 * hml::cycle);
static_assert(hml::chip_time(r, 4) == 8 * hml::cycle && hml::chip_time(r, 8) == 8 * hml::cycle);
// One core: 16 FLOP per CL in 30 cy at 2 GHz = 1.0667 GFLOP/s; saturated: 16 / 8 x 2 GHz = 4 GFLOP/s.
constexpr bool near(hml::compute_rate a, hml::compute_rate b) { return hml::abs(a - b) < b * 1e-12; }
static_assert(near(hml::performance(r, 8, my_machine.clock.value), 4_GFLOPS));

// A level whose transfers overlap leaves the sum and joins the max: with L3 -> L2 overlapping,
// T_ECM = max(2, 16, 2 + 4 + 8) = 16 cy/CL.
constexpr hml::machine_description overlapping_l3 = [] {
  hml::machine_description c = my_machine;
  c.memory[2].upstream.overlaps = true;
  return c;
}();
static_assert(hml::ecm(triad, overlapping_l3).time == 16 * hml::cycle);

// A strided read, a[i] = s * b[2i]: no vector loads b, so the port model takes one load per element, 8 per
// CL, at 2 a cycle: T_nOL = 4 cy; a's 2 vector stores at 1 a cycle and 2 multiplications at 2: T_OL = 2 cy.
// b brings 2 lines, a 1 write-allocate and 1 eviction: 4 lines, 4 x 64 B / 64 B/cy = 4 cy from L2.
constexpr hml::loop_kernel strided_scale{.name = "strided scale",
                                         .dimensions = 1,
                                         .extents = {1'000'000},
                                         .arrays = {{.name = "a", .extents = {1'000'000}},
                                                    {.name = "b", .extents = {2'000'000}, .stride = 2}},
                                         .accesses = {{.array = 1}, {.array = 0, .kind = hml::access_kind::write}},
                                         .flops = {.mul = 1}};
static_assert(hml::in_core(strided_scale, my_machine).non_overlapping == 4 * hml::cycle);
static_assert(hml::in_core(strided_scale, my_machine).overlapping == 2 * hml::cycle);
static_assert(hml::ecm(strided_scale, my_machine).transfers[0].time == 4 * hml::cycle);

// A core without an FMA unit (fma_per_cycle 0, Sandy Bridge) runs an FMA as an addition and a multiplication,
// each on its own port: 3 additions, 1 multiplication and 2 FMAs an element, 2 vectors a CL of doubles at 32 B,
// are (3 + 2) x 2 = 10 additions at 1 a cycle and (1 + 2) x 2 = 6 multiplications: T_OL = 10 cy, where an FMA
// unit of 1 a cycle would take them apart (max(6, 2, 4) = 6 cy). A kernel of FMAs alone takes as long either
// way (STREAM's triad: 2 of each, 2 cy).
constexpr hml::loop_kernel mixed_flops = [] {
  hml::loop_kernel k = strided_scale;
  k.arrays[1].stride = 1;
  k.flops = {.add = 3, .mul = 1, .fma = 2};
  return k;
}();
constexpr hml::machine_description no_fma = [] {
  hml::machine_description c = my_machine;
  c.ports = {.loads_per_cycle = 2, .stores_per_cycle = 1, .fma_per_cycle = 0, .add_per_cycle = 1, .mul_per_cycle = 1, .vector_bytes = 32};
  return c;
}();
static_assert(hml::in_core(mixed_flops, no_fma).overlapping == 10 * hml::cycle);
static_assert(hml::in_core(mixed_flops, [] {
                hml::machine_description c = no_fma;
                c.ports.fma_per_cycle = 1;
                return c;
              }()).overlapping == 6 * hml::cycle);
static_assert(hml::in_core(triad, no_fma).overlapping == 2 * hml::cycle);
static_assert(hml::cpus::sandy_bridge_ep_e5_2680.ports.fma_per_cycle == 0);

// The in-core time can be given instead of the port model: {10 || 2 | ...} gives max(10, 30) = 30.
static_assert(hml::ecm(triad, my_machine, {10 * hml::cycle, 2 * hml::cycle}).time == 30 * hml::cycle);

// Loads and stores sharing the L1's ports: with 64 B vectors and at most 2.5 of both a cycle, a STREAM triad's
// 2 loads and 1 store per CL keep the L1 busy 3 / 2.5 = 1.2 cy, more than its loads alone take (2 / 2 = 1 cy)
// or its store (1 / 1 = 1 cy): {1 || 1.2} in L1. A copy's load and store: 2 / 2.5 = 0.8 < 1 store cycle,
// {1 || 0.8}: the store still binds. Without the shared limit (0, the default) T_nOL is the loads' 1 cy.
constexpr hml::machine_description shared_l1_ports = [] {
  hml::machine_description c = my_machine;
  c.ports.vector_bytes = 64;
  c.ports.memory_ops_per_cycle = 2.5;
  return c;
}();
static_assert(hml::in_core(triad, shared_l1_ports).non_overlapping == 1.2 * hml::cycle);
static_assert(hml::in_core(triad, shared_l1_ports).overlapping == 1 * hml::cycle);
static_assert(hml::ecm(triad, shared_l1_ports).predictions[0] == 1.2 * hml::cycle);
static_assert(hml::in_core(hml::kernels::copy(1000), shared_l1_ports).non_overlapping == 0.8 * hml::cycle);
static_assert(hml::ecm(hml::kernels::copy(1000), shared_l1_ports).predictions[0] == 1 * hml::cycle);
static_assert(hml::in_core(triad, [] {
                hml::machine_description c = shared_l1_ports;
                c.ports.memory_ops_per_cycle = 0;
                return c;
              }()).non_overlapping == 1 * hml::cycle);
// STREAM's add a = b + c moves what the triad moves and does an ADD where the triad does an FMA.
static_assert(hml::ecm(hml::kernels::vector_add(100'000'000), my_machine).time == 30 * hml::cycle);

// Non-temporal stores: 2 lines per CL in the caches (the loads of b and c; a is neither allocated nor
// evicted through them, its lines are counted at memory): L1L2 2 x 64 / 64 = 2, L2L3 2 x 64 / 16 = 8, L3Mem
// (2 loads + 1 streaming store) x 64 / 32 = 6; T_ECM = 2 + 2 + 8 + 6 = 18 cy/CL.
static_assert(hml::ecm(hml::kernels::stream_triad(100'000'000, hml::store_kind::non_temporal), my_machine).time ==
              18 * hml::cycle);

// examples/ecm_triad's other kernels. Schönauer triad: 6 loads / 2 = 3 cy (T_nOL), T_OL = max(2 stores / 1,
// 2 FMA / 2) = 2; 5 lines: 5, 20, 10 cy: 3 + 5 + 20 + 10 = 38 cy/CL, ceil(38 / 10) = 4 cores.
static_assert(hml::ecm(hml::kernels::schoenauer_triad(100'000'000), my_machine).time == 38 * hml::cycle);
static_assert(hml::ecm(hml::kernels::schoenauer_triad(100'000'000), my_machine).saturation_cores == 4);
// copy: 2 loads / 2 = 1 cy, 2 stores: T_OL = 2; 3 lines: 3, 12, 6 cy: 1 + 3 + 12 + 6 = 22 cy/CL.
static_assert(hml::ecm(hml::kernels::copy(100'000'000), my_machine).time == 22 * hml::cycle);
// copy with non-temporal stores: 1 line through the caches, 2 to and from memory: 1 + 1 + 4 + 4 = 10 cy/CL,
// saturating at ceil(10 / 4) = 3 cores.
static_assert(hml::ecm(hml::kernels::copy(100'000'000, hml::store_kind::non_temporal), my_machine).time == 10 * hml::cycle);
static_assert(hml::ecm(hml::kernels::copy(100'000'000, hml::store_kind::non_temporal), my_machine).saturation_cores == 3);
// 2D 5-point stencil (T_nOL 4 loads x 2 / 2 = 4, T_OL 3 = max(2 stores, 3 ADD x 2 / 2, 1 MUL x 2 / 2)): rows of
// 512 keep the L1 layer condition (3 lines: 3, 12, 6 cy: 25), rows of 513 do not (5 lines into L1: 27).
static_assert(hml::ecm(hml::kernels::stencil2d5(4000, 512), my_machine).time == 25 * hml::cycle);
static_assert(hml::ecm(hml::kernels::stencil2d5(4000, 513), my_machine).time == 27 * hml::cycle);

// Cycles and seconds meet only through a clock: 30 cy at 2 GHz = 15 ns.
static_assert(hml::to_duration(30 * hml::cycle, 2_GHz) == 15_ns);
static_assert(hml::per_cycle(64_GBps, 2_GHz) == 32 * hml::byte_per_cycle);

// The roofline of the same kernel, through hml::analyze: 4 lines = 256 B and 16 FLOP per CL, so
// 1/16 FLOP/B; at 64 GB/s that is 4 GFLOP/s, the ECM model's saturated figure.
constexpr hml::roofline_point roof = hml::roofline_beside(triad, r, my_machine);
static_assert(roof.intensity == 0.0625 * hml::flop_per_byte);
static_assert(roof.attainable == 4_GFLOPS);

// Main memory measured per stream mix, the store path included. A copy with write-allocate measured at
// 40 GB/s (counted as likwid-bench counts: 1 read, 1 write stream) moved 40 x (1 + 2) / 2 = 60 GB/s; a
// triad (3 reads, 1 write) at 48 GB/s moved 48 x 5 / 4 = 60 GB/s; memmove's non-temporal copy at 45 GB/s moved
// what it counts. A copy with normal stores takes the copy mix (read share 1/2, the triad's is 3/4): 60 GB/s;
// a copy with non-temporal stores takes the mix measured on its own path: 45 GB/s; with no such mix it falls
// back to the nearest read share, the copy's 60 GB/s.
constexpr hml::machine_description with_mixes = [] {
  hml::machine_description c = my_machine;
  c.memory_bandwidths = {{"copy", 1, 1, hml::measured(40_GBps, "test")},
                         {"triad", 3, 1, hml::measured(48_GBps, "test")},
                         {.kernel = "copy-nt", .reads = 1, .writes = 1, .bandwidth = hml::measured(45_GBps, "test"),
                          .non_temporal = true}};
  return c;
}();
constexpr auto copy_nt = hml::kernels::copy(1'000'000, hml::store_kind::non_temporal);
static_assert(hml::writes_non_temporal(copy_nt) && !hml::writes_non_temporal(hml::kernels::copy(1'000'000)));
static_assert(hml::memory_bandwidth_for(hml::kernels::copy(1'000'000), with_mixes) == 60_GBps);
static_assert(hml::memory_bandwidth_for(copy_nt, with_mixes) == 45_GBps);
static_assert(hml::memory_bandwidth_for(hml::kernels::schoenauer_triad(1'000'000), with_mixes) == 60_GBps);
constexpr hml::machine_description without_nt = [] {
  hml::machine_description c = with_mixes;
  c.memory_bandwidths = {with_mixes.memory_bandwidths[0], with_mixes.memory_bandwidths[1]};
  return c;
}();
static_assert(hml::memory_bandwidth_for(copy_nt, without_nt) == 60_GBps);

// The mix follows the lines between the last cache and memory, as kerncraft picks it. A 2D five-point
// stencil whose rows the L3 keeps (1,000 columns) reads 1 line and its write-allocate per line it evicts: a
// share of 2/3 read, copy's exactly (1 read, 1 write-allocate, 1 write): 40 x 3/2 = 60 GB/s. Rows of
// 2,000,000 doubles (two rows, 32 MB, exceed half of the 32 MiB L3) read three rows and the write-allocate
// per line evicted: 4/5, the triad's exactly (3 reads, 1 write-allocate, 1 write): 56 x 5/4 = 70 GB/s. Its
// arrays alone (one read, one written) would have taken copy's for both.
constexpr hml::machine_description distinct_mixes = [] {
  hml::machine_description c = my_machine;
  c.memory_bandwidths = {{"copy", 1, 1, hml::measured(40_GBps, "test")}, {"triad", 3, 1, hml::measured(56_GBps, "test")}};
  return c;
}();
static_assert(hml::memory_bandwidth_for(hml::kernels::stencil2d5(100, 1000), distinct_mixes) == 60_GBps);
static_assert(hml::memory_bandwidth_for(hml::kernels::stencil2d5(100, 2'000'000), distinct_mixes) == 70_GBps);

}  // namespace

// The ECM loop kernels stream the arrays the roofline's workloads count (hml.workload), so the two models
// agree on the bytes of copy (2 arrays), the STREAM triad (3) and the Schoenauer triad (4), in doubles.
namespace {
constexpr double streamed_bytes(const hml::loop_kernel& k, double n) {
  const hml::stream_counts s = hml::streams(k);
  return (s.reads + s.writes) * sizeof(double) * n;
}
static_assert(streamed_bytes(hml::kernels::copy(1000), 1000) == hml::copy<double>(1000).bytes.value());
static_assert(streamed_bytes(hml::kernels::stream_triad(1000), 1000) == hml::triad<double>(1000).bytes.value());
static_assert(streamed_bytes(hml::kernels::schoenauer_triad(1000), 1000) ==
              hml::schoenauer_triad<double>(1000).bytes.value());
}  // namespace
