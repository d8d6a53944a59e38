// hml.report:device_file's reader (see device_file.cppm), with nlohmann-json in the global module fragment.
module;
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <deque>
#include <initializer_list>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>
#include <yaml-cpp/yaml.h>
module hml.report;
import :yaml_fields;
import hml.spelling;
import :syntax_errors;
import :machine_checks;

namespace hml {

struct loaded_device::storage {
  std::deque<std::string> text;  // a deque never moves its strings, so views of them stay valid
  std::vector<source> sources;
  device machine{};
  const device* list[1] = {nullptr};

  std::string_view keep(std::string s) { return text.emplace_back(std::move(s)); }
};

loaded_device::loaded_device(std::unique_ptr<storage> state) : state_{std::move(state)} {}
loaded_device::loaded_device(loaded_device&&) noexcept = default;
loaded_device& loaded_device::operator=(loaded_device&&) noexcept = default;
loaded_device::~loaded_device() = default;

const device& loaded_device::machine() const noexcept { return state_->machine; }
std::span<const source> loaded_device::sources() const noexcept { return state_->sources; }
std::span<const device* const> loaded_device::as_list() const noexcept { return state_->list; }

namespace {

using json = nlohmann::json;

// A field's problem, before read_device_json puts the file and the field's line in front of it.
struct field_problem {
  std::string field, problem;
};

[[noreturn]] void fail(const std::string& field, const std::string& problem) { throw field_problem{field, problem}; }

// A value as the machine file's reader shows it in a message: text in double quotes, a number, a boolean or
// null as written, a list or an object by its kind.
std::string shown(const json& j) {
  if (j.is_string()) return "the text \"" + hml::message_text(j.get_ref<const std::string&>()) + "\"";
  if (j.is_array()) return "a list";
  if (j.is_object()) return "an object";
  return hml::message_text(j.dump());
}

// Only these fields, so that a misspelt one is an error rather than a figure silently left out.
void expect_fields(const json& object, const std::string& field, std::initializer_list<std::string_view> known) {
  if (!object.is_object()) {
    fail(field.empty() ? "the top level" : field, "expected an object, not " + shown(object));
  }
  for (const auto& [name, value] : object.items()) {
    if (std::ranges::find(known, name) == known.end()) {
      fail(field.empty() ? hml::message_text(name) : field + "." + hml::message_text(name),
           "unknown field; " + hml::spelling_hint(name, std::span<const std::string_view>{known.begin(), known.size()}));
    }
  }
}

std::string path(const std::string& parent, std::string_view name) {
  return parent.empty() ? std::string{name} : parent + "." + std::string{name};
}

class reader {
public:
  explicit reader(loaded_device::storage& out) : out_{out} {}

  std::string_view text(const json& object, const std::string& parent, std::string_view name, bool required) {
    const std::string field = path(parent, name);
    if (!object.contains(name)) {
      if (required) fail(field, "missing; add it");
      return {};
    }
    const json& value = object.at(std::string{name});
    if (!value.is_string()) fail(field, "expected a string, not " + shown(value));
    const auto& s = value.get_ref<const std::string&>();
    if (required && s.empty()) fail(field, "must not be empty");
    if (!is_printable_utf8(s)) fail(field, unprintable_part(s) + "; write printable UTF-8 text, on one line");
    return out_.keep(s);
  }

  unsigned count(const json& object, const std::string& parent, std::string_view name, unsigned fallback,
                 unsigned least, unsigned most = 1'000'000) {
    const std::string field = path(parent, name);
    if (!object.contains(name)) return fallback;
    const json& value = object.at(std::string{name});
    if (!value.is_number_integer()) {
      // A whole number in quotes is text, as the machine file's reader says.
      const bool digits = value.is_string() && !value.get_ref<const std::string&>().empty() &&
                          std::ranges::all_of(value.get_ref<const std::string&>(), [](char c) { return c >= '0' && c <= '9'; });
      fail(field, "expected a whole number, not " + shown(value) + (digits ? "; write it without quotes" : "; write one, as 8"));
    }
    const auto n = value.get<std::int64_t>();
    if (n < least || n > most) {
      fail(field, std::to_string(n) + " is outside [" + std::to_string(least) + ", " + std::to_string(most) +
                      "]; write a number within it");
    }
    return static_cast<unsigned>(n);
  }

