// hml.report:machine_file's writers (see machine_file.cppm): one tree (an nlohmann ordered_json) written as
// JSON by nlohmann-json or as YAML by yaml-cpp, so that the two syntaxes cannot drift apart.
module;
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <regex>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>
#include <yaml-cpp/yaml.h>
module hml.report;
import :yaml_fields;
import :round_trip_text;

namespace hml {

namespace {

using json = nlohmann::ordered_json;
using detail::per_cycle_text;
using detail::round_trip_text;

// --- Writing -------------------------------------------------------------------------------------------

// The sources the written figures cite, in the order they are first cited.
class source_list {
public:
  explicit source_list(std::span<const source> given) : given_{given} {}

  void cite(std::string_view key) {
    if (key.empty()) return;
    for (std::string_view k : keys_) {
      if (k == key) return;
    }
    keys_.push_back(key);
  }

  [[nodiscard]] json list() const {
    json out = json::array();
    for (std::string_view key : keys_) {
      const source* s = source_for(key, given_);
      out.push_back({{"key", std::string{key}},
                     {"title", std::string{s != nullptr ? s->title : key}},
                     {"where", std::string{s != nullptr ? s->where : key}}});
    }
    return out;
  }

private:
  std::span<const source> given_;
  std::vector<std::string_view> keys_;
};

class tree_writer {
public:
  explicit tree_writer(std::span<const source> sources) : cited_{sources} {}

  template <class Q, class Text>
  void put(json& object, const char* name, const figure<Q>& f, Text text) {
    if (!f.published()) return;
    if (f.kind == provenance::stated && f.source.empty()) {
      object[name] = text(f.value);
      return;
    }
    json value = json::object();
    value["value"] = text(f.value);
    value["kind"] = std::string{to_string(f.kind)};
    if (!f.source.empty()) value["source"] = std::string{f.source};
    cited_.cite(f.source);
    object[name] = std::move(value);
  }

  template <class Q>
  void put(json& object, const char* name, const figure<Q>& f) {
    put(object, name, f, [](Q q) { return round_trip_text(q); });
  }

  json machine(const machine_description& m) {
    json out = json::object();
    out["id"] = std::string{m.id};
    out["name"] = std::string{m.name};
    if (!m.note.empty()) out["note"] = std::string{m.note};
    if (m.cores > 0) out["cores"] = m.cores;
    put(out, "clock", m.clock);
    put(out, "kernel_overhead", m.kernel_overhead);
    put(out, "attention_rate", m.attention_rate);
    put(out, "int4_weight_rate", m.int4_weight_rate);
    const machine_description defaults{};
    if (m.cacheline_bytes != defaults.cacheline_bytes) out["cacheline"] = std::to_string(m.cacheline_bytes) + " B";
    if (m.write_allocate != defaults.write_allocate) out["write_allocate"] = m.write_allocate;
    if (m.layer_condition_share != defaults.layer_condition_share) out["layer_condition_share"] = m.layer_condition_share;
    if (!(m.ports == defaults.ports)) {
      const port_model& p = m.ports;
      out["ports"] = {{"loads_per_cycle", p.loads_per_cycle},
                      {"stores_per_cycle", p.stores_per_cycle},
                      {"memory_ops_per_cycle", p.memory_ops_per_cycle},
                      {"fma_per_cycle", p.fma_per_cycle},
                      {"add_per_cycle", p.add_per_cycle},
                      {"mul_per_cycle", p.mul_per_cycle},
                      {"vector", std::to_string(p.vector_bytes) + " B"}};
    }
    if (!m.llvm_cpu.empty()) out["llvm_cpu"] = std::string{m.llvm_cpu};
    json memory = json::array();
    for (const level_description& l : m.memory) memory.push_back(level(l));
    out["memory"] = std::move(memory);
    if (!m.compute.empty()) {
      json compute = json::array();
      for (const ceiling_description& c : m.compute) compute.push_back(ceiling(c));
      out["compute"] = std::move(compute);
    }
    if (!m.memory_bandwidths.empty()) {
      json mixes = json::array();
      for (const stream_mix_bandwidth& b : m.memory_bandwidths) {
        json mix = {{"kernel", std::string{b.kernel}}, {"reads", b.reads}, {"writes", b.writes}};
        put(mix, "bandwidth", b.bandwidth);
        if (b.write_allocate_counted) mix["write_allocate_counted"] = true;
        if (b.non_temporal) mix["non_temporal"] = true;
        mixes.push_back(std::move(mix));
      }
      out["memory_bandwidths"] = std::move(mixes);
    }
    if (!m.domains.empty()) {
      json domains = json::array();
      for (const domain_description& d : m.domains) {
        json domain = {{"name", std::string{d.name}}, {"count", d.count}, {"cores", d.cores}};
        put(domain, "last_cache", d.last_cache);
        put(domain, "memory_bandwidth", d.memory_bandwidth);
        domains.push_back(std::move(domain));
      }
      out["domains"] = std::move(domains);
    }
    return out;
  }

