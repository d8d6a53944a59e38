// The real kernels the fidelity table times: plain C++ loops as one would write them, compiled for the
// best instruction set this CPU has (target_clones: the loader picks the clone), each working on its
// share [begin, end) so that every thread of hml::time_parallel runs one part.
#pragma once
#include <algorithm>
#include <cstddef>

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

// Rows [first, last) of C += A B in tile x tile blocks (first, last and n multiples of the tile): each
// block product reuses a tile of A and one of B from cache; the inner loop runs along rows of B and C,
// so it vectorises.
[[gnu::target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")]]
inline void tiled_matmul(double* __restrict c, const double* __restrict a, const double* __restrict b, std::size_t n,
                         std::size_t tile, std::size_t first, std::size_t last) {
  for (std::size_t ii = first; ii < last; ii += tile) {
    for (std::size_t kk = 0; kk < n; kk += tile) {
      for (std::size_t jj = 0; jj < n; jj += tile) {
        for (std::size_t i = ii; i < ii + tile; ++i) {
          for (std::size_t k = kk; k < kk + tile; ++k) {
            const double aik = a[i * n + k];
            for (std::size_t j = jj; j < jj + tile; ++j) c[i * n + j] += aik * b[k * n + j];
          }
        }
      }
    }
  }
}

}  // namespace kernels
