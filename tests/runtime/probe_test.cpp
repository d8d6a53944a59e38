// hml.probe: plateau detection on synthetic samples (a pure function, so exact), the machine description's
// queries, the parallel timer's bookkeeping, and the real probe on a tiny setting. No timing thresholds:
// the measured values are only checked to be finite, positive and within physical bounds.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>
#include <stdexcept>
#include <string_view>
#include <vector>

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

import hml;
import hml.probe;

using namespace hml::literals;

namespace {

// L1 (with noise), a transition, L2 (noisy), a transition, DRAM.
std::vector<hml::bandwidth_sample> three_levels() {
  return {{16_KiB, 101_GBps}, {32_KiB, 99_GBps},  {48_KiB, 100_GBps}, {64_KiB, 70_GBps},
          {128_KiB, 38_GBps}, {256_KiB, 43_GBps}, {512_KiB, 40_GBps}, {2_MiB, 24_GBps},
          {8_MiB, 10_GBps},   {16_MiB, 11_GBps}};
}

TEST(Plateaus, OneCeilingPerLevelAtTheMedianTransitionsDropped) {
  const auto levels = hml::find_plateaus(three_levels());
  ASSERT_EQ(levels.size(), 3u);
  EXPECT_EQ(levels[0].ceiling.name, "L1");
  EXPECT_EQ(levels[0].ceiling.bandwidth, 100_GBps);
  EXPECT_EQ(levels[0].smallest, 16_KiB);
  EXPECT_EQ(levels[0].largest, 48_KiB);
  EXPECT_EQ(levels[0].samples, 3u);
  EXPECT_EQ(levels[1].ceiling.name, "L2");
  EXPECT_EQ(levels[1].ceiling.bandwidth, 40_GBps);
  EXPECT_EQ(levels[1].smallest, 128_KiB);
  EXPECT_EQ(levels[1].largest, 512_KiB);
  EXPECT_EQ(levels[2].ceiling.name, "DRAM");
  EXPECT_EQ(levels[2].ceiling.bandwidth, 10.5_GBps);  // the median of an even group: the middle two's mean
  EXPECT_EQ(levels[2].smallest, 8_MiB);
}

TEST(Plateaus, OrderOfTheSamplesDoesNotMatter) {
  auto samples = three_levels();
  std::ranges::reverse(samples);
  const auto levels = hml::find_plateaus(samples);
  ASSERT_EQ(levels.size(), 3u);
  EXPECT_EQ(levels[1].ceiling.bandwidth, 40_GBps);
}

TEST(Plateaus, TheLastGroupIsKeptEvenWithOneSample) {
  const std::vector<hml::bandwidth_sample> samples{{1_KiB, 50_GBps}, {2_KiB, 50_GBps}, {1_GiB, 5_GBps}};
  const auto levels = hml::find_plateaus(samples);
  ASSERT_EQ(levels.size(), 2u);
  EXPECT_EQ(levels[1].ceiling.name, "DRAM");
  EXPECT_EQ(levels[1].ceiling.bandwidth, 5_GBps);
}

TEST(Plateaus, ToleranceDecidesWhatIsOneLevel) {
  const std::vector<hml::bandwidth_sample> samples{{1_KiB, 100_GBps}, {2_KiB, 85_GBps}, {4_KiB, 85_GBps}};
  EXPECT_EQ(hml::find_plateaus(samples, {.tolerance = 0.2}).size(), 1u);
  EXPECT_EQ(hml::find_plateaus(samples, {.tolerance = 0.1}).size(), 1u)
      << "the first sample alone is a transition, dropped; the rest is the last level";
  EXPECT_EQ(hml::find_plateaus(samples, {.tolerance = 0.1, .min_samples = 1}).size(), 2u);
}

TEST(Plateaus, NoiseThatSplitsALevelIsMergedIntoAtMostMaxLevels) {
  // A slow decline cut into 150 / 100 / 70 / 48 / 33 by the tolerance, with a fast level in front.
  const std::vector<hml::bandwidth_sample> samples{
      {1_KiB, 400_GBps}, {2_KiB, 400_GBps}, {4_KiB, 150_GBps}, {8_KiB, 150_GBps}, {16_KiB, 100_GBps},
      {32_KiB, 100_GBps}, {64_KiB, 70_GBps}, {128_KiB, 70_GBps}, {256_KiB, 48_GBps}, {512_KiB, 48_GBps},
      {1_MiB, 33_GBps}, {2_MiB, 33_GBps}};
  EXPECT_EQ(hml::find_plateaus(samples, {.tolerance = 0.25, .max_levels = 8}).size(), 6u);
  const auto levels = hml::find_plateaus(samples, {.tolerance = 0.25, .max_levels = 3});
  ASSERT_EQ(levels.size(), 3u);
  // The closest neighbours go first: 100/70 (1.43), then 48/33 (1.45), then 150 with 100-70 (1.76 < 2.1).
  EXPECT_EQ(levels[0].ceiling.bandwidth, 400_GBps);
  EXPECT_EQ(levels[1].smallest, 4_KiB);
  EXPECT_EQ(levels[1].largest, 128_KiB);
  EXPECT_EQ(levels[1].samples, 6u);
  EXPECT_EQ(levels[1].ceiling.bandwidth, 100_GBps);
  EXPECT_EQ(levels[2].ceiling.name, "DRAM");
  EXPECT_EQ(levels[2].smallest, 256_KiB);
  EXPECT_EQ(levels[2].ceiling.bandwidth, 40.5_GBps);
}

// Trial 80: from 1 KiB, a 48 KiB L1 served sets that climbed from 126 to 287 GB/s as passes grew long
// enough to hide the loop's start-up; cut by the tolerance, they were named L1, L2 and L3, all inside L1.
TEST(Plateaus, GroupsWhollyInsideOneReportedCacheAreThatCache) {
  const std::vector<hml::bandwidth_sample> samples{
      {1_KiB, 126_GBps},   {1.25_KiB, 127_GBps}, {2_KiB, 190_GBps},  {4_KiB, 200_GBps},  {5.5_KiB, 205_GBps},
      {8_KiB, 280_GBps},   {16_KiB, 287_GBps},   {22.5_KiB, 290_GBps}, {128_KiB, 90_GBps}, {1_MiB, 89_GBps}};
  ASSERT_EQ(hml::find_plateaus(samples).size(), 4u) << "the case as it was: L1, L2, L3 and DRAM";
  // L1 48 KiB, L2 2 MiB, one thread.
  const std::vector<hml::working_set_span> inside{{0_B, 48_KiB}, {48_KiB, 2_MiB}};
  const auto levels = hml::find_plateaus(samples, {.inside_caches = inside});
  ASSERT_EQ(levels.size(), 2u);
  EXPECT_EQ(levels[0].ceiling.name, "L1");
  EXPECT_EQ(levels[0].smallest, 1_KiB);
  EXPECT_EQ(levels[0].largest, 22.5_KiB);
  EXPECT_EQ(levels[0].samples, 8u);
  EXPECT_EQ(levels[0].ceiling.bandwidth, 202.5_GBps);  // the median of the eight
  EXPECT_EQ(levels[1].ceiling.name, "DRAM");
  // A group that reaches past a cache stays a level of its own.
  const std::vector<hml::working_set_span> small{{0_B, 16_KiB}};
  EXPECT_EQ(hml::find_plateaus(samples, {.inside_caches = small}).size(), 3u);
}

// The eighty-third trial: at --min-time 1ms, L1's sets varied by more than a quarter from one to the next, each
// a group of one, dropped as transitions, and the table began past L1, unsaid.
TEST(Plateaus, SetsInsideOneCacheAreNoTransitionAndSetsLeftOutAreSaid) {
  const std::vector<hml::bandwidth_sample> samples{{16_KiB, 150_GBps}, {22.5_KiB, 100_GBps}, {32_KiB, 160_GBps},
                                                   {45_KiB, 230_GBps}, {64_KiB, 94_GBps},    {128_KiB, 95_GBps},
                                                   {1_MiB, 93_GBps},   {64_MiB, 12_GBps},    {128_MiB, 12_GBps}};
  const auto unaware = hml::find_plateaus(samples);
  ASSERT_EQ(unaware.size(), 2u);
  EXPECT_EQ(unaware[0].smallest, 64_KiB);
  const auto left_out = hml::sets_before_first_level(samples, unaware);
  ASSERT_TRUE(left_out.has_value());
  EXPECT_EQ(left_out->count, 4u);
  EXPECT_EQ(left_out->span.smallest, 16_KiB);
  EXPECT_EQ(left_out->span.largest, 45_KiB);
  // L1 48 KiB, L2 2 MiB: the four sets inside L1 are L1.
  const auto levels = hml::find_plateaus(samples, {.inside_caches = {{0_B, 48_KiB}, {48_KiB, 2_MiB}}});
  ASSERT_EQ(levels.size(), 3u);
  EXPECT_EQ(levels[0].ceiling.name, "L1");
  EXPECT_EQ(levels[0].samples, 4u);
  EXPECT_EQ(levels[0].ceiling.bandwidth, 155_GBps);  // the middle two's mean
  EXPECT_FALSE(hml::sets_before_first_level(samples, levels).has_value());
}

TEST(Plateaus, RejectsBadSamplesAndOptions) {
  const std::vector<hml::bandwidth_sample> zero{{1_KiB, 0_GBps}};
  EXPECT_THROW((void)hml::find_plateaus(zero), std::invalid_argument);
  EXPECT_THROW((void)hml::find_plateaus(three_levels(), {.tolerance = 1.0}), std::invalid_argument);
  EXPECT_THROW((void)hml::find_plateaus(three_levels(), {.max_levels = 0}), std::invalid_argument);
  EXPECT_TRUE(hml::find_plateaus({}).empty());
}

hml::host_machine synthetic_machine() {
  hml::host_machine m;
  m.levels = hml::find_plateaus(three_levels());
  m.peak = 200_GFLOPS;
  return m;
}

TEST(HostMachine, LevelForAWorkingSet) {
  const auto m = synthetic_machine();
  EXPECT_EQ(m.level_for(20_KiB).ceiling.name, "L1");
  EXPECT_EQ(m.level_for(48_KiB).ceiling.name, "L1");
  EXPECT_EQ(m.level_for(64_KiB).ceiling.name, "L2") << "between two levels: the slower one";
  EXPECT_EQ(m.level_for(1_MiB).ceiling.name, "DRAM");
  EXPECT_EQ(m.level_for(1_GiB).ceiling.name, "DRAM") << "beyond every sample: the last level";
  EXPECT_EQ(m.memory_for(256_KiB).bandwidth, 40_GBps);
  EXPECT_EQ(m.memory_for(256_KiB).latency, 0_s) << "no latency measured: 0 s";
  auto measured = m;
  measured.latencies = {1_ns, 4_ns, 90_ns};
  EXPECT_EQ(measured.memory_for(64_KiB).latency, 4_ns);
  EXPECT_EQ(measured.dram().latency, 90_ns);
  EXPECT_EQ(measured.latency(0), 1_ns);
  EXPECT_EQ(measured.level_index(1_GiB), 2u);
}

TEST(HostMachine, PlugsIntoTheModels) {
  const auto m = synthetic_machine();
  EXPECT_EQ(m.roofline().bandwidth, 10.5_GBps);
  EXPECT_EQ(m.roofline().peak, 200_GFLOPS);
  EXPECT_EQ(m.compute().peak, 200_GFLOPS);
  // 1 GB at 10.5 GB/s with 2 GFLOP at 200 GFLOP/s: memory-bound, the memory time with full overlap.
  const hml::kernel k{"k", 2_GFLOP, 1_GB};
  const auto t = hml::run(k, m.dram(), m.core(), {.overlap_policy = hml::overlap::full});
  EXPECT_EQ(t.limit, hml::regime::memory_bound);
  EXPECT_EQ(t.total, 1_GB / 10.5_GBps);
  EXPECT_THROW((void)hml::host_machine{}.dram(), std::invalid_argument);
}


TEST(WorkingSetLadder, StepsPerDoubling) {
  const auto sizes = hml::working_set_ladder(16_KiB, 64_KiB, 2);
  ASSERT_EQ(sizes.size(), 5u);
  EXPECT_EQ(sizes.front(), 16_KiB);
  EXPECT_NEAR(sizes[1] / sizes[0], std::sqrt(2.0), 1e-12);
  EXPECT_NEAR(sizes.back() / 64_KiB, 1.0, 1e-12);
  EXPECT_EQ(hml::working_set_ladder(1_KiB, 1_KiB, 1).size(), 1u);
  EXPECT_THROW((void)hml::working_set_ladder(2_KiB, 1_KiB), std::invalid_argument);
  EXPECT_THROW((void)hml::working_set_ladder(1_B, 1e300 * hml::byte), std::invalid_argument) << "too many sizes";
  EXPECT_EQ(hml::working_set_ladder(1_KiB, 1_KiB * std::exp2(127), 2).size(), 255u);
}

const hml::timing_options tiny{.threads = 0, .min_time = 1_ms, .repetitions = 2};

TEST(TimeParallel, EveryThreadPreparesOnceAndRunsEveryPass) {
  const unsigned threads = hml::available_threads();
  std::vector<std::atomic<int>> prepared(threads), passes(threads);
  const auto time = hml::time_parallel([&](unsigned t, unsigned n) { EXPECT_EQ(n, threads); ++prepared[t]; },
                                       [&](unsigned t, unsigned) { ++passes[t]; }, tiny);
  EXPECT_TRUE(hml::isfinite(time));
  EXPECT_GE(time.value(), 0.0);
  for (unsigned t = 0; t < threads; ++t) {
    EXPECT_EQ(prepared[t], 1);
    EXPECT_GE(passes[t], 3) << "a warm-up pass and at least one per repetition";
    EXPECT_EQ(passes[t], passes[0]) << "every thread runs the same number of passes";
  }
}

// The calibration and the best repetition, with a timer that counts passes (1 us each) and stalls 5 ms at
// the end of the second repetition (its 12th read: 6 in calibration, then a start and an end per
// repetition): one thread; the round grows 100x (1 pass, then 100), then 12x (1.2 ms against 1 ms) to 1200
// passes; the stalled repetition loses to the others, so a pass takes 1 us.
TEST(TimeParallel, CalibratesToTheMinimumTimeAndKeepsTheBestRepetition) {
  std::atomic<long> passes{0};
  int reads = 0;
  const auto timer = [&] {
    ++reads;
    const hml::duration stall = reads == 12 ? 5 * hml::millisecond : hml::duration{};
    return static_cast<double>(passes) * hml::microsecond + stall;
  };
  const hml::timing_options counted{.threads = 1, .min_time = 1_ms, .repetitions = 3, .timer = timer};
  const auto per_pass = hml::time_parallel([](unsigned, unsigned) {}, [&](unsigned, unsigned) { ++passes; }, counted);
  EXPECT_NEAR(per_pass.value(), 1e-6, 1e-15);
  EXPECT_EQ(passes, 1 + 100 + 1200 + 3 * 1200) << "calibration rounds, then three repetitions of 1200 passes";
}

TEST(TimeParallel, AFailingThreadIsReportedNotACrash) {
  const auto fail_on_last = [](unsigned t, unsigned threads) {
    if (t + 1 == threads) throw std::runtime_error("cannot allocate");
  };
  EXPECT_THROW((void)hml::time_parallel(fail_on_last, [](unsigned, unsigned) {}, tiny), std::runtime_error);
  EXPECT_THROW((void)hml::time_parallel([](unsigned, unsigned) {}, fail_on_last, tiny), std::runtime_error);
}

// The forty-seventh trial: where a thread could not start (a limit on processes), the started ones waited for
// it at the first barrier and the probe never ended. In a child that may run one process of its user (root
// is exempt from the limit, so the child becomes nobody), two threads: one line of error, at once.
TEST(TimeParallel, AThreadThatCannotStartIsAnErrorNotAHang) {
  if (::geteuid() != 0) GTEST_SKIP() << "needs root, to run the child as another user under RLIMIT_NPROC";
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    ::alarm(20);  // a hang ends the child by SIGALRM, which the parent reports
    const rlimit one{1, 1};
    if (::setgid(65534) != 0 || ::setuid(65534) != 0 || ::setrlimit(RLIMIT_NPROC, &one) != 0) ::_exit(3);
    try {
      (void)hml::time_parallel([](unsigned, unsigned) {}, [](unsigned, unsigned) {}, {.threads = 2, .min_time = 1_ms});
    } catch (const std::runtime_error& e) {
      const std::string_view said = e.what();
      ::_exit(said.starts_with("hml: cannot start measuring thread 1 of 2: ") &&
                      said.ends_with("; give fewer threads, or raise the limit on processes or memory")
                  ? 0
                  : 4);
    }
    ::_exit(5);  // it ran: the limit did not hold
  }
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status)) << "the child ended by signal " << WTERMSIG(status) << " (14: it hung)";
  if (WEXITSTATUS(status) == 5) GTEST_SKIP() << "threads started past RLIMIT_NPROC here";
  EXPECT_EQ(WEXITSTATUS(status), 0) << "3: could not become nobody; 4: another message";
}

