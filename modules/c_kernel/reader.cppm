// hml.c_kernel's reader of C, within the module (an implementation partition: nothing of it is exported,
// and libclang's header stays out of the interface): libclang's C API, opened on first use; the cursor
// helpers the reader is written in; and kernel_reader, which walks a kernel's cursors into a loop_kernel.
// kernel_reader's members are defined by concept: reader.cpp (the statements around the nest, the
// declarations, the result), loop_nest.cpp (the loops, and the affine forms of bounds and subscripts),
// accesses.cpp (the innermost loop's statements and their array accesses).
module;
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <clang-c/Index.h>

#include "libclang_functions.h"
module hml.c_kernel:reader;
import hml.report;

namespace hml::c_reader {

// --- libclang, loaded on first use -------------------------------------------------------------------
// The hml command links this layer, and libclang maps LLVM (about 170 MB of address space, some 20 ms at
// every start): so it is opened when the first kernel in C is read, not when a program starts, and every
// other command runs as before (also under the streaming tests' 64 MiB address-space limit).
struct libclang_api {
#define HML_LIBCLANG_POINTER(name) decltype(&::clang_##name) name = nullptr;
  HML_LIBCLANG_FUNCTIONS(HML_LIBCLANG_POINTER)
#undef HML_LIBCLANG_POINTER
};

// Loaded once, by the first reader to need it (a load that failed is tried again by the next); c_kernel.cpp.
const libclang_api& clang();

// Every number in a kernel (a -D value, a bound, a subscript's constant) stays below 2^40 in magnitude, so
// that sums and products of two of them never overflow 64 bits before they are checked.
inline constexpr std::int64_t largest_number = std::int64_t{1} << 40;
// Expressions nest at most this deep: the reader recurses over them, and a hostile file must not take the
// stack (a sum of 10^5 terms is a tree 10^5 deep). Deeper than a statement of 1,024 operators and parentheses
// nests (a flat sum of them is a tree as deep), so that bound, said before clang reads the file, binds
// first: at 256, a sum of 258 terms was "nested more than 256 deep".
inline constexpr int deepest_expression = 1100;
inline constexpr std::int64_t largest_offset = (std::int64_t{1} << 16) - 1;
// An array may have more dimensions than the loop nest has loops, the extra ones leading and subscripted by
// constants (kerncraft's 3d-7pt-varcoef.c: coeffs[6][M][N][N]); so many at most.
inline constexpr std::size_t most_declared_dimensions = 6;

// --- Cursors -----------------------------------------------------------------------------------------
std::string text_of(CXString s) {
  const char* chars = clang().getCString(s);
  std::string out = chars ? chars : "";
  clang().disposeString(s);
  return out;
}

std::vector<CXCursor> children(CXCursor c) {
  std::vector<CXCursor> out;
  clang().visitChildren(
      c,
      [](CXCursor child, CXCursor, CXClientData data) {
        static_cast<std::vector<CXCursor>*>(data)->push_back(child);
        return CXChildVisit_Continue;
      },
      &out);
  return out;
}

CXCursorKind kind_of(CXCursor c) { return clang().getCursorKind(c); }

// The line in the kernel's file: the wrapper's #line makes the presumed line the file's own.
unsigned line_of(CXSourceLocation where) {
  CXString name{};
  unsigned line = 0;
  unsigned column = 0;
  clang().getPresumedLocation(where, &name, &line, &column);
  clang().disposeString(name);
  return line;
}

// An expression without its parentheses and implicit conversions (libclang shows those as "unexposed").
CXCursor stripped(CXCursor c) {
  while (kind_of(c) == CXCursor_ParenExpr || kind_of(c) == CXCursor_UnexposedExpr) {
    const std::vector<CXCursor> inner = children(c);
    if (inner.size() != 1) return c;
    c = inner.front();
  }
  return c;
}

bool refers_to(CXCursor expression, CXCursor declaration) {
  const CXCursor e = stripped(expression);
  return kind_of(e) == CXCursor_DeclRefExpr && clang().equalCursors(clang().getCursorReferenced(e), declaration);
}

bool is_number_type(CXType t) {
  switch (clang().getCanonicalType(t).kind) {
    case CXType_Float: case CXType_Double: case CXType_LongDouble:
    case CXType_Char_S: case CXType_SChar: case CXType_Char_U: case CXType_UChar:
    case CXType_Short: case CXType_UShort: case CXType_Int: case CXType_UInt:
    case CXType_Long: case CXType_ULong: case CXType_LongLong: case CXType_ULongLong:
      return true;
    default:
      return false;
  }
}

bool is_integer_type(CXType t) {
  const CXTypeKind k = clang().getCanonicalType(t).kind;
  return is_number_type(t) && k != CXType_Float && k != CXType_Double && k != CXType_LongDouble;
}


struct affine_form {
  std::array<std::int64_t, max_loop_dimensions> coefficient{};
  std::int64_t constant = 0;

