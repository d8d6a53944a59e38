// hml.tiers — a tiered memory (HBM + DDR on a Xeon Max, HBM + LPDDR5X on a GH200, DRAM + CXL): tiers with
// a typed capacity, read and write bandwidth and latency, and where a working set's bytes go under each
// placement policy, with the bandwidth the working set then sees.
//
// Policies (V: the working set's traffic, s_i: the share of V that tier i serves, b_i: tier i's seconds per
// byte, (1 - w)/read_i + w/write_i for a write share w):
//   flat, explicit byte shares   the placement is blind to heat, so s_i is tier i's share of the bytes.
//                                Tiers on separate controllers serve at once: T = max_i(s_i V b_i); tiers
//                                that serve one after the other add: T = sum_i(s_i V b_i).
//   weighted interleave          flat with shares proportional to the tiers' bandwidths (the lower of read
//                                and write), as Linux's MPOL_WEIGHTED_INTERLEAVE sets its weights (100 vs
//                                50 GB/s: 2:1); with concurrent tiers it reaches the sum of the bandwidths.
//   cache                        the first tier caches the second (Xeon Max cache mode): a hit rate h given
//                                or, from the fast tier's capacity and the access skew, the share of traffic
//                                the hottest bytes that fit carry (an ideal cache: no conflict misses).
//                                Misses pay the slow tier plus the fill of the fast one:
//                                1/B = h/B_fast + (1 - h)(1/B_slow + 1/W_fast). Without the fill this is the
//                                seed's two-tier memory, and is computed by it (the same digits).
//   best placement               the hottest bytes first on the fast tier, as far as the capacities and the
//                                policy's optimum allow: concurrent tiers balance, s_fast = B_f/(B_f + B_s)
//                                when that much traffic fits, else the most that fits; sequential tiers put
//                                all they can on the fast tier.
// An access skew says that `hot_accesses` of the traffic goes to `hot_bytes` of the footprint, spread evenly
// within the hot and within the cold part (hot 30 % of the bytes taking 90 % of the accesses: {0.3, 0.9});
// the hot part takes at least its share (hot_accesses >= hot_bytes).
//
// A placement that does not fit its tiers' capacities is an error (a compile error in constant evaluation).
// Cache mode and best placement take two tiers, fastest first; flat and interleave take up to max_tiers.
// The model is bandwidth-bound: latency is carried with each tier (its memory(), for latency-bound
// questions) and not added to streaming time. docs/explanation/heterogeneous-memory.md says where it is off.
module;
#include <array>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
export module hml.tiers;
export import hml.machine;

