// hml.workload — what a kernel does, independent of any machine: the FLOP it performs and the bytes it
// moves, with its access pattern and the traffic that pattern causes.
module;
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string_view>
export module hml.workload;
export import hml.units;

// Kernel names are string_view literals: from a plain "..." the length is counted a character at a time
// during constant evaluation, a cost every point of a compile-time sweep would pay.
using namespace std::string_view_literals;

export namespace hml {

// How a kernel touches memory. Sequential access uses every byte of each line it pulls. Random access to
// elements of `element` bytes pulls whole lines of `line` bytes, so it moves line/element times the bytes,
// and each line costs a full latency: with `outstanding` requests in flight, Little's law caps the rate
// at outstanding x line / latency. Latency that is not hidden adds up.
enum class access_order { sequential, random };

struct access_pattern {
  access_order order = access_order::sequential;
  data_size element = 1 * byte;
  data_size line = 64 * byte;
  double outstanding = 1.0;
};

inline constexpr access_pattern sequential_access{};

[[nodiscard]] constexpr access_pattern random_access(data_size element, data_size line = 64 * byte,
                                                     double outstanding = 1.0) noexcept {
  return {access_order::random, element, line, outstanding};
}

// An element is what one random access asks for: a whole number of bytes (a trial's 1e-30 B made 10^30 s),
// larger than a line where it spans several.
constexpr void validate_element_size(data_size element) {
  const double bytes = element.value();
  constexpr double every_double_whole = 9007199254740992.0;  // 2^53
  expects(bytes >= 1 && bytes <= largest_finite &&
              (bytes >= every_double_whole || bytes == static_cast<double>(static_cast<std::int64_t>(bytes))),
          "hml: an access element is a whole number of bytes, at least 1 B; give one, as 8 B");
}
// A line is what one memory access moves: a whole number of bytes, at most a page (GPUs' sectors are 32 B,
// CPUs' lines 64 or 128 B; a trial's 1e-30 B made a negative time).
constexpr void validate_line_size(data_size line) {
  const double bytes = line.value();
  expects(bytes >= 1 && bytes <= 4096 && bytes == static_cast<double>(static_cast<int>(bytes)),
          "hml: a cache line is a whole number of bytes from 1 B to 4 KiB; give one, as 64 B");
}
constexpr void validate_outstanding(double requests) {
  expects(requests >= 1.0 && requests < 1e12, "hml: outstanding requests must be within [1, 1e12); give how many are in flight at once, as 10");
}

constexpr void validate(const access_pattern& p) {
  expects(p.order == access_order::sequential || p.order == access_order::random, "hml: an access order is sequential or random");
  validate_element_size(p.element);
  validate_line_size(p.line);
  validate_outstanding(p.outstanding);
}

}  // namespace hml

export namespace hml::detail {

// Bytes the memory really moves to deliver `useful` bytes in this pattern (unchecked: for models that
// validated the pattern once, up front).
[[nodiscard]] constexpr data_size traffic_unchecked(data_size useful, const access_pattern& p) noexcept {
  if (p.order == access_order::sequential) return useful;
  const auto ceil = [](double ratio) {
    if (ratio >= 0x1p52) return ratio;  // a double this large is a whole number already (and past a long long)
    const auto whole = static_cast<double>(static_cast<long long>(ratio));
    return whole == ratio ? ratio : whole + 1.0;
  };
  // Each access reads a whole element (9 B of 8 B elements are 2 accesses, not 1.125), and each element
  // touches ceil(element / line) whole lines.
  return ceil(useful / p.element) * ceil(p.element / p.line) * p.line;
}

}  // namespace hml::detail

