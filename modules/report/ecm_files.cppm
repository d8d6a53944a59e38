// hml.report:ecm_files — the ECM model's inputs read from YAML files, as kerncraft keeps its machines: a
// machine file (a machine description: levels, clock, per-cycle transfer rates, bandwidths measured per stream
// mix, the port model) and a kernel file (a loop_kernel: loops, arrays, accesses, FLOP). Both formats are in
// docs/reference/machine-file.md. Every field is checked: an unknown field, a missing one, a quantity of the
// wrong dimension or a value out of range is an ecm_file_error whose one-line what() names the file, the
// line and the field: "snb.yml:12: memory hierarchy[1].upstream throughput: expected bytes per cycle such
// as 32 B/cy". The parser (yaml-cpp) stays in ecm_files.cpp.
module;
#include <deque>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
export module hml.report:ecm_files;
export import hml.ecm;

export namespace hml {

class ecm_file_error : public std::invalid_argument {
public:
  using std::invalid_argument::invalid_argument;
};

// A machine read from a file, and the text its names view: it owns them. It moves, and does not copy.
class [[gsl::Owner]] loaded_cpu {
public:
  struct storage;
  explicit loaded_cpu(std::unique_ptr<storage> state);
  loaded_cpu(loaded_cpu&&) noexcept;
  loaded_cpu& operator=(loaded_cpu&&) noexcept;
  ~loaded_cpu();

  [[nodiscard]] const machine_description& cpu() const noexcept [[clang::lifetimebound]];  // views what it owns

private:
  std::unique_ptr<storage> state_;
};

// A loop kernel read from a file, owning its names.
class [[gsl::Owner]] loaded_kernel {
public:
  struct storage;
  explicit loaded_kernel(std::unique_ptr<storage> state);
  loaded_kernel(loaded_kernel&&) noexcept;
  loaded_kernel& operator=(loaded_kernel&&) noexcept;
  ~loaded_kernel();

  [[nodiscard]] const loop_kernel& kernel() const noexcept [[clang::lifetimebound]];  // views what it owns

private:
  std::unique_ptr<storage> state_;
};

// What a kernel reader fills: the kernel, and the text its names view (a deque never moves its strings).
// Public so that a reader of another format (hml.c_kernel) builds one too.
struct loaded_kernel::storage {
  std::deque<std::string> text;
  loop_kernel kernel{};
  std::string_view keep(std::string s) { return text.emplace_back(std::move(s)); }
};

// `file` names the text in error messages (a path, or "standard input").
[[nodiscard]] loaded_cpu read_machine_yaml(std::string_view text, std::string_view file);
[[nodiscard]] loaded_kernel read_kernel_yaml(std::string_view text, std::string_view file);

}  // namespace hml
