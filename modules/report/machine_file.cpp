// hml.report:machine_file's reader (see machine_file.cppm; machine_file_writer.cpp writes): yaml-cpp reads
// YAML and JSON alike, every field through :yaml_fields' checks.
module;
#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>
#include <yaml-cpp/yaml.h>
module hml.report;
import :yaml_fields;
import :round_trip_text;
import :machine_checks;

namespace hml {

struct machine_file::storage {
  std::deque<std::string> text;  // a deque never moves its strings, so views of them stay valid
  std::deque<machine_description> machine_store;
  std::deque<link_description> link_store;
  std::deque<system_description> system_store;
  std::vector<const machine_description*> machines;
  std::vector<const link_description*> links;
  std::vector<const system_description*> systems;
  std::vector<source> sources;
  std::string file;
  YAML::Node tree;      // the file as read: where a field is, for a check made after reading
  bool listed = false;  // its machines are under `machines:`, not one at the top level
  std::string_view keep(std::string s) { return text.emplace_back(std::move(s)); }
};

machine_file::machine_file(std::unique_ptr<storage> state) : state_{std::move(state)} {}
machine_file::machine_file(machine_file&&) noexcept = default;
machine_file& machine_file::operator=(machine_file&&) noexcept = default;
machine_file::~machine_file() = default;
std::span<const machine_description* const> machine_file::machines() const noexcept { return state_->machines; }
std::span<const link_description* const> machine_file::links() const noexcept { return state_->links; }
std::span<const system_description* const> machine_file::systems() const noexcept { return state_->systems; }
std::span<const source> machine_file::sources() const noexcept { return state_->sources; }

int machine_file::line_of(const machine_description& m, std::string_view field) const {
  const auto found = std::ranges::find(state_->machines, &m);
  if (found == state_->machines.end()) return 0;
  const std::string own = state_->listed ? "machines[" + std::to_string(found - state_->machines.begin()) + "]" : "";
  const std::string path = own.empty() || field.empty() ? own + std::string{field} : own + "." + std::string{field};
  return detail::yaml_fields<machine_file_error>::line_of(state_->tree, path.empty() ? "the top level" : path);
}

const machine_description& machine_file::machine() const {
  if (state_->machines.size() != 1) {
    throw machine_file_error(state_->file + (state_->machines.empty() ? std::string{": holds no machine, only links or systems; give a file of one"}
        : ": holds " + std::to_string(state_->machines.size()) + " machines where one is wanted; `hml devices FILE` shows them: give the one wanted a file of its own"));
  }
  return *state_->machines.front();
}

using detail::round_trip_text;

// --- Reading ---------------------------------------------------------------------------------------------

namespace {

using fields = detail::yaml_fields<machine_file_error>;
using detail::machine_fields;
constexpr std::int64_t most_cores = max_cores;

class machine_reader {
public:
  machine_reader(std::string_view file, machine_file::storage& out) : r_{file}, out_{out} {}

  void read(std::string_view text) {
    const YAML::Node root = r_.load(text);
    out_.tree = root;
    if (!root.IsMap()) r_.fail(root, "", "expected a mapping of fields (a machine, or machines, links and systems); write `name: value` lines (`hml devices NAME --format yaml` writes one)");
    const std::string format = r_.scalar(root, "", "format", true, "missing; add `format: " + std::string{machine_file_format} + "` as its first line");
    if (format != machine_file_format) {
      r_.fail(root["format"], "format",
              "\"" + format + "\" is not a format this hml reads; expected " + std::string{machine_file_format});
    }
    const bool document = root["machines"].IsDefined() || root["links"].IsDefined() || root["systems"].IsDefined();
    out_.listed = document;
    if (document) {
      for (const auto& entry : root)  // one machine's file given links: the machine goes in the list
        if (const YAML::Node& key = entry.first; key.IsScalar() && std::ranges::find(machine_fields, key.Scalar()) != machine_fields.end())
          r_.fail(key, key.Scalar(), "a machine's field beside machines, links or systems; list the machine under "
                                     "machines: (hml devices gh200 --format yaml writes such a file)");
      r_.expect_map(root, "", {"format", "machines", "links", "systems", "sources"});
    } else {
      std::vector<std::string_view> known{"format"};
      known.insert(known.end(), machine_fields.begin(), machine_fields.end());
      known.push_back("sources");
      r_.expect_map(root, "", known);
    }
    read_sources(root);
    if (!document) return add_machine(root, "");
    constexpr std::size_t most_entries = 256;  // a catalog of machines, not a data set
    const YAML::Node machines = r_.sequence(root, "", "machines", false, most_entries);
    for (std::size_t i = 0; i < machines.size(); ++i) add_machine(machines[i], fields::item("machines", i));
    const YAML::Node links = r_.sequence(root, "", "links", false, most_entries);
    for (std::size_t i = 0; i < links.size(); ++i) add_link(links[i], fields::item("links", i));
    const YAML::Node systems = r_.sequence(root, "", "systems", false, most_entries);
    for (std::size_t i = 0; i < systems.size(); ++i) add_system(systems[i], fields::item("systems", i));
    if (out_.machines.empty() && out_.links.empty() && out_.systems.empty())  // written back, it would not read
      r_.fail(root, "machines", "the file lists no machine, link or system; give one");
  }

private:
  void read_sources(const YAML::Node& root) {
    const YAML::Node list = r_.sequence(root, "", "sources", false, 256);
    for (std::size_t i = 0; i < list.size(); ++i) {
      const std::string field = fields::item("sources", i);
      r_.expect_map(list[i], field, {"key", "title", "where"});
      const source s{.key = text(list[i], field, "key", true), .title = text(list[i], field, "title", true),
                     .where = text(list[i], field, "where", true)};  // written back whole: none is left out
      for (const source& other : out_.sources) {
        if (other.key == s.key) r_.fail(list[i]["key"], fields::path(field, "key"), "two sources with this key");
      }
      out_.sources.push_back(s);
    }
  }

