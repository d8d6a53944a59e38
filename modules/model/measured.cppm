// hml.analysis:measured — a kernel that was timed, against its roofline: the rates it achieved, how close
// they come to each roof, and how far it sits below the roofline (the gap an optimisation could close).
module;
#include <string_view>
export module hml.analysis:measured;
import hml.machine;
import :time_model;
import :roofline;

export namespace hml {

struct measured_point {
  std::string_view name;
  arithmetic_intensity intensity;
  compute_rate achieved_compute;   // FLOP / time
  data_rate achieved_bandwidth;    // bytes / time
  double percent_of_peak_compute;  // achieved / compute roof x 100
  double percent_of_bandwidth;     // achieved / memory roof x 100
  regime bound;                    // what the roofline says limits the kernel
  compute_rate attainable;         // the roofline at the kernel's intensity
  double gap;                      // attainable / achieved: 1 is on the roofline
};

constexpr void validate_measured_time(duration time) {
  expects(isfinite(time) && time.value() > 0, "hml: a measured time must be finite and > 0; give the time the run took, as 660us");
}

// `k` took `time`. The bytes are those the kernel counts (k.bytes after its access pattern); a kernel that
// really moved more (re-reads the caches did not catch) shows it as a low intensity-based gap.
[[nodiscard]] constexpr measured_point analyze_measured(const kernel& k, duration time, const roof& r) {
  validate_measured_time(time);
  const roofline_point model = analyze(k, r);
  const compute_rate achieved_compute = k.flops / time;
  const data_rate achieved_bandwidth = traffic(k.bytes, k.pattern) / time;
  return {k.name,
          model.intensity,
          achieved_compute,
          achieved_bandwidth,
          achieved_compute / r.peak * 100,
          achieved_bandwidth / r.bandwidth * 100,
          model.bound,
          model.attainable,
          model.attainable / achieved_compute};
}

}  // namespace hml
