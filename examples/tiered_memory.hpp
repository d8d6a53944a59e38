// "A Xeon Max has 64 GiB of HBM (about 1.6 TB/s) and 512 GiB of DDR5 (about 307 GB/s): what bandwidth does
// a 200 GiB working set see, whose hot 30 % fits in HBM, in cache mode, in flat mode, interleaved?" The
// tiers come from the catalog's Xeon Max 9480 (both peaks derived from channels x width x rate). The skew
// is this scenario's choice: the hot 30 % of the bytes takes 90 % of the accesses. Flat mode fills the HBM
// (64 of the 200 GiB) without knowing which bytes are hot. tests/compile_time/tiers_and_offload.cpp
// derives every figure by hand.
#pragma once

import hml;

namespace tiered_memory {

using namespace hml::literals;

inline constexpr hml::tiered_memory xeon_max = hml::systems::tiers_of(hml::systems::xeon_max_9480);
inline constexpr hml::working_set working_set{.footprint = 200_GiB, .skew = {.hot_bytes = 0.3, .hot_accesses = 0.9}};
inline constexpr double hbm_share = 64.0 / 200.0;

inline constexpr hml::placement cache = hml::cache_mode(xeon_max, working_set);
inline constexpr hml::placement flat = hml::flat(xeon_max, working_set, {hbm_share, 1.0 - hbm_share});
inline constexpr bool interleave_fits = hml::interleave_fits(xeon_max, working_set);
inline constexpr hml::placement best = hml::best_placement(xeon_max, working_set);
inline constexpr hml::placement best_sequential =
    hml::best_placement({xeon_max.tiers, hml::serving::sequential}, working_set);
// Interleave on a working set that fits it: 64 GiB, 84 % of it (53.9 GiB) in HBM.
inline constexpr hml::working_set small_set{.footprint = 64_GiB};
inline constexpr hml::placement interleave_small = hml::weighted_interleave(xeon_max, small_set);

}  // namespace tiered_memory
