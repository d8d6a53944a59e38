// hml.catalog.lookup — the one catalog of machines (hml::machines::all: the devices, the CPUs in cycles and the
// machines inside systems) and every catalog entry by the names people type (hml.catalog.names: "h100_sxm",
// "H100-SXM", "NVIDIA H100 SXM5 80GB"), with the closest ids suggested for a name that is not known, in one
// message whatever the list (machines, links, systems). Links and tiers as options spell them ("pcie5x16" or
// "63GB/s"; "HBM:64GiB:1638.4GB/s") and precisions by name are read here too.
module;
#include <algorithm>
#include <array>
#include <cstddef>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <span>
#include <utility>
#include <vector>
export module hml.catalog.lookup;
export import hml.catalog;
export import hml.catalog.cpus;
export import hml.catalog.systems;
export import hml.catalog.transformers;
export import hml.analysis;
export import hml.tiers;
export import hml.catalog.names;
import hml.spelling;

// --- The one catalog of machines -----------------------------------------------------------------------

export namespace hml::machines {

// Every machine the catalog describes, in the order `hml devices` lists them: the devices (GPUs, and the
// CPUs of the roofline), the CPUs in cycles (kerncraft's machines), then the machines inside systems.
inline constexpr std::array<const machine_description*, devices::all.size() + cpus::all.size() + 4> all = [] {
  std::array<const machine_description*, devices::all.size() + cpus::all.size() + 4> list{};
  std::size_t n = 0;
  for (const machine_description* m : devices::all) list[n++] = m;
  for (const machine_description* m : cpus::all) list[n++] = m;
  for (const machine_description* m : {&systems::grace, &systems::gh200_hopper, &systems::mi300a, &systems::xeon_max_9480}) {
    list[n++] = m;
  }
  return list;
}();

}  // namespace hml::machines

