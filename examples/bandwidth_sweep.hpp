// Seed 000/001's bandwidth sweep: a streaming kernel over 10 MiB with 50 ns of base latency, on a
// 10 GFLOP/s core; bandwidth and arithmetic intensity vary. Shared by the example and its compile-time test.
#pragma once
#include <string_view>

#include "example_text.hpp"

import hml;

namespace bandwidth_sweep {

using namespace hml::literals;

struct scenario {
  std::string_view title;
  hml::data_rate bandwidth;
  hml::arithmetic_intensity ops_per_byte;
};

// The seed labels this "10 MB", but its numbers are those of 10 MiB = 10,485,760 B.
inline constexpr hml::data_size problem_size = 10_MiB;
inline constexpr hml::duration base_latency = 50_ns;
inline constexpr hml::compute_core core{10_GFLOPS};

// The first two are the seed's; the seed elides the last two ("..."): at 10 Gbit/s memory takes 8.4 ms,
// so 0.5 FLOP/B (0.5 ms of compute) is memory-bound and 16 FLOP/B (16.8 ms) compute-bound.
inline constexpr scenario scenarios[] = {
    {"Low bandwidth", 1_Gbps, 1.0 * hml::flop_per_byte},
    {"High bandwidth", 100_Gbps, 1.0 * hml::flop_per_byte},
    {"Low arithmetic intensity", 10_Gbps, 0.5 * hml::flop_per_byte},
    {"High arithmetic intensity", 10_Gbps, 16.0 * hml::flop_per_byte},
};

// The seed model at any bandwidth and intensity: what the scenarios run, and what sweeps over them run.
constexpr hml::time_breakdown model(hml::data_rate bandwidth, hml::arithmetic_intensity ops_per_byte) {
  return hml::run(hml::streaming(problem_size, ops_per_byte), hml::memory{base_latency, bandwidth}, core);
}

constexpr hml::time_breakdown run(const scenario& s) { return model(s.bandwidth, s.ops_per_byte); }

// Memory takes longer than compute: memory-bound, or the memory side of balanced.
constexpr bool memory_dominates(const hml::time_breakdown& t) { return t.memory_time > t.compute_time; }

template <class Sink>
constexpr void write_report(Sink& out) {
  example_text::write_blocks(out, scenarios, [&out](const scenario& s) {
    hml::write_bandwidth_block(out, s.title, problem_size, s.bandwidth, s.ops_per_byte, run(s));
  });
}

constexpr auto report() {
  hml::fixed_text<2048> text;
  write_report(text);
  return text;
}

}  // namespace bandwidth_sweep
