#include <cstddef>
#include <functional>
#include <limits>
#include <string>
#include <string_view>
#include <type_traits>
#include <CLI/CLI.hpp>

#include "model.hpp"

namespace hml_cli {

void add_model_options(CLI::App& command, model_options& o, bool axes) {
  // A model parameter: a quantity, or for `sweep` an axis of them (shown as SIZE|AXIS in --help).
  const auto parameter = [&](const std::string& name, std::string& target, const std::string& help,
                             const std::string& type) {
    return command.add_option(name, target, help + (axes ? " (or an axis)" : ""))
        ->type_name(axes ? type + "|AXIS" : type);
  };
  parameter("--size", o.size, "bytes the kernel streams", "SIZE")->capture_default_str();
  auto* bandwidth = parameter("--bandwidth", o.bandwidth, "memory bandwidth", "RATE")->capture_default_str();
  parameter("--ops-per-byte", o.ops_per_byte, "FLOP per byte (arithmetic intensity)", "FLOP/B")->capture_default_str();
  parameter("--latency", o.latency, "memory latency: paid once, and per line in random access", "TIME")
      ->capture_default_str();
  parameter("--peak", o.peak, "peak compute rate of the core", "RATE")->capture_default_str();
  auto* hit_rate = parameter("--hit-rate", o.hit_rate,
                             "share of the bytes the fast tier serves, in [0, 1]: a two-tier memory", "RATIO");
  auto* fast = parameter("--fast", o.fast, "fast tier bandwidth (with --hit-rate)", "RATE");
  auto* slow = parameter("--slow", o.slow, "slow tier bandwidth (with --hit-rate)", "RATE");
  hit_rate->needs(fast, slow)->excludes(bandwidth);
  fast->needs(hit_rate);
  slow->needs(hit_rate);
  command.add_option("--pattern", o.pattern, "access pattern")
      ->check(CLI::IsMember({"sequential", "random"}))
      ->capture_default_str();
  o.random_only = {
      command.add_option("--element", o.element, "element size of random access")->type_name("SIZE")->capture_default_str(),
      command.add_option("--line", o.line, "cache line of random access")->type_name("SIZE")->capture_default_str(),
      command.add_option("--outstanding", o.outstanding,
                         "requests in flight in random access, on average (Little's law: 1.5 is taken)")
          ->transform(bounded_by(hml::validate_outstanding))
          ->type_name("NUMBER")
          ->capture_default_str()};
  command.add_option("--overlap", o.overlap, "none: total = memory + compute (the toy lab); full: the larger")
      ->check(CLI::IsMember({"none", "full"}))
      ->capture_default_str();
}

namespace {

template <class T>
hml::sampled_axis<T> read(std::string_view option, const std::string& text, bool axes) {
  if (axes) return axis_of<T>(option, text);
  if constexpr (std::is_same_v<T, double>) {
    hml::sampled_axis<double> one = axis_of<double>(option, text);
    if (one.size() != 1 || text.find(':') != std::string::npos) {
      throw input_error(std::string{option} + ": a list or a range where one number is taken; give one number (axes are for `hml sweep`)");
    }
    return one;
  } else {
    return {{quantity_of<T>(option, text)}};
  }
}

// Every value of the axis through the library's check of that parameter.
template <class T>
void check_each(std::string_view option, const hml::sampled_axis<T>& axis, void (*check)(T)) {
  for (const T& value : axis.samples) check_option(option, [&] { check(value); });
}

}  // namespace

std::size_t model_space::points() const noexcept {
  // Saturates instead of wrapping around, so a sweep too large to count is refused, not run as empty.
  constexpr std::size_t most = std::numeric_limits<std::size_t>::max();
  std::size_t n = 1;
  const auto times = [&](std::size_t axis) { n = axis != 0 && n > most / axis ? most : n * axis; };
  for (const std::size_t axis : {size.size(), ops_per_byte.size(), latency.size(), peak.size()}) times(axis);
  if (two_tier()) {
    for (const std::size_t axis : {hit_rate.size(), fast.size(), slow.size()}) times(axis);
  } else {
    times(bandwidth.size());
  }
  return n;
}

model_space space_of(const model_options& o, bool axes) {
  model_space s;
  s.size = read<hml::data_size>("--size", o.size, axes);
  check_each("--size", s.size, hml::validate_kernel_bytes);  // each point's kernel (1e-30 B was timed at 50 ns)
  s.ops_per_byte = read<hml::arithmetic_intensity>("--ops-per-byte", o.ops_per_byte, axes);
  s.latency = read<hml::duration>("--latency", o.latency, axes);
  check_each("--latency", s.latency, hml::validate_latency);
  s.peak = read<hml::compute_rate>("--peak", o.peak, axes);
  check_each("--peak", s.peak, hml::validate_peak);
  if (o.hit_rate.empty()) {
    s.bandwidth = read<hml::data_rate>("--bandwidth", o.bandwidth, axes);
    check_each("--bandwidth", s.bandwidth, hml::validate_bandwidth);
  } else {
    s.hit_rate = read<double>("--hit-rate", o.hit_rate, axes);
    check_each("--hit-rate", s.hit_rate, hml::validate_hit_rate);
    s.fast = read<hml::data_rate>("--fast", o.fast, axes);
    check_each("--fast", s.fast, hml::validate_bandwidth);
    s.slow = read<hml::data_rate>("--slow", o.slow, axes);
    check_each("--slow", s.slow, hml::validate_bandwidth);
  }
  // A random access's values are checked before whether they apply (their defaults hold): a value told to go
  // with --pattern random, then refused there, was told one fault at a time.
  const auto element = quantity_of<hml::data_size>("--element", o.element);
  const auto line = quantity_of<hml::data_size>("--line", o.line);
  check_option("--element", [&] { hml::validate_element_size(element); });
  check_option("--line", [&] { hml::validate_line_size(line); });
  for (const CLI::Option* option : o.random_only) {
    if (option->count() > 0 && o.pattern != "random") {
      throw input_error(option->get_name() + ": only with --pattern random; give --pattern random, or leave " + option->get_name() + " out");
    }
  }
  if (o.pattern == "random") s.pattern = hml::random_access(element, line, o.outstanding);
  s.time.overlap_policy = o.overlap == "full" ? hml::overlap::full : hml::overlap::none;
  if (s.points() > max_sweep_points) {
    std::string swept;
    for (const auto& [name, points] : {std::pair{"--size", s.size.size()}, {"--bandwidth", s.bandwidth.size()},
                                       {"--hit-rate", s.hit_rate.size()}, {"--fast", s.fast.size()},
                                       {"--slow", s.slow.size()}, {"--ops-per-byte", s.ops_per_byte.size()},
                                       {"--latency", s.latency.size()}, {"--peak", s.peak.size()}}) {
      if (points > 1) swept += (swept.empty() ? "" : ", ") + std::string{name};
    }
    throw input_error(swept + ": the sweep has more than " + std::to_string(max_sweep_points) +
                      " points (the product of the axes' points); make the axes shorter");
  }
  return s;
}

void for_each_point(const model_space& s, const std::function<void(const model_point&)>& visit) {
  const auto run = [&](hml::data_size size, hml::arithmetic_intensity ops, hml::duration latency,
                       hml::compute_rate peak, const auto& memory, model_point point) {
    point.size = size;
    point.ops_per_byte = ops;
    point.latency = latency;
    point.peak = peak;
    point.result = hml::run(hml::streaming(size, ops, s.pattern), memory, hml::compute_core{peak}, s.time);
    // Each input is finite, but a ratio of extremes need not be (1e300 B at 1e-300 B/s): no such time is
    // printed, and no regime is called for it.
    if (!hml::isfinite(point.result.memory_time) || !hml::isfinite(point.result.compute_time)) {
      const bool in_memory = !hml::isfinite(point.result.memory_time);
      throw input_error(std::string{in_memory ? (s.two_tier() ? "--size, --fast, --slow" : "--size, --bandwidth")
                                           : "--size, --ops-per-byte, --peak"} +
                        ": at size " + hml::to_string(size) + " the " + (in_memory ? "memory" : "compute") +
                        " time is " + hml::to_string(in_memory ? point.result.memory_time : point.result.compute_time) +
                        ", no finite number; keep the sizes and rates within a few decades of each other");
    }
    // Nothing to move and nothing to compute has no regime (it read "balanced"); hml roofline refuses such a kernel.
    if (point.result.memory_time.value() == 0 && point.result.compute_time.value() == 0)
      throw input_error("--size, --latency: at size " + hml::to_string(size) +
                        " the run moves and computes nothing (0 s each), which has no regime; give a size above 0 B or a latency");
    visit(point);
  };
  if (s.two_tier()) {
    const auto grid = hml::grid(s.size, s.hit_rate, s.fast, s.slow, s.ops_per_byte, s.latency, s.peak);
    auto at = [&](hml::data_size size, double hit, hml::data_rate fast, hml::data_rate slow,
                  hml::arithmetic_intensity ops, hml::duration latency, hml::compute_rate peak) {
      // The hit rate is the share the faster tier serves: a "fast" tier slower than the slow one is the two
      // swapped (hml tiers refuses that order too).
      if (fast < slow)
        throw input_error("--fast, --slow: the fast tier's " + hml::to_string(fast) + " is below the slow tier's " +
                          hml::to_string(slow) + "; --hit-rate is the share the faster tier serves: swap them");
      model_point point;
      point.hit_rate = hit;
      point.fast = fast;
      point.slow = slow;
      run(size, ops, latency, peak, hml::two_tier_memory{latency, fast, slow, hit}, point);
    };
    for (std::size_t i = 0; i < grid.size(); ++i) hml::invoke_at(grid, i, at);
  } else {
    const auto grid = hml::grid(s.size, s.bandwidth, s.ops_per_byte, s.latency, s.peak);
    auto at = [&](hml::data_size size, hml::data_rate bandwidth, hml::arithmetic_intensity ops, hml::duration latency,
                  hml::compute_rate peak) {
      model_point point;
      point.bandwidth = bandwidth;
      run(size, ops, latency, peak, hml::memory{latency, bandwidth}, point);
    };
    for (std::size_t i = 0; i < grid.size(); ++i) hml::invoke_at(grid, i, at);
  }
}

}  // namespace hml_cli