  [[nodiscard]] bool is_constant() const {
    return std::all_of(coefficient.begin(), coefficient.end(), [](std::int64_t c) { return c == 0; });
  }
  // The loop indices it uses: more than one is a linear subscript (j * N + i).
  [[nodiscard]] std::size_t indices() const {
    return static_cast<std::size_t>(std::count_if(coefficient.begin(), coefficient.end(), [](std::int64_t c) { return c != 0; }));
  }
};

struct declared_array {
  CXCursor declaration{};
  std::string name;
  std::size_t rank = 0;  // of the array as the kernel sees it (a linearised array's view of rows: 2 or 3)
  std::array<std::int64_t, most_declared_dimensions> extents{};
  std::size_t subscripts = 0;  // as declared
  std::int64_t elements = 0;
  bool viewed = false;         // as rows, by a linear subscript (a[j * N + i])
  std::size_t element_bytes = 0;
  std::string element_type;
  // Leading subscripts its accesses give as constants (F[0][j]: 1), fixed by the first access where the
  // array has no more dimensions than the nest has loops.
  std::optional<std::size_t> constant_leading;
  // Elements its last subscript steps per iteration of the innermost loop (b[2 * i]: 2), fixed by the first
  // access that moves with that loop.
  std::optional<std::int64_t> stride;

  // In a nest of `loops` loops, the dimensions before the loops' (subscripted by constants: those past the
  // loops' count, or as many as its accesses give, F[0][j] of F[s][n] over l, j), and the extents along the
  // loops: an array of lower rank follows the innermost loops and does not vary with the outer ones (extent
  // 0 there: b[N] in a nest over j, i is {0, N}).
  [[nodiscard]] std::size_t leading(std::size_t loops) const {
    return std::max(rank > loops ? rank - loops : 0, constant_leading.value_or(0));
  }
  [[nodiscard]] std::size_t outer_loops_unused(std::size_t loops) const {
    const std::size_t followed = rank - leading(loops);
    return followed < loops ? loops - followed : 0;
  }
  [[nodiscard]] index_vector loop_extents(std::size_t loops) const {
    index_vector e{};
    const std::size_t used = loops - outer_loops_unused(loops);
    std::copy_n(extents.begin() + static_cast<std::ptrdiff_t>(leading(loops)), used,
                e.begin() + static_cast<std::ptrdiff_t>(outer_loops_unused(loops)));
    return e;
  }
  // The name of a plane, the array at constant leading subscripts: "coeffs[2]" (the array's own name where
  // it has no leading dimension).
  [[nodiscard]] std::string plane_name(std::size_t loops, std::int64_t plane) const {
    std::string constants;
    for (std::size_t d = leading(loops); d-- > 0;) {
      constants.insert(0, "[" + std::to_string(plane % extents[d]) + "]");
      plane /= extents[d];
    }
    return name + constants;
  }
};

struct found_access {
  std::size_t array = 0;  // into the declared arrays
  std::int64_t plane = 0;  // of its leading dimensions, row-major (0 where it has none)
  access_kind kind = access_kind::read;
  index_vector offset{};
  unsigned line = 0;  // where it is first written, and as written ('a[j*N+i-1]'), for messages
  std::string text;
};

struct loop {
  CXCursor index{};
  std::string name;
  std::int64_t trips = 0;
  std::int64_t start = 0;  // the index's first value
};

// Reads the kernel's statements, cursor by cursor, into arrays, loops and accesses, refusing in one line
// (file:line: construct: why) whatever falls outside the subset.
class kernel_reader {
public:
  // `zero_defines`: the -D given 0 ("-D N=0"), named where an extent comes to 0, as a negative one is;
  // `defines_given` all of them ("-D N=1000"), named where the file's arithmetic of them does (N - 1000).
  kernel_reader(std::string_view file, CXTranslationUnit unit, std::vector<std::string> zero_defines = {}, std::string defines_given = {})
      : file_{file}, unit_{unit}, zero_defines_{std::move(zero_defines)}, defines_given_{std::move(defines_given)} {}

