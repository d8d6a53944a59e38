// hml.probe's measuring half: threads, the streaming kernels, the FMA kernel and the scalar FMA chain, the
// latency chase and the clock, and the probe that runs them (host_machine.cpp makes machines of the results).
//
// The library is built for the baseline instruction set, so the kernels carry their own: each has an
// AVX-512 and an AVX2 version (target attributes, intrinsics, so the vector width is what likwid-bench
// uses and not what the compiler prefers), chosen at run time with __builtin_cpu_supports, and a portable
// loop for other CPUs.
module;
#include <algorithm>
#include <array>
#include <atomic>
#include <barrier>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <exception>
#include <fstream>
#include <functional>
#include <limits>
#include <memory>
#include <mutex>
#include <new>
#include <numeric>
#include <optional>
#include <random>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include <pthread.h>
#include <unistd.h>
#include <sched.h>
#include <sys/mman.h>
#if defined(__x86_64__)
#include <immintrin.h>
#endif
module hml.probe;
import hml.machine_description;
import hml.ecm;

namespace hml {
namespace {

using clock = std::chrono::steady_clock;

std::vector<int> allowed_cpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  std::vector<int> cpus;
  if (sched_getaffinity(0, sizeof set, &set) == 0) {
    for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu) {
      if (CPU_ISSET(cpu, &set)) cpus.push_back(cpu);
    }
  }
  return cpus;
}

// Best effort: an unpinned thread still measures, only with more noise.
void pin_this_thread(int cpu) {
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  pthread_setaffinity_np(pthread_self(), sizeof set, &set);
}

// The streaming loops, one per instruction set. n is a multiple of 8 and the arrays are line-aligned, so
// the vector loops need no remainder. Like likwid-bench's, they are plain loads and stores: no
// non-temporal stores, and the generic copy must not become a memcpy call (no_builtin), which may use them.
#if defined(__x86_64__)
[[gnu::target("avx512f")]] void copy_avx512(double* a, const double* b, std::size_t n) {
  for (std::size_t i = 0; i < n; i += 8) _mm512_store_pd(a + i, _mm512_load_pd(b + i));
}
[[gnu::target("avx512f")]] void store_avx512(double* a, double s, std::size_t n) {
  const __m512d v = _mm512_set1_pd(s);
  for (std::size_t i = 0; i < n; i += 8) _mm512_store_pd(a + i, v);
}
[[gnu::target("avx512f")]] void schoenauer_triad_avx512(double* a, const double* b, const double* c, const double* d,
                                             std::size_t n) {
  for (std::size_t i = 0; i < n; i += 8) {
    _mm512_store_pd(a + i, _mm512_fmadd_pd(_mm512_load_pd(c + i), _mm512_load_pd(d + i), _mm512_load_pd(b + i)));
  }
}
[[gnu::target("avx2")]] void copy_avx2(double* a, const double* b, std::size_t n) {
  for (std::size_t i = 0; i < n; i += 4) _mm256_store_pd(a + i, _mm256_load_pd(b + i));
}
[[gnu::target("avx2")]] void store_avx2(double* a, double s, std::size_t n) {
  const __m256d v = _mm256_set1_pd(s);
  for (std::size_t i = 0; i < n; i += 4) _mm256_store_pd(a + i, v);
}
[[gnu::target("avx2,fma")]] void schoenauer_triad_avx2(double* a, const double* b, const double* c, const double* d,
                                            std::size_t n) {
  for (std::size_t i = 0; i < n; i += 4) {
    _mm256_store_pd(a + i, _mm256_fmadd_pd(_mm256_load_pd(c + i), _mm256_load_pd(d + i), _mm256_load_pd(b + i)));
  }
}
#endif
[[clang::no_builtin("memcpy")]] void copy_generic(double* __restrict a, const double* __restrict b, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) a[i] = b[i];
}
[[clang::no_builtin("memset")]] void store_generic(double* a, double s, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) a[i] = s;
}
void schoenauer_triad_generic(double* __restrict a, const double* __restrict b, const double* __restrict c,
                   const double* __restrict d, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) a[i] = b[i] + c[i] * d[i];
}