TEST(MeasureBandwidth, CountsBytesLikeLikwidBench) {
  // copy: 2 arrays; 1000 B over 1 thread is 62.5 doubles per array, rounded down to whole lines: 56.
  const auto copy = hml::measure_bandwidth(hml::stream_kernel::copy, 1000_B, {.threads = 1, .min_time = 1_ms});
  EXPECT_EQ(copy.working_set, 2 * 56 * 8_B);
  // triad: 4 arrays; 1 MiB over 2 threads divides into whole lines exactly.
  const auto triad = hml::measure_bandwidth(hml::stream_kernel::schoenauer_triad, 1_MiB, {.threads = 2, .min_time = 1_ms});
  EXPECT_EQ(triad.working_set, 1_MiB);
  // store: 1 array; 1000 B over 1 thread is 125 doubles, rounded down to whole lines: 120.
  const auto store = hml::measure_bandwidth(hml::stream_kernel::store, 1000_B, {.threads = 1, .min_time = 1_ms});
  EXPECT_EQ(store.working_set, 120 * 8_B);
  EXPECT_THROW((void)hml::measure_bandwidth(hml::stream_kernel::copy, 0_B), std::invalid_argument);
  // More than the machine holds is refused before any allocation (the size would also overflow size_t).
  EXPECT_THROW((void)hml::measure_bandwidth(hml::stream_kernel::copy, 1e30 * hml::byte), std::invalid_argument);
  EXPECT_THROW((void)hml::measure_latency(hml::physical_memory()), std::invalid_argument);
}

