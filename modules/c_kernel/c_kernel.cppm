// hml.c_kernel — a loop kernel read from C, in the subset kerncraft reads (RRZE-HPC/kerncraft, kernel.py):
// array declarations with constant extents (numbers, or names given with -D), scalar declarations, then one
// perfect nest of up to three `for` loops with unit steps, whose innermost body assigns to arrays or
// scalars from expressions of array accesses, scalars and literals. Each subscript is the loop index of its
// dimension plus a constant: a[j-1][i+1] in a nest over j, i. The source is parsed by clang itself
// (libclang from Debian's clang-19), never by a hand-written parser, wrapped in a function as kerncraft
// wraps it, so that its line numbers are the file's own.
//
// What comes out is a loop_kernel, as a YAML kernel file gives one: the loops' trip counts, the arrays the
// loop touches (one declared and never accessed is left out), every distinct access (an access written twice
// counts once, as kerncraft keeps them in a set), and FLOP counted as kerncraft counts them: each binary
// +, -, * and / outside a subscript, a compound assignment's operator too. Whatever falls outside the
// subset is an ecm_file_error of one line naming the file, the line and the construct:
// "2d.c:7: a[i][j]: the subscripts must follow the loops, outermost first (j, then i)".
module;
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
export module hml.c_kernel;
export import hml.report;

export namespace hml {

// A name defined on the command line, as -D N=6000 defines it for the C preprocessor.
struct c_define {
  std::string name;
  std::int64_t value = 0;
};

// "N=6000" as a define: a C identifier, "=", a whole number of magnitude below 2^40; else ecm_file_error.
[[nodiscard]] c_define parse_c_define(std::string_view text);

// The kernel in `text`; `file` names it in messages, and its name without folder and extension names the
// kernel ("2d-5pt" for examples/ecm/2d-5pt.c).
[[nodiscard]] loaded_kernel read_kernel_c(std::string_view text, std::string_view file,
                                          std::span<const c_define> defines = {});

}  // namespace hml