export namespace hml {

// The source with this key in any of the catalog's lists (devices, CPUs, systems); nullptr if none.
[[nodiscard]] constexpr const source* catalog_source(std::string_view key) noexcept {
  for (const source& s : cpus::sources) {
    if (s.key == key) return &s;
  }
  return systems::find_source(key);
}

// The source with this key among `given` (a file's own), else in the catalog's lists; nullptr if none.
[[nodiscard]] constexpr const source* source_for(std::string_view key, std::span<const source> given) noexcept {
  for (const source& s : given) {
    if (s.key == key) return &s;
  }
  return catalog_source(key);
}


// The device's id ("h100_sxm"), its entry's own.
[[nodiscard]] constexpr std::string_view id_of(const device& d) noexcept { return d.id; }


namespace detail::lookup {
// What else the catalog calls `name`, where it is no `what` ("machine", "link", "system", "model"): "a
// machine", "a model", ...; empty where it is nothing of the catalog's. A name given to the wrong option
// (`--machine llama-2-7b`, `--system h100_sxm`) is said so, where a list of the option's names hid it.
inline std::string_view other_kind(std::string_view what, std::string_view name) {
  if (what != "machine" && find_named(name, std::span<const machine_description* const>{machines::all})) return "a machine";
  if (what != "model" && find_named(name, std::span<const transformer* const>{models::all})) return "a model";
  if (what != "link" && find_named(name, std::span<const link_description* const>{systems::links})) return "a link";
  if (what != "system" && find_named(name, std::span<const system_description* const>{systems::all})) return "a system";
  return {};
}

// Of a name no list holds that looks like a suggestion (a Cyrillic "і" in "pcіe5x16"), where it is not ASCII
// (its place: the characters that begin before it, and it): the message prints the two alike otherwise.
inline std::string drawn_alike(std::string_view name, const std::vector<std::string_view>& suggestions) {
  const auto other = std::ranges::find_if(name, [](char c) { return static_cast<unsigned char>(c) >= 0x80; });
  if (other == name.end() || std::ranges::none_of(suggestions, [&](std::string_view s) { return alike(name, s); })) return {};
  std::string shown;
  append_escaped(shown, name, static_cast<std::size_t>(other - name.begin()));
  const auto character = std::count_if(name.begin(), other, [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }) + 1;
  return " (its character " + std::to_string(character) + " is " + shown + ", no ASCII letter)";
}
}  // namespace detail::lookup

// "unknown machine 'h10'; did you mean h100_sxm, h100_pcie?", "...; known links: pcie3x16, ...", or
// "'llama-2-7b' is a model, not a machine; known machines: ...": the one message for a name no catalog list
// of its kind holds (machines, links, systems, transformer models).
class unknown_name_error : public std::invalid_argument {
public:
  unknown_name_error(std::string_view what, std::string_view name, std::vector<std::string_view> suggestions,
                     const std::vector<std::string_view>& known)
      : std::invalid_argument(message(what, name, suggestions, known)), suggestions_{std::move(suggestions)} {}
  [[nodiscard]] const std::vector<std::string_view>& suggestions() const noexcept { return suggestions_; }

private:
  static std::string message(std::string_view what, std::string_view name,
                             const std::vector<std::string_view>& suggestions,
                             const std::vector<std::string_view>& known) {
    if (const std::string_view other = detail::lookup::other_kind(what, name); !other.empty())
      return "'" + message_text(name) + "' is " + std::string{other} + ", not a " + std::string{what} + "; known " +
             std::string{what} + "s: " + detail::lookup::joined(known);
    std::string text = "unknown " + std::string{what} + " '" + message_text(name) + "'; ";
    if (!suggestions.empty()) return text + "did you mean " + detail::lookup::joined(suggestions) + detail::lookup::drawn_alike(name, suggestions) + "?";
    return text + "known " + std::string{what} + "s: " + detail::lookup::joined(known);
  }
  std::vector<std::string_view> suggestions_;
};

// find_named, or unknown_name_error naming `what` ("machine", "link", "system") with suggestions.
template <class Entry>
[[nodiscard]] const Entry& entry_named(std::string_view what, std::string_view name,
                                       std::span<const Entry* const> list) {
  if (const Entry* e = find_named(name, list)) return *e;
  std::vector<std::string_view> known;
  for (const Entry* e : list) known.push_back(detail::lookup::id_of(*e));
  throw unknown_name_error{what, name, closest_ids(name, list), known};
}

// Machines by name, in the whole catalog or a list (a file's).
[[nodiscard]] inline const machine_description* find_machine(std::string_view name,
                                                             std::span<const machine_description* const> list = machines::all) {
  return find_named(name, list);
}
[[nodiscard]] inline std::vector<std::string_view> closest_machine_ids(
    std::string_view name, std::size_t count = 3, std::span<const machine_description* const> list = machines::all) {
  return closest_ids(name, list, count);
}
[[nodiscard]] inline const machine_description& machine_named(
    std::string_view name, std::span<const machine_description* const> list = machines::all) {
  return entry_named("machine", name, list);
}
// A transformer preset by name ("llama-2-7b", "Llama 2 7B"), with the same did-you-mean.
[[nodiscard]] inline const transformer& model_named(std::string_view name) {
  return entry_named("model", name, std::span<const transformer* const>{models::all});
}
[[nodiscard]] inline const link_description& link_description_named(std::string_view name) {
  return entry_named("link", name, std::span<const link_description* const>{systems::links});
}
[[nodiscard]] inline const system_description& system_named(std::string_view name) {
  return entry_named("system", name, std::span<const system_description* const>{systems::all});
}

// A precision as people name it: "fp16" (its vector units where published, else its tensor units; see
// kind_for), or with the unit, "fp16_tensor" / "fp64_vector".
struct precision_choice {
  constexpr precision_choice(precision p) noexcept : type{p} {}  // NOLINT: a precision is a choice
  constexpr precision_choice(compute_kind k) noexcept : type{k.type}, unit_given{true}, unit{k.unit} {}  // NOLINT

