// The device catalog: figures as typed quantities, their provenance, and the README's one-liner.
#include <string_view>

import hml;

namespace {

using namespace hml::literals;
namespace devices = hml::devices;
using hml::precision;

static_assert(hml::analyze(hml::matmul<float>(4096), hml::devices::h100_sxm).bound == hml::regime::compute_bound);
static_assert(hml::analyze(hml::vector_add<float>(1'000'000), devices::h100_sxm).bound == hml::regime::memory_bound);

// Figures from the hardware notes, typed.
static_assert(devices::h100_sxm.bandwidth.value == 3350_GBps);
static_assert(devices::h100_sxm.fp32.value == 67_TFLOPS && devices::h100_pcie.fp32.value == 51_TFLOPS);
static_assert(devices::a100_sxm_80gb.fp32.value == 19.5_TFLOPS && devices::v100.fp32.value == 15.7_TFLOPS);
static_assert(devices::rtx_4090.fp32.value == 82.6_TFLOPS && devices::rtx_3090.fp32.value == 35.6_TFLOPS);
static_assert(devices::mi300x.fp16_tensor.value == 1307.4_TFLOPS);  // dense; 2,614.9 is the sparse figure
static_assert(devices::mi250x.fp32.value == 47.9_TFLOPS);           // not 383 (that is FP16)

// Seed 004's FP32 table is off by 33x for the H100: 1980 GFLOPS vs 67 TFLOP/s.
static_assert(devices::h100_sxm.fp32.value / 1980_GFLOPS > 33.8 && devices::h100_sxm.fp32.value / 1980_GFLOPS < 33.9);

// Ridge points (FLOP/B) for FP32.
static_assert(hml::format_number(in(hml::ridge_point(hml::roof_of(devices::h100_sxm)), hml::flop_per_byte),
                                 hml::fixed(1)) == "20.0");
static_assert(hml::format_number(in(hml::ridge_point(hml::roof_of(devices::a100_sxm_80gb)), hml::flop_per_byte),
                                 hml::fixed(2)) == "9.56");

// Memory interfaces: pin rate x bus width.
static_assert(hml::interface_bandwidth(devices::m1_pro.interface) == 204.8_GBps);
static_assert(hml::to_text(hml::interface_bandwidth(devices::h100_sxm.interface), {hml::general(5)}) == "3.3536 TB/s");
static_assert(hml::interface_bandwidth(devices::rtx_4090.interface) == 1008_GBps);
static_assert(hml::interface_bandwidth(devices::mi250x.interface) == devices::mi250x.bandwidth.value);
static_assert(!devices::h200.interface.pin_rate.published());

// Provenance.
static_assert(devices::h100_sxm.fp32.kind == hml::provenance::vendor_stated);
static_assert(devices::epyc_9654.bandwidth.kind == hml::provenance::derived);
static_assert(devices::epyc_9654.fp64.value == 96 * 2.4_GHz * (16 * hml::flop));
static_assert(devices::xeon_8480_plus.fp64.kind == hml::provenance::unconfirmed);
static_assert(devices::l40s.fp64.kind == hml::provenance::unconfirmed);
static_assert(!hml::peak(devices::v100, precision::tf32_tensor).published());
static_assert(hml::to_string(hml::provenance::derived) == "derived");
static_assert(devices::all.size() == 15);
static_assert([] {
  for (const hml::device* d : devices::all) {
    if (d->source.empty() || !d->bandwidth.published()) return false;
  }
  return true;
}());

// A precision picks the compute ceiling: FP64 on the A100 has its ridge at 4.76 FLOP/B.
static_assert(hml::analyze(hml::naive_matmul<double>(1024), devices::a100_sxm_80gb, precision::fp64).bound ==
              hml::regime::memory_bound);

}  // namespace
