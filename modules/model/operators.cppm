// hml.operators — the operators of transformer inference as workloads: a rectangular GEMM (GEMV as n = 1,
// batched GEMM), attention for prefill (unfused and fused, FlashAttention-style) and for decode (reading the
// KV cache of the context), normalisation, element-wise ops, rotary embedding, embedding lookup. Each
// operator is its FLOP and its bytes, read and written, split by what they are (weights, KV cache,
// activations), and the compute units it runs on, so that a phase can say what a step reads and a roofline
// can place each operator on a machine. Element sizes follow hml.machine_description's precisions.
//
// Traffic conventions (each derived next to its operator): every operand crosses main memory once, as with
// ideal on-chip reuse (the lower bound a roofline takes); a GEMM's output is written once in C's precision;
// nothing is counted for on-chip traffic (registers, shared memory, L2 hits).
module;
#include <cstdint>
#include <string_view>
export module hml.operators;
export import hml.vocabulary;
export import hml.workload;

using namespace std::string_view_literals;

export namespace hml::detail {

// a / b rounded up (b > 0): the shards, tiles, waves, attention blocks and cache blocks a count fills.
// Written so that no a wraps (a + b - 1 did, from 2^64 - b + 1).
constexpr std::uint64_t ceil_div(std::uint64_t a, std::uint64_t b) noexcept { return a / b + (a % b != 0 ? 1 : 0); }

}  // namespace hml::detail

export namespace hml {

// Bits one element takes in memory in a precision (TF32 is stored in 32 bits; INT4 packs two elements a
// byte). A block-scaled format's elements carry their share of the block's scale: NVFP4 4 + 8/16 = 4.5
// bits, MXFP4 4 + 8/32 = 4.25 (NVFP4's one FP32 scale a tensor is left out: a few bytes in gigabytes).
[[nodiscard]] constexpr double bits_of(precision p) noexcept {
  switch (p) {
    case precision::fp64: return 64;
    case precision::fp32:
    case precision::tf32: return 32;
    case precision::bf16:
    case precision::fp16: return 16;
    case precision::fp8:
    case precision::int8: return 8;
    case precision::int4: return 4;
    case precision::nvfp4: return 4 + 8.0 / 16;
    case precision::mxfp4: return 4 + 8.0 / 32;
  }
  return 0;
}

// Bytes of `elements` elements stored in a precision: 10 INT4 elements are 5 bytes, 16 NVFP4 elements 9.
[[nodiscard]] constexpr data_size bytes_of(std::uint64_t elements, precision p) noexcept {
  return static_cast<double>(elements) * bits_of(p) * bit;
}

// Which of two operand precisions a GEMM computes in: the wider one, A's on a tie. Weight-only quantization
// (INT4 weights, FP16 activations) dequantizes to FP16 and runs on FP16 tensor units; W8A8 runs at INT8.
[[nodiscard]] constexpr precision compute_precision(precision a, precision b) noexcept {
  return bits_of(b) > bits_of(a) ? b : a;
}

// The units a matrix product runs on: tensor units for 16-bit and narrower types; vector units for FP32 and
// FP64 (FP32 on tensor units is TF32, a precision of its own, which a user names to get it).
[[nodiscard]] constexpr compute_kind matrix_compute(precision p) noexcept {
  return {p, bits_of(p) <= 16 ? compute_unit::tensor : compute_unit::vector};
}

// A count of tokens: a type of its own, so that a token count never passes for bytes or FLOP.
struct tokens {
  std::uint64_t count = 0;
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wc++26-extensions"  // `= delete("reason")` is C++26; clang takes it in C++20
  template <class Unit>
  operator quantity<Unit>() const = delete("hml: a count of tokens is not a quantity: multiply its count by a "
                                           "quantity per token (a KV cache's bytes per token, a time per token)");
#pragma clang diagnostic pop
  friend constexpr bool operator==(tokens, tokens) noexcept = default;
  friend constexpr auto operator<=>(tokens, tokens) noexcept = default;
};

// A matrix product as a GPU kernel tiles it: `count` independent products (a batched GEMM, the experts of a
// grouped GEMM) of `rows` x `columns` outputs each, over an inner dimension of `depth` (k; 0: not given, so
// never split), `shorter` of them a row fewer (a grouped GEMM's rows shared out unevenly). Zero rows: not a
// matrix product.
struct gemm_shape {
  std::uint64_t count = 0;
  std::uint64_t rows = 0;
  std::uint64_t columns = 0;
  std::uint64_t depth = 0;
  std::uint64_t shorter = 0;  // fewer than count
  friend constexpr bool operator==(const gemm_shape&, const gemm_shape&) = default;
};

// One operator: its FLOP and its bytes by kind. `compute` is the ceiling it runs on; `gemm` its output's
// shape where it is a matrix product (hml.transformer's expected time tiles it).
struct operator_cost {
  std::string_view name{};
  work flops{};
  data_size weights{};            // parameters read
  data_size kv_read{};            // KV cache read
  data_size kv_written{};         // KV cache written (the new tokens' keys and values)
  data_size activations_read{};   // activations (and tables such as embedding rows) read
  data_size activations_written{};
  data_size link_sent{};          // bytes this device sends over the link to the others
  double link_messages = 0;       // messages sent one after another (each pays the link's latency)
  compute_kind compute{precision::fp32, compute_unit::vector};
  double repeats = 1;             // how many times a step runs it (repeated(): once or twice per layer)
  gemm_shape gemm{};              // one run's, where it is a matrix product
  work attention_work{};          // fused prefill attention: the FLOP of the tiles a causal kernel computes

