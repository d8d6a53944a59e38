// hml.c_kernel — a loop kernel read from C, in the subset kerncraft reads (RRZE-HPC/kerncraft, kernel.py):
// array declarations with constant extents (numbers, or names given with -D), scalar declarations, then one
// perfect nest of up to three `for` loops with unit steps, whose innermost body assigns to arrays or
// scalars from expressions of array accesses, scalars and literals. Each subscript is the loop index of its
// dimension plus a constant: a[j-1][i+1] in a nest over j, i. The source is parsed by clang itself
// (libclang, Debian's libclang1-19, opened on first use), never by a hand-written parser, wrapped in a
// function as kerncraft wraps it, so that its line numbers are the file's own.
//
// What comes out is a loop_kernel, as a YAML kernel file gives one: the loops' trip counts, the arrays the
// loop touches (one declared and never accessed is left out), every distinct access (an access written twice
// counts once, as kerncraft keeps them in a set), and FLOP counted as kerncraft counts them: each binary
// +, -, * and / outside a subscript, a compound assignment's operator too. Whatever falls outside the
// subset is an ecm_file_error of one line naming the file, the line and the construct:
// "2d.c:7: a[i][j]: the subscripts must follow the loops, outermost first (j, then i)".
//
// In-core time from the compiled loop (compiled_loop.cpp): the kernel's loop nest is compiled for the
// machine's core with clang (-O3 -march=<llvm_cpu>), the innermost loop's body is found in the assembly,
// and LLVM's Machine Code Analyzer, used as a library, simulates it on LLVM's scheduling model of that core:
// the cycles each port is busy per pass, and the simulated cycles per pass. Per cache line of work, split as
// kerncraft's LLVM-MCA machine files split the ports (SkylakeSP_Gold-6148_MCA.yml): T_nOL is the busiest of
// the ports that execute loads (those a plain load uses in that model), T_OL the busiest of all ports, or
// the simulated time where dependencies or the front end make the pass longer than any port's pressure.
module;
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>
export module hml.c_kernel;
export import hml.report;

export namespace hml {

// A name defined on the command line, as -D N=6000 defines it for the C preprocessor.
struct c_define {
  std::string name;
  std::int64_t value = 0;
};

// A define the kernel cannot take: given twice, never used by the kernel, or defined by the file as well.
// Its what() begins with the define ("N=6000: ..."), for the caller to name the option it came from.
class c_define_error : public ecm_file_error {
public:
  using ecm_file_error::ecm_file_error;
};

// "N=6000" as a define: a C identifier, "=", a whole number of magnitude below 2^40; else ecm_file_error.
[[nodiscard]] c_define parse_c_define(std::string_view text);

// A c_define_error where a name is given twice ("N given twice (1000, then 2000): give it once").
void check_c_defines(std::span<const c_define> defines);

// The kernel in `text`; `file` names it in messages, and its name without folder and extension names the
// kernel ("2d-5pt" for examples/ecm/2d-5pt.c).
[[nodiscard]] loaded_kernel read_kernel_c(std::string_view text, std::string_view file,
                                          std::span<const c_define> defines = {});

// One port (a resource of LLVM's scheduling model) and the cycles it is busy per cache line of work.
struct port_cycles {
  std::string name;  // "SBPort23"
  hml::cycles busy{};
  bool loads = false;  // a port that executes loads: T_nOL's (every port counts in T_OL)
};

// The in-core time of a kernel in C, from its compiled loop.
struct compiled_in_core {
  in_core_time time{};                 // T_OL, T_nOL per cache line of work
  cycles simulated{};                  // LLVM-MCA's simulated cycles per cache line
  std::string compiler;                // "clang -O3 -march=sandybridge", as run
  std::string llvm_cpu;                // the scheduling model: "sandybridge"
  unsigned vector_width = 1;           // elements an instruction handles (the vectoriser's factor)
  unsigned interleave = 1;             // vector iterations side by side (the vectoriser's interleave count)
  unsigned unroll = 1;                 // copies of that in one pass (the unroller's factor, after it)
  std::vector<std::string> loop_body;  // the instructions of one pass, as compiled
  std::vector<port_cycles> ports;      // per cache line, in the model's order
  // What was compiled, so that a benchmark can run the very code it predicts (benchmarks/ecm): the file's
  // declarations at file scope, its loop nest as the body of `void hml_kernel(void)`; and clang's flags for
  // it (-x c, -O3, -march, the -D), to which the benchmark adds only how to link.
  std::string source;
  std::vector<std::string> flags;

