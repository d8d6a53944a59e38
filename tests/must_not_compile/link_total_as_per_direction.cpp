// A datasheet's 900 GB/s NVLink figure counts both directions, so it is not a link's per-direction rate.
// Write per_direction_of(hml::bidirectional_total{900_GBps}, hml::duplex::full) (450 GB/s).
// expected-error: no viable conversion from 'const hml::bidirectional_total' to 'per_direction'
import hml;
using namespace hml::literals;

constexpr hml::bidirectional_total nvlink4_datasheet{900_GBps};
#ifdef HML_MUST_NOT_COMPILE
[[maybe_unused]] constexpr hml::link nvlink{.bandwidth = nvlink4_datasheet};
#else
[[maybe_unused]] constexpr hml::link nvlink{.bandwidth = hml::per_direction_of(nvlink4_datasheet, hml::duplex::full)};
#endif
