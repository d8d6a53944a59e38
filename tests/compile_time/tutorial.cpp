// The code of docs/tutorial/, as the pages show it: it must keep compiling and its figures must hold.
import hml;
using namespace hml::literals;

namespace first_typed_model {

constexpr hml::data_size problem = 10_MiB;
constexpr hml::data_rate link = 1_Gbps;            // bits per second: 125 MB/s
constexpr hml::duration time = problem / link;     // the type is computed: size / rate is a time
static_assert(hml::to_text(time) == "83.9 ms");
// 10,485,760 B / 125,000,000 B/s = 83.886 ms, by hand.
static_assert(hml::in(time, hml::second) > 0.083886 && hml::in(time, hml::second) < 0.083887);
static_assert(1_Gbps == 125_MBps && 10_MiB == 10'485'760_B);

}  // namespace first_typed_model

namespace first_static_assert {

constexpr auto low = hml::run(hml::streaming(10_MiB, 1.0 * hml::flop_per_byte),
                              hml::memory{.latency = 50_ns, .bandwidth = 1_Gbps},
                              hml::compute_core{10_GFLOPS});
static_assert(low.limit == hml::regime::memory_bound);
static_assert(hml::to_text(low.memory_time) == "83.9 ms");

}  // namespace first_static_assert

namespace first_sweep {

constexpr auto bandwidths = hml::log_axis(1_Gbps, 1000_Gbps, 7);
constexpr auto intensities = hml::values(0.25 * hml::flop_per_byte, 1.0 * hml::flop_per_byte,
                                         16.0 * hml::flop_per_byte);
constexpr auto grid = hml::grid(bandwidths, intensities);
static_assert(grid.size() == 21);

}  // namespace first_sweep