  [[nodiscard]] bool cited(std::string_view key) const { return source_for(key, out_.sources) != nullptr; }

  // A figure: "2 TB/s" (stated, citing nothing) or {value: 2 TB/s, kind: measured, source: KEY}.
  template <class Q, class Read>
  figure<Q> a_figure(const YAML::Node& map, const std::string& parent, std::string_view name, Read read_value) {
    const YAML::Node node = r_.field(map, parent, name);
    if (!node.IsDefined()) return {};
    const std::string field = fields::path(parent, name);
    if (node.IsScalar()) return {read_value(map, parent, name), provenance::stated, {}};
    if (!node.IsMap()) r_.fail(node, field, "expected a figure; write a quantity (2 TB/s) or {value: 2 TB/s, kind: measured, source: KEY}");
    r_.expect_map(node, field, {"value", "kind", "source"});
    figure<Q> f{read_value(node, field, "value")};
    const std::string kind = r_.optional_value(node, field, "kind");
    bool known = kind.empty();
    for (provenance p : {provenance::stated, provenance::derived, provenance::measured, provenance::unconfirmed}) {
      if (kind == to_string(p)) {
        f.kind = p;
        known = true;
      }
    }
    if (!known) {
      r_.fail(node["kind"], fields::path(field, "kind"),
              fields::not_one_of(kind, {"stated", "derived", "measured", "unconfirmed"}));
    }
    const std::string key = r_.optional_value(node, field, "source");
    if (!key.empty() && !cited(key)) {
      r_.fail(node["source"], fields::path(field, "source"), "\"" + key + "\" is in no list of sources");
    }
    f.source = out_.keep(key);
    if (!f.published()) r_.fail(node, field, "needs a value");
    return f;
  }

  // A figure of a field that holds measurements (measured_bandwidth, a ceiling's measured): measured where
  // written plainly or without a kind, and refused where its kind says otherwise (the datasheet's figure
  // has a field of its own).
  template <class Q>
  figure<Q> a_measurement(figure<Q> f, const YAML::Node& map, const std::string& parent, std::string_view name) {
    const YAML::Node node = r_.field(map, parent, name);
    if (!f.published()) return f;
    if (node.IsScalar() || !node["kind"].IsDefined()) f.kind = provenance::measured;
    refuse(node, fields::path(parent, name), "kind", detail::measurement_kind_problem(f.kind));
    return f;
  }

  template <class Q>
  figure<Q> a_figure(const YAML::Node& map, const std::string& parent, std::string_view name) {
    return a_figure<Q>(map, parent, name, [&](const YAML::Node& m, const std::string& p, std::string_view n) {
      const Q q = r_.quantity<Q>(m, p, n, true);
      if (!isfinite(q)) r_.fail(m[std::string{n}], fields::path(p, n), "must be finite");
      return q;
    });
  }

  // A memory's bandwidth: in bytes per second, a bit rate refused (hml::parse_options::rates_in_bytes).
  figure<data_rate> a_memory_bandwidth(const YAML::Node& map, const std::string& parent, std::string_view name) {
    return a_figure<data_rate>(map, parent, name, [&](const YAML::Node& m, const std::string& p, std::string_view n) {
      const data_rate q = r_.memory_bandwidth(m, p, n, true);
      if (!isfinite(q)) r_.fail(m[std::string{n}], fields::path(p, n), "must be finite");
      return q;
    });
  }

