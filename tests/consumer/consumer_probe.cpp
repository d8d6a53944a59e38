// Compiled against the installed package's probe component only: find_package(hml COMPONENTS probe).
#include <cstdio>

import hml.probe;

int main() {
  const hml::data_size memory = hml::physical_memory();
  std::printf("this machine has %.1f GiB of memory\n", memory.value() / (1024.0 * 1024 * 1024));
  return memory.value() > 0 ? 0 : 1;
}
