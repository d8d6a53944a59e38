// Prints the ECM model of streaming kernels and a stencil, computed at compile time (examples/ecm_triad.hpp);
// tests/compile_time/ecm.cpp derives its figures by hand.
#include <cstdio>

#include "ecm_triad.hpp"

int main() {
  static constexpr auto text = ecm_triad::report();
  std::fwrite(text.view().data(), 1, text.size(), stdout);
}
