// Zero overhead: the same sweep of seed 000's cache model over 10^7 configurations, written with hml
// quantities (hml::run) and by hand on raw doubles; plus the sweep's throughput through hml::grid point by
// point (a range-for over the grid, and hml::for_each_point), through hml::lazy_sweep and through
// hml::sweep_rows, against loops of the same shape written by hand (nested, and one flat loop). Before timing
// anything it checks that hml and the raw doubles give the same bits at every point, and after timing that
// every sweep added up to the same totals; either failing is an error (exit 1), never a figure.
//
//   zero_overhead [--bandwidths N] [--hit-rates N] [--markdown FILE] [--benchmark_... flags]
#include <cstddef>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>
#include <CLI/CLI.hpp>

#include "fragment.hpp"
#include "raw_model.hpp"
#include "seed_cache_sweep.hpp"

import hml;

namespace {

using zero_overhead::sweep_size;
using zero_overhead::sweep_total;

// The swept values, built once before timing.
struct sweep_inputs {
  sweep_size size;
  zero_overhead::axis_values values;
  std::vector<double> raw_slow_bandwidths;
};

sweep_inputs make_inputs(sweep_size size) {
  sweep_inputs in{.size = size, .values = zero_overhead::values_of(size), .raw_slow_bandwidths = {}};
  for (hml::data_rate slow : in.values.slow_bandwidths) in.raw_slow_bandwidths.push_back(slow.value());
  return in;
}

raw::seed_cache raw_values(const zero_overhead::seed_cache& m) {
  return {.bytes = m.kernel.bytes.value(),
          .flops = m.kernel.flops.value(),
          .latency = m.latency.value(),
          .fast = m.fast.value(),
          .peak = m.core.peak.value()};
}

// A value the optimizer must treat as unknown. Only the copy escapes into DoNotOptimize, so the struct it
// is stored in stays unescaped and the rest of that struct stays known.
template <class T>
T hidden(T value) {
  benchmark::DoNotOptimize(value);
  return value;
}

// The fixed parameters as a sweep writes them, with every number hidden from the optimizer so that none
// is folded into the loop; what the code fixes by construction (sequential access) stays visible, as in
// any program.
zero_overhead::seed_cache opaque_model() {
  zero_overhead::seed_cache m;
  m.kernel.flops = hidden(m.kernel.flops);
  m.kernel.bytes = hidden(m.kernel.bytes);
  m.latency = hidden(m.latency);
  m.fast = hidden(m.fast);
  m.core.peak = hidden(m.core.peak);
  return m;
}

raw::seed_cache opaque_raw_model() {
  raw::seed_cache r = raw_values(zero_overhead::seed_cache{});
  r.flops = hidden(r.flops);
  r.bytes = hidden(r.bytes);
  r.latency = hidden(r.latency);
  r.fast = hidden(r.fast);
  r.peak = hidden(r.peak);
  return r;
}

// The sweeps. Each visits the points in the same order (slow bandwidth outer, hit rate inner).
template <bool Checked>
sweep_total raw_doubles(const sweep_inputs& in) {
  const raw::seed_cache model = opaque_raw_model();
  if constexpr (Checked) raw::validate(model);
  sweep_total total;
  for (double slow : in.raw_slow_bandwidths) {
    for (double hit_rate : in.values.hit_rates) {
      if constexpr (Checked) raw::validate_swept(slow, hit_rate);
      const raw::breakdown t = raw::run(model, slow, hit_rate);
      total.add(t.total, t.limit == raw::regime::memory_bound);
    }
  }
  return total;
}

// The same points in one flat loop (one counter, the hit rate's index wrapping into the bandwidth's), the
// shape of a range-for over a grid's points: what depends on the bandwidth alone is no longer outside an
// inner loop. The baseline of the flat iterations below.
sweep_total raw_doubles_flat(const sweep_inputs& in) {
  const raw::seed_cache model = opaque_raw_model();
  raw::validate(model);
  sweep_total total;
  const std::size_t rows = in.raw_slow_bandwidths.size();
  const std::size_t columns = in.values.hit_rates.size();
  std::size_t row = 0;
  std::size_t column = 0;
  for (std::size_t i = 0; i < rows * columns; ++i) {
    const double slow = in.raw_slow_bandwidths[row];
    const double hit_rate = in.values.hit_rates[column];
    raw::validate_swept(slow, hit_rate);
    const raw::breakdown t = raw::run(model, slow, hit_rate);
    total.add(t.total, t.limit == raw::regime::memory_bound);
    if (++column == columns) {
      column = 0;
      ++row;
    }
  }
  return total;
}

sweep_total hml_quantities(const sweep_inputs& in) {
  const zero_overhead::seed_cache model = opaque_model();
  sweep_total total;
  for (hml::data_rate slow : in.values.slow_bandwidths) {
    for (double hit_rate : in.values.hit_rates) {
      const hml::time_breakdown t = model.run(slow, hit_rate);
      total.add(t.total.value(), t.limit == hml::regime::memory_bound);
    }
  }
  return total;
}

sweep_total hml_grid(const sweep_inputs& in) {
  const zero_overhead::seed_cache model = opaque_model();
  const auto grid = zero_overhead::configurations(in.size);
  sweep_total total;
  for (const auto& [slow, hit_rate] : grid) {
    const hml::time_breakdown t = model.run(slow, hit_rate);
    total.add(t.total.value(), t.limit == hml::regime::memory_bound);
  }
  return total;
}

sweep_total hml_for_each_point(const sweep_inputs& in) {
  const zero_overhead::seed_cache model = opaque_model();
  sweep_total total;
  hml::for_each_point(zero_overhead::configurations(in.size), [&](hml::data_rate slow, double hit_rate) {
    const hml::time_breakdown t = model.run(slow, hit_rate);
    total.add(t.total.value(), t.limit == hml::regime::memory_bound);
  });
  return total;
}

sweep_total hml_sweep_rows(const sweep_inputs& in) {
  const zero_overhead::seed_cache model = opaque_model();
  sweep_total total;
  for (const auto& row : hml::sweep_rows(zero_overhead::configurations(in.size),
                                         [&model](hml::data_rate slow, double hit_rate) { return model.run(slow, hit_rate); })) {
    for (const hml::time_breakdown& t : row) total.add(t.total.value(), t.limit == hml::regime::memory_bound);
  }
  return total;
}

sweep_total hml_lazy_sweep(const sweep_inputs& in) {
  const zero_overhead::seed_cache model = opaque_model();
  const auto grid = zero_overhead::configurations(in.size);
  sweep_total total;
  for (const hml::time_breakdown& t :
       hml::lazy_sweep(grid, [&model](hml::data_rate slow, double hit_rate) { return model.run(slow, hit_rate); })) {
    total.add(t.total.value(), t.limit == hml::regime::memory_bound);
  }
  return total;
}

raw::regime as_raw(hml::regime r) {
  switch (r) {
    case hml::regime::memory_bound: return raw::regime::memory_bound;
    case hml::regime::compute_bound: return raw::regime::compute_bound;
    case hml::regime::balanced: return raw::regime::balanced;
  }
  throw std::logic_error("unknown regime");
}

// hml and the raw doubles must agree to the bit at every point, or the timing compares different work.
void check_agreement(const sweep_inputs& in) {
  const zero_overhead::seed_cache model;
  const raw::seed_cache raw_model = raw_values(model);
  for (std::size_t i = 0; i < in.size.bandwidths; ++i) {
    for (double hit_rate : in.values.hit_rates) {
      const hml::time_breakdown t = model.run(in.values.slow_bandwidths[i], hit_rate);
      const raw::breakdown r = raw::run(raw_model, in.raw_slow_bandwidths[i], hit_rate);
      if (t.memory_time.value() != r.memory || t.compute_time.value() != r.compute || t.total.value() != r.total ||
          as_raw(t.limit) != r.limit) {
        char where[256];
        std::snprintf(where, sizeof where, "at slow bandwidth %.17g B/s, hit rate %.17g: total %.17g s vs %.17g s",
                      in.raw_slow_bandwidths[i], hit_rate, t.total.value(), r.total);
        throw std::runtime_error(std::string{"hml and the raw doubles disagree "} + where);
      }
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);  // takes the --benchmark_* flags, leaves the rest
  sweep_size size{.bandwidths = 10'000, .hit_rates = 1'000};
  std::filesystem::path markdown;
  CLI::App app{"Zero overhead: seed 000's cache sweep with hml quantities vs raw doubles (Google Benchmark)"};
  app.add_option("--bandwidths", size.bandwidths, "slow-tier bandwidths in the sweep")->check(CLI::Range(1, 1'000'000));
  app.add_option("--hit-rates", size.hit_rates, "hit rates in the sweep")->check(CLI::Range(1, 1'000'000));
  app.add_option("--markdown", markdown, "write the results as a Markdown fragment to this file");
  CLI11_PARSE(app, argc, argv);

  try {
    const sweep_inputs in = make_inputs(size);
    check_agreement(in);

    std::map<std::string, sweep_total> totals;  // each sweep's sum, from its last timed run
    const auto add = [&](const char* name, auto sweep) {
      benchmark::RegisterBenchmark(name, [&in, &totals, name, sweep](benchmark::State& state) {
        sweep_total total;
        for (auto _ : state) {
          total = sweep(in);
          benchmark::DoNotOptimize(total);
        }
        totals[name] = total;
        state.SetItemsProcessed(state.iterations() * static_cast<benchmark::IterationCount>(in.size.points()));
      })->Unit(benchmark::kMillisecond);
    };
    add(zero_overhead::names::raw_checked, raw_doubles<true>);
    add(zero_overhead::names::raw_unchecked, raw_doubles<false>);
    add(zero_overhead::names::hml_quantities, hml_quantities);
    add(zero_overhead::names::raw_flat, raw_doubles_flat);
    add(zero_overhead::names::hml_grid, hml_grid);
    add(zero_overhead::names::hml_for_each_point, hml_for_each_point);
    add(zero_overhead::names::hml_lazy_sweep, hml_lazy_sweep);
    add(zero_overhead::names::hml_sweep_rows, hml_sweep_rows);

    zero_overhead::collecting_reporter reporter;
    benchmark::RunSpecifiedBenchmarks(&reporter);
    benchmark::Shutdown();

    for (const auto& [name, total] : totals) {
      if (total != totals.begin()->second) {
        throw std::runtime_error("the sweeps " + totals.begin()->first + " and " + name + " added up differently");
      }
    }
    if (!markdown.empty()) {
      hml::write_file_atomically(markdown, zero_overhead::fragment(size, reporter, totals.begin()->second));
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "zero_overhead: %s\n", e.what());
    return 1;
  }
  return 0;
}
