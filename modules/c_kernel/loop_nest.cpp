// hml.c_kernel's kernel_reader (reader.cppm): the loop nest, each loop's index, start, end and step, and the
// affine forms (a constant plus multiples of the loop indices) its bounds and subscripts are read as.
module;
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <clang-c/Index.h>
module hml.c_kernel;
import :reader;

namespace hml::c_reader {

using detail::refuse;

// --- The loop nest ------------------------------------------------------------------------------------

void kernel_reader::read_nest(CXCursor for_loop) {
  if (loops_.size() == max_loop_dimensions)
    fail(for_loop, "a fourth loop: a kernel's nest has at most " + std::to_string(max_loop_dimensions) + " loops");
  const std::vector<CXCursor> parts = children(for_loop);
  if (parts.size() != 4) fail(for_loop, "a for loop needs its start, its condition and its step");
  loop l = start_of(parts[0]);
  const std::int64_t start = l.trips;
  check_step(parts[2], l.index);  // first: a loop counting down (i--) is refused for that, not for its i >= 0
  const std::int64_t end = end_of(parts[1], l.index);
  l.trips = end - start;
  l.start = start;
  check_index_range(for_loop, l.index, start, end);
  if (l.trips <= 0)
    fail(for_loop, "the loop over " + l.name + " runs no iteration (from " + std::to_string(start) + " to " +
                       std::to_string(end) + "); give it an end past its start (its -D values?)");
  loops_.push_back(l);

  std::vector<CXCursor> body;
  if (kind_of(parts[3]) == CXCursor_CompoundStmt) {
    for (const CXCursor s : children(parts[3]))
      if (kind_of(s) != CXCursor_NullStmt) body.push_back(s);
  } else if (kind_of(parts[3]) != CXCursor_NullStmt) {
    body.push_back(parts[3]);
  }
  if (body.empty()) fail(for_loop, "the loop over " + l.name + " has an empty body; give it the statements the kernel runs");
  const bool holds_loop =
      std::any_of(body.begin(), body.end(), [](CXCursor s) { return kind_of(s) == CXCursor_ForStmt; });
  if (holds_loop) {
    if (body.size() != 1)
      fail(for_loop, "not a perfect loop nest: a loop holds either one loop or the kernel's statements");
    read_nest(body.front());
    return;
  }
  for (const CXCursor s : body) read_statement(s);
}

// The index must hold every value from the start to the end, the end included (the loop stops there): an
// unsigned char counting to 1000 never stops, an int counting to 3 * 10^9 overflows.
void kernel_reader::check_index_range(CXCursor for_loop, CXCursor index, std::int64_t start, std::int64_t end) const {
  const CXType type = clang().getCanonicalType(clang().getCursorType(index));
  const long long bytes = clang().Type_getSizeOf(type);
  if (bytes < 1 || bytes > 8) return;  // no integer type of another size reaches here
  const bool is_unsigned = type.kind == CXType_UChar || type.kind == CXType_Char_U || type.kind == CXType_UShort ||
                           type.kind == CXType_UInt || type.kind == CXType_ULong || type.kind == CXType_ULongLong;
  const int value_bits = static_cast<int>(8 * bytes) - (is_unsigned ? 0 : 1);
  const __int128 largest = (__int128{1} << value_bits) - 1;
  const __int128 smallest = is_unsigned ? 0 : -(__int128{1} << value_bits);
  if (end <= largest && start >= smallest) return;
  const std::string name = text_of(clang().getCursorSpelling(index));
  const std::string type_name = text_of(clang().getTypeSpelling(clang().getCursorType(index)));
  const bool past_end = end > largest;
  const auto limit = static_cast<long long>(past_end ? largest : smallest);
  fail(for_loop, "the loop over " + name + " counts " + (past_end ? "to " + std::to_string(end) : "from " + std::to_string(start)) +
                     ", but " + name + " is " + type_name + ", whose " + (past_end ? "largest" : "smallest") +
                     " value is " + std::to_string(limit) + ": declare it long");
}

// `int i = 1` or `i = 1` (i declared before as an integer): the index and its start.
loop kernel_reader::start_of(CXCursor init) {
  const std::string what = "'" + snippet(init) + "': a loop starts as int i = <constant> or i = <constant>";
  CXCursor index{};
  CXCursor value{};
  if (kind_of(init) == CXCursor_DeclStmt) {
    const std::vector<CXCursor> vars = children(init);
    if (vars.size() != 1 || kind_of(vars[0]) != CXCursor_VarDecl || !is_integer_type(clang().getCursorType(vars[0])))
      fail(init, what);
    const std::vector<CXCursor> initialiser = children(vars[0]);
    if (initialiser.empty()) fail(init, what);
    index = vars[0];
    value = initialiser.back();
    // A volatile counter is kept in memory, not a register: clang compiles another loop than the -O3 one.
    if (clang().isVolatileQualifiedType(clang().getCursorType(index)))
      fail(init, "'" + snippet(init) + "': the loop's index is volatile, which clang keeps in memory and no register; "
                 "declare it without volatile");
  } else if (kind_of(init) == CXCursor_BinaryOperator && clang().getCursorBinaryOperatorKind(init) == CXBinaryOperator_Assign) {
    const std::vector<CXCursor> sides = children(init);
    if (sides.size() != 2) fail(init, what);
    const CXCursor target = stripped(sides[0]);
    if (kind_of(target) != CXCursor_DeclRefExpr || !is_integer_type(clang().getCursorType(target))) fail(init, what);
    index = clang().getCursorReferenced(target);
    value = sides[1];
  } else {
    fail(init, what);
  }
  const std::string name = text_of(clang().getCursorSpelling(index));
  for (const loop& outer : loops_)
    if (clang().equalCursors(outer.index, index)) fail(init, "the loop over " + name + " is inside a loop over " + name);
  return {.index = index, .name = name, .trips = bound(value)};
}

// `i < N - 1` or `i <= N`: the first value past the loop.
std::int64_t kernel_reader::end_of(CXCursor condition, CXCursor index) {
  const CXCursor c = stripped(condition);
  const CXBinaryOperatorKind op = kind_of(c) == CXCursor_BinaryOperator ? clang().getCursorBinaryOperatorKind(c)
                                                                         : CXBinaryOperator_Invalid;
  const std::vector<CXCursor> sides = children(c);
  if ((op != CXBinaryOperator_LT && op != CXBinaryOperator_LE) || sides.size() != 2 || !refers_to(sides[0], index))
    fail(condition, "'" + snippet(condition) + "': a loop's condition is i < <constant> or i <= <constant>");
  return bound(sides[1]) + (op == CXBinaryOperator_LE ? 1 : 0);
}

// ++i, i++, i += 1 or i = i + 1.
void kernel_reader::check_step(CXCursor step, CXCursor index) {
  const CXCursor s = stripped(step);
  const std::vector<CXCursor> parts = children(s);
  bool by_one = false;
  if (kind_of(s) == CXCursor_UnaryOperator) {
    const CXUnaryOperatorKind op = clang().getCursorUnaryOperatorKind(s);
    by_one = (op == CXUnaryOperator_PreInc || op == CXUnaryOperator_PostInc) && refers_to(parts[0], index);
  } else if (kind_of(s) == CXCursor_CompoundAssignOperator || kind_of(s) == CXCursor_BinaryOperator) {
    const CXBinaryOperatorKind op = clang().getCursorBinaryOperatorKind(s);
    if (parts.size() == 2 && refers_to(parts[0], index)) {
      if (op == CXBinaryOperator_AddAssign) by_one = bound(parts[1]) == 1;
      if (op == CXBinaryOperator_Assign) {
        loops_.push_back({.index = index, .name = {}, .trips = 0});  // i = i + 1: the index as the next loop's, for affine()
        const affine_form f = affine(parts[1], 0);
        loops_.pop_back();
        by_one = f.constant == 1 && f.coefficient[loops_.size()] == 1 &&
                 std::count(f.coefficient.begin(), f.coefficient.end(), 0) ==
                     static_cast<std::ptrdiff_t>(max_loop_dimensions) - 1;
      }
    }
  }
  if (!by_one) fail(step, "'" + snippet(step) + "': a loop steps by one (++i, i++, i += 1); other steps are outside the subset");
}

// A loop's start or end: a constant that does not depend on an outer loop's index.
std::int64_t kernel_reader::bound(CXCursor e) {
  const affine_form f = affine(e, 0);
  if (!f.is_constant())
    fail(e, "'" + snippet(e) + "': a loop bound depends on an outer loop's index (a triangular nest is outside the subset)");
  return f.constant;
}

// --- Subscripts and bounds: affine forms of the loop indices ------------------------------------------

std::int64_t kernel_reader::checked(CXCursor at, __int128 value) const {
  if (value <= -largest_number || value >= largest_number) {
    // A number from a macro or a product is quoted as written, with what it comes to.
    const std::string written = snippet(at);
    const bool fits = value >= std::numeric_limits<std::int64_t>::min() && value <= std::numeric_limits<std::int64_t>::max();
    const std::string number = fits ? std::to_string(static_cast<std::int64_t>(value)) : "past 2^63 in magnitude";
    fail(at, "'" + written + "'" + (written == number ? "" : " holds " + number) + ": a number of magnitude 2^40 or more");
  }
  return static_cast<std::int64_t>(value);
}

namespace {
// The values an integer type of a subscript's arithmetic holds: int's and unsigned int's; a long's hold every
// number the reader takes (below 2^40). None for a type that is not one of those.
std::optional<std::pair<std::int64_t, std::int64_t>> held_by(CXType type) {
  switch (clang().getCanonicalType(type).kind) {
    case CXType_Int: return std::pair<std::int64_t, std::int64_t>{std::numeric_limits<std::int32_t>::min(), std::numeric_limits<std::int32_t>::max()};
    case CXType_UInt: return std::pair<std::int64_t, std::int64_t>{0, std::numeric_limits<std::uint32_t>::max()};
    case CXType_Long: case CXType_LongLong: return std::pair{-largest_number, largest_number};
    case CXType_ULong: case CXType_ULongLong: return std::pair<std::int64_t, std::int64_t>{0, largest_number};
    default: return std::nullopt;
  }
}
}  // namespace

// C computes a subscript's arithmetic in its type: a value the type does not hold wraps (for int, undefined
// behaviour), and the subscript is then not the form read here. `j * N` of an int j past 2^31 is refused.
void kernel_reader::check_held(CXCursor e, const affine_form& f) const {
  const auto held = held_by(clang().getCursorType(e));
  if (!held) return;
  const auto [low, high] = range_of(f);
  if (low >= held->first && high <= held->second) return;
  fail(e, "'" + snippet(e) + "' reaches " + std::to_string(low < held->first ? low : high) + ", which its type " +
              text_of(clang().getTypeSpelling(clang().getCursorType(e))) + " does not hold (it would wrap): make an "
              "operand long, as (long)j * N");
}

// The least and the most an affine form takes over the loops' indices.
std::pair<std::int64_t, std::int64_t> kernel_reader::range_of(const affine_form& f) const {
  std::int64_t least = f.constant, most = f.constant;
  for (std::size_t l = 0; l < loops_.size(); ++l) {
    const std::int64_t c = f.coefficient[l];
    const std::int64_t first = c * loops_[l].start, last = c * (loops_[l].start + loops_[l].trips - 1);
    least += std::min(first, last);
    most += std::max(first, last);
  }
  return {least, most};
}

affine_form kernel_reader::affine(CXCursor expression, int depth) {
  if (depth > deepest_expression) fail(expression, "an expression nested more than " + std::to_string(deepest_expression) + " deep");
  const CXCursor e = stripped(expression);
  const auto not_affine = [&] { return "'" + snippet(e) + "' is not a loop index plus a constant; write each subscript so (a[i + 1], b[j][i - 1])"; };
  affine_form f{};
  switch (kind_of(e)) {
    case CXCursor_IntegerLiteral:
    case CXCursor_CharacterLiteral: {  // 'a' is an int constant in C
      const CXEvalResult r = clang().Cursor_Evaluate(e);
      const bool whole = r && clang().EvalResult_getKind(r) == CXEval_Int;
      const bool too_large = whole && clang().EvalResult_isUnsignedInt(r) &&
                             clang().EvalResult_getAsUnsigned(r) >= static_cast<unsigned long long>(largest_number);
      const long long value = whole && !too_large ? clang().EvalResult_getAsLongLong(r) : largest_number;
      if (r) clang().EvalResult_dispose(r);
      if (!whole) fail(e, not_affine());
      f.constant = checked(e, value);
      return f;
    }
    case CXCursor_CStyleCastExpr: {
      // A cast to an integer type keeps the subscript when the type holds the value: c[(int)2], a[(long)i].
      const CXTypeKind to = clang().getCanonicalType(clang().getCursorType(e)).kind;
      const bool is_signed = to == CXType_Int || to == CXType_Long || to == CXType_LongLong;
      const bool is_unsigned = to == CXType_UInt || to == CXType_ULong || to == CXType_ULongLong;
      if (!is_signed && !is_unsigned)
        fail(e, "'" + snippet(e) + "': a cast to '" + text_of(clang().getTypeSpelling(clang().getCursorType(e))) +
                    "' in a subscript (a cast to int, long or their unsigned types only)");
      f = affine(children(e).back(), depth + 1);
      const bool narrow = to == CXType_Int || to == CXType_UInt;
      const std::int64_t least = is_unsigned ? 0 : narrow ? std::numeric_limits<std::int32_t>::min() : -largest_number;
      const std::int64_t most = narrow ? (is_unsigned ? std::numeric_limits<std::uint32_t>::max() : std::numeric_limits<std::int32_t>::max())
                                       : largest_number;
      // Over the loops, the cast must hold every value the subscript takes: (int)i of a long i that passes
      // 2^31 would wrap, and a loop over wrapped subscripts is no loop hml can model.
      const auto [low, high] = range_of(f);
      if (low < least || high > most)
        fail(e, "'" + snippet(e) + "': the cast changes " + std::to_string(low < least ? low : high) +
                    ", which its type does not hold");
      return f;
    }
    case CXCursor_DeclRefExpr: {
      for (std::size_t d = 0; d < loops_.size(); ++d) {
        if (refers_to(e, loops_[d].index)) {
          f.coefficient[d] = 1;
          return f;
        }
      }
      const std::string name = text_of(clang().getCursorSpelling(e));
      fail(e, "'" + name + "' is neither a loop index nor a constant: give its value with -D " + name + "=VALUE");
    }
    case CXCursor_UnaryOperator: {
      const CXUnaryOperatorKind op = clang().getCursorUnaryOperatorKind(e);
      if (op != CXUnaryOperator_Minus && op != CXUnaryOperator_Plus) fail(e, not_affine());
      f = affine(children(e).front(), depth + 1);
      if (op == CXUnaryOperator_Minus) {
        for (std::int64_t& c : f.coefficient) c = -c;
        f.constant = -f.constant;
        check_held(e, f);
      }
      return f;
    }
    case CXCursor_BinaryOperator: {
      const CXBinaryOperatorKind op = clang().getCursorBinaryOperatorKind(e);
      const std::vector<CXCursor> sides = children(e);
      if (sides.size() != 2) fail(e, not_affine());
      const affine_form a = affine(sides[0], depth + 1);
      const affine_form b = affine(sides[1], depth + 1);
      const auto combine = [&](auto op2) {
        for (std::size_t d = 0; d < max_loop_dimensions; ++d) f.coefficient[d] = checked(e, op2(a.coefficient[d], b.coefficient[d]));
        f.constant = checked(e, op2(a.constant, b.constant));
      };
      switch (op) {
        case CXBinaryOperator_Add:
          combine([](__int128 x, __int128 y) { return x + y; });
          check_held(e, f);
          return f;
        case CXBinaryOperator_Sub:
          combine([](__int128 x, __int128 y) { return x - y; });
          check_held(e, f);
          return f;
        case CXBinaryOperator_Mul: {
          if (!a.is_constant() && !b.is_constant()) fail(e, not_affine());
          const affine_form& factor = a.is_constant() ? a : b;
          const affine_form& other = a.is_constant() ? b : a;
          for (std::size_t d = 0; d < max_loop_dimensions; ++d)
            f.coefficient[d] = checked(e, __int128{other.coefficient[d]} * factor.constant);
          f.constant = checked(e, __int128{other.constant} * factor.constant);
          check_held(e, f);
          return f;
        }
        case CXBinaryOperator_Div:
          if (!a.is_constant() || !b.is_constant() || b.constant == 0) fail(e, not_affine());
          f.constant = a.constant / b.constant;  // C's integer division, towards zero
          return f;
        default:
          fail(e, not_affine());
      }
    }
    default:
      fail(e, not_affine());
  }
}

}  // namespace hml::c_reader