export namespace hml {

struct tier {
  std::string_view name{};
  data_size capacity{};
  data_rate read{};
  data_rate write{};  // 0: as `read`
  duration latency{};
};

inline constexpr std::size_t max_tiers = 4;

// Tiers on separate controllers serve a working set's streams at once; tiers behind one path serve in turn.
enum class serving { concurrent, sequential };

[[nodiscard]] constexpr std::string_view to_string(serving s) noexcept {
  return s == serving::concurrent ? "concurrent" : "sequential";
}

struct tiered_memory {
  fixed_list<tier, max_tiers> tiers{};  // fastest first
  serving mode = serving::concurrent;
};

// `hot_accesses` of the traffic goes to `hot_bytes` of the footprint; {1, 1} is uniform.
struct access_skew {
  double hot_bytes = 1.0;
  double hot_accesses = 1.0;
};
inline constexpr access_skew uniform_access{};

struct working_set {
  data_size footprint{};
  access_skew skew = uniform_access;
  double write_share = 0.0;  // share of the traffic that writes
  data_size traffic{};       // bytes moved; 0: one pass over the footprint
};

// A machine's memory level as a tier: its capacity, bandwidth, write bandwidth and latency.
[[nodiscard]] constexpr tier tier_of(const level_description& level, basis b = basis::datasheet) noexcept {
  return {level.name, level.capacity.value, bandwidth_of(level, b).value, level.write_bandwidth.value,
          level.latency.value};
}

// The tier as the seed's flat memory, for latency-bound questions (transfer_time with a random pattern).
[[nodiscard]] constexpr memory memory_of(const tier& t) noexcept { return {t.latency, t.read}; }

// The tiers of a machine, fastest first: its main memory and each level software places data in
// (`addressable`), where it has a capacity and a bandwidth (on this basis). A cache is no tier: data cannot
// be placed in a GPU's L2 (it was taken as one, and its "cache" policy came out slower than HBM alone).
[[nodiscard]] constexpr tiered_memory tiers_of(const machine_description& m, serving mode = serving::concurrent,
                                               basis b = basis::datasheet) {
  tiered_memory t{.mode = mode};
  for (std::size_t i = 0; i < m.memory.size(); ++i) {
    const level_description& level = m.memory[i];
    const bool memory = level.addressable || i + 1 == m.memory.size();
    if (memory && level.capacity.published() && bandwidth_of(level, b).published()) t.tiers.push_back(tier_of(level, b));
  }
  return t;
}

constexpr void validate_capacity(data_size c) {
  expects(isfinite(c) && c.value() > 0, "hml: a memory's capacity must be finite and > 0; give the bytes it holds, as 64GiB");
}
constexpr void validate_share(double share) {
  expects(share >= 0.0 && share <= 1.0, "hml: a share must be within [0, 1]; give a part of the whole, as 0.25 for a quarter");  // false for NaN
}
// A memory writes near or below its read rate (Optane at a third of it), not more than 1.5x above, and at
// more than 1 % of it: past those a prefix is wrong (writes in TB/s beside reads in GB/s).
inline constexpr double most_write_over_read = 1.5;
inline constexpr double least_write_over_read = 0.01;
[[nodiscard]] constexpr bool plausible_write_rate(data_rate write, data_rate read) noexcept {
  return write <= most_write_over_read * read && write >= least_write_over_read * read;
}
constexpr void validate(const tier& t) {
  validate_capacity(t.capacity);
  validate_bandwidth(t.read);
  if (t.write.value() != 0) validate_bandwidth(t.write);
  if (t.write.value() != 0 && !plausible_write_rate(t.write, t.read)) {
    constexpr const char* rule = "hml: a tier writes at 1 % to 1.5x its read rate: check the write rate's prefix";
    if (std::is_constant_evaluated()) expects(false, rule);
    // At run time the message says which way and the rates that would do (2 GB/s written beside 1 TB/s read).
    throw std::invalid_argument(std::string{rule} + "; give a write rate from " + to_string(least_write_over_read * t.read) + " to " +
                                to_string(most_write_over_read * t.read) + " beside its read rate " + to_string(t.read) + ", not " +
                                to_string(t.write));
  }
  validate_latency(t.latency);
}
constexpr void validate(const tiered_memory& m) {
  expects(!m.tiers.empty(), "hml: a tiered memory needs at least one tier");
  for (std::size_t i = 0; i < m.tiers.size(); ++i) {
    validate(m.tiers[i]);
    // Placements and outputs name a tier: two of one name could not be told apart.
    for (std::size_t j = 0; j < i; ++j) expects(m.tiers[j].name != m.tiers[i].name, "hml: two tiers have one name");
  }
}
constexpr void validate(const access_skew& s) {
  validate_share(s.hot_bytes);
  validate_share(s.hot_accesses);
  expects(s.hot_bytes > 0, "hml: the hot part of an access skew must hold some bytes; give a hot share of the bytes above 0");
  expects(s.hot_bytes < 1.0 || s.hot_accesses == 1.0, "hml: all the bytes are hot, so they take all the accesses; give a hot share of the bytes below 1, or of the accesses of 1");
  // The hot part is the denser one: hottest_share_of serves it first.
  expects(s.hot_accesses >= s.hot_bytes,
          "hml: the hot bytes take at least their share of the accesses; a part that takes less is the cold one "
          "(30 % of the bytes taking 10 % of the accesses is 70 % taking 90 %: give that)");
}
constexpr void validate_footprint(data_size footprint) {
  expects(isfinite(footprint) && footprint.value() > 0, "hml: a working set's footprint must be finite and > 0; give the bytes it holds, as 200GiB");
}
constexpr void validate(const working_set& w) {
  validate_footprint(w.footprint);
  expects(isfinite(w.traffic) && w.traffic.value() >= 0, "hml: a working set's traffic must be finite and >= 0");
  validate(w.skew);
  validate_share(w.write_share);
}

// How a policy used one tier: its share of the bytes and of the traffic.
struct tier_use {
  double bytes = 0.0;
  double traffic = 0.0;
};

struct placement {
  std::string_view policy{};
  fixed_list<tier_use, max_tiers> tiers{};
  data_rate bandwidth{};  // what the working set sees
  duration time{};        // its traffic at that bandwidth
  double hit_rate = 0.0;  // cache mode: the fast tier's hit rate
};

}  // namespace hml

