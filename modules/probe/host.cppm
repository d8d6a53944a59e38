// hml.probe:host — times kernels on every hardware thread of this machine and describes the machine.
//
// Bytes are counted the way likwid-bench counts them, so the two compare directly: copy a[i] = b[i] moves
// 16 B per element (one load, one store), the Schoenauer triad a[i] = b[i] + c[i] * d[i] moves 32 B (three
// loads, one store); the extra read a cache does to allocate a written line (write-allocate) is not counted. A working
// set is the size of all arrays of all threads together (likwid-bench's -W N:<size>:<threads>).
module;
#include <algorithm>
#include <cstddef>
#include <functional>
#include <memory>
#include <new>
#include <span>
#include <string_view>
#include <vector>
export module hml.probe:host;
import hml.machine_description;
import hml.ecm;
import :plateaus;

export namespace hml {

struct timing_options {
  unsigned threads = 0;                      // 0: one per hardware thread this process may run on
  duration min_time = 100 * millisecond;     // each repetition repeats the pass until it lasts this long
  unsigned repetitions = 3;                  // the best repetition counts
  // The time since any fixed moment; empty: std::chrono::steady_clock. Tests inject a timer of their own,
  // so that what a measurement computes from its timings is checked without depending on the host's speed.
  std::function<duration()> timer{};
};

// The most a measurement may be asked to repeat: a probe measures some 30 working sets, each
// `repetitions` times for at least `min_time`, so these keep a run under an hour (the defaults: a minute).
inline constexpr unsigned max_repetitions = 100;
inline constexpr duration max_min_time = 1 * second;
// The least: a shorter repetition is mostly the clock's own cost and a pass's start (at 0 s, one pass over
// 1 KiB read L1 at 86.5 MB/s, 2000 times below its 180 GB/s at 1 ms, and 60-fold apart between runs).
inline constexpr duration min_min_time = 1 * millisecond;

// The timing options' checks, one per field, as hml.machine has them (validate_latency, ...).
constexpr void validate_min_time(duration t) {
  expects(isfinite(t) && t >= min_min_time && t <= max_min_time,
          "hml: the minimum time of a repetition must be within [1 ms, 1 s] (shorter ones measure the clock); give one within it");
}
constexpr void validate_repetitions(unsigned repetitions) {
  expects(repetitions >= 1 && repetitions <= max_repetitions, "hml: timing takes 1 to 100 repetitions");
}

// The memory this machine has (what the kernel reports as physical pages).
[[nodiscard]] data_size physical_memory();

// The size of the last cache level the system reports (reported_caches(): one instance, as sysfs says, where
// sysconf may give the whole package's); 0 B if none is reported.
// A probe whose largest working set does not pass it has not reached DRAM.
[[nodiscard]] data_size last_level_cache();

// A working set the probe can allocate: finite, > 0 and at most half of physical_memory().
void validate_working_set(data_size working_set);

// The smallest working set a probe takes (all threads together): below it every kernel runs arrays of one
// cache line per thread, the same measurement at every size, each taking the whole --min-time.
inline constexpr data_size min_probe_working_set = 1024.0 * byte;
// A working set of a probe's ladder: validate_working_set's and at least min_probe_working_set.
void validate_probe_working_set(data_size working_set);

// The data caches the system reports for CPU 0, L1 first, each as one core sees it (sysfs; "48K"), an
// empty list where it reports none.
[[nodiscard]] std::vector<data_size> reported_caches();

// The hardware threads this process may run on (its CPU affinity).
[[nodiscard]] unsigned available_threads();

// Runs `prepare(thread, threads)` once, then `pass(thread, threads)` over and over on `threads` threads,
// each pinned to its own CPU where the system allows; all threads start each repetition together (a
// barrier) and the repetition ends when the last one finishes. Returns the best time of one pass.
// `prepare` is where each thread allocates and first-touches its data, so that it is local to its core.
// An exception from `prepare` or `pass` on any thread stops the passes and is rethrown here.
[[nodiscard]] duration time_parallel(const std::function<void(unsigned thread, unsigned threads)>& prepare,
                                     const std::function<void(unsigned thread, unsigned threads)>& pass,
                                     const timing_options& options = {});

// Arrays on an alignment boundary: the streams' doubles on cache lines (a misaligned 64-byte vector load
// touches two lines, which halves what L1 delivers), the latency chase's lines on 2 MiB pages. Kernels
// timed beside the probe (benchmarks/host) use the same arrays.
template <class T, std::size_t Alignment>
struct aligned_delete {
  void operator()(T* p) const noexcept { ::operator delete[](p, std::align_val_t{Alignment}); }
};
template <class T, std::size_t Alignment>
using aligned_array = std::unique_ptr<T[], aligned_delete<T, Alignment>>;

// `bytes` of storage for T on an `Alignment` boundary, not yet initialised (its first touch places it).
template <class T, std::size_t Alignment>
[[nodiscard]] aligned_array<T, Alignment> allocate_aligned(std::size_t bytes) {
  return aligned_array<T, Alignment>{static_cast<T*>(::operator new[](bytes, std::align_val_t{Alignment}))};
}

// `n` doubles on a cache line, each `value`.
using line_aligned_doubles = aligned_array<double, 64>;
[[nodiscard]] inline line_aligned_doubles make_line_aligned_doubles(std::size_t n, double value) {
  line_aligned_doubles a = allocate_aligned<double, 64>(n * sizeof(double));
  std::fill_n(a.get(), n, value);
  return a;
}

// The probe's streaming kernels, whose bytes are those of hml::copy<double>, hml::schoenauer_triad<double> and
// hml::store<double>.
enum class stream_kernel {
  copy,              // a[i] = b[i]: 16 B per element
  schoenauer_triad,  // a[i] = b[i] + c[i] * d[i]: 32 B per element, 2 FLOP (likwid-bench's "triad")
  copy_memmove,      // std::memmove of the array, 16 B per element: glibc stores a large block non-temporally
  store,             // a[i] = s: 8 B per element (likwid-bench's "store"): the rate of L1's store port
};

// Bandwidth of one streaming kernel over a working set of about `working_set` (rounded down so every
// thread gets whole 64-byte lines of every array; the sample holds the size really used).
[[nodiscard]] bandwidth_sample measure_bandwidth(stream_kernel kernel, data_size working_set,
                                                 const timing_options& options = {});

// The instruction set the FMA kernel uses here: "avx512f", "avx2+fma" or "generic" (no FMA: a multiply
// and an add, still 2 FLOP).
[[nodiscard]] std::string_view vector_isa();

enum class fma_precision { fp64, fp32 };  // the lanes of the FMA kernel

// Peak FP64 (or FP32) rate: independent chains of vector multiply-adds in registers, on every thread.
[[nodiscard]] compute_rate measure_peak_compute(const timing_options& options = {},
                                                fma_precision precision = fma_precision::fp64);

// FP64 rate of one dependent chain of scalar multiply-adds per thread, on every thread: each FMA waits for
// the one before, so the FMA latency sets the rate, not the vector width or the number of FMA units. It is
// the compute ceiling of code that sums into one variable, such as a dot product the compiler may not
// reorder (no -ffast-math), where the vector peak above is out of reach.
[[nodiscard]] compute_rate measure_scalar_chain(const timing_options& options = {});

// This core's clock: one thread times a chain of dependent 64-bit additions of a register to a register,
// each of which waits for the one before and takes one cycle on every x86-64 core (ADD r64, r64 has latency
// 1 in Agner Fog's tables and on uops.info, Intel and AMD alike), so additions per second are cycles per
// second, boost included. The addend is a register loaded from memory, not an immediate: Intel's cores
// from Golden Cove on fold `add $imm, reg` in the renamer (a chain of them ran five a cycle, and a probe
// on such a core measured 18.9 GHz), which they cannot do with a value the renamer does not know.
// 0 Hz where the chain is not available (not x86-64).
[[nodiscard]] frequency measure_clock(const timing_options& options = {});

// Latency of a load that waits for the one before: one thread follows pointers through the 64-byte lines
// of `working_set` in a random cyclic order, so neither the prefetchers nor out-of-order execution can
// overlap two loads. Beyond the TLB's reach it includes page walks, as any random access does.
[[nodiscard]] duration measure_latency(data_size working_set, const timing_options& options = {});

// Working sets from `smallest` to `largest`, `steps_per_doubling` per factor of two; at most
// max_working_sets of them.
inline constexpr std::size_t max_working_sets = 256;
[[nodiscard]] std::vector<data_size> working_set_ladder(data_size smallest, data_size largest,
                                                        unsigned steps_per_doubling = 2);

struct probe_options {
  // From well inside L1 to well beyond any last-level cache (the largest sets must be served by DRAM).
  std::vector<data_size> working_sets = working_set_ladder(16 * kibibyte, 2 * gibibyte);
  timing_options timing{};
  plateau_options plateaus{};
};

// This machine as the models see it.
struct host_machine {
  unsigned threads = 0;
  std::string_view isa;
  std::vector<bandwidth_sample> copy;
  std::vector<bandwidth_sample> schoenauer_triad;
  std::vector<bandwidth_sample> copy_memmove;  // only beyond four times the last cache: main memory's store path
  std::vector<bandwidth_sample> store;         // only inside the first cache the system reports: L1's store rate
  std::vector<bandwidth_plateau> levels;  // from the Schoenauer triad samples, fastest first; the last is DRAM
  std::vector<duration> latencies;        // per level, one thread at the level's middle working set per thread
  compute_rate peak;                      // FP64 FMA, all threads
  compute_rate peak_fp32;                 // FP32 FMA, all threads
  compute_rate scalar_chain;              // one dependent scalar FMA chain per thread, all threads
  frequency clock{};                      // measure_clock(); 0 Hz: not measured