  template <class Q>
  // `memory`: a memory's bandwidth, in bytes per second (a bit rate refused: parse_options::rates_in_bytes).
  figure<Q> quantity_figure(const json& object, const std::string& parent, std::string_view name, bool memory = false) {
    const std::string field = path(parent, name);
    if (!object.contains(name)) return {};
    const json& value = object.at(std::string{name});
    figure<Q> f{};
    const json* number = &value;
    if (value.is_object()) {
      expect_fields(value, field, {"value", "kind", "source"});
      if (!value.contains("value")) fail(field + ".value", "missing");
      number = &value.at("value");
      f.kind = kind(value, field);
      f.source = source_key(value, field);
    }
    if (!number->is_string()) {
      fail(value.is_object() ? field + ".value" : field,
           "expected a quantity with its unit as a string (\"2 TB/s\"), not " + shown(*number));
    }
    try {
      f.value = parse<Q>(number->get_ref<const std::string&>(), {.sizes_in_bytes = true, .rates_in_bytes = memory});
    } catch (const std::invalid_argument& e) {
      fail(field, e.what());  // read_device_json drops the library's "hml: " with the rest of the form
    }
    if (!std::isfinite(f.value.value()) || !(f.value.value() > 0)) fail(field, "must be finite and > 0; write a figure above zero");
    return f;
  }

  // A figure of a field that holds measurements: measured where given without a kind, refused where its
  // kind says otherwise, as the machine file's reader takes it (a converted file reads back).
  template <class Q>
  figure<Q> measurement(const json& object, const std::string& parent, std::string_view name, bool memory = false) {
    figure<Q> f = quantity_figure<Q>(object, parent, name, memory);
    if (!f.published()) return f;
    const json& value = object.at(std::string{name});
    if (!value.is_object() || !value.contains("kind")) f.kind = provenance::measured;
    refuse(path(parent, name) + ".kind", detail::measurement_kind_problem(f.kind));
    return f;
  }

  void read_sources(const json& root) {
    if (!root.contains("sources")) return;
    const json& list = root.at("sources");
    if (!list.is_array()) fail("sources", "expected a list, not " + shown(list));
    for (std::size_t i = 0; i < list.size(); ++i) {
      const std::string field = "sources[" + std::to_string(i) + "]";
      expect_fields(list[i], field, {"key", "title", "where"});
      const source s{text(list[i], field, "key", true), text(list[i], field, "title", true),
                     text(list[i], field, "where", true)};
      for (const source& before : out_.sources) {
        if (before.key == s.key) fail(field + ".key", "'" + std::string{s.key} + "' is listed twice");
      }
      out_.sources.push_back(s);
    }
  }

  level_description level(const json& j, const std::string& field) {
    expect_fields(j, field,
                  {"name", "capacity", "bandwidth", "write_bandwidth", "measured_bandwidth", "latency", "scope",
                   "interface"});
    level_description l{};
    l.name = text(j, field, "name", true);
    l.capacity = quantity_figure<data_size>(j, field, "capacity");
    l.bandwidth = quantity_figure<data_rate>(j, field, "bandwidth", true);
    l.write_bandwidth = quantity_figure<data_rate>(j, field, "write_bandwidth", true);
    l.measured_bandwidth = measurement<data_rate>(j, field, "measured_bandwidth", true);
    l.latency = quantity_figure<duration>(j, field, "latency");
    const std::string_view scope = text(j, field, "scope", false);
    if (scope == "per_core") {
      l.scope = sharing::per_core;
    } else if (!scope.empty() && scope != "shared") {
      fail(field + ".scope", detail::yaml_fields<device_file_error>::not_one_of(scope, {"shared", "per_core"}));
    }
    if (j.contains("interface")) {
      const std::string at = field + ".interface";
      const json& i = j.at("interface");
      expect_fields(i, at, {"channels", "bus_bits", "pin_rate"});
      l.interface.channels = count(i, at, "channels", 1, 1);
      l.interface.bus_bits = count(i, at, "bus_bits", 0, 1);
      l.interface.pin_rate = quantity_figure<data_rate>(i, at, "pin_rate");
      if (l.interface.bus_bits == 0) fail(at + ".bus_bits", "missing");
    }
    refuse(field + ".measured_bandwidth", detail::measured_problem(l.measured_bandwidth, l.bandwidth));
    refuse(field + ".write_bandwidth", detail::write_bandwidth_problem(l));
    refuse(field + ".interface", detail::interface_problem(l));
    refuse(field + ".latency", detail::latency_problem(l.latency, "a memory's latency is nanoseconds"));
    return l;
  }

