// The models against real kernels on this machine: copy, triad, vector add (in DRAM and in the fastest
// cache), naive and tiled matmul, each timed on every thread, beside the time the library predicts for
// it on the machine the probe measured in the same run. The kernels' FLOP and bytes are the library's
// (hml::copy, hml::triad, ...); the prediction is hml::run with full overlap on the level that serves
// the kernel, and the hierarchical roofline over that level and the one below. Writes the `fidelity`
// section of benchmarks/README.md.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <new>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench_run.hpp"
#include "kernels.hpp"
#include "../prediction_error.hpp"

import hml;
import hml.probe;

namespace {

using namespace hml::literals;

// One timed kernel and where its bytes come from: the level its working set lives in (home) and, for
// matmul, the level below it, which only sees the compulsory traffic (each matrix once).
struct experiment {
  hml::kernel model;
  std::uint64_t n;
  hml::data_size working_set;
  hml::duration measured;
  bool streaming;  // else matmul
  hml::data_size outer_working_set;  // == working_set for streaming kernels
  hml::data_size outer_bytes;        // == model.bytes for streaming kernels
  hml::compute_ceiling compute;      // the ceiling the kernel's code can reach
};

std::size_t elements_per_thread(hml::data_size working_set, std::size_t arrays, unsigned threads) {
  const double n = working_set.value() / static_cast<double>(arrays * threads * sizeof(double));
  return std::max<std::size_t>(8, static_cast<std::size_t>(n) / 8 * 8);
}

// A streaming kernel over `arrays` arrays per thread, each thread on its own arrays.
hml::duration time_streaming(std::size_t arrays, std::size_t n, const hml::timing_options& timing,
                             const std::function<void(std::vector<hml::line_aligned_doubles>&, std::size_t)>& body) {
  const unsigned threads = timing.threads == 0 ? hml::available_threads() : timing.threads;
  std::vector<std::vector<hml::line_aligned_doubles>> data(threads);
  return hml::time_parallel(
      [&](unsigned t, unsigned) {
        for (std::size_t a = 0; a < arrays; ++a) {
          data[t].push_back(hml::make_line_aligned_doubles(n, 1.0 + static_cast<double>(a)));
        }
      },
      [&](unsigned t, unsigned) { body(data[t], n); }, timing);
}

std::vector<experiment> streaming(hml::data_size working_set, const hml::compute_ceiling& compute,
                                  const hml::timing_options& timing) {
  const unsigned threads = timing.threads == 0 ? hml::available_threads() : timing.threads;
  std::vector<experiment> out;
  const auto add = [&](hml::kernel model, std::size_t arrays, std::size_t n, hml::duration t) {
    const hml::data_size set = static_cast<double>(arrays * n * threads * sizeof(double)) * hml::byte;
    out.push_back({model, n * threads, set, t, true, set, model.bytes, compute});
  };
  std::size_t n = elements_per_thread(working_set, 2, threads);
  add(hml::copy<double>(n * threads), 2, n,
      time_streaming(2, n, timing, [](auto& d, std::size_t m) { kernels::copy(d[0].get(), d[1].get(), m); }));
  n = elements_per_thread(working_set, 3, threads);
  add(hml::triad<double>(n * threads), 3, n, time_streaming(3, n, timing, [](auto& d, std::size_t m) {
        kernels::triad(d[0].get(), d[1].get(), d[2].get(), 3.0, m);
      }));
  add(hml::vector_add<double>(n * threads), 3, n, time_streaming(3, n, timing, [](auto& d, std::size_t m) {
        kernels::vector_add(d[2].get(), d[0].get(), d[1].get(), m);
      }));
  return out;
}

// C = A B by the definition, for checking the kernels: small integers, so every sum is exact and the
// kernels must agree to the last bit whatever order they add in.
std::vector<double> reference_product(const std::vector<double>& a, const std::vector<double>& b, std::size_t n) {
  std::vector<double> c(n * n, 0.0);
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = 0; j < n; ++j) {
      for (std::size_t k = 0; k < n; ++k) c[i * n + j] += a[i * n + k] * b[k * n + j];
    }
  }
  return c;
}

// Both matmul kernels against the reference on 2 x 2 tiles, each in two row ranges as two threads
// would split it; a wrong product stops the program (a timing of a wrong kernel means nothing).
void check_matmuls(std::size_t tile) {
  const std::size_t n = 2 * tile;
  std::vector<double> a(n * n), b(n * n);
  for (std::size_t i = 0; i < n * n; ++i) {
    a[i] = static_cast<double>(i * 7 % 11) - 5.0;
    b[i] = static_cast<double>(i * 3 % 13) - 6.0;
  }
  const std::vector<double> expected = reference_product(a, b, n);
  std::vector<double> naive(n * n, 0.0), tiled(n * n, 0.0);
  for (const std::size_t first : {std::size_t{0}, tile}) {
    kernels::naive_matmul(naive.data(), a.data(), b.data(), n, first, first + tile);
    kernels::tiled_matmul(tiled.data(), a.data(), b.data(), n, tile, first, first + tile);
  }
  if (naive != expected) throw std::runtime_error("the naive matmul kernel computes a wrong product");
  if (tiled != expected) {
    throw std::runtime_error("the tiled matmul kernel computes a wrong product (tile " + std::to_string(tile) + ")");
  }
}

