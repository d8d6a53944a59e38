// Seed 004 (profile_kernel.py, a CUDA normalization kernel): its four configurations on catalog GPUs.
// For each: bytes, FLOP, intensity, the roofline's predicted time and attainable rate, and two verdicts:
// the roofline's (intensity against the device's ridge point) and the seed's rule "AI < 10 => memory bound",
// which ignores the device. The normalization kernels sit far below every ridge, so both agree on them;
// two extra kernels, labelled as such, fall between a ridge and 10 FLOP/B and show where the rule errs.
#pragma once
#include <array>

#include "example_text.hpp"

namespace kernel_profile {

using namespace hml::literals;
using example_text::number;
using example_text::write;

inline constexpr std::array<const hml::device*, 3> devices{&hml::devices::h100_sxm, &hml::devices::a100_sxm_80gb,
                                                           &hml::devices::rtx_4090};

inline constexpr std::array<hml::kernel, 4> seed_configs{
    hml::normalization<float>(1024, 128), hml::normalization<float>(4096, 256),
    hml::normalization<float>(8192, 512), hml::normalization<float>(16384, 1024)};
inline constexpr std::array<std::string_view, 4> seed_labels{"1024x128", "4096x256", "8192x512", "16384x1024"};

// Not in seed 004: small float32 matmuls with ideal caching, intensity n/6 just above and below 10.
inline constexpr std::array<hml::kernel, 2> extra_kernels{hml::matmul<float>(64), hml::matmul<float>(58)};
inline constexpr std::array<std::string_view, 2> extra_labels{"64x64 (extra, not in the profiling script)",
                                                              "58x58 (extra, not in the profiling script)"};

// Seed 004: `if arithmetic_intensity < 10: MEMORY BOUND else: COMPUTE BOUND`, on every GPU.
inline constexpr hml::arithmetic_intensity seed_threshold = 10 * hml::flop_per_byte;
constexpr hml::regime seed_rule(hml::arithmetic_intensity ai) {
  return ai < seed_threshold ? hml::regime::memory_bound : hml::regime::compute_bound;
}

constexpr bool disagrees(const hml::kernel& k, const hml::device& d) {
  return hml::analyze(k, d, hml::precision::fp32).bound != seed_rule(hml::intensity(k));
}

constexpr auto text(hml::arithmetic_intensity ai) { return hml::to_text(ai, {hml::fixed(2)}); }

template <class Sink>
constexpr void write_kernel(Sink& out, const hml::kernel& k, std::string_view label) {
  write(out, {"\n", k.name, " ", label, ": ", hml::to_text(k.bytes, {hml::general(3), hml::prefix_system::decimal}),
              ", ", hml::to_text(k.flops), ", ", text(hml::intensity(k)), "\n"});
  for (const hml::device* d : devices) {
    const hml::roofline_point p = hml::analyze(k, *d, hml::precision::fp32);
    write(out, {"  ", d->name, ": ", hml::to_text(p.estimated_time), " at ", hml::to_text(p.attainable),
                "; roofline: ", hml::to_string(p.bound), ", the script's rule: ", hml::to_string(seed_rule(p.intensity)),
                disagrees(k, *d) ? "  <- disagree" : "", "\n"});
  }
}

template <class Sink>
constexpr void write_report(Sink& out) {
  write(out, {"The profiling script's normalization kernel (6L + 1 FLOP per packet of L float32, read once, written once)\n",
              "Roofline verdict: compute-bound when intensity >= the device's ridge point (FP32)\n",
              "The script's rule: compute-bound when intensity >= 10 FLOP/B, whatever the device\n"});
  for (const hml::device* d : devices) {
    const hml::roof r = hml::roof_of(*d, hml::precision::fp32);
    write(out, {"  ", d->name, ": ", hml::to_text(r.bandwidth, {hml::general(4)}), ", ", hml::to_text(r.peak), ", ridge ",
                text(hml::ridge_point(r)), "\n"});
  }
  for (std::size_t i = 0; i < seed_configs.size(); ++i) write_kernel(out, seed_configs[i], seed_labels[i]);
  for (std::size_t i = 0; i < extra_kernels.size(); ++i) write_kernel(out, extra_kernels[i], extra_labels[i]);
}

constexpr auto report() {
  hml::fixed_text<4096> text;
  write_report(text);
  return text;
}

}  // namespace kernel_profile
