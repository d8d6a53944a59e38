// The ECM model at compile time: STREAM's triad and its relatives on a CPU written in C++, data in each
// level, the multicore scaling up to the saturation point, the roofline beside it; then the 2D 5-point
// stencil on both sides of its L1 layer condition, and kerncraft's published 2d-5pt case on Sandy Bridge
// EP. tests/compile_time/ecm.cpp and ecm_published.cpp check the figures by hand and against kerncraft.
#pragma once
#include <array>
#include <cstdint>
#include <string_view>

#include "example_text.hpp"

namespace ecm_triad {

using namespace hml::literals;
using example_text::write;

// 2 GHz, 8 cores; L2 -> L1 at 64 B/cy and L3 -> L2 at 16 B/cy, stated per cycle; DRAM at 64 GB/s (32 B/cy).
inline constexpr hml::machine_description my_machine{
    .id = "my_cpu",
    .name = "a CPU written in C++",
    .memory = {{.name = "L1", .capacity = hml::stated(32_KiB), .scope = hml::sharing::per_core},
               {.name = "L2",
                .capacity = hml::stated(1_MiB),
                .scope = hml::sharing::per_core,
                .upstream = {.rate = hml::stated(64 * hml::byte_per_cycle)}},
               {.name = "L3", .capacity = hml::stated(32_MiB), .upstream = {.rate = hml::stated(16 * hml::byte_per_cycle)}},
               {.name = "DRAM", .bandwidth = hml::stated(64_GBps)}},
    .compute = {{.type = hml::precision::fp64, .dense = hml::stated(256_GFLOPS)}},
    .cores = 8,
    .clock = hml::stated(2_GHz),
};

constexpr auto cy(hml::cycles c) { return example_text::number(hml::in(c, hml::cycle), hml::general(3)); }

template <class Sink>
constexpr void write_ecm(Sink& out, const hml::ecm_result& r) {
  write(out, {"  {", cy(r.core.overlapping).view(), " || ", cy(r.core.non_overlapping).view()});
  for (const hml::transfer_term& t : r.transfers) write(out, {" | ", cy(t.time).view()});
  write(out, {"} cy/CL = ", cy(r.time).view(), " cy/CL; data in"});
  const std::array<std::string_view, 4> names{"L1", "L2", "L3", "memory"};
  for (std::size_t i = 0; i < r.predictions.size(); ++i)
    write(out, {i == 0 ? " " : ", ", names[i], " ", cy(r.predictions[i]).view()});
  write(out, {"\n"});
}

template <class Sink>
constexpr void write_kernel(Sink& out, const hml::loop_kernel& k) {
  const hml::ecm_result r = hml::ecm(k, my_machine);
  write(out, {"\n", k.name, ", lines per CL between levels:"});
  for (const hml::transfer_term& t : r.transfers)
    write(out, {" ", t.inner, "-", t.outer, " ", example_text::number(t.lines, hml::general(3)).view()});
  write(out, {"\n"});
  write_ecm(out, r);
  if (r.saturation_cores == 0) return;
  write(out, {"  saturates at ", example_text::number(r.saturation_cores, hml::general(3)).view(), " cores; cy/CL on 1..8 cores:"});
  for (unsigned n = 1; n <= my_machine.cores; ++n) write(out, {" ", cy(hml::chip_time(r, n)).view()});
  write(out, {"\n"});
  if (r.flop_per_cacheline > 0) {
    const hml::roofline_point roof = hml::roofline_beside(k, r, my_machine);
    write(out, {"  8 cores: ", hml::to_text(hml::performance(r, 8, my_machine.clock.value), {hml::general(4)}).view(),
                "; roofline beside it: ", hml::to_text(roof.attainable, {hml::general(4)}).view(), " at ",
                hml::to_text(roof.intensity, {hml::general(3)}).view(), "\n"});
  }
}

template <class Sink>
constexpr void write_report(Sink& out) {
  write(out, {"ECM on ", my_machine.name, ": 2 GHz, L2->L1 64 B/cy, L3->L2 16 B/cy, DRAM 64 GB/s = 32 B/cy\n",
              "notation {T_OL || T_nOL | T_L1L2 | T_L2L3 | T_L3Mem}, per cache line of work (8 doubles)\n"});
  write_kernel(out, hml::kernels::stream_triad(100'000'000));
  write_kernel(out, hml::kernels::schoenauer_triad(100'000'000));
  write_kernel(out, hml::kernels::copy(100'000'000));
  write_kernel(out, hml::kernels::copy(100'000'000, hml::store_kind::non_temporal));
  write(out, {"\n2D 5-point stencil, half of the 32 KiB L1 for its rows (32N - 16 B):\n"});
  for (const std::int64_t n : {512, 513}) {
    const hml::loop_kernel k = hml::kernels::stencil2d5(4000, n);
    const hml::cache_traffic t = hml::cache_traffic_of(k, my_machine, hml::traffic_options_of(my_machine));
    write(out, {"  N = ", example_text::number(static_cast<double>(n), hml::general(4)).view(), ": L1 layer condition ",
                t.levels[0].layer_condition ? "holds" : "fails", "; lines of a loaded per CL: ",
                example_text::number(static_cast<double>(t.levels[0].loads), hml::general(3)).view(), "\n"});
    write_ecm(out, hml::ecm(k, my_machine));
  }
  write(out, {"\nkerncraft's test_2d5pt_ECM (N = 2000, M = 1000) on ", hml::cpus::sandy_bridge_ep_e5_2680.name,
              ", in-core {26 || 20} from IACA:\n"});
  write_ecm(out, hml::ecm(hml::kernels::stencil2d5(1000, 2000), hml::cpus::sandy_bridge_ep_e5_2680,
                          {26 * hml::cycle, 20 * hml::cycle}));
  write(out, {"  (kerncraft expects L1-L2 10, L2-L3 6, L3-MEM 13 +- 0.5)\n"});
}

constexpr auto report() {
  hml::fixed_text<4096> text;
  write_report(text);
  return text;
}

}  // namespace ecm_triad