  figure<bytes_per_cycle> a_per_cycle_figure(const YAML::Node& map, const std::string& parent, std::string_view name) {
    return a_figure<bytes_per_cycle>(map, parent, name, [&](const YAML::Node& m, const std::string& p, std::string_view n) {
      return r_.per_cycle_rate(m, p, n, detail::path_rate_range);
    });
  }

  figure<per_direction> a_link_rate(const YAML::Node& map, const std::string& parent, std::string_view name) {
    const figure<data_rate> f = a_figure<data_rate>(map, parent, name);
    return {per_direction{f.value}, f.kind, f.source};
  }

  std::string_view text(const YAML::Node& map, const std::string& parent, std::string_view name, bool required) {
    const std::string value = r_.value(map, parent, name, required);
    // Names and notes go into tables, SVG and files, where they would not come out as they went in.
    if (!is_printable_utf8(value)) {
      r_.fail(map[std::string{name}], fields::path(parent, name), unprintable_part(value) + "; write printable UTF-8 text, on one line");
    }
    if (required && value.empty()) r_.fail(map[std::string{name}], fields::path(parent, name), "must not be empty");
    return out_.keep(value);
  }

  // A name is a label, bounded as a kernel's (100 kB was printed whole in a roofline's heading and a chart's title).
  std::string_view a_name(const YAML::Node& node, const std::string& field) {
    const std::string_view name = text(node, field, "name", true);
    if (name.size() > max_name_bytes) r_.fail(node["name"], fields::path(field, "name"), "longer than " + std::to_string(max_name_bytes) + " bytes; shorten it");
    return name;
  }

  // A machine's, link's or system's id, as options name it (a link "400GB/s" took --link's rate from it).
  std::string_view an_id(const YAML::Node& node, const std::string& field) {
    const std::string_view id = text(node, field, "id", true);
    if (const std::string problem = detail::id_problem(id); !problem.empty()) r_.fail(node["id"], fields::path(field, "id"), problem);
    return id;
  }

  // Two entries of one list that a text would name alike: the later one's figures no option would reach.
  template <class Entry>
  void refuse_alike(const std::vector<const Entry*>& earlier, const Entry& e, const YAML::Node& node, const std::string& field,
                    std::string_view list) {
    name_index& names = names_[std::string{list}];
    if (const auto [part, problem] = detail::entry_name_problem(std::span<const Entry* const>{earlier}, names, e, list); !problem.empty())
      r_.fail(node[std::string{part}], fields::path(field, part), problem);
    for (const std::string_view part : {e.id, e.name}) names.add(part, earlier.size());  // its place to be
  }

