// A 200 GiB working set over a Xeon Max HBM2e + DDR5 under each placement policy, computed at compile
// time; tests/compile_time/tiers_and_offload.cpp derives every figure by hand.
#include <cstdio>

#include "tiered_memory.hpp"

int main() {
  static constexpr auto text = tiered_memory::report();
  std::fwrite(text.view().data(), 1, text.size(), stdout);
}
