// A device has a roof per precision: FP32 on an H100 has its ridge at 20 FLOP/B, FP16 on its tensor cores at
// 295. analyze(kernel, device) without one would have to guess (it once took FP32 silently), so it does
// not compile: name the precision, or take it from the element type with hml::precision_of<float>.
// expected-error: no matching function for call to 'analyze'
import hml;

namespace {

#ifdef HML_MUST_NOT_COMPILE
static_assert(hml::analyze(hml::matmul<float>(4096), hml::devices::h100_sxm).bound ==
              hml::regime::compute_bound);
#else
static_assert(hml::analyze(hml::matmul<float>(4096), hml::devices::h100_sxm, hml::precision_of<float>).bound ==
              hml::regime::compute_bound);
#endif

}  // namespace
