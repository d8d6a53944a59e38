// Prints seed 002's roofline analysis of a list of operations on one device, computed at compile time;
// tests/compile_time/roofline_analysis.cpp checks every documented figure.
#include <cstdio>

#include "roofline_analysis.hpp"

int main() {
  static constexpr auto text = roofline_analysis::report();
  std::fwrite(text.view().data(), 1, text.size(), stdout);
}