export namespace hml {

// Bytes the memory really moves to deliver `useful` bytes in this pattern.
[[nodiscard]] constexpr data_size traffic(data_size useful, const access_pattern& p) {
  validate(p);
  return detail::traffic_unchecked(useful, p);
}

struct [[gsl::Pointer]] kernel {  // its name views text it does not own
  std::string_view name;
  work flops;
  data_size bytes;  // bytes the kernel needs from memory
  access_pattern pattern = sequential_access;
};

// Less than a byte moves as none or as a whole line, not as the part. A total past one need not be whole: a
// kernel's bytes may be a mean over runs, or of 4-bit elements (1.5 B is three of them).
constexpr void validate_kernel_bytes(data_size bytes) {
  expects(bytes.value() >= 0 && bytes.value() <= largest_finite, "hml: a kernel's bytes must be finite and >= 0");
  expects(bytes.value() == 0 || bytes.value() >= 1,
          "hml: a kernel moves 0 B or at least 1 B in all (less than a byte moves as none or as a whole line); give 0 B or at least 1 B");
}

constexpr void validate(const kernel& k) {
  const double flops = k.flops.value();
  expects(flops >= 0 && flops <= largest_finite, "hml: a kernel's FLOP must be finite and >= 0");
  validate_kernel_bytes(k.bytes);
  validate(k.pattern);
}

// FLOP per byte of memory traffic; infinite for a kernel that moves no bytes (seed 002's convention).
[[nodiscard]] constexpr arithmetic_intensity intensity(const kernel& k) {
  validate(k);
  const data_size moved = traffic(k.bytes, k.pattern);
  if (moved.value() == 0) return arithmetic_intensity::from_value(std::numeric_limits<double>::infinity());
  return k.flops / moved;
}

// The seed lab's streaming kernel: read `size` bytes once and do `ops_per_byte` operations on each.
[[nodiscard]] constexpr kernel streaming(data_size size, arithmetic_intensity ops_per_byte,
                                         access_pattern pattern = sequential_access) {
  return {"streaming"sv, size * ops_per_byte, size, pattern};
}

template <class Element>
inline constexpr data_size element_size = sizeof(Element) * byte;

}  // namespace hml

export namespace hml::detail {

// A kernel's counts are multiplied as doubles: exact up to 2^53 (one rounding past it, as the 64-bit count
// converted had), where 64-bit integers wrapped past 2^64 to a plausible figure (a trial's matmul of
// n = 3,000,000 had a third of its 5.4e19 FLOP, and n = 2^21 none).
[[nodiscard]] constexpr double count(std::uint64_t n) noexcept { return static_cast<double>(n); }

}  // namespace hml::detail

