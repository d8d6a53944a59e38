// "A Xeon Max has 64 GiB of HBM (about 1.6 TB/s) and 512 GiB of DDR5 (about 307 GB/s): what bandwidth does
// a 200 GiB working set see, whose hot 30 % fits in HBM, in cache mode, in flat mode, interleaved?" The
// tiers come from the catalog's Xeon Max 9480 (both peaks derived from channels x width x rate). The skew
// is this scenario's choice: the hot 30 % of the bytes takes 90 % of the accesses. Flat mode fills the HBM
// (64 of the 200 GiB) without knowing which bytes are hot. tests/compile_time/tiers_and_offload.cpp
// derives every figure by hand.
#pragma once
#include <cstddef>
#include <string_view>

import hml;

namespace tiered_memory {

using namespace hml::literals;

inline constexpr hml::tiered_memory xeon_max = hml::tiers_of(hml::systems::xeon_max_9480);
inline constexpr hml::working_set working_set{.footprint = 200_GiB, .skew = {.hot_bytes = 0.3, .hot_accesses = 0.9}};

inline constexpr hml::placement cache = hml::cache_mode(xeon_max, working_set);
inline constexpr hml::placement flat = hml::flat(xeon_max, working_set, hml::fill_in_order_shares(xeon_max, working_set));
inline constexpr bool interleave_fits = hml::interleave_fits(xeon_max, working_set);
inline constexpr hml::placement best = hml::best_placement(xeon_max, working_set);
inline constexpr hml::placement best_sequential =
    hml::best_placement({xeon_max.tiers, hml::serving::sequential}, working_set);
// Interleave on a working set that fits it: 64 GiB, 84 % of it (53.9 GiB) in HBM.
inline constexpr hml::working_set small_set{.footprint = 64_GiB};
inline constexpr hml::placement interleave_small = hml::weighted_interleave(xeon_max, small_set);

template <class Sink>
constexpr void write_report(Sink& out) {
  const auto put = [&out](std::string_view text) {
    for (char c : text) out.push_back(c);
  };
  const auto column = [&](std::string_view text, std::size_t width) {
    put(text);
    for (std::size_t i = text.size(); i < width; ++i) out.push_back(' ');
  };
  const auto percent = [&](double share) {
    put(hml::format_number(100.0 * share, hml::fixed(1)).view());
    put(" %");
  };
  const auto row = [&](std::string_view name, const hml::placement& p) {
    column(name, 26);
    column(hml::to_text(p.bandwidth).view(), 14);
    column(hml::to_text(p.time).view(), 12);
    percent(p.tiers[0].bytes);
    put(" of the bytes, ");
    percent(p.tiers[0].traffic);
    put(" of the traffic in HBM\n");
  };
  put(hml::systems::xeon_max_9480.name);
  put("\n");
  for (const hml::tier& t : xeon_max.tiers) {
    put("  ");
    column(t.name, 11);
    column(hml::to_text(t.capacity).view(), 12);
    put(hml::to_text(t.read).view());
    put("\n");
  }
  put("working set 200 GiB, the hot 30 % of it taking 90 % of the accesses\n\n");
  column("policy", 26);
  column("bandwidth", 14);
  column("one pass", 12);
  put("placement\n");
  row("cache (ideal, with fill)", cache);
  row("flat, HBM full", flat);
  column("weighted interleave", 26);
  if (interleave_fits) {
    put("fits\n");
  } else {
    put("does not fit: ");
    percent(hml::interleave_shares(xeon_max)[0]);
    put(" of the bytes would go to HBM\n");
  }
  row("best, concurrent tiers", best);
  row("best, sequential tiers", best_sequential);
  put("\nweighted interleave of a 64 GiB working set: ");
  put(hml::to_text(interleave_small.bandwidth).view());
  put("\n");
}

constexpr auto report() {
  hml::fixed_text<4096> text;
  write_report(text);
  return text;
}

}  // namespace tiered_memory
