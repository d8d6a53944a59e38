// hml.catalog.cpus — CPUs as the ECM model needs them: machine descriptions with per-cycle transfer rates
// and main-memory bandwidths measured per stream mix. The two here are kerncraft's
// own test machines, with the figures of its machine files, so that the published kerncraft test results
// can be reproduced from the same inputs (tests/compile_time/ecm_published.cpp). Measured bandwidths are
// likwid-bench's, the largest of the 1-thread-per-core runs on 1 to all cores of one socket (kerncraft
// takes the full socket's bandwidth for the ECM memory term).
//
// kerncraft compares a layer condition with the whole cache, so both set layer_condition_share = 1.
module;
#include <array>
#include <string_view>
export module hml.catalog.cpus;
export import hml.ecm;

export namespace hml::cpus {

using namespace std::string_view_literals;

inline constexpr std::array<source, 2> sources{{
    {"kerncraft-snb", "kerncraft test machine file phinally_gcc.yaml (Intel Xeon E5-2680, Sandy Bridge EP)",
     "https://github.com/RRZE-HPC/kerncraft/blob/master/tests/test_files/phinally_gcc.yaml"},
    {"kerncraft-hsw", "kerncraft test machine file hasep1.yaml (Intel Xeon E5-2695 v3, Haswell EP)",
     "https://github.com/RRZE-HPC/kerncraft/blob/master/tests/test_files/hasep1.yaml"},
}};

namespace detail {
constexpr data_size bytes(double n) { return n * byte; }
constexpr data_rate gbps(double n) { return n * giga(byte_per_second); }
constexpr bytes_per_cycle per_cy(double n) { return n * byte_per_cycle; }
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
    .layer_condition_share = 1.0,
};

inline constexpr std::array<const machine_description*, 2> all{&sandy_bridge_ep_e5_2680, &haswell_ep_e5_2695v3};

}  // namespace hml::cpus
