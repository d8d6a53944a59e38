// hml.system — machines joined by links: a link as a catalog or a file describes it (its rate per
// direction, stated or derived, with the rates measured each way beside it), and a system, a host and a
// device joined by one. The link a model takes is link_of(); a system's machines are machine_descriptions.
module;
#include <string_view>
export module hml.system;
export import hml.machine_description;
export import hml.link;

export namespace hml {

// A link as the catalog holds it: its per-direction figure (derived from its parts, or a datasheet total
// halved), and measured transfer rates each way where published.
struct link_description {
  std::string_view id{};
  std::string_view name{};
  figure<per_direction> bandwidth{};
  duplex mode = duplex::full;
  figure<duration> latency{};
  figure<per_direction> measured_to_device{};    // host to device (between two devices: one direction)
  figure<per_direction> measured_from_device{};  // device to host (the other)
  // NCCL's all-reduce by NVLink SHARP (NVLS: the switch reduces) on 8 devices, as nccl-tests prints it: its
  // bus bandwidth, algbw x 2 (n - 1) / n (NVIDIA/nccl-tests doc/PERFORMANCE.md). Only NVSwitch 3 has it.
  figure<data_rate> nvls_bus_bandwidth{};
  std::string_view note{};
  friend constexpr bool operator==(const link_description&, const link_description&) = default;
};

// Whether either direction of the link has a measured rate beside its datasheet's.
[[nodiscard]] constexpr bool publishes_measured_rate(const link_description& d) {
  return d.measured_to_device.published() || d.measured_from_device.published();
}

// The link a model takes: the datasheet's rate, or the slower measured direction where one is published
// (basis::measured requires one; basis::measured_where_published falls back to the datasheet's).
[[nodiscard]] constexpr link link_of(const link_description& d, basis b = basis::datasheet) {
  const bool to = d.measured_to_device.published(), from = d.measured_from_device.published();
  if (b == basis::measured) expects(publishes_measured_rate(d), "hml: the link publishes no measured rate");
  if (b != basis::datasheet && publishes_measured_rate(d)) {
    // The slower measured direction; where one alone is measured, that one (both ways: a link has one rate).
    const per_direction slower = !from || (to && d.measured_to_device.value.rate < d.measured_from_device.value.rate)
                                     ? d.measured_to_device.value
                                     : d.measured_from_device.value;
    return {slower, d.latency.value, d.mode};
  }
  return {d.bandwidth.value, d.latency.value, d.mode};
}

// The link NCCL's NVLS all-reduce sees: its bus bandwidth, each message paying the link's latency.
[[nodiscard]] constexpr link nvls_link_of(const link_description& d) {
  expects(d.nvls_bus_bandwidth.published(),
          "hml: the link publishes no NVLS all-reduce (NVLink SHARP needs NVSwitch 3, as H100 nodes have); give the ring, or a "
          "link with NVLS");
  return {per_direction{d.nvls_bus_bandwidth.value}, d.latency.value, d.mode};
}

// Machines joined by a link: a host, where the data is, and a device. A system with one pool (MI300A) has no
// link and its device is its host.
struct system_description {
  std::string_view id{};
  std::string_view name{};
  const machine_description* host = nullptr;
  const machine_description* device = nullptr;
  const link_description* joined_by = nullptr;
  std::string_view note{};
};

}  // namespace hml