  void add_machine(const YAML::Node& node, const std::string& field) {
    if (!field.empty()) {
      r_.expect_map(node, field, machine_fields);
    }
    machine_description m{};
    m.id = an_id(node, field);
    m.name = a_name(node, field);
    m.note = text(node, field, "note", false);
    for (const machine_description* other : out_.machines) {
      if (other->id == m.id) r_.fail(node["id"], fields::path(field, "id"), "two machines with this id");
    }
    refuse_alike(out_.machines, m, node, field, "machines");
    m.cores = static_cast<unsigned>(r_.integer(node, field, "cores", 0, 1, most_cores));
    m.clock = a_figure<frequency>(node, field, "clock");
    refuse(node, field, "clock", detail::clock_problem(m.clock));
    m.kernel_overhead = a_figure<duration>(node, field, "kernel_overhead");
    // The catalog's are 4.1 to 4.7 us; 4.68 ms (a prefix slipped) made every decode step 300x its length.
    if (m.kernel_overhead.published() &&
        !(m.kernel_overhead.value >= 1e-9 * second && m.kernel_overhead.value <= 1e-3 * second)) {
      r_.fail(node["kernel_overhead"], fields::path(field, "kernel_overhead"),
              "must be from 1 ns to 1 ms (a kernel's fixed cost is microseconds), not " + round_trip_text(m.kernel_overhead.value));
    }
    m.attention_rate = a_figure<compute_rate>(node, field, "attention_rate");
    m.int4_weight_rate = a_memory_bandwidth(node, field, "int4_weight_rate");
    m.cacheline_bytes = r_.power_of_two_bytes(node, field, "cacheline", m.cacheline_bytes, 8, 4096);
    m.write_allocate = r_.boolean(node, field, "write_allocate", m.write_allocate);
    m.layer_condition_share = r_.number(node, field, "layer_condition_share", m.layer_condition_share, 1e-3, 1);
    m.llvm_cpu = text(node, field, "llvm_cpu", false);
    if (!is_llvm_cpu_name(m.llvm_cpu))
      r_.fail(node["llvm_cpu"], fields::path(field, "llvm_cpu"),
              "expected LLVM's name of a CPU, as clang's -march takes it (\"sandybridge\", \"znver4\"), not \"" +
                  std::string{m.llvm_cpu} + "\"");
    if (const YAML::Node ports = r_.field(node, field, "ports"); ports.IsDefined()) {
      const std::string at = fields::path(field, "ports");
      r_.expect_map(ports, at, {"loads_per_cycle", "stores_per_cycle", "memory_ops_per_cycle", "fma_per_cycle",
                                "add_per_cycle", "mul_per_cycle", "vector"});
      port_model& p = m.ports;
      const auto rate = [&](std::string_view name, double fallback, std::string_view none = {}) {  // none: 0 means it
        const double r = r_.number(ports, at, name, fallback, none.empty() ? port_model::least_rate : 0, port_model::most_rate);
        if (port_model::between_none_and_least(r)) r_.fail(ports[std::string{name}], fields::path(at, name), port_model::none_or_rate_advice(none));
        return r;
      };
      p.loads_per_cycle = rate("loads_per_cycle", p.loads_per_cycle);
      p.stores_per_cycle = rate("stores_per_cycle", p.stores_per_cycle);
      p.memory_ops_per_cycle = rate("memory_ops_per_cycle", p.memory_ops_per_cycle, "no shared limit");
      p.fma_per_cycle = rate("fma_per_cycle", p.fma_per_cycle, "no FMA unit");
      p.add_per_cycle = rate("add_per_cycle", p.add_per_cycle);
      p.mul_per_cycle = rate("mul_per_cycle", p.mul_per_cycle);
      p.vector_bytes = r_.power_of_two_bytes(ports, at, "vector", p.vector_bytes, 1, 4096);
    }
    const std::string memory_field = fields::path(field, "memory");
    const YAML::Node levels = r_.sequence(node, field, "memory", true, max_memory_levels);
    if (levels.size() == 0) r_.fail(levels, memory_field, "needs at least main memory");
    for (std::size_t i = 0; i < levels.size(); ++i) {
      m.memory.push_back(level(levels[i], fields::item(memory_field, i)));
      refuse(levels[i], fields::item(memory_field, i), "capacity", detail::capacity_problem(m.memory.back(), m.cacheline_bytes));
      const detail::field_problem rates = detail::level_bandwidths_problem(m.cores, m.clock, m.memory.back());
      refuse(levels[i], fields::item(memory_field, i), rates.field, rates.problem);
      // The path a level states leads into the level inside it: the first has none; main memory's is taken
      // half duplex, its measured stream mixes counting both directions already.
      const level_transfer& up = m.memory.back().upstream;
      if (i == 0 && !(up == level_transfer{}))
        r_.fail(levels[i]["upstream"], fields::path(fields::item(memory_field, i), "upstream"),
                "the first level has no level inside it; give the path on the level it comes from");
      if (i + 1 == levels.size() && up.full_duplex)
        r_.fail(levels[i]["upstream"], fields::path(fields::item(memory_field, i), "upstream.full_duplex"),
                "main memory's path is half duplex: its bandwidths already count reads and writes together");
      // A victim cache takes the lines a level inside it evicts: a cache outside another, not main memory.
      if (m.memory.back().victim && (i == 0 || i + 1 == levels.size()))
        r_.fail(levels[i]["victim"], fields::path(fields::item(memory_field, i), "victim"),
                i == 0 ? "the first level has no level inside it to take victims from"
                       : "main memory (the last level) is no cache: a victim cache is a cache level outside another");
      if (levels[i]["addressable"].IsDefined() && i + 1 == levels.size())  // false as well: it would be dropped
        r_.fail(levels[i]["addressable"], fields::path(fields::item(memory_field, i), "addressable"),
                "main memory (the last level) is addressable always: leave addressable out");
      if (const std::string problem = detail::level_order_problem(m.memory, i + 1 == levels.size(), memory_field);
          !problem.empty())
        r_.fail(levels[i], fields::item(memory_field, i), problem);
      if (const auto [at, problem] = detail::scope_order_problem(m.memory, i + 1 == levels.size(), memory_field, "scope: per core");
          !problem.empty())
        r_.fail(levels[at]["scope"].IsDefined() ? levels[at]["scope"] : levels[at], fields::path(fields::item(memory_field, at), "scope"), problem);
      if (const std::string problem = detail::level_name_problem(m.memory, memory_field); !problem.empty())
        r_.fail(levels[i]["name"], fields::path(fields::item(memory_field, i), "name"), problem);
    }

    if (const auto [at, problem] = detail::tiers_problem(m); !problem.empty())
      r_.fail(levels[at], fields::item(memory_field, at), problem);
    const std::string compute_field = fields::path(field, "compute");
    const YAML::Node ceilings = r_.sequence(node, field, "compute", false, max_compute_ceilings);
    for (std::size_t i = 0; i < ceilings.size(); ++i) {
      const std::string at = fields::item(compute_field, i);
      const ceiling_description c = ceiling(ceilings[i], at);
      for (const ceiling_description& other : m.compute) {
        if (other.kind() == c.kind() && other.variant == c.variant) {
          r_.fail(ceilings[i], at, "a second " + std::string{to_string(c.kind())} + " ceiling" +
                                       (c.variant.empty() ? "" : " \"" + std::string{c.variant} + "\""));
        }
      }
      refuse(ceilings[i], at, "dense", detail::peak_problem(m.cores, m.clock, c.dense));
      refuse(ceilings[i], at, "sparse", detail::peak_problem(m.cores, m.clock, c.sparse));
      m.compute.push_back(c);
    }

    // FlashAttention's rate is 16-bit tensor work: it cannot beat that peak, measured or stated, whichever a
    // model takes (above the measured one, the expected time would come out below the ideal bound).
    if (m.attention_rate.published()) {
      // Without a 16-bit tensor peak nothing bounds it, and no model takes it (the expected time takes it for
      // 16-bit attention on tensor units): a figure left unchecked and unused.
      if (find_ceiling(m, {precision::bf16, compute_unit::tensor}) == nullptr &&
          find_ceiling(m, {precision::fp16, compute_unit::tensor}) == nullptr)
        r_.fail(node["attention_rate"], fields::path(field, "attention_rate"),
                "the machine has no BF16 or FP16 tensor peak, whose work attention is; give that peak, or leave the "
                "attention rate out");
      for (precision p : {precision::bf16, precision::fp16}) {
        const ceiling_description* c = find_ceiling(m, {p, compute_unit::tensor});
        if (c == nullptr) continue;
        // A ceiling has a stated or a measured peak at least: the smaller and the larger of those it has.
        const compute_rate stated = c->dense.published() ? c->dense.value : c->measured.value;
        const compute_rate measured = c->measured.published() ? c->measured.value : c->dense.value;
        const compute_rate least = std::min(stated, measured);
        const compute_rate peak = std::max(stated, measured);
        if (m.attention_rate.value > least)
          r_.fail(node["attention_rate"], fields::path(field, "attention_rate"),
                  round_trip_text(m.attention_rate.value) + " is above the " + std::string{id_of(p)} + " tensor peak " +
                      round_trip_text(least) + (stated == measured ? "" : least == measured ? " (measured)" : " (stated)") +
                      ", whose work attention is");
        if (m.attention_rate.value < detail::least_share * peak)
          r_.fail(node["attention_rate"], fields::path(field, "attention_rate"),
                  round_trip_text(m.attention_rate.value) + " is less than 1 % of the " + std::string{id_of(p)} +
                      " tensor peak " + round_trip_text(peak) + ", whose work attention is: check the unit's prefix");
      }
    }

    const std::string mixes_field = fields::path(field, "memory_bandwidths");
    const YAML::Node mixes = r_.sequence(node, field, "memory_bandwidths", false, max_stream_mixes);
    for (std::size_t i = 0; i < mixes.size(); ++i) {
      const YAML::Node x = mixes[i];
      const std::string at = fields::item(mixes_field, i);
      r_.expect_map(x, at, {"kernel", "reads", "writes", "bandwidth", "write_allocate_counted", "non_temporal"});
      stream_mix_bandwidth mix{.kernel = text(x, at, "kernel", true)};
      mix.reads = static_cast<unsigned>(r_.integer(x, at, "reads", 0, 0, 64));
      mix.writes = static_cast<unsigned>(r_.integer(x, at, "writes", 0, 0, 64));
      if (mix.reads + mix.writes == 0) r_.fail(x, at, "needs reads or writes");
      mix.bandwidth = a_measurement(a_memory_bandwidth(x, at, "bandwidth"), x, at, "bandwidth");
      if (!mix.bandwidth.published()) r_.fail(x, fields::path(at, "bandwidth"), "missing");
      if (!m.memory.empty()) refuse(x, at, "bandwidth", detail::mix_problem(mix, m.memory.back()));
      refuse(x, at, "bandwidth", detail::bandwidth_problem(m.cores, m.clock, mix.bandwidth));
      mix.write_allocate_counted = r_.boolean(x, at, "write_allocate_counted", false);
      mix.non_temporal = r_.boolean(x, at, "non_temporal", false);
      m.memory_bandwidths.push_back(mix);
    }
    const std::string domains_field = fields::path(field, "domains");
    const YAML::Node domains = r_.sequence(node, field, "domains", false, max_domains);
    for (std::size_t i = 0; i < domains.size(); ++i) {
      const YAML::Node x = domains[i];
      const std::string at = fields::item(domains_field, i);
      r_.expect_map(x, at, {"name", "count", "cores", "last_cache", "memory_bandwidth"});
      m.domains.push_back({.name = a_name(x, at),
                           .count = static_cast<unsigned>(r_.integer(x, at, "count", 1, 1, most_cores)),
                           .cores = static_cast<unsigned>(r_.integer(x, at, "cores", 0, 1, most_cores)),
                           .last_cache = a_figure<data_size>(x, at, "last_cache"),
                           .memory_bandwidth = a_memory_bandwidth(x, at, "memory_bandwidth")});
      refuse(x, at, "cores", detail::domain_problem(m.cores, m.domains.back()));
      refuse(x, at, "memory_bandwidth", detail::bandwidth_problem(m.domains.back().cores, m.clock, m.domains.back().memory_bandwidth));
    }
    // Every model asks main memory's bandwidth: the level's own, a measurement, or the stream mixes'.
    const level_description& main = m.memory.back();
    if (!main.bandwidth.published() && !main.measured_bandwidth.published() && m.memory_bandwidths.empty()) {
      r_.fail(levels[levels.size() - 1], fields::item(memory_field, levels.size() - 1),
              "main memory (the last level) needs a bandwidth, a measured_bandwidth or memory_bandwidths");
    }
    const YAML::Node main_node = levels[levels.size() - 1];
    const std::string main_field = fields::item(memory_field, levels.size() - 1);
    refuse(main_node, main_field, "upstream", detail::main_memory_rate_problem(m));
    refuse(main_node, main_field, "scope", detail::main_memory_scope_problem(main));
    refuse(node, field, "int4_weight_rate", detail::int4_weight_rate_problem(m));
    out_.machines.push_back(&out_.machine_store.emplace_back(m));
  }

