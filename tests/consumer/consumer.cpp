// Compiled against the installed package only.
#include <cstdio>

import hml;

using namespace hml::literals;

static_assert(6.4_Gbps * hml::bus_width{256} == 204.8_GBps);

int main() {
  const hml::duration t = 12_MB / 205_GBps;
  std::printf("12 MB at 205 GB/s takes %.1f us\n", hml::in(t, hml::microsecond));
  return 0;
}