  // One of :machine_checks' problems, at its field; none: nothing.
  static void refuse(const std::string& field, const std::string& problem) {
    if (!problem.empty()) fail(field, problem);
  }

  ceiling_description ceiling(const json& j, const std::string& field) {
    expect_fields(j, field, {"precision", "unit", "dense", "sparse", "measured", "variant"});
    ceiling_description c{};
    const std::string_view name = text(j, field, "precision", true);
    bool known = false;
    for (precision p : all_precisions) {
      if (id_of(p) == name) {
        c.type = p;
        known = true;
      }
    }
    if (!known) {
      std::vector<std::string_view> ids;
      for (precision p : all_precisions) ids.push_back(id_of(p));
      fail(field + ".precision", detail::yaml_fields<device_file_error>::not_one_of(name, ids));
    }
    const std::string_view unit = text(j, field, "unit", true);
    if (unit == "tensor") {
      c.unit = compute_unit::tensor;
    } else if (unit != "vector") {
      fail(field + ".unit", detail::yaml_fields<device_file_error>::not_one_of(unit, {"vector", "tensor"}));
    }
    c.dense = quantity_figure<compute_rate>(j, field, "dense");
    c.sparse = quantity_figure<compute_rate>(j, field, "sparse");
    c.measured = measurement<compute_rate>(j, field, "measured");
    c.variant = text(j, field, "variant", false);
    if (!c.dense.published() && !c.measured.published()) fail(field, "needs a dense or a measured peak");
    refuse(field + ".measured", detail::measured_problem(c.measured, c.dense));
    return c;
  }

  void read(const json& root) {
    expect_fields(root, "", {"id", "name", "cores", "clock", "note", "sources", "memory", "compute"});
    read_sources(root);  // first, so that every figure's source can be checked against them
    device& d = out_.machine;
    d.id = text(root, "", "id", true);
    refuse("id", detail::id_problem(d.id));
    d.name = text(root, "", "name", true);
    d.cores = count(root, "", "cores", 0, 1, max_cores);  // absent: not known; given: at least one
    d.clock = quantity_figure<frequency>(root, "", "clock");
    refuse("clock", detail::clock_problem(d.clock));
    d.note = text(root, "", "note", false);

    const json& memory = array(root, "memory", max_memory_levels);
    for (std::size_t i = 0; i < memory.size(); ++i) {
      const std::string field = "memory[" + std::to_string(i) + "]";
      d.memory.push_back(level(memory[i], field));
      refuse(field, detail::level_order_problem(d.memory, i + 1 == memory.size(), "memory"));
      const auto [at, problem] = detail::scope_order_problem(d.memory, i + 1 == memory.size(), "memory", "\"scope\": \"per_core\"");
      refuse("memory[" + std::to_string(at) + "].scope", problem);
      refuse(path(field, "name"), detail::level_name_problem(d.memory, "memory"));
      const detail::field_problem rates = detail::level_bandwidths_problem(d.cores, d.clock, d.memory.back());
      refuse(path(field, rates.field), rates.problem);
    }
    const level_description& main = d.memory.back();
    refuse("memory[" + std::to_string(memory.size() - 1) + "].scope", detail::main_memory_scope_problem(main));
    if (!main.bandwidth.published() && !main.measured_bandwidth.published()) {
      fail("memory[" + std::to_string(memory.size() - 1) + "]",
           "main memory (the last level) needs a bandwidth or a measured_bandwidth");
    }

    const json& compute = array(root, "compute", max_compute_ceilings);
    for (std::size_t i = 0; i < compute.size(); ++i) {
      const std::string field = "compute[" + std::to_string(i) + "]";
      const ceiling_description c = ceiling(compute[i], field);
      if (c.variant.empty() && find_ceiling(d, c.kind()) != nullptr) {
        fail(field, std::string{to_string(c.kind())} + " is given twice (a lower ceiling of it needs a variant)");
      }
      refuse(field + ".dense", detail::peak_problem(d.cores, d.clock, c.dense));
      refuse(field + ".sparse", detail::peak_problem(d.cores, d.clock, c.sparse));
      d.compute.push_back(c);
    }
  }

private:
  provenance kind(const json& object, const std::string& field) {
    const std::string_view name = text(object, field, "kind", false);
    for (provenance p : {provenance::stated, provenance::derived, provenance::measured, provenance::unconfirmed}) {
      if (name == to_string(p)) return p;
    }
    if (name.empty()) return provenance::stated;
    fail(field + ".kind", detail::yaml_fields<device_file_error>::not_one_of(name, {"stated", "derived", "measured", "unconfirmed"}));
  }

