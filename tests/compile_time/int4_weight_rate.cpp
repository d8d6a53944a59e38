// Weight-only INT4 products as tinygemm runs them, at compile time: the catalog's INT4 weight rates (measured
// on the H100 and the H200, derived for the A100), and the expected time that reads such a product's weights
// at the rate where it is slower than the memory, and nothing else.
#include <cstdint>

import hml;

namespace {

using namespace hml::literals;
using hml::precision;
namespace devices = hml::devices;

constexpr bool near(double a, double b, double tolerance) { return a > b * (1 - tolerance) && a < b * (1 + tolerance); }

// --- The catalog's rates --------------------------------------------------------------------------------

// The fastest of Llama 2's projections in groups of 32 (70B's output projection), measured on each GPU; the
// same within 3.5 % on the H100 and the H200, whose memories (2.97 and 4.15 TB/s measured) differ by 1.4x.
static_assert(devices::h100_sxm.int4_weight_rate.value == 1.924_TBps && devices::h200.int4_weight_rate.value == 1.991_TBps);
static_assert(devices::h100_sxm.int4_weight_rate.kind == hml::provenance::measured);
// The A100's: the H100's scaled by SMs x boost clock, 108 x 1.41 GHz over 132 x 1.98 GHz, to four digits.
static_assert(devices::a100_sxm_80gb.int4_weight_rate.kind == hml::provenance::derived);
static_assert(near(devices::a100_sxm_80gb.int4_weight_rate.value / 1_TBps, 1.924 * (108 * 1.41) / (132 * 1.98), 5e-4));
static_assert(!devices::h100_pcie.int4_weight_rate.published() && !devices::b200.int4_weight_rate.published());

// --- One product ----------------------------------------------------------------------------------------

constexpr hml::inference_options options(precision weights, precision activations, hml::estimate e) {
  hml::inference_options o;
  o.types = {weights, activations, activations, weights == precision::int4 ? 32u : 0u};
  o.estimate = e;
  return o;
}
constexpr hml::inference_options int4_g32 = options(precision::int4, precision::bf16, hml::estimate::expected);
// Llama 2 7B's output projection of `rows` tokens (10,485,760 B of INT4 weights, scales and zero points:
// compile_time/transformer.cpp).
constexpr hml::operator_cost product(std::uint64_t rows, precision weights = precision::int4,
                                     precision activations = precision::bf16) {
  return hml::with_group_scales(hml::linear("wo", rows, 4096, 4096, activations, weights),
                                options(weights, activations, hml::estimate::expected).types);
}

// The measured view (`hml llm`'s default): HBM at 2.97 TB/s, the weights at 1.924 TB/s, the row in and the
// row out at the memory's; and one kernel's overhead.
constexpr hml::machine_description h100 = hml::with_figures(devices::h100_sxm, hml::basis::measured_where_published);
constexpr hml::operator_time one_row = hml::time_on(product(1), h100, int4_g32);
static_assert(hml::at_int4_weight_rate(product(1), h100, int4_g32.types));
static_assert(near(one_row.memory_time / 1_us,
                   (product(1).weights / 1.924_TBps + (product(1).bytes() - product(1).weights) / 2.97_TBps) / 1_us, 1e-12));
static_assert(near(one_row.time / 1_us, one_row.memory_time / 1_us + 4.68, 1e-12));
// The memory efficiency scales the rate as it scales the bandwidth.
constexpr hml::inference_options int4_g32_half = [] {
  hml::inference_options o = int4_g32;
  o.achieved.memory = 0.5;
  return o;
}();
static_assert(near(hml::time_on(product(1), h100, int4_g32_half).memory_time / one_row.memory_time, 2, 1e-12));
// More rows take the rate too (one row's: tinygemm's time grows with the rows from four, which the expected
// time does not know).
static_assert(hml::at_int4_weight_rate(product(64), h100, int4_g32.types));
static_assert(near(hml::time_on(product(64), h100, int4_g32).memory_time / 1_us,
                   (product(64).weights / 1.924_TBps + (product(64).bytes() - product(64).weights) / 2.97_TBps) / 1_us, 1e-12));
// The bound, 16-bit weights, W4A4 on INT4 tensor units and a machine without a rate keep the memory's.
static_assert(hml::time_on(product(1), h100, options(precision::int4, precision::bf16, hml::estimate::bound)).memory_time ==
              product(1).bytes() / 2.97_TBps);
static_assert(!hml::at_int4_weight_rate(product(1, precision::bf16), h100, options(precision::bf16, precision::bf16, hml::estimate::expected).types));
static_assert(!hml::at_int4_weight_rate(product(1, precision::int4, precision::int4), h100,
                                        options(precision::int4, precision::int4, hml::estimate::expected).types));
static_assert(!hml::at_int4_weight_rate(product(1), devices::h100_pcie, int4_g32.types));
// A rate above the memory's never binds: the H200's HBM at its datasheet 4.8 TB/s is not slowed by a file's
// 5 TB/s (the machine file refuses such a rate; a constant expression may still build one).
constexpr hml::machine_description h200_fast = [] {
  hml::machine_description m = hml::with_figures(devices::h200, hml::basis::datasheet);
  m.int4_weight_rate.value = 5_TBps;
  return m;
}();
static_assert(hml::time_on(product(1), h200_fast, int4_g32).memory_time == product(1).bytes() / 4.8_TBps);

// --- A decode step ----------------------------------------------------------------------------------------

// Llama 2 7B at batch 1 in gpt-fast's INT4 (groups of 32) on an A100: its products' 6,607,077,376 weights
// (32 layers of 202,375,168 and the LM head's 131,072,000) are 4.129 GB at 5 bits and take the rate (1.121
// TB/s against the memory's 2.039 TB/s stated), so the step's memory time grows by 4.129 GB x (1 / 1.121 -
// 1 / 2.039) s/TB, 1.658 ms; its weights and FLOP do not change.
constexpr hml::machine_description a100 = devices::a100_sxm_80gb;
constexpr hml::step_analysis with_rate = hml::analyze_step(hml::models::llama_2_7b, hml::decode_step(1, 512), a100, int4_g32);
constexpr hml::machine_description a100_without = [] {
  hml::machine_description m = devices::a100_sxm_80gb;
  m.int4_weight_rate = {};
  return m;
}();
constexpr hml::step_analysis without_rate =
    hml::analyze_step(hml::models::llama_2_7b, hml::decode_step(1, 512), a100_without, int4_g32);
static_assert(near((with_rate.memory_time - without_rate.memory_time) / 1_ms, 6'607'077'376 * 0.625e-9 * (1 / 1.121 - 1 / 2.039), 1e-9));
static_assert(near((with_rate.memory_time - without_rate.memory_time) / 1_ms, 1.658, 5e-4));
static_assert(with_rate.weights == without_rate.weights && with_rate.flops == without_rate.flops);

}  // namespace
