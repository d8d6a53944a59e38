// hml.serving_comparison — a serving prediction beside a measurement of the same run: which figure a
// measurement is (time to first token, time per output token, end-to-end latency, output throughput, as
// hml::serving_figures defines each), the predicted value of that figure, the relative error and the mean
// absolute percentage error of a set of them. `hml llm --compare` and docs/explanation/llm-measured-runs.md
// are built on it.
module;
#include <cstdint>
#include <limits>
#include <span>
#include <string_view>
export module hml.serving_comparison;
export import hml.transformer;

export namespace hml {

enum class serving_metric : std::uint8_t { time_to_first_token, time_per_output_token, end_to_end_latency, output_throughput };

inline constexpr serving_metric serving_metrics[] = {serving_metric::time_to_first_token, serving_metric::time_per_output_token,
                                                     serving_metric::end_to_end_latency, serving_metric::output_throughput};

// The short names serving benchmarks print.
[[nodiscard]] constexpr std::string_view to_string(serving_metric m) noexcept {
  switch (m) {
    case serving_metric::time_to_first_token: return "TTFT";
    case serving_metric::time_per_output_token: return "TPOT";
    case serving_metric::end_to_end_latency: return "end-to-end";
    case serving_metric::output_throughput: return "output tokens/s";
  }
  return "?";
}

// The name of the metric's column in a measured-runs CSV, and of its keys in JSON.
[[nodiscard]] constexpr std::string_view field_name(serving_metric m) noexcept {
  switch (m) {
    case serving_metric::time_to_first_token: return "ttft";
    case serving_metric::time_per_output_token: return "tpot";
    case serving_metric::end_to_end_latency: return "e2e";
    case serving_metric::output_throughput: return "output_tokens_per_s";
  }
  return "?";
}

// Times are in seconds, the throughput in output tokens a second (every token the batch produced).
[[nodiscard]] constexpr bool is_time(serving_metric m) noexcept { return m != serving_metric::output_throughput; }

// The figure `m` of a prediction, in the base unit of the metric (s, or tokens/s).
[[nodiscard]] constexpr double figure_of(const serving_figures& s, serving_metric m) noexcept {
  switch (m) {
    case serving_metric::time_to_first_token: return s.time_to_first_token.value.value();
    case serving_metric::time_per_output_token: return s.time_per_output_token.value.value();
    case serving_metric::end_to_end_latency: return s.end_to_end.value.value();
    case serving_metric::output_throughput: return s.output_throughput.per_second;
  }
  return 0;
}

// A measured figure must be a positive, finite number: the error is relative to it.
constexpr void validate_measured_figure(double measured) {
  expects(measured > 0 && measured <= std::numeric_limits<double>::max(), "hml: a measured figure must be finite and > 0; give the figure measured");
}

// predicted / measured - 1: +0.25 is a prediction 25 % above the measurement (a time too long, or a
// throughput too high), -0.25 one 25 % below.
[[nodiscard]] constexpr double relative_error(double predicted, double measured) {
  validate_measured_figure(measured);
  expects(predicted >= 0 && predicted <= std::numeric_limits<double>::max(), "hml: a predicted figure must be finite and >= 0");
  const double error = predicted / measured - 1;
  expects(error <= std::numeric_limits<double>::max(), "hml: the relative error overflows a double: the measured figure is far too small");
  return error;
}

// The mean of |error| over a set of relative errors (MAPE, as a share: 0.25 is 25 %); 0 for none.
[[nodiscard]] constexpr double mean_absolute_error(std::span<const double> errors) {
  double sum = 0;
  for (const double e : errors) {
    expects(e - e == 0, "hml: a relative error must be finite (relative_error's)");
    sum += e < 0 ? -e : e;
  }
  expects(sum <= std::numeric_limits<double>::max(), "hml: the errors' sum overflows a double");
  return errors.empty() ? 0.0 : sum / static_cast<double>(errors.size());
}

}  // namespace hml
