// The models at run time: the same results as at compile time, and clear exceptions for bad parameters.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>

import hml;

using namespace hml::literals;

namespace {

// Runs `f` and returns the message of the std::invalid_argument it throws ("" if none).
template <class F>
std::string invalid_argument_message(F f) {
  try {
    f();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

const hml::compute_core core{10_GFLOPS};

TEST(Models, RunTimeEqualsCompileTime) {
  constexpr auto compile_time = hml::run(hml::streaming(10_MiB, 1.0 * hml::flop_per_byte), hml::memory{50_ns, 1_Gbps},
                                         hml::compute_core{10_GFLOPS});
  volatile double latency_ns = 50;  // defeats constant folding
  const auto run_time = hml::run(hml::streaming(10_MiB, 1.0 * hml::flop_per_byte),
                                 hml::memory{latency_ns * hml::nanosecond, 1_Gbps}, core);
  EXPECT_EQ(run_time.memory_time, compile_time.memory_time);
  EXPECT_EQ(run_time.total, compile_time.total);
  EXPECT_EQ(run_time.limit, hml::regime::memory_bound);
}

TEST(Models, BadParametersThrowWithAMessage) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_EQ(invalid_argument_message([] { (void)hml::effective_bandwidth(hml::two_tier_memory{50_ns, 500_Gbps, 10_Gbps, 1.5}); }),
            "hml: hit rate must be within [0, 1]; give the share of the bytes the fast tier serves, as 0.9 for 90 %");
  EXPECT_EQ(invalid_argument_message([&] { (void)hml::effective_bandwidth(hml::two_tier_memory{50_ns, 500_Gbps, 10_Gbps, nan}); }),
            "hml: hit rate must be within [0, 1]; give the share of the bytes the fast tier serves, as 0.9 for 90 %");
  EXPECT_EQ(invalid_argument_message([] { (void)hml::transfer_time(hml::memory{50_ns, -1_GBps}, 1_MB); }),
            "hml: memory bandwidth must be finite and > 0; give a rate above zero, as 3.35TB/s");
  EXPECT_EQ(invalid_argument_message([&] { (void)hml::transfer_time(hml::memory{nan * hml::second, 1_GBps}, 1_MB); }),
            "hml: memory latency must be finite and >= 0");
  EXPECT_EQ(invalid_argument_message([] { (void)hml::compute_time(hml::compute_core{0_GFLOPS}, 1_GFLOP); }),
            "hml: peak compute rate must be finite and > 0; give a rate above zero, as 67TFLOP/s");
  EXPECT_EQ(invalid_argument_message([] { (void)hml::classify(1_s, 2_s, 1.5); }),
            "hml: balance tolerance must be within [0, 1)");
  EXPECT_EQ(invalid_argument_message([] { (void)hml::tiled_matmul<float>(100, 7); }),
            "hml: the tile must divide the matrix size");
  EXPECT_EQ(invalid_argument_message([] { (void)hml::traffic(1_MB, hml::random_access(0_B)); }),
            "hml: an access element is a whole number of bytes, at least 1 B; give one, as 8 B");
}

// The per-parameter checks the models compose (and `hml` runs on each option): the same messages.
TEST(Models, EachParameterCheckIsTheModelsCheck) {
  EXPECT_NO_THROW(hml::validate_hit_rate(1.0));
  EXPECT_EQ(invalid_argument_message([] { hml::validate_hit_rate(-0.1); }), "hml: hit rate must be within [0, 1]; give the share of the bytes the fast tier serves, as 0.9 for 90 %");
  EXPECT_NO_THROW(hml::validate_latency(0_s));
  EXPECT_EQ(invalid_argument_message([] { hml::validate_bandwidth(0_GBps); }),
            "hml: memory bandwidth must be finite and > 0; give a rate above zero, as 3.35TB/s");
  EXPECT_EQ(invalid_argument_message([] { (void)hml::ridge_point(hml::roof{0_GBps, 1_TFLOPS}); }),
            "hml: memory bandwidth must be finite and > 0; give a rate above zero, as 3.35TB/s");
  EXPECT_EQ(invalid_argument_message([] { (void)hml::ridge_point(hml::roof{1_GBps, 0_TFLOPS}); }),
            "hml: peak compute rate must be finite and > 0; give a rate above zero, as 67TFLOP/s");
  EXPECT_EQ(invalid_argument_message([] { hml::validate_outstanding(0.5); }), "hml: outstanding requests must be within [1, 1e12); give how many are in flight at once, as 10");
  EXPECT_EQ(invalid_argument_message([] { hml::validate_line_size(0_B); }), "hml: a cache line is a whole number of bytes from 1 B to 4 KiB; give one, as 64 B");
  // A trial's 1e-30 B made a negative time; half a byte and more than a page are no lines either.
  for (const hml::data_size bad : {1e-30 * hml::byte, 0.5 * hml::byte, 4097 * hml::byte, 64.5 * hml::byte})
    EXPECT_EQ(invalid_argument_message([&] { hml::validate_line_size(bad); }), "hml: a cache line is a whole number of bytes from 1 B to 4 KiB; give one, as 64 B");
  hml::validate_line_size(1 * hml::byte);
  hml::validate_line_size(4096 * hml::byte);
  // An element far larger than its line touches element / line lines, counted exactly, not through a long long.
  EXPECT_NEAR(hml::traffic(1e30 * hml::byte, hml::random_access(1e30 * hml::byte, 1 * hml::byte)).value() / 1e30, 1, 1e-12);
  EXPECT_EQ(invalid_argument_message([] { hml::validate_measured_time(0_s); }),
            "hml: a measured time must be finite and > 0; give the time the run took, as 660us");
}

// The thirty-fourth trial (the library used as a user would) found results no input check stopped: an
// infinite memory time classified balanced, NaN from a tier that serves no bytes, NaN and negative
// intensities taken, and 64-bit counts that wrapped to plausible figures.
TEST(Models, AThirtyFourthTrialsResultsAreRefusedOrRight) {
  const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
  const hml::data_rate subnormal = hml::data_rate::from_value(4.9e-324);
  EXPECT_EQ(invalid_argument_message([&] { (void)hml::run(hml::streaming(10_MiB, 1.0 * hml::flop_per_byte), hml::memory{50_ns, subnormal}, core); }),
            "hml: memory bandwidth must be at least 2.2e-308 B/s (a normal double)");
  EXPECT_EQ(invalid_argument_message([&] {
              (void)hml::run(hml::streaming(10_MB, 1.0 * hml::flop_per_byte), hml::two_tier_memory{50_ns, 500_Gbps, subnormal, 1.0}, core);
            }),
            "hml: memory bandwidth must be at least 2.2e-308 B/s (a normal double)");
  EXPECT_EQ(invalid_argument_message([] { (void)hml::compute_time(hml::compute_core{hml::compute_rate::from_value(4.9e-324)}, 1_GFLOP); }),
            "hml: peak compute rate must be at least 2.2e-308 FLOP/s (a normal double)");
  const hml::memory slowest{50_ns, hml::data_rate::from_value(1e-305)};
  EXPECT_EQ(invalid_argument_message([&] { (void)hml::run(hml::streaming(10_MiB, 1.0 * hml::flop_per_byte), slowest, core); }),
            "hml: the memory time overflows a double: too many bytes for the bandwidth");
  EXPECT_EQ(invalid_argument_message([&] { (void)hml::transfer_time(slowest, 10_MiB); }),
            "hml: the memory time overflows a double: too many bytes for the bandwidth");
  EXPECT_EQ(invalid_argument_message([] { (void)hml::compute_time(hml::compute_core{hml::compute_rate::from_value(1e-300)}, 1_GFLOP); }),
            "hml: the compute time overflows a double: too much work for the peak");
  EXPECT_EQ(invalid_argument_message([] { (void)hml::time_at(1_GFLOP, hml::compute_rate::from_value(1e-300)); }),
            "hml: the compute time overflows a double: too much work for the peak");
  EXPECT_EQ(hml::time_at(1_GFLOP, hml::compute_rate{}).value(), inf);  // seed 002: nothing attainable
  for (const double bad : {nan, -1.0})
    EXPECT_EQ(invalid_argument_message([&] { (void)hml::time_at(1_GFLOP, hml::compute_rate::from_value(bad)); }),
              "hml: a compute rate must be finite and >= 0");
  for (const hml::duration bad : {nan * hml::second, inf * hml::second, -5_s}) {
    EXPECT_NE(invalid_argument_message([&] { (void)hml::classify(bad, 1_s); }), "");
    EXPECT_NE(invalid_argument_message([&] { (void)hml::classify(1_s, bad); }), "");
  }
  const hml::roof h100{2.97_TBps, 64.3_TFLOPS};
  for (const double bad : {nan, -1.0}) {
    const auto ai = hml::arithmetic_intensity::from_value(bad);
    EXPECT_EQ(invalid_argument_message([&] { (void)hml::attainable(ai, h100); }),
              "hml: an arithmetic intensity must be >= 0 (inf where no bytes move)");
    EXPECT_EQ(invalid_argument_message([&] { (void)hml::bound(ai, h100); }),
              "hml: an arithmetic intensity must be >= 0 (inf where no bytes move)");
  }
  EXPECT_EQ(hml::attainable(hml::arithmetic_intensity::from_value(inf), h100), 64.3_TFLOPS);
  // 2n^3 past 2^64: n = 3e6 wrapped to 1.71e19 FLOP, n = 2^21 to none.
  EXPECT_EQ(hml::matmul<double>(3'000'000).flops.value(), 5.4e19);
  EXPECT_EQ(hml::matmul<float>(2'097'152).flops.value(), 0x1p64);
  EXPECT_EQ(hml::naive_matmul<double>(3'000'000).bytes.value(), (5.4e19 + 9e12) * 8);
  EXPECT_EQ(hml::tiled_matmul<double>(4'194'304, 1'048'576).flops.value(), 0x1p67);
  EXPECT_EQ(hml::vector_add<double>(std::numeric_limits<std::uint64_t>::max()).bytes.value(), 24 * 0x1p64);
  EXPECT_EQ(hml::largest_tile<float>(std::uint64_t{1} << 63, 1_GiB), 8192U);  // doubled past 2^63: no endless loop
  EXPECT_EQ(hml::matmul<float>(4096).flops, 2 * 4096.0 * 4096 * 4096 * hml::flop);  // exact as before
  EXPECT_EQ(invalid_argument_message([] { (void)hml::balance_bandwidth(hml::streaming(1_MB, 1.0 * hml::flop_per_byte),
                                                                       std::numeric_limits<double>::infinity() * hml::second, core); }),
            "hml: memory latency must be finite and >= 0");
}

// The thirty-sixth trial (the higher-level APIs as a user would): a crash at batch 0, a generation that never
// returned, in-core times and clocks unchecked, an infinite step or tier pass from a rate near 0, and a
// fitted efficiency that was its search's floor.
TEST(Models, AThirtySixthTrialsResultsAreRefused) {
  const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
  const hml::transformer& llama = hml::models::llama_2_7b;
  const hml::machine_description& h100 = hml::devices::h100_sxm;
  EXPECT_EQ(invalid_argument_message([&] { (void)hml::memory_needed(llama, 0, 4096); }), "hml: batch must be >= 1");  // was SIGFPE
  EXPECT_EQ(invalid_argument_message([&] { (void)hml::fits(llama, 0, 4096, h100); }), "hml: batch must be >= 1");
  EXPECT_EQ(invalid_argument_message([&] { (void)hml::largest_context(llama, 0, h100); }), "hml: batch must be >= 1");
  EXPECT_EQ(invalid_argument_message([&] {
              (void)hml::analyze_generation(llama, {.batch = 1, .prompt = 16, .generate = hml::max_generated_tokens + 1}, h100);
            }),
            "hml: generate at most 10^6 tokens (a decode step each)");
  const hml::loop_kernel stencil = hml::kernels::stencil2d5(1000, 2000);
  const hml::machine_description& snb = hml::cpus::sandy_bridge_ep_e5_2680;
  EXPECT_NEAR(hml::ecm(stencil, snb, {26 * hml::cycle, 20 * hml::cycle}).time.value(), 48.58, 0.005);  // kerncraft's
  for (const double bad : {nan, inf, -26.0})
    EXPECT_EQ(invalid_argument_message([&] { (void)hml::ecm(stencil, snb, {bad * hml::cycle, 20 * hml::cycle}); }),
              "hml: the in-core times must be finite and >= 0 cycles");
  for (const double hertz : {inf, 1e-300, 0.5e6, 2e11}) {
    hml::machine_description clocked = snb;
    clocked.clock = hml::stated(hertz * hml::hertz);
    EXPECT_EQ(invalid_argument_message([&] { (void)hml::ecm(stencil, clocked); }), "hml: the ECM model needs a clock from 1 MHz to 100 GHz");
  }
  hml::machine_description slow = h100;
  slow.memory[slow.memory.size() - 1].bandwidth = hml::stated(1e-310 * hml::byte_per_second);
  slow.memory[slow.memory.size() - 1].measured_bandwidth = {};
  EXPECT_EQ(invalid_argument_message([&] { (void)hml::analyze_step(llama, hml::decode_step(1, 512), slow); }),
            "hml: memory bandwidth must be at least 2.2e-308 B/s (a normal double)");
  slow.memory[slow.memory.size() - 1].bandwidth = hml::stated(1e-300 * hml::byte_per_second);
  EXPECT_EQ(invalid_argument_message([&] { (void)hml::analyze_step(llama, hml::decode_step(1, 512), slow); }),
            "hml: the memory time overflows a double: too many bytes for the bandwidth");
  hml::inference_options expected{};
  expected.estimate = hml::estimate::expected;
  for (const double bad : {nan, -1e-3}) {
    hml::machine_description overhead = h100;
    overhead.kernel_overhead = hml::stated(bad * hml::second);  // taken as none
    EXPECT_EQ(invalid_argument_message([&] { (void)hml::analyze_step(llama, hml::decode_step(1, 512), overhead, expected); }),
              "hml: a kernel's overhead is from 0 to 1 ms");
  }
  for (const double seconds : {1e6, inf, nan})
    EXPECT_NE(invalid_argument_message([&] {
                (void)hml::fit_memory_efficiency(llama, hml::decode_step(1, 512), h100, hml::step_time{seconds * hml::second});
              }),
              "") << seconds;
  EXPECT_EQ(invalid_argument_message([&] {
              (void)hml::fit_memory_efficiency(llama, hml::decode_step(1, 512), h100, hml::step_time{1e6 * hml::second});
            }),
            "hml: the measured time is longer than the model's at an efficiency of 10^-6; is it one step's?");
  EXPECT_NEAR(hml::fit_memory_efficiency(llama, hml::decode_step(1, 512), h100, hml::step_time{5 * hml::millisecond}), 0.806, 0.001);
  const hml::tiered_memory xeon_max = hml::tiers_of(hml::systems::xeon_max_9480);
  const hml::working_set hot{.footprint = 200_GiB, .skew = {.hot_bytes = 0.3, .hot_accesses = 0.9}};
  EXPECT_NE(invalid_argument_message([&] { (void)hml::hottest_share(hot.skew, 1_GiB, inf * hml::byte); }), "");
  const hml::tiered_memory crawling{{{"A", 64_GiB, 1.6_TBps}, {"B", 512_GiB, 2.3e-308 * hml::byte_per_second}}};
  EXPECT_EQ(invalid_argument_message([&] { (void)hml::flat(crawling, hot, {0.32, 0.68}); }),
            "hml: the memory time overflows a double: too many bytes for the bandwidth");
  EXPECT_NO_THROW((void)hml::best_placement(xeon_max, hot));
}

// The thirty-eighth trial: the library took an NVLS all-reduce over 4 devices (the 8-device figure: 317 us
// where the ring takes 1.86 ms) and beside data-parallel attention, both of which `hml llm` refuses.
TEST(Models, AThirtyEighthTrialsNvlsIsTakenAsTheCliTakesIt) {
  hml::inference_options nvls{.tensor_parallel = 4,
                              .link = hml::nvls_link_of(hml::systems::nvlink4),
                              .all_reduce = hml::all_reduce_algorithm::nvls};
  const auto decode = [&](const hml::transformer& t) { (void)hml::analyze_step(t, hml::decode_step(1, 512), hml::devices::h100_sxm, nvls); };
  EXPECT_EQ(invalid_argument_message([&] { decode(hml::models::llama_2_70b); }),
            "hml: NVLS is measured on 8 devices; on 2 to 4 it runs about as fast as the ring: give ring");
  nvls.tensor_parallel = hml::nvls_devices;
  EXPECT_NO_THROW(decode(hml::models::llama_2_70b));
  nvls.types = {hml::precision::fp8, hml::precision::fp8, hml::precision::bf16};
  nvls.experts.data_parallel_attention = true;
  EXPECT_EQ(invalid_argument_message([&] { decode(hml::models::deepseek_v3); }),
            "hml: data-parallel attention gathers and scatters by ring and all-reduces nothing: give ring");
}

TEST(Models, HierarchyGeneralisesTwoTier) {
  const hml::two_tier_memory two_tier{50_ns, 500_Gbps, 10_Gbps, 0.95};
  const hml::memory_hierarchy<2> same{50_ns, {{{500_Gbps, 0.95}, {10_Gbps, 1.0}}}};
  EXPECT_EQ(hml::effective_bandwidth(two_tier), hml::effective_bandwidth(same));
  // A last level serves whatever reaches it, whatever its hit rate says.
  const hml::memory_hierarchy<2> last_ignored{50_ns, {{{500_Gbps, 0.95}, {10_Gbps, 0.0}}}};
  EXPECT_EQ(hml::effective_bandwidth(two_tier), hml::effective_bandwidth(last_ignored));
  // Four levels: 90 % L1, then 50 % of the rest in L2, 50 % of that in L3, the rest from DRAM.
  const hml::memory_hierarchy<4> four{80_ns, {{{1_TBps, 0.9}, {500_GBps, 0.5}, {200_GBps, 0.5}, {50_GBps, 1.0}}}};
  const double seconds_per_byte = 0.9 / 1e12 + 0.05 / 500e9 + 0.025 / 200e9 + 0.025 / 50e9;
  EXPECT_DOUBLE_EQ(hml::effective_bandwidth(four).value(), 1.0 / seconds_per_byte);
}

TEST(Models, OverlapPolicies) {
  const auto k = hml::streaming(10_MB, 1.0 * hml::flop_per_byte);
  const hml::memory m{0_s, 10_GBps};
  const auto serial = hml::run(k, m, core);
  const auto overlapped = hml::run(k, m, core, {.overlap_policy = hml::overlap::full});
  EXPECT_EQ(serial.total, serial.memory_time + serial.compute_time);
  EXPECT_EQ(overlapped.total, serial.memory_time > serial.compute_time ? serial.memory_time : serial.compute_time);
  // Equal times are balanced at any tolerance; 5 % apart is balanced at 10 % and not at 1 %.
  EXPECT_EQ(hml::classify(1_ms, 1_ms, 0.0), hml::regime::balanced);
  EXPECT_EQ(hml::classify(1_ms, 1.05_ms, 0.10), hml::regime::balanced);
  EXPECT_EQ(hml::classify(1_ms, 1.05_ms, 0.01), hml::regime::compute_bound);
}

}  // namespace

// The forty-eighth trial called the library's functions with hostile values: a lookahead of 2^32 - 1 looped
// forever (and at -O1 returned 1), three divisions by zero, and ten functions returned inf or NaN from
// finite or default inputs. Each is now an error naming its cause; the right answers are unchanged.
TEST(Models, AFortyEighthTrialsHostileValuesAreRefused) {
  const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
  EXPECT_EQ(invalid_argument_message([&] { (void)hml::expected_tokens_per_step(0.5, 4294967295U); }),
            "hml: speculative decoding drafts 1 to 64 tokens a step");
  EXPECT_NEAR(hml::expected_tokens_per_step(0.5, hml::max_lookahead), 2, 1e-12);
  EXPECT_EQ(invalid_argument_message([] { (void)hml::speculative_step{}.speedup(); }),
            "hml: a speed-up needs a speculative step's times (speculative_decoding's), not zeros");

  hml::transformer no_active = hml::models::llama_3_8b;
  no_active.experts = 8;
  no_active.active_experts = 0;  // divided by before the model was checked
  EXPECT_EQ(invalid_argument_message([&] { (void)hml::ridge_batch(no_active, 1024, hml::devices::h100_sxm); }),
            "hml: a mixture of experts needs 1 <= active experts <= experts; give no more active experts than experts");
  EXPECT_EQ(invalid_argument_message([] { (void)hml::tiling_factor({std::uint64_t{1} << 63, 256, 1, 4096}, 132); }),
            "hml: a GEMM's outputs (count x rows x columns) must stay below 2^62 to count");
  EXPECT_EQ(hml::tiling_factor({1, 1024, 1024, 1024}, 108), 1.6875);  // the comment's example
  for (const auto& [generate, per_prefill] : {std::pair<std::uint64_t, std::uint64_t>{1, 0}, {0, 1}})
    EXPECT_EQ(invalid_argument_message([&] { (void)hml::fewest_batching_steps(1, generate, per_prefill, 1); }),
              "hml: the fewest steps need generate, prompts a prefill and concurrency >= 1");
  EXPECT_EQ(invalid_argument_message([] { (void)hml::kv_slots(~std::uint64_t{0}, {.kv_block_tokens = 16}); }),
            "hml: a context must stay below 2^62 tokens to count");
  EXPECT_EQ(hml::kv_slots(17, {.kv_block_tokens = 16}), 32U);

  const hml::kernel huge{"huge", 1e308 * hml::flop, 1e308 * hml::byte};
  const hml::memory one_byte_a_second{0 * hml::second, 1 * hml::byte_per_second};
  const hml::compute_core one_flop_a_second{1 * hml::flop_per_second};
  EXPECT_EQ(invalid_argument_message([&] { (void)hml::run(huge, one_byte_a_second, one_flop_a_second); }),
            "hml: the total time overflows a double: the memory and compute times add past 1.8e308 s");
  EXPECT_EQ(hml::run(huge, one_byte_a_second, one_flop_a_second, {.overlap_policy = hml::overlap::full}).total, 1e308 * hml::second);
  EXPECT_EQ(invalid_argument_message([&] {
              (void)hml::run(huge, one_byte_a_second, one_flop_a_second, {.overlap_policy = static_cast<hml::overlap>(7)});
            }),
            "hml: the overlap policy is none or full");
  EXPECT_EQ(invalid_argument_message([] {
              (void)hml::traffic(1_GiB, hml::access_pattern{.order = static_cast<hml::access_order>(5)});
            }),
            "hml: an access order is sequential or random");

  EXPECT_EQ(invalid_argument_message([] { (void)hml::link_time(hml::link{{5e-324 * hml::byte_per_second}}, 1 * hml::gigabyte); }),
            "hml: link bandwidth must be at least 2.2e-308 B/s (a normal double)");
  EXPECT_EQ(invalid_argument_message([] {
              (void)hml::link_time(hml::link{{1 * hml::byte_per_second}, 1e308 * hml::second}, 1e308 * hml::byte);
            }),
            "hml: the link time overflows a double: too many bytes for the link's rate");
  const hml::offload_job many_huge_runs{hml::kernel{"big", 1e308 * hml::flop, 1_GB}, 1_GB, 1_GB, 1e14};
  EXPECT_EQ(invalid_argument_message([&] {
              (void)hml::plan_offload(many_huge_runs, hml::devices::epyc_9654, hml::devices::h100_sxm,
                                      hml::link{hml::pcie(5, 16), 1_us}, hml::precision::fp64);
            }),
            "hml: an offload time overflows a double: too much work or too many bytes for the runs");

  EXPECT_EQ(invalid_argument_message([] { (void)hml::throughput(hml::step_time{}, hml::tokens{5}); }),
            "hml: a throughput needs a time that is finite and > 0 (a step's, or a run's)");
  EXPECT_EQ(invalid_argument_message([] { (void)hml::serving(hml::generation_analysis{}, {1, 1, 1}); }),
            "hml: a throughput needs a time that is finite and > 0 (a step's, or a run's)");
  EXPECT_EQ(invalid_argument_message([] { (void)hml::serving(hml::generation_analysis{}, {std::uint64_t{1} << 63, 1, 2}); }),
            "hml: batch x generate tokens are too many to count");
  EXPECT_EQ(invalid_argument_message([&] { (void)hml::per_token(hml::step_time{nan * hml::second}, hml::tokens{1}); }),
            "hml: a step's time must be finite and >= 0");
  EXPECT_EQ(invalid_argument_message([&] { (void)hml::relative_error(nan, 1); }), "hml: a predicted figure must be finite and >= 0");
  EXPECT_EQ(invalid_argument_message([] { (void)hml::relative_error(1e308, 1e-300); }),
            "hml: the relative error overflows a double: the measured figure is far too small");
  EXPECT_EQ(hml::relative_error(1.25, 1), 0.25);
  const double errors[] = {nan, 0.1};
  EXPECT_EQ(invalid_argument_message([&] { (void)hml::mean_absolute_error(errors); }),
            "hml: a relative error must be finite (relative_error's)");

  EXPECT_EQ(invalid_argument_message([&] { (void)hml::to_cycles(nan * hml::second, 1_GHz); }),
            "hml: converting to cycles needs a finite time and a clock from 1 MHz to 100 GHz");
  EXPECT_EQ(invalid_argument_message([&] { (void)hml::to_cycles(1 * hml::second, inf * hml::hertz); }),
            "hml: converting to cycles needs a finite time and a clock from 1 MHz to 100 GHz");
  EXPECT_EQ(invalid_argument_message([&] { (void)hml::per_second(1 * hml::byte_per_cycle, nan * hml::hertz); }),
            "hml: bytes per second needs a finite rate and a clock from 1 MHz to 100 GHz");
  EXPECT_EQ(hml::per_second(32 * hml::byte_per_cycle, 2_GHz), 64_GBps);
  EXPECT_EQ(invalid_argument_message([] { (void)hml::performance(hml::ecm_result{}, 1, 1_GHz); }),
            "hml: a rate needs cycles per cache line > 0 (an ECM result's, not a default one)");
  EXPECT_EQ(invalid_argument_message([] { (void)hml::iterations_per_second(hml::ecm_result{}, 1U, 1_GHz); }),
            "hml: a rate needs cycles per cache line > 0 (an ECM result's, not a default one)");
}

TEST(Models, AHundredAndTwelfthTrialsLibraryFindingsAreRefusedOrRight) {
  const hml::transformer& llama = hml::models::llama_2_7b;
  const hml::machine_description& h100 = hml::devices::h100_sxm;
  // A fit of the compute efficiency: a compute-bound prefill run at 60 % of the peak is fitted back to 0.6;
  // a memory-bound decode step's time says nothing of it, nor a prefill's of the memory efficiency.
  hml::inference_options at_sixty{};
  at_sixty.achieved.compute = 0.6;
  const hml::step_time prefill = hml::analyze_step(llama, hml::prefill_step(1, 2048), h100, at_sixty).time;
  EXPECT_NEAR(hml::fit_compute_efficiency(llama, hml::prefill_step(1, 2048), h100, prefill), 0.6, 1e-9);
  EXPECT_EQ(invalid_argument_message([&] {
              (void)hml::fit_compute_efficiency(llama, hml::decode_step(1, 512), h100, hml::step_time{5 * hml::millisecond});
            }),
            "hml: the step is memory-bound at full compute, so its time says nothing of the compute efficiency; fit the "
            "memory efficiency (fit_memory_efficiency), or fit a compute-bound step (a large prefill)");
  EXPECT_EQ(invalid_argument_message([&] { (void)hml::fit_memory_efficiency(llama, hml::prefill_step(1, 2048), h100, prefill); }),
            "hml: the step is compute-bound at full bandwidth, so its time says nothing of the memory efficiency; fit "
            "the compute efficiency (fit_compute_efficiency), or fit a memory-bound step (a decode step)");
  // Serving figures are of the generation analysed: another one given again is refused, the same one agrees.
  const hml::generation four{1, 128, 4};
  const hml::generation_analysis run = hml::analyze_generation(llama, four, h100);
  EXPECT_EQ(invalid_argument_message([&] { (void)hml::serving(run, {1, 128, 100}); }),
            "hml: serving's generation is not the one analysed (batch, prompt and generate differ); give the same, or "
            "call serving(r)");
  EXPECT_EQ(hml::serving(run, four).time_per_output_token, hml::serving(run).time_per_output_token);
  EXPECT_EQ(hml::serving(run).time_per_output_token.value, run.decode.value / 3.0);
  // A precision the device lacks is named, with its unit.
  hml::inference_options fp8{};
  fp8.types = {hml::precision::fp8, hml::precision::fp8, hml::precision::fp8};
  EXPECT_EQ(invalid_argument_message([&] { (void)hml::analyze_step(llama, hml::decode_step(1, 512), hml::devices::a100_sxm_80gb, fp8); }),
            "hml: the machine publishes no FP8 tensor peak; give a kind its compute ceilings list, or a machine with one");
  for (const hml::precision p : hml::all_precisions)  // each literal of the table is its kind's
    for (const hml::compute_unit u : {hml::compute_unit::vector, hml::compute_unit::tensor})
      EXPECT_TRUE(std::string{hml::no_peak_message({p, u})}.starts_with("hml: the machine publishes no " +
                                                                         std::string{hml::to_string(hml::compute_kind{p, u})} + " peak;"))
          << hml::no_peak_message({p, u});
}
