// How far a model's time is from a measured one, for the fidelity tables of benchmarks/host and
// benchmarks/gpu (a benchmark's helper, so it is not in the library).
#pragma once

import hml;

namespace bench {

// In percent of the measurement: positive when the model predicts a longer time than was measured.
[[nodiscard]] constexpr double error_percent(hml::duration predicted, hml::duration measured) {
  hml::validate_measured_time(measured);
  return (predicted / measured - 1.0) * 100.0;
}

static_assert(error_percent(1.1 * hml::second, 1.0 * hml::second) > 9.999 &&
              error_percent(1.1 * hml::second, 1.0 * hml::second) < 10.001);
static_assert(error_percent(0.5 * hml::second, 1.0 * hml::second) == -50.0);

}  // namespace bench