  json link(const link_description& l) {
    json out = {{"id", std::string{l.id}}, {"name", std::string{l.name}}};
    const auto rate = [](per_direction r) { return round_trip_text(r.rate); };
    put(out, "bandwidth", l.bandwidth, rate);
    if (l.mode == duplex::half) out["mode"] = "half";
    put(out, "latency", l.latency);
    put(out, "measured_to_device", l.measured_to_device, rate);
    put(out, "measured_from_device", l.measured_from_device, rate);
    put(out, "nvls_bus_bandwidth", l.nvls_bus_bandwidth);
    if (!l.note.empty()) out["note"] = std::string{l.note};
    return out;
  }

  static json system(const system_description& s) {
    json out = {{"id", std::string{s.id}}, {"name", std::string{s.name}}};
    out["host"] = std::string{s.host->id};
    out["device"] = std::string{s.device->id};
    if (s.joined_by != nullptr) out["joined_by"] = std::string{s.joined_by->id};
    if (!s.note.empty()) out["note"] = std::string{s.note};
    return out;
  }

  [[nodiscard]] json sources() const { return cited_.list(); }

private:
  json level(const level_description& l) {
    json out = json::object();
    out["name"] = std::string{l.name};
    put(out, "capacity", l.capacity);
    put(out, "bandwidth", l.bandwidth);
    put(out, "write_bandwidth", l.write_bandwidth);
    put(out, "measured_bandwidth", l.measured_bandwidth);
    put(out, "latency", l.latency);
    if (l.scope == sharing::per_core) out["scope"] = "per core";
    if (!(l.interface == memory_interface{})) {
      json interface = json::object();
      if (l.interface.channels != 1) interface["channels"] = l.interface.channels;
      if (l.interface.bus_bits != 0) interface["bus_bits"] = l.interface.bus_bits;
      // A pin's rate in bits, as datasheets and JEDEC give it (6.4 Gbit/s, not 800 MB/s).
      put(interface, "pin_rate", l.interface.pin_rate, [](data_rate r) { return round_trip_text(r, information_unit::bits); });
      out["interface"] = std::move(interface);
    }
    if (!(l.upstream == level_transfer{})) {
      json upstream = json::object();
      put(upstream, "rate", l.upstream.rate, per_cycle_text);
      if (l.upstream.overlaps) upstream["overlaps"] = true;
      if (l.upstream.full_duplex) upstream["full_duplex"] = true;
      out["upstream"] = std::move(upstream);
    }
    if (l.victim) out["victim"] = true;
    if (l.addressable) out["addressable"] = true;
    return out;
  }

  json ceiling(const ceiling_description& c) {
    json out = {{"precision", std::string{id_of(c.type)}},
                {"unit", c.unit == compute_unit::vector ? "vector" : "tensor"}};
    put(out, "dense", c.dense);
    put(out, "sparse", c.sparse);
    put(out, "measured", c.measured);
    if (!c.variant.empty()) out["variant"] = std::string{c.variant};
    return out;
  }

