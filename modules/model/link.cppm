// hml.link — a link between two machines (PCIe, NVLink, NVLink-C2C, CXL): a bandwidth per direction, a
// latency, full or half duplex, and the time a transfer takes over it.
//
// Datasheets quote links as a total over both directions ("NVLink 900 GB/s" is 450 GB/s each way), memories
// per direction of nothing at all. So the two figures are types of their own: `per_direction` is what a
// transfer sees, `bidirectional_total` is what a datasheet prints, and the one way from the second to the
// first is per_direction_of(total, duplex), which halves it for a full-duplex link. A link is not a memory
// either: it has no effective_bandwidth(), so a model that wants a memory does not take one.
//
// Built from parts where that is how a link is specified:
//   PCIe: transfer rate per lane x lanes x line encoding. Generations 3 to 5 (8, 16, 32 GT/s) encode 128 bits
//     in 130 (128b/130b). Generation 6 (64 GT/s, PAM4) has no line code: it moves 256-byte FLITs whose CRC
//     and FEC take 14 bytes (242/256 of a FLIT is payload and data-link bytes). Convention here: PCIe 6 is
//     counted at its raw rate (encoding 1), as PCI-SIG's "128 GB/s per direction for x16" is, and the FLIT's
//     overhead goes with the protocol overhead (TLP headers, flow control) that no generation's figure here
//     includes. Real copies reach a share of these rates (docs/explanation/heterogeneous-memory.md).
//   NVLink: links x rate per link per direction (H100: 18 x 25 GB/s = 450 GB/s per direction).
module;
#include <string_view>
export module hml.link;
export import hml.units;

export namespace hml {

// The devices an NVLS figure is measured on, and the only count it is taken for: on 2 to 4 H100s NCCL's NVLS
// runs about as fast as its ring (365 to 370 GB/s of bus bandwidth, NVIDIA/nccl issue 1455).
inline constexpr unsigned nvls_devices = 8;

// A link's rate in one direction: what one transfer sees. A plain rate is one (`{25_GBps}`); a
// bidirectional_total is not.
struct per_direction {
  data_rate rate{};
  constexpr per_direction() = default;
  constexpr per_direction(data_rate r) noexcept : rate{r} {}  // NOLINT(google-explicit-constructor): a rate is per direction
  [[nodiscard]] constexpr double value() const noexcept { return rate.value(); }
  friend constexpr bool operator==(per_direction, per_direction) noexcept = default;
};

// A link's rate summed over both directions: what a datasheet prints for NVLink or C2C. Never a transfer's
// rate; per_direction_of() turns it into one.
struct bidirectional_total {
  data_rate rate{};
  constexpr bidirectional_total() = default;
  constexpr explicit bidirectional_total(data_rate r) noexcept : rate{r} {}
  [[nodiscard]] constexpr double value() const noexcept { return rate.value(); }
  friend constexpr bool operator==(bidirectional_total, bidirectional_total) noexcept = default;
};

// Full duplex: both directions move at the full per-direction rate at once. Half duplex: one rate shared
// by both directions, so traffic in and out adds.
enum class duplex { full, half };

[[nodiscard]] constexpr std::string_view to_string(duplex d) noexcept {
  return d == duplex::full ? "full duplex" : "half duplex";
}

[[nodiscard]] constexpr per_direction per_direction_of(bidirectional_total total, duplex mode) noexcept {
  return {mode == duplex::full ? total.rate / 2 : total.rate};
}

[[nodiscard]] constexpr bidirectional_total bidirectional_of(per_direction each_way, duplex mode) noexcept {
  return bidirectional_total{mode == duplex::full ? each_way.rate * 2 : each_way.rate};
}

struct link {
  per_direction bandwidth;
  duration latency{};  // paid once per transfer; 0 s: not published
  duplex mode = duplex::full;
};

constexpr void validate_link_bandwidth(per_direction b) {
  const double rate = b.rate.value();
  // Normal, as a memory's bandwidth: a gigabyte's time at a subnormal rate overflows to inf.
  expects(rate >= smallest_normal && rate <= largest_finite,
          rate > 0 && rate < smallest_normal ? "hml: link bandwidth must be at least 2.2e-308 B/s (a normal double)"
                                             : "hml: link bandwidth must be finite and > 0; give a rate such as 450GB/s");
}
constexpr void validate_link_latency(duration t) {
  expects(isfinite(t) && t.value() >= 0, "hml: link latency must be finite and >= 0");
}
constexpr void validate(const link& l) {
  validate_link_bandwidth(l.bandwidth);
  validate_link_latency(l.latency);
}

// --- Built from parts ---------------------------------------------------------------------------------

// A PCIe lane's transfer rate (GT/s; one bit per transfer and lane) by generation 3 to 6.
[[nodiscard]] constexpr data_rate pcie_transfer_rate(unsigned generation) {
  expects(generation >= 3 && generation <= 6, "hml: PCIe generation must be within 3 to 6");
  constexpr double gigatransfers[] = {8, 16, 32, 64};
  return gigatransfers[generation - 3] * (gigabit / second);
}

// The share of the line rate that carries data: 128b/130b for generations 3 to 5, 1 for 6 (see the header).
[[nodiscard]] constexpr double pcie_encoding(unsigned generation) {
  expects(generation >= 3 && generation <= 6, "hml: PCIe generation must be within 3 to 6");
  return generation == 6 ? 1.0 : 128.0 / 130.0;
}

// PCIe per direction: lanes x transfer rate x encoding (5.0 x16: 16 x 32 GT/s x 128/130 = 63.0 GB/s).
[[nodiscard]] constexpr per_direction pcie(unsigned generation, unsigned lanes) {
  expects(lanes == 1 || lanes == 2 || lanes == 4 || lanes == 8 || lanes == 16, "hml: PCIe lanes must be 1, 2, 4, 8 or 16");
  return {lanes * pcie_transfer_rate(generation) * pcie_encoding(generation)};
}

// NVLink per direction: links x each link's rate per direction (NVLink 4: 18 x 25 GB/s = 450 GB/s).
[[nodiscard]] constexpr per_direction nvlink(unsigned links, per_direction per_link) {
  expects(links > 0, "hml: an NVLink needs at least one link");
  validate_link_bandwidth(per_link);
  return {links * per_link.rate};
}

// --- Transfers ---------------------------------------------------------------------------------------

}  // namespace hml

