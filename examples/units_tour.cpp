#include <cstdio>

import hml;

using namespace hml::literals;

int main() {
  const hml::duration t = 12_MB / 205_GBps;
  std::printf("12 MB at 205 GB/s takes %.1f us\n", hml::in(t, hml::microsecond));
}