  source_list cited_;
};

// An object whose values are all scalars is written on one line ({value: 2 TB/s, kind: stated}); the rest
// as blocks.
bool is_leaf(const json& j) {
  if (!j.is_object()) return false;
  for (const auto& [key, value] : j.items()) {
    if (value.is_structured()) return false;
  }
  return true;
}

// Whether a YAML reader that resolves plain scalars (YAML 1.1's types, as PyYAML; 1.2's core schema) would
// read this text as something else: a boolean (yes, Off), null, an integer (0x1F, +5, 1_000, 12:30:00), a
// float (1.5, 1e3, .inf) or a date. yaml-cpp resolves none, so hml reads its own file back either way, but
// another reader of `name: 96` gets a number where the JSON says "96"; such text is written in quotes.
bool resolves_as_other_than_text(const std::string& text) {
  // std::regex recurses once a character (a name of 200,000 digits crashed `hml devices FILE --format yaml`):
  // a text longer than any figure is quoted without asking, which any reader takes as text.
  if (text.size() > 1024) return true;
  static const std::regex other{
      "y|Y|yes|Yes|YES|n|N|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF|~|null|Null|NULL|=|<<|"
      "[-+]?(0b[01_]+|0o?[0-7_]+|0x[0-9a-fA-F_]+|[0-9][0-9_]*(:[0-5]?[0-9])*(\\.[0-9_]*)?|\\.[0-9_]+)([eE][-+]?[0-9]+)?|"
      "[-+]?\\.(inf|Inf|INF)|\\.(nan|NaN|NAN)|[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}([Tt ].*)?"};
  return text.empty() || std::regex_match(text, other);
}

void emit_yaml(YAML::Emitter& out, const json& j) {
  if (j.is_object()) {
    if (is_leaf(j) && !j.empty()) out << YAML::Flow;
    out << YAML::BeginMap;
    for (const auto& [key, value] : j.items()) {
      out << YAML::Key << key << YAML::Value;
      emit_yaml(out, value);
    }
    out << YAML::EndMap;
  } else if (j.is_array()) {
    out << YAML::BeginSeq;
    for (const json& item : j) emit_yaml(out, item);
    out << YAML::EndSeq;
  } else if (j.is_string()) {
    const std::string& text = j.get_ref<const std::string&>();
    if (resolves_as_other_than_text(text)) out << YAML::DoubleQuoted;
    out << text;
  } else {
    out << j.dump();  // numbers exactly (nlohmann's grisu2 digits), true, false
  }
}

// Text the reader would refuse is not written: the file would not read back (and JSON's writer put U+FFFD
// for a byte that is not UTF-8, so that it read back as another machine).
void refuse_unreadable_text(const json& j, const std::string& where) {
  if (j.is_string() && !is_printable_utf8(j.get_ref<const std::string&>())) {
    throw machine_file_error("hml: cannot write " + where + ": a control character or a byte that is not UTF-8 (" +
                             message_text(j.get_ref<const std::string&>()) + "), which no machine file holds");
  }
  if (j.is_array()) {
    for (std::size_t i = 0; i < j.size(); ++i) refuse_unreadable_text(j[i], where + "[" + std::to_string(i) + "]");
  }
  if (j.is_object()) {
    for (const auto& [key, value] : j.items()) refuse_unreadable_text(value, where.empty() ? key : where + "." + key);
  }
}

std::string serialized(const json& root, file_syntax syntax) {
  refuse_unreadable_text(root, "");
  if (syntax == file_syntax::json) return root.dump(2, ' ', false, json::error_handler_t::strict) + "\n";
  YAML::Emitter out;
  out.SetIndent(2);
  emit_yaml(out, root);
  return std::string{out.c_str()} + "\n";
}

}  // namespace

std::string write_machine_file(const machine_description& m, file_syntax syntax, std::span<const source> sources) {
  tree_writer writer{sources};
  json root = {{"format", std::string{machine_file_format}}};
  root.update(writer.machine(m));
  if (json cited = writer.sources(); !cited.empty()) root["sources"] = std::move(cited);
  return serialized(root, syntax);
}

std::string write_machine_file(const machine_document& d, file_syntax syntax, std::span<const source> sources) {
  tree_writer writer{sources};
  json root = {{"format", std::string{machine_file_format}}};
  if (!d.machines.empty()) {
    json machines = json::array();
    for (const machine_description* m : d.machines) machines.push_back(writer.machine(*m));
    root["machines"] = std::move(machines);
  }
  if (!d.links.empty()) {
    json links = json::array();
    for (const link_description* l : d.links) links.push_back(writer.link(*l));
    root["links"] = std::move(links);
  }
  if (!d.systems.empty()) {
    json systems = json::array();
    for (const system_description* s : d.systems) systems.push_back(tree_writer::system(*s));
    root["systems"] = std::move(systems);
  }
  if (json cited = writer.sources(); !cited.empty()) root["sources"] = std::move(cited);
  return serialized(root, syntax);
}

}  // namespace hml
