// Bounds: `hml` run at each documented upper bound of what a run counts (docs/reference/limits.md), as a
// user runs it: the cores of an ECM scaling table, the points of a sweep, the kernels of a chart, the tokens
// of a generation, the steps of a continuous batch, the runs and tokens of a measured-runs file, the chunks
// of an offload, and a kernel in C whose macros expand past their bound. Each run is measured from outside
// (wall time and peak resident memory, bench::run) and must end as the bound promises: a result (status 0,
// the lines expected), or one line on stderr and status 2. The probe is left out: it measures the host, and
// its bounds (repetitions, minimum time) keep it within minutes, not seconds.
//
//   bounds --hml PATH --macros macro_doubling.c [--small] [--runs N] --markdown FILE
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <unistd.h>

#include "../markdown_row.hpp"
#include "../measured_run.hpp"

import hml;

namespace {

namespace fs = std::filesystem;
using bench::count;
using bench::count_lines;
using bench::markdown_row;
using bench::measured;

// What each run may take at most, in a release build.
constexpr double target_seconds = 10;
constexpr double target_bytes = 256.0 * 1024 * 1024;

struct options {
  std::string hml;
  std::string macros;  // a kernel in C whose macros expand past 1 MiB
  bool small = false;  // each count at a thousandth of its bound or less (the smoke test)
  int runs = 2;
  std::string markdown;
};

// One run at a bound: what is bounded, the bound, the arguments after `hml`, and what it must end in.
struct bound_run {
  std::string what;
  std::string bound;
  std::vector<std::string> arguments;
  int status = 0;                // 0: a result; 2: one line on stderr
  std::size_t least_lines = 0;   // of standard output, where the run succeeds
};

std::string seconds(double s) { return hml::to_string(hml::duration::from_value(s), {.number = hml::general(3)}); }
std::string memory(double bytes) {
  return hml::to_string(hml::data_size::from_value(bytes), {.number = hml::general(3), .prefixes = hml::prefix_system::binary});
}

// `runs` measured runs of Llama 2 7B on an H100, each generating `generate` tokens (a TPOT to compare).
void write_measured_runs(const fs::path& p, std::size_t runs, std::uint64_t generate) {
  std::ofstream out{p, std::ios::binary};
  out << "model,machine,tp,link,weights,activations,kv,batch,prompt,generate,ttft,tpot,e2e,output_tokens_per_s,system,source\n";
  for (std::size_t i = 0; i < runs; ++i)
    out << "llama-2-7b,h100_sxm,1,,fp16,fp16,fp16,1,128," << generate << ",,7 ms,,,bench " << i << ",generated run\n";
}

std::vector<bound_run> runs_at_bounds(const options& o, const fs::path& work) {
  const std::uint64_t scale = o.small ? 1000 : 1;
  // The CLI's own bounds (cli/model.hpp, cli/llm.cpp), which the library does not export.
  const std::uint64_t sweep_points = 10'000'000;
  const std::uint64_t generated_tokens = 1'000'000;
  // A sweep of side x side points, just under the bound (3162^2 = 9,998,244).
  const auto side = static_cast<std::uint64_t>(std::sqrt(static_cast<double>(sweep_points / (scale * scale))));
  const std::string axes_side = std::to_string(side);
  const std::vector<std::string> sweep{"sweep", "--bandwidth", "1Gbit/s:1Tbit/s:" + axes_side + ":log", "--ops-per-byte",
                                       "0.25:16:" + axes_side};
  const std::uint64_t cores = hml::max_cores / scale;
  // The scaling table stops at a machine's cores: Sandy Bridge EP with as many as a machine may have, its peak
  // theirs (8 FLOP a core and cycle, as the readers check).
  hml::machine_description many_cores = hml::machine_named("snb_e5_2680");
  many_cores.cores = static_cast<unsigned>(cores);
  many_cores.compute[0].dense = hml::derived_peak(many_cores.cores, many_cores.clock, 8);
  const fs::path many_cores_file = work / "many_cores.yaml";
  std::ofstream{many_cores_file, std::ios::binary} << hml::write_machine_file(many_cores, hml::file_syntax::yaml);
  const std::uint64_t kernels = hml::max_chart_kernels / scale;
  const fs::path kernels_file = work / "kernels.csv";
  bench::write_kernels_csv(kernels_file, kernels);
  const std::uint64_t tokens = generated_tokens / scale;
  // Requests of one prompt token and `generate` tokens each, one at a time: a prefill and generate - 1 decode
  // steps each, max_batching_steps in all.
  const std::uint64_t steps = hml::max_batching_steps / scale;
  const std::uint64_t requests = std::max<std::uint64_t>(1, steps / 1000);
  const std::uint64_t request_tokens = steps / requests;
  // max_measured_runs runs of max_measured_steps steps in all (a run's prefill and generate - 1 decode steps).
  const std::size_t measured_runs = hml::max_measured_runs / scale;
  const std::uint64_t measured_steps = hml::max_measured_steps / scale;
  const fs::path runs_file = work / "runs.csv";
  write_measured_runs(runs_file, measured_runs, measured_steps / measured_runs);
  const std::uint64_t chunks = hml::max_chunks / scale;

  std::vector<bound_run> runs;
  const auto with = [](std::vector<std::string> a, std::initializer_list<std::string> more) {
    a.insert(a.end(), more);
    return a;
  };
  runs.push_back({"cores of an ECM scaling table", count(cores),
                  {"ecm", "--machine", many_cores_file.string(), "--kernel", "triad", "--cores", std::to_string(cores)}, 0, cores});
  runs.push_back({"the same, as JSON (one object a core count)", count(cores),
                  {"ecm", "--machine", many_cores_file.string(), "--kernel", "triad", "--cores", std::to_string(cores), "--format",
                   "json"},
                  0, cores});
  for (const std::string format : {"table", "csv", "json"})
    runs.push_back({"points of a sweep (" + format + ")", count(side * side), with(sweep, {"--format", format}), 0, side * side});
  runs.push_back({"kernels in a chart", count(kernels),
                  {"chart", "--machine", "h100_sxm", "--precision", "fp16", "--ops", kernels_file.string(), "-o", "-"},
                  0, kernels});
  runs.push_back({"tokens generated", count(tokens),
                  {"llm", "--machine", "h100_sxm", "--model", "llama-2-7b", "--prompt", "1", "--generate",
                   std::to_string(tokens)},
                  0, 10});
  // Each decode step of a pipeline times every kind of stage (first, middle, last) for each micro-batch size.
  runs.push_back({"tokens generated through a pipeline of 64 stages", count(tokens),
                  {"llm", "--machine", "h100_sxm", "--model", "llama-2-70b", "--pp", "64", "--pp-link", "nvlink4", "--prompt",
                   "1", "--generate", std::to_string(tokens)},
                  0, 10});
  runs.push_back({"steps of a continuous batch", count(requests * request_tokens),
                  {"llm", "--machine", "h100_sxm", "--model", "llama-2-7b", "--requests", std::to_string(requests),
                   "--max-batch", "1", "--prompt", "1", "--generate", std::to_string(request_tokens)},
                  0, 10});
  runs.push_back({"runs of a measured-runs file, and their steps",
                  count(measured_runs) + ", " + count(measured_steps), {"llm", "--compare", runs_file.string(), "--format", "csv"},
                  0, measured_runs});
  runs.push_back({"chunks of a pipelined offload", count(chunks),
                  {"offload", "--system", "gh200", "--in", "40GB", "--out", "20GB", "--flops", "1TFLOP", "--chunks",
                   std::to_string(chunks)},
                  0, 3});
  runs.push_back({"a kernel in C whose macros expand past their bound", "1 MiB of C, 5 s of CPU",
                  {"ecm", "--machine", "snb_e5_2680", "--kernel", o.macros}, 2, 0});
  return runs;
}

// The command as a user types it, files (generated, or the project's) by their names alone.
std::string command_text(const bound_run& r) {
  std::string text = "`hml";
  for (const std::string& a : r.arguments) text += " " + (a.starts_with('/') ? fs::path{a}.filename().string() : a);
  return text + "`";
}

std::string fragment(const options& o, const fs::path& work) {
  const std::string load_before = bench::load_average();
  const std::vector<bound_run> runs = runs_at_bounds(o, work);
  const fs::path out = work / "stdout";
  const fs::path err = work / "stderr";
  std::ostringstream md;
  md << "Build: " << HML_BUILD_TYPE << (o.small ? "; each count at a thousandth of its bound (the smoke test)" : "")
     << ". Each run is the best of " << o.runs << (o.runs == 1 ? " run" : " runs")
     << ", peak memory the largest; standard output to a file (a chart's SVG too, with `-o -`), whose lines "
        "are checked.\n\n";
  md << markdown_row({"what is bounded", "at", "command", "wall time", "peak memory", "ends in"});
  md << markdown_row({"---", "---:", "---", "---:", "---:", "---"});
  double slowest = 0, largest = 0;
  std::string slowest_what;
  for (const bound_run& r : runs) {
    std::vector<std::string> argv{o.hml};
    argv.insert(argv.end(), r.arguments.begin(), r.arguments.end());
    measured best{};
    for (int i = 0; i < o.runs; ++i) {
      const measured m = bench::run(argv, "/dev/null", out, err);
      if (m.status != r.status)
        throw std::runtime_error(command_text(r) + " ended with status " + std::to_string(m.status) + ", not " +
                                 std::to_string(r.status) + ": " + m.error);
      if (i == 0 || m.seconds < best.seconds) best = {m.status, m.seconds, std::max(best.peak_bytes, m.peak_bytes), m.error};
      best.peak_bytes = std::max(best.peak_bytes, m.peak_bytes);
    }
    std::string ending;
    if (r.status == 0) {
      const std::size_t lines = count_lines(out);
      if (lines < r.least_lines)
        throw std::runtime_error(command_text(r) + " wrote " + std::to_string(lines) + " lines, fewer than " +
                                 std::to_string(r.least_lines));
      ending = "a result, " + hml::to_string(hml::data_size::from_value(static_cast<double>(fs::file_size(out))),
                                             {.number = hml::general(3)});
    } else {
      const std::string first = best.error.substr(0, best.error.find('\n'));
      if (best.error.find('\n') + 1 != best.error.size() || !first.starts_with("hml: error: "))
        throw std::runtime_error(command_text(r) + " did not end in one line of error: " + best.error);
      ending = "status 2, one line of error";
    }
    if (best.seconds > slowest) slowest = best.seconds, slowest_what = r.what;
    largest = std::max(largest, best.peak_bytes);
    md << markdown_row({r.what, r.bound, command_text(r), seconds(best.seconds), memory(best.peak_bytes), ending});
  }
  const bool met = slowest <= target_seconds && largest <= target_bytes;
  md << "\n**" << runs.size() << " runs at their bounds: the slowest " << seconds(slowest) << " (" << slowest_what
     << "), the largest peak memory " << memory(largest) << " (target <= " << seconds(target_seconds) << " and <= "
     << memory(target_bytes) << " each" << (met ? "" : "; MISSED") << ").**\n";
  const std::string load_after = bench::load_average();
  md << "\nThe machine's 1-minute load average was " << load_before << " when this part started and " << load_after
     << " when it ended.\n";
  return md.str();
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"hml at each documented bound, measured from outside; a Markdown fragment for benchmarks/README.md"};
  options o;
  app.add_option("--hml", o.hml, "the hml program")->required();
  app.add_option("--macros", o.macros, "a kernel in C whose macros expand past the bound")->required();
  app.add_flag("--small", o.small, "each count at a thousandth of its bound (a smoke test)");
  app.add_option("--runs", o.runs, "runs of each measurement (the best is kept)")->capture_default_str()->check(CLI::Range(1, 100));
  app.add_option("--markdown", o.markdown, "write the fragment here")->required();
  CLI11_PARSE(app, argc, argv);
  return bench::write_fragment("bounds", o.markdown, [&](const fs::path& work) { return fragment(o, work); });
}
