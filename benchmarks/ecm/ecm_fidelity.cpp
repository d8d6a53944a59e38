// The ECM model against real kernels on this machine. The probe runs first and writes the machine for the
// model (hml::host_machine::cpu(): its measured clock, the caches the system reports with the bandwidth of
// the samples inside each, main memory's triad, copy and memmove mixes, the port model with L1's rate);
// then each kernel runs on every thread, each thread on its own arrays, beside the ECM prediction for all
// threads (hml::chip_time). In DRAM: copy through std::memmove, which glibc turns into non-temporal stores
// for large copies (so the model's kernel declares them: hml::kernels::copy(n, store_kind::non_temporal)),
// STREAM's triad and vector add (normal stores, write-allocate), and the 2D five-point stencil with row
// lengths on both sides of its L1 and of its L2 layer condition (half of each cache, the library's
// default) and between half of a cache and all of it. In L1: copy as a loop, the triad and vector add,
// predicted from the in-core time alone. Then kernels in C as kerncraft's users write them (examples/ecm:
// the Schoenauer triad, a strided read, the 2D stencil), compiled for this host's core as hml's in-core
// analysis compiles them and run as that very code (c_program.hpp), each predicted with its in-core time
// from LLVM-MCA (hml::analyse_c_kernel) instead of the port model. What the model takes from the probe is
// measured again beside each kernel, by the probe's own kernels, in rounds alternating with it: for DRAM,
// every cache's rate inside it and main memory's three mixes at the kernel's working set; for L1, L1's
// Schoenauer triad and store kernel at the kernel's working set. In DRAM each round's time is predicted from main memory's mixes of
// that round and the caches' best figures of all rounds, and a row shows the round with the median error;
// in L1, where figures and time are all the core's own work, each is its best of the rounds. This shared
// host's DRAM bandwidth drifts by up to 1.5x between runs a minute apart, and its caches' rates by up to 2x
// over minutes (neighbours on the host), more than the targets allow; a figure taken beside the kernel sees
// the same machine it does. Targets: 10 % for streaming, 15 % for the stencil outside the band between half
// of a cache and all of it, none inside it.
// Writes the `ecm_fidelity` section of benchmarks/README.md.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <limits>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "bench_run.hpp"
#include "c_program.hpp"
#include "kernels.hpp"
#include "../markdown_row.hpp"
#include "../prediction_error.hpp"
#include "../scratch_directory.hpp"

import hml;
import hml.probe;

namespace {

using namespace hml::literals;

[[gnu::noinline]] void copy_memmove(double* a, const double* b, std::size_t n) { std::memmove(a, b, n * sizeof(double)); }

// b -> a as the compiler's own vector loop, not memmove: glibc copies a block that fits L1 with
// `rep movsb`, at about 2.3 cy/CL on this host, a rate no port model gives. no_builtin keeps the loop a
// loop, and cannot be combined with target_clones, so the instruction set is picked here as the probe
// picks its own. It writes its first array, as the triad and add write theirs.
[[gnu::target("avx512f"), clang::no_builtin("memcpy", "memmove")]]
void copy_loop_avx512(double* __restrict a, const double* __restrict b, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) a[i] = b[i];
}
[[gnu::target("avx2"), clang::no_builtin("memcpy", "memmove")]]
void copy_loop_avx2(double* __restrict a, const double* __restrict b, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) a[i] = b[i];
}
[[clang::no_builtin("memcpy", "memmove")]]
void copy_loop_baseline(double* __restrict a, const double* __restrict b, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) a[i] = b[i];
}
using copy_function = void (*)(double* __restrict, const double* __restrict, std::size_t);
copy_function copy_loop_for(std::string_view isa) {
  if (isa == "avx512f") return copy_loop_avx512;
  if (isa == "avx2+fma") return copy_loop_avx2;
  return copy_loop_baseline;
}

