// Prints seed 000's cache sweep. The text is computed at compile time; tests/compile_time/seed_sweeps.cpp
// checks its lines against the seed's documented output.
#include <cstdio>

#include "cache_sweep.hpp"

int main() {
  static constexpr auto text = cache_sweep::report();
  std::fwrite(text.view().data(), 1, text.size(), stdout);
}