  level_description level(const YAML::Node& node, const std::string& field) {
    r_.expect_map(node, field, {"name", "capacity", "bandwidth", "write_bandwidth", "measured_bandwidth", "latency",
                                "scope", "interface", "upstream", "victim", "addressable"});
    level_description l{.name = a_name(node, field)};
    l.capacity = a_figure<data_size>(node, field, "capacity");
    l.bandwidth = a_memory_bandwidth(node, field, "bandwidth");
    l.write_bandwidth = a_memory_bandwidth(node, field, "write_bandwidth");
    l.measured_bandwidth = a_measurement(a_memory_bandwidth(node, field, "measured_bandwidth"), node, field, "measured_bandwidth");
    l.latency = a_figure<duration>(node, field, "latency");
    refuse(node, field, "latency", detail::latency_problem(l.latency, "a memory's latency is nanoseconds"));
    const std::string scope = r_.optional_value(node, field, "scope");
    if (scope == "per core") {
      l.scope = sharing::per_core;
    } else if (!scope.empty() && scope != "shared") {
      r_.fail(node["scope"], fields::path(field, "scope"), fields::not_one_of(scope, {"shared", "per core"}));
    }
    if (const YAML::Node i = r_.field(node, field, "interface"); i.IsDefined()) {
      const std::string at = fields::path(field, "interface");
      r_.expect_map(i, at, {"channels", "bus_bits", "pin_rate"});
      l.interface.channels = static_cast<unsigned>(r_.integer(i, at, "channels", 1, 1, 1024));
      l.interface.bus_bits = static_cast<unsigned>(r_.integer(i, at, "bus_bits", 0, 1, 1 << 16));
      l.interface.pin_rate = a_figure<data_rate>(i, at, "pin_rate");
    }
    if (const YAML::Node u = r_.field(node, field, "upstream"); u.IsDefined()) {
      const std::string at = fields::path(field, "upstream");
      if (u.IsScalar()) r_.fail(u, at, "expected a mapping of fields; write a path's rate in it, as upstream: {rate: 32 B/cy}");
      r_.expect_map(u, at, {"rate", "overlaps", "full_duplex"});
      l.upstream.rate = a_per_cycle_figure(u, at, "rate");
      refuse(u, at, "rate", detail::path_rate_problem(l.upstream.rate));
      l.upstream.overlaps = r_.boolean(u, at, "overlaps", false);
      l.upstream.full_duplex = r_.boolean(u, at, "full_duplex", false);
    }
    l.victim = r_.boolean(node, field, "victim", false);
    l.addressable = r_.boolean(node, field, "addressable", false);
    refuse(node, field, "addressable", detail::addressable_problem(l));
    refuse(node, field, "measured_bandwidth", detail::measured_problem(l.measured_bandwidth, l.bandwidth));
    refuse(node, field, "write_bandwidth", detail::write_bandwidth_problem(l));
    refuse(node, field, "interface", detail::interface_problem(l));
    return l;
  }

