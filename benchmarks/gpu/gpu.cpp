// The GPU probe and fidelity table: device-to-device copy, triad and vector add bandwidth and the FP32 FMA
// peak, measured by the CUDA layer (gpu_kernels.cu), held against the catalog's figures for this GPU and
// against the time the library predicts for each kernel. Writes the `gpu` section of benchmarks/README.md.
// Without a CUDA device it says so on stderr and exits 0 without writing, so the README keeps the figures
// measured where there was one.
#include <CLI/CLI.hpp>

#include <cstddef>
#include <cstdio>
#include <exception>
#include <string>
#include <string_view>

#include "gpu_kernels.hpp"
#include "../prediction_error.hpp"

import hml;

namespace {

// The catalog entry this GPU is, by its name; nullptr when the catalog has none.
const hml::device* catalog_entry(std::string_view name) {
  if (name.find("H200") != std::string_view::npos) return &hml::devices::h200;
  if (name.find("H100") != std::string_view::npos) {
    return name.find("PCIe") != std::string_view::npos ? &hml::devices::h100_pcie : &hml::devices::h100_sxm;
  }
  return nullptr;
}

std::string text(auto quantity) { return hml::to_string(quantity); }

hml::cell percent_of(double measured, const hml::device* d, double catalog) {
  if (d == nullptr) return std::string{"-"};
  return measured / catalog * 100.0;
}

std::string report(const gpu::device_info& gpu, bool tiny) {
  const std::size_t n = tiny ? std::size_t{1} << 20 : std::size_t{1} << 28;  // floats per array: 1 GiB each
  const int repetitions = tiny ? 2 : 20;
  const hml::device* catalog = catalog_entry(gpu.name);

  const hml::kernel copy = hml::copy<float>(n), triad = hml::triad<float>(n), add = hml::vector_add<float>(n);
  const hml::duration copy_time = gpu::time_device_copy(n, repetitions) * hml::second;
  const hml::duration triad_time = gpu::time_triad(n, repetitions) * hml::second;
  const hml::duration add_time = gpu::time_vector_add(n, repetitions) * hml::second;
  double fma_flops = 0;
  const hml::duration fma_time = gpu::time_fma_peak(repetitions, fma_flops) * hml::second;

  // The probed machine: triad bandwidth (as on the host) and the FMA peak.
  const hml::roof probed{triad.bytes / triad_time, fma_flops * hml::flop / fma_time};
  const hml::data_rate copy_rate = copy.bytes / copy_time;

  std::string out = "GPU: " + std::string{gpu.name} + " (" + std::to_string(gpu.multiprocessors) + " SMs); catalog entry: " +
                    (catalog ? std::string{catalog->name} : std::string{"none"}) + ".\n\n";
  hml::table probe{{"figure", "measured", "catalog", "% of catalog"}, {}};
  const std::string stated_bandwidth = catalog ? text(hml::main_memory(*catalog).bandwidth.value) : "-";
  probe.add_row({"copy (device to device)", text(copy_rate), stated_bandwidth,
                 percent_of(copy_rate.value(), catalog, catalog ? hml::main_memory(*catalog).bandwidth.value.value() : 0)});
  probe.add_row({"triad", text(probed.bandwidth), stated_bandwidth,
                 percent_of(probed.bandwidth.value(), catalog, catalog ? hml::main_memory(*catalog).bandwidth.value.value() : 0)});
  probe.add_row({"FP32 FMA peak", text(probed.peak), catalog ? text(hml::peak(*catalog, {hml::precision::fp32, hml::compute_unit::vector}).value) : "-",
                 percent_of(probed.peak.value(), catalog, catalog ? hml::peak(*catalog, {hml::precision::fp32, hml::compute_unit::vector}).value.value() : 0)});
  out += "```text\n" + hml::format_table(probe) + "```\n\n";

  const hml::memory memory{0 * hml::second, probed.bandwidth};
  const hml::compute_core core{probed.peak};
  hml::table fidelity{{"kernel", "n", "measured", "hml::run (probed)", "error %", "roofline (catalog)", "error %"}, {}};
  for (const auto& [k, t] : {std::pair{copy, copy_time}, std::pair{triad, triad_time}, std::pair{add, add_time}}) {
    const hml::duration model = hml::run(k, memory, core, {.overlap_policy = hml::overlap::full}).total;
    hml::cell stated = std::string{"-"}, stated_error = std::string{"-"};
    if (catalog != nullptr) {  // the datasheet's roof: time = bytes at the stated bandwidth, or FLOP at the peak
      const hml::duration roof_time =
          hml::run(k, hml::memory{0 * hml::second, hml::main_memory(*catalog).bandwidth.value}, hml::compute_core{hml::peak(*catalog, {hml::precision::fp32, hml::compute_unit::vector}).value},
                   {.overlap_policy = hml::overlap::full})
              .total;
      stated = text(roof_time);
      stated_error = bench::error_percent(roof_time, t);
    }
    fidelity.add_row({std::string{k.name}, static_cast<double>(n), text(t), text(model), bench::error_percent(model, t),
                      stated, stated_error});
  }
  out += "```text\n" + hml::format_table(fidelity) + "```\n";
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"gpu: CUDA bandwidth and FP32 peak against the catalog and the models"};
  std::string out_path;
  bool tiny = false;
  app.add_option("--out", out_path, "write the Markdown fragment to this file (default: stdout)");
  app.add_flag("--tiny", tiny, "small sizes: checks that the program runs");
  CLI11_PARSE(app, argc, argv);
  try {
    const gpu::device_info gpu = gpu::first_device();
    if (!gpu.present) {
      std::fputs("gpu: no CUDA device found; nothing measured (benchmarks/README.md keeps its GPU figures)\n", stderr);
      return 0;
    }
    const std::string fragment = report(gpu, tiny);
    if (out_path.empty()) {
      std::fputs(fragment.c_str(), stdout);
    } else {
      hml::write_file_atomically(out_path, fragment);
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "gpu: error: %s\n", e.what());
    return 1;
  }
  return 0;
}