// Enough independent accumulators to cover the FMA latency on every FMA port, few enough to stay in
// registers. x = x * m + a converges to a / (1 - m), so the values stay finite however long it runs.
constexpr double multiplier = 0.999999;
constexpr double addend = 1e-6;
constexpr std::uint64_t fma_rounds = 4096;  // per pass
// Well away from a / (1 - m) = 1, the fixed point: the compiler proves a chain that starts there constant
// and drops it, and the kernel would run one chain less than it counts.
constexpr double first_chain_start = 2.0;
static_assert(first_chain_start > 1.5 * addend / (1 - multiplier));

// The FMA kernel for lanes of T in vectors of Bytes (a GCC/clang vector type: one register of the
// instruction set the caller's target attribute names). `acc * m + a` is one expression, which clang
// contracts into one FMA where the target has it (-ffp-contract=on, its default), and computes as a
// multiply and an add where it does not.
template <class T, std::size_t Bytes, int Chains>
[[gnu::always_inline]] inline double fma_chains(std::uint64_t rounds) {
  using vector [[gnu::vector_size(Bytes)]] = T;
  vector acc[Chains];
  for (int c = 0; c < Chains; ++c) acc[c] = vector{} + static_cast<T>(first_chain_start + c);
  const vector m = vector{} + static_cast<T>(multiplier);
  const vector a = vector{} + static_cast<T>(addend);
  for (std::uint64_t r = 0; r < rounds; ++r) {
    for (int c = 0; c < Chains; ++c) acc[c] = acc[c] * m + a;
  }
  double sum = 0;
  for (int c = 0; c < Chains; ++c) {
    for (std::size_t lane = 0; lane < Bytes / sizeof(T); ++lane) sum += static_cast<double>(acc[c][lane]);
  }
  return sum;
}

constexpr int avx512_chains = 24;  // of 32 zmm registers
constexpr int avx2_chains = 12;    // of 16 ymm registers
constexpr int generic_chains = 8;
#if defined(__x86_64__)
template <class T>
[[gnu::target("avx512f")]] double fma_avx512(std::uint64_t rounds) { return fma_chains<T, 64, avx512_chains>(rounds); }
template <class T>
[[gnu::target("avx2,fma")]] double fma_avx2(std::uint64_t rounds) { return fma_chains<T, 32, avx2_chains>(rounds); }
#endif
template <class T>
double fma_generic(std::uint64_t rounds) { return fma_chains<T, sizeof(T), generic_chains>(rounds); }

// One chain: every multiply-add needs the result of the one before. With FMA (any CPU with AVX2 or
// AVX-512) it is one fused instruction per step, as the compilers emit for `sum += a * b` when they
// contract; without it a multiply and an add.
constexpr std::uint64_t chain_steps = 16384;  // per pass
#if defined(__x86_64__)
[[gnu::target("fma")]] double chain_fma(std::uint64_t steps, double x) {
  for (std::uint64_t s = 0; s < steps; ++s) x = __builtin_fma(x, multiplier, addend);
  return x;
}
#endif
double chain_generic(std::uint64_t steps, double x) {
  for (std::uint64_t s = 0; s < steps; ++s) x = x * multiplier + addend;
  return x;
}

enum class isa { avx512, avx2, generic };

isa detect_isa() {
#if defined(__x86_64__)
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f")) return isa::avx512;
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) return isa::avx2;
#endif
  return isa::generic;
}

// FLOP of one call to the kernel for `i` with `rounds` rounds: 2 per lane per chain per round.
template <class T>
double fma_flops(isa i, std::uint64_t rounds) {
  const double r = static_cast<double>(rounds);
  switch (i) {
#if defined(__x86_64__)
    case isa::avx512: return 2.0 * (64 / sizeof(T)) * avx512_chains * r;
    case isa::avx2: return 2.0 * (32 / sizeof(T)) * avx2_chains * r;
#endif
    default: return 2.0 * generic_chains * r;
  }
}

template <class T>
double run_fma(isa i, std::uint64_t rounds) {
  switch (i) {
#if defined(__x86_64__)
    case isa::avx512: return fma_avx512<T>(rounds);
    case isa::avx2: return fma_avx2<T>(rounds);
#endif
    default: return fma_generic<T>(rounds);
  }
}

double run_chain(isa i, std::uint64_t steps, double x) {
  switch (i) {
#if defined(__x86_64__)
    case isa::avx512:
    case isa::avx2: return chain_fma(steps, x);
#endif
    default: return chain_generic(steps, x);
  }
}