  // One of :machine_checks' problems, at its field; none: nothing.
  void refuse(const YAML::Node& node, const std::string& field, std::string_view name, const std::string& problem) {
    if (!problem.empty()) r_.fail(node[std::string{name}], fields::path(field, name), problem);
  }

  ceiling_description ceiling(const YAML::Node& node, const std::string& field) {
    r_.expect_map(node, field, {"precision", "unit", "dense", "sparse", "measured", "variant"});
    ceiling_description c{};
    const std::string type = r_.scalar(node, field, "precision", true);
    bool known = false;
    std::vector<std::string_view> ids;
    for (precision p : all_precisions) {
      ids.push_back(id_of(p));
      if (type == id_of(p)) {
        c.type = p;
        known = true;
      }
    }
    if (!known) r_.fail(node["precision"], fields::path(field, "precision"), fields::not_one_of(type, ids));
    const std::string unit = r_.optional_value(node, field, "unit");
    if (unit == "tensor") {
      c.unit = compute_unit::tensor;
    } else if (!unit.empty() && unit != "vector") {
      r_.fail(node["unit"], fields::path(field, "unit"), fields::not_one_of(unit, {"vector", "tensor"}));
    }
    c.dense = a_figure<compute_rate>(node, field, "dense");
    c.sparse = a_figure<compute_rate>(node, field, "sparse");
    c.measured = a_measurement(a_figure<compute_rate>(node, field, "measured"), node, field, "measured");
    c.variant = text(node, field, "variant", false);
    if (!c.dense.published() && !c.measured.published()) r_.fail(node, field, "needs a dense or a measured peak");
    if (c.sparse.published() && c.dense.published() && c.sparse.value < c.dense.value)
      r_.fail(node["sparse"], fields::path(field, "sparse"),
              "below the dense peak " + round_trip_text(c.dense.value) + ": sparsity skips work, it does not add any");
    refuse(node, field, "measured", detail::measured_problem(c.measured, c.dense));
    return c;
  }

