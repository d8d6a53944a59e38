// hml.catalog.lookup — devices and precisions by the names people type: "h100_sxm", "H100-SXM",
// "NVIDIA H100 SXM5 80GB" (case and the separators _ - and space do not matter), with the closest ids
// suggested for a name that is not known.
module;
#include <algorithm>
#include <array>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>
export module hml.catalog.lookup;
export import hml.catalog;

export namespace hml {

// A device's short id, the name of its constant in hml::devices.
struct device_id {
  std::string_view id;
  const device* entry;
};

// clang-format off
inline constexpr std::array<device_id, 15> device_ids{{
    {"h100_sxm", &devices::h100_sxm}, {"h100_pcie", &devices::h100_pcie}, {"h200", &devices::h200},
    {"b200", &devices::b200}, {"a100_sxm_80gb", &devices::a100_sxm_80gb}, {"a100_sxm_40gb", &devices::a100_sxm_40gb},
    {"v100", &devices::v100}, {"l40s", &devices::l40s}, {"rtx_4090", &devices::rtx_4090},
    {"rtx_3090", &devices::rtx_3090}, {"mi300x", &devices::mi300x}, {"mi250x", &devices::mi250x},
    {"m1_pro", &devices::m1_pro}, {"epyc_9654", &devices::epyc_9654}, {"xeon_8480_plus", &devices::xeon_8480_plus},
}};
// clang-format on

}  // namespace hml

namespace hml::detail::lookup {

// Every catalog device has exactly one id, in the catalog's order.
consteval bool ids_follow_the_catalog() {
  if (device_ids.size() != devices::all.size()) return false;
  for (std::size_t i = 0; i < device_ids.size(); ++i) {
    if (device_ids[i].entry != devices::all[i]) return false;
  }
  return true;
}
static_assert(ids_follow_the_catalog(), "hml: device_ids must list hml::devices::all, in order");

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

// Levenshtein distance, for suggestions.
inline std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

inline std::size_t device_order(std::string_view id) {
  for (std::size_t i = 0; i < device_ids.size(); ++i) {
    if (device_ids[i].id == id) return i;
  }
  return device_ids.size();
}

inline std::string joined(const std::vector<std::string_view>& names) {
  std::string out;
  for (std::string_view n : names) out += (out.empty() ? "" : ", ") + std::string{n};
  return out;
}

}  // namespace hml::detail::lookup

export namespace hml {

[[nodiscard]] constexpr std::string_view id_of(const device& d) noexcept {
  for (const device_id& entry : device_ids) {
    if (entry.entry == &d) return entry.id;
  }
  return {};
}

// The device with this id or full name, ignoring case and separators; nullptr if there is none.
[[nodiscard]] inline const device* find_device(std::string_view name) {
  const std::string wanted = detail::lookup::key(name);
  if (wanted.empty()) return nullptr;
  for (const device_id& entry : device_ids) {
    if (detail::lookup::key(entry.id) == wanted || detail::lookup::key(entry.entry->name) == wanted) {
      return entry.entry;
    }
  }
  return nullptr;
}

// Up to `count` ids close to `name`: ids that start with it, then ids or names that contain it, each in
// catalog order; if there are none, ids within a small edit distance, closest first.
[[nodiscard]] inline std::vector<std::string_view> closest_device_ids(std::string_view name, std::size_t count = 3) {
  namespace l = detail::lookup;
  const std::string wanted = l::key(name);
  std::vector<std::pair<std::size_t, std::string_view>> ranked;  // (rank, id), in catalog order
  if (!wanted.empty()) {
    const std::size_t tolerance = std::max<std::size_t>(1, wanted.size() / 4);
    for (const device_id& entry : device_ids) {
      const std::string id = l::key(entry.id);
      const std::size_t distance = l::edit_distance(wanted, id);
      if (id.starts_with(wanted)) {
        ranked.emplace_back(0, entry.id);
      } else if (id.find(wanted) != std::string::npos || l::key(entry.entry->name).find(wanted) != std::string::npos) {
        ranked.emplace_back(1, entry.id);
      } else if (distance <= tolerance) {
        ranked.emplace_back(2 + distance, entry.id);
      }
    }
  }
  // Catalog order within a rank (std::stable_sort's buffer is deprecated in libstdc++ 12 under clang 19).
  std::ranges::sort(ranked, [](const auto& a, const auto& b) {
    return a.first != b.first ? a.first < b.first : l::device_order(a.second) < l::device_order(b.second);
  });
  // Close spellings only when no id starts with or contains the name.
  const bool any_containing = !ranked.empty() && ranked.front().first <= 1;
  std::vector<std::string_view> ids;
  for (std::size_t i = 0; i < ranked.size() && ids.size() < count; ++i) {
    if (!any_containing || ranked[i].first <= 1) ids.push_back(ranked[i].second);
  }
  return ids;
}

// "unknown device 'h10'; did you mean h100_sxm, h100_pcie?"
class unknown_device_error : public std::invalid_argument {
public:
  unknown_device_error(std::string_view name, std::vector<std::string_view> suggestions)
      : std::invalid_argument(message(name, suggestions)), suggestions_{std::move(suggestions)} {}
  [[nodiscard]] const std::vector<std::string_view>& suggestions() const noexcept { return suggestions_; }

private:
  static std::string message(std::string_view name, const std::vector<std::string_view>& suggestions) {
    std::string text = "unknown device '" + std::string{name} + "'; ";
    if (!suggestions.empty()) return text + "did you mean " + detail::lookup::joined(suggestions) + "?";
    std::vector<std::string_view> all;
    for (const device_id& entry : device_ids) all.push_back(entry.id);
    return text + "known devices: " + detail::lookup::joined(all);
  }
  std::vector<std::string_view> suggestions_;
};

// find_device, or unknown_device_error with suggestions.
[[nodiscard]] inline const device& device_named(std::string_view name) {
  if (const device* d = find_device(name)) return *d;
  throw unknown_device_error{name, closest_device_ids(name)};
}

// "fp64", "fp64_tensor", "fp32", "tf32_tensor", "fp16_tensor".
[[nodiscard]] constexpr std::string_view id_of(precision p) noexcept {
  switch (p) {
    case precision::fp64: return "fp64";
    case precision::fp64_tensor: return "fp64_tensor";
    case precision::fp32: return "fp32";
    case precision::tf32_tensor: return "tf32_tensor";
    case precision::fp16_tensor: return "fp16_tensor";
  }
  return "?";
}

// The precision with this id or display name ("FP16 tensor"), ignoring case and separators.
[[nodiscard]] inline precision precision_named(std::string_view name) {
  std::vector<std::string_view> ids;
  for (precision p : all_precisions) {
    if (detail::lookup::key(id_of(p)) == detail::lookup::key(name)) return p;
    ids.push_back(id_of(p));
  }
  throw std::invalid_argument("unknown precision '" + std::string{name} + "'; expected one of " +
                              detail::lookup::joined(ids));
}

// The device's roofline for one precision; a clear error if the device publishes no such peak.
[[nodiscard]] inline roof roof_named(const device& d, precision p) {
  if (!peak(d, p).published()) {
    throw std::invalid_argument(std::string{d.name} + " publishes no " + std::string{to_string(p)} + " peak");
  }
  return roof_of(d, p);
}

}  // namespace hml
