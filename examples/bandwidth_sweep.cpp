// Prints seed 000/001's bandwidth sweep. The text is computed at compile time; tests/compile_time/
// seed_sweeps.cpp checks its lines against the seed's documented output.
#include <cstdio>

#include "bandwidth_sweep.hpp"

int main() {
  static constexpr auto text = bandwidth_sweep::report();
  std::fwrite(text.view().data(), 1, text.size(), stdout);
}
