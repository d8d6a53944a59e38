// Seed 002 (deep-ml "Roofline Model Analysis for GPU Operations"): roofline_analysis over a list of
// operations on one device, printed with the seed's field names and rounding (4 / 4 / 2 / 8 decimals).
// The device is the catalog's H100 SXM at FP32: 67 TFLOP/s, 3.35 TB/s, ridge 20 FLOP/B.
#pragma once
#include <array>

#include "example_text.hpp"

namespace roofline_analysis {

using namespace hml::literals;
using example_text::number;
using example_text::write;

inline constexpr const hml::device& device = hml::devices::h100_sxm;
inline constexpr hml::roof roof = hml::roof_of(device, hml::precision::fp32);

constexpr hml::kernel renamed(hml::kernel k, std::string_view name) {
  k.name = name;
  return k;
}

inline constexpr std::array<hml::kernel, 10> operations{
    renamed(hml::vector_add<float>(1 << 20), "vector add 1Mi fp32"),
    renamed(hml::copy<float>(1 << 20), "copy 1Mi fp32 (0 FLOP)"),
    renamed(hml::reduction<float>(1 << 20), "reduction 1Mi fp32"),
    renamed(hml::stencil<float>(4096, 2), "2D stencil 4096^2 fp32"),
    renamed(hml::normalization<float>(4096, 256), "normalization 4096x256"),
    renamed(hml::naive_matmul<float>(1024), "naive matmul 1024"),
    renamed(hml::tiled_matmul<float>(4096, 64), "tiled matmul 4096/64"),
    renamed(hml::tiled_matmul<float>(4096, 128), "tiled matmul 4096/128"),
    renamed(hml::matmul<float>(4096), "matmul 4096 (ideal)"),
    hml::kernel{"in registers (0 B)", 1_GFLOP, 0_B},
};

inline constexpr auto results = hml::analyze(operations, roof);

template <class Sink>
constexpr void write_report(Sink& out) {
  write(out, {"roofline_analysis on ", device.name, ", FP32: peak_compute ", hml::to_text(roof.peak),
              ", peak_bandwidth ", hml::to_text(roof.bandwidth), ", ridge point ",
              hml::to_text(hml::ridge_point(roof), {hml::fixed(1)}), "\n",
              "name | arithmetic_intensity | attainable_flops | bound | efficiency | estimated_time_s\n"});
  for (const hml::roofline_point& p : results) {
    write(out, {p.name, " | ", number(in(p.intensity, hml::flop_per_byte), hml::fixed(4)), " | ",
                number(in(p.attainable, hml::flop_per_second), hml::fixed(4)), " | ", hml::to_string(p.bound), " | ",
                number(p.efficiency_percent, hml::fixed(2)), " | ",
                number(in(p.estimated_time, hml::second), hml::fixed(8)), "\n"});
  }
}

constexpr auto report() {
  hml::fixed_text<2048> text;
  write_report(text);
  return text;
}

}  // namespace roofline_analysis