  // The level that serves a working set: the first whose measured sets reach it (a set between two
  // levels gets the slower one); the last level for anything larger.
  [[nodiscard]] std::size_t level_index(data_size working_set) const;
  [[nodiscard]] const bandwidth_plateau& level_for(data_size working_set) const;
  // The latency measured for levels[level]; 0 s where none was (a machine put together by hand).
  [[nodiscard]] duration latency(std::size_t level) const;
  // Where levels[level]'s latency is measured: the geometric middle of its working sets, all threads together
  // (one thread chases a share of it).
  [[nodiscard]] data_size latency_working_set(std::size_t level) const;
  // A flat memory with that level's latency, streaming at its ceiling.
  [[nodiscard]] memory memory_for(data_size working_set) const;
  [[nodiscard]] memory dram() const;
  [[nodiscard]] compute_core core() const;
  [[nodiscard]] roof roofline() const;  // DRAM and the FMA peak
  [[nodiscard]] compute_ceiling compute() const;               // "FP64 FMA": the vector peak
  [[nodiscard]] compute_ceiling compute_fp32() const;          // "FP32 FMA"
  [[nodiscard]] compute_ceiling scalar_chain_compute() const;  // "FP64 scalar FMA chain"
  // This machine as a machine description (what a device file holds): every level and peak found,
  // tagged measured by probe_source. A description holds a fixed number of levels; more is an error.
  // Main memory's capacity is the memory installed, as the system reports it.
  [[nodiscard]] machine_description description() const;
  // This machine for the ECM model, its levels the caches the system reports (reported_caches()) and main
  // memory: the clock, the cores (threads), description()'s compute ceilings, each cache's capacity, and
  // its bandwidth per core from the Schoenauer triad samples clearly inside it (the median of those whose
  // working set is from twice what the level inside holds to half of what this one holds; the plateaus
  // can merge two levels or call a spill into DRAM a cache), scaled by 5/4 to the lines a Schoenauer triad
  // really moves (3 loads, 1 store and its write-allocate; the probe counts 4). Main memory: the median of
  // the samples from four times the last cache on, for two stream mixes (the triad: 3 reads, 1 write; copy:
  // 1 and 1), which the model scales for write-allocate itself; the slowest plateau where no sample is
  // that large; and memmove's non-temporal copy ("copy-nt"), the path kernels that stream their stores
  // take. A level's latency is that of the first plateau whose latency_working_set() lies inside it
  // (main memory: the slowest plateau's, if beyond the last cache), none where no plateau's does: plateaus that merge
  // levels (a loaded or instrumented host) leave latencies out, never give a cache another level's.
  // Needs a measured clock and a sample inside every cache; not any number of plateaus.
  [[nodiscard]] machine_description cpu() const;
  // The same with the caches' capacities given, L1 first, each as one core sees it (the last one is
  // shared by all threads); without any, the levels are the plateaus found.
  [[nodiscard]] machine_description cpu(std::span<const data_size> caches) const;
  // The working sets (all threads' together) whose samples give cpu(caches) its figures: for each cache,
  // L1 first, from twice what the level inside holds to half of what this one holds (the last cache is
  // shared: its capacity is all threads' together); then main memory's, from four times the last cache
  // on (largest: infinite). A benchmark that measures these figures again beside a kernel measures them
  // inside these ranges.
  struct working_set_range {
    data_size smallest;
    data_size largest;
    bool shared = false;  // a cache all threads share: the last one, when there are several threads
    data_size capacity;   // what the level holds, all threads together (main memory: infinite)
  };
  [[nodiscard]] std::vector<working_set_range> sample_ranges(std::span<const data_size> caches) const;
  // The ECM port model of this machine: the vector width of the probe's kernels; as the loads and stores
  // L1 serves together per cycle, what a Schoenauer triad at `l1_triad` (all threads, counted: one 8 B
  // access per 8 B) issues on one core; and as the stores per cycle, what the store kernel at `l1_store`
  // (all threads) issues on one core, where one was measured (0 B/s: port_model's default). The other
  // throughputs are port_model's defaults, as is a measured rate outside port_model's bounds (a disturbed
  // measurement). A machine put together by hand (no instruction set named) keeps the defaults.
  [[nodiscard]] port_model ports(data_rate l1_triad, data_rate l1_store = {}) const;
};

// Where a probed machine's figures come from.
inline constexpr source probe_source{"hml-probe", "this machine, measured by hml probe",
                                     "the file's own run of `hml probe --save`"};

// Measures copy and triad over every working set, each level's latency, the FP64 and FP32 FMA peaks and
// the scalar chain, and finds the memory levels.
[[nodiscard]] host_machine probe(const probe_options& options = {});

}  // namespace hml
