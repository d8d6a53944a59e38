// What every subcommand shares: reading quantities from option text, the --format and -o options,
// input files, the roof a kernel runs against, and the one-line error.
#pragma once
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>
#include <CLI/CLI.hpp>

import hml;

namespace hml_cli {

// Bad input: the message names the option or file and what is wrong with it.
class input_error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// "hml: error: <message>" on stderr (the library's own "hml: " prefix dropped); returns exit status 2.
int fail(std::string_view message);

// The message of a library exception without the library's "hml: " prefix.
std::string_view without_library_prefix(std::string_view message);

// Runs one of the library's checks or readers on an option's value and returns what it returns; what it
// throws (std::invalid_argument, parse errors among them) becomes an input_error named after the option:
// `check_option("--hit-rate", [&] { hml::validate_hit_rate(h); })`.
template <class Check>
decltype(auto) check_option(std::string_view option, Check&& check) {
  try {
    return std::forward<Check>(check)();
  } catch (const std::invalid_argument& e) {
    throw input_error(std::string{option} + ": " + std::string{without_library_prefix(e.what())});
  }
}

// `text` as a quantity for `option`; an input_error naming the option if it cannot be read.
template <class Q>
Q quantity_of(std::string_view option, const std::string& text, hml::parse_options options = {}) {
  return check_option(option, [&] { return hml::parse<Q>(text, options); });
}

// `text` as an axis (FROM:TO:POINTS[:log], a list or one value) for `option`.
template <class T>
hml::sampled_axis<T> axis_of(std::string_view option, const std::string& text, hml::parse_options options = {}) {
  return check_option(option, [&] { return hml::parse_axis<T>(text, options); });
}

enum class output_format { table, csv, json };

struct output_options {
  std::string format = "table";
  std::string path = "-";  // "-": standard output

  [[nodiscard]] output_format chosen() const;
};

void add_output_options(CLI::App& command, output_options& options, bool with_format = true);

// The table in the chosen format (text tables with `numbers`).
std::string render(const hml::table& t, output_format format, hml::number_format numbers = hml::general(6));

// All of `content` to standard output, or atomically to the file (so a failure leaves no partial file).
void emit(const output_options& options, const std::string& content);

// The whole of a file, or of standard input for "-".
std::string read_input(std::string_view option, const std::string& path);

// The kernels of a CSV file (or "-"); errors name the option, the file and the line.
std::vector<hml::kernel_record> read_kernels(std::string_view option, const std::string& path);

// A device described in a JSON file (or "-"); errors name the option, the file and the field.
hml::loaded_device read_device_file(std::string_view option, const std::string& path);

// The roof to analyze against: --device NAME or --device-file FILE with --precision P (required: a device
// has a peak per precision, and none is assumed), or --peak-compute and --peak-bandwidth.
struct roof_options {
  std::vector<std::string> devices;
  std::vector<std::string> device_files;
  std::string precision;
  std::string peak_compute;
  std::string peak_bandwidth;
};

struct named_roof {
  std::string label;  // the device's id, or "given" for --peak-*
  std::string title;  // "NVIDIA H100 SXM5 80GB, FP32" or "the given peaks"
  hml::roof roof;
};

void add_roof_options(CLI::App& command, roof_options& options, bool several_devices = false);
std::vector<named_roof> roofs_of(const roof_options& options);

// "67 TFLOP/s, 3.35 TB/s, ridge 20 FLOP/B"
std::string describe(const hml::roof& r);

}  // namespace hml_cli
