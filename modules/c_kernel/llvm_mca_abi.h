// The C interface between hml.c_kernel and its LLVM-MCA plugin (llvm_mca.cpp, built as a shared module that
// links libLLVM): hml.c_kernel opens the plugin only when it needs an in-core time, so that no program maps
// LLVM before then. Plain C types, so that the two sides agree whatever either is compiled with.
#ifndef HML_LLVM_MCA_ABI_H
#define HML_LLVM_MCA_ABI_H

#ifdef __cplusplus
extern "C" {
#endif

enum { hml_mca_max_resources = 64, hml_mca_name_size = 48, hml_mca_error_size = 256 };

// One processor resource of LLVM's scheduling model (a port, or a group of identical ports) and the cycles
// it is busy per pass of the block, averaged over its units (llvm-mca's "resource pressure per iteration").
struct hml_mca_resource {
  char name[hml_mca_name_size];
  unsigned units;
  double cycles_per_pass;
};

struct hml_mca_report {
  unsigned resources;
  struct hml_mca_resource resource[hml_mca_max_resources];
  unsigned instructions;           // in the block
  double total_cycles;             // simulated, for all the passes (dependencies included)
  char error[hml_mca_error_size];  // set where the function returns non-zero
};

// Simulates `passes` runs of the x86-64 assembly `block` (instructions only, AT&T syntax) on LLVM's model of
// `cpu` (-mcpu, e.g. "sandybridge"). Returns 0, or non-zero with `error` set. Safe to call from several
// threads at once.
typedef int (*hml_mca_analyse_fn)(const char* block, const char* cpu, unsigned passes, struct hml_mca_report* out);
int hml_mca_analyse(const char* block, const char* cpu, unsigned passes, struct hml_mca_report* out);

// This host's CPU as LLVM names it (clang's -march=native): "znver5". Returns 0, or non-zero where LLVM
// cannot tell or `size` is too small.
typedef int (*hml_mca_host_cpu_fn)(char* out, unsigned size);
int hml_mca_host_cpu(char* out, unsigned size);

#ifdef __cplusplus
}
#endif

#endif