[[gnu::target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")]]
void stencil(const double* __restrict a, double* __restrict b, std::size_t rows, std::size_t columns) {
  for (std::size_t j = 1; j + 1 < rows; ++j)
    for (std::size_t i = 1; i + 1 < columns; ++i)
      b[j * columns + i] =
          (a[j * columns + i - 1] + a[j * columns + i + 1] + a[(j - 1) * columns + i] + a[(j + 1) * columns + i]) * 0.25;
}

// `arrays` arrays of `n` doubles per thread, each from a page (4 KiB) boundary, `body` over them on every
// thread: the best time of one pass. From page boundaries the arrays lie at the same distances modulo 4 KiB
// in every run, as STREAM's arrays with OFFSET 0; from the heap as it came, a copy in L1 whose destination
// lay a few lines past a multiple of 4 KiB from its source ran up to 20 % slower in one run than in the
// next (4K aliasing: a load waits for a store whose address shares its low 12 bits), which no port model
// counts.
template <class Body>
hml::duration time_kernel(std::size_t arrays, std::size_t n, const hml::timing_options& timing, Body body) {
  constexpr std::size_t page = 4096;
  const unsigned threads = timing.threads == 0 ? hml::available_threads() : timing.threads;
  std::vector<std::vector<hml::line_aligned_doubles>> data(threads);
  std::vector<std::vector<double*>> starts(threads);
  return hml::time_parallel(
      [&](unsigned t, unsigned) {
        for (std::size_t a = 0; a < arrays; ++a) {
          data[t].push_back(hml::make_line_aligned_doubles(n + page / sizeof(double), 1.0 + static_cast<double>(a)));
          double* first = data[t].back().get();
          const std::size_t past_page = reinterpret_cast<std::uintptr_t>(first) % page;  // a multiple of 64
          starts[t].push_back(first + (past_page == 0 ? 0 : (page - past_page) / sizeof(double)));
        }
      },
      [&](unsigned t, unsigned) { body(starts[t], n); }, timing);
}

// A kernel timed in `rounds` alternating with the probe's kernels at the working sets the model's figures
// come from, one repetition each per round: the Schoenauer triad inside each cache (its bandwidth per
// core, and in L1 the port model's loads and stores per cycle) and the store kernel in L1 (its stores per
// cycle), main memory's triad, copy and memmove at the kernel's working set. Each round gives the kernel's
// time and a machine for it: main memory's mixes from that round, so that main memory's term comes from the
// same minute as the time it is compared with (this host's main memory swings between about 41 and 76 GB/s
// within a minute), and the caches' figures the best of all rounds. A cache's rate is a core's own work,
// which a neighbour on the host's cores at times halves (L1 301 GB/s per core beside one round of the triad,
// 580 beside the others), while a kernel bound by main memory on every core runs on as before: a round's
// cache figures paired with its time inflated the in-cache terms and the prediction with them (+11 % for
// the triad in one run). The best of the rounds is the machine undisturbed, as STREAM's best rate of its
// repetitions is. The sets inside the caches are none for --tiny (its probe reaches no L3): that machine
// keeps its caches and gets main memory's mixes alone.
struct measured_round {
  hml::duration kernel;
  hml::machine_description machine;
};

template <class TimeOnce>
std::vector<measured_round> measure_rounds(const hml::host_machine& host, const hml::machine_description& probed,
                                           std::span<const hml::data_size> cache_sets, hml::data_size working_set,
                                           unsigned rounds, const hml::timing_options& timing, TimeOnce time_once) {
  hml::timing_options once = timing;
  once.repetitions = 1;
  const auto measure = [&](hml::stream_kernel kernel, hml::data_size set) {
    return hml::measure_bandwidth(kernel, set, once).bandwidth;
  };
  struct samples {
    hml::duration kernel;
    hml::data_rate triad, copy, copy_nt;  // main memory's mixes
  };
  std::vector<samples> measured;
  std::vector<hml::data_rate> best_in_cache(cache_sets.size());  // the Schoenauer triad inside each cache
  hml::data_rate best_l1_store{};
  for (unsigned round = 0; round < rounds; ++round) {
    for (std::size_t i = 0; i < cache_sets.size(); ++i) {
      best_in_cache[i] = std::max(best_in_cache[i], measure(hml::stream_kernel::schoenauer_triad, cache_sets[i]));
    }
    if (!cache_sets.empty()) best_l1_store = std::max(best_l1_store, measure(hml::stream_kernel::store, cache_sets.front()));
    const hml::data_rate triad = measure(hml::stream_kernel::schoenauer_triad, working_set);
    const hml::data_rate copy = measure(hml::stream_kernel::copy, working_set);
    const hml::data_rate copy_nt = measure(hml::stream_kernel::copy_memmove, working_set);
    measured.push_back({time_once(once), triad, copy, copy_nt});
  }
  std::vector<measured_round> machines;
  for (const samples& m : measured) {
    if (cache_sets.empty()) {
      hml::machine_description machine = probed;
      machine.memory_bandwidths = {};
      for (hml::stream_mix_bandwidth mix : probed.memory_bandwidths) {
        if (mix.kernel == "copy") mix.bandwidth.value = m.copy;
        if (mix.kernel == "triad") mix.bandwidth.value = m.triad;
        if (mix.kernel == "copy-nt") mix.bandwidth.value = m.copy_nt;
        machine.memory_bandwidths.push_back(mix);
      }
      machines.push_back({m.kernel, machine});
      continue;
    }
    // The probe's machine with these samples in place of its own: host_machine::cpu() makes the model's
    // figures from them as it makes them from the probe's.
    hml::host_machine beside = host;
    beside.schoenauer_triad.clear();
    for (std::size_t i = 0; i < cache_sets.size(); ++i) beside.schoenauer_triad.push_back({cache_sets[i], best_in_cache[i]});
    beside.schoenauer_triad.push_back({working_set, m.triad});
    beside.store = {{cache_sets.front(), best_l1_store}};
    beside.copy = {{working_set, m.copy}};
    beside.copy_memmove = {{working_set, m.copy_nt}};
    machines.push_back({m.kernel, beside.cpu()});
  }
  return machines;
}

// The same, for `body` over `arrays` arrays of `n` doubles on every thread.
template <class Body>
std::vector<measured_round> measure_beside(const hml::host_machine& host, const hml::machine_description& probed,
                                           std::span<const hml::data_size> cache_sets, hml::data_size working_set,
                                           unsigned rounds, const hml::timing_options& timing, std::size_t arrays,
                                           std::size_t n, Body body) {
  return measure_rounds(host, probed, cache_sets, working_set, rounds, timing,
                        [&](const hml::timing_options& once) { return time_kernel(arrays, n, once, body); });
}

// The round whose prediction is off by the median of all rounds' errors, each round's prediction against
// the kernel's time in the same round. The medians of each figure and of the time, taken apart, can come
// from different moments: this host's main memory swings between about 41 and 76 GB/s within a minute,
// and in one run a stencil with main memory's triad at 76 GB/s beside it ran 21 % slower than predicted.
template <class Predict>
std::size_t median_round(const std::vector<measured_round>& rounds, Predict predict) {
  std::vector<std::pair<double, std::size_t>> errors;
  for (std::size_t i = 0; i < rounds.size(); ++i) {
    errors.emplace_back(bench::error_percent(predict(rounds[i].machine), rounds[i].kernel), i);
  }
  std::ranges::sort(errors);
  return errors[(errors.size() - 1) / 2].second;
}

// One working set inside each range host_machine::cpu() takes a cache's figures from: the geometric middle
// of the range's upper half (long passes, clear of the level below).
std::vector<hml::data_size> cache_sets(const hml::host_machine& host) {
  const std::vector<hml::data_size> caches = hml::reported_caches();
  std::vector<hml::host_machine::working_set_range> ranges = host.sample_ranges(caches);
  ranges.pop_back();  // main memory's: the kernel's own working set
  std::vector<hml::data_size> sets;
  for (const hml::host_machine::working_set_range& r : ranges) {
    sets.push_back(std::sqrt(std::max(r.smallest.value(), r.largest.value() / 2) * r.largest.value()) * hml::byte);
  }
  return sets;
}

// A row's target: the error it must stay within, in percent, or why it has none.
using target = std::variant<double, std::string>;

struct row {
  std::string kernel;
  std::string layer_conditions;
  hml::ecm_result model;
  std::size_t terms;  // transfer terms up to the data's level
  hml::duration predicted;
  hml::duration measured;
  std::string beside;  // what was measured again beside the kernel: main memory's mixes, or L1's rate
  target goal;
};

std::string cy(hml::cycles c) { return std::string{hml::format_number(hml::in(c, hml::cycle), hml::general(3)).view()}; }

// The ECM line with the first `terms` transfer terms, data in the level after them: all of them for data
// in main memory, none for data in L1.
std::string ecm_line(const hml::ecm_result& r, std::size_t terms) {
  std::string line = "{" + cy(r.core.overlapping) + " \\|\\| " + cy(r.core.non_overlapping);
  for (std::size_t i = 0; i < terms; ++i) line += " \\| " + cy(r.transfers[i].time);
  return line + "} = " + cy(r.predictions[terms]);
}

std::string rate(hml::data_rate r) {
  return hml::to_string(r, {.number = hml::general(3), .prefixes = hml::prefix_system::decimal});
}

std::string mixes_text(const hml::machine_description& c) {
  std::string text;
  for (const hml::stream_mix_bandwidth& mix : c.memory_bandwidths) {
    text += std::string{text.empty() ? "" : ", "} + std::string{mix.kernel} + " " + rate(mix.bandwidth.value);
  }
  return text;
}

// The caches' bandwidths per core (as the model takes them: scaled to the lines a triad moves), then main
// memory's mixes.
std::string machine_text(const hml::machine_description& c) {
  std::string text;
  for (std::size_t i = 0; i + 1 < c.memory.size(); ++i) {
    text += std::string{c.memory[i].name} + " " + rate(c.memory[i].bandwidth.value) + ", ";
  }
  return text + mixes_text(c);
}

std::string run(const bench::run_options& run_options) {
  const hml::probe_options options = bench::probe_options(run_options);
  const hml::host_machine host = hml::probe(options);
  // A tiny run's few small working sets reach no L3 and no DRAM: the smoke test runs the kernels against
  // kerncraft's Sandy Bridge EP instead (it checks that the program runs, nothing more).
  const hml::machine_description probed = run_options.tiny ? hml::cpus::sandy_bridge_ep_e5_2680 : host.cpu();
  const unsigned threads = host.threads;
  const unsigned rounds = run_options.tiny ? 1 : 15;
  // A working set well beyond the last cache (16 times this host's 32 MiB L3; small enough that a round's
  // four allocations stay short), or the probe's largest for --tiny.
  const hml::data_size working_set = run_options.tiny ? options.working_sets.back() : 512 * hml::mebibyte;
  const double per_thread_bytes = working_set.value() / threads;
  // Where the Schoenauer triad measures each cache's figures again beside a kernel (none for --tiny).
  const std::vector<hml::data_size> sets = run_options.tiny ? std::vector<hml::data_size>{} : cache_sets(host);
  std::vector<row> rows;

  // The model of `k` on each round's machine, and its time on every thread: each thread's cache lines of
  // work at the chip's rate; the row shows the round with the median error.
  // `core`: the in-core time of a kernel in C, from its compiled loop; else the machine's port model.
  const auto add_row = [&](std::string kernel, std::string conditions, const hml::loop_kernel& k,
                           const std::vector<measured_round>& measured, target goal,
                           std::optional<hml::in_core_time> core = std::nullopt) {
    const auto model = [&](const hml::machine_description& machine) {
      return core ? hml::ecm(k, machine, *core) : hml::ecm(k, machine);
    };
    const auto predict = [&](const hml::machine_description& machine) {
      const hml::ecm_result r = model(machine);
      const double lines_per_thread = hml::iterations(k) / r.iterations_per_cacheline;
      return hml::to_duration(lines_per_thread * threads * hml::chip_time(r, threads), machine.clock.value);
    };
    const measured_round& median = measured[median_round(measured, predict)];
    const hml::ecm_result r = model(median.machine);
    rows.push_back({std::move(kernel), std::move(conditions), r, r.transfers.size(), predict(median.machine),
                    median.kernel, machine_text(median.machine), std::move(goal)});
  };

  {
    const auto n = static_cast<std::size_t>(per_thread_bytes / 16) / 8 * 8;
    const hml::loop_kernel k = hml::kernels::copy(static_cast<std::int64_t>(n), hml::store_kind::non_temporal);
    add_row("copy (memmove, non-temporal stores)", "-", k,
            measure_beside(host, probed, sets, working_set, rounds, options.timing, 2, n,
                           [](auto& d, std::size_t m) { copy_memmove(d[1], d[0], m); }),
            10.0);
  }
  {
    const auto n = static_cast<std::size_t>(per_thread_bytes / 24) / 8 * 8;
    const hml::loop_kernel k = hml::kernels::stream_triad(static_cast<std::int64_t>(n));
    add_row("STREAM triad", "-", k,
            measure_beside(host, probed, sets, working_set, rounds, options.timing, 3, n,
                           [](auto& d, std::size_t m) { kernels::triad(d[0], d[1], d[2], 3.0, m); }),
            10.0);
  }
  {
    const auto n = static_cast<std::size_t>(per_thread_bytes / 24) / 8 * 8;
    add_row("vector add", "-", hml::kernels::vector_add(static_cast<std::int64_t>(n)),
            measure_beside(host, probed, sets, working_set, rounds, options.timing, 3, n,
                           [](auto& d, std::size_t m) { kernels::vector_add(d[0], d[1], d[2], m); }),
            10.0);
  }
  // A kernel's layer conditions by the half-cache rule, and the caches that would hold in whole what half of
  // them cannot (where the stencil rows have no target).
  const auto layer_conditions = [&](const hml::loop_kernel& k) {
    hml::traffic_options whole_caches = hml::traffic_options_of(probed);
    whole_caches.layer_condition_share = 1.0;
    const hml::cache_traffic half = hml::cache_traffic_of(k, probed, hml::traffic_options_of(probed));
    const hml::cache_traffic whole = hml::cache_traffic_of(k, probed, whole_caches);
    std::string conditions;
    std::string in_band;
    for (std::size_t i = 0; i + 1 < half.levels.size(); ++i) {
      const std::string level{half.levels[i].level};
      const bool band = !half.levels[i].layer_condition && whole.levels[i].layer_condition;
      conditions += (i == 0 ? "" : ", ") + level + (half.levels[i].layer_condition ? " holds" : " fails") +
                    (band ? " (holds in all of it)" : "");
      if (band) in_band += (in_band.empty() ? "" : " and ") + level;
    }
    return std::pair{conditions, in_band};
  };
  // Row lengths around the layer conditions: half of a 48 KiB L1 holds the rows up to 768 doubles, half of
  // a 1 MiB L2 up to 16,384 (32N - 16 bytes); the table says which hold on the probed caches. Rows of 1,500
  // and 30,000 lie between half of a cache and all of it, where the half-cache rule (the ECM papers' and
  // kerncraft's) says the condition fails while a real cache still keeps part of the rows; rows of 6,000
  // and 100,000 are past all of L1 and all of L2. No power of two: rows of 8,192 doubles (64 KiB apart)
  // fall into the same cache sets and ran 40 % slower than the model, which knows no associativity.
  for (const std::size_t columns : run_options.tiny ? std::vector<std::size_t>{64, 256}
                                                    : std::vector<std::size_t>{600, 1500, 6000, 30000, 100000}) {
    const std::size_t grid_rows = std::max<std::size_t>(8, static_cast<std::size_t>(per_thread_bytes / 2 / 16 / static_cast<double>(columns)));
    const hml::loop_kernel k = hml::kernels::stencil2d5(static_cast<std::int64_t>(grid_rows), static_cast<std::int64_t>(columns));
    const auto [conditions, in_band] = layer_conditions(k);
    add_row("2D 5-point stencil, rows of " + std::to_string(columns), conditions, k,
            measure_beside(host, probed, sets, working_set, rounds, options.timing, 2, grid_rows * columns,
                           [&](auto& d, std::size_t) { stencil(d[0], d[1], grid_rows, columns); }),
            in_band.empty() ? target{15.0} : target{"none: between half of " + in_band + " and all of it"});
  }

  // In L1: each thread's arrays fill three quarters of its core's L1 (the larger the pass, the smaller the
  // share of its call and loop start-up, which the model does not count), so no line comes from outside and
  // the prediction is the in-core time alone, max(T_OL, T_nOL), on every core at once (nothing is shared).
  // The kernels are the fidelity table's (kernels.hpp), copy as a loop. What L1 serves per cycle (the port
  // model's shared limit on loads and stores) and its store rate are measured again beside each kernel, as
  // main memory's mixes are: the probe's Schoenauer triad and store kernel at the same working set, in rounds
  // alternating with it. Kernel and figures are all the core's own work, so each is taken at its best of the
  // rounds, the core undisturbed: a neighbour on the host's cores slows them all, but not alike (copy more
  // than the store kernel beside it), and a round's figures paired with its time put copy 14-17 % below its time.
  const hml::data_size l1_share = probed.memory[0].capacity.value * 0.75;
  const auto l1_elements = [&](std::size_t arrays) {
    return static_cast<std::size_t>(l1_share.value() / 8 / static_cast<double>(arrays)) / 8 * 8;
  };
  // In L1 the prediction is the in-core time alone, on every core at once: each thread's cache lines of
  // work at the ECM time for data in L1.
  const auto time_in_l1 = [](const hml::loop_kernel& k, const hml::ecm_result& r, const hml::machine_description& machine) {
    return hml::to_duration(hml::iterations(k) / r.iterations_per_cacheline * r.predictions[0], machine.clock.value);
  };
  const auto add_l1_row = [&](std::string kernel, const hml::loop_kernel& k, std::size_t arrays, auto body) {
    hml::timing_options once = options.timing;
    once.repetitions = 1;
    hml::duration fastest = std::numeric_limits<double>::infinity() * hml::second;
    hml::data_rate triad{};
    hml::data_rate store{};
    for (unsigned round = 0; round < rounds; ++round) {
      triad = std::max(triad, hml::measure_bandwidth(hml::stream_kernel::schoenauer_triad, l1_share * threads, once).bandwidth);
      store = std::max(store, hml::measure_bandwidth(hml::stream_kernel::store, l1_share * threads, once).bandwidth);
      fastest = std::min(fastest, time_kernel(arrays, l1_elements(arrays), once, body));
    }
    hml::machine_description machine = probed;
    machine.ports = host.ports(triad, store);
    const hml::ecm_result r = hml::ecm(k, machine);
    const hml::duration predicted = time_in_l1(k, r, machine);
    const auto per_cycle = [](double rate) { return std::string{hml::format_number(rate, hml::general(3)).view()}; };
    rows.push_back({std::move(kernel), "-", r, 0, predicted, fastest,
                    "Schoenauer triad in L1 " + hml::to_string(triad, {.number = hml::general(3)}) + ": " +
                        per_cycle(machine.ports.memory_ops_per_cycle) + " loads and stores per cycle; store in L1 " +
                        hml::to_string(store, {.number = hml::general(3)}) + ": " +
                        per_cycle(machine.ports.stores_per_cycle) + " stores per cycle",
                    10.0});
  };
  const auto n1 = [&](std::size_t arrays) { return static_cast<std::int64_t>(l1_elements(arrays)); };
  add_l1_row("copy (a loop), in L1", hml::kernels::copy(n1(2)), 2,
             [copy = copy_loop_for(host.isa)](auto& d, std::size_t m) { copy(d[0], d[1], m); });
  add_l1_row("STREAM triad, in L1", hml::kernels::stream_triad(n1(3)), 3,
             [](auto& d, std::size_t m) { kernels::triad(d[0], d[1], d[2], 3.0, m); });
  add_l1_row("vector add, in L1", hml::kernels::vector_add(n1(3)), 3,
             [](auto& d, std::size_t m) { kernels::vector_add(d[0], d[1], d[2], m); });

  // Kernels in C as kerncraft's users write them (examples/ecm), compiled for this host's core as the
  // in-core analysis compiles them (hml::analyse_c_kernel), built into a program around that very code
  // (c_program.hpp) and run once per thread: the triad, a strided read and the 2D stencil in DRAM, measured
  // in rounds beside main memory's mixes as the rows above, and the triad in L1; each predicted with its
  // in-core time from LLVM-MCA, not the port model. --tiny compiles them for kerncraft's Sandy Bridge, the
  // machine it predicts for.
  const std::string llvm_cpu = run_options.tiny ? std::string{probed.llvm_cpu} : hml::host_llvm_cpu();
  const bench::scratch_directory folder{"hml-ecm-c"};  // the programs built from C
  const std::chrono::milliseconds window{run_options.tiny ? 20 : 400};
  const auto from_c = [&](const std::string& file, const std::vector<hml::c_define>& defines) {
    std::ifstream in{std::string{HML_SOURCE_DIR} + "/examples/ecm/" + file};
    const std::string text{std::istreambuf_iterator<char>{in}, {}};
    return hml::analyse_c_kernel(text, file, defines, llvm_cpu, probed.cacheline_bytes);
  };
  const auto named = [](const std::string& label, const hml::compiled_in_core& c) {
    return label + ", from C (" + c.compiler + ")";
  };
  const auto c_row = [&](const std::string& label, const std::string& file, const std::vector<hml::c_define>& defines) {
    const hml::c_kernel_analysis c = from_c(file, defines);
    const bench::c_program program{c.in_core, folder.path(), "k" + std::to_string(rows.size())};
    const auto [conditions, in_band] = layer_conditions(c.kernel.kernel());
    add_row(named(label, c.in_core), conditions, c.kernel.kernel(),
            measure_rounds(host, probed, sets, working_set, rounds, options.timing,
                           [&](const hml::timing_options&) { return program.time(threads, window, 1, !run_options.tiny); }),
            in_band.empty() ? target{15.0} : target{"none: between half of " + in_band + " and all of it"}, c.in_core.time);
  };
  const auto per_thread = [&](double bytes_per_element) {
    return static_cast<std::int64_t>(per_thread_bytes / bytes_per_element) / 8 * 8;
  };
  c_row("Schoenauer triad", "triad.c", {{"N", per_thread(32)}});
  // A strided read: b[2i] moves 2 lines of b a CL of work; b[8i], one double a line, 8.
  for (const std::int64_t stride : {2, 8})
    c_row("scale, b read at stride " + std::to_string(stride), "scale-strided.c",
          {{"N", per_thread(8.0 + 8.0 * static_cast<double>(stride))}, {"S", stride}});
  for (const std::int64_t columns : run_options.tiny ? std::vector<std::int64_t>{256} : std::vector<std::int64_t>{6000, 100000}) {
    c_row("2D 5-point stencil, rows of " + std::to_string(columns), "2d-5pt.c",
          {{"M", std::max<std::int64_t>(8, per_thread(16.0 * static_cast<double>(columns)))}, {"N", columns}});
  }
  {
    // In L1, as the rows above.
    const hml::c_kernel_analysis c = from_c("triad.c", {{"N", n1(4)}});
    const bench::c_program program{c.in_core, folder.path(), "l1"};
    const hml::ecm_result r = hml::ecm(c.kernel.kernel(), probed, c.in_core.time);
    const hml::duration predicted = time_in_l1(c.kernel.kernel(), r, probed);
    rows.push_back({named("Schoenauer triad, in L1", c.in_core), "-", r, 0, predicted, program.time(threads, window, 1000, !run_options.tiny),
                    "nothing: the in-core time is LLVM-MCA's, at the probe's clock", 10.0});
  }

  std::string set_list;
  for (const hml::data_size set : sets) set_list += (set_list.empty() ? "" : ", ") + hml::to_string(set, {.number = hml::general(3)});
  std::string out = "\nMachine for the model, from the probe in the same run: " + std::to_string(threads) + " threads at " +
                    hml::to_string(probed.clock.value, {.number = hml::general(4)}) + " (measured); " +
                    "per core, as `hml probe --save` writes them, " + machine_text(probed) +
                    ". Measured again beside each DRAM kernel, in " + std::to_string(rounds) +
                    " rounds alternating with it: the caches' bandwidths and L1's "
                    "port figures by the probe's Schoenauer triad and store kernel inside each cache (" + set_list +
                    ", all threads), main memory's mixes at the kernel's working set, " +
                    hml::to_string(working_set, {.number = hml::general(3)}) +
                    ". Each round's time is predicted from main memory's mixes of the same round and the caches' best "
                    "figures of all rounds (a neighbour on this host's cores slows a cache's rate, not a kernel bound by "
                    "main memory); a row shows the round with the median error. For the L1 rows, the loads and stores L1 "
                    "serves per cycle (the port model's shared limit) from the Schoenauer triad and the stores per cycle "
                    "from the store kernel, measured the same way at the kernel's working set, three quarters of each "
                    "core's L1; there the figures and the kernel's time are each the best of the rounds (all of them the "
                    "core's own work: the core undisturbed).\n\n";
  out += bench::markdown_row({"kernel", "layer conditions", "measured beside it", "ECM (cy/CL, one core)", "predicted",
                              "measured", "error", "target"});
  out += bench::markdown_row({"---", "---", "---", "---", "---:", "---:", "---:", "---:"});
  for (const row& r : rows) {
    const double error = bench::error_percent(r.predicted, r.measured);
    std::string goal;
    if (const double* within = std::get_if<double>(&r.goal)) {
      goal = std::string{error < *within && error > -*within ? "within " : "MISSES "} + bench::percent_text(*within) + " %";
    } else {
      goal = std::get<std::string>(r.goal);
    }
    out += bench::markdown_row({r.kernel, r.layer_conditions, r.beside, ecm_line(r.model, r.terms),
                                bench::text(r.predicted), bench::text(r.measured), bench::percent_text(error) + " %", goal});
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  return bench::main(argc, argv, "the ECM model against real kernels on this machine", run);
}
