// The probe (threads, sysconf, AVX kernels) is a component of its own: `import hml;` does not bring it.
// expected-error: no (member|type) named 'host_machine' in namespace 'hml'
import hml;

namespace {

#ifdef HML_MUST_NOT_COMPILE
[[maybe_unused]] hml::data_size dram_of(const hml::host_machine& m) { return m.levels.back().largest; }
#else
[[maybe_unused]] hml::data_size dram_of(const hml::data_size& m) { return m; }
#endif

}  // namespace
