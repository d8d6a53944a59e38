// hml.loop_kernel — a kernel as a loop nest over arrays, the way kerncraft reads one from C: loop extents,
// arrays with their element size and extents, every access (read or write) with a constant offset per
// dimension (a stencil's neighbours), and FLOP per iteration by kind. hml.cache_traffic derives from it
// what moves between the caches per cache line of work; hml.ecm puts cycles on it.
//
// Limits, stated: up to three dimensions, every array indexed by every loop index plus a constant (no
// transposes, no indirection), where the innermost loop may step its array's last subscript by a constant
// stride (b[2 * i]: one stride per array), one element size per kernel (kerncraft's limit too). A written
// array can declare non-temporal stores: its lines then bypass the caches and are never read before they
// are written (no write-allocate).
module;
#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>
export module hml.loop_kernel;
export import hml.vocabulary;

export namespace hml {

inline constexpr std::size_t max_loop_dimensions = 3;
inline constexpr std::size_t max_kernel_arrays = 16;
inline constexpr std::size_t max_kernel_accesses = 64;
// The most elements an array may have: every offset and reuse distance in bytes stays well inside 64 bits.
inline constexpr double max_array_elements = 0x1p36;

// Extents and offsets are listed outermost first: {M, N} is a[M][N] in C, the last index is contiguous.
using index_vector = std::array<std::int64_t, max_loop_dimensions>;

enum class store_kind {
  normal,        // through the caches: a store first reads its line (write-allocate), then evicts it
  non_temporal,  // streaming store: no line read before it is written, the line goes straight to memory
};

struct kernel_array {
  std::string_view name{};
  std::size_t element_bytes = 8;
  // Per loop dimension, outermost first (unused trailing dimensions: 0). 0 along an outer loop the array
  // does not vary with: b[i] in a nest over j, i is {0, N}, read again in each j. The innermost loop
  // indexes every array.
  index_vector extents{};
  store_kind stores = store_kind::normal;
  // Elements the last subscript advances per iteration of the innermost loop: b[2 * i] is 2, every access
  // of the array alike (its offsets stay constants: b[2 * i + 1] is offset 1).
  std::int64_t stride = 1;
};

inline constexpr std::int64_t max_stride = 1 << 16;

enum class access_kind { read, write };

struct array_access {
  std::size_t array = 0;  // index into loop_kernel::arrays
  access_kind kind = access_kind::read;
  index_vector offset{};  // constant offset per dimension, outermost first: {-1, 0} is a[j-1][i]
};

// FLOP per iteration by kind; an FMA counts two FLOP.
struct flop_counts {
  unsigned add = 0;
  unsigned mul = 0;
  unsigned fma = 0;
  unsigned div = 0;

