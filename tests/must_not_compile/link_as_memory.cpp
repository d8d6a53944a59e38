// A link is not a memory: a kernel does not run "on" PCIe, it is offloaded over it (hml::plan_offload).
// To treat a link's rate as a memory on purpose, write hml::memory{link.latency, link.bandwidth.rate}.
// expected-error: no matching function for call to 'run'
import hml;
using namespace hml::literals;

constexpr hml::link pcie5 = hml::link_of(hml::systems::pcie5_x16);
constexpr hml::kernel add = hml::vector_add<float>(1 << 20);
#ifdef HML_MUST_NOT_COMPILE
[[maybe_unused]] constexpr auto t = hml::run(add, pcie5, hml::compute_core{1_TFLOPS});
#else
[[maybe_unused]] constexpr auto t = hml::run(add, hml::memory{pcie5.latency, pcie5.bandwidth.rate}, hml::compute_core{1_TFLOPS});
#endif
