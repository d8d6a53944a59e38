// hml.report:machine_yaml — a machine description written as an ECM machine file (docs/reference/machine-file.md),
// which read_machine_yaml reads back: `hml probe --save-machine FILE` keeps this host for `hml ecm`. The
// writer is apart from the reader (ecm_files) and needs no YAML library: the format is plain text.
module;
#include <cstddef>
#include <string>
#include <string_view>
export module hml.report:machine_yaml;
import hml.format;
import hml.ecm;

namespace hml::detail {

inline std::string yaml_number(double x) { return std::string{format_number(x, general(10)).view()}; }

// Text as a double-quoted YAML scalar (names may hold ':' or '#').
inline std::string yaml_text(std::string_view s) {
  std::string out = "\"";
  for (const char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    if (static_cast<unsigned char>(c) >= 0x20) out += c;
  }
  return out + "\"";
}

}  // namespace hml::detail

export namespace hml {

[[nodiscard]] inline std::string to_machine_yaml(const machine_description& m) {
  using detail::yaml_number;
  std::string out = "# An ECM machine file (docs/reference/machine-file.md)";
  out += m.note.empty() ? std::string{"\n"} : "; " + std::string{m.note} + "\n";
  out += "name: " + detail::yaml_text(m.name) + "\n";
  if (!m.id.empty()) out += "id: " + detail::yaml_text(m.id) + "\n";
  out += "clock: " + yaml_number(in(m.clock.value, gigahertz)) + " GHz\n";
  out += "cores: " + std::to_string(m.cores) + "\n";
  out += "cacheline size: " + std::to_string(m.cacheline_bytes) + " B\n";
  out += std::string{"write-allocate: "} + (m.write_allocate ? "true" : "false") + "\n";
  out += "layer condition share: " + yaml_number(m.layer_condition_share) + "\n";
  out += "ports: {loads: " + yaml_number(m.ports.loads_per_cycle) + ", stores: " + yaml_number(m.ports.stores_per_cycle) +
         ", FMA: " + yaml_number(m.ports.fma_per_cycle) + ", ADD: " + yaml_number(m.ports.add_per_cycle) +
         ", MUL: " + yaml_number(m.ports.mul_per_cycle) + ", vector bytes: " + std::to_string(m.ports.vector_bytes) +
         (m.ports.memory_ops_per_cycle > 0 ? ", loads and stores: " + yaml_number(m.ports.memory_ops_per_cycle) : std::string{}) +
         "}\n";
  out += "memory hierarchy:\n";
  for (std::size_t i = 0; i < m.memory.size(); ++i) {
    const level_description& l = m.memory[i];
    out += "  - level: " + detail::yaml_text(l.name) + "\n";
    if (l.capacity.published()) out += "    size: " + yaml_number(l.capacity.value.value()) + " B\n";
    if (i + 1 < m.memory.size()) out += std::string{"    shared: "} + (l.scope == sharing::shared ? "true" : "false") + "\n";
    if (l.bandwidth.published()) out += "    bandwidth: " + yaml_number(in(l.bandwidth.value, giga(byte_per_second))) + " GB/s\n";
    if (l.upstream.rate.published())
      out += "    upstream throughput: " + yaml_number(in(l.upstream.rate.value, byte_per_cycle)) + " B/cy\n";
    if (l.upstream.overlaps) out += "    transfers overlap: true\n";
    if (l.upstream.full_duplex) out += "    full duplex: true\n";
    if (l.victim) out += "    victim cache: true\n";
  }
  if (!m.memory_bandwidths.empty()) {
    out += "memory bandwidths:\n";
    for (const stream_mix_bandwidth& b : m.memory_bandwidths) {
      out += "  - {kernel: " + detail::yaml_text(b.kernel) + ", read streams: " + std::to_string(b.reads) +
             ", write streams: " + std::to_string(b.writes) + ", bandwidth: " +
             yaml_number(in(b.bandwidth.value, giga(byte_per_second))) + " GB/s" +
             (b.write_allocate_counted ? ", write-allocate counted: true" : "") +
             (b.non_temporal ? ", non-temporal stores: true}\n" : "}\n");
    }
  }
  return out;
}

}  // namespace hml