void run_copy(isa i, double* a, const double* b, std::size_t n) {
  switch (i) {
#if defined(__x86_64__)
    case isa::avx512: return copy_avx512(a, b, n);
    case isa::avx2: return copy_avx2(a, b, n);
#endif
    default: return copy_generic(a, b, n);
  }
}

void run_store(isa i, double* a, double s, std::size_t n) {
  switch (i) {
#if defined(__x86_64__)
    case isa::avx512: return store_avx512(a, s, n);
    case isa::avx2: return store_avx2(a, s, n);
#endif
    default: return store_generic(a, s, n);
  }
}

void run_schoenauer_triad(isa i, double* a, const double* b, const double* c, const double* d, std::size_t n) {
  switch (i) {
#if defined(__x86_64__)
    case isa::avx512: return schoenauer_triad_avx512(a, b, c, d, n);
    case isa::avx2: return schoenauer_triad_avx2(a, b, c, d, n);
#endif
    default: return schoenauer_triad_generic(a, b, c, d, n);
  }
}

// The arrays one thread streams through.
struct stream_arrays {
  std::vector<line_aligned_doubles> arrays;
  std::size_t n = 0;
};

constexpr std::size_t doubles_per_line = 64 / sizeof(double);

// The workload kernel a stream kernel runs: its bytes are what the probe counts.
kernel workload_of(stream_kernel k, std::uint64_t n) {
  switch (k) {
    case stream_kernel::schoenauer_triad: return hml::schoenauer_triad<double>(n);
    case stream_kernel::store: return hml::store<double>(n);
    case stream_kernel::copy:
    case stream_kernel::copy_memmove: break;
  }
  return hml::copy<double>(n);
}

// Arrays the kernel streams through: its bytes per element over the element size.
std::size_t streams(stream_kernel k) {
  return static_cast<std::size_t>(workload_of(k, 1).bytes / element_size<double>);
}

}  // namespace

void validate_working_set(data_size working_set) {
  expects(isfinite(working_set) && working_set.value() > 0, "hml: a working set must be finite and > 0; give a size above zero, as 64KiB");
  // Half: the rest is the system's, and a probe that swaps measures the disk.
  const data_size limit = physical_memory() / 2;
  if (limit < working_set) {
    throw std::invalid_argument("hml: a working set must be at most half this machine's memory (" +
                                to_string(limit, {.prefixes = prefix_system::binary}) + "); give a smaller one");
  }
}

void validate_probe_working_set(data_size working_set) {
  validate_working_set(working_set);
  expects(!(working_set < min_probe_working_set), "hml: the probe's working sets must be at least 1 KiB; give 1 KiB or more");
}

unsigned available_threads() {
  const std::size_t cpus = allowed_cpus().size();
  if (cpus > 0) return static_cast<unsigned>(cpus);
  return std::max(1u, std::thread::hardware_concurrency());
}