  void add_link(const YAML::Node& node, const std::string& field) {
    r_.expect_map(node, field, {"id", "name", "bandwidth", "mode", "latency", "measured_to_device",
                                "measured_from_device", "nvls_bus_bandwidth", "note"});
    link_description l{.id = an_id(node, field), .name = a_name(node, field)};
    for (const link_description* other : out_.links) {
      if (other->id == l.id) r_.fail(node["id"], fields::path(field, "id"), "two links with this id");
    }
    refuse_alike(out_.links, l, node, field, "links");
    l.bandwidth = a_link_rate(node, field, "bandwidth");
    if (!l.bandwidth.published()) r_.fail(node, fields::path(field, "bandwidth"), "missing");
    const std::string mode = r_.optional_value(node, field, "mode");
    if (mode == "half") {
      l.mode = duplex::half;
    } else if (!mode.empty() && mode != "full") {
      r_.fail(node["mode"], fields::path(field, "mode"), fields::not_one_of(mode, {"full", "half"}));
    }
    l.latency = a_figure<duration>(node, field, "latency");
    refuse(node, field, "latency", detail::latency_problem(l.latency, "a message's latency is microseconds"));
    l.measured_to_device = a_measurement(a_link_rate(node, field, "measured_to_device"), node, field, "measured_to_device");
    l.measured_from_device = a_measurement(a_link_rate(node, field, "measured_from_device"), node, field, "measured_from_device");
    // Each way's measurement is held against the rate a direction as every measured figure is.
    const auto rate = [](const figure<per_direction>& f) { return figure<data_rate>{f.value.rate, f.kind, f.source}; };
    refuse(node, field, "measured_to_device", detail::measured_problem(rate(l.measured_to_device), rate(l.bandwidth)));
    refuse(node, field, "measured_from_device", detail::measured_problem(rate(l.measured_from_device), rate(l.bandwidth)));
    l.nvls_bus_bandwidth = a_figure<data_rate>(node, field, "nvls_bus_bandwidth");
    // NVLS's bus bandwidth counts 2 (n - 1) / n of the data over a link that carries it once: below 2x the rate.
    if (const data_rate nvls = l.nvls_bus_bandwidth.value, one_way = l.bandwidth.value.rate;
        l.nvls_bus_bandwidth.published() && !(nvls <= 2 * one_way && nvls >= 0.01 * one_way))
      r_.fail(node["nvls_bus_bandwidth"], fields::path(field, "nvls_bus_bandwidth"),
              round_trip_text(nvls) + " is outside 1 % to 2x of the link's " + round_trip_text(one_way) +
                  " a direction (a bus bandwidth counts at most twice what crosses a link)");
    l.note = text(node, field, "note", false);
    out_.links.push_back(&out_.link_store.emplace_back(l));
  }

