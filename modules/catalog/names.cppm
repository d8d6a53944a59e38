// hml.catalog.names — the names people type, in any list (machines, links, systems, transformer presets): an
// entry by its id or full name, case and the separators _ - and space aside ("h100_sxm", "H100-SXM", "NVIDIA
// H100 SXM5 80GB"); the keys by which two names look alike; the ids closest to a name no entry has; and what a
// text names among a file's own entries and the catalog's (hml::choose_entry), refused where it names or looks
// like two. Any list: the catalog's lookups (hml.catalog.lookup) and the readers of files share it.
module;
#include <algorithm>
#include <array>
#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <utility>
#include <vector>
export module hml.catalog.names;
import hml.units;     // message_text, append_escaped, without_invisible
import hml.spelling;  // the look-alike forms; typo distance and tolerance

// The keys every lookup compares, for the catalog's lookups as well.
export namespace hml::detail::lookup {

constexpr char folded(char c) noexcept { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }
constexpr bool is_separator(char c) noexcept { return c == '_' || c == '-' || c == ' '; }

// Lower case, without separators: "H100-SXM" and "h100_sxm" both become "h100sxm".
inline std::string key(std::string_view name) {
  std::string out;
  for (char c : name) {
    if (!is_separator(c)) out += folded(c);
  }
  return out;
}

// Whether key(name) is `wanted`, without making it: a lookup compares every entry of its list.
constexpr bool has_key(std::string_view name, std::string_view wanted) noexcept {
  std::size_t matched = 0;
  for (const char c : name) {
    if (is_separator(c)) continue;
    if (matched == wanted.size() || folded(c) != wanted[matched]) return false;
    ++matched;
  }
  return matched == wanted.size();
}

inline std::string joined(const std::vector<std::string_view>& names) {
  std::string out;
  for (std::string_view n : names) out += (out.empty() ? "" : ", ") + std::string{n};
  return out;
}

}  // namespace hml::detail::lookup

