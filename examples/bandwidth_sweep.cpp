// Prints seed 000/001's bandwidth sweep. The text is computed at compile time; tests/compile_time/
// seed_sweeps.cpp checks its lines against the seed's documented output. `--csv FILE` and `--json FILE`
// also write the results (base units: bytes, bytes per second, FLOP per byte, seconds).
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "bandwidth_sweep.hpp"
#include "output_options.hpp"

int main(int argc, char** argv) {
  const examples::output_options options = examples::parse_output_options(argc, argv);
  static constexpr auto text = bandwidth_sweep::report();
  std::fwrite(text.view().data(), 1, text.size(), stdout);

  hml::table results{hml::with_time_columns({"scenario", "problem_size_B", "bandwidth_B_per_s", "ops_per_byte"}), {}};
  for (const bandwidth_sweep::scenario& s : bandwidth_sweep::scenarios) {
    std::vector<hml::cell> row{std::string{s.title}, bandwidth_sweep::problem_size.value(), s.bandwidth.value(),
                               s.ops_per_byte.value()};
    hml::append_time_cells(row, bandwidth_sweep::run(s));
    results.add_row(std::move(row));
  }
  return examples::write_tables(options, results);
}