duration time_parallel(const std::function<void(unsigned, unsigned)>& prepare,
                       const std::function<void(unsigned, unsigned)>& pass, const timing_options& options) {
  validate_repetitions(options.repetitions);
  validate_min_time(options.min_time);
  const unsigned threads = options.threads == 0 ? available_threads() : options.threads;
  const std::vector<int> cpus = allowed_cpus();

  // The barrier's completion step runs once per phase, after every thread has arrived and before any
  // leaves, so what it writes every thread reads after its arrive_and_wait. First the passes are
  // calibrated: a round of `passes` passes on every thread, doubled (or scaled up, if far too short) until
  // one round lasts min_time, so that a repetition is long against the barrier's own microseconds; the
  // first round warms the caches. Then each repetition is timed between two phases.
  enum class stage { prepared, calibrating, repeating };
  stage current = stage::prepared;
  std::uint64_t passes = 1;
  const clock::time_point origin = clock::now();
  const auto now = [&options, origin] {
    return options.timer ? options.timer() : std::chrono::duration<double>(clock::now() - origin).count() * second;
  };
  duration started{};
  bool timing = false;  // while repeating: a repetition runs, and the next phase ends it
  std::vector<double> repetitions;
  const double min_seconds = options.min_time.value();
  constexpr std::uint64_t max_passes = std::uint64_t{1} << 40;
  auto on_phase = [&]() noexcept {
    const double elapsed = (now() - started).value();
    switch (current) {
      case stage::prepared: current = stage::calibrating; break;
      case stage::calibrating:
        if (elapsed >= min_seconds || passes >= max_passes) {
          current = stage::repeating;
        } else {
          const double scale = elapsed > 0 ? std::clamp(1.2 * min_seconds / elapsed, 2.0, 100.0) : 100.0;
          passes = std::min(max_passes, static_cast<std::uint64_t>(std::ceil(static_cast<double>(passes) * scale)));
        }
        break;
      case stage::repeating:
        if (timing) repetitions.push_back(elapsed);
        timing = !timing;
        break;
    }
    started = now();
  };
  std::barrier sync{static_cast<std::ptrdiff_t>(threads), on_phase};

  // A thread that fails (say, cannot allocate its arrays) keeps arriving at every barrier, so that no
  // other thread waits forever, and runs no more passes; the first failure is rethrown here.
  std::mutex error_mutex;
  std::exception_ptr error;
  std::atomic<bool> failed{false};
  const auto guarded = [&](auto&& step) {
    if (failed) return;
    try {
      step();
    } catch (...) {
      const std::lock_guard lock{error_mutex};
      if (!error) error = std::current_exception();
      failed = true;
    }
  };
  const auto start_worker = [&](std::vector<std::jthread>& workers, unsigned t) {
    workers.emplace_back([&, t] {
      if (!cpus.empty()) pin_this_thread(cpus[t % cpus.size()]);  // before it touches its data
      const auto round = [&] {
        guarded([&] {
          for (std::uint64_t p = 0; p < passes; ++p) pass(t, threads);
        });
        sync.arrive_and_wait();
      };
      guarded([&] { prepare(t, threads); });
      sync.arrive_and_wait();
      while (current == stage::calibrating) round();
      for (unsigned r = 0; r < options.repetitions; ++r) {
        sync.arrive_and_wait();  // the repetition starts
        round();
      }
    });
  };
  {
    std::vector<std::jthread> workers;
    workers.reserve(threads);
    for (unsigned t = 0; t < threads; ++t) {
      try {
        start_worker(workers, t);
      } catch (const std::system_error& e) {  // a limit on processes or memory: the threads started wait for it
        {
          const std::lock_guard lock{error_mutex};
          if (!error) {
            error = std::make_exception_ptr(std::runtime_error(
                "hml: cannot start measuring thread " + std::to_string(t + 1) + " of " + std::to_string(threads) + ": " +
                e.code().message() + "; give fewer threads, or raise the limit on processes or memory"));
          }
          failed = true;
        }
        // Each thread that did not start leaves the barrier, so the ones that did pass every phase, idle.
        for (unsigned missing = t; missing < threads; ++missing) sync.arrive_and_drop();
        break;
      }
    }
  }  // joined
  if (error) std::rethrow_exception(error);

  return std::ranges::min(repetitions) / static_cast<double>(passes) * second;
}

bandwidth_sample measure_bandwidth(stream_kernel kernel, data_size working_set, const timing_options& options) {
  validate_working_set(working_set);
  const unsigned threads = options.threads == 0 ? available_threads() : options.threads;
  const std::size_t arrays = streams(kernel);
  // Whole cache lines of every array on every thread, at least one.
  const double per_array = working_set.value() / static_cast<double>(arrays * threads * sizeof(double));
  const std::size_t n = std::max(doubles_per_line, static_cast<std::size_t>(per_array) / doubles_per_line * doubles_per_line);

  std::vector<stream_arrays> data(threads);
  const auto prepare = [&](unsigned t, unsigned) {
    data[t].n = n;
    for (std::size_t a = 0; a < arrays; ++a) data[t].arrays.push_back(make_line_aligned_doubles(n, 1.0 + static_cast<double>(a)));
  };
  const isa kind = detect_isa();
  const auto pass = [&](unsigned t, unsigned) {
    auto& d = data[t].arrays;
    switch (kernel) {
      case stream_kernel::copy: return run_copy(kind, d[0].get(), d[1].get(), n);
      case stream_kernel::copy_memmove: std::memmove(d[0].get(), d[1].get(), n * sizeof(double)); return;
      case stream_kernel::store: return run_store(kind, d[0].get(), 0.5, n);
      case stream_kernel::schoenauer_triad:
        return run_schoenauer_triad(kind, d[0].get(), d[1].get(), d[2].get(), d[3].get(), n);
    }
  };
  const duration time = time_parallel(prepare, pass, {threads, options.min_time, options.repetitions, options.timer});
  const data_size moved = workload_of(kernel, n * threads).bytes;
  return {moved, moved / time};
}

