// hml.report:device_file — a machine description read from a JSON file, so that users can describe their
// own machine in the shape the catalog uses (docs/reference/catalog.md, "Your own machine"):
//
//   {
//     "id": "my_gpu", "name": "My GPU",
//     "sources": [{"key": "spec", "title": "My GPU datasheet", "where": "example.com/my-gpu.pdf"}],
//     "memory": [
//       {"name": "L2", "capacity": "40 MB"},
//       {"name": "HBM", "capacity": "80 GB", "bandwidth": {"value": "2 TB/s", "kind": "stated", "source": "spec"},
//        "interface": {"bus_bits": 5120, "pin_rate": "3.2 Gbit/s"}}
//     ],
//     "compute": [{"precision": "fp32", "unit": "vector", "dense": "19.5 TFLOP/s"},
//                 {"precision": "fp16", "unit": "tensor", "dense": "312 TFLOP/s", "sparse": "624 TFLOP/s"}]
//   }
//
// A figure is a quantity with its unit ("2 TB/s"), stated and citing nothing, or an object with its value,
// kind (stated, derived, measured, unconfirmed) and the key of one of the file's sources. The reader checks
// every field: an unknown field, a quantity of the wrong dimension, a value <= 0, a source that is not
// listed, two peaks for one precision and unit, or no main-memory bandwidth is a device_file_error naming
// the field ("memory[1].bandwidth: ..."). The parser (nlohmann-json) stays in device_file.cpp.
module;
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
export module hml.report:device_file;
import hml.catalog.lookup;

export namespace hml {

// A bad device file: what() is "FILE:LINE: <field>: <what is wrong>" (or "FILE:LINE: not JSON: ..."). The
// field is a path into the file, such as memory[1].bandwidth.
class device_file_error : public std::invalid_argument {
public:
  using std::invalid_argument::invalid_argument;
};

// A device read from a file, and the text its figures view (names, source keys, notes): it owns them, so
// the device lives as long as this object. It moves, and does not copy.
class [[gsl::Owner]] loaded_device {
public:
  struct storage;  // the text and the description, at a stable address

  explicit loaded_device(std::unique_ptr<storage> state);
  loaded_device(loaded_device&&) noexcept;
  loaded_device& operator=(loaded_device&&) noexcept;
  ~loaded_device();

  [[nodiscard]] const device& machine() const noexcept [[clang::lifetimebound]];
  [[nodiscard]] std::span<const source> sources() const noexcept [[clang::lifetimebound]];
  // The device as a list of one, for lookup (find_machine, machine_named) and device_table.
  [[nodiscard]] std::span<const device* const> as_list() const noexcept [[clang::lifetimebound]];

private:
  std::unique_ptr<storage> state_;
};

// The device described by this JSON text; device_file_error if anything in it is wrong, whose what() is
// "FILE:LINE: field: what is wrong" (`file` names the text: a path, "standard input").
[[nodiscard]] loaded_device read_device_json(std::string_view text, std::string_view file = "device.json");

}  // namespace hml