export namespace hml {

// c[i] = a[i] + b[i]: one FLOP, two reads and one write per element.
template <class Element>
[[nodiscard]] constexpr kernel vector_add(std::uint64_t n) {
  return {"vector add"sv, n * flop, 3 * detail::count(n) * element_size<Element>};
}

// b[i] = a[i]: no FLOP, one read and one write.
template <class Element>
[[nodiscard]] constexpr kernel copy(std::uint64_t n) {
  return {"copy"sv, 0 * flop, 2 * detail::count(n) * element_size<Element>};
}

// a[i] = s (likwid-bench's "store"): no FLOP, one write. hml.probe measures L1's store rate with it.
template <class Element>
[[nodiscard]] constexpr kernel store(std::uint64_t n) {
  return {"store"sv, 0 * flop, detail::count(n) * element_size<Element>};
}

// a[i] = b[i] + s * c[i] (STREAM triad): two FLOP, two reads and one write.
template <class Element>
[[nodiscard]] constexpr kernel triad(std::uint64_t n) {
  return {"triad"sv, 2 * detail::count(n) * flop, 3 * detail::count(n) * element_size<Element>};
}

// a[i] = b[i] + c[i] * d[i] (Schönauer's vector triad; likwid-bench's "triad"): two FLOP, three reads and
// one write. hml.probe measures the machine's bandwidth with it; `triad` above is STREAM's.
template <class Element>
[[nodiscard]] constexpr kernel schoenauer_triad(std::uint64_t n) {
  return {"Schoenauer triad", 2 * detail::count(n) * flop, 4 * detail::count(n) * element_size<Element>};
}

// sum of n elements: n - 1 additions, one read each.
template <class Element>
[[nodiscard]] constexpr kernel reduction(std::uint64_t n) {
  return {"reduction"sv, (n == 0 ? 0 : n - 1) * flop, detail::count(n) * element_size<Element>};
}

// C = A B for n x n matrices with ideal caching: every element of A and B is read once and C written
// once, so 2n^3 FLOP over 3n^2 elements; intensity n/6 FLOP/B in float32.
template <class Element>
[[nodiscard]] constexpr kernel matmul(std::uint64_t n) {
  const double e = detail::count(n);
  return {"matmul"sv, 2 * e * e * e * flop, 3 * e * e * element_size<Element>};
}

// The textbook triple loop without cache reuse: each of the n^2 dot products reads a row of A and a column
// of B from memory (2n elements) and writes one element of C.
template <class Element>
[[nodiscard]] constexpr kernel naive_matmul(std::uint64_t n) {
  const double e = detail::count(n);
  return {"naive matmul"sv, 2 * e * e * e * flop, (2 * e * e * e + e * e) * element_size<Element>};
}

// Blocked matmul with tile x tile blocks held in fast memory: each of the (n/tile)^3 block products loads
// one tile of A and one of B, and C is read and written once: 2n^3/tile + 2n^2 elements. The intensity
// grows with the tile: about tile / sizeof(Element) FLOP/B when n is much larger than the tile.
template <class Element>
[[nodiscard]] constexpr kernel tiled_matmul(std::uint64_t n, std::uint64_t tile) {
  expects(tile >= 1 && tile <= n && n % tile == 0, "hml: the tile must divide the matrix size");
  const double e = detail::count(n), blocks = detail::count(n / tile), t = detail::count(tile);
  const double loads = 2 * blocks * blocks * blocks * t * t;
  return {"tiled matmul"sv, 2 * e * e * e * flop, (loads + 2 * e * e) * element_size<Element>};
}

// Fast memory a tiled matmul needs: one tile each of A, B and C.
template <class Element>
[[nodiscard]] constexpr data_size tile_footprint(std::uint64_t tile) {
  return 3 * detail::count(tile) * detail::count(tile) * element_size<Element>;
}

// The largest tile (a power of two dividing n) whose footprint fits in `capacity`; 0 if none does.
template <class Element>
[[nodiscard]] constexpr std::uint64_t largest_tile(std::uint64_t n, data_size capacity) {
  std::uint64_t best = 0;
  for (std::uint64_t tile = 1; tile <= n; tile *= 2) {
    if (n % tile == 0 && tile_footprint<Element>(tile) <= capacity) best = tile;
    if (tile > n / 2) break;  // doubled past n, or past 2^63 to 0
  }
  return best;
}

// Seed 004's per-packet normalization of `packets` rows of `length` values: mean (L FLOP), variance (3L),
// standard deviation (1), normalize (2L): 6L + 1 FLOP per packet; the input read once, the output written once.
template <class Element>
[[nodiscard]] constexpr kernel normalization(std::uint64_t packets, std::uint64_t length) {
  const double p = detail::count(packets), l = detail::count(length);
  return {"normalization"sv, p * (6 * l + 1) * flop, 2 * p * l * element_size<Element>};
}

// A star stencil of radius 1 on an n^dims grid: 2 x dims neighbours plus the centre, one multiply-add
// each (2 FLOP), read once and written once with ideal caching.
template <class Element>
[[nodiscard]] constexpr kernel stencil(std::uint64_t n, unsigned dims) {
  expects(dims == 2 || dims == 3, "hml: stencils are 2D or 3D");
  const double e = detail::count(n), points = dims == 2 ? e * e : e * e * e;
  const double taps = 2 * dims + 1;
  return {dims == 2 ? "2D stencil"sv : "3D stencil"sv, 2 * taps * points * flop, 2 * points * element_size<Element>};
}

}  // namespace hml