// A cache line that points to the next one to load.
struct alignas(64) chase_line {
  const chase_line* next;
};
static_assert(sizeof(chase_line) == 64);

constexpr std::uint64_t chase_steps = 4096;  // loads per pass

// Lines on 2 MiB pages where the kernel gives them (transparent huge pages), so that a chase over a cache
// level measures the cache and not the page walks that 4 KiB pages would add.
constexpr std::size_t huge_page = std::size_t{2} << 20;
using chase_lines = aligned_array<chase_line, huge_page>;

chase_lines allocate_lines(std::size_t count) {
  const std::size_t bytes = (count * sizeof(chase_line) + huge_page - 1) / huge_page * huge_page;
  chase_lines lines = allocate_aligned<chase_line, huge_page>(bytes);
  ::madvise(lines.get(), bytes, MADV_HUGEPAGE);  // best effort: 4 KiB pages if refused
  return lines;
}

duration measure_latency(data_size working_set, const timing_options& options) {
  validate_working_set(working_set);
  const std::size_t count = std::max<std::size_t>(2, static_cast<std::size_t>(working_set.value()) / sizeof(chase_line));
  chase_lines lines;
  const chase_line* position = nullptr;
  const auto prepare = [&](unsigned, unsigned) {
    lines = allocate_lines(count);  // first touched by the thread that chases
    std::vector<std::size_t> order(count);
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::shuffle(order.begin() + 1, order.end(), std::mt19937_64{count});  // one cycle through every line
    for (std::size_t i = 0; i < count; ++i) lines[order[i]].next = &lines[order[(i + 1) % count]];
    position = &lines[0];
  };
  // Each pass goes on from where the last one stopped, so every load depends on the one before.
  const auto pass = [&](unsigned, unsigned) {
    const chase_line* p = position;
    for (std::uint64_t i = 0; i < chase_steps; ++i) p = p->next;
    position = p;
  };
  const duration per_pass = time_parallel(prepare, pass, {1, options.min_time, options.repetitions, options.timer});
  return per_pass / static_cast<double>(chase_steps);
}

std::string_view vector_isa() {
  switch (detect_isa()) {
    case isa::avx512: return "avx512f";
    case isa::avx2: return "avx2+fma";
    case isa::generic: return "generic";
  }
  return "generic";
}

namespace {

// The FMA peak in lanes of T, on every thread.
template <class T>
compute_rate measure_fma_peak(const timing_options& options) {
  const isa kind = detect_isa();
  const unsigned threads = options.threads == 0 ? available_threads() : options.threads;
  std::vector<double> sinks(threads);  // kept, so the chains cannot be optimised away
  const auto pass = [&](unsigned t, unsigned) { sinks[t] += run_fma<T>(kind, fma_rounds); };
  const duration time = time_parallel([](unsigned, unsigned) {}, pass, {threads, options.min_time, options.repetitions, options.timer});
  expects(std::ranges::all_of(sinks, [](double s) { return std::isfinite(s); }), "hml: the FMA kernel diverged");
  return fma_flops<T>(kind, fma_rounds) * static_cast<double>(threads) * flop / time;
}

}  // namespace

compute_rate measure_peak_compute(const timing_options& options, fma_precision precision) {
  return precision == fma_precision::fp32 ? measure_fma_peak<float>(options) : measure_fma_peak<double>(options);
}

compute_rate measure_scalar_chain(const timing_options& options) {
  const isa kind = detect_isa();
  const unsigned threads = options.threads == 0 ? available_threads() : options.threads;
  std::vector<double> chains(threads, 1.0);  // each pass continues its thread's chain: nothing to hoist
  const auto pass = [&](unsigned t, unsigned) { chains[t] = run_chain(kind, chain_steps, chains[t]); };
  const duration time = time_parallel([](unsigned, unsigned) {}, pass, {threads, options.min_time, options.repetitions, options.timer});
  expects(std::ranges::all_of(chains, [](double x) { return std::isfinite(x); }), "hml: the FMA chain diverged");
  return 2.0 * static_cast<double>(chain_steps) * static_cast<double>(threads) * flop / time;
}

