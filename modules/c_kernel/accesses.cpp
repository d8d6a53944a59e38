// hml.c_kernel's kernel_reader (reader.cppm): the innermost loop's statements, the FLOP they count and the
// array accesses they make, each as an array and one offset per loop.
module;
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <clang-c/Index.h>
module hml.c_kernel;
import :reader;

namespace hml::c_reader {

using detail::refuse;

// --- The innermost loop's statements ------------------------------------------------------------------

void kernel_reader::read_statement(CXCursor s) {
  const CXCursorKind k = kind_of(s);
  const CXBinaryOperatorKind op = k == CXCursor_BinaryOperator || k == CXCursor_CompoundAssignOperator
                                      ? clang().getCursorBinaryOperatorKind(s)
                                      : CXBinaryOperator_Invalid;
  const bool compound = op == CXBinaryOperator_AddAssign || op == CXBinaryOperator_SubAssign ||
                        op == CXBinaryOperator_MulAssign || op == CXBinaryOperator_DivAssign;
  if (op != CXBinaryOperator_Assign && !compound)
    fail(s, "'" + snippet(s) + "': the innermost loop's statements are assignments (=, +=, -=, *=, /=)");
  const std::vector<CXCursor> sides = children(s);
  if (sides.size() != 2) fail(s, "'" + snippet(s) + "' is outside the kernel subset");
  const CXCursor target = stripped(sides[0]);
  if (kind_of(target) == CXCursor_ArraySubscriptExpr) {
    access(target, access_kind::write);
    if (compound) access(target, access_kind::read);
  } else if (!is_scalar(target)) {
    fail(s, "'" + snippet(sides[0]) + "': a statement assigns to an array element or a declared scalar");
  }
  if (compound) count_flop(s, op);
  read_data(sides[1], 0);
}

bool kernel_reader::is_scalar(CXCursor e) const {
  if (kind_of(e) != CXCursor_DeclRefExpr) return false;
  return std::any_of(scalars_.begin(), scalars_.end(), [&](CXCursor s) { return refers_to(e, s); });
}

void kernel_reader::count_flop(CXCursor at, CXBinaryOperatorKind op) {
  // Integer arithmetic is no FLOP (an int kernel's adds were counted against the FP64 peak).
  if (is_integer_type(clang().getCursorType(at))) return;
  switch (op) {
    case CXBinaryOperator_Add: case CXBinaryOperator_Sub:
    case CXBinaryOperator_AddAssign: case CXBinaryOperator_SubAssign:
      ++flops_.add;
      break;
    case CXBinaryOperator_Mul: case CXBinaryOperator_MulAssign:
      ++flops_.mul;
      break;
    default:
      ++flops_.div;
  }
  if (flops_.total() > (1U << 16)) fail(at, "more than 2^16 FLOP an iteration");
}

// The right-hand side: array reads, scalars, literals, + - * / and parentheses.
void kernel_reader::read_data(CXCursor expression, int depth) {
  if (depth > deepest_expression) fail(expression, "an expression nested more than " + std::to_string(deepest_expression) + " deep");
  const CXCursor e = stripped(expression);
  switch (kind_of(e)) {
    case CXCursor_ArraySubscriptExpr:
      access(e, access_kind::read);
      return;
    case CXCursor_IntegerLiteral: case CXCursor_FloatingLiteral:
      return;
    case CXCursor_DeclRefExpr:
      if (is_scalar(e) || std::any_of(loops_.begin(), loops_.end(), [&](const loop& l) { return refers_to(e, l.index); }))
        return;
      fail(e, "'" + snippet(e) + "' is an array without its subscripts");
    case CXCursor_CStyleCastExpr:
      read_data(children(e).back(), depth + 1);
      return;
    case CXCursor_UnaryOperator: {
      const CXUnaryOperatorKind op = clang().getCursorUnaryOperatorKind(e);
      // Said as a unary operator: "'*' is outside (+ - * / only)" read as if multiplication were.
      if (op != CXUnaryOperator_Minus && op != CXUnaryOperator_Plus)
        fail(e, "a unary '" + text_of(clang().getUnaryOperatorKindSpelling(op)) + "' is outside the kernel subset (unary + and - only" +
                    (op == CXUnaryOperator_Deref ? "; write an element as a[i], not *(a + i))" : ")"));
      read_data(children(e).front(), depth + 1);
      return;
    }
    case CXCursor_BinaryOperator: {
      const CXBinaryOperatorKind op = clang().getCursorBinaryOperatorKind(e);
      if (op != CXBinaryOperator_Add && op != CXBinaryOperator_Sub && op != CXBinaryOperator_Mul &&
          op != CXBinaryOperator_Div)
        fail(e, "'" + text_of(clang().getBinaryOperatorKindSpelling(op)) + "' is outside the kernel subset (+ - * / only)");
      count_flop(e, op);
      const std::vector<CXCursor> sides = children(e);
      if (sides.size() != 2) fail(e, "'" + snippet(e) + "' is outside the kernel subset");
      read_data(sides[0], depth + 1);
      read_data(sides[1], depth + 1);
      return;
    }
    case CXCursor_CallExpr:
      fail(e, "a call to '" + text_of(clang().getCursorSpelling(e)) + "': calls are outside the kernel subset");
    default:
      fail(e, "'" + snippet(e) + "' is outside the kernel subset (array accesses, scalars, numbers, + - * /)");
  }
}

// a[j-1][i]: the array, and one offset per loop from that loop's index.
void kernel_reader::access(CXCursor e, access_kind kind) {
  std::vector<CXCursor> subscripts;
  CXCursor base = e;
  while (kind_of(base) == CXCursor_ArraySubscriptExpr) {
    const std::vector<CXCursor> parts = children(base);
    if (parts.size() != 2) fail(e, "'" + snippet(e) + "' is outside the kernel subset");
    subscripts.insert(subscripts.begin(), parts[1]);
    base = stripped(parts[0]);
  }
  const auto array = std::find_if(arrays_.begin(), arrays_.end(), [&](const declared_array& a) { return refers_to(base, a.declaration); });
  if (array == arrays_.end()) {
    // i[b] is C for b[i], which the subset writes one way: the array, then its index in brackets.
    const auto declared = [&](CXCursor c) {
      return std::any_of(arrays_.begin(), arrays_.end(), [&](const declared_array& a) { return refers_to(c, a.declaration); });
    };
    const bool swapped = subscripts.size() == 1 && declared(subscripts.front());
    fail(e, "'" + snippet(e) + "' subscripts no declared array" +
                (swapped ? ": write the array first, " + snippet(stripped(subscripts.front())) + "[" + snippet(base) + "]" : ""));
  }
  const std::string what = "'" + snippet(e) + "'";
  if (subscripts.size() != array->subscripts)
    fail(e, what + ": " + array->name + " has " + std::to_string(array->subscripts) + " dimensions");
  std::vector<affine_form> forms;  // each subscript's, read once
  for (const CXCursor subscript : subscripts) forms.push_back(affine(subscript, 0));
  // A one-dimensional array indexed row-major by several loops (a[j * N + i], kerncraft's 2d-5pt-linear.c).
  if (array->subscripts == 1 && loops_.size() > 1 && forms[0].indices() > 1) {
    linear_access(e, what, *array, forms[0], kind);
    return;
  }
  if (array->viewed)
    fail(e, what + ": " + array->name + " is indexed as rows elsewhere (" + array->name +
                "[j * N + i]); give each of its accesses as rows too");
  // A constant subscript names one element, or one plane of the leading dimensions: within its extent.
  const auto constant_subscript = [&](std::size_t d) {
    const affine_form& f = forms[d];
    if (!f.is_constant())
      fail(e, what + ": " + array->name + " has " + counted(array->rank, "dimension") + " in a nest of " +
                  counted(loops_.size(), "loop") + ", so its first " + std::to_string(array->leading(loops_.size())) +
                  " subscripts are constants (a plane of it) and the rest follow the loops");
    if (f.constant < 0 || f.constant >= array->extents[d])
      fail(e, what + ": subscript " + std::to_string(d + 1) + " is " + std::to_string(f.constant) + ", outside 0 to " +
                  std::to_string(array->extents[d] - 1) + "; keep it within the array's extent");
    return f.constant;
  };
  // An element at constant subscripts (coeffs[0] in 3d-7pt-constcoef.c) is the same in every iteration:
  // read once and kept in a register or the L1, as a scalar is, so it is no stream of the kernel (kerncraft's
  // layer conditions skip it too).
  if (std::all_of(forms.begin(), forms.end(), [](const affine_form& f) { return f.is_constant(); })) {
    for (std::size_t d = 0; d < subscripts.size(); ++d) (void)constant_subscript(d);
    return;
  }
  // An element read that the innermost loop does not move (A[l][0], a coefficient of each row; x[j] in a
  // nest over j, i) is read once per pass of that loop and kept in a register: no stream either, as in
  // kerncraft's layer conditions. Each of its subscripts stays inside its extent over the loops.
  const std::size_t innermost = loops_.size() - 1;
  const bool moves = std::any_of(forms.begin(), forms.end(), [&](const affine_form& f) { return f.coefficient[innermost] != 0; });
  if (!moves && kind != access_kind::read)
    fail(e, what + ": a store to an element the innermost loop does not move (a reduction into it, once a pass) "
                   "is outside hml's loop kernel; a read of one is taken as a register");
  if (!moves) {
    for (std::size_t d = 0; d < forms.size(); ++d) {
      const auto [least, most] = range_of(forms[d]);
      if (least < 0 || most >= array->extents[d])
        fail(e, what + ": subscript " + std::to_string(d + 1) + " reaches " + std::to_string(least < 0 ? least : most) +
                    ", outside 0 to " + std::to_string(array->extents[d] - 1) + "; keep it within the array's extent");
    }
    return;
  }
  // Leading constants then the innermost loops' indices (F[0][j] of F[s][n] over l, j): a plane of lower
  // rank. Every access of the array gives as many.
  std::size_t constants = 0;
  while (constants < forms.size() && forms[constants].is_constant()) ++constants;
  if (array->rank <= loops_.size()) {
    if (!array->constant_leading) array->constant_leading = constants;
    if (*array->constant_leading != constants)
      fail(e, what + ": " + array->name + " is indexed with " + counted(*array->constant_leading, "leading constant subscript") +
                  " elsewhere; index it alike everywhere (one plane or the whole array)");
  }
  found_access x{.array = static_cast<std::size_t>(array - arrays_.begin()), .kind = kind,
                 .line = line_of(clang().getCursorLocation(e)), .text = what};
  const std::size_t leading = array->leading(loops_.size());
  const std::size_t unused = array->outer_loops_unused(loops_.size());
  for (std::size_t d = 0; d < leading; ++d) x.plane = x.plane * array->extents[d] + constant_subscript(d);
  for (const affine_form& f : forms) {
    if (f.indices() > 1)
      fail(e, what + ": a subscript of several loop indices (j * N + i) is taken on a one-dimensional array only, as "
                     "the rows it stands for; " + array->name + " has " + counted(array->subscripts, "dimension"));
  }
  for (std::size_t d = unused; d < loops_.size(); ++d) {
    const affine_form& f = forms[leading + d - unused];
    for (std::size_t other = 0; other < max_loop_dimensions; ++other) {
      if (other == d && d == innermost && f.coefficient[d] > 0) {  // b[2 * i]: a stride, alike in every access
        const std::int64_t stride = f.coefficient[d];
        if (stride > max_stride)
          fail(e, what + ": its stride " + std::to_string(stride) + " is past hml's " + std::to_string(max_stride) + " elements");
        if (array->stride && *array->stride != stride)
          fail(e, what + ": " + array->name + " is stepped " + std::to_string(*array->stride) +
                      " elements an iteration elsewhere; an array has one stride in the innermost loop");
        array->stride = stride;
        continue;
      }
      if (f.coefficient[other] == (other == d ? 1 : 0)) continue;
      if (other == d && f.coefficient[d] != 0)
        fail(e, what + ": a stride of " + std::to_string(f.coefficient[d]) + " along " +
                    (d == innermost ? "the innermost loop (a descending one)" : "an outer loop") +
                    " is outside hml's loop kernel, which takes a positive stride in the innermost loop only");
      if (unused > 0)
        fail(e, what + ": " + array->name + " has " + counted(array->rank, "dimension") + " in a nest of " +
                    counted(loops_.size(), "loop") + ", so its subscripts follow the innermost " +
                    (loops_.size() - unused == 1 ? "loop" : std::to_string(loops_.size() - unused) + " loops") + " (" +
                    loop_names(unused) + "); an array that does not vary with the innermost loop is outside hml's loop kernel");
      fail(e, what + ": the subscripts follow the loops, outermost first (" + loop_names() + ")");
    }
    if (f.constant < -largest_offset || f.constant > largest_offset)
      fail(e, what + ": its offset " + std::to_string(f.constant) + " is past hml's +-" + std::to_string(largest_offset) +
                  " elements along a dimension");
    x.offset[d] = f.constant;
  }
  add_access(e, what, x);
}

// Each distinct access once.
void kernel_reader::add_access(CXCursor e, const std::string& what, const found_access& x) {
  const bool seen = std::any_of(accesses_.begin(), accesses_.end(), [&](const found_access& y) {
    return y.array == x.array && y.plane == x.plane && y.kind == x.kind && y.offset == x.offset;
  });
  if (seen) return;
  if (accesses_.size() == max_kernel_accesses)
    fail(e, what + " is the " + std::to_string(max_kernel_accesses + 1) + "th distinct access; a kernel has at most " +
                std::to_string(max_kernel_accesses));
  accesses_.push_back(x);
}

// a[j * N + i + c] of a[M * N]: the array viewed as the rows it stands for, a[M][N], and the access as
// a[j + c / N][i + c % N] (the remainder taken nearest 0: a[j * N + i - 1] is a[j][i - 1]). The
// subscript runs row-major: the innermost index alone, each outer one times the elements of a row inside
// it; every access of the array views it alike, and the rows divide the array.
void kernel_reader::linear_access(CXCursor e, const std::string& what, declared_array& a, const affine_form& f, access_kind kind) {
  const std::size_t loops = loops_.size();
  std::size_t outermost = 0;
  while (f.coefficient[outermost] == 0) ++outermost;
  const std::size_t q = loops - outermost;  // the loops the subscript follows, and the view's rank
  const std::string rule = what + ": a linear subscript is row-major, the innermost index alone and each outer "
                                  "one times the elements inside it (j * N + i)";
  std::array<std::int64_t, max_loop_dimensions> view{};
  std::int64_t inside = 1;  // elements of the view inside the dimension being read
  for (std::size_t k = 0; k < q; ++k) {  // k-th loop from the innermost
    const std::int64_t c = f.coefficient[loops - 1 - k];
    if (k == 0 ? c != 1 : c <= inside || c % inside != 0) fail(e, rule);  // each row longer than one element
    if (k > 0) view[q - k] = c / inside;
    inside = c;
  }
  if (a.elements % inside != 0)
    fail(e, what + ": rows of " + std::to_string(inside) + " elements do not divide " + a.name + "'s " +
                std::to_string(a.elements));
  view[0] = a.elements / inside;
  const bool same_view = a.rank == q && std::equal(view.begin(), view.begin() + static_cast<std::ptrdiff_t>(q), a.extents.begin());
  if (a.viewed && !same_view)
    fail(e, what + ": " + a.name + " is indexed as rows of another length elsewhere; index it alike everywhere");
  const std::size_t index = static_cast<std::size_t>(&a - arrays_.data());
  if (!a.viewed && std::any_of(accesses_.begin(), accesses_.end(), [&](const found_access& y) { return y.array == index; }))
    fail(e, what + ": " + a.name + " is indexed as one row elsewhere; give each of its accesses as rows (j * N + i)");
  a.rank = q;
  std::copy_n(view.begin(), q, a.extents.begin());
  a.viewed = true;
  found_access x{.array = index, .kind = kind, .line = line_of(clang().getCursorLocation(e)), .text = what};
  std::int64_t rest = f.constant;
  for (std::size_t v = q; v-- > 1;) {  // the view's dimensions, innermost first, but the outermost
    std::int64_t r = rest % view[v];
    if (2 * r > view[v]) r -= view[v];
    if (2 * r < -view[v]) r += view[v];
    x.offset[loops - q + v] = r;
    rest = (rest - r) / view[v];
  }
  x.offset[loops - q] = rest;
  for (const std::int64_t o : x.offset)
    if (o < -largest_offset || o > largest_offset)
      fail(e, what + ": its offset " + std::to_string(f.constant) + " splits into rows and a remainder past hml's +-" +
                  std::to_string(largest_offset) + " elements along a dimension");
  add_access(e, what, x);
}

}  // namespace hml::c_reader
