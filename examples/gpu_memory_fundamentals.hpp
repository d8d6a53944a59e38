// Seed 003, the tinygrad tutorial "GPU memory fundamentals", worked with types: bandwidth from the memory
// interface, vector add and matmul on the tutorial's Apple M1 Pro figures, the n/6 intensity table and the
// two measured kernels. Shared by the example and its compile-time test.
#pragma once
#include <array>
#include <cstdint>

#include "example_text.hpp"

namespace gpu_memory_fundamentals {

using namespace hml::literals;
using example_text::in_ms;
using example_text::in_us;
using example_text::number;
using example_text::percent;
using example_text::write;

// The tutorial's M1 Pro: 205 GB/s (its rounding of 204.8) and 5.3 TFLOP/s (Apple states 200 and 5.2;
// see hml::devices::m1_pro).
inline constexpr hml::roof tutorial_gpu{205_GBps, 5.3_TFLOPS};
inline constexpr hml::memory_interface m1_pro_interface = hml::main_memory(hml::devices::m1_pro).interface;

inline constexpr hml::kernel small_add = hml::vector_add<float>(1'000'000);
inline constexpr hml::kernel big_matmul = hml::matmul<float>(4096);
inline constexpr std::array<std::uint64_t, 4> matmul_sizes{64, 256, 1024, 4096};

// tinygrad's hardware timestamps (averaged over 10 runs) on the M1 Pro.
inline constexpr hml::kernel measured_add = hml::vector_add<float>(10'000'000);
inline constexpr hml::duration measured_add_time = 660.713_us;
inline constexpr hml::kernel measured_matmul = hml::matmul<float>(2048);
inline constexpr hml::duration measured_matmul_time = 5067.829_us;

constexpr hml::duration memory_time(const hml::kernel& k) { return hml::time_to_move(k.bytes, tutorial_gpu.bandwidth); }
constexpr hml::duration compute_time(const hml::kernel& k) { return k.flops / tutorial_gpu.peak; }

// The tutorial writes 192 MiB as "192 MB" and divides 192e6 B: MiB / MB = 1.048576.
inline constexpr hml::data_size tutorial_matmul_bytes = 192_MB;
inline constexpr double mib_per_mb = 1_MiB / 1_MB;
// ... and 2 x 4096^3 FLOP as "137 GFLOP".
inline constexpr hml::work tutorial_matmul_flops = 137_GFLOP;

constexpr auto text(hml::data_size s) { return hml::to_text(s, {hml::general(4)}); }
constexpr auto text(hml::data_rate r) { return hml::to_text(r, {hml::general(6)}); }
constexpr auto text(hml::compute_rate r) { return hml::to_text(r, {hml::general(3)}); }
constexpr auto text(hml::work w) { return hml::to_text(w, {hml::general(4)}); }
constexpr auto text(hml::arithmetic_intensity ai) { return hml::to_text(ai, {hml::general(3)}); }
constexpr auto bits(hml::data_rate r) {
  return hml::to_text(r, {.number = hml::general(6), .information = hml::information_unit::bits});
}

template <class Sink>
constexpr void write_bandwidth(Sink& out) {
  const hml::data_rate pin = m1_pro_interface.pin_rate.value;
  const hml::data_rate tutorial_pin = tutorial_gpu.bandwidth / m1_pro_interface.bus_bits;
  write(out, {"== Bandwidth from the memory interface (Apple M1 Pro, LPDDR5-6400) ==\n",
              "Pin rate x bus width: ", bits(pin), " x ", number(m1_pro_interface.bus_bits, hml::general(6)),
              " bit = ", bits(hml::interface_bandwidth(m1_pro_interface)), " = ",
              text(hml::interface_bandwidth(m1_pro_interface)), "\n",
              "The tutorial rounds this to ", text(tutorial_gpu.bandwidth), " (", bits(tutorial_pin),
              " per pin); Apple states ", text(hml::main_memory(hml::devices::m1_pro).bandwidth.value), ".\n"});
}

template <class Sink>
constexpr void write_vector_add(Sink& out) {
  const hml::kernel& k = small_add;
  write(out, {"\n== Vector add, 1M float32, on ", text(tutorial_gpu.bandwidth), " and ", text(tutorial_gpu.peak),
              " ==\n", "Data: ", text(k.bytes), ", work: ", text(k.flops), ", intensity: ", text(hml::intensity(k)),
              "\n", "Memory time: ", in_us(memory_time(k)), "\n", "Compute time: ", in_us(compute_time(k)), "\n",
              "Memory / compute: ", number(memory_time(k) / compute_time(k), hml::general(3)), " (",
              hml::to_string(hml::analyze(k, tutorial_gpu).bound), ")\n"});
}

template <class Sink>
constexpr void write_matmul(Sink& out) {
  const hml::kernel& k = big_matmul;
  const hml::duration tutorial_memory_time = hml::time_to_move(tutorial_matmul_bytes, tutorial_gpu.bandwidth);
  write(out, {"\n== Matmul 4096 float32, ideal cache ==\n", "Data: ", text(k.bytes), " = ", number(k.bytes.value(), hml::fixed(0)), " B\n",
              "Memory time: ", in_ms(memory_time(k)), "\n",
              "The tutorial's 0.936 ms is ", text(tutorial_matmul_bytes), " / ", text(tutorial_gpu.bandwidth), " = ",
              in_ms(tutorial_memory_time, hml::general(4)), ": 192 MiB read as 192 MB, ",
              percent((1 - 1 / mib_per_mb) * 100), " too few bytes\n",
              "Work: ", number(k.flops.value(), hml::fixed(0)), " FLOP = ", text(k.flops), "\n",
              "Compute time: ", in_ms(compute_time(k), hml::general(4)), " (the tutorial's ",
              in_ms(tutorial_matmul_flops / tutorial_gpu.peak, hml::general(4)), " is for ",
              text(tutorial_matmul_flops), ")\n",
              "Compute / memory: ", number(compute_time(k) / memory_time(k), hml::general(3)),
              " (the tutorial: about 27x; ", hml::to_string(hml::analyze(k, tutorial_gpu).bound), ")\n"});
}

template <class Sink>
constexpr void write_intensity_table(Sink& out) {
  write(out, {"\n== Arithmetic intensity of n x n matmul, ideal cache: 2n^3 / 12n^2 = n/6 ==\n"});
  for (std::uint64_t n : matmul_sizes) {
    write(out, {"n = ", number(static_cast<double>(n), hml::general(6)), ": ",
                number(in(hml::intensity(hml::matmul<float>(n)), hml::flop_per_byte), hml::fixed(1)), " FLOP/B\n"});
  }
}

template <class Sink>
constexpr void write_measured(Sink& out, std::string_view title, const hml::kernel& k, hml::duration t) {
  const hml::measured_point m = hml::analyze_measured(k, t, tutorial_gpu);
  write(out, {title, ": ", hml::to_text(k.bytes, {hml::general(3), hml::prefix_system::decimal}), ", ", text(k.flops),
              ", ",
              number(in(m.intensity, hml::flop_per_byte), m.intensity < 1 * hml::flop_per_byte ? hml::fixed(4) : hml::fixed(1)),
              " FLOP/B, ",
              in_us(t, hml::fixed(3)), "\n"});
  write(out, {"  achieved ", hml::to_text(m.achieved_bandwidth, {m.achieved_bandwidth < 100_GBps ? hml::general(3) : hml::general(4)}), " (",
              percent(m.percent_of_bandwidth), " of ", text(tutorial_gpu.bandwidth), "), ",
              text(m.achieved_compute), " (",
              percent(m.percent_of_peak_compute, m.percent_of_peak_compute < 1 ? hml::fixed(2) : hml::fixed(1)),
              " of ", text(tutorial_gpu.peak), ")\n"});
  write(out, {"  ", hml::to_string(m.bound), ": the roofline allows ", text(m.attainable), ", ",
              number(m.gap, hml::fixed(2)), "x the achieved rate\n"});
}

template <class Sink>
constexpr void write_report(Sink& out) {
  write_bandwidth(out);
  write_vector_add(out);
  write_matmul(out);
  write_intensity_table(out);
  write(out, {"\n== Measured on the M1 Pro (tinygrad), against ", text(tutorial_gpu.bandwidth), " and ",
              text(tutorial_gpu.peak), " ==\n"});
  write_measured(out, "Vector add, 10M float32", measured_add, measured_add_time);
  write_measured(out, "Matmul 2048 float32", measured_matmul, measured_matmul_time);
  write(out, {"  (bandwidth counts unique bytes: the log's \"10|429 GB/s\" is unique vs all loads)\n"});
}

constexpr auto report() {
  hml::fixed_text<4096> text;
  write_report(text);
  return text;
}

}  // namespace gpu_memory_fundamentals