  // The wrapper function's body: declarations, then one loop nest.
  void read_statements(CXCursor body);
  // Where the loop nest begins in the parsed buffer.
  [[nodiscard]] std::size_t loop_begin() const { return loop_begin_; }
  // The kernel as read, each access checked to stay inside its array.
  void fill(loaded_kernel::storage& out) const;
  // The names of its arrays and scalars, as declared.
  [[nodiscard]] std::vector<std::string> declared_names() const;

private:
  // reader.cpp: messages, declarations.
  [[noreturn]] void fail(CXCursor at, const std::string& what) const;
  [[nodiscard]] std::string snippet(CXCursor c) const;
  void declare(CXCursor d);
  [[nodiscard]] static std::string counted(std::size_t n, std::string_view what);
  [[nodiscard]] std::string loop_names(std::size_t from = 0) const;
  [[nodiscard]] static std::pair<CXFile, unsigned> as_written(CXSourceLocation l);
  [[nodiscard]] static std::size_t offset_of(CXCursor c);

  // loop_nest.cpp: the loops, and affine forms of their indices.
  void read_nest(CXCursor for_loop);
  void check_index_range(CXCursor for_loop, CXCursor index, std::int64_t start, std::int64_t end) const;
  [[nodiscard]] loop start_of(CXCursor init);
  [[nodiscard]] std::int64_t end_of(CXCursor condition, CXCursor index);
  void check_step(CXCursor step, CXCursor index);
  [[nodiscard]] std::int64_t bound(CXCursor e);
  [[nodiscard]] std::int64_t checked(CXCursor at, __int128 value) const;
  [[nodiscard]] std::pair<std::int64_t, std::int64_t> range_of(const affine_form& f) const;
  void check_held(CXCursor e, const affine_form& f) const;
  [[nodiscard]] affine_form affine(CXCursor expression, int depth);

  // accesses.cpp: the innermost loop's statements, their FLOP and array accesses.
  void read_statement(CXCursor s);
  [[nodiscard]] bool is_scalar(CXCursor e) const;
  void count_flop(CXCursor at, CXBinaryOperatorKind op);
  void read_data(CXCursor expression, int depth);
  void access(CXCursor e, access_kind kind);
  void add_access(CXCursor e, const std::string& what, const found_access& x);
  void linear_access(CXCursor e, const std::string& what, declared_array& a, const affine_form& f, access_kind kind);

  std::string file_;
  std::size_t loop_begin_ = 0;
  CXTranslationUnit unit_;
  std::vector<std::string> zero_defines_;
  std::string defines_given_;
  std::vector<declared_array> arrays_;
  std::vector<CXCursor> scalars_;
  std::vector<loop> loops_;
  std::vector<found_access> accesses_;
  flop_counts flops_{};
};

}  // namespace hml::c_reader
