// A kernel analysed on a device without a precision: a device has a roof per precision, so name one.
// FP32 on an H100 has its ridge at 20 FLOP/B, FP16 on its tensor cores at 295; analyze(kernel, device)
// would have to guess (it once took FP32 silently). Or take it from the element type: precision_of<float>.
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
