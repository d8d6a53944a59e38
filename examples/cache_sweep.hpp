// Seed 000's cache sweep: a two-tier memory (500 Gbit/s fast, 10 Gbit/s slow, 50 ns) serving 10 MB
// (decimal here: 10,000,000 B) to a 1 FLOP/B kernel on a 10 GFLOP/s core; the hit rate varies.
#pragma once
#include <string_view>

#include "example_text.hpp"

import hml;

namespace cache_sweep {

using namespace hml::literals;

struct scenario {
  std::string_view title;
  double hit_rate;
};

inline constexpr hml::data_size problem_size = 10_MB;
inline constexpr hml::arithmetic_intensity ops_per_byte = 1.0 * hml::flop_per_byte;
inline constexpr hml::compute_core core{10_GFLOPS};

inline constexpr scenario scenarios[] = {
    {"Poor locality", 0.10},
    {"Moderate locality", 0.50},
    {"Good locality", 0.95},
};

constexpr hml::two_tier_memory memory_for(const scenario& s) {
  return {.latency = 50_ns, .fast = 500_Gbps, .slow = 10_Gbps, .hit_rate = s.hit_rate};
}

constexpr hml::time_breakdown run(const scenario& s) {
  return hml::run(hml::streaming(problem_size, ops_per_byte), memory_for(s), core);
}

template <class Sink>
constexpr void write_report(Sink& out) {
  example_text::write_blocks(out, scenarios, [&out](const scenario& s) {
    hml::write_cache_block(out, s.title, memory_for(s), run(s));
  });
}

constexpr auto report() {
  hml::fixed_text<2048> text;
  write_report(text);
  return text;
}

}  // namespace cache_sweep
