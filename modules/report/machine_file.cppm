// hml.report:machine_file — the one file format of a machine (docs/reference/machine-file.md): a machine as
// hml::machine_description holds it, field for field, in YAML or JSON (one schema: yaml-cpp reads both), with
// units written with each value ("3.35 TB/s", "32 B/cy") and every figure's provenance and source, stated
// and measured side by side (`bandwidth` and `measured_bandwidth`). A file holds one machine, its fields at
// the top level, or a document of several machines, the links between them and systems (`hml devices
// --format yaml` writes the whole catalog so). Writing a machine and reading it back gives the same machine,
// to the last bit of every figure.
//
//   format: hml-machine/1
//   id: my_gpu
//   name: My GPU
//   memory:
//     - {name: L2, capacity: 40 MB}
//     - name: HBM
//       capacity: 80 GB
//       bandwidth: {value: 2 TB/s, kind: stated, source: spec}
//       measured_bandwidth: {value: 1.7 TB/s, kind: measured, source: spec}
//   compute:
//     - {precision: fp32, unit: vector, dense: 19.5 TFLOP/s}
//   sources:
//     - {key: spec, title: My GPU datasheet, where: example.com/my-gpu.pdf}
//
// The reader refuses, in one line naming the file, the line and the field: an unknown field, a field given
// twice, a quantity of the wrong dimension, a value that is not finite or not > 0, a source no list holds,
// a second document, a NUL byte. The parser and the writers (yaml-cpp, nlohmann-json) stay in
// machine_file.cpp.
module;
#include <algorithm>
#include <array>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
export module hml.report:machine_file;
import hml.catalog.lookup;

export namespace hml {

// The format's name and version, the first field of every file: a reader refuses any other.
inline constexpr std::string_view machine_file_format = "hml-machine/1";

class machine_file_error : public std::invalid_argument {
public:
  using std::invalid_argument::invalid_argument;
};

enum class file_syntax { yaml, json };

// What a machine file holds, and the text its descriptions view (names, notes, source keys): it owns them,
// so they live as long as this object. It moves, and does not copy. Its descriptions are gsl::Pointers of it:
// clang warns where one is kept, by reference or as a copy, past a temporary file.
class [[gsl::Owner]] machine_file {
public:
  struct storage;  // the text and the descriptions, at stable addresses

  explicit machine_file(std::unique_ptr<storage> state);
  machine_file(machine_file&&) noexcept;
  machine_file& operator=(machine_file&&) noexcept;
  ~machine_file();

  // Each views what the file owns; clang warns where the file is a temporary whose views would outlive it
  // (const auto& m = read_machine_file(...).machine() compiled silently, and crashed when read).
  [[nodiscard]] std::span<const machine_description* const> machines() const noexcept [[clang::lifetimebound]];
  [[nodiscard]] std::span<const link_description* const> links() const noexcept [[clang::lifetimebound]];
  [[nodiscard]] std::span<const system_description* const> systems() const noexcept [[clang::lifetimebound]];
  [[nodiscard]] std::span<const source> sources() const noexcept [[clang::lifetimebound]];
  // The file's machine; machine_file_error if it holds none or several.
  [[nodiscard]] const machine_description& machine() const [[clang::lifetimebound]];
  // The line (1-based) of `field` ("memory[1].scope") of one of its machines, or of the deepest field on the
  // way that is there (a field left out: its level's); 0 for a machine not of this file. For a message about
  // a machine made after reading it (a model's check), placed as the reader places its own.
  [[nodiscard]] int line_of(const machine_description& m, std::string_view field) const;

private:
  std::unique_ptr<storage> state_;
};

// The machine file in `text`; `file` names it in messages ("my_gpu.yaml", "standard input"). A system's
// host, device and link are looked up in the file first, then in the catalog.
[[nodiscard]] machine_file read_machine_file(std::string_view text, std::string_view file);

namespace detail {
// The fields of one machine, in a document's list or alone in a file (which adds its format and sources).
inline constexpr std::array<std::string_view, 17> machine_fields{
    "id", "name", "note", "cores", "clock", "kernel_overhead", "attention_rate", "int4_weight_rate", "cacheline",
    "write_allocate", "layer_condition_share", "ports", "llvm_cpu", "memory", "compute", "memory_bandwidths", "domains"};
}  // namespace detail

// Whether `field` is one this format takes at a file's top level (a machine's, or format, machines, links,
// systems and sources): an older device file that holds one is most likely a machine file without its format.
[[nodiscard]] constexpr bool is_machine_file_field(std::string_view field) noexcept {
  constexpr std::array<std::string_view, 5> file_fields{"format", "machines", "links", "systems", "sources"};
  return std::ranges::find(detail::machine_fields, field) != detail::machine_fields.end() ||
         std::ranges::find(file_fields, field) != file_fields.end();
}

// Whether `text` is in this format (its first field is `format`), so that a reader of older files can tell;
// text that is not YAML but names the format ("hml-machine/") counts, so that its YAML error is reported.
[[nodiscard]] bool is_machine_file(std::string_view text);

// What a document holds. A system's host, device and link are written by id: they are written in full
// when they are in the lists, and read back from the catalog when they are not.
struct machine_document {
  std::span<const machine_description* const> machines{};
  std::span<const link_description* const> links{};
  std::span<const system_description* const> systems{};
};

// One machine at the top level. Each source a figure cites is looked up in `sources`, then in the
// catalog's lists (a key in neither is written as its own title).
[[nodiscard]] std::string write_machine_file(const machine_description& m, file_syntax syntax,
                                             std::span<const source> sources = {});
// A document of machines, links and systems.
[[nodiscard]] std::string write_machine_file(const machine_document& d, file_syntax syntax,
                                             std::span<const source> sources = {});

}  // namespace hml
