// The seed lab's documented output (seeds 000 and 001), line for line, checked against the text the
// examples print. Any change to a model constant or formula breaks one of these.
#include <string_view>

#include "bandwidth_sweep.hpp"
#include "cache_sweep.hpp"

namespace {

using hml::line;
using namespace hml::literals;

// The seed's lines, in order; "..." stands for lines the seed elides.
template <std::size_t N>
constexpr bool prints(std::string_view text, const std::string_view (&documented)[N], std::size_t first_line) {
  for (std::size_t i = 0; i < N; ++i) {
    if (documented[i] != "..." && line(text, first_line + i) != documented[i]) return false;
  }
  return true;
}

constexpr auto bandwidth = bandwidth_sweep::report();

// The only difference from the seed: it labels 10 MiB "10 MB" (its numbers are those of 10,485,760 B).
constexpr std::string_view low_bandwidth[] = {
    "=== Low bandwidth ===",      "Problem size: 10 MiB",         "Bandwidth: 1.0 Gbit/s",
    "Ops per byte: 1.0",          "Memory time: 8.388613e-02 s",  "Compute time: 1.048576e-03 s",
    "Total time: 8.493471e-02 s", "Regime: memory-bound",
};
constexpr std::string_view high_bandwidth[] = {
    "=== High bandwidth ===",     "Problem size: 10 MiB",         "Bandwidth: 100.0 Gbit/s",
    "Ops per byte: 1.0",          "Memory time: 8.389108e-04 s",  "Compute time: 1.048576e-03 s",
    "Total time: 1.887487e-03 s", "Regime: compute-bound",
};
constexpr std::string_view low_intensity[] = {"=== Low arithmetic intensity ===", "...", "...", "...", "...",
                                              "...", "...", "Regime: memory-bound"};
constexpr std::string_view high_intensity[] = {"=== High arithmetic intensity ===", "...", "...", "...", "...",
                                               "...", "...", "Regime: compute-bound"};

static_assert(prints(bandwidth, low_bandwidth, 0));
static_assert(prints(bandwidth, high_bandwidth, 9));
static_assert(prints(bandwidth, low_intensity, 18));
static_assert(prints(bandwidth, high_intensity, 27));
static_assert(line(bandwidth, 35).empty() && line(bandwidth, 36).empty(), "four blocks, nothing after");

// The seed's numbers, derived from its parameters (seed-facts.md), as quantities.
static_assert(hml::to_text(bandwidth_sweep::problem_size, {.number = hml::fixed(0)}) == "10 MiB");
static_assert(bandwidth_sweep::problem_size == 10'485'760_B);
static_assert(hml::compute_time(bandwidth_sweep::core, 10_MiB * (1.0 * hml::flop_per_byte)) == 1.048576e-3_s);
// At high bandwidth compute is 25 % above memory: the balance tolerance must stay below 20 % of the larger.
static_assert(bandwidth_sweep::run(bandwidth_sweep::scenarios[1]).limit == hml::regime::compute_bound);
static_assert(hml::default_balance_tolerance < 0.20);

constexpr auto cache = cache_sweep::report();

constexpr std::string_view poor_locality[] = {
    "=== Poor locality ===",    "Hit rate: 0.10",           "Fast BW: 500.0 Gbit/s",
    "Slow BW: 10.0 Gbit/s",     "Memory time: 7.216e-03 s", "Compute time: 1.000e-03 s",
    "Total time: 8.216e-03 s",  "Regime: memory-bound",
};
constexpr std::string_view moderate_locality[] = {
    "=== Moderate locality ===", "Hit rate: 0.50",           "Fast BW: 500.0 Gbit/s",
    "Slow BW: 10.0 Gbit/s",      "Memory time: 4.080e-03 s", "Compute time: 1.000e-03 s",
    "Total time: 5.080e-03 s",   "Regime: memory-bound",
};
constexpr std::string_view good_locality[] = {
    "=== Good locality ===",    "Hit rate: 0.95",           "Fast BW: 500.0 Gbit/s",
    "Slow BW: 10.0 Gbit/s",     "Memory time: 5.521e-04 s", "Compute time: 1.000e-03 s",
    "Total time: 1.552e-03 s",  "Regime: compute-bound",
};

static_assert(prints(cache, poor_locality, 0));
static_assert(prints(cache, moderate_locality, 9));
static_assert(prints(cache, good_locality, 18));
static_assert(line(cache, 26).empty() && line(cache, 27).empty(), "three blocks, nothing after");

// Without the 50 ns latency, good locality would print 5.520e-04: the latency is part of the model.
static_assert(hml::format_number(
                  hml::transfer_time(hml::two_tier_memory{0_s, 500_Gbps, 10_Gbps, 0.95}, 10_MB).value(),
                  hml::scientific(3)) == "5.520e-04");

}  // namespace
