// The GPU's figures, measured, against the catalog and the models: reads the CSV files gpu_measure,
// layer_step.py, attention.py, model_step.py, eager_step.py, first_token.py and weight_only.py wrote on a machine with the GPU
// (benchmarks/gpu/measured/<machine>/), and writes the `gpu`
// section of docs/explanation/benchmarks/gpu.md (its verdict lines go into benchmarks/README.md). It needs no
// GPU: the measurements are data, so the tables follow the models wherever they change, and `--check PAGE
// --check-report README` fails when the page's section or the report's verdicts are not what the
// measurements and today's models give.
//
// Four tables here: the measured hierarchical roofline beside the catalog's figures; copy and triad from the
// L1 to HBM beside hml::run at the ceiling of the level the working set fits in; cuBLASLt GEMMs at LLM shapes
// beside the operator model of `hml llm`; one Llama layer's decode step beside the same model. Then
// attention_report.cpp's: attention kernels, kernel launches and a whole model; eager_report.cpp's,
// first_token_report.cpp's and weight_only_report.cpp's.
#include <CLI/CLI.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "../prediction_error.hpp"
#include "attention_report.hpp"
#include "eager_report.hpp"
#include "first_token_report.hpp"
#include "weight_only_report.hpp"
#include "report_support.hpp"

import hml;

