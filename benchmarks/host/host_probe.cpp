// The host roofline probe at full size, held against likwid-bench in the same run: bandwidth per memory
// level (copy and triad at the middle working set of each level the probe found) and the peak FP64 and
// FP32 FMA rates. Writes the `host_probe` section of benchmarks/README.md.
#include <cstddef>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "bench_run.hpp"
#include "likwid.hpp"

import hml;
import hml.probe;

namespace {

// The sample in the middle of a level's working sets: away from both transitions.
std::size_t middle_sample(const std::vector<hml::bandwidth_sample>& samples, const hml::bandwidth_plateau& level) {
  std::vector<std::size_t> inside;
  for (std::size_t i = 0; i < samples.size(); ++i) {
    if (!(samples[i].working_set < level.smallest) && !(level.largest < samples[i].working_set)) inside.push_back(i);
  }
  return inside.empty() ? samples.size() - 1 : inside[inside.size() / 2];
}

hml::cell percent_of(double ours, const std::optional<double>& reference) {
  if (!reference) return std::string{"-"};
  return bench::percent_text(ours / *reference * 100.0);
}

using bench::text;

std::string report(const bench::run_options& run) {
  const hml::probe_options options = bench::probe_options(run);
  const hml::host_machine m = hml::probe(options);
  const bench::likwid_kernels reference = bench::likwid_kernels_for(m.isa);
  const bool likwid = !run.tiny && bench::likwid_available();
  const unsigned runs = options.timing.repetitions;  // likwid-bench's best of as many runs as the probe's repetitions

  std::string out = "Probe: " + std::to_string(m.threads) + " threads (one per hardware thread, pinned), kernels for " +
                    std::string{m.isa} + ". Reference: " +
                    (likwid ? "likwid-bench `" + reference.copy + "`, `" + reference.triad + "`, `" + reference.peakflops + "`, `" + reference.peakflops_sp +
                                  "` with the same threads and working sets, the best of " + std::to_string(runs) +
                                  " runs as the probe keeps the best of as many repetitions."
                            : std::string{"none (likwid-bench not run)."}) +
                    "\n\n";

  hml::table levels{{"level", "working sets", "ceiling (Schoenauer triad)", "latency", "compared at", "probe Schoenauer triad", "likwid triad",
                     "%", "probe copy", "likwid copy", "%"}, {}};
  for (std::size_t i = 0; i < m.levels.size(); ++i) {
    const hml::bandwidth_plateau& level = m.levels[i];
    // Both programs measure the level's middle working set back to back, so load from other processes
    // hits them alike; the probe's figures here are fresh, not the sweep's.
    const hml::data_size at = m.schoenauer_triad[middle_sample(m.schoenauer_triad, level)].working_set;
    const hml::bandwidth_sample triad = hml::measure_bandwidth(hml::stream_kernel::schoenauer_triad, at, options.timing);
    const hml::bandwidth_sample copy = hml::measure_bandwidth(hml::stream_kernel::copy, at, options.timing);
    std::optional<double> likwid_triad, likwid_copy;
    std::string likwid_triad_text = "-", likwid_copy_text = "-";
    if (likwid) {
      if (const auto r = bench::likwid_bandwidth(reference.triad, triad.working_set, m.threads, runs)) {
        likwid_triad = r->value();
        likwid_triad_text = text(*r);
      }
      if (const auto r = bench::likwid_bandwidth(reference.copy, copy.working_set, m.threads, runs)) {
        likwid_copy = r->value();
        likwid_copy_text = text(*r);
      }
    }
    levels.add_row({std::string{level.ceiling.name}, text(level.smallest) + " - " + text(level.largest),
                    text(level.ceiling.bandwidth), text(m.latency(i)), text(at), text(triad.bandwidth), likwid_triad_text,
                    percent_of(triad.bandwidth.value(), likwid_triad), text(copy.bandwidth), likwid_copy_text,
                    percent_of(copy.bandwidth.value(), likwid_copy)});
  }
  out += "Memory levels found in the Schoenauer triad samples, and both programs again, back to back, at the middle working set of each:\n\n" +
         bench::text_block(levels);

  hml::table peak{{"peak (measured again, beside likwid-bench)", "probe", "likwid-bench", "%"}, {}};
  for (const auto& [name, precision, likwid_kernel] :
       {std::tuple{"FP64 FMA, all threads", hml::fma_precision::fp64, reference.peakflops},
        std::tuple{"FP32 FMA, all threads", hml::fma_precision::fp32, reference.peakflops_sp}}) {
    // Back to back, as above.
    const hml::compute_rate probe_peak = hml::measure_peak_compute(options.timing, precision);
    std::optional<hml::compute_rate> likwid_peak;
    if (likwid) likwid_peak = bench::likwid_flops(likwid_kernel, 32 * hml::kibibyte, m.threads, runs);
    peak.add_row({name, text(probe_peak), likwid_peak ? text(*likwid_peak) : std::string{"-"},
                  percent_of(probe_peak.value(), likwid_peak ? std::optional{likwid_peak->value()} : std::nullopt)});
  }
  // likwid-bench has no single-chain kernel: the probe's figure stands alone.
  peak.add_row({"FP64 scalar FMA chain, one per thread", text(m.scalar_chain), "-", "-"});
  out += "\n" + bench::text_block(peak);

  const hml::roof roof = m.roofline();
  out += "\nThe machine description the models get: DRAM " + text(roof.bandwidth) + ", peak " + text(roof.peak) +
         ", ridge " + text(hml::ridge_point(roof)) + "; scalar FMA chain " + text(m.scalar_chain) + ".\n\nEvery sample (bytes counted as likwid-bench counts them):\n\n";
  hml::table samples{{"working set", "copy", "Schoenauer triad", "level"}, {}};
  for (std::size_t i = 0; i < m.schoenauer_triad.size(); ++i) {
    const hml::data_size set = m.schoenauer_triad[i].working_set;
    const hml::bandwidth_plateau& level = m.level_for(set);
    const bool inside = !(set < level.smallest) && !(level.largest < set);
    samples.add_row({text(set), text(m.copy[i].bandwidth), text(m.schoenauer_triad[i].bandwidth),
                     inside ? std::string{level.ceiling.name} : std::string{"(transition)"}});
  }
  out += bench::text_block(samples);
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  return bench::main(argc, argv, "host_probe: this machine's bandwidth per memory level and peak FLOP/s, vs likwid-bench",
                     report);
}