  [[nodiscard]] constexpr data_size bytes_read() const noexcept { return weights + kv_read + activations_read; }
  [[nodiscard]] constexpr data_size bytes_written() const noexcept { return kv_written + activations_written; }
  [[nodiscard]] constexpr data_size bytes() const noexcept { return bytes_read() + bytes_written(); }
  // FLOP per byte of main memory; 0 for an operator that moves none (an all-reduce: link bytes only, and no
  // FLOP), where a kernel of hml.workload without traffic has an infinite intensity.
  [[nodiscard]] constexpr arithmetic_intensity intensity() const noexcept {
    const data_size moved = bytes();
    return moved.value() > 0 ? flops / moved : arithmetic_intensity{};
  }
  // As a kernel of hml.workload: every byte moved once, sequentially.
  [[nodiscard]] constexpr kernel as_kernel() const noexcept { return {name, flops, bytes()}; }
};

// The operator repeated `times` times (the same operator in each layer): every figure scaled.
[[nodiscard]] constexpr operator_cost repeated(operator_cost op, std::uint64_t times) noexcept {
  const auto n = static_cast<double>(times);
  op.flops *= n;
  op.attention_work *= n;
  op.weights *= n;
  op.kv_read *= n;
  op.kv_written *= n;
  op.activations_read *= n;
  op.activations_written *= n;
  op.link_sent *= n;
  op.link_messages *= n;
  op.repeats *= n;
  return op;
}

// Runs of one operator as one (the same operator for two micro-batches): every figure summed; the name, the
// compute kind and one run's GEMM shape are the first's.
[[nodiscard]] constexpr operator_cost together(operator_cost a, const operator_cost& b) noexcept {
  a.flops += b.flops;
  a.attention_work += b.attention_work;
  a.weights += b.weights;
  a.kv_read += b.kv_read;
  a.kv_written += b.kv_written;
  a.activations_read += b.activations_read;
  a.activations_written += b.activations_written;
  a.link_sent += b.link_sent;
  a.link_messages += b.link_messages;
  a.repeats += b.repeats;
  return a;
}

// Element types of a GEMM's operands: C = A B, A m x k, B k x n, C m x n.
struct gemm_types {
  precision a = precision::fp16;
  precision b = precision::fp16;
  precision c = precision::fp16;
};

// `batch` independent GEMMs C = A B of m x k times k x n. FLOP: one multiply and one add per (i, j, l):
// 2 batch m n k. Bytes with each operand moved once: batch (m k |A| + k n |B| + m n |C|). A and C count as
// activations; B as activations too (attention's K and V are batched GEMMs of activations): a linear layer,
// whose B is shared weights, is `linear` below. Runs in the wider operand precision (matrix_compute says on which units).
[[nodiscard]] constexpr operator_cost gemm(std::string_view name, std::uint64_t m, std::uint64_t n, std::uint64_t k,
                                           gemm_types t = {}, std::uint64_t batch = 1) {
  expects(m > 0 && n > 0 && k > 0 && batch > 0, "hml: a GEMM needs m, n, k and batch >= 1");
  return {.name = name,
          .flops = 2.0 * static_cast<double>(batch * m) * static_cast<double>(n * k) * flop,
          .activations_read = bytes_of(batch * m * k, t.a) + bytes_of(batch * k * n, t.b),
          .activations_written = bytes_of(batch * m * n, t.c),
          .compute = matrix_compute(compute_precision(t.a, t.b)),
          .gemm = {batch, m, n, k}};
}

// A linear layer: `rows` tokens (A, rows x in) times a weight matrix (B, in x out) read once whatever the
// number of rows: 2 rows in out FLOP; rows in |A| + in out |W| read, rows out |C| written. With one row it
// is a GEMV. The weights' share of the bytes is what makes decode at small batch memory-bound.
[[nodiscard]] constexpr operator_cost linear(std::string_view name, std::uint64_t rows, std::uint64_t in,
                                             std::uint64_t out, precision activations, precision weights) {
  expects(rows > 0 && in > 0 && out > 0, "hml: a linear layer needs rows, in and out >= 1");
  return {.name = name,
          .flops = 2.0 * static_cast<double>(rows) * static_cast<double>(in * out) * flop,
          .weights = bytes_of(in * out, weights),
          .activations_read = bytes_of(rows * in, activations),
          .activations_written = bytes_of(rows * out, activations),
          .compute = matrix_compute(compute_precision(activations, weights)),
          .gemm = {1, rows, out, in}};
}

// The shape of attention: query heads, key-value heads (fewer under grouped-query attention), the dimension
// of a query's and a key's head, and of a value's (0: the same). Multi-head latent attention run absorbed
// (DeepSeek's decode) is multi-query attention whose values are the first `value_dim` elements of the
// keys: `values_in_keys`, so that the cache holds a key alone.
struct attention_shape {
  std::uint64_t heads = 1;
  std::uint64_t kv_heads = 1;
  std::uint64_t head_dim = 1;
  std::uint64_t value_dim = 0;
  bool values_in_keys = false;
};

constexpr void validate(const attention_shape& s) {
  expects(s.heads > 0 && s.kv_heads > 0 && s.head_dim > 0, "hml: attention needs heads, kv heads and head dim >= 1");
  expects(s.kv_heads <= s.heads, "hml: key-value heads are at most the attention heads (each serves one head or more); give no more key-value heads than heads");
  expects(s.heads % s.kv_heads == 0, "hml: the attention heads must be a multiple of the key-value heads; give key-value heads that divide them");
  expects(!s.values_in_keys || s.value_dim <= s.head_dim, "hml: values held in the keys are no wider than a key");
}

// A value head's dimension: value_dim where given, else the keys'.
[[nodiscard]] constexpr std::uint64_t value_dim_of(const attention_shape& s) noexcept {
  return s.value_dim > 0 ? s.value_dim : s.head_dim;
}

// FLOP of a score's two products (its q.k, 2 head_dim, and its share of P V, 2 value_dim), 4 d where the
// heads are alike.
[[nodiscard]] constexpr double product_flop_per_score(const attention_shape& s) noexcept {
  return 2.0 * static_cast<double>(s.head_dim + value_dim_of(s));
}

// Elements a token's keys and values take, in the cache and read by attention: kv (d + d_v), or kv d where the
// values are in the keys.
[[nodiscard]] constexpr std::uint64_t kv_elements_per_token(const attention_shape& s) noexcept {
  return s.kv_heads * (s.head_dim + (s.values_in_keys ? 0 : value_dim_of(s)));
}

// FLOP of softmax per score: the max, the subtraction, the exponential, the sum and the division (5).
inline constexpr double softmax_flop_per_score = 5.0;

namespace detail {

// The queries, keys and values attention reads for `tokens` tokens, and the output it writes:
// (heads d + kv (d + d_v)) and heads d_v elements a token (d_v = d: (heads + 2 kv) d and heads d).
[[nodiscard]] constexpr std::uint64_t qkv_elements(std::uint64_t tokens, const attention_shape& s) noexcept {
  return tokens * (s.heads * s.head_dim + kv_elements_per_token(s));
}
[[nodiscard]] constexpr std::uint64_t output_elements(std::uint64_t tokens, const attention_shape& s) noexcept {
  return tokens * s.heads * value_dim_of(s);
}

}  // namespace detail

// Attention over `sequence` tokens of each of `batch` sequences, every query seeing every key (no causal
// saving: a causal kernel skips up to half of the scores; calculators differ, this one counts them all).
// FLOP: QK^T and PV, 2 s^2 d each per head (2 s^2 d_v for PV where values are narrower), plus softmax on
// s^2 scores per head: batch heads (4 s^2 d + 5 s^2).
// Unfused traffic: Q, K, V read (K and V once per key-value head), the scores S = QK^T written, read by
// softmax and written again as P, P read by PV, O written:
//   batch [(heads + 2 kv) s d |act| + 4 heads s^2 |act| + heads s d |act|].
[[nodiscard]] constexpr operator_cost attention_prefill_unfused(std::uint64_t batch, std::uint64_t sequence,
                                                                attention_shape s, precision activations) {
  validate(s);
  expects(batch > 0 && sequence > 0, "hml: attention needs batch and sequence >= 1");
  const std::uint64_t scores = batch * s.heads * sequence * sequence;
  const std::uint64_t qkv = detail::qkv_elements(batch * sequence, s);
  const std::uint64_t out = detail::output_elements(batch * sequence, s);
  return {.name = "attention (unfused)"sv,
          .flops = (product_flop_per_score(s) * static_cast<double>(scores) +
                    softmax_flop_per_score * static_cast<double>(scores)) * flop,
          .activations_read = bytes_of(qkv + 2 * scores, activations),
          .activations_written = bytes_of(2 * scores + out, activations),
          .compute = matrix_compute(activations)};
}

// A FlashAttention kernel's block: the query rows one thread block holds and the keys it takes at a time
// (FlashAttention-2's forward kernels for a head of 128 take 128 queries).
inline constexpr std::uint64_t attention_block_tokens = 128;

// The FLOP of the query-key tiles a causal FlashAttention kernel computes over `sequence` tokens: per head,
// the n (n + 1) / 2 tiles of attention_block_tokens^2 scores on and below the diagonal (n blocks; the
// diagonal's tiles computed whole), at the scores' 4 d + 5 FLOP (2 d + 2 d_v + 5). About half of the scores counted in full
// (attention_prefill_unfused's convention), and a little more for short sequences.
[[nodiscard]] constexpr work causal_tile_work(std::uint64_t batch, std::uint64_t sequence, attention_shape s) noexcept {
  const std::uint64_t blocks = detail::ceil_div(sequence, attention_block_tokens);
  const std::uint64_t tiles = batch * s.heads * (blocks * (blocks + 1) / 2);
  const auto scores = static_cast<double>(tiles) * static_cast<double>(attention_block_tokens * attention_block_tokens);
  return scores * (product_flop_per_score(s) + softmax_flop_per_score) * flop;
}

// The same attention fused (FlashAttention): the scores stay on chip, so only Q, K, V are read and O is
// written, each once: batch [(heads + 2 kv) s d + heads s d] |act|. This is the kernel's lower bound; the
// real kernel re-reads K and V once per query block that does not fit on chip, which this model does not
// count (LLM-Viewer counts it from an on-chip buffer size). `attention_work` is what a causal kernel
// computes, which an expected time takes at the machine's measured attention rate.
[[nodiscard]] constexpr operator_cost attention_prefill_fused(std::uint64_t batch, std::uint64_t sequence,
                                                              attention_shape s, precision activations) {
  operator_cost op = attention_prefill_unfused(batch, sequence, s, activations);
  op.name = "attention (fused)"sv;
  op.activations_read = bytes_of(detail::qkv_elements(batch * sequence, s), activations);
  op.activations_written = bytes_of(detail::output_elements(batch * sequence, s), activations);
  op.attention_work = causal_tile_work(batch, sequence, s);
  return op;
}

// Decode: `queries` new tokens per sequence (one in plain decode; the draft's tokens and one more where a
// speculative step verifies them) attend to `context` cached tokens (the new ones included), each to all of
// them (the causal triangle among the new ones, (queries - 1) / 2 keys a token, is counted in full).
// FLOP: batch heads queries (4 context d + 5 context). Bytes: the KV cache of the context read once per
// key-value head, 2 batch kv context d |kv| (the query heads of a group and the queries share it; batch kv
// context d where the values are in the keys); the queries read and the output written, batch heads
// queries d |act| each. Runs at the activations' precision (a quantized cache is dequantized).
[[nodiscard]] constexpr operator_cost attention_decode(std::uint64_t batch, std::uint64_t context, attention_shape s,
                                                       precision activations, precision kv_cache,
                                                       std::uint64_t queries = 1) {
  validate(s);
  expects(batch > 0 && context > 0 && queries > 0 && queries <= context,
          "hml: decode attention needs batch, context and queries >= 1, and a context that holds the queries");
  const std::uint64_t scores = batch * s.heads * queries * context;
  return {.name = "attention (decode)"sv,
          .flops = (product_flop_per_score(s) * static_cast<double>(scores) +
                    softmax_flop_per_score * static_cast<double>(scores)) * flop,
          .kv_read = bytes_of(batch * context * kv_elements_per_token(s), kv_cache),
          .activations_read = bytes_of(batch * s.heads * queries * s.head_dim, activations),
          .activations_written = bytes_of(detail::output_elements(batch * queries, s), activations),
          .compute = matrix_compute(activations)};
}

// Storing the keys and values of `new_tokens` tokens in the cache: no FLOP; read from the activations,
// written to the cache, 2 tokens kv d each (tokens kv d where the values are in the keys).
[[nodiscard]] constexpr operator_cost kv_cache_store(std::uint64_t new_tokens, attention_shape s,
                                                     precision activations, precision kv_cache) {
  validate(s);
  const std::uint64_t elements = new_tokens * kv_elements_per_token(s);
  return {.name = "KV cache store"sv,
          .kv_written = bytes_of(elements, kv_cache),
          .activations_read = bytes_of(elements, activations)};
}

enum class normalization_kind { rms_norm, layer_norm };

// RMSNorm over `rows` rows of `width`: square and sum (2 per element), the scale (a few per row, not
// counted), multiply by it and by the gain (2 per element): 4 per element. LayerNorm also subtracts the
// mean (1 per element to sum, 1 to subtract) and adds a bias (1): 7 per element. Read the rows and the gain
// (and bias), write the rows. Runs on vector units in FP32 (the accumulation precision).
[[nodiscard]] constexpr operator_cost normalization_layer(std::uint64_t rows, std::uint64_t width, normalization_kind kind,
                                                    precision activations, precision weights) {
  const bool rms = kind == normalization_kind::rms_norm;
  const double per_element = rms ? 4.0 : 7.0;
  return {.name = rms ? "RMSNorm"sv : "LayerNorm"sv,
          .flops = per_element * static_cast<double>(rows * width) * flop,
          .weights = bytes_of((rms ? 1 : 2) * width, weights),
          .activations_read = bytes_of(rows * width, activations),
          .activations_written = bytes_of(rows * width, activations),
          .compute = {precision::fp32, compute_unit::vector}};
}

// An element-wise op over `elements` outputs with `inputs` inputs each and `flop_per_element` FLOP:
// a residual add is (1 FLOP, 2 inputs); SwiGLU's silu(gate) x up is (5, 2): the sigmoid's negation,
// exponential, addition and division, then the product (GELU is counted as 8: tanh form).
[[nodiscard]] constexpr operator_cost elementwise(std::string_view name, std::uint64_t elements, unsigned inputs,
                                                  double flop_per_element, precision activations) {
  return {.name = name,
          .flops = flop_per_element * static_cast<double>(elements) * flop,
          .activations_read = bytes_of(inputs * elements, activations),
          .activations_written = bytes_of(elements, activations),
          .compute = {precision::fp32, compute_unit::vector}};
}

// Rotary position embedding on the queries and keys of `rows` tokens: each pair (x0, x1) becomes
// (x0 cos - x1 sin, x0 sin + x1 cos), 6 FLOP a pair, 3 an element; the angles are computed on chip (cos and
// sin tables are not counted). Read and written in place: (heads + kv) d per token.
[[nodiscard]] constexpr operator_cost rotary(std::uint64_t rows, attention_shape s, precision activations) {
  validate(s);
  const std::uint64_t elements = rows * (s.heads + s.kv_heads) * s.head_dim;
  return {.name = "rotary"sv,
          .flops = 3.0 * static_cast<double>(elements) * flop,
          .activations_read = bytes_of(elements, activations),
          .activations_written = bytes_of(elements, activations),
          .compute = {precision::fp32, compute_unit::vector}};
}

// Looking up `rows` token ids in the embedding table: one row of `hidden` weights read per token (not the
// whole table), the same written as activations; no FLOP.
[[nodiscard]] constexpr operator_cost embedding_lookup(std::uint64_t rows, std::uint64_t hidden, precision activations,
                                                       precision weights) {
  return {.name = "embedding"sv,
          .weights = bytes_of(rows * hidden, weights),
          .activations_written = bytes_of(rows * hidden, activations)};
}

}  // namespace hml
