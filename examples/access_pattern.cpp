// Sequential vs random access at the same bytes: traffic, sustained bandwidth, time and regime.
// The text is computed at compile time; tests/compile_time/access_pattern_and_tiling.cpp checks it.
#include <cstdio>

#include "access_pattern.hpp"

int main() {
  static constexpr auto text = access_pattern::report();
  std::fwrite(text.view().data(), 1, text.size(), stdout);
}