TEST(MeasureScalarChain, RunsAndIsFinitePositive) {
  // Not compared with the vector peak: two timings taken one after the other on a loaded machine (ctest runs
  // in parallel with compilers) can come out in either order. benchmarks/host reports both, from a quiet run.
  const auto chain = hml::measure_scalar_chain(tiny);
  EXPECT_TRUE(hml::isfinite(chain));
  EXPECT_GT(chain.value(), 0.0);
}

TEST(MeasureLatency, RunsAndIsFinitePositive) {
  // That it ran and gave a finite, positive time (see above): nothing about the host's speed.
  for (const hml::data_size set : {4_KiB, 1_MiB}) {
    const auto latency = hml::measure_latency(set, tiny);
    EXPECT_TRUE(hml::isfinite(latency));
    EXPECT_GT(latency.value(), 0.0);
  }
  EXPECT_GT(hml::measure_latency(1_B, tiny), 0_s) << "the smallest chase is two lines";
  EXPECT_THROW((void)hml::measure_latency(0_B), std::invalid_argument);
}

TEST(Probe, TinySettingGivesACompleteMachine) {
  const auto m = hml::probe({.working_sets = {16_KiB, 64_KiB, 256_KiB}, .timing = tiny});
  EXPECT_EQ(m.threads, hml::available_threads());
  EXPECT_FALSE(m.isa.empty());
  ASSERT_EQ(m.copy.size(), 3u);
  ASSERT_EQ(m.schoenauer_triad.size(), 3u);
  // The store kernel runs only on the sets the first reported cache holds (all threads together).
  const auto caches = hml::reported_caches();
  const std::size_t inside_l1 = caches.empty() ? 0
                                               : static_cast<std::size_t>(std::ranges::count_if(
                                                     std::array{16_KiB, 64_KiB, 256_KiB},
                                                     [&](hml::data_size s) { return !(caches.front() * m.threads < s); }));
  EXPECT_EQ(m.store.size(), inside_l1);
  for (const auto& samples : {m.copy, m.schoenauer_triad, m.store}) {
    for (const auto& s : samples) {
      EXPECT_TRUE(hml::isfinite(s.bandwidth));  // that it ran: nothing about the host's speed
      EXPECT_GT(s.bandwidth.value(), 0.0);
      EXPECT_GT(s.working_set, 0_B);
    }
  }
  ASSERT_FALSE(m.levels.empty());
  EXPECT_EQ(m.levels.back().ceiling.name, "DRAM");
  ASSERT_EQ(m.latencies.size(), m.levels.size());
  for (const hml::duration latency : m.latencies) {
    EXPECT_TRUE(hml::isfinite(latency));
    EXPECT_GT(latency.value(), 0.0);
  }
  EXPECT_EQ(m.dram().latency, m.latencies.back());
  EXPECT_TRUE(hml::isfinite(m.peak_fp32));
  EXPECT_GT(m.peak_fp32.value(), 0.0);
  EXPECT_EQ(m.compute_fp32().name, "FP32 FMA");
  EXPECT_TRUE(hml::isfinite(m.peak));
  EXPECT_GT(m.peak.value(), 0.0);
  EXPECT_EQ(m.scalar_chain_compute().name, "FP64 scalar FMA chain");
  EXPECT_EQ(m.scalar_chain_compute().peak, m.scalar_chain);
  EXPECT_TRUE(hml::isfinite(m.scalar_chain));
  EXPECT_GT(m.scalar_chain.value(), 0.0);
  // The description plugs into the models.
  const auto point = hml::analyze(hml::triad<double>(1'000'000), m.roofline());
  EXPECT_TRUE(hml::isfinite(point.estimated_time));
  EXPECT_GT(point.estimated_time, 0_s);
}

}  // namespace