  void add_system(const YAML::Node& node, const std::string& field) {
    r_.expect_map(node, field, {"id", "name", "host", "device", "joined_by", "note"});
    system_description s{.id = an_id(node, field), .name = a_name(node, field)};
    for (const system_description* other : out_.systems) {
      if (other->id == s.id) r_.fail(node["id"], fields::path(field, "id"), "two systems with this id");
    }
    refuse_alike(out_.systems, s, node, field, "systems");
    // The file's machine or link of that id or name, else the catalog's (hml::choose_entry), as a round trip
    // through the writer, which writes its id, names it again.
    const auto entry = [&]<class Entry>(std::string_view part, const std::vector<const Entry*>& own, std::span<const Entry* const> catalog,
                                        std::string_view what) -> const Entry* {
      const std::string text = r_.scalar(node, field, part, true);
      const auto chosen = choose_entry(text, std::span<const Entry* const>{own}, catalog, &names_[std::string{what} + "s"]);
      if (chosen.ambiguous != nullptr)
        r_.fail(node[std::string{part}], fields::path(field, part), ambiguity_problem(text, chosen, "the file's " + std::string{what}));
      if (chosen.entry == nullptr)
        r_.fail(node[std::string{part}], fields::path(field, part), "no " + std::string{what} + " \"" + message_text(text) + "\" in the file or the catalog");
      return chosen.entry;
    };
    s.host = entry("host", out_.machines, std::span<const machine_description* const>{machines::all}, "machine");
    s.device = entry("device", out_.machines, std::span<const machine_description* const>{machines::all}, "machine");
    if (!r_.optional_value(node, field, "joined_by").empty())
      s.joined_by = entry("joined_by", out_.links, std::span<const link_description* const>{systems::links}, "link");
    // One machine is one memory pool (MI300A, Xeon Max in flat mode): a link joins two.
    if (s.joined_by != nullptr && s.host == s.device)
      r_.fail(node["joined_by"], fields::path(field, "joined_by"),
              "host and device are one machine, one memory pool: leave joined_by out, or give two machines");
    if (s.joined_by == nullptr && s.host != s.device)
      r_.fail(node, fields::path(field, "joined_by"),
              "missing: host and device are two machines, two memory pools; give the link that joins them");
    s.note = text(node, field, "note", false);
    out_.systems.push_back(&out_.system_store.emplace_back(s));
  }

  fields r_;
  machine_file::storage& out_;
  std::map<std::string, name_index> names_;  // each list's, kept by refuse_alike
};

}  // namespace

machine_file read_machine_file(std::string_view text, std::string_view file) {
  auto out = std::make_unique<machine_file::storage>();
  out->file = std::string{file};
  try {
    machine_reader{file, *out}.read(text);
  } catch (const YAML::Exception& e) {
    // yaml-cpp reports what it cannot convert with an exception of its own; it becomes one line too.
    throw machine_file_error(std::string{file} + ":" + std::to_string(e.mark.line + 1) + ": " + e.msg);
  }
  return machine_file{std::move(out)};
}

bool is_machine_file(std::string_view text) {
  try {
    const YAML::Node root = YAML::Load(std::string{text});
    return root.IsMap() && root["format"].IsDefined();
  } catch (const YAML::Exception&) {
    // Broken YAML that names the format (a tab in its indentation) is a machine file to report on, with
    // the YAML error and its line, not an older JSON device file that "is not JSON".
    return text.find("hml-machine/") != std::string_view::npos;
  }
}

}  // namespace hml