std::vector<data_size> working_set_ladder(data_size smallest, data_size largest, unsigned steps_per_doubling) {
  expects(isfinite(smallest) && smallest.value() > 0 && isfinite(largest) && !(largest < smallest),
          "hml: a working-set ladder needs 0 < smallest <= largest; give a smallest no larger than the largest");
  expects(steps_per_doubling >= 1, "hml: a working-set ladder needs at least one step per doubling");
  expects(std::log2(largest / smallest) * steps_per_doubling < static_cast<double>(max_working_sets),
          "hml: a working-set ladder of more than 256 sizes (smallest and largest too far apart)");
  std::vector<data_size> sizes;
  const double step = std::exp2(1.0 / steps_per_doubling);
  for (double factor = 1.0; !(largest < smallest * factor * (1 - 1e-9)); factor *= step) {
    sizes.push_back(smallest * factor);
  }
  return sizes;
}


frequency measure_clock(const timing_options& options) {
#if defined(__x86_64__)
  // Per pass; 8 additions per loop trip, so that the loop's own counter and branch run beside the chain
  // on other ports and do not lengthen it.
  constexpr std::uint64_t additions = 1'000'000;
  timing_options one_thread = options;
  one_thread.threads = 1;
  std::uint64_t sink = 0;
  volatile std::uint64_t one_in_memory = 1;  // read from memory: a value the renamer cannot know or fold
  const duration t = time_parallel([](unsigned, unsigned) {},
                                   [&](unsigned, unsigned) {
                                     std::uint64_t x = sink;
                                     const std::uint64_t one = one_in_memory;
                                     for (std::uint64_t i = 0; i < additions / 8; ++i) {
                                       asm volatile(
                                           "add %1, %0\n\tadd %1, %0\n\tadd %1, %0\n\tadd %1, %0\n\t"
                                           "add %1, %0\n\tadd %1, %0\n\tadd %1, %0\n\tadd %1, %0"
                                           : "+r"(x)
                                           : "r"(one));
                                     }
                                     sink = x;
                                   },
                                   one_thread);
  return static_cast<double>(additions) / t.value() * hertz;
#else
  (void)options;
  return frequency{};
#endif
}


host_machine probe(const probe_options& options) {
  expects(!options.working_sets.empty(), "hml: the probe needs at least one working set");
  std::ranges::for_each(options.working_sets, validate_probe_working_set);
  host_machine machine;
  machine.threads = options.timing.threads == 0 ? available_threads() : options.timing.threads;
  machine.isa = vector_isa();
  // The store port's rate only matters where L1 serves the stores: sets that fit the first cache reported.
  const std::vector<data_size> caches = reported_caches();
  const data_size first_cache = caches.empty() ? data_size{} : caches.front() * static_cast<double>(machine.threads);
  for (const data_size size : options.working_sets) {
    machine.copy.push_back(measure_bandwidth(stream_kernel::copy, size, options.timing));
    machine.schoenauer_triad.push_back(measure_bandwidth(stream_kernel::schoenauer_triad, size, options.timing));
    if (!(first_cache < size)) machine.store.push_back(measure_bandwidth(stream_kernel::store, size, options.timing));
    // memmove's own path only matters in main memory: beyond four times the last cache.
    if (!(size < 4.0 * last_level_cache()))
      machine.copy_memmove.push_back(measure_bandwidth(stream_kernel::copy_memmove, size, options.timing));
  }
  plateau_options plateaus = options.plateaus;
  data_size inner{};  // what the levels inside hold, all threads together
  for (const host_machine::working_set_range& cache : machine.sample_ranges(caches)) {
    if (!std::isfinite(cache.capacity.value())) break;  // main memory's
    plateaus.inside_caches.push_back({inner, cache.capacity});
    inner = cache.capacity;
  }
  machine.levels = find_plateaus(machine.schoenauer_triad, plateaus);
  for (std::size_t level = 0; level < machine.levels.size(); ++level) {
    // The level's working sets are all threads' together; the latency is one thread's.
    machine.latencies.push_back(
        measure_latency(machine.latency_working_set(level) / static_cast<double>(machine.threads), options.timing));
  }
  machine.peak = measure_peak_compute(options.timing);
  machine.peak_fp32 = measure_peak_compute(options.timing, fma_precision::fp32);
  machine.scalar_chain = measure_scalar_chain(options.timing);
  machine.clock = measure_clock(options.timing);
  return machine;
}

}  // namespace hml
