// Compiled against the installed package's c_kernel component only: find_package(hml COMPONENTS c_kernel).
// Its reader's internal partition (which needs libclang's header) is neither installed nor built here.
#include <cstdio>
#include <string_view>

import hml.c_kernel;

int main() {
  constexpr std::string_view triad = "double a[N], b[N], c[N], s;\n"
                                     "for (int i = 0; i < N; ++i) a[i] = b[i] + s * c[i];\n";
  const hml::c_define n{.name = "N", .value = 1000};
  const hml::loaded_kernel kernel = hml::read_kernel_c(triad, "triad.c", {&n, 1});
  const hml::loop_kernel& k = kernel.kernel();
  std::printf("%.*s: %zu arrays, %zu accesses, %u FLOP an iteration\n", static_cast<int>(k.name.size()),
              k.name.data(), k.arrays.size(), k.accesses.size(), static_cast<unsigned>(k.flops.total()));
  return k.arrays.size() == 3 && k.accesses.size() == 3 && k.flops.total() == 2 ? 0 : 1;
}
