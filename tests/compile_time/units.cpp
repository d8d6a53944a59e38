// The tutorial's unit facts, checked by the compiler.
#include <type_traits>

import hml;

using namespace hml::literals;

namespace {

static_assert(sizeof(hml::data_size) == sizeof(double));
static_assert(std::is_trivially_copyable_v<hml::data_rate>);
static_assert(!std::is_same_v<hml::work, hml::compute_rate>, "FLOP and FLOP/s are different types");
static_assert(!std::is_convertible_v<double, hml::data_size>);
static_assert(!std::is_convertible_v<hml::data_size, double>);

// Exact conversions.
static_assert(1_Gbps == 125_MBps);
static_assert(10_MiB == 10'485'760_B);
static_assert(1_B == 8_bit);
static_assert(6.4_Gbps * hml::bus_width{256} == 204.8_GBps);
static_assert(hml::bus_width{256} * 6.4_Gbps == 204.8_GBps);  // either order
static_assert(1 * hml::giga(hml::bit_per_second) == 1_Gbps);
static_assert(1_GiBps == 1024_MiB / 1_s);
static_assert(5.3_TFLOPS == 5.3e12 * hml::flop_per_second);

// Ratios of like quantities are plain numbers.
static_assert(1_GB / 1_MB == 1000.0);

}  // namespace
