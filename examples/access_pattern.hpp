// Sequential vs random access to the same 10 MiB: random access to small elements pulls whole 64-byte
// lines (8x the traffic for 8-byte elements), and unless enough requests are in flight, every line waits
// a full latency (Little's law). Shared by the example and its compile-time test.
#pragma once
#include <string_view>

#include "example_text.hpp"

import hml;

namespace access_pattern {

using namespace hml::literals;

struct scenario {
  std::string_view title;
  hml::access_pattern pattern;
};

inline constexpr hml::data_size useful_bytes = 10_MiB;
inline constexpr hml::memory memory{.latency = 50_ns, .bandwidth = 100_Gbps};
inline constexpr hml::compute_core core{10_GFLOPS};
inline constexpr hml::arithmetic_intensity ops_per_byte = 1.0 * hml::flop_per_byte;

inline constexpr scenario scenarios[] = {
    {"Sequential", hml::sequential_access},
    {"Random 8-byte elements, 1 request in flight", hml::random_access(8_B, 64_B, 1)},
    {"Random 8-byte elements, 16 requests in flight", hml::random_access(8_B, 64_B, 16)},
    {"Random 64-byte elements, 16 requests in flight", hml::random_access(64_B, 64_B, 16)},
};

constexpr hml::time_breakdown run(const scenario& s) {
  return hml::run(hml::streaming(useful_bytes, ops_per_byte, s.pattern), memory, core);
}

template <class Sink>
constexpr void write_report(Sink& out) {
  const auto put = [&out](std::string_view text) {
    for (char c : text) out.push_back(c);
  };
  example_text::write_blocks(out, scenarios, [&](const scenario& s) {
    const hml::time_breakdown result = run(s);
    put("=== ");
    put(s.title);
    put(" ===\nUseful bytes: ");
    hml::format_to(out, useful_bytes);
    put("\nTraffic: ");
    hml::format_to(out, hml::traffic(useful_bytes, s.pattern));
    put("\nSustained bandwidth: ");
    hml::format_to(out, hml::sustained_bandwidth(memory, s.pattern));
    put("\n");
    hml::write_time_lines(out, result, hml::scientific(3));
  });
}

constexpr auto report() {
  hml::fixed_text<2048> text;
  write_report(text);
  return text;
}

}  // namespace access_pattern