  [[nodiscard]] unsigned iterations_per_pass() const { return vector_width * interleave * unroll; }
};

// Compiles the kernel in `text` (as read_kernel_c reads it) for `llvm_cpu` and analyses its innermost loop
// with LLVM-MCA; `cacheline_bytes` turns cycles per pass into cycles per cache line. An ecm_file_error of one
// line where the kernel is refused, clang fails, the loop cannot be found or LLVM knows no such CPU.
[[nodiscard]] compiled_in_core in_core_from_c(std::string_view text, std::string_view file,
                                              std::span<const c_define> defines, std::string_view llvm_cpu,
                                              std::size_t cacheline_bytes);

// Both at once, from one read of the text (a file with directives is expanded by a child clang first):
// the kernel as read_kernel_c reads it, and its in-core time as in_core_from_c gives it.
struct c_kernel_analysis {
  loaded_kernel kernel;
  compiled_in_core in_core;
};
[[nodiscard]] c_kernel_analysis analyse_c_kernel(std::string_view text, std::string_view file,
                                                 std::span<const c_define> defines, std::string_view llvm_cpu,
                                                 std::size_t cacheline_bytes);

}  // namespace hml

// This host's CPU as LLVM names it, as clang's -march=native picks it ("znver5"), for the machine the probe
// writes; an ecm_file_error where LLVM cannot tell or its plugin cannot be opened.
export namespace hml {
[[nodiscard]] std::string host_llvm_cpu();
}

// Within the module (not exported): what the reader and the compiler share.
namespace hml::detail {

// The function kerncraft's statements are wrapped in, for clang to read and to compile them.
inline constexpr std::string_view kernel_function = "hml_kernel";

// The -D values given, as a message names them: "-D N=1000, -D M=8".
inline std::string defines_text(std::span<const c_define> defines) {
  std::string text;
  for (const c_define& d : defines) text += (text.empty() ? "-D " : ", -D ") + d.name + "=" + std::to_string(d.value);
  return text;
}

// The reader's result, with where the loop nest begins in the text, for the compiler.
struct parsed_c_kernel {
  std::unique_ptr<loaded_kernel::storage> storage;
  std::size_t loop_begin = 0;  // offset of the loop nest's first character in the text
  // Its arrays' and scalars' names: compiled at file scope, a name of the C library's (sqrt, free) would
  // clash with clang's builtin of it, which the reader's function scope shadows.
  std::vector<std::string> declared_names;
};
[[nodiscard]] parsed_c_kernel parse_c_kernel(std::string_view text, std::string_view file,
                                             std::span<const c_define> defines);

// The text without a UTF-8 byte order mark at its start (an editor's, which the YAML and CSV readers skip
// too, and which clang would take for a name once the kernel is wrapped).
[[nodiscard]] std::string_view without_byte_order_mark(std::string_view text) noexcept;

// An ecm_file_error of one line: control characters in `message` (a quoted file's) become spaces.
[[noreturn]] void refuse(std::string message);
// `message` with its control characters as spaces, as refuse() throws it.
[[nodiscard]] std::string one_line(std::string message);

// The command-line form of a define: "-DN=6000".
[[nodiscard]] std::string define_argument(const c_define& d);

// The first of `candidates` that dlopen opens and that has `symbol`, left open for the process; else
// refuse() with "<needs>: <why>".
[[nodiscard]] void* open_library(std::span<const char* const> candidates, const char* symbol, std::string_view needs);

// A file with no name in any folder (memfd_create), so that nothing of it outlives the process however it
// ends (SIGKILL included); clang reaches it as /proc/self/fd/N, in this process and in the child run_clang
// starts, which inherits it under the same number.
class unnamed_file {
public:
  explicit unnamed_file(std::string_view text = {});
  unnamed_file(const unnamed_file&) = delete;
  unnamed_file& operator=(const unnamed_file&) = delete;
  ~unnamed_file();
  [[nodiscard]] int descriptor() const noexcept { return fd_; }
  [[nodiscard]] std::string path() const { return "/proc/self/fd/" + std::to_string(fd_); }
  // What it holds, or refuse() where that is more than `largest` bytes ("<what> is more than N MiB").
  [[nodiscard]] std::string read(std::size_t largest, std::string_view what) const;

private:
  int fd_ = -1;
};

// clang as a child process, with no file of its own: its standard streams are unnamed files (or /dev/null),
// the other files its arguments name are passed as /proc/self/fd/N, and it runs under limits, so that a
// hostile kernel cannot fill the disk or take the machine: at most `largest_file` bytes to any file and
// `cpu_seconds` of processor time.
struct clang_process {
  std::vector<std::string> arguments;       // from the program's path on
  const unnamed_file* input = nullptr;      // standard input; /dev/null where none
  const unnamed_file* output = nullptr;     // standard output; /dev/null where none
  const unnamed_file* errors = nullptr;     // standard error; /dev/null where none
  std::vector<const unnamed_file*> shared;  // files the arguments name by their paths
  std::size_t largest_file = std::size_t{16} << 20;
  unsigned cpu_seconds = 60;
};

// How a clang_process ended: exited with `status`, or was stopped by `signal` (SIGXFSZ: it wrote past
// largest_file; SIGXCPU: it ran past cpu_seconds), or could not start (`started` false).
struct clang_exit {
  bool started = false;
  int status = 0;
  int signal = 0;
};
[[nodiscard]] clang_exit run_clang(const clang_process& process);

}  // namespace hml::detail
