// hml.report:lab_text — the seed lab's printed blocks, as constexpr text:
//   === Low bandwidth ===            === Poor locality ===
//   Problem size: 10 MiB             Hit rate: 0.10
//   Bandwidth: 1.0 Gbit/s            Fast BW: 500.0 Gbit/s
//   Ops per byte: 1.0                Slow BW: 10.0 Gbit/s
//   Memory time: 8.388613e-02 s      Memory time: 7.216e-03 s
//   ...                              ...
module;
#include <cstddef>
#include <string_view>
export module hml.report:lab_text;
import hml.analysis;

namespace hml::detail {

template <class Sink>
constexpr void write_text(Sink& out, std::string_view text) {
  for (char c : text) out.push_back(c);
}

// The seed's fixed format with `decimals` where it shows `x` to within 1 %, else 4 significant digits:
// the seed's own values print exactly as the seed prints them, and a user's 0.001 FLOP/B is not "0.0".
constexpr number_format seed_or_exact(double x, int decimals) {
  double scale = 1;
  for (int d = 0; d < decimals; ++d) scale *= 10;
  if (x == 0 || x * scale > 1e15) return fixed(decimals);  // 1e15: rounding is far below 1 % there
  const double rounded = static_cast<double>(static_cast<long long>(x * scale + 0.5)) / scale;  // x >= 0
  const double error = rounded > x ? rounded - x : x - rounded;
  return error <= 0.01 * x ? fixed(decimals) : general(4);
}

// "Bandwidth: 1.0 Gbit/s": the seed prints rates in Gbit/s with one decimal.
template <class Sink>
constexpr void write_gbit_per_second(Sink& out, data_rate rate) {
  format_to(out, rate, {.number = seed_or_exact(in(rate, gigabit / second), 1), .unit = "Gbit/s"});
  write_text(out, "\n");
}

}  // namespace hml::detail

export namespace hml {

// The four lines that end every seed block: memory, compute and total time in seconds, then the regime.
//   Memory time: 8.388613e-02 s / Compute time: ... / Total time: ... / Regime: memory-bound
template <class Sink>
constexpr void write_time_lines(Sink& out, const time_breakdown& t, number_format seconds) {
  detail::write_text(out, "Memory time: ");
  format_number_to(out, t.memory_time.value(), seconds);
  detail::write_text(out, " s\nCompute time: ");
  format_number_to(out, t.compute_time.value(), seconds);
  detail::write_text(out, " s\nTotal time: ");
  format_number_to(out, t.total.value(), seconds);
  detail::write_text(out, " s\nRegime: ");
  detail::write_text(out, to_string(t.limit));
  detail::write_text(out, "\n");
}

// The bandwidth sweep's block (seeds 000/001): times in %.6e seconds.
template <class Sink>
constexpr void write_bandwidth_block(Sink& out, std::string_view title, data_size problem_size, data_rate bandwidth,
                                     arithmetic_intensity ops_per_byte, const time_breakdown& result) {
  detail::write_text(out, "=== ");
  detail::write_text(out, title);
  detail::write_text(out, " ===\nProblem size: ");
  format_to(out, problem_size);
  detail::write_text(out, "\nBandwidth: ");
  detail::write_gbit_per_second(out, bandwidth);
  detail::write_text(out, "Ops per byte: ");
  format_number_to(out, in(ops_per_byte, flop_per_byte), detail::seed_or_exact(in(ops_per_byte, flop_per_byte), 1));
  detail::write_text(out, "\n");
  write_time_lines(out, result, scientific(6));
}

// The cache sweep's block (seed 000): hit rate with two decimals, times in %.3e seconds.
template <class Sink>
constexpr void write_cache_block(Sink& out, std::string_view title, const two_tier_memory& memory,
                                 const time_breakdown& result) {
  detail::write_text(out, "=== ");
  detail::write_text(out, title);
  detail::write_text(out, " ===\nHit rate: ");
  format_number_to(out, memory.hit_rate, detail::seed_or_exact(memory.hit_rate, 2));
  detail::write_text(out, "\nFast BW: ");
  detail::write_gbit_per_second(out, memory.fast);
  detail::write_text(out, "Slow BW: ");
  detail::write_gbit_per_second(out, memory.slow);
  write_time_lines(out, result, scientific(3));
}

// Line `n` (from 0) of a text, without its newline; empty past the end. For comparing printed lines.
[[nodiscard]] constexpr std::string_view line(std::string_view text, std::size_t n) noexcept {
  for (; n > 0; --n) {
    const std::size_t end = text.find('\n');
    if (end == std::string_view::npos) return {};
    text.remove_prefix(end + 1);
  }
  return text.substr(0, text.find('\n'));
}

}  // namespace hml
