// hml.report:device_json — a machine description written as a device file (the format hml.report:
// device_file reads; docs/reference/catalog.md), so that a description made in code or measured by the probe can be
// kept, edited and given back to `hml` with --device-file. Quantities are written in base units with the
// shortest digits that read back as the same double ("2039000000000 B/s"); only the sources the device
// cites are listed. The writer (nlohmann-json, for the escaping) is in device_json.cpp.
module;
#include <span>
#include <string>
export module hml.report:device_json;
import hml.catalog.lookup;

export namespace hml {

// The device as a JSON device file; `sources` are looked up for the keys its figures cite (a key not in
// them is written as a source whose title and place are the key).
[[nodiscard]] std::string to_device_json(const device& d, std::span<const source> sources = devices::sources);

}  // namespace hml