  precision type;
  bool unit_given = false;
  compute_unit unit = compute_unit::vector;
};

[[nodiscard]] constexpr std::string_view id_of(precision p) noexcept {
  constexpr std::array<std::string_view, 10> ids{"fp64", "fp32", "tf32", "bf16",  "fp16",
                                                 "fp8",  "int8", "int4", "nvfp4", "mxfp4"};
  return ids[static_cast<std::size_t>(p)];
}

// "fp64_vector", "fp16_tensor", ...
[[nodiscard]] inline std::string id_of(compute_kind k) {
  return std::string{id_of(k.type)} + (k.unit == compute_unit::vector ? "_vector" : "_tensor");
}

namespace detail::lookup {
// "fp64, fp32, ...": every precision's id, as a message lists the choices.
inline std::string precision_ids() {
  std::vector<std::string_view> ids;
  for (precision p : all_precisions) ids.push_back(id_of(p));
  return joined(ids);
}
}  // namespace detail::lookup

// The precision with this id ("fp16", "fp16_tensor", "fp64_vector") or display name ("FP16 tensor"), ignoring
// case and separators.
[[nodiscard]] inline precision_choice precision_named(std::string_view name) {
  namespace l = detail::lookup;
  const std::string wanted = l::key(name);
  for (precision p : all_precisions) {
    if (l::key(id_of(p)) == wanted) return p;
    for (compute_unit u : {compute_unit::vector, compute_unit::tensor}) {
      if (l::key(id_of(compute_kind{p, u})) == wanted || l::key(to_string(compute_kind{p, u})) == wanted) {
        return compute_kind{p, u};
      }
    }
  }
  throw std::invalid_argument("unknown precision '" + message_text(name) + "'; expected one of " +
                              detail::lookup::precision_ids() + ", each alone or with _vector or _tensor");
}

// A data type alone, where the model chooses the units it runs on (hml llm's --weights, hml offload's
// --precision): "fp16", not "fp16_tensor", and the choices it lists are the ones it takes.
[[nodiscard]] inline precision data_type_named(std::string_view name) {
  const precision_choice choice = [&] {
    try {
      return precision_named(name);
    } catch (const std::invalid_argument&) {
      throw std::invalid_argument("unknown precision '" + message_text(name) + "'; expected one of " +
                                  detail::lookup::precision_ids());
    }
  }();
  if (choice.unit_given) {
    throw std::invalid_argument("'" + message_text(name) + "' names a compute unit (tensor or vector): the model chooses the units it runs on; give the precision alone, " +
                                std::string{id_of(choice.type)});
  }
  return choice.type;
}

[[nodiscard]] constexpr compute_kind kind_for(const device& d, precision_choice p) noexcept {
  return p.unit_given ? compute_kind{p.type, p.unit} : kind_for(d, p.type);
}

// The kinds of compute the device publishes a dense peak for, widest precision first, vector before tensor.
[[nodiscard]] inline std::vector<compute_kind> published_kinds(const device& d, basis b = basis::datasheet) {
  std::vector<compute_kind> kinds;
  for (precision q : all_precisions) {
    for (compute_unit u : {compute_unit::vector, compute_unit::tensor}) {
      if (peak(d, compute_kind{q, u}, b).published()) kinds.push_back({q, u});
    }
  }
  return kinds;
}

// What a device that lacks a peak has instead, as --precision takes it, for every command's message:
// "it has fp64_vector, fp64_tensor", or by precision alone where the user gave one so ("it has fp64": a
// command that takes no unit refused the suffixes it was offered); "it has no peak at all" where it publishes none.
[[nodiscard]] inline std::string kinds_it_has(const device& d, basis b = basis::datasheet, bool with_units = true) {
  std::vector<std::string> has;
  for (const compute_kind& kind : published_kinds(d, b)) {
    std::string name = with_units ? id_of(kind) : std::string{id_of(kind.type)};
    if (std::ranges::find(has, name) == has.end()) has.push_back(std::move(name));
  }
  const std::vector<std::string_view> names(has.begin(), has.end());
  const std::string what = b == basis::datasheet ? "" : "measured ";
  return names.empty() ? "it has no " + what + "peak at all" : "it has " + detail::lookup::joined(names);
}

// The device's roofline for one precision; a clear error if the device publishes no such peak.
[[nodiscard]] inline roof roof_named(const device& d, precision_choice p, basis b = basis::datasheet) {
  const compute_kind k = kind_for(d, p);
  const std::string what = b == basis::datasheet ? "" : "measured ";
  if (!peak(d, k, b).published()) {
    // A precision given alone (fp32) was looked for in both units, and is named so.
    // A vector kind reads as its precision alone elsewhere ("FP16"); here it was asked for by its unit.
    const std::string kind = !p.unit_given                      ? std::string{to_string(p.type)} + " (vector or tensor)"
                             : k.unit == compute_unit::vector ? std::string{to_string(k)} + " vector"
                                                              : std::string{to_string(k)};
    throw std::invalid_argument(std::string{d.name} + " publishes no " + what + kind + " peak; " +
                                kinds_it_has(d, b, p.unit_given));
  }
  if (!bandwidth_of(main_memory(d), b).published()) {
    throw std::invalid_argument(std::string{d.name} + " publishes no " + what + "main-memory bandwidth");
  }
  return roof_of(d, k, b);
}


// --- Links and tiers as options spell them -----------------------------------------------------------


// The link with this catalog id ("pcie5x16", "nvlink4", "c2c"), or a per-direction rate ("63GB/s"): full
// duplex, no latency. Throws std::invalid_argument saying what is accepted.
[[nodiscard]] inline link link_named(std::string_view text) {
  if (const link_description* l = find_named(text, std::span<const link_description* const>{systems::links})) {
    return link_of(*l);
  }
  // A rate begins with its number, signed or not (-5GB/s is a rate, refused as one below).
  if (text.empty() || ((text.front() < '0' || text.front() > '9') && text.front() != '-' && text.front() != '+' &&
                       text.front() != '.')) {
    const std::span<const link_description* const> links{systems::links};
    std::string ids;
    for (const link_description* l : links) ids += (ids.empty() ? "" : ", ") + std::string{l->id};
    if (const std::string_view other = detail::lookup::other_kind("link", text); !other.empty())
      throw std::invalid_argument("'" + message_text(text) + "' is " + std::string{other} + ", not a link; expected one of " +
                                  ids + ", or a rate per direction such as 63GB/s");
    if (const std::vector<std::string_view> close = closest_ids(text, links); !close.empty())
      throw std::invalid_argument("unknown link '" + message_text(text) + "'; did you mean " + detail::lookup::joined(close) +
                                  detail::lookup::drawn_alike(text, close) + ", or a rate per direction such as 63GB/s?");
    throw std::invalid_argument("unknown link '" + message_text(text) + "'; expected one of " + ids +
                                ", or a rate per direction such as 63GB/s");
  }
  const link l{parse<data_rate>(text)};
  validate(l);
  return l;
}

// The fields of "NAME:CAPACITY:BANDWIDTH[:WRITE]" as written, each a view of `text`. Throws
// std::invalid_argument where there are not three or four, or the name is empty.
struct tier_fields {
  std::string_view name;
  std::string_view capacity;
  std::string_view read;
  std::optional<std::string_view> write;
};

[[nodiscard]] inline tier_fields split_tier(std::string_view text) {
  std::string_view parts[5];
  std::size_t count = 0;
  for (std::size_t start = 0;;) {
    const std::size_t colon = text.find(':', start);
    if (count == 5) throw std::invalid_argument("a tier is NAME:CAPACITY:BANDWIDTH[:WRITE], e.g. HBM:64GiB:1638.4GB/s");
    parts[count++] = text.substr(start, colon == std::string_view::npos ? std::string_view::npos : colon - start);
    if (colon == std::string_view::npos) break;
    start = colon + 1;
  }
  if (count < 3 || count > 4 || is_blank(parts[0])) {
    throw std::invalid_argument("a tier is NAME:CAPACITY:BANDWIDTH[:WRITE], e.g. HBM:64GiB:1638.4GB/s; got '" +
                                std::string{text} + "'");
  }
  return {parts[0], parts[1], parts[2], count == 4 ? std::optional{parts[3]} : std::nullopt};
}

// A tier from "NAME:CAPACITY:BANDWIDTH[:WRITE]" ("HBM:64GiB:1638.4GB/s"); its name views `text`, which must
// outlive it. Throws std::invalid_argument.
[[nodiscard]] inline tier parse_tier(std::string_view text) {
  const tier_fields f = split_tier(text);
  if (!is_printable_utf8(f.name)) {
    throw std::invalid_argument("a tier's name has " + unprintable_part(f.name) + "; give printable UTF-8 text");
  }
  // Each part's problem names the part (NAME:CAPACITY:BANDWIDTH[:WRITE]).
  const auto part = [](std::string_view name, auto read) {
    try {
      return read();
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument(std::string{name} + ": " + e.what());
    }
  };
  // A plain number is bytes, as in every option that takes a size (`hml tiers --footprint 1000000`); bits
  // are refused (80 Gb is 10 GB: a byte size mistyped).
  tier t{.name = f.name, .capacity = part("CAPACITY", [&] {
           return parse<data_size>(f.capacity, {.plain_number_is_base_unit = true, .sizes_in_bytes = true});
         })};
  // Its bandwidths are a memory's, in bytes a second.
  const auto bandwidth = [&](std::string_view name, std::string_view text) {
    return part(name, [&] { return parse<data_rate>(text, {.rates_in_bytes = true}); });
  };
  t.read = bandwidth("BANDWIDTH", f.read);
  if (f.write) {
    t.write = bandwidth("WRITE", *f.write);
    // In the tier, 0 stands for "as read": a WRITE of 0 given here would be read as none.
    if (!(t.write.value() > 0))
      throw std::invalid_argument("WRITE: must be > 0; leave it out to write at the read rate");
  }
  validate(t);
  return t;
}

}  // namespace hml