namespace {

using namespace hml::literals;
using namespace gpu;

// An H100's or H200's SM: 256 KiB of L1 and shared memory together (NVIDIA's H100 whitepaper). A working
// set of more than this an SM is not counted as the L1's.
constexpr hml::data_size l1_per_sm = 256_KiB;

struct bandwidth_run {
  std::string kernel, reuse;  // read, copy, triad, shared-read; own or rotating
  std::uint64_t arrays, slice_bytes, slices, passes;
  hml::duration time;
  [[nodiscard]] hml::data_size working_set() const {
    return static_cast<double>(arrays * slice_bytes * slices) * hml::byte;
  }
  [[nodiscard]] hml::data_size per_sm(unsigned sms) const { return working_set() / static_cast<double>(sms); }
  // Served by the L1: a block re-reads its own slices, and an SM's slices fit its L1.
  [[nodiscard]] bool in_l1(unsigned sms) const { return reuse == "own" && per_sm(sms) <= l1_per_sm; }
  // The elements of one array it touches over all its passes.
  [[nodiscard]] std::uint64_t elements() const { return slice_bytes / sizeof(float) * slices * passes; }
  // The kernel as hml::workload counts it.
  [[nodiscard]] hml::kernel as_kernel() const {
    const std::uint64_t n = elements();
    if (kernel == "copy") return hml::copy<float>(n);
    if (kernel == "triad") return hml::triad<float>(n);
    if (kernel == "write") return hml::store<float>(n);
    return hml::reduction<float>(n);  // read and shared-read: every element read once, one addition
  }
  [[nodiscard]] hml::data_rate rate() const { return as_kernel().bytes / time; }
  // Its stores alone (copy and triad write one array of the two or three).
  [[nodiscard]] hml::kernel stores() const { return hml::store<float>(elements()); }
};

struct gemm_run {
  std::string shape, precision;
  std::uint64_t m, n, k;  // m output features, n tokens, k input features
  hml::duration time;
};

struct layer_run {
  std::uint64_t batch, context;
  hml::duration time, eager;
  std::string torch;
};

struct measurements {
  std::string name, driver;
  unsigned sms = 0;
  hml::data_size l2{};
  std::map<std::string, hml::compute_rate> vector_peaks;
  std::vector<bandwidth_run> bandwidth;
  std::vector<gemm_run> gemms;
  std::vector<layer_run> layers;
};

measurements read_measurements(const std::string& folder) {
  measurements m;
  const csv_rows device = read_csv(folder, "device.csv",
                                   "name,multiprocessors,l2_bytes,memory_bytes,memory_bus_bits,compute_capability,"
                                   "cuda_driver,cuda_runtime,cublaslt");
  if (device.rows.size() != 1) throw std::runtime_error(device.path + ": expected one device");
  m.name = device.rows[0][0];
  m.sms = static_cast<unsigned>(count(device.rows[0][1]));
  m.l2 = number(device.rows[0][2]) * hml::byte;
  m.driver = "CUDA " + std::to_string(count(device.rows[0][6]) / 1000) + "." +
             std::to_string(count(device.rows[0][6]) % 1000 / 10) + " driver API, cuBLASLt " + device.rows[0][8];
  for (const auto& r : read_csv(folder, "peaks.csv", "precision,flop,seconds").rows) {
    m.vector_peaks[r[0]] = number(r[1]) * hml::flop / (number(r[2]) * hml::second);
  }
  for (const auto& r : read_csv(folder, "bandwidth.csv", "kernel,reuse,arrays,slice_bytes,slices,passes,seconds").rows) {
    m.bandwidth.push_back({r[0], r[1], count(r[2]), count(r[3]), count(r[4]), count(r[5]), number(r[6]) * hml::second});
  }
  for (const auto& r : read_csv(folder, "gemm.csv", "shape,precision,m,n,k,repeats,seconds").rows) {
    if (r[6] == "skipped") continue;
    m.gemms.push_back({r[0], r[1], count(r[2]), count(r[3]), count(r[4]), number(r[6]) * hml::second});
  }
  for (const auto& r : read_csv(folder, "layer.csv", "model,batch,context,seconds,eager_seconds,torch").rows) {
    m.layers.push_back({count(r[1]), count(r[2]), number(r[3]) * hml::second, number(r[4]) * hml::second, r[5]});
  }
  return m;
}

// --- 1. The hierarchical roofline ----------------------------------------------------------------------------

struct level_ceilings {
  hml::data_rate shared, l1, l2, l2_write, hbm_read, hbm_write, hbm_copy, hbm_triad;
};

// The fastest read of each level: own slices that fit an SM's L1; rotating slices that fit the L2; the
// largest working set of each kernel for HBM.
level_ceilings ceilings_of(const measurements& m) {
  level_ceilings c{};
  hml::data_size largest{};
  for (const bandwidth_run& r : m.bandwidth) {
    if (r.kernel == "shared-read") c.shared = std::max(c.shared, r.rate());
    if (r.kernel == "read" && r.in_l1(m.sms)) c.l1 = std::max(c.l1, r.rate());
    if (r.kernel == "read" && r.reuse == "rotating" && r.working_set() <= m.l2) c.l2 = std::max(c.l2, r.rate());
    if (r.kernel == "write" && r.working_set() <= m.l2) c.l2_write = std::max(c.l2_write, r.rate());
    largest = std::max(largest, r.working_set());
  }
  for (const bandwidth_run& r : m.bandwidth) {
    if (r.reuse != "rotating" || r.working_set() < largest / 4) continue;  // the largest sets, far past the L2
    hml::data_rate& hbm = r.kernel == "read"  ? c.hbm_read
                          : r.kernel == "write" ? c.hbm_write
                          : r.kernel == "copy"  ? c.hbm_copy
                                                : c.hbm_triad;
    hbm = std::max(hbm, r.rate());
  }
  return c;
}

std::string roofline_table(const measurements& m, const hml::device& d, const level_ceilings& c) {
  hml::table t{{"ceiling", "measured", "catalog, stated", "measured / stated", "catalog, measured", "measured / that"}, {}};
  const auto row = [&](std::string name, auto measured, auto stated, auto published) {
    const bool has_stated = stated.published(), has_published = published.published();
    // A figure the catalog took from these measurements must still be what they give (to the digits shown).
    if (has_published && published.source.starts_with("hml-gpu-") && text(published.value) != text(measured)) {
      throw std::runtime_error("the catalog's " + name + " of " + std::string{d.id} + ", " + text(published.value) +
                               ", is not the measured " + text(measured));
    }
    t.add_row({std::move(name), text(measured), has_stated ? text(stated.value) : "-",
               has_stated ? ratio(measured / stated.value) : "-",
               has_published ? text(published.value) + " (" + std::string{published.source} + ")" : "-",
               has_published ? ratio(measured / published.value) : "-"});
  };
  const hml::figure<hml::data_rate> none{};
  const hml::level_description& main = hml::main_memory(d);
  row("shared memory, read", c.shared, none, none);
  const auto level = [&](std::string_view name) -> const hml::level_description& {
    for (const hml::level_description& l : d.memory) {
      if (l.name == name) return l;
    }
    throw std::runtime_error("the catalog has no " + std::string{name} + " for " + std::string{d.id});
  };
  row("L1, read", c.l1, none, level("L1").measured_bandwidth);
  row("L2, read", c.l2, none, level("L2").measured_bandwidth);
  row("L2, write", c.l2_write, none, none);
  for (const auto& [name, rate] : {std::pair{"HBM, read", c.hbm_read}, {"HBM, write", c.hbm_write}, {"HBM, copy", c.hbm_copy},
                                   {"HBM, triad", c.hbm_triad}}) {
    row(name, rate, main.bandwidth, main.measured_bandwidth);
  }
  using enum hml::precision;
  using enum hml::compute_unit;
  const auto ceiling = [&](hml::precision p, hml::compute_unit u) -> const hml::ceiling_description& {
    const hml::ceiling_description* c = hml::find_ceiling(d, {p, u});
    if (c == nullptr) throw std::runtime_error("the catalog has no " + std::string{hml::to_string(p)} + " ceiling");
    return *c;
  };
  row("FP64, vector FMA", m.vector_peaks.at("fp64"), ceiling(fp64, vector).dense, ceiling(fp64, vector).measured);
  row("FP32, vector FMA", m.vector_peaks.at("fp32"), ceiling(fp32, vector).dense, ceiling(fp32, vector).measured);
  for (const gemm_run& g : m.gemms) {
    if (g.shape != "peak") continue;
    const hml::precision p = precision_of(g.precision);
    const hml::compute_rate rate = hml::matmul<float>(g.m).flops / g.time;  // 2 m^3, whatever the element type
    row(std::string{hml::to_string(p)} + ", tensor (cuBLASLt GEMM " + std::to_string(g.m) + "^3)", rate,
        ceiling(p, tensor).dense, ceiling(p, tensor).measured);
  }
  return code_block(t);
}

// --- 2. Copy and triad from the L1 to HBM -----------------------------------------------------------------

std::string streams_table(const measurements& m, const hml::device& d, const level_ceilings& c,
                          error_summary& in_cache, error_summary& in_hbm) {
  hml::table t{{"kernel", "working set", "an SM's", "level", "measured", "at the read ceiling", "error",
                "reads and writes", "error", "roofline, HBM stated", "error"},
               {}};
  const hml::data_rate stated = hml::main_memory(d).bandwidth.value;
  const hml::compute_core core{hml::peak(d, {hml::precision::fp32, hml::compute_unit::vector}).value};
  const auto time_at = [&](const hml::kernel& k, hml::data_rate bandwidth) {
    return hml::run(k, hml::memory{0 * hml::second, bandwidth}, core, {.overlap_policy = hml::overlap::full}).total;
  };
  for (const bandwidth_run& r : m.bandwidth) {
    if (r.kernel != "copy" && r.kernel != "triad") continue;
    const bool l1 = r.in_l1(m.sms);
    const bool l2 = !l1 && r.working_set() <= m.l2;
    const hml::data_rate reads = l1 ? c.l1 : l2 ? c.l2 : c.hbm_read;
    const hml::data_rate writes = l1 || l2 ? c.l2_write : c.hbm_write;  // the L1 writes through to the L2
    // Reads and writes at once, each at its own ceiling: the slower binds.
    const hml::duration read_time = time_at(r.as_kernel(), reads);
    const hml::duration both_time = std::max(read_time, time_at(r.stores(), writes));
    const hml::duration roof_time = time_at(r.as_kernel(), stated);
    const double error = (l1 || l2 ? in_cache : in_hbm).add(both_time, r.time);
    t.add_row({r.kernel + " (" + r.reuse + ")", text(r.working_set()), text(r.per_sm(m.sms)), l1 ? "L1" : l2 ? "L2" : "HBM",
               text(r.time), text(read_time), percent(bench::error_percent(read_time, r.time)), text(both_time),
               percent(error), text(roof_time), percent(bench::error_percent(roof_time, r.time))});
  }
  return code_block(t);
}

// --- 3. GEMMs at LLM shapes ---------------------------------------------------------------------------------

std::string gemm_table(const measurements& m, const machine_views& on, std::map<std::string, error_summary>& errors) {
  hml::table t{{"layer", "type", "tokens", "measured", "bound, stated", "error", "bound, measured ceilings", "error",
                "expected (hml llm)", "error"},
               {}};
  for (const gemm_run& g : m.gemms) {
    if (g.shape == "peak") continue;
    const hml::precision p = precision_of(g.precision);
    const hml::operator_cost op = hml::linear(g.shape, g.n, g.k, g.m, p, p);
    const hml::duration bound = hml::time_on(op, on.stated, options_for(p, hml::estimate::bound)).time;
    const hml::duration bound_measured = hml::time_on(op, on.measured, options_for(p, hml::estimate::bound)).time;
    const hml::duration expected = hml::time_on(op, on.measured, options_for(p, hml::estimate::expected)).time;
    const std::string phase = g.n <= 256 ? "decode" : "prefill";
    const double expected_error = errors[g.precision + " " + phase + ", expected"].add(expected, g.time);
    const double bound_error = errors[g.precision + " " + phase + ", bound"].add(bound, g.time);
    t.add_row({g.shape, g.precision, static_cast<double>(g.n), text(g.time), text(bound), percent(bound_error),
               text(bound_measured), percent(bench::error_percent(bound_measured, g.time)), text(expected),
               percent(expected_error)});
  }
  return code_block(t);
}

// --- 4. A layer's decode step ---------------------------------------------------------------------------

// The operators of one layer: a one-layer model's step without the embedding and the LM head (its norms
// row also holds the final norm, on the batch's rows only).
hml::duration layer_time(const hml::step_analysis& s) {
  hml::duration sum{};
  for (const hml::operator_time& op : s.operators) {
    if (op.op.name != "embedding" && op.op.name != "LM head") sum += op.time;
  }
  return sum;
}

std::string layer_table(const measurements& m, const machine_views& on, error_summary& expected_errors,
                        error_summary& bound_errors) {
  hml::table t{{"batch", "context", "measured (graph)", "eager", "bound, stated", "error", "expected (hml llm)", "error"}, {}};
  hml::transformer layer = hml::models::llama_3_8b;
  layer.layers = 1;
  for (const layer_run& r : m.layers) {
    const hml::step_shape step = hml::decode_step(r.batch, r.context);
    const hml::duration bound =
        layer_time(hml::analyze_step(layer, step, on.stated, options_for(hml::precision::bf16, hml::estimate::bound)));
    const hml::duration expected =
        layer_time(hml::analyze_step(layer, step, on.measured, options_for(hml::precision::bf16, hml::estimate::expected)));
    const double bound_error = bound_errors.add(bound, r.time), expected_error = expected_errors.add(expected, r.time);
    t.add_row({static_cast<double>(r.batch), static_cast<double>(r.context), text(r.time), text(r.eager), text(bound),
               percent(bound_error), text(expected), percent(expected_error)});
  }
  return code_block(t);
}

std::string report(const measurements& m, const std::string& folder, const std::string& shown) {
  const hml::device& d = catalog_entry(m.name);
  const level_ceilings c = ceilings_of(m);
  const machine_views on{d};
  std::string out = "### " + m.name + "\n\n" + std::to_string(m.sms) + " SMs, " + text(m.l2) + " of L2 (as CUDA reports them); " +
                    m.driver + ". Measurements: `" + shown + "/`; catalog entry `" + std::string{d.id} + "`.\n\n";

  out += "#### The hierarchical roofline\n\n" + roofline_table(m, d, c) + "\n";

  error_summary in_cache, in_hbm;
  const std::string streams = streams_table(m, d, c, in_cache, in_hbm);
  out += "#### Copy and triad from the L1 to HBM\n\n" + streams + "\n";
  out += "**hml::run at the read and write ceilings of the level the working set fits in: mean absolute error " +
         in_hbm.text() + " sizes in HBM, " + in_cache.text() + " in the L1 or L2.**\n\n";

  std::map<std::string, error_summary> gemm_errors;
  const std::string gemms = gemm_table(m, on, gemm_errors);
  out += "#### Matrix products at LLM shapes (cuBLASLt)\n\n" + gemms + "\n";
  out += "**Mean absolute error of the operator model:";
  for (const auto& [name, e] : gemm_errors) out += " " + name + " " + e.text() + ";";
  out.back() = '.';
  out += "**\n\n";

  error_summary expected_errors, bound_errors;
  const std::string layers = layer_table(m, on, expected_errors, bound_errors);
  out += "#### One Llama 3 8B layer's decode step (PyTorch " + (m.layers.empty() ? std::string{"-"} : m.layers[0].torch) +
         ", BF16)\n\n" + layers + "\n";
  out += "**Mean absolute error of the layer's decode step: expected " + expected_errors.text() + ", bound " +
         bound_errors.text() + ".**\n\n";
  out += attention_and_model_report(folder, d, on);
  for (const std::string& part : {eager_report(folder, on), first_token_report(folder, on), weight_only_report(folder, on)}) {
    if (!part.empty()) out += "\n" + part;
  }
  return out;
}

// The text between `<!-- NAME -->\n` and `<!-- /NAME -->` of a file, as update_readme.cmake writes it.
std::string section(const std::string& path, const std::string& name) {
  std::ifstream in{path};
  if (!in) throw std::runtime_error(path + ": cannot read");
  std::stringstream text;
  text << in.rdbuf();
  const std::string all = text.str(), open = "<!-- " + name + " -->\n", close = "<!-- /" + name + " -->";
  const std::size_t begin = all.find(open), end = all.find(close);
  if (begin == std::string::npos || end == std::string::npos || end < begin) {
    throw std::runtime_error(path + ": no <!-- " + name + " --> section");
  }
  return all.substr(begin + open.size(), end - begin - open.size());
}

// The fragment's verdict lines (its lines in bold), as update_readme.cmake copies them into the report.
std::string verdict_lines(const std::string& fragment) {
  std::string lines;
  std::istringstream in{fragment};
  for (std::string line; std::getline(in, line);)
    if (line.starts_with("**")) lines += line + "\n";
  return lines;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"gpu: the GPU's measured figures against the catalog and the models"};
  std::vector<std::string> folders;
  std::string out_path, check_path, shown;
  app.add_option("--measurements", folders, "a folder of CSV files gpu_measure and the PyTorch scripts wrote (one a GPU)")
      ->required();
  app.add_option("--as", shown, "the folders' parent in the text (default: as given)");
  app.add_option("--out", out_path, "write the Markdown fragment to this file (default: stdout)");
  std::string check_report;
  app.add_option("--check", check_path, "compare the fragment with this page's gpu section; exit 1 if they differ");
  app.add_option("--check-report", check_report,
                 "compare the fragment's verdict lines with this report's gpu verdicts; exit 1 if they differ");
  CLI11_PARSE(app, argc, argv);
  try {
    std::string fragment;
    for (const std::string& folder : folders) {
      const std::string name = folder.substr(folder.find_last_of('/') + 1);
      if (!fragment.empty()) fragment += "\n";
      fragment += report(read_measurements(folder), folder, shown.empty() ? folder : shown + "/" + name);
    }
    if (!check_path.empty() || !check_report.empty()) {
      if (!check_path.empty() && section(check_path, "bench:gpu") != fragment) {
        std::fprintf(stderr, "gpu: %s's gpu section is not what the measurements and the models give; run ./lab bench\n",
                     check_path.c_str());
        return 1;
      }
      if (!check_report.empty() && section(check_report, "bench-verdict:gpu") != verdict_lines(fragment)) {
        std::fprintf(stderr, "gpu: %s's gpu verdicts are not what the measurements and the models give; run ./lab bench\n",
                     check_report.c_str());
        return 1;
      }
    } else if (out_path.empty()) {
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
