// hml.report:device_table — the catalog as a table: id, name, memory, every figure followed by its kind
// ("vendor-stated", "derived", ...; "not published" with a value of 0), source and note. Rates are in B/s
// and FLOP/s. It lives in the report layer, which may read the catalog; the catalog never reads a report.
module;
#include <span>
#include <string>
#include <utility>
#include <vector>
export module hml.report:device_table;
import hml.catalog.lookup;
import :table;

export namespace hml {

[[nodiscard]] inline table device_table(std::span<const device* const> list = devices::all) {
  table t{{"id", "name", "memory", "bandwidth", "bandwidth_kind", "bus_bits", "pin_rate", "pin_rate_kind"}, {}};
  for (precision p : all_precisions) {
    t.columns.push_back(std::string{id_of(p)});
    t.columns.push_back(std::string{id_of(p)} + "_kind");
  }
  t.columns.insert(t.columns.end(), {"source", "note"});
  const auto kind = [](const auto& f) { return std::string{f.published() ? to_string(f.kind) : "not published"}; };
  for (const device* d : list) {
    std::vector<cell> row{std::string{id_of(*d)}, std::string{d->name}, std::string{d->memory},
                          d->bandwidth.value.value(), kind(d->bandwidth), static_cast<double>(d->interface.bus_bits),
                          d->interface.pin_rate.value.value(), kind(d->interface.pin_rate)};
    for (precision p : all_precisions) {
      row.emplace_back(peak(*d, p).value.value());
      row.emplace_back(kind(peak(*d, p)));
    }
    row.emplace_back(std::string{d->source});
    row.emplace_back(std::string{d->note});
    t.add_row(std::move(row));
  }
  return t;
}

}  // namespace hml
