// The real kernels the fidelity table times: plain C++ loops as one would write them, compiled for the
// best instruction set this CPU has (target_clones: the loader picks the clone), each working on its
// share [begin, end) so that every thread of hml::time_parallel runs one part.
#pragma once
#include <algorithm>
#include <cstddef>
#include <cstring>
#include <vector>

namespace kernels {

// b -> a; the standard library's copy (glibc's memmove), as a C++ program copies.
inline void copy(double* a, const double* b, std::size_t n) { std::copy_n(b, n, a); }

// STREAM triad: a[i] = b[i] + s * c[i].
[[gnu::target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")]]
inline void triad(double* __restrict a, const double* __restrict b, const double* __restrict c, double s,
                  std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) a[i] = b[i] + s * c[i];
}

// c[i] = a[i] + b[i].
[[gnu::target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")]]
inline void vector_add(double* __restrict c, const double* __restrict a, const double* __restrict b,
                       std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) c[i] = a[i] + b[i];
}

// Rows [first, last) of C = A B, n x n row-major: the textbook i-j-k loop, a dot product per element
// with B read down a column.
[[gnu::target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")]]
inline void naive_matmul(double* __restrict c, const double* __restrict a, const double* __restrict b, std::size_t n,
                         std::size_t first, std::size_t last) {
  for (std::size_t i = first; i < last; ++i) {
    for (std::size_t j = 0; j < n; ++j) {
      double sum = 0;
      for (std::size_t k = 0; k < n; ++k) sum += a[i * n + k] * b[k * n + j];
      c[i * n + j] = sum;
    }
  }
}

namespace detail {

// Eight doubles as one value (a GCC/clang vector: one AVX-512 register, two AVX2 ones), loaded and
// stored with memcpy, which allows any alignment.
using vec8 [[gnu::vector_size(64)]] = double;

// C[rows x 8 vecs] += A[rows x depth] B[depth x 8 vecs] (row strides ldc, lda, ldb) with the whole block
// of C in local accumulators: each step of k broadcasts one element of A per row and loads the row of B
// once for all rows, so C is read and written once per call instead of once per k (which left a plain
// i-k-j loop bound by store-to-load forwarding), and rows x vecs independent FMA chains hide the latency.
template <std::size_t rows, std::size_t vecs>
[[gnu::always_inline]] inline void block_product(double* __restrict c, std::size_t ldc, const double* __restrict a,
                                                 std::size_t lda, const double* __restrict b, std::size_t ldb,
                                                 std::size_t depth) {
  vec8 acc[rows][vecs] = {};  // from zero, C added at the end: the chains do not wait for C's loads
  for (std::size_t k = 0; k < depth; ++k) {
    vec8 bk[vecs];
    for (std::size_t v = 0; v < vecs; ++v) std::memcpy(&bk[v], b + k * ldb + 8 * v, sizeof(vec8));
    for (std::size_t r = 0; r < rows; ++r) {
      const double ark = a[r * lda + k];
      for (std::size_t v = 0; v < vecs; ++v) acc[r][v] += ark * bk[v];
    }
  }
  for (std::size_t r = 0; r < rows; ++r) {
    for (std::size_t v = 0; v < vecs; ++v) {
      vec8 cv;
      std::memcpy(&cv, c + r * ldc + 8 * v, sizeof(vec8));
      cv += acc[r][v];
      std::memcpy(c + r * ldc + 8 * v, &cv, sizeof(vec8));
    }
  }
}

// A tile of C (stride n) += a packed tile of A times a packed tile of B, in register blocks of rows x
// 8 vecs (the tile a multiple of both).
template <std::size_t rows, std::size_t vecs>
[[gnu::always_inline]] inline void tile_product(double* __restrict c, std::size_t n, const double* __restrict a,
                                                const double* __restrict b, std::size_t tile) {
  for (std::size_t i = 0; i < tile; i += rows) {
    for (std::size_t j = 0; j < tile; j += 8 * vecs) {
      block_product<rows, vecs>(c + i * n + j, n, a + i * tile, tile, b + j, tile, tile);
    }
  }
}

// The register block for a tile: 16 accumulators (of 32 AVX-512 registers), as wide as the tile allows
// up to 32 columns, since a wider block loads B once for more rows; scalar for tiles under 8 columns.
[[gnu::always_inline]] inline void tile_product(double* __restrict c, std::size_t n, const double* __restrict a,
                                                const double* __restrict b, std::size_t tile) {
  if (tile % 32 == 0) return tile_product<4, 4>(c, n, a, b, tile);
  if (tile % 16 == 0) return tile_product<8, 2>(c, n, a, b, tile);
  if (tile % 8 == 0) return tile_product<8, 1>(c, n, a, b, tile);
  for (std::size_t i = 0; i < tile; ++i) {
    for (std::size_t k = 0; k < tile; ++k) {
      for (std::size_t j = 0; j < tile; ++j) c[i * n + j] += a[i * tile + k] * b[k * tile + j];
    }
  }
}

// Copies rows x cols of `from` (row stride ld) into `to`, contiguous.
inline void pack(double* __restrict to, const double* __restrict from, std::size_t ld, std::size_t rows,
                 std::size_t cols) {
  for (std::size_t r = 0; r < rows; ++r) std::copy_n(from + r * ld, cols, to + r * cols);
}

// See tiled_matmul; `panel` holds (last - first) x tile doubles, `slice` tile x n.
[[gnu::target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")]]
inline void tiled_matmul_packed(double* __restrict c, const double* __restrict a, const double* __restrict b,
                                std::size_t n, std::size_t tile, std::size_t first, std::size_t last,
                                double* __restrict panel, double* __restrict slice) {
  for (std::size_t kk = 0; kk < n; kk += tile) {
    pack(panel, a + first * n + kk, n, last - first, tile);
    for (std::size_t jj = 0; jj < n; jj += tile) pack(slice + jj * tile, b + kk * n + jj, n, tile, tile);
    for (std::size_t ii = first; ii < last; ii += tile) {
      const double* const a_tile = panel + (ii - first) * tile;
      for (std::size_t jj = 0; jj < n; jj += tile) {
        const double* const b_tile = slice + jj * tile;
        tile_product(c + ii * n + jj, n, a_tile, b_tile, tile);
      }
    }
  }
}

}  // namespace detail

// Rows [first, last) of C += A B by tiles (first, last and n multiples of the tile), three tiles in L1 at a
// time: a tile of A, one of B and the C tile they update. For each tile-wide slice of k, this thread's rows
// of A and the slice's rows of B are first copied so that every tile is contiguous: rows of A and B are n
// doubles apart, a power of two, so read in place a tile's rows all fall into the same few cache sets.
// Inside a tile, C is register-blocked, 4 rows x 32 columns where the tile allows (detail::tile_product).
inline void tiled_matmul(double* c, const double* a, const double* b, std::size_t n, std::size_t tile,
                         std::size_t first, std::size_t last) {
  std::vector<double> panel((last - first) * tile), slice(tile * n);
  detail::tiled_matmul_packed(c, a, b, n, tile, first, last, panel.data(), slice.data());
}

}  // namespace kernels
