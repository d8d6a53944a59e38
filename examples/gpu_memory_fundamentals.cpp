// Prints seed 003's walk-through (the tinygrad GPU memory tutorial), computed at compile time;
// tests/compile_time/gpu_memory_fundamentals.cpp checks every documented figure.
#include <cstdio>

#include "gpu_memory_fundamentals.hpp"

int main() {
  static constexpr auto text = gpu_memory_fundamentals::report();
  std::fwrite(text.view().data(), 1, text.size(), stdout);
}
