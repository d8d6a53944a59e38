// A 4096 x 4096 float32 matmul, blocked into tiles held in fast memory, on a GPU like the tutorial's
// (205 GB/s, 5.3 TFLOP/s, so a ridge at 25.9 FLOP/B). Larger tiles reuse each loaded byte more: the
// intensity grows about as tile / 4 FLOP/B and the kernel turns compute-bound once it passes the ridge.
// The fast memory (192 KiB here) caps the tile: three tiles (A, B, C) must fit.
#pragma once
#include <cstdint>
#include <string_view>

import hml;

namespace tiling {

using namespace hml::literals;

inline constexpr std::uint64_t n = 4096;
inline constexpr hml::memory memory{.latency = 0_s, .bandwidth = 205_GBps};
inline constexpr hml::compute_core core{5.3_TFLOPS};
inline constexpr hml::data_size fast_memory = 192_KiB;
inline constexpr hml::time_options roofline_overlap{.overlap_policy = hml::overlap::full};
inline constexpr std::uint64_t tiles[] = {1, 2, 4, 8, 16, 32, 64, 128, 256};

constexpr hml::time_breakdown run(std::uint64_t tile) {
  return hml::run(hml::tiled_matmul<float>(n, tile), memory, core, roofline_overlap);
}

template <class Sink>
constexpr void write_report(Sink& out) {
  const auto put = [&out](std::string_view text) {
    for (char c : text) out.push_back(c);
  };
  // Right-aligns `text` in a column of `width` characters.
  const auto column = [&](const auto& text, std::size_t width) {
    for (std::size_t i = text.size(); i < width; ++i) out.push_back(' ');
    put(text);
  };
  put("matmul 4096 x 4096 float32 on 205 GB/s and 5.3 TFLOP/s, fast memory ");
  hml::format_to(out, fast_memory);
  put("\n\n");
  column(std::string_view{"tile"}, 6);
  column(std::string_view{"footprint"}, 12);
  column(std::string_view{"traffic"}, 12);
  column(std::string_view{"intensity"}, 14);
  column(std::string_view{"time"}, 10);
  put("  regime\n");
  for (const std::uint64_t tile : tiles) {
    const hml::kernel k = hml::tiled_matmul<float>(n, tile);
    const hml::time_breakdown result = run(tile);
    column(hml::format_number(static_cast<double>(tile), hml::fixed(0)), 6);
    column(hml::to_text(hml::tile_footprint<float>(tile)), 12);
    column(hml::to_text(k.bytes), 12);
    column(hml::to_text(hml::intensity(k)), 14);
    column(hml::to_text(result.total), 10);
    put("  ");
    put(hml::to_string(result.limit));
    if (hml::tile_footprint<float>(tile) > fast_memory) put(" (does not fit)");
    put("\n");
  }
  put("\nlargest tile that fits in ");
  hml::format_to(out, fast_memory);
  put(": ");
  hml::format_number_to(out, static_cast<double>(hml::largest_tile<float>(n, fast_memory)), hml::fixed(0));
  put("\n");
}

constexpr auto report() {
  hml::fixed_text<2048> text;
  write_report(text);
  return text;
}

}  // namespace tiling
