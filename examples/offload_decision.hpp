// "Is it worth offloading a 1 GiB-per-vector vector add to an H100 whose data sits in host memory behind
// PCIe 5.0 x16, against a CPU with 200 GB/s?" The host is that CPU (200 GB/s; 2 TFLOP/s FP32, an assumed
// figure that does not matter here: the kernel is memory-bound on it); the device is the catalog's H100
// PCIe; the link is the catalog's PCIe 5.0 x16 (63.0 GB/s per direction). tests/compile_time/
// tiers_and_offload.cpp derives every figure by hand.
#pragma once
#include <cstdint>

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

}  // namespace offload_decision
