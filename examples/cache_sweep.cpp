// Prints seed 000's cache sweep. The text is computed at compile time; tests/compile_time/seed_sweeps.cpp
// checks its lines against the seed's documented output. `--csv FILE` and `--json FILE` also write the
// results (base units: bytes per second, seconds).
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "cache_sweep.hpp"
#include "output_options.hpp"

int main(int argc, char** argv) {
  const examples::output_options options = examples::parse_output_options(argc, argv);
  static constexpr auto text = cache_sweep::report();
  std::fwrite(text.view().data(), 1, text.size(), stdout);

  hml::table results{hml::with_time_columns({"scenario", "hit_rate", "fast_B_per_s", "slow_B_per_s"}), {}};
  for (const cache_sweep::scenario& s : cache_sweep::scenarios) {
    const hml::two_tier_memory m = cache_sweep::memory_for(s);
    std::vector<hml::cell> row{std::string{s.title}, s.hit_rate, m.fast.value(), m.slow.value()};
    hml::append_time_cells(row, cache_sweep::run(s));
    results.add_row(std::move(row));
  }
  return examples::write_tables(options, results);
}