std::vector<experiment> matmuls(const hml::host_machine& m, std::uint64_t n, const hml::timing_options& timing) {
  const unsigned threads = timing.threads == 0 ? hml::available_threads() : timing.threads;
  const std::size_t size = n * n;
  std::vector<double> a(size, 1.0 / static_cast<double>(n)), b(size, 0.5), c(size, 0.0);
  const hml::data_size matrices = 3 * size * hml::element_size<double>;
  const hml::data_size compulsory = hml::matmul<double>(n).bytes;
  const auto rows = [&](unsigned t, std::uint64_t unit) {  // thread t's rows, in whole units
    const std::uint64_t units = n / unit;
    return std::pair{t * units / threads * unit, (t + 1) * units / threads * unit};
  };
  const auto none = [](unsigned, unsigned) {};

  std::vector<experiment> out;
  const hml::duration naive = hml::time_parallel(none, [&](unsigned t, unsigned) {
    const auto [first, last] = rows(t, 1);
    kernels::naive_matmul(c.data(), a.data(), b.data(), n, first, last);
  }, timing);
  // One dependent FMA chain per dot product: the scalar chain is its ceiling, not the vector peak.
  out.push_back({hml::naive_matmul<double>(n), n, matrices, naive, false, m.levels.back().largest, compulsory,
                 m.scalar_chain_compute()});

  // Tiles that fit the fastest level, per thread (the library picks the largest power of two that fits).
  const std::uint64_t tile = std::max<std::uint64_t>(1, hml::largest_tile<double>(n, m.levels.front().largest / threads));
  check_matmuls(tile);
  const hml::duration tiled = hml::time_parallel(none, [&](unsigned t, unsigned) {
    const auto [first, last] = rows(t, tile);
    kernels::tiled_matmul(c.data(), a.data(), b.data(), n, tile, first, last);
  }, timing);
  out.push_back({hml::tiled_matmul<double>(n, tile), n, matrices, tiled, false, m.levels.back().largest, compulsory,
                 m.compute()});
  return out;
}

using bench::text;

std::string report(const bench::run_options& run) {
  const hml::probe_options options = bench::probe_options(run);
  const hml::host_machine m = hml::probe(options);
  const hml::timing_options& timing = options.timing;

  std::vector<experiment> all = streaming(m.levels.back().largest, m.compute(), timing);
  // The cache-resident point: the middle (geometric) of the fastest level's working sets, away from its edge.
  const hml::bandwidth_plateau& fastest = m.levels.front();
  for (experiment& e : streaming(fastest.smallest * std::sqrt(fastest.largest / fastest.smallest), m.compute(), timing)) {
    all.push_back(e);
  }
  for (experiment& e : matmuls(m, run.tiny ? 64 : 512, timing)) all.push_back(e);

  hml::table t{{"kernel", "n", "working set", "level", "measured", "achieved", "hml::run", "error %",
                "hierarchical", "error %", "binds", "target"},
               {}};
  std::string misses;
  for (const experiment& e : all) {
    const hml::bandwidth_ceiling home = m.level_for(e.working_set).ceiling;
    const hml::duration flat = hml::run(e.model, m.memory_for(e.working_set), hml::compute_core{e.compute.peak},
                                        {.overlap_policy = hml::overlap::full}).total;
    // Both compute ceilings the probe measured; the kernel names the one its code reaches.
    const hml::hierarchical_roof<2, 2> roof{{home, m.level_for(e.outer_working_set).ceiling},
                                            {m.compute(), m.scalar_chain_compute()}};
    const hml::hierarchical_point point =
        hml::analyze(hml::hierarchical_kernel<2>{e.model.name, e.model.flops, {e.model.bytes, e.outer_bytes}, e.compute.name},
                     roof);
    const hml::measured_point achieved = hml::analyze_measured(e.model, e.measured, {home.bandwidth, m.peak});
    const double target_percent = e.streaming ? 10.0 : 25.0;  // the targets
    // A kernel without FLOP (copy) has no roofline time: it is judged on hml::run alone.
    const bool has_roofline = hml::isfinite(point.estimated_time);
    const double flat_error = bench::error_percent(flat, e.measured);
    const double error = has_roofline ? bench::error_percent(point.estimated_time, e.measured) : flat_error;
    const bool within = std::abs(error) <= target_percent;
    t.add_row({std::string{e.model.name}, std::to_string(e.n), text(e.working_set), std::string{home.name},
               text(e.measured), e.streaming ? text(achieved.achieved_bandwidth) : text(achieved.achieved_compute),
               text(flat), bench::percent_text(flat_error), has_roofline ? hml::cell{text(point.estimated_time)} : hml::cell{"no FLOP"},
               has_roofline ? hml::cell{bench::percent_text(error)} : hml::cell{"-"}, std::string{has_roofline ? point.binding : home.name},
               (within ? "within " : "MISS ") + std::to_string(static_cast<int>(target_percent)) + " %"});
    if (!within) {
      misses += "- " + std::string{e.model.name} + " in " + std::string{home.name} + ": the model's time is " +
                std::to_string(std::lround(std::abs(error))) + " % " + (error > 0 ? "longer" : "shorter") +
                " than measured.\n";
    }
  }
  std::string out = "Machine from the probe in the same run: " + std::to_string(m.threads) + " threads, DRAM " +
                    text(m.dram().bandwidth) + " (triad), peak " + text(m.peak) + " (FP64 FMA), " + text(m.scalar_chain) +
                    " (FP64 scalar FMA chain); levels:";
  for (std::size_t i = 0; i < m.levels.size(); ++i) {
    const hml::bandwidth_plateau& level = m.levels[i];
    out += std::string{i == 0 ? " " : "; "} + std::string{level.ceiling.name} + " " + text(level.ceiling.bandwidth) +
           ", " + text(m.latency(i)) + " (to " + text(level.largest) + ")";
  }
  out += ".\n\n" + bench::text_block(t) + "\nOutside the target (10 % streaming, 25 % matmul) in this run:\n\n" +
         (misses.empty() ? std::string{"- none\n"} : misses);
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  return bench::main(argc, argv, "fidelity: the models' predictions against real kernels on this machine", report);
}