  [[nodiscard]] constexpr unsigned total() const noexcept { return add + mul + 2 * fma + div; }
};

struct [[gsl::Pointer]] loop_kernel {  // its names view text it does not own
  std::string_view name{};
  std::size_t dimensions = 1;
  index_vector extents{};  // iterations per loop, outermost first
  fixed_list<kernel_array, max_kernel_arrays> arrays{};
  fixed_list<array_access, max_kernel_accesses> accesses{};
  flop_counts flops{};
};

// Elements an array's subscript along dimension d advances per iteration of loop d: its stride in the
// innermost loop, 1 in the outer ones.
[[nodiscard]] constexpr std::int64_t step_along(const loop_kernel& k, std::size_t array, std::size_t d) {
  return d + 1 == k.dimensions ? k.arrays[array].stride : 1;
}

// The first index of loop d: the least at which no access reaches below element 0 of its array (0, or minus
// the most negative offset along d, in iterations of that array's step). The loop's index is shared by every
// array, so one array's offset of -1 moves every array's first element.
[[nodiscard]] constexpr std::int64_t loop_start(const loop_kernel& k, std::size_t d) {
  std::int64_t start = 0;
  for (const array_access& x : k.accesses) {
    const std::int64_t step = step_along(k, x.array, d);
    const std::int64_t needed = x.offset[d] < 0 ? (-x.offset[d] + step - 1) / step : 0;
    start = needed > start ? needed : start;
  }
  return start;
}

// The elements of an array the loop reaches along dimension d: from the loop's first index (loop_start)
// through its iterations (times the array's stride in the innermost loop), plus the array's largest offset
// (a 5-point stencil's 998 interior rows with offsets -1..1 start at 1 and reach 1000; an offset of +5000
// alone reaches 5000 past the loop's end). The loop runs where every access stays inside the array when this
// is at most the array's extent.
[[nodiscard]] constexpr std::int64_t reach(const loop_kernel& k, std::size_t array, std::size_t d) {
  std::int64_t high = 0;
  bool accessed = false;
  for (const array_access& x : k.accesses) {
    if (x.array != array) continue;
    high = accessed ? (x.offset[d] > high ? x.offset[d] : high) : x.offset[d];
    accessed = true;
  }
  const std::int64_t step = step_along(k, array, d);
  return accessed ? step * (loop_start(k, d) + k.extents[d] - 1) + 1 + high : 0;
}

// Whether the array varies with loop d (an array of lower rank does not vary with the outer loops).
[[nodiscard]] constexpr bool varies_with(const kernel_array& a, std::size_t d) { return a.extents[d] > 0; }

// The elements of an array over the kernel's dimensions (a double: 2^36 at most once validated).
[[nodiscard]] constexpr double array_elements(const loop_kernel& k, const kernel_array& a) {
  double elements = 1;
  for (std::size_t d = 0; d < k.dimensions; ++d)
    if (varies_with(a, d)) elements *= static_cast<double>(a.extents[d]);
  return elements;
}

constexpr void validate(const loop_kernel& k) {
  expects(k.dimensions >= 1 && k.dimensions <= max_loop_dimensions, "hml: a loop kernel has 1 to 3 dimensions");
  expects(!k.arrays.empty() && !k.accesses.empty(), "hml: a loop kernel needs arrays and accesses");
  for (std::size_t d = 0; d < k.dimensions; ++d) expects(k.extents[d] > 0, "hml: every loop extent must be > 0");
  const std::size_t element = k.arrays[0].element_bytes;
  for (const kernel_array& a : k.arrays) {
    expects(a.element_bytes > 0 && a.element_bytes <= 64 && a.element_bytes == element, "hml: a loop kernel has one element size");
    for (std::size_t d = 0; d < k.dimensions; ++d) expects(a.extents[d] >= 0, "hml: an array extent is >= 0");
    expects(varies_with(a, k.dimensions - 1), "hml: every array varies with the innermost loop (its extent there > 0)");
    expects(array_elements(k, a) <= max_array_elements, "hml: an array has at most 2^36 elements; give smaller sizes");
    expects(a.stride >= 1 && a.stride <= max_stride, "hml: an array's stride in the innermost loop is 1 to 65536 elements");
  }
  for (std::size_t i = 0; i < k.accesses.size(); ++i) {
    const array_access& x = k.accesses[i];
    expects(x.array < k.arrays.size(), "hml: an access names no array");
    for (std::size_t j = 0; j < i; ++j)
      expects(k.accesses[j].array != x.array || k.accesses[j].kind != x.kind || k.accesses[j].offset != x.offset,
              "hml: an access is given twice (an element read twice in an iteration is one read)");
    for (std::size_t d = 0; d < k.dimensions; ++d) {
      expects(x.offset[d] > -(1 << 16) && x.offset[d] < (1 << 16), "hml: an access offset is within +-2^16");
      expects(varies_with(k.arrays[x.array], d) || x.offset[d] == 0,
              "hml: an access has no offset along a loop its array does not vary with");
    }
  }
  for (std::size_t a = 0; a < k.arrays.size(); ++a) {
    for (std::size_t d = 0; d < k.dimensions; ++d) {
      if (!varies_with(k.arrays[a], d)) continue;
      expects(reach(k, a, d) <= k.arrays[a].extents[d],
              "hml: a loop overruns an array: from its first index, its iterations and offsets exceed the array's extent");
    }
  }
}

[[nodiscard]] constexpr std::size_t element_bytes(const loop_kernel& k) { return k.arrays[0].element_bytes; }

// An access's offset from the array's current element, in elements of the row-major array.
[[nodiscard]] constexpr std::int64_t linear_offset(const loop_kernel& k, const array_access& x) {
  const kernel_array& a = k.arrays[x.array];
  std::int64_t stride = 1;
  std::int64_t offset = 0;
  for (std::size_t d = k.dimensions; d-- > 0;) {
    if (!varies_with(a, d)) continue;
    offset += x.offset[d] * stride;
    stride *= a.extents[d];
  }
  return offset;
}

[[nodiscard]] constexpr data_size array_size(const loop_kernel& k, const kernel_array& a) {
  return array_elements(k, a) * static_cast<double>(a.element_bytes) * byte;
}

[[nodiscard]] constexpr data_size total_array_size(const loop_kernel& k) {
  data_size sum{};
  for (const kernel_array& a : k.arrays) sum += array_size(k, a);
  return sum;
}

[[nodiscard]] constexpr double iterations(const loop_kernel& k) {
  double n = 1;
  for (std::size_t d = 0; d < k.dimensions; ++d) n *= static_cast<double>(k.extents[d]);
  return n;
}

// Does the array receive a write / a read at all?
[[nodiscard]] constexpr bool is_written(const loop_kernel& k, std::size_t array) {
  for (const array_access& x : k.accesses)
    if (x.array == array && x.kind == access_kind::write) return true;
  return false;
}
[[nodiscard]] constexpr bool is_read(const loop_kernel& k, std::size_t array) {
  for (const array_access& x : k.accesses)
    if (x.array == array && x.kind == access_kind::read) return true;
  return false;
}

// Read and write streams in the likwid-bench sense (an array read and written at one place is an update).
struct stream_counts {
  unsigned reads = 0;
  unsigned writes = 0;
};
[[nodiscard]] constexpr stream_counts streams(const loop_kernel& k) {
  stream_counts s{};
  for (std::size_t a = 0; a < k.arrays.size(); ++a) {
    if (is_read(k, a)) ++s.reads;
    if (is_written(k, a)) ++s.writes;
  }
  return s;
}

// Whether every array the kernel writes is written with non-temporal stores (none is written: false).
[[nodiscard]] constexpr bool writes_non_temporal(const loop_kernel& k) {
  bool any = false;
  for (std::size_t a = 0; a < k.arrays.size(); ++a) {
    if (!is_written(k, a)) continue;
    if (k.arrays[a].stores != store_kind::non_temporal) return false;
    any = true;
  }
  return any;
}

// --- The kernels people ask about, in double precision over n elements (or rows x columns) -------------

namespace kernels {

[[nodiscard]] constexpr kernel_array vector(std::string_view name, std::int64_t n,
                                            store_kind stores = store_kind::normal) {
  return {.name = name, .element_bytes = 8, .extents = {n, 0, 0}, .stores = stores};
}

// b[i] = a[i]; with non-temporal stores as glibc's memmove makes them for large copies.
[[nodiscard]] constexpr loop_kernel copy(std::int64_t n, store_kind stores = store_kind::normal) {
  return {.name = stores == store_kind::normal ? "copy" : "copy (non-temporal stores)",
          .dimensions = 1,
          .extents = {n, 0, 0},
          .arrays = {vector("a", n), vector("b", n, stores)},
          .accesses = {{0, access_kind::read, {}}, {1, access_kind::write, {}}},
          .flops = {}};
}

// a[i] = b[i] + s * c[i] (STREAM's triad): two loads, one store.
[[nodiscard]] constexpr loop_kernel stream_triad(std::int64_t n, store_kind stores = store_kind::normal) {
  return {.name = "STREAM triad",
          .dimensions = 1,
          .extents = {n, 0, 0},
          .arrays = {vector("a", n, stores), vector("b", n), vector("c", n)},
          .accesses = {{1, access_kind::read, {}}, {2, access_kind::read, {}}, {0, access_kind::write, {}}},
          .flops = {.fma = 1}};
}

// a[i] = b[i] + c[i] (STREAM's add): two loads, one store.
[[nodiscard]] constexpr loop_kernel vector_add(std::int64_t n) {
  return {.name = "vector add",
          .dimensions = 1,
          .extents = {n, 0, 0},
          .arrays = {vector("a", n), vector("b", n), vector("c", n)},
          .accesses = {{1, access_kind::read, {}}, {2, access_kind::read, {}}, {0, access_kind::write, {}}},
          .flops = {.add = 1}};
}

// a[i] = b[i] + c[i] * d[i] (Schönauer's vector triad, likwid-bench's and kerncraft's "triad"): three loads,
// one store.
[[nodiscard]] constexpr loop_kernel schoenauer_triad(std::int64_t n, store_kind stores = store_kind::normal) {
  return {.name = "Schoenauer triad",
          .dimensions = 1,
          .extents = {n, 0, 0},
          .arrays = {vector("a", n, stores), vector("b", n), vector("c", n), vector("d", n)},
          .accesses = {{1, access_kind::read, {}},
                       {2, access_kind::read, {}},
                       {3, access_kind::read, {}},
                       {0, access_kind::write, {}}},
          .flops = {.fma = 1}};
}

// s += a[i] * b[i]: two loads, no store.
[[nodiscard]] constexpr loop_kernel scalar_product(std::int64_t n) {
  return {.name = "scalar product",
          .dimensions = 1,
          .extents = {n, 0, 0},
          .arrays = {vector("a", n), vector("b", n)},
          .accesses = {{0, access_kind::read, {}}, {1, access_kind::read, {}}},
          .flops = {.fma = 1}};
}

// a[i] = s * a[i]: one load and one store of the same line (no write-allocate of its own).
[[nodiscard]] constexpr loop_kernel update(std::int64_t n) {
  return {.name = "update",
          .dimensions = 1,
          .extents = {n, 0, 0},
          .arrays = {vector("a", n)},
          .accesses = {{0, access_kind::read, {}}, {0, access_kind::write, {}}},
          .flops = {.mul = 1}};
}

// b[j][i] = (a[j][i-1] + a[j][i+1] + a[j-1][i] + a[j+1][i]) * s over rows x columns (kerncraft's 2d-5pt.c):
// four loads of a, one store of b, three additions and one multiplication.
[[nodiscard]] constexpr loop_kernel stencil2d5(std::int64_t rows, std::int64_t columns) {
  const kernel_array a{.name = "a", .element_bytes = 8, .extents = {rows, columns, 0}};
  const kernel_array b{.name = "b", .element_bytes = 8, .extents = {rows, columns, 0}};
  return {.name = "2D 5-point stencil",
          .dimensions = 2,
          .extents = {rows - 2, columns - 2, 0},
          .arrays = {a, b},
          .accesses = {{0, access_kind::read, {0, -1, 0}},
                       {0, access_kind::read, {0, 1, 0}},
                       {0, access_kind::read, {-1, 0, 0}},
                       {0, access_kind::read, {1, 0, 0}},
                       {1, access_kind::write, {0, 0, 0}}},
          .flops = {.add = 3, .mul = 1}};
}

}  // namespace kernels

}  // namespace hml
