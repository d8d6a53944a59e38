#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>
#include <CLI/CLI.hpp>

#include "common.hpp"

namespace hml_cli {

std::string_view without_library_prefix(std::string_view message) {
  if (message.starts_with("hml: ")) message.remove_prefix(5);
  return message;
}

int fail(std::string_view message) {
  message = without_library_prefix(message);
  std::fprintf(stderr, "hml: error: %.*s\n", static_cast<int>(message.size()), message.data());
  return 2;
}

output_format output_options::chosen() const {
  if (format == "csv") return output_format::csv;
  if (format == "json") return output_format::json;
  return output_format::table;
}

void add_output_options(CLI::App& command, output_options& options, bool with_format) {
  if (with_format) {
    command.add_option("--format", options.format, "table (aligned text), csv (RFC 4180) or json")
        ->type_name("FORMAT")
        ->check(CLI::IsMember({"table", "csv", "json"}))
        ->capture_default_str();
  }
  command.add_option("-o,--output", options.path, "write to FILE (atomically) instead of standard output (-)")
      ->type_name("FILE");
}

std::string render(const hml::table& t, output_format format, hml::number_format numbers) {
  switch (format) {
    case output_format::csv: return hml::to_csv(t);
    case output_format::json: return hml::to_json(t);
    case output_format::table: break;
  }
  return hml::format_table(t, numbers);
}

void emit(const output_options& options, const std::string& content) {
  if (options.path == "-") {
    // A full disk is an error too, not a silently short output. (A closed pipe ends the process with
    // SIGPIPE first, as it does any Unix filter: `hml ... | head` stops quietly.)
    if (std::fwrite(content.data(), 1, content.size(), stdout) != content.size() || std::fflush(stdout) != 0) {
      throw input_error(std::string{"cannot write to standard output: "} + std::strerror(errno));
    }
  } else {
    hml::write_file_atomically(options.path, content);
  }
}

std::string read_input(std::string_view option, const std::string& path) {
  if (path == "-") return {std::istreambuf_iterator<char>{std::cin}, std::istreambuf_iterator<char>{}};
  const auto cannot_read = [&](const std::string& reason) {
    return input_error(std::string{option} + ": cannot read '" + path + "': " + reason);
  };
  if (std::filesystem::is_directory(path)) throw cannot_read("it is a directory");
  std::ifstream in{path, std::ios::binary};
  if (!in) throw cannot_read(std::strerror(errno));
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throw cannot_read("reading failed");
  return text.str();
}

std::vector<hml::kernel_record> read_kernels(std::string_view option, const std::string& path) {
  const std::string source = std::string{option} + ": " + (path == "-" ? "standard input" : path) + ": ";
  std::vector<hml::kernel_record> kernels;
  try {
    kernels = hml::read_kernels_csv(read_input(option, path));
  } catch (const hml::kernels_csv_error& e) {
    throw input_error(source + e.what());
  }
  if (kernels.empty()) throw input_error(source + "no kernels after the header");
  return kernels;
}

hml::loaded_device read_device_file(std::string_view option, const std::string& path) {
  const std::string text = read_input(option, path);
  try {
    return hml::read_device_json(text);
  } catch (const hml::device_file_error& e) {
    throw input_error(std::string{option} + ": " + (path == "-" ? "standard input" : path) + ": " + e.what());
  }
}

void add_roof_options(CLI::App& command, roof_options& options, bool several_devices) {
  auto* device =
      command.add_option("--device", options.devices,
                         several_devices ? "catalog device id or name (repeat for several); see `hml devices`"
                                         : "catalog device id or name, e.g. h100_sxm; see `hml devices`");
  device->type_name("NAME");
  auto* file = command.add_option("--device-file", options.device_files,
                                  several_devices ? "a device described in a JSON file (repeat for several); see "
                                                    "docs/catalog.md"
                                                  : "a device described in a JSON file; see docs/catalog.md");
  file->type_name("FILE");
  if (!several_devices) {
    device->expected(1);
    file->expected(1);
    device->excludes(file);
  }
  auto* precision = command
                        .add_option("--precision", options.precision,
                                    "required with a device: fp64, fp32, tf32, bf16, fp16, fp8, int8 or int4 "
                                    "(vector units where published, else tensor), or with _vector or _tensor")
                        ->type_name("NAME");
  auto* compute =
      command.add_option("--peak-compute", options.peak_compute, "peak compute, e.g. 5.3TFLOP/s")->type_name("RATE");
  auto* bandwidth =
      command.add_option("--peak-bandwidth", options.peak_bandwidth, "peak bandwidth, e.g. 205GB/s")->type_name("RATE");
  compute->excludes(device)->excludes(file)->needs(bandwidth);
  bandwidth->excludes(device)->excludes(file)->needs(compute);
  precision->excludes(compute);
}

std::vector<named_roof> roofs_of(const roof_options& options) {
  if (options.devices.empty() && options.device_files.empty()) {
    if (options.peak_compute.empty()) {
      throw input_error("give --device NAME or --device-file FILE, or --peak-compute and --peak-bandwidth");
    }
    const auto bandwidth = quantity_of<hml::data_rate>("--peak-bandwidth", options.peak_bandwidth);
    const auto compute = quantity_of<hml::compute_rate>("--peak-compute", options.peak_compute);
    check_option("--peak-bandwidth", [&] { hml::validate_bandwidth(bandwidth); });
    check_option("--peak-compute", [&] { hml::validate_peak(compute); });
    return {{"given", "the given peaks", {bandwidth, compute}}};
  }
  // A device has a roof per precision (FP32 on an H100: ridge 20 FLOP/B; FP16 tensor: 295): never assumed.
  if (options.precision.empty()) {
    throw input_error("--precision: give the precision the kernels run at with a device, e.g. --precision fp32");
  }
  const hml::precision_choice precision =
      check_option("--precision", [&] { return hml::precision_named(options.precision); });
  std::vector<named_roof> roofs;
  const auto add = [&](const hml::device& d, std::string_view option) {
    // Another spelling of a device already given (h100_sxm, H100-SXM) would draw it twice.
    for (const named_roof& r : roofs) {
      if (r.label == d.id) throw input_error(std::string{option} + ": '" + r.label + "' is given twice");
    }
    // A precision the device publishes no peak for is --precision's fault.
    const hml::roof roof = check_option("--precision", [&] { return hml::roof_named(d, precision); });
    roofs.push_back({std::string{d.id},
                     std::string{d.name} + ", " + std::string{hml::to_string(hml::kind_for(d, precision))}, roof});
  };
  for (const std::string& name : options.devices) {
    add(check_option("--device", [&]() -> const hml::device& { return hml::device_named(name); }), "--device");
  }
  for (const std::string& path : options.device_files) {
    const hml::loaded_device file = read_device_file("--device-file", path);
    add(file.machine(), "--device-file");
  }
  return roofs;
}

std::string describe(const hml::roof& r) {
  return hml::to_string(r.peak, {.number = hml::general(4)}) + ", " +
         hml::to_string(r.bandwidth, {.number = hml::general(4), .prefixes = hml::prefix_system::decimal}) +
         ", ridge " + hml::to_string(hml::ridge_point(r), {.number = hml::general(4)});
}

}  // namespace hml_cli
