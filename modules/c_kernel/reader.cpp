// hml.c_kernel's kernel_reader (reader.cppm): the statements around the loop nest, the declarations of
// arrays and scalars, the kernel it gives, and the messages that name a construct where it is written.
module;
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <clang-c/Index.h>
module hml.c_kernel;
import :reader;

namespace hml::c_reader {

using detail::refuse;

namespace {

// At most this many declarations: each reference is looked up among them, and a kernel declares a few.
constexpr std::size_t most_declarations = 256;

// The name without its folder and extension: "examples/ecm/2d-5pt.c" is "2d-5pt".
std::string stem(std::string_view file) {
  if (const std::size_t slash = file.rfind('/'); slash != std::string_view::npos) file.remove_prefix(slash + 1);
  if (const std::size_t dot = file.rfind('.'); dot != std::string_view::npos && dot > 0) file = file.substr(0, dot);
  return std::string{file};
}

}  // namespace

void kernel_reader::read_statements(CXCursor body) {
  bool nest_read = false;
  for (const CXCursor s : children(body)) {
    switch (kind_of(s)) {
      case CXCursor_NullStmt:
        break;
      case CXCursor_DeclStmt:
        if (nest_read) fail(s, "a declaration after the loop nest: declarations come before it");
        for (const CXCursor d : children(s)) declare(d);
        break;
      case CXCursor_ForStmt:
        if (nest_read) fail(s, "a second loop nest: a kernel is one loop nest; give each nest a file of its own");
        read_nest(s);
        nest_read = true;
        loop_begin_ = offset_of(s);
        break;
      case CXCursor_WhileStmt:
      case CXCursor_DoStmt:
        fail(s, "'" + snippet(s) + "': a kernel's loops are for loops, as kerncraft reads them (for (int i = 0; i < N; ++i))");
      default:
        fail(s, "'" + snippet(s) + "': only declarations come before the loop nest, and nothing after it");
    }
  }
  if (!nest_read) refuse(file_ + ": no loop nest: a kernel declares its arrays and scalars, then one for loop nest; write it after "
                                      "them (a // comment that ends in \\ takes the next line with it)");
}

void kernel_reader::fill(loaded_kernel::storage& out) const {
  loop_kernel& k = out.kernel;
  k.name = out.keep(stem(file_));
  k.dimensions = loops_.size();
  for (std::size_t d = 0; d < loops_.size(); ++d) k.extents[d] = loops_[d].trips;
  if (accesses_.empty()) refuse(file_ + ": the loop nest accesses no array; a kernel reads or writes arrays in its loop");
  // The arrays the loop touches, in the order they were declared; an array with leading dimensions is
  // one array of the kernel per plane it touches (coeffs[0] ... coeffs[5]), in the planes' order: no
  // line of one plane is a line of another.
  std::map<std::pair<std::size_t, std::int64_t>, std::size_t> kernel_index;
  for (const found_access& x : accesses_) kernel_index.emplace(std::pair{x.array, x.plane}, 0);
  const declared_array* first_array = nullptr;
  for (auto& [plane, index] : kernel_index) {
    const declared_array& d = arrays_[plane.first];
    const std::string name = d.plane_name(loops_.size(), plane.second);
    if (k.arrays.size() == max_kernel_arrays)
      fail(d.declaration, "'" + name + "' is the " + std::to_string(max_kernel_arrays + 1) +
                              "th array the loop accesses; a kernel accesses at most " +
                              std::to_string(max_kernel_arrays));
    if (first_array == nullptr) first_array = &d;
    if (d.element_bytes != first_array->element_bytes)
      fail(d.declaration, "'" + d.name + "' has " + std::to_string(d.element_bytes) + "-byte elements (" +
                              d.element_type + ") and '" + first_array->name + "' " +
                              std::to_string(first_array->element_bytes) +
                              "-byte ones: a kernel's arrays share one element size, as kerncraft's do");
    index = k.arrays.size();
    k.arrays.push_back({.name = out.keep(name), .element_bytes = d.element_bytes,
                        .extents = d.loop_extents(loops_.size()), .stride = d.stride.value_or(1)});
  }
  for (const found_access& x : accesses_)
    k.accesses.push_back({.array = kernel_index.at({x.array, x.plane}), .kind = x.kind, .offset = x.offset});
  // A loop kernel's offsets are relative: reach() takes the loop from where an array's lowest offset
  // allows, 0 or later (a[i - 1] from i = 1). Where the C loop starts below that (a[i + 1] from i = -1), the
  // array's offsets are counted from the loop's start instead (a[i] from 0): the same elements and the same
  // distances between them, which are all the model sees. The exact check below uses the source's offsets.
  for (std::size_t a = 0; a < k.arrays.size(); ++a) {
    for (std::size_t d = 0; d < loops_.size(); ++d) {
      if (!varies_with(k.arrays[a], d) || reach(k, a, d) <= k.arrays[a].extents[d]) continue;
      for (std::size_t x = 0; x < k.accesses.size(); ++x)
        if (k.accesses[x].array == a) k.accesses[x].offset[d] += step_along(k, a, d) * loops_[d].start;
    }
  }
  k.flops = flops_;
  // Each access's first and last index inside its array, from the loop's own start; an error names the
  // access where it is written.
  for (const found_access& x : accesses_) {
    const declared_array& a = arrays_[x.array];
    const index_vector extents = a.loop_extents(loops_.size());
    const std::size_t unused = a.outer_loops_unused(loops_.size());
    for (std::size_t d = unused; d < loops_.size(); ++d) {
      const loop& l = loops_[d];
      const std::int64_t last_index = l.start + l.trips - 1;
      const std::int64_t s = step_along(k, kernel_index.at({x.array, x.plane}), d);
      const std::int64_t first = s * l.start + x.offset[d], last = s * last_index + x.offset[d];
      if (first >= 0 && last < extents[d]) continue;
      const std::string where = file_ + ":" + std::to_string(x.line) + ": " + x.text + ": ";
      const std::string loop_range = "the loop over " + l.name + " from " + std::to_string(l.start) + " to " +
                                     std::to_string(last_index);
      if (a.viewed && d > unused)  // a linear subscript's column past its row: another row's element
        refuse(where + "at " + l.name + " = " + std::to_string(first < 0 ? l.start : last_index) + " it reaches the row " +
               (first < 0 ? "before" : "after") + ": a linear subscript stays inside its row of " +
               std::to_string(extents[d]) + " elements (" + loop_range + "); keep the loop's range inside the row");
      refuse(where + "reaches " + std::to_string(first < 0 ? first : last) + ", past " + a.name + "'s " +
             (a.viewed ? "rows 0 to " : "indices 0 to ") + std::to_string(extents[d] - 1) + " in dimension " +
             std::to_string(a.leading(loops_.size()) + d - unused + 1) + " (" + loop_range + ", offset " +
             std::to_string(x.offset[d]) + "); keep the loop's range inside the array, or declare it larger");
    }
  }
  try {
    validate(k);
  } catch (const std::invalid_argument& e) {
    refuse(file_ + ": " + e.what());
  }
}


// A rule the message states is what to write; where it says no more, the subset's page is the advice.
void kernel_reader::fail(CXCursor at, const std::string& what) const {
  refuse(file_ + ":" + std::to_string(line_of(clang().getCursorLocation(at))) + ": " + what +
         (what.find("; ") == std::string::npos ? "; see the subset hml reads (docs/reference/machine-file.md, Kernel in C)" : ""));
}

// The source of a construct as its tokens, for messages: "a[j-1][i]". A construct from a macro is its use
// ("BIG"), not the text from the macro's definition to its use, which is what the cursor's extent spans.
std::string kernel_reader::snippet(CXCursor c) const {
  const CXSourceRange extent = clang().getCursorExtent(c);
  const auto [file, begin] = as_written(clang().getRangeStart(extent));
  const unsigned end = std::max(as_written(clang().getRangeEnd(extent)).second, begin + 1);
  CXToken* tokens = nullptr;
  unsigned count = 0;
  clang().tokenize(unit_, clang().getRange(clang().getLocationForOffset(unit_, file, begin),
                                          clang().getLocationForOffset(unit_, file, end)),
                   &tokens, &count);
  std::string out;
  bool word_before = false;
  for (unsigned t = 0; t < count && out.size() < 60; ++t) {
    const CXTokenKind k = clang().getTokenKind(tokens[t]);
    const bool word = k == CXToken_Identifier || k == CXToken_Keyword || k == CXToken_Literal;
    if (word && word_before) out += ' ';
    out += text_of(clang().getTokenSpelling(unit_, tokens[t]));
    word_before = word;
  }
  if (out.size() >= 60) out = out.substr(0, 57) + "...";
  clang().disposeTokens(unit_, tokens, count);
  return out;
}

// --- Declarations -------------------------------------------------------------------------------------

void kernel_reader::declare(CXCursor d) {
  if (kind_of(d) != CXCursor_VarDecl) fail(d, "'" + snippet(d) + "': a kernel declares arrays and scalars only");
  if (arrays_.size() + scalars_.size() == most_declarations)
    fail(d, "more than " + std::to_string(most_declarations) + " declarations; a kernel declares a few arrays and scalars");
  const std::string name = text_of(clang().getCursorSpelling(d));
  if (name == detail::kernel_function)
    fail(d, "'" + name + "' is the function hml compiles the loop nest in; give the " +
                (is_number_type(clang().getCursorType(d)) ? "scalar" : "array") + " another name");
  // A static array is the file's, which nothing reads after the kernel: clang drops its stores and the loop.
  // The declarations are compiled at file scope, where `register` is no storage class.
  if (const CX_StorageClass storage = clang().Cursor_getStorageClass(d); storage == CX_SC_Static || storage == CX_SC_Register)
    fail(d, "'" + name + "' is " + (storage == CX_SC_Static ? "static" : "register") +
                ": a kernel declares its arrays and scalars plainly (double a[N];), as kerncraft's do");
  const CXType type = clang().getCanonicalType(clang().getCursorType(d));
  // A volatile object is loaded and stored at every access, kept in no register: another loop than the model's.
  const auto refuse_volatile = [&](CXType t) {
    if (clang().isVolatileQualifiedType(t))
      fail(d, "'" + name + "' is volatile: clang loads and stores it at every access, which is not the loop the model "
                  "counts; declare it without volatile");
  };
  refuse_volatile(type);
  if (is_number_type(type)) {
    // A const's value is known to the compiler, which folds it into the compiled loop (b[i] * s of a const
    // s = 1.0 is no multiply): the in-core time would be another loop's.
    if (clang().isConstQualifiedType(type))
      fail(d, "'" + name + "' is const: clang folds its value into the loop, which then is not the one the model "
                  "counts; declare it without const");
    // Compiled at file scope, a scalar's initial value is a constant (double s = c0 * 2.0 is not C there).
    if (const CXCursor init = clang().Cursor_getVarDeclInitializer(d); !clang().Cursor_isNull(init)) {
      const CXEvalResult value = clang().Cursor_Evaluate(init);
      const bool constant = value != nullptr && (clang().EvalResult_getKind(value) == CXEval_Int ||
                                                 clang().EvalResult_getKind(value) == CXEval_Float);
      if (value != nullptr) clang().EvalResult_dispose(value);
      if (!constant)
        fail(d, "'" + name + "' is initialized by '" + snippet(init) + "', which is no constant: give a number, or no "
                    "initializer");
    }
    scalars_.push_back(d);
    return;
  }
  if (type.kind == CXType_VariableArray || type.kind == CXType_IncompleteArray)
    fail(d, "'" + name + "': an array's extents are constants; give a name's value with -D NAME=VALUE");
  if (type.kind != CXType_ConstantArray)
    fail(d, "'" + name + "' is a " + text_of(clang().getTypeSpelling(type)) +
                ": a kernel declares arrays of numbers and scalars only");
  declared_array a{};
  a.declaration = d;
  a.name = name;
  CXType element = type;
  double elements = 1;
  while (element.kind == CXType_ConstantArray) {
    if (a.rank == most_declared_dimensions)
      fail(d, "'" + name + "' has more than " + std::to_string(most_declared_dimensions) + " dimensions; declare it with fewer");
    const long long extent = clang().getArraySize(element);
    if (extent == 0 && !zero_defines_.empty())
      fail(d, "'" + name + "' has an extent of 0 (given -D " + zero_defines_.front() + "=0); give -D " + zero_defines_.front() +
                  " a size above 0");
    if (extent < 1)  // C's int arithmetic: M * N past 2^31 wraps, to 0 at 2^32
      fail(d, "'" + name + "' has an extent of " + std::to_string(extent) + (defines_given_.empty() ? "" : " (given " + defines_given_ + ")") +
                  ": give each extent at least 1" + (defines_given_.empty() ? "" : ", by the -D values or the file's arithmetic of them") +
                  " (where it is a product of int sizes, C wraps it past 2^31: write (long)M * N)");
    if (extent >= largest_number) fail(d, "'" + name + "' has an extent outside [1, 2^40)");
    a.extents[a.rank++] = extent;
    a.subscripts = a.rank;
    elements *= static_cast<double>(extent);
    element = clang().getCanonicalType(clang().getArrayElementType(element));
  }
  refuse_volatile(element);
  // Values the compiler knows are folded into the compiled loop: its loads would not be the ones counted.
  // (clang keeps a const array's qualifier on its canonical array type, not on the elements.)
  if (clang().isConstQualifiedType(type) || clang().isConstQualifiedType(element) ||
      !clang().Cursor_isNull(clang().Cursor_getVarDeclInitializer(d)))
    fail(d, "'" + name + "' is const or initialized: clang folds known values into the loop, whose loads the "
                "model counts; declare the array without const or an initializer");
  if (!is_number_type(element))
    fail(d, "'" + name + "' holds " + text_of(clang().getTypeSpelling(element)) + ": an array holds numbers (float, double, long double or an integer type)");
  if (elements > max_array_elements) fail(d, "'" + name + "' has more than 2^36 elements; give it smaller extents");
  a.elements = static_cast<std::int64_t>(elements);
  a.element_bytes = static_cast<std::size_t>(clang().Type_getSizeOf(element));
  a.element_type = text_of(clang().getTypeSpelling(element));
  arrays_.push_back(std::move(a));
}

std::vector<std::string> kernel_reader::declared_names() const {
  std::vector<std::string> names;
  for (const declared_array& a : arrays_) names.push_back(a.name);
  for (const CXCursor& s : scalars_) names.push_back(text_of(clang().getCursorSpelling(s)));
  return names;
}

// "1 loop", "3 loops".
std::string kernel_reader::counted(std::size_t n, std::string_view what) {
  return std::to_string(n) + " " + std::string{what} + (n == 1 ? "" : "s");
}

// The loops from the `from`th, outermost first: "j, then i".
std::string kernel_reader::loop_names(std::size_t from) const {
  std::string out;
  for (std::size_t d = from; d < loops_.size(); ++d) out += (out.empty() ? "" : ", then ") + loops_[d].name;
  return out;
}

// A location as written in the parsed buffer (a macro's use, not its definition): its file and offset.
std::pair<CXFile, unsigned> kernel_reader::as_written(CXSourceLocation l) {
  CXFile file{};
  unsigned line = 0;
  unsigned column = 0;
  unsigned offset = 0;
  clang().getExpansionLocation(l, &file, &line, &column, &offset);
  return {file, offset};
}

// Where the construct begins in the parsed buffer, as written there.
std::size_t kernel_reader::offset_of(CXCursor c) { return as_written(clang().getRangeStart(clang().getCursorExtent(c))).second; }

}  // namespace hml::c_reader