export namespace hml::detail {

// A tier's rate for this write share: its read rate for reads only (the same digits), else the harmonic mix.
[[nodiscard]] constexpr data_rate tier_rate_of(const tier& t, double write_share) noexcept {
  const data_rate write = t.write.value() == 0 ? t.read : t.write;
  if (write_share == 0.0) return t.read;
  if (write_share == 1.0) return write;
  return harmonic_mix(std::array<rate_share, 2>{{{1.0 - write_share, t.read}, {write_share, write}}});
}

[[nodiscard]] constexpr data_size bytes_moved(const working_set& w) noexcept {
  return w.traffic.value() == 0 ? w.footprint : w.traffic;
}

// The share of the traffic that the hottest `bytes` of the footprint carry.
[[nodiscard]] constexpr double hottest_share_of(const access_skew& s, data_size bytes, data_size footprint) noexcept {
  const double fraction = bytes / footprint;
  if (fraction >= 1.0) return 1.0;
  if (fraction <= s.hot_bytes) return s.hot_accesses * (fraction / s.hot_bytes);
  return s.hot_accesses + (1.0 - s.hot_accesses) * ((fraction - s.hot_bytes) / (1.0 - s.hot_bytes));
}

// Its inverse: the share of the footprint that, hottest first, carries this share of the traffic.
[[nodiscard]] constexpr double bytes_for_share_of(const access_skew& s, double traffic) noexcept {
  if (traffic <= s.hot_accesses) return s.hot_bytes * (traffic / s.hot_accesses);
  return s.hot_bytes + (1.0 - s.hot_bytes) * ((traffic - s.hot_accesses) / (1.0 - s.hot_accesses));
}

// Whether a tier has room for `share` of a footprint. A share computed from a capacity may land an ulp above it.
[[nodiscard]] constexpr bool has_room(const tier& t, double share, data_size footprint) noexcept {
  return share * footprint.value() <= t.capacity.value() * (1.0 + 1e-12);
}

// A placement that does not fit is an error.
constexpr void expect_fits(const tiered_memory& m, const working_set& w, const fixed_list<tier_use, max_tiers>& use) {
  for (std::size_t i = 0; i < use.size(); ++i) {
    expects(has_room(m.tiers[i], use[i].bytes, w.footprint), "hml: the placement does not fit a tier's capacity");
  }
}

// The bandwidth of a placement's traffic shares: concurrent tiers take the longest, sequential ones add.
[[nodiscard]] constexpr data_rate placement_bandwidth_of(const tiered_memory& m, const working_set& w,
                                                         const fixed_list<tier_use, max_tiers>& use) noexcept {
  duration per_byte = 0 * second;
  for (std::size_t i = 0; i < use.size(); ++i) {
    const duration tier_per_byte = use[i].traffic * (1 * byte / tier_rate_of(m.tiers[i], w.write_share));
    if (m.mode == serving::sequential) {
      per_byte += tier_per_byte;
    } else if (tier_per_byte > per_byte) {
      per_byte = tier_per_byte;
    }
  }
  return 1 * byte / per_byte;
}

[[nodiscard]] constexpr placement finish_of(std::string_view policy, const tiered_memory& m, const working_set& w,
                                            const fixed_list<tier_use, max_tiers>& use, double hit_rate = 0.0) {
  expect_fits(m, w, use);
  const data_rate bandwidth = placement_bandwidth_of(m, w, use);
  const duration time = time_to_move(bytes_moved(w), bandwidth);
  validate_memory_time(time);  // a tier at 2.3e-308 B/s, a normal rate, still made an infinite pass
  return {policy, use, bandwidth, time, hit_rate};
}

}  // namespace hml::detail