  std::string_view source_key(const json& object, const std::string& field) {
    const std::string_view key = text(object, field, "source", false);
    if (key.empty()) return {};
    for (const source& s : out_.sources) {
      if (s.key == key) return s.key;
    }
    fail(field + ".source", "'" + std::string{key} + "' is not in the file's sources");
  }

  static const json& array(const json& root, std::string_view name, std::size_t most) {
    const std::string field{name};
    if (!root.contains(name)) fail(field, "missing");
    const json& list = root.at(field);
    if (!list.is_array()) fail(field, "expected a list, not " + shown(list));
    if (list.empty()) fail(field, "needs at least one entry");
    if (list.size() > most) fail(field, "has " + std::to_string(list.size()) + " entries; at most " + std::to_string(most));
    return list;
  }

  loaded_device::storage& out_;
};

}  // namespace

loaded_device read_device_json(std::string_view text, std::string_view file) {
  // yaml-cpp reads JSON as YAML: the checks every hml reader makes (one document, no NUL, no key given
  // twice, which nlohmann would let the last win) and the lines of the fields, which nlohmann does not keep.
  const detail::yaml_fields<device_file_error> lines{file};
  json root;
  try {
    root = json::parse(text.begin(), text.end());
  } catch (const json::out_of_range&) {
    // A number past a double's range, which nlohmann places nowhere: found in the tree yaml-cpp reads.
    const YAML::Node tree = lines.load(text);
    lines.visit_nodes(tree, "", [&](const YAML::Node& node, const std::string& field) {
      if (!node.IsScalar() || node.Tag() != "?") return;  // a plain scalar: JSON's numbers are
      const std::string& number = node.Scalar();
      char* end = nullptr;
      if (!number.empty() && !std::isfinite(std::strtod(number.c_str(), &end)) && end == number.c_str() + number.size())
        lines.fail(node, field.empty() ? "the top level" : field, "\"" + message_text(number) + "\" is past a double's range");
    });
    throw device_file_error(std::string{file} + ": not JSON: a number past a double's range");
  } catch (const json::exception&) {  // parse_error
    if (const std::optional<detail::syntax_problem> bytes = detail::encoding_problem(text)) {
      throw device_file_error(std::string{file} + ":" + std::to_string(bytes->line) + ": " + bytes->what);
    }
    const std::optional<detail::syntax_problem> problem = detail::json_syntax_problem(text);
    throw device_file_error(std::string{file} + (problem && problem->line > 0 ? ":" + std::to_string(problem->line) : "") +
                            ": not JSON: " + (problem ? problem->what : std::string{"unreadable"}));
  }
  const YAML::Node tree = lines.load(text, detail::yaml_fields<device_file_error>::json_checked::by_caller);
  lines.refuse_repeated_keys(tree, "");
  auto state = std::make_unique<loaded_device::storage>();
  try {
    reader{*state}.read(root);
  } catch (const field_problem& p) {
    lines.fail(lines.line_of(tree, p.field), p.field, p.problem);
  }
  state->list[0] = &state->machine;
  return loaded_device{std::move(state)};
}

}  // namespace hml
