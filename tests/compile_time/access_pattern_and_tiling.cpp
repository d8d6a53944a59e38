// The access-pattern and tiling examples: their key lines and the model facts behind them.
#include "access_pattern.hpp"
#include "tiling.hpp"

namespace {

using hml::line;
using namespace hml::literals;

// Random 8-byte elements pull whole 64-byte lines: 8x the traffic.
static_assert(hml::traffic(10_MiB, hml::random_access(8_B, 64_B)) == 80_MiB);
// Elements larger than a line still move whole lines: 96-byte elements touch two 64-byte lines.
static_assert(hml::traffic(96_B, hml::random_access(96_B, 64_B)) == 128_B);
// One request in flight: one 64-byte line per 50 ns latency, 1.28 GB/s, whatever the bandwidth.
static_assert(hml::sustained_bandwidth(access_pattern::memory, hml::random_access(8_B, 64_B, 1)) == 1.28_GBps);
// Enough requests in flight hide the latency: the bandwidth binds again.
static_assert(hml::sustained_bandwidth(access_pattern::memory, hml::random_access(8_B, 64_B, 16)) == 100_Gbps);

constexpr auto patterns = access_pattern::report();
static_assert(line(patterns, 0) == "=== Sequential ===");
static_assert(line(patterns, 7) == "Regime: compute-bound");
static_assert(line(patterns, 11) == "Traffic: 80 MiB");
static_assert(line(patterns, 12) == "Sustained bandwidth: 1.28 GB/s");
static_assert(line(patterns, 13) == "Memory time: 6.554e-02 s");
static_assert(line(patterns, 16) == "Regime: memory-bound");
static_assert(line(patterns, 25) == "Regime: memory-bound");
static_assert(line(patterns, 34) == "Regime: compute-bound");

// Tiling: the intensity grows with the tile and the regime flips once, between 64 and 128, at the ridge.
constexpr double ridge = hml::in(5.3_TFLOPS / 205_GBps, hml::flop_per_byte);
static_assert(ridge > 25.8 && ridge < 25.9);
static_assert(tiling::run(64).limit == hml::regime::memory_bound);
static_assert(tiling::run(128).limit == hml::regime::compute_bound);
static_assert(hml::tile_footprint<float>(128) == 192_KiB);
static_assert(hml::largest_tile<float>(4096, 192_KiB) == 128);
static_assert(hml::largest_tile<float>(4096, 191_KiB) == 64);
// Ideal caching is the limit of tiling: one tile of the whole matrix moves A and B once and C twice
// (read and written), where the ideal count writes C only.
static_assert(hml::tiled_matmul<float>(4096, 4096).bytes == hml::matmul<float>(4096).bytes + 4096 * 4096 * 4_B);

constexpr auto tiles = tiling::report();
static_assert(line(tiles, 2) == "  tile   footprint     traffic     intensity      time  regime");
static_assert(line(tiles, 9) == "    64      48 KiB    8.12 GiB   15.8 FLOP/B   42.6 ms  memory-bound");
static_assert(line(tiles, 10) == "   128     192 KiB    4.12 GiB     31 FLOP/B   25.9 ms  compute-bound");
static_assert(line(tiles, 13) == "largest tile that fits in 192 KiB: 128");

}  // namespace
