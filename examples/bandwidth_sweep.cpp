// Prints seed 000/001's bandwidth sweep. The text is computed at compile time; tests/compile_time/
// seed_sweeps.cpp checks its lines against the seed's documented output.
#include "bandwidth_sweep.hpp"

#include <cstdio>

int main() {
  static constexpr auto text = bandwidth_sweep::report();
  std::fwrite(text.view().data(), 1, text.size(), stdout);
}
