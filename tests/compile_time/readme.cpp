// The README's first example, verbatim: it must keep compiling.
import hml;
using namespace hml::literals;

namespace {

// 10 MiB streamed at 1 Gbit/s with 50 ns latency, 1 FLOP per byte on a 10 GFLOP/s core.
constexpr auto result = hml::run(hml::streaming(10_MiB, 1.0 * hml::flop_per_byte),
                                 hml::memory{.latency = 50_ns, .bandwidth = 1_Gbps},
                                 hml::compute_core{10_GFLOPS});
static_assert(result.limit == hml::regime::memory_bound);
static_assert(hml::to_text(result.memory_time) == "83.9 ms");

}  // namespace

// The README's catalog example.
static_assert(hml::analyze(hml::matmul<float>(4096), hml::devices::h100_sxm, hml::precision::fp32).bound ==
              hml::regime::compute_bound);
