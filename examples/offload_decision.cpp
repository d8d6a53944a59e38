// The offload decision for a vector add over PCIe 5.0 x16, computed at compile
// time; tests/compile_time/tiers_and_offload.cpp derives every figure by hand.
#include <cstdio>

#include "offload_decision.hpp"

int main() {
  static constexpr auto text = offload_decision::report();
  std::fwrite(text.view().data(), 1, text.size(), stdout);
}
