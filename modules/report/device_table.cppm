// hml.report:device_table — devices as a table, one row each: id, name, cores, clock, main memory (its name,
// capacity, datasheet and measured bandwidth, interface), every compute ceiling that any listed device has
// (dense peak, its kind, sparse figure), the keys of the sources cited and the note. Every figure is followed
// by its kind ("stated", "derived", ...; "not published" with no value: an empty CSV field, a JSON null), and a
// figure that no kind column follows is empty where it is not published. Quantities are in base units
// (B, B/s, Hz, FLOP/s). It lives in the report layer, which may read the catalog; the catalog never reads a
// report.
module;
#include <span>
#include <string>
#include <utility>
#include <vector>
export module hml.report:device_table;
import hml.catalog.lookup;
import :table;

namespace hml::detail {

template <class Q>
std::string kind_text(const figure<Q>& f) {
  return std::string{f.published() ? to_string(f.kind) : "not published"};
}

// A figure's value in base units, or none where it is not published (a 0 would read as a figure).
template <class Q>
cell value_cell(const figure<Q>& f) {
  return f.published() ? cell{f.value.value()} : cell{no_value{}};
}

// Every source key the device cites, once each, in the order first cited.
inline std::vector<std::string_view> cited_keys(const device& d) {
  std::vector<std::string_view> keys;
  const auto cite = [&](const auto& f) {
    if (!f.published() || f.source.empty()) return;
    for (std::string_view k : keys) {
      if (k == f.source) return;
    }
    keys.push_back(f.source);
  };
  for (const level_description& l : d.memory) {
    cite(l.capacity);
    cite(l.bandwidth);
    cite(l.write_bandwidth);
    cite(l.measured_bandwidth);
    cite(l.latency);
    cite(l.interface.pin_rate);
  }
  for (const ceiling_description& c : d.compute) {
    cite(c.dense);
    cite(c.sparse);
    cite(c.measured);
  }
  cite(d.clock);
  cite(d.kernel_overhead);
  cite(d.attention_rate);
  cite(d.int4_weight_rate);
  // Last, so that the numbers above stay those they were before these were cited too.
  for (const level_description& l : d.memory) cite(l.upstream.rate);
  for (const stream_mix_bandwidth& b : d.memory_bandwidths) cite(b.bandwidth);
  for (const domain_description& domain : d.domains) {
    cite(domain.last_cache);
    cite(domain.memory_bandwidth);
  }
  return keys;
}

}  // namespace hml::detail

export namespace hml {

// The keys of every source `d` cites, in the order first cited.
[[nodiscard]] inline std::vector<std::string_view> cited_sources(const device& d) { return detail::cited_keys(d); }

[[nodiscard]] inline table device_table(std::span<const device* const> list = devices::all) {
  table t{{"id", "name", "cores", "clock", "clock_kind", "memory", "capacity", "capacity_kind", "bandwidth",
           "bandwidth_kind", "measured_bandwidth", "bus_bits", "pin_rate", "pin_rate_kind"},
          {}};
  // The compute kinds any listed device has, in precision order, vector before tensor.
  std::vector<compute_kind> kinds;
  for (precision p : all_precisions) {
    for (compute_unit u : {compute_unit::vector, compute_unit::tensor}) {
      for (const device* d : list) {
        if (find_ceiling(*d, {p, u}) != nullptr) {
          kinds.push_back({p, u});
          break;
        }
      }
    }
  }
  for (compute_kind k : kinds) {
    const std::string id = id_of(k);
    t.columns.insert(t.columns.end(), {id, id + "_kind", id + "_sparse"});
  }
  t.columns.insert(t.columns.end(), {"sources", "note"});
  for (const device* d : list) {
    const level_description& main = main_memory(*d);
    std::vector<cell> row{std::string{d->id},
                          std::string{d->name},
                          d->cores > 0 ? cell{static_cast<double>(d->cores)} : cell{no_value{}},  // 0: not known
                          detail::value_cell(d->clock),
                          detail::kind_text(d->clock),
                          std::string{main.name},
                          detail::value_cell(main.capacity),
                          detail::kind_text(main.capacity),
                          detail::value_cell(main.bandwidth),
                          detail::kind_text(main.bandwidth),
                          detail::value_cell(main.measured_bandwidth),
                          main.interface.bus_bits > 0 ? cell{static_cast<double>(main.interface.channels) *
                                                             static_cast<double>(main.interface.bus_bits)}
                                                      : cell{no_value{}},
                          detail::value_cell(main.interface.pin_rate),
                          detail::kind_text(main.interface.pin_rate)};
    for (compute_kind k : kinds) {
      const ceiling_description* c = find_ceiling(*d, k);
      const ceiling_description none{};
      const ceiling_description& ceiling = c != nullptr ? *c : none;
      row.emplace_back(detail::value_cell(ceiling.dense));
      row.emplace_back(detail::kind_text(ceiling.dense));
      row.emplace_back(detail::value_cell(ceiling.sparse));
    }
    std::string keys;
    for (std::string_view k : detail::cited_keys(*d)) keys += (keys.empty() ? "" : " ") + std::string{k};
    row.emplace_back(std::move(keys));
    row.emplace_back(std::string{d->note});
    t.add_row(std::move(row));
  }
  return t;
}

}  // namespace hml
