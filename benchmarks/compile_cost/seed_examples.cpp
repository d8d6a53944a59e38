// The seed lab's two examples evaluated at compile time: both reports, every scenario's regime. Built
// twice from this one file: against the examples' headers, which `import hml;`, and against their
// textual copies, which #include the library as headers (textualize.cmake). compile_cost times both.
#include "bandwidth_sweep.hpp"
#include "cache_sweep.hpp"

namespace {

constexpr auto bandwidth_report = bandwidth_sweep::report();
constexpr auto cache_report = cache_sweep::report();
static_assert(bandwidth_report.size() > 0 && cache_report.size() > 0);

// The regimes the seed documents, one per scenario.
static_assert(bandwidth_sweep::run(bandwidth_sweep::scenarios[0]).limit == hml::regime::memory_bound);
static_assert(bandwidth_sweep::run(bandwidth_sweep::scenarios[1]).limit == hml::regime::compute_bound);
static_assert(bandwidth_sweep::run(bandwidth_sweep::scenarios[2]).limit == hml::regime::memory_bound);
static_assert(bandwidth_sweep::run(bandwidth_sweep::scenarios[3]).limit == hml::regime::compute_bound);
static_assert(cache_sweep::run(cache_sweep::scenarios[0]).limit == hml::regime::memory_bound);
static_assert(cache_sweep::run(cache_sweep::scenarios[1]).limit == hml::regime::memory_bound);
static_assert(cache_sweep::run(cache_sweep::scenarios[2]).limit == hml::regime::compute_bound);

}  // namespace