export namespace hml {

// The form in which two names people type are one name: lower case, without the separators _ - and space
// ("H100-SXM" and "h100_sxm" are "h100sxm"), as every lookup compares them.
[[nodiscard]] inline std::string name_key(std::string_view name) { return detail::lookup::key(name); }

// The forms in which two names are one to a reader as well: name_key of the name as it looks, of its small
// letters as they look, and of it as it looks in its own case with its other letters as capitals
// (hml::look_alike_in_either_case, hml::look_alike_folded, hml::look_alike_as_capitals: "NVLink\u00a04" is
// "nvlink4", and so is "NVLіnk 4" with a Cyrillic "і"; "ΙNTEL" with a Greek iota is "INTEL", and so is
// "lNTEL"). Two names are one where any form is (hml::alike); files' entries and run logs are told apart so.
using alike_keys = std::array<std::string, 3>;
[[nodiscard]] inline alike_keys alike_keys_of(std::string_view name) {
  return {name_key(look_alike_in_either_case(name)), name_key(look_alike_folded(name)), name_key(look_alike_as_capitals(name))};
}
[[nodiscard]] inline bool alike(const alike_keys& a, const alike_keys& b) {
  for (std::size_t form = 0; form < a.size(); ++form)
    if (a[form] == b[form]) return true;
  return false;
}
[[nodiscard]] inline bool alike(std::string_view a, std::string_view b) { return alike(alike_keys_of(a), alike_keys_of(b)); }

namespace detail::lookup {
// An entry's id as options take it: its `id`, or for a transformer preset, whose name is its id, the name.
template <class Entry>
[[nodiscard]] constexpr std::string_view id_of(const Entry& e) noexcept {
  if constexpr (requires { e.id; }) {
    return e.id;
  } else {
    return e.name;
  }
}

// Whether an entry's id or name has this key (name_key of the text that names it).
template <class Entry>
[[nodiscard]] constexpr bool is_named(const Entry& e, std::string_view wanted) noexcept {
  return !wanted.empty() && (has_key(id_of(e), wanted) || has_key(e.name, wanted));
}
}  // namespace detail::lookup

// The entry with this id or full name in `list` (machines, links, systems, transformer presets: anything
// with a name, and an id where it differs), ignoring case and separators; nullptr if there is none.
template <class Entry>
[[nodiscard]] const Entry* find_named(std::string_view name, std::span<const Entry* const> list) {
  const std::string wanted = detail::lookup::key(name);
  const auto found = std::ranges::find_if(list, [&](const Entry* e) { return detail::lookup::is_named(*e, wanted); });
  return found != list.end() ? *found : nullptr;
}

// A list's ids and names by their keys (name_key and hml::alike_keys), each key with the place in the list of
// the first entry that has it: what a text names, or looks like, looked up rather than keyed against every entry
// (a file of 256 systems naming its 256 machines of long names took seconds so).
class name_index {
public:
  void add(std::string_view id_or_name, std::size_t place) {
    exact_.emplace(name_key(id_or_name), place);
    const alike_keys keys = alike_keys_of(id_or_name);
    for (std::size_t form = 0; form < keys.size(); ++form) alike_[form].emplace(keys[form], place);
  }
  // The place of the entry a text names (find_named's), if any.
  [[nodiscard]] std::optional<std::size_t> named(std::string_view text) const {
    const auto found = exact_.find(name_key(text));
    return found != exact_.end() && !found->first.empty() ? std::optional{found->second} : std::nullopt;
  }
  // The places of the entries that look like a text of these keys, each once, in the order of the forms.
  [[nodiscard]] std::vector<std::size_t> alike(const alike_keys& keys) const {
    std::vector<std::size_t> places;
    for (std::size_t form = 0; form < keys.size(); ++form) {
      if (const auto found = alike_[form].find(keys[form]); found != alike_[form].end() && std::ranges::find(places, found->second) == places.end())
        places.push_back(found->second);
    }
    return places;
  }

private:
  std::unordered_map<std::string, std::size_t> exact_;
  std::array<std::unordered_map<std::string, std::size_t>, std::tuple_size_v<alike_keys>> alike_;
};

// What a text names among a file's own entries and the catalog's (a machine or link a file's system names,
// a --link beside machine files): the file's entry of that id or name (folded as find_named folds them) or
// that looks like it (hml::alike), else the catalog's, in whose place a file's entry of the catalog entry's id
// (as find_named folds it) stands where the text names or looks like it too. `ambiguous` is a file's entry the
// text names, or looks like, beside another it names or looks like too (`other`: the catalog's of another id,
// or the file's), or that takes the id of the catalog's the text names by its name (`takes_the_catalogs_id`),
// for the caller to refuse: a file's link cx12x8 beside the catalog's cxl2x8 took --link cxl2x8, a Greek
// "ΝUMA" the file's "VUMA" beside its "NUMA" (the capital drawn as "N", its small letter as "v"), and "NUMA"
// the first of two files' links of that name, unsaid. Where the catalog names none, a text written as one of
// the file's entries byte for byte is that entry.
// A catalog entry that only looks like the text is no choice of its own, as the catalog's lookups take names
// as they are written. `own_names`, where given, is `own`'s name_index (a file's reader keeps one), else
// every entry of `own` is keyed.
template <class Entry>
struct entry_choice {
  const Entry* entry = nullptr;
  const Entry* ambiguous = nullptr;
  const Entry* other = nullptr;
  bool other_is_the_catalogs = false;
  bool takes_the_catalogs_id = false;  // `ambiguous` has the id of `other`, the catalog's, the text names by its name
};
template <class Entry>
[[nodiscard]] entry_choice<Entry> choose_entry(std::string_view text, std::span<const Entry* const> own,
                                               std::span<const Entry* const> catalog, const name_index* own_names = nullptr) {
  const alike_keys looks = alike_keys_of(text);  // once: each key is passes of ICU's
  const auto looks_like_it = [&](const Entry* e) { return alike(alike_keys_of(e->id), looks) || alike(alike_keys_of(e->name), looks); };
  const Entry* from_catalog = find_named(text, catalog);
  const Entry* catalog_alike = from_catalog;
  if (catalog_alike == nullptr) {
    if (const auto found = std::ranges::find_if(catalog, looks_like_it); found != catalog.end()) catalog_alike = *found;
  }
  // The file's entry standing in the place of the catalog's that the text names, or looks like.
  const Entry* in_its_place = nullptr;
  if (catalog_alike != nullptr) {
    const std::string catalog_id = name_key(catalog_alike->id);
    for (const Entry* e : own)
      if (detail::lookup::has_key(e->id, catalog_id)) in_its_place = e;
  }
  // The file's entries the text names, as written first, then by look (two files given may each hold one).
  std::vector<const Entry*> taken;
  const auto take = [&](const Entry* e) { if (std::ranges::find(taken, e) == taken.end()) taken.push_back(e); };
  if (own_names != nullptr) {
    if (const std::optional<std::size_t> place = own_names->named(text)) take(own[*place]);
    std::vector<std::size_t> places = own_names->alike(looks);
    std::ranges::sort(places);
    for (const std::size_t place : places) take(own[place]);
  } else {
    const std::string wanted = name_key(text);
    for (const Entry* e : own)
      if (detail::lookup::is_named(*e, wanted)) take(e);
    for (const Entry* e : own)
      if (looks_like_it(e)) take(e);
  }
  const auto beside_the_catalogs = [&](const Entry* e) {
    return entry_choice<Entry>{.ambiguous = e, .other = catalog_alike, .other_is_the_catalogs = true};
  };
  if (from_catalog != nullptr) {
    for (const Entry* e : taken)
      if (e != in_its_place) return beside_the_catalogs(e);
    // The catalog's name of an entry whose id the file's takes under a name of its own names the catalog's:
    // "NVLink 4 (H100, 18 links)" beside a file's nvlink4 "My NV" took the file's, at 10 GB/s, unsaid.
    if (in_its_place != nullptr && std::ranges::find(taken, in_its_place) == taken.end())
      return {.ambiguous = in_its_place, .other = from_catalog, .other_is_the_catalogs = true, .takes_the_catalogs_id = true};
    return {.entry = in_its_place != nullptr ? in_its_place : from_catalog};
  }
  if (taken.empty()) return {};
  // A text written as one of them, byte for byte, is that one: the reader copied it (a file's cx12x8 beside the
  // catalog's cxl2x8).
  const auto as_written = [&](const Entry* e) { return e->id == text || e->name == text; };
  if (std::ranges::count_if(taken, as_written) == 1) return {.entry = *std::ranges::find_if(taken, as_written)};
  if (taken.size() > 1) return {.ambiguous = taken[0], .other = taken[1]};
  if (catalog_alike != nullptr && taken[0] != in_its_place) return beside_the_catalogs(taken[0]);
  return {.entry = taken[0]};
}

// Why a text that names two entries (choose_entry's `ambiguous` and `other`) is refused: `own` says whose the
// file's are ("the file's link", "the file's links" for two of them). Where the text is an id and the other
// the catalog's, their ids look alike, and their names tell them apart.
template <class Entry>
[[nodiscard]] std::string ambiguity_problem(std::string_view text, const entry_choice<Entry>& chosen, std::string_view own) {
  const Entry& mine = *chosen.ambiguous;
  const Entry& other = *chosen.other;
  const auto named = [&](const Entry& e) { return name_key(text) == name_key(e.id) || name_key(text) == name_key(e.name); };
  if (!chosen.other_is_the_catalogs) {
    const auto said = [&](const Entry& e) { return std::string{e.id} + " (\"" + message_text(e.name) + "\")"; };
    const std::string verb = named(mine) ? "names " : "looks like ";
    const std::string both = named(mine) == named(other) ? verb + std::string{own} + "s " + said(mine) + " and " + said(other)
                                                         : verb + std::string{own} + " " + said(mine) + " and " +
                                                               (named(other) ? "names " : "looks like ") + std::string{own} + " " + said(other);
    return "\"" + message_text(text) + "\" " + both + "; give the id of the one you mean";
  }
  if (chosen.takes_the_catalogs_id)
    return "\"" + message_text(text) + "\" names the catalog's " + std::string{other.id} + ", and " + std::string{own} + " " +
           std::string{mine.id} + " (\"" + message_text(mine.name) + "\") takes its id; give the id " + std::string{mine.id} + " for " +
           std::string{own} + ", or give " + std::string{own} + " another id to take the catalog's";
  const std::string both = "\"" + message_text(text) + (named(mine) || named(other) ? "\" names " : "\" looks like ") + std::string{own} +
                           " " + std::string{mine.id} + " and the catalog's " + std::string{other.id};
  if (name_key(text) != name_key(mine.id) && name_key(text) != name_key(other.id)) return both + "; give the id of the one you mean";
  return both + ", ids that look alike (" + first_difference(mine.id, other.id) + "); give the name of the one you mean, \"" +
         message_text(mine.name) + "\" or \"" + std::string{other.name} + "\" (or rename the file's id)";
}

// What tells `name` apart in `list`: the id of the entry it names, folded, so that an id and a full name are
// one ("NVIDIA A100 SXM4 80GB" is a100_sxm_80gb); the name folded where it names none.
template <class Entry>
[[nodiscard]] std::string entry_key(std::string_view name, std::span<const Entry* const> list) {
  const Entry* e = find_named(name, list);
  return detail::lookup::key(e == nullptr ? name : detail::lookup::id_of(*e));
}

// Up to `count` ids close to `name`: ids that start with it; if none, ids or names that contain it; if
// none, ids within a small edit distance, closest first; each rank in list order.
template <class Entry>
[[nodiscard]] std::vector<std::string_view> closest_ids(std::string_view name, std::span<const Entry* const> list,
                                                        std::size_t count = 3) {
  namespace l = detail::lookup;
  const std::string wanted = l::key(without_invisible(name));  // "h100\u200b_sxm" is offered h100_sxm
  std::vector<std::pair<std::size_t, std::size_t>> ranked;  // (rank, position in the list)
  if (!wanted.empty()) {
    const std::size_t tolerance = typo_tolerance(wanted.size());
    for (std::size_t i = 0; i < list.size(); ++i) {
      const std::string id = l::key(l::id_of(*list[i]));
      const std::size_t distance = typo_distance(wanted, id);
      if (id.starts_with(wanted)) {
        ranked.emplace_back(0, i);
      } else if (id.find(wanted) != std::string::npos || l::key(list[i]->name).find(wanted) != std::string::npos) {
        ranked.emplace_back(1, i);
      } else if (distance <= tolerance) {
        ranked.emplace_back(2 + distance, i);
      }
    }
  }
  // List order within a rank (std::stable_sort's buffer is deprecated in libstdc++ 12 under clang 19).
  std::ranges::sort(ranked);
  // Only the best of the first two ranks; close spellings only when no id starts with or contains the name.
  const std::size_t best = ranked.empty() ? 0 : ranked.front().first;
  std::vector<std::string_view> ids;
  for (std::size_t i = 0; i < ranked.size() && ids.size() < count; ++i) {
    if (best > 1 || ranked[i].first == best) ids.push_back(l::id_of(*list[ranked[i].second]));
  }
  return ids;
}

}  // namespace hml