export namespace hml {

// The share of the traffic that the hottest `bytes` of a footprint carry under this skew.
[[nodiscard]] constexpr double hottest_share(const access_skew& s, data_size bytes, data_size footprint) {
  validate(s);
  validate_footprint(footprint);  // an infinite one gave every byte count a share of 0
  expects(bytes.value() >= 0 && bytes.value() <= largest_finite, "hml: bytes must be finite and >= 0");
  return detail::hottest_share_of(s, bytes, footprint);
}

// Flat mode's shares of the bytes: one per tier, each within [0, 1], adding up to 1.
constexpr void validate_shares(const tiered_memory& m, const fixed_list<double, max_tiers>& shares) {
  expects(shares.size() == m.tiers.size(), "hml: flat mode needs one share per tier");
  double sum = 0.0;
  for (const double share : shares) {
    validate_share(share);
    sum += share;
  }
  expects(sum > 1.0 - 1e-9 && sum < 1.0 + 1e-9, "hml: flat mode's shares must add up to 1; give parts of the whole, as 0.25,0.75");
}

// Flat mode: tier i holds shares[i] of the bytes, blind to heat, so it serves that share of the traffic.
[[nodiscard]] constexpr placement flat(const tiered_memory& m, const working_set& w, const fixed_list<double, max_tiers>& shares) {
  validate(m);
  validate(w);
  validate_shares(m, shares);
  fixed_list<tier_use, max_tiers> use;
  for (const double share : shares) use.push_back({share, share});
  return detail::finish_of("flat", m, w, use);
}

// Weighted interleave's shares of the bytes: proportional to each tier's lower of its read and write
// bandwidths, as Linux's auto-tuned MPOL_WEIGHTED_INTERLEAVE weights take them (mm/mempolicy.c,
// mempolicy_set_node_perf: min(read_bandwidth, write_bandwidth)). By reads alone a tier that writes at
// 50 GB/s took most of the bytes, and a faster read made writing slower.
[[nodiscard]] constexpr fixed_list<double, max_tiers> interleave_shares(const tiered_memory& m) {
  validate(m);
  const auto weight = [](const tier& t) {
    return t.write.value() != 0 && t.write < t.read ? t.write : t.read;  // no write bandwidth: the read's
  };
  data_rate total = weight(m.tiers[0]);
  for (std::size_t i = 1; i < m.tiers.size(); ++i) total += weight(m.tiers[i]);
  fixed_list<double, max_tiers> shares;
  for (const tier& t : m.tiers) shares.push_back(weight(t) / total);
  return shares;
}

// The capacity of all tiers together.
[[nodiscard]] constexpr data_size total_capacity(const tiered_memory& m) {
  validate(m);
  data_size total = m.tiers[0].capacity;
  for (std::size_t i = 1; i < m.tiers.size(); ++i) total += m.tiers[i].capacity;
  return total;
}

// Whether tier i has room for shares[i] of the working set's bytes, for every tier.
[[nodiscard]] constexpr bool shares_fit(const tiered_memory& m, const working_set& w, const fixed_list<double, max_tiers>& shares) {
  validate(m);
  validate(w);
  validate_shares(m, shares);  // shares that could not be flat's are wrong whether or not they fit
  for (std::size_t i = 0; i < shares.size(); ++i) {
    if (!detail::has_room(m.tiers[i], shares[i], w.footprint)) return false;
  }
  return true;
}

// The shares of the bytes when each tier is filled before the next, fastest first; the last takes the rest.
[[nodiscard]] constexpr fixed_list<double, max_tiers> fill_in_order_shares(const tiered_memory& m, const working_set& w) {
  validate(m);
  validate(w);
  fixed_list<double, max_tiers> shares;
  double left = 1.0;
  for (std::size_t i = 0; i < m.tiers.size(); ++i) {
    const double room = m.tiers[i].capacity / w.footprint;
    const double share = i + 1 == m.tiers.size() || room > left ? left : room;
    shares.push_back(share);
    left -= share;
  }
  return shares;
}

// Whether the weighted interleave of this working set fits the tiers (it spreads bytes by bandwidth, not
// by room: on a Xeon Max, 84 % of the bytes go to the 64 GiB of HBM).
[[nodiscard]] constexpr bool interleave_fits(const tiered_memory& m, const working_set& w) {
  return shares_fit(m, w, interleave_shares(m));
}

// Whether cache mode has room: the slow tier holds the whole footprint (the fast one caches part of it).
[[nodiscard]] constexpr bool cache_mode_fits(const tiered_memory& m, const working_set& w) {
  validate(m);
  validate(w);
  return w.footprint <= m.tiers.back().capacity;
}

// Whether some placement has room: the tiers together hold the footprint.
[[nodiscard]] constexpr bool any_placement_fits(const tiered_memory& m, const working_set& w) {
  validate(w);
  return w.footprint.value() <= total_capacity(m).value() * (1.0 + 1e-12);
}

// Weighted interleave: pages spread with weights proportional to the tiers' bandwidths (interleave_shares).
[[nodiscard]] constexpr placement weighted_interleave(const tiered_memory& m, const working_set& w) {
  placement p = flat(m, w, interleave_shares(m));
  p.policy = "weighted interleave";
  return p;
}

enum class miss_fill { paid, free };

// Cache mode with a given hit rate: tier 0 caches tier 1, which holds the whole footprint. With
// miss_fill::free this is the seed's two-tier memory, computed by it.
[[nodiscard]] constexpr placement cache_mode(const tiered_memory& m, const working_set& w, double hit_rate,
                                             miss_fill fill = miss_fill::paid) {
  validate(m);
  validate(w);
  validate_hit_rate(hit_rate);
  expects(m.tiers.size() == 2, "hml: cache mode takes two tiers, the cache first");
  const tier& fast = m.tiers[0];
  const data_rate fast_rate = detail::tier_rate_of(fast, w.write_share);
  const data_rate slow_rate = detail::tier_rate_of(m.tiers[1], w.write_share);
  const data_rate without_fill = detail::effective_bandwidth_unchecked(memory_hierarchy<2>{0 * second, {{{fast_rate, hit_rate}, {slow_rate, 1.0}}}});
  const data_rate fill_rate = detail::tier_rate_of(fast, 1.0);  // a fill writes the fast tier
  const data_rate bandwidth = fill == miss_fill::free
                                  ? without_fill
                                  : harmonic_mix(std::array<rate_share, 2>{{{1.0, without_fill}, {1.0 - hit_rate, fill_rate}}});
  const fixed_list<tier_use, max_tiers> use{{fast.capacity / w.footprint < 1.0 ? fast.capacity / w.footprint : 1.0, hit_rate},
                                            {1.0, 1.0 - hit_rate}};
  expects(cache_mode_fits(m, w), "hml: the placement does not fit a tier's capacity");
  const duration time = time_to_move(detail::bytes_moved(w), bandwidth);
  validate_memory_time(time);
  return {"cache", use, bandwidth, time, hit_rate};
}

// Cache mode with the hit rate of an ideal cache: the share of the traffic the hottest bytes that fit carry.
[[nodiscard]] constexpr placement cache_mode(const tiered_memory& m, const working_set& w, miss_fill fill = miss_fill::paid) {
  validate(m);
  validate(w);
  expects(m.tiers.size() == 2, "hml: cache mode takes two tiers, the cache first");
  return cache_mode(m, w, detail::hottest_share_of(w.skew, m.tiers[0].capacity, w.footprint), fill);
}

// The best placement of the working set over two tiers, fastest first (see the header).
[[nodiscard]] constexpr placement best_placement(const tiered_memory& m, const working_set& w) {
  validate(m);
  validate(w);
  expects(m.tiers.size() == 2, "hml: the best placement takes two tiers, the faster first");
  const tier& fast = m.tiers[0];
  const tier& slow = m.tiers[1];
  expects(any_placement_fits(m, w), "hml: the placement does not fit a tier's capacity");
  const data_rate fast_rate = detail::tier_rate_of(fast, w.write_share);
  const data_rate slow_rate = detail::tier_rate_of(slow, w.write_share);
  expects(fast_rate >= slow_rate, "hml: the best placement takes the faster tier first");
  // The traffic share the fast tier can take: at most what its capacity's hottest bytes carry, at least what
  // the coldest bytes carry that the slow tier has no room for.
  const double most = detail::hottest_share_of(w.skew, fast.capacity, w.footprint);
  const double overflow = w.footprint > slow.capacity ? (w.footprint - slow.capacity) / w.footprint : 0.0;
  const double least = overflow > 0 ? 1.0 - detail::hottest_share_of(w.skew, slow.capacity, w.footprint) : 0.0;
  double share = m.mode == serving::concurrent ? fast_rate / (fast_rate + slow_rate) : 1.0;
  if (share > most) share = most;
  if (share < least) share = least;
  double bytes = detail::bytes_for_share_of(w.skew, share);
  if (bytes < overflow) bytes = overflow;  // a mix of hot and cold bytes that fills what the slow tier cannot hold
  const fixed_list<tier_use, max_tiers> use{{bytes, share}, {1.0 - bytes, 1.0 - share}};
  return detail::finish_of("best placement", m, w, use);
}

}  // namespace hml