export namespace hml::detail {

// No bytes are no transfer: no latency either (an offload that copies nothing back pays nothing for it).
[[nodiscard]] constexpr duration link_time_unchecked(const link& l, data_size bytes) noexcept {
  return bytes.value() == 0 ? duration{} : l.latency + time_to_move(bytes, l.bandwidth.rate);
}

// Bytes in one direction and bytes in the other at once: full duplex, the longer; half duplex, both in turn
// (the latency is paid once a direction either way).
[[nodiscard]] constexpr duration link_time_both_ways_of(const link& l, data_size one_way, data_size other_way) noexcept {
  const duration a = link_time_unchecked(l, one_way);
  const duration b = link_time_unchecked(l, other_way);
  if (l.mode == duplex::half) return a + b;
  return a > b ? a : b;
}

// The rate bytes stream at where `one_way` of them go one direction and `other_way` the other: on a full-duplex
// link the busier direction sets it (60 GB in and 60 GB out at 64 GB/s a direction: 128 GB/s in all), on a
// half-duplex one the link's own rate.
[[nodiscard]] constexpr data_rate streaming_rate_of(const link& l, data_size one_way, data_size other_way) noexcept {
  const data_size busier = one_way > other_way ? one_way : other_way;
  if (l.mode == duplex::half || busier.value() == 0) return l.bandwidth.rate;
  return l.bandwidth.rate * ((one_way + other_way) / busier);
}

}  // namespace hml::detail

export namespace hml {

// One transfer of `bytes` in one direction: the latency, then the bytes at the per-direction rate.
[[nodiscard]] constexpr duration link_time(const link& l, data_size bytes) {
  validate(l);
  expects(isfinite(bytes) && bytes.value() >= 0, "hml: bytes over a link must be finite and >= 0");
  const duration t = detail::link_time_unchecked(l, bytes);
  expects(t.value() <= largest_finite, "hml: the link time overflows a double: too many bytes for the link's rate");
  return t;
}

}  // namespace hml
