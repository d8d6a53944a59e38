// hml.catalog.lookup — devices and precisions by the names people type: "h100_sxm", "H100-SXM",
// "NVIDIA H100 SXM5 80GB" (case and the separators _ - and space do not matter), with the closest ids
// suggested for a name that is not known. The ids are the catalog entries' own (hml::devices::all); a list
// of devices read from a file is searched the same way.
module;
#include <algorithm>
#include <array>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>
#include <span>
#include <utility>
#include <vector>
export module hml.catalog.lookup;
export import hml.catalog;
export import hml.analysis;

namespace hml::detail::lookup {

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

// Edit distance for suggestions: insertions, deletions, substitutions and transpositions of two adjacent
// characters, each 1 (Damerau-Levenshtein, optimal string alignment), so that "h100_smx", two letters
// swapped, is 1 from "h100_sxm" as a typo of one key is.
inline std::size_t edit_distance(std::string_view a, std::string_view b) {
  // Three rows of the table: the one before the previous (for a transposition), the previous, this one.
  std::vector<std::size_t> before(b.size() + 1), previous(b.size() + 1), row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) previous[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      row[j] = std::min({previous[j] + 1, row[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) row[j] = std::min(row[j], before[j - 2] + 1);
    }
    std::swap(before, previous);
    std::swap(previous, row);
  }
  return previous[b.size()];
}

inline std::string joined(const std::vector<std::string_view>& names) {
  std::string out;
  for (std::string_view n : names) out += (out.empty() ? "" : ", ") + std::string{n};
  return out;
}

}  // namespace hml::detail::lookup

export namespace hml {

// The device's id ("h100_sxm"), its entry's own.
[[nodiscard]] constexpr std::string_view id_of(const device& d) noexcept { return d.id; }

// The device with this id or full name in `list`, ignoring case and separators; nullptr if there is none.
[[nodiscard]] inline const device* find_device(std::string_view name,
                                               std::span<const device* const> list = devices::all) {
  const std::string wanted = detail::lookup::key(name);
  if (wanted.empty()) return nullptr;
  for (const device* d : list) {
    if (detail::lookup::key(d->id) == wanted || detail::lookup::key(d->name) == wanted) return d;
  }
  return nullptr;
}

// Up to `count` ids close to `name`: ids that start with it, then ids or names that contain it, each in
// list order; if there are none, ids within a small edit distance, closest first.
[[nodiscard]] inline std::vector<std::string_view> closest_device_ids(
    std::string_view name, std::size_t count = 3, std::span<const device* const> list = devices::all) {
  namespace l = detail::lookup;
  const std::string wanted = l::key(name);
  std::vector<std::pair<std::size_t, std::size_t>> ranked;  // (rank, position in the list)
  if (!wanted.empty()) {
    const std::size_t tolerance = std::max<std::size_t>(1, wanted.size() / 4);
    for (std::size_t i = 0; i < list.size(); ++i) {
      const std::string id = l::key(list[i]->id);
      const std::size_t distance = l::edit_distance(wanted, id);
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
  // Close spellings only when no id starts with or contains the name.
  const bool any_containing = !ranked.empty() && ranked.front().first <= 1;
  std::vector<std::string_view> ids;
  for (std::size_t i = 0; i < ranked.size() && ids.size() < count; ++i) {
    if (!any_containing || ranked[i].first <= 1) ids.push_back(list[ranked[i].second]->id);
  }
  return ids;
}

// "unknown device 'h10'; did you mean h100_sxm, h100_pcie?"
class unknown_device_error : public std::invalid_argument {
public:
  unknown_device_error(std::string_view name, std::vector<std::string_view> suggestions,
                       std::span<const device* const> list = devices::all)
      : std::invalid_argument(message(name, suggestions, list)), suggestions_{std::move(suggestions)} {}
  [[nodiscard]] const std::vector<std::string_view>& suggestions() const noexcept { return suggestions_; }

private:
  static std::string message(std::string_view name, const std::vector<std::string_view>& suggestions,
                             std::span<const device* const> list) {
    std::string text = "unknown device '" + std::string{name} + "'; ";
    if (!suggestions.empty()) return text + "did you mean " + detail::lookup::joined(suggestions) + "?";
    std::vector<std::string_view> ids;
    for (const device* d : list) ids.push_back(d->id);
    return text + "known devices: " + detail::lookup::joined(ids);
  }
  std::vector<std::string_view> suggestions_;
};

// find_device, or unknown_device_error with suggestions.
[[nodiscard]] inline const device& device_named(std::string_view name,
                                                std::span<const device* const> list = devices::all) {
  if (const device* d = find_device(name, list)) return *d;
  throw unknown_device_error{name, closest_device_ids(name, 3, list), list};
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
  constexpr std::array<std::string_view, 8> ids{"fp64", "fp32", "tf32", "bf16", "fp16", "fp8", "int8", "int4"};
  return ids[static_cast<std::size_t>(p)];
}

// "fp64_vector", "fp16_tensor", ...
[[nodiscard]] inline std::string id_of(compute_kind k) {
  return std::string{id_of(k.type)} + (k.unit == compute_unit::vector ? "_vector" : "_tensor");
}

// The precision with this id ("fp16", "fp16_tensor", "fp64_vector") or display name ("FP16 tensor"), ignoring
// case and separators.
[[nodiscard]] inline precision_choice precision_named(std::string_view name) {
  namespace l = detail::lookup;
  const std::string wanted = l::key(name);
  std::vector<std::string_view> ids;
  for (precision p : all_precisions) {
    ids.push_back(id_of(p));
    if (l::key(id_of(p)) == wanted) return p;
    for (compute_unit u : {compute_unit::vector, compute_unit::tensor}) {
      if (l::key(id_of(compute_kind{p, u})) == wanted || l::key(to_string(compute_kind{p, u})) == wanted) {
        return compute_kind{p, u};
      }
    }
  }
  throw std::invalid_argument("unknown precision '" + std::string{name} + "'; expected one of " +
                              detail::lookup::joined(ids) + ", each alone or with _vector or _tensor");
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

// The device's roofline for one precision; a clear error if the device publishes no such peak.
[[nodiscard]] inline roof roof_named(const device& d, precision_choice p, basis b = basis::datasheet) {
  const compute_kind k = kind_for(d, p);
  const std::string what = b == basis::datasheet ? "" : "measured ";
  if (!peak(d, k, b).published()) {
    // The precisions it does have, as --precision takes them.
    std::vector<std::string> has;
    for (const compute_kind& kind : published_kinds(d, b)) has.push_back(id_of(kind));
    std::vector<std::string_view> names(has.begin(), has.end());
    throw std::invalid_argument(std::string{d.name} + " publishes no " + what + std::string{to_string(k)} + " peak; " +
                                (names.empty() ? "it has no " + what + "peak at all"
                                               : "it has " + detail::lookup::joined(names)));
  }
  if (!bandwidth_of(main_memory(d), b).published()) {
    throw std::invalid_argument(std::string{d.name} + " publishes no " + what + "main-memory bandwidth");
  }
  return roof_of(d, k, b);
}

}  // namespace hml
