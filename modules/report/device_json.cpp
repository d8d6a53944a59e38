// hml.report:device_json's writer (see device_json.cppm), with nlohmann-json in the global module fragment.
module;
#include <span>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>
module hml.report;

namespace hml {

namespace {

using json = nlohmann::ordered_json;

// "2039000000000 B/s": base units, which the reader's parse takes back exactly.
template <class Q>
std::string base_text(Q q, std::string_view unit) {
  std::string text;
  detail::append_shortest(text, q.value());
  return text + " " + std::string{unit};
}

template <class Q>
void put(json& object, const char* name, const figure<Q>& f, std::string_view unit) {
  if (!f.published()) return;
  json value = json::object();
  value["value"] = base_text(f.value, unit);
  value["kind"] = std::string{to_string(f.kind)};
  if (!f.source.empty()) value["source"] = std::string{f.source};
  object[name] = std::move(value);
}

}  // namespace

std::string to_device_json(const device& d, std::span<const source> sources) {
  json root = json::object();
  root["id"] = std::string{d.id};
  root["name"] = std::string{d.name};
  if (d.cores > 0) root["cores"] = d.cores;
  put(root, "clock", d.clock, "Hz");
  if (!d.note.empty()) root["note"] = std::string{d.note};
  json cited = json::array();
  for (std::string_view key : cited_sources(d)) {
    const source* s = nullptr;
    for (const source& candidate : sources) {
      if (candidate.key == key) s = &candidate;
    }
    cited.push_back({{"key", std::string{key}},
                     {"title", std::string{s ? s->title : key}},
                     {"where", std::string{s ? s->where : key}}});
  }
  if (!cited.empty()) root["sources"] = std::move(cited);
  json memory = json::array();
  for (const level_description& l : d.memory) {
    json level = json::object();
    level["name"] = std::string{l.name};
    put(level, "capacity", l.capacity, "B");
    put(level, "bandwidth", l.bandwidth, "B/s");
    put(level, "write_bandwidth", l.write_bandwidth, "B/s");
    put(level, "measured_bandwidth", l.measured_bandwidth, "B/s");
    put(level, "latency", l.latency, "s");
    if (l.scope == sharing::per_core) level["scope"] = "per_core";
    if (l.interface.bus_bits > 0) {
      json i = json::object();
      i["channels"] = l.interface.channels;
      i["bus_bits"] = l.interface.bus_bits;
      put(i, "pin_rate", l.interface.pin_rate, "B/s");
      level["interface"] = std::move(i);
    }
    memory.push_back(std::move(level));
  }
  root["memory"] = std::move(memory);
  json compute = json::array();
  for (const ceiling_description& c : d.compute) {
    json ceiling = json::object();
    ceiling["precision"] = std::string{id_of(c.type)};
    ceiling["unit"] = c.unit == compute_unit::vector ? "vector" : "tensor";
    put(ceiling, "dense", c.dense, "FLOP/s");
    put(ceiling, "sparse", c.sparse, "FLOP/s");
    put(ceiling, "measured", c.measured, "FLOP/s");
    if (!c.variant.empty()) ceiling["variant"] = std::string{c.variant};
    compute.push_back(std::move(ceiling));
  }
  root["compute"] = std::move(compute);
  return root.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

}  // namespace hml
