// "Is it worth offloading a 1 GiB-per-vector vector add to an H100 whose data sits in host memory behind
// PCIe 5.0 x16, against a CPU with 200 GB/s?" The host is that CPU (200 GB/s; 2 TFLOP/s FP32, an assumed
// figure that does not matter here: the kernel is memory-bound on it); the device is the catalog's H100
// PCIe; the link is the catalog's PCIe 5.0 x16 (63.0 GB/s per direction). tests/compile_time/
// tiers_and_offload.cpp derives every figure by hand.
#pragma once
#include <array>
#include <cstdint>
#include <string_view>

import hml;

namespace offload_decision {

using namespace hml::literals;

inline constexpr std::uint64_t elements = (1ULL << 30) / sizeof(float);  // 1 GiB per vector
inline constexpr hml::kernel vector_add = hml::vector_add<float>(elements);
inline constexpr hml::offload_job job = hml::offload_of(vector_add, 2_GiB, 1_GiB);  // a and b in, c out

inline constexpr hml::machine_description host =
    hml::describe(hml::memory{.latency = 0_s, .bandwidth = 200_GBps}, hml::compute_core{2_TFLOPS}, hml::precision::fp32);
inline constexpr const hml::machine_description& device = hml::devices::h100_pcie;
inline constexpr hml::link pcie5 = hml::link_of(hml::systems::pcie5_x16);
inline constexpr hml::offload_options options{.chunks = 16};

inline constexpr hml::offload_plan plan = hml::plan_offload(job, host, device, pcie5, hml::precision::fp32, options);
inline constexpr hml::arithmetic_intensity break_even =
    hml::break_even_intensity(host, device, pcie5, hml::precision::fp32);

// The same job over other links of the catalog: the break-even intensity and the verdict for each.
inline constexpr std::array<const hml::link_description*, 5> links{&hml::systems::pcie4_x16, &hml::systems::pcie5_x16,
                                                                   &hml::systems::pcie6_x16, &hml::systems::nvlink4,
                                                                   &hml::systems::nvlink_c2c};

template <class Sink>
constexpr void write_report(Sink& out) {
  const auto put = [&out](std::string_view text) {
    for (char c : text) out.push_back(c);
  };
  const auto column = [&](std::string_view text, std::size_t width) {
    put(text);
    for (std::size_t i = text.size(); i < width; ++i) out.push_back(' ');
  };
  const auto row = [&](std::string_view name, hml::duration t) {
    column(name, 20);
    put(hml::to_text(t).view());
    put("\n");
  };
  put("vector add, 1 GiB per vector (float32): 2 GiB in, 1 GiB out\n");
  put("host:   200 GB/s, 2 TFLOP/s\n");
  put("device: ");
  put(device.name);
  put(" over PCIe 5.0 x16, ");
  put(hml::to_text(pcie5.bandwidth.rate).view());
  put(" per direction, ");
  put(hml::to_string(pcie5.mode));
  put("\n\n");
  row("on the host", plan.host);
  row("copy in", plan.copy_in);
  row("kernel on device", plan.device);
  row("copy out", plan.copy_out);
  row("serial", plan.serial);
  row("pipelined (16)", plan.pipelined);
  row("zero-copy", plan.zero_copy);
  put("\nverdict: ");
  put(plan.offload ? "offload" : "run on the host");
  put(" (fastest offload: ");
  put(plan.best);
  put(", speed-up ");
  put(hml::format_number(plan.speedup, hml::general(3)).view());
  put("x)\nserial offloading pays from ");
  put(hml::format_number(plan.break_even_runs, hml::general(3)).view());
  put(" runs on the transferred data, or from ");
  put(hml::to_text(break_even).view());
  put("\n\nthe same job over other links\n");
  column("link", 28);
  column("per direction", 16);
  column("best offload", 24);
  put("break-even intensity\n");
  for (const hml::link_description* l : links) {
    const hml::link over = hml::link_of(*l);
    const hml::offload_plan p = hml::plan_offload(job, host, device, over, hml::precision::fp32, options);
    column(l->name, 28);
    column(hml::to_text(over.bandwidth.rate).view(), 16);
    hml::fixed_text<64> best;
    for (char c : p.best) best.push_back(c);
    for (char c : std::string_view{" "}) best.push_back(c);
    const auto best_time = hml::to_text(p.best_time);
    for (char c : best_time.view()) best.push_back(c);
    column(best.view(), 24);
    put(hml::to_text(hml::break_even_intensity(host, device, over, hml::precision::fp32)).view());
    put("\n");
  }
}

constexpr auto report() {
  hml::fixed_text<4096> text;
  write_report(text);
  return text;
}

}  // namespace offload_decision
