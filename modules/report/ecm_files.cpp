// hml.report:ecm_files's readers (see ecm_files.cppm), with yaml-cpp in the global module fragment.
module;
#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <initializer_list>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>

#include <yaml-cpp/yaml.h>
module hml.report;
import hml.ecm;
import :yaml_fields;
import :machine_checks;

namespace hml {

struct loaded_cpu::storage {
  std::deque<std::string> text;  // a deque never moves its strings, so views of them stay valid
  machine_description cpu{};
  std::string_view keep(std::string s) { return text.emplace_back(std::move(s)); }
};
loaded_cpu::loaded_cpu(std::unique_ptr<storage> state) : state_{std::move(state)} {}
loaded_cpu::loaded_cpu(loaded_cpu&&) noexcept = default;
loaded_cpu& loaded_cpu::operator=(loaded_cpu&&) noexcept = default;
loaded_cpu::~loaded_cpu() = default;
const machine_description& loaded_cpu::cpu() const noexcept { return state_->cpu; }

loaded_kernel::loaded_kernel(std::unique_ptr<storage> state) : state_{std::move(state)} {}
loaded_kernel::loaded_kernel(loaded_kernel&&) noexcept = default;
loaded_kernel& loaded_kernel::operator=(loaded_kernel&&) noexcept = default;
loaded_kernel::~loaded_kernel() = default;
const loop_kernel& loaded_kernel::kernel() const noexcept { return state_->kernel; }

namespace {

using yaml_reader = detail::yaml_fields<ecm_file_error>;

}  // namespace

namespace {
// A machine's id from its file's name, as the machine file takes ids: "skx-6148.yml" is skx_6148.
std::string id_from_file_name(std::string_view file) {
  std::string_view stem = file.substr(file.find_last_of('/') == std::string_view::npos ? 0 : file.find_last_of('/') + 1);
  stem = stem.substr(0, stem.find('.'));
  std::string id;
  for (const char c : stem) {
    const bool keep = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
    id += keep ? c : (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : '_';
  }
  return id.empty() ? "machine" : id;
}

loaded_cpu machine_from_yaml(std::string_view text, std::string_view file) {
  auto out = std::make_unique<loaded_cpu::storage>();
  const yaml_reader r{file};
  const YAML::Node root = r.load(text);
  r.expect_map(root, "",
               {"name", "id", "clock", "cores", "cacheline size", "write-allocate", "layer condition share",
                "FP64 FLOP per cycle", "ports", "memory hierarchy", "memory bandwidths"});
  machine_description& m = out->cpu;
  m.name = out->keep(r.scalar(root, "", "name", true));
  if (!is_printable_utf8(m.name)) r.fail(root["name"], "name", unprintable_part(m.name) + "; write printable UTF-8 text, on one line");
  m.id = out->keep(r.scalar(root, "", "id", false));
  if (const std::string problem = m.id.empty() ? std::string{} : detail::id_problem(m.id); !problem.empty())
    r.fail(root["id"], "id", problem);  // as the machine file refuses it, which this one converts to
  if (m.id.empty()) m.id = out->keep(id_from_file_name(file));  // so that it converts to a machine file
  m.clock = stated(r.quantity<frequency>(root, "", "clock", true));
  m.cores = static_cast<unsigned>(r.integer(root, "", "cores", 0, 1, max_cores));
  if (m.cores == 0) r.fail(root, "cores", "missing");
  if (const std::string problem = detail::clock_problem(m.clock); !problem.empty()) r.fail(root["clock"], "clock", problem);
  m.cacheline_bytes = r.power_of_two_bytes(root, "", "cacheline size", 64, 8, 4096);  // as a machine file's
  m.write_allocate = r.boolean(root, "", "write-allocate", true);
  m.layer_condition_share = r.number(root, "", "layer condition share", 0.5, 1e-3, 1);
  const double flop_per_cycle = r.number(root, "", "FP64 FLOP per cycle", 0, 1e-3, 1e4);  // absent: 0, no peak
  if (flop_per_cycle > 0) {
    m.compute.push_back({.type = precision::fp64, .dense = derived_peak(m.cores, m.clock, flop_per_cycle)});
    if (const std::string problem = detail::peak_problem(m.cores, m.clock, m.compute.back().dense); !problem.empty())
      r.fail(root["FP64 FLOP per cycle"], "FP64 FLOP per cycle", problem);
  }

  if (const YAML::Node ports = r.field(root, "", "ports"); ports.IsDefined()) {
    r.expect_map(ports, "ports", {"loads", "stores", "FMA", "ADD", "MUL", "vector bytes", "loads and stores"});
    const auto rate = [&](std::string_view name, double fallback, std::string_view none = {}) {  // none: 0 means it
      const double value = r.number(ports, "ports", name, fallback, none.empty() ? port_model::least_rate : 0, port_model::most_rate);
      if (port_model::between_none_and_least(value))
        r.fail(ports[std::string{name}], "ports." + std::string{name}, port_model::none_or_rate_advice(none));
      return value;
    };
    m.ports.loads_per_cycle = rate("loads", m.ports.loads_per_cycle);
    m.ports.stores_per_cycle = rate("stores", m.ports.stores_per_cycle);
    m.ports.fma_per_cycle = rate("FMA", m.ports.fma_per_cycle, "no FMA unit");
    m.ports.add_per_cycle = rate("ADD", m.ports.add_per_cycle);
    m.ports.mul_per_cycle = rate("MUL", m.ports.mul_per_cycle);
    m.ports.vector_bytes = static_cast<std::size_t>(r.integer(ports, "ports", "vector bytes", 32, 1, 4096));
    if (!std::has_single_bit(m.ports.vector_bytes))  // as a machine file's `vector`: it converts to one
      r.fail(ports["vector bytes"], "ports.vector bytes",
             detail::not_a_power_of_two(m.ports.vector_bytes, ""));
    m.ports.memory_ops_per_cycle = rate("loads and stores", 0, "no shared limit");
  }

  const YAML::Node levels = r.sequence(root, "", "memory hierarchy", true, max_memory_levels);
  if (levels.size() < 2) r.fail(levels, "memory hierarchy", "needs at least one cache level and main memory");
  for (std::size_t i = 0; i < levels.size(); ++i) {
    const YAML::Node l = levels[i];
    const std::string field = yaml_reader::item("memory hierarchy", i);
    r.expect_map(l, field, {"level", "size", "shared", "bandwidth", "upstream throughput", "transfers overlap", "full duplex",
                             "victim cache"});
    const bool last = i + 1 == levels.size();
    level_description level{.name = out->keep(r.scalar(l, field, "level", true))};
    if (!is_printable_utf8(level.name))
      r.fail(l["level"], yaml_reader::path(field, "level"), unprintable_part(level.name) + "; write printable UTF-8 text, on one line");
    level.capacity = stated(r.quantity<data_size>(l, field, "size", !last));
    if (const std::string problem = detail::capacity_problem(level, m.cacheline_bytes); !problem.empty())
      r.fail(l["size"], yaml_reader::path(field, "size"), problem);
    level.bandwidth = stated(r.memory_bandwidth(l, field, "bandwidth", false));
    level.scope = r.boolean(l, field, "shared", last) ? sharing::shared : sharing::per_core;
    level.upstream = {.rate = stated(r.per_cycle_rate(l, field, "upstream throughput", detail::path_rate_range)),
                      .overlaps = r.boolean(l, field, "transfers overlap", false),
                      .full_duplex = r.boolean(l, field, "full duplex", false)};
    if (i == 0 && level.upstream.rate.published())
      r.fail(l["upstream throughput"], yaml_reader::path(field, "upstream throughput"),
             "the first level has no level inside it; give the rate on the level it comes from");
    if (i == 0 && (level.upstream.full_duplex || level.upstream.overlaps)) {
      const char* key = level.upstream.full_duplex ? "full duplex" : "transfers overlap";
      r.fail(l[key], yaml_reader::path(field, key), "the first level has no level inside it; give the path on the level it comes from");
    }
    if (last && level.upstream.full_duplex)
      r.fail(l["full duplex"], yaml_reader::path(field, "full duplex"),
             "main memory's path is half duplex: its bandwidths already count reads and writes together");
    level.victim = r.boolean(l, field, "victim cache", false);
    if (level.victim && (i == 0 || last))
      r.fail(l["victim cache"], yaml_reader::path(field, "victim cache"),
             i == 0 ? "the first level has no level inside it to take victims from"
                    : "main memory (the last level) is no cache: a victim cache is a cache level outside another");
    // Main memory is shared by the cores; only caches may be a core's own.
    if (last && l["shared"].IsDefined() && level.scope == sharing::per_core)
      r.fail(l["shared"], yaml_reader::path(field, "shared"), "main memory (the last level) is shared by the cores; leave shared out");
    if (const auto [name, problem] = detail::level_bandwidths_problem(m.cores, m.clock, level); !problem.empty())
      r.fail(l[std::string{name}], yaml_reader::path(field, name), problem);
    if (const std::string problem = detail::path_rate_problem(level.upstream.rate); !problem.empty())
      r.fail(l["upstream throughput"], yaml_reader::path(field, "upstream throughput"), problem);
    m.memory.push_back(level);
    if (const std::string problem = detail::level_order_problem(m.memory, last, "memory hierarchy"); !problem.empty())
      r.fail(l, field, problem);
    if (const std::string problem = detail::level_name_problem(m.memory, "memory hierarchy"); !problem.empty())
      r.fail(l["level"], yaml_reader::path(field, "level"), problem);
    if (const auto [at, problem] = detail::scope_order_problem(m.memory, last, "memory hierarchy", "shared: false"); !problem.empty()) {
      const YAML::Node shared = levels[at]["shared"];
      r.fail(shared.IsDefined() ? shared : levels[at], yaml_reader::path(yaml_reader::item("memory hierarchy", at), "shared"), problem);
    }
  }

  const YAML::Node mixes = r.sequence(root, "", "memory bandwidths", false, max_stream_mixes);
  if (mixes.IsDefined()) {
    for (std::size_t i = 0; i < mixes.size(); ++i) {
      const YAML::Node x = mixes[i];
      const std::string field = yaml_reader::item("memory bandwidths", i);
      r.expect_map(x, field,
                   {"kernel", "read streams", "write streams", "bandwidth", "write-allocate counted", "non-temporal stores"});
      stream_mix_bandwidth mix{.kernel = out->keep(r.scalar(x, field, "kernel", true))};
      mix.reads = static_cast<unsigned>(r.integer(x, field, "read streams", 0, 0, 64));
      mix.writes = static_cast<unsigned>(r.integer(x, field, "write streams", 0, 0, 64));
      if (mix.reads + mix.writes == 0) r.fail(x, field, "needs read streams or write streams");
      // Not held against main memory's bandwidth: this format does not say whether that is the datasheet's or
      // (as in kerncraft's files and hml's earlier probes) a measurement, and two measurements may lie apart.
      mix.bandwidth = measured(r.memory_bandwidth(x, field, "bandwidth", true));
      if (const std::string problem = detail::bandwidth_problem(m.cores, m.clock, mix.bandwidth); !problem.empty())
        r.fail(x["bandwidth"], yaml_reader::path(field, "bandwidth"), problem);
      mix.write_allocate_counted = r.boolean(x, field, "write-allocate counted", false);
      mix.non_temporal = r.boolean(x, field, "non-temporal stores", false);
      m.memory_bandwidths.push_back(mix);
    }
  }

  const YAML::Node main_node = levels[levels.size() - 1];
  if (const std::string problem = detail::main_memory_rate_problem(m); !problem.empty())
    r.fail(main_node["upstream throughput"], yaml_reader::path(yaml_reader::item("memory hierarchy", levels.size() - 1),
                                                               "upstream throughput"), problem);
  // Every path needs a rate: per cycle, or the level's bandwidth (main memory: or a measured mix).
  for (std::size_t i = 1; i < m.memory.size(); ++i) {
    const bool last = i + 1 == m.memory.size();
    if (has_path_rate(m, i))
      continue;
    r.fail(levels[i], yaml_reader::item("memory hierarchy", i),
           last ? "main memory needs a bandwidth or memory bandwidths" : "needs an upstream throughput or a bandwidth");
  }
  // validate_ecm's rule for the fastest level, said of its field: the older file is the ECM model's own.
  if (m.memory[0].scope == sharing::shared && m.cores != 1) {
    const YAML::Node shared = levels[0]["shared"];
    r.fail(shared.IsDefined() ? shared : levels[0], yaml_reader::path(yaml_reader::item("memory hierarchy", 0), "shared"),
           "\"" + std::string{m.memory[0].name} + "\" is shared by the cores, and the ECM model starts in each core's own first cache; "
           "give it shared: false, or describe the levels from L1");
  }
  try {
    validate_ecm(m);
  } catch (const std::invalid_argument& e) {
    r.fail(root, "", e.what());
  }
  return loaded_cpu{std::move(out)};
}

loaded_kernel kernel_from_yaml(std::string_view text, std::string_view file) {
  auto out = std::make_unique<loaded_kernel::storage>();
  const yaml_reader r{file};
  const YAML::Node root = r.load(text);
  r.expect_map(root, "", {"name", "element size", "loops", "arrays", "accesses", "flops"});
  loop_kernel& k = out->kernel;
  k.name = out->keep(r.scalar(root, "", "name", true));
  if (!is_printable_utf8(k.name)) r.fail(root["name"], "name", unprintable_part(k.name) + "; write printable UTF-8 text, on one line");
  const auto element = static_cast<std::size_t>(r.integer(root, "", "element size", 8, 1, 64));
  // C's element types, which a cache line holds whole: 1, 2, 4, 8, 16, 32 or 64 bytes.
  if (!std::has_single_bit(element))
    r.fail(root["element size"], "element size", detail::not_a_power_of_two(element, ""));

  const YAML::Node loops = r.sequence(root, "", "loops", true, max_loop_dimensions);
  if (loops.size() == 0) r.fail(loops, "loops", "needs 1 to 3 extents");
  k.dimensions = loops.size();
  for (std::size_t d = 0; d < k.dimensions; ++d) k.extents[d] = r.integer(loops[d], yaml_reader::item("loops", d), 1, std::int64_t{1} << 40);

  const auto extents_of = [&](const YAML::Node& map, const std::string& field, std::string_view name,
                              std::int64_t low, std::int64_t high, const index_vector& fallback) {
    if (const YAML::Node given = r.field(map, field, name); !given.IsDefined()) return fallback;
    const YAML::Node list = r.sequence(map, field, name, false, max_loop_dimensions);
    const std::string where = yaml_reader::path(field, name);
    if (list.size() != k.dimensions) r.fail(list, where, "needs one entry per loop (" + std::to_string(k.dimensions) + ")");
    index_vector v{};
    for (std::size_t d = 0; d < k.dimensions; ++d) v[d] = r.integer(list[d], yaml_reader::item(where, d), low, high);
    return v;
  };

  const YAML::Node arrays = r.sequence(root, "", "arrays", true, max_kernel_arrays);
  if (arrays.size() == 0) r.fail(arrays, "arrays", "needs at least one array");
  for (std::size_t i = 0; i < arrays.size(); ++i) {
    const YAML::Node a = arrays[i];
    const std::string field = yaml_reader::item("arrays", i);
    r.expect_map(a, field, {"name", "extents", "stores", "stride"});
    kernel_array array{.name = out->keep(r.scalar(a, field, "name", true)), .element_bytes = element};
    array.extents = extents_of(a, field, "extents", 1, std::int64_t{1} << 40, k.extents);
    if (array_elements(k, array) > max_array_elements) {
      // Its extents, or the loops' where it takes theirs.
      const YAML::Node given = a["extents"];
      r.fail(given.IsDefined() ? given : a, yaml_reader::path(field, given.IsDefined() ? "extents" : "extents (the loops')"),
             "an array has at most 2^36 elements; these extents make more");
    }
    array.stride = r.integer(a, field, "stride", 1, 1, max_stride);
    const std::string stores = r.optional_value(a, field, "stores");
    if (stores == "non-temporal") {
      array.stores = store_kind::non_temporal;
    } else if (!stores.empty() && stores != "normal") {
      r.fail(a["stores"], yaml_reader::path(field, "stores"), yaml_reader::not_one_of(stores, {"normal", "non-temporal"}));
    }
    for (const kernel_array& other : k.arrays)
      if (other.name == array.name) r.fail(a, yaml_reader::path(field, "name"), "two arrays named \"" + std::string{array.name} + "\"");
    k.arrays.push_back(array);
  }

  const YAML::Node accesses = r.sequence(root, "", "accesses", true, max_kernel_accesses);
  if (accesses.size() == 0) r.fail(accesses, "accesses", "needs at least one access");
  for (std::size_t i = 0; i < accesses.size(); ++i) {
    const YAML::Node x = accesses[i];
    const std::string field = yaml_reader::item("accesses", i);
    r.expect_map(x, field, {"array", "kind", "offset"});
    const std::string name = r.scalar(x, field, "array", true);
    array_access access{};
    bool found = false;
    for (std::size_t a = 0; a < k.arrays.size(); ++a)
      if (k.arrays[a].name == name) {
        access.array = a;
        found = true;
      }
    if (!found) r.fail(x["array"], yaml_reader::path(field, "array"), "no array named \"" + name + "\"");
    const std::string kind = r.scalar(x, field, "kind", true);
    if (kind == "write") {
      access.kind = access_kind::write;
    } else if (kind != "read") {
      r.fail(x["kind"], yaml_reader::path(field, "kind"), yaml_reader::not_one_of(kind, {"read", "write"}));
    }
    access.offset = extents_of(x, field, "offset", 1 - (std::int64_t{1} << 16), (std::int64_t{1} << 16) - 1, index_vector{});
    // Counted twice, it would be two loads in the core's time where the C reader, as kerncraft, makes it one.
    for (std::size_t j = 0; j < k.accesses.size(); ++j) {
      const array_access& earlier = k.accesses[j];
      if (earlier.array == access.array && earlier.kind == access.kind && earlier.offset == access.offset)
        r.fail(x, field, "the access of " + yaml_reader::item("accesses", j) + " again; an element " +
                             (kind == "write" ? "written" : "read") + " twice in an iteration is one " + kind +
                             " (as C's are counted): list it once");
    }
    k.accesses.push_back(access);
  }

  if (const YAML::Node flops = r.field(root, "", "flops"); flops.IsDefined()) {
    r.expect_map(flops, "flops", {"add", "mul", "fma", "div"});
    k.flops.add = static_cast<unsigned>(r.integer(flops, "flops", "add", 0, 0, 1 << 16));
    k.flops.mul = static_cast<unsigned>(r.integer(flops, "flops", "mul", 0, 0, 1 << 16));
    k.flops.fma = static_cast<unsigned>(r.integer(flops, "flops", "fma", 0, 0, 1 << 16));
    k.flops.div = static_cast<unsigned>(r.integer(flops, "flops", "div", 0, 0, 1 << 16));
  }
  for (std::size_t a = 0; a < k.arrays.size(); ++a) {
    // An array no access names would be counted a stream of its own (the C reader leaves such an array out).
    if (std::ranges::none_of(k.accesses, [&](const array_access& x) { return x.array == a; }))
      r.fail(arrays[a]["name"], yaml_reader::path(yaml_reader::item("arrays", a), "name"),
             "array \"" + std::string{k.arrays[a].name} +
                 "\" has no access; a loop that never reads or writes it moves none of its lines: remove it");
    // Non-temporal stores are how an array is written; on an array the loop only reads they would say nothing.
    if (k.arrays[a].stores == store_kind::non_temporal && !is_written(k, a))
      r.fail(arrays[a]["stores"], yaml_reader::path(yaml_reader::item("arrays", a), "stores"),
             "array \"" + std::string{k.arrays[a].name} +
                 "\" is only read, so it has no stores to make non-temporal; leave stores out, or write it in an access");
    for (std::size_t d = 0; d < k.dimensions; ++d) {
      if (const std::int64_t reached = reach(k, a, d); reached > k.arrays[a].extents[d]) {
        const YAML::Node given = arrays[a]["extents"];
        r.fail(given.IsDefined() ? given : arrays[a], yaml_reader::item(yaml_reader::item("arrays", a) + ".extents", d),
               "array \"" + std::string{k.arrays[a].name} + "\" has " + std::to_string(k.arrays[a].extents[d]) +
                   (k.arrays[a].extents[d] == 1 ? " element" : " elements") + " here, but the loop's " + std::to_string(k.extents[d]) + " iterations" +
                   (loop_start(k, d) > 0 ? " from index " + std::to_string(loop_start(k, d)) + " (its most negative offset's)" : "") +
                   " with its offsets reach " + std::to_string(reached) + "; make the array larger or the loop shorter");
      }
    }
  }
  try {
    validate(k);
  } catch (const std::invalid_argument& e) {
    r.fail(root, "", e.what());
  }
  return loaded_kernel{std::move(out)};
}

// yaml-cpp reports what it cannot convert with an exception of its own; it becomes one line too.
template <class Read>
auto guarded(std::string_view file, Read read) {
  try {
    return read();
  } catch (const YAML::Exception& e) {
    throw ecm_file_error(std::string{file} + ":" + std::to_string(e.mark.line + 1) + ": " + e.msg);
  }
}
}  // namespace

loaded_cpu read_machine_yaml(std::string_view text, std::string_view file) {
  return guarded(file, [&] { return machine_from_yaml(text, file); });
}
loaded_kernel read_kernel_yaml(std::string_view text, std::string_view file) {
  return guarded(file, [&] { return kernel_from_yaml(text, file); });
}

}  // namespace hml
