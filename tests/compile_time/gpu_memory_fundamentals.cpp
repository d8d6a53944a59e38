// Seed 003 (tinygrad's GPU memory tutorial): every documented figure, as computed and as printed.
#include <string_view>

#include "gpu_memory_fundamentals.hpp"

namespace {

using hml::line;
using namespace hml::literals;
namespace g = gpu_memory_fundamentals;

constexpr auto text = g::report();

// Bandwidth from the interface: 6.4 Gbit/s x 256 bit = 204.8 GB/s; 205 GB/s back-computes 6.40625 Gbit/s.
static_assert(hml::interface_bandwidth(g::m1_pro_interface) == 204.8_GBps);
static_assert(205_GBps / 256 == 6.40625_Gbps);
static_assert(line(text, 1) == "Pin rate x bus width: 6.4 Gbit/s x 256 bit = 1.6384 Tbit/s = 204.8 GB/s");
static_assert(line(text, 2) == "The tutorial rounds this to 205 GB/s (6.40625 Gbit/s per pin); Apple states 200 GB/s.");

// Vector add, 1M float32: 12 MB, 1 MFLOP, 58.5 us vs 0.189 us (the tutorial truncates to 0.188), ratio 310.
static_assert(g::small_add.bytes == 12_MB && g::small_add.flops == 1_MFLOP);
static_assert(line(text, 5) == "Data: 12 MB, work: 1 MFLOP, intensity: 0.0833 FLOP/B");
static_assert(line(text, 6) == "Memory time: 58.5 us");
static_assert(line(text, 7) == "Compute time: 0.189 us");
static_assert(line(text, 8) == "Memory / compute: 310 (memory-bound)");

// Matmul 4096: 192 MiB = 201,326,592 B -> 0.982 ms; the tutorial's 0.936 ms is 192e6 B, 4.6 % short.
static_assert(g::big_matmul.bytes == 192_MiB && g::big_matmul.bytes == 201'326'592_B);
static_assert(g::mib_per_mb == 1.048576);
static_assert(line(text, 11) == "Data: 192 MiB = 201326592 B");
static_assert(line(text, 12) == "Memory time: 0.982 ms");
static_assert(hml::format_number(in(192_MB / 205_GBps, hml::millisecond), hml::fixed(3)) == "0.937");
static_assert(line(text, 13) ==
              "The tutorial's 0.936 ms is 192 MB / 205 GB/s = 0.9366 ms: 192 MiB read as 192 MB, 4.6 % too few bytes");
// 2 x 4096^3 = 137,438,953,472 FLOP -> 25.93 ms; "137 billion" gives the tutorial's 25.85 ms; ratio 26.4.
static_assert(g::big_matmul.flops == 137'438'953'472_FLOP);
static_assert(line(text, 14) == "Work: 137438953472 FLOP = 137.4 GFLOP");
static_assert(line(text, 15) == "Compute time: 25.93 ms (the tutorial's 25.85 ms is for 137 GFLOP)");
static_assert(line(text, 16) == "Compute / memory: 26.4 (the tutorial: about 27x; compute-bound)");

// n/6 intensity table.
static_assert(hml::intensity(hml::matmul<float>(4096)) == (4096.0 / 6) * hml::flop_per_byte);
static_assert(line(text, 19) == "n = 64: 10.7 FLOP/B");
static_assert(line(text, 20) == "n = 256: 42.7 FLOP/B");
static_assert(line(text, 21) == "n = 1024: 170.7 FLOP/B");
static_assert(line(text, 22) == "n = 4096: 682.7 FLOP/B");

// Measured vector add, 10M: 120e6 B, 10 MFLOP, 660.713 us -> 181.6 GB/s (88.6 %), 15.1 GFLOP/s (0.29 %).
constexpr hml::measured_point add = hml::analyze_measured(g::measured_add, g::measured_add_time, g::tutorial_gpu);
static_assert(g::measured_add.bytes == 120e6 * hml::byte && g::measured_add.flops == 10_MFLOP);
static_assert(hml::format_number(in(add.achieved_bandwidth, hml::giga(hml::byte_per_second)), hml::fixed(1)) == "181.6");
static_assert(hml::format_number(add.percent_of_bandwidth, hml::fixed(1)) == "88.6");
static_assert(hml::format_number(in(add.achieved_compute, hml::giga(hml::flop_per_second)), hml::fixed(1)) == "15.1");
static_assert(hml::format_number(add.percent_of_peak_compute, hml::fixed(2)) == "0.29");
static_assert(add.bound == hml::regime::memory_bound);
static_assert(line(text, 25) == "Vector add, 10M float32: 120 MB, 10 MFLOP, 0.0833 FLOP/B, 660.713 us");
static_assert(line(text, 26) == "  achieved 181.6 GB/s (88.6 % of 205 GB/s), 15.1 GFLOP/s (0.29 % of 5.3 TFLOP/s)");
static_assert(line(text, 27) == "  memory-bound: the roofline allows 17.1 GFLOP/s, 1.13x the achieved rate");

// Measured matmul 2048: 50,331,648 B, 17,179,869,184 FLOP, 341.3 FLOP/B, 5067.829 us -> 3.39 TFLOP/s (64.0 %),
// 9.93 GB/s of unique bytes.
constexpr hml::measured_point mm = hml::analyze_measured(g::measured_matmul, g::measured_matmul_time, g::tutorial_gpu);
static_assert(g::measured_matmul.bytes == 50'331'648_B && g::measured_matmul.flops == 17'179'869'184_FLOP);
static_assert(hml::format_number(in(mm.intensity, hml::flop_per_byte), hml::fixed(1)) == "341.3");
static_assert(hml::format_number(in(mm.achieved_compute, hml::tera(hml::flop_per_second)), hml::fixed(2)) == "3.39");
static_assert(hml::format_number(mm.percent_of_peak_compute, hml::fixed(1)) == "64.0");
static_assert(hml::format_number(in(mm.achieved_bandwidth, hml::giga(hml::byte_per_second)), hml::fixed(2)) == "9.93");
static_assert(mm.bound == hml::regime::compute_bound && mm.attainable == 5.3_TFLOPS);
static_assert(line(text, 28) == "Matmul 2048 float32: 50.3 MB, 17.18 GFLOP, 341.3 FLOP/B, 5067.829 us");
static_assert(line(text, 29) == "  achieved 9.93 GB/s (4.8 % of 205 GB/s), 3.39 TFLOP/s (64.0 % of 5.3 TFLOP/s)");
static_assert(line(text, 30) == "  compute-bound: the roofline allows 5.3 TFLOP/s, 1.56x the achieved rate");
static_assert(line(text, 32).empty() && !line(text, 31).empty());

}  // namespace
