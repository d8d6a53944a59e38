// libFuzzer target: hml::read_measured_runs_csv on arbitrary bytes. Either runs come back, each with counts
// in their ranges, at least one measured figure, every figure finite and > 0, text fields printable UTF-8 and
// a line inside the text, or hml::kernels_csv_error ("line N: ..."); anything else is a finding. The seed
// corpus holds valid files, so mutations start from the real format.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

import hml;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text{reinterpret_cast<const char*>(data), size};
  std::vector<hml::measured_run> runs;
  try {
    runs = hml::read_measured_runs_csv(text);
  } catch (const hml::kernels_csv_error& e) {
    if (e.line() == 0 || !std::string_view{e.what()}.starts_with("line ")) std::abort();
    return 0;
  }
  const auto line_ends = std::count(text.begin(), text.end(), '\n') + std::count(text.begin(), text.end(), '\r');
  const auto lines = static_cast<std::size_t>(line_ends) + 1;
  if (runs.empty() || runs.size() > hml::max_measured_runs) std::abort();
  for (const hml::measured_run& r : runs) {
    const bool counts = r.tp >= 1 && r.tp <= 4096 && r.batch >= 1 && r.prompt >= 1 && r.generate >= 1 &&
                        r.generate <= 1'000'000 && r.line >= 2 && r.line <= lines;
    const bool figures = std::any_of(r.measured.begin(), r.measured.end(), [](const std::optional<double>& f) {
      return f.has_value();
    }) && std::all_of(r.measured.begin(), r.measured.end(), [](const std::optional<double>& f) {
      return !f || (std::isfinite(*f) && *f > 0);
    });
    const bool text_fields = !r.model.empty() && !r.machine.empty() && !r.system.empty() && !r.source.empty() &&
                             hml::is_printable_utf8(r.model) && hml::is_printable_utf8(r.source) &&
                             hml::is_printable_utf8(r.link);
    if (!counts || !figures || !text_fields) std::abort();
    if (r.figure(hml::serving_metric::time_per_output_token) && r.generate < 2) std::abort();
    if ((r.requests && *r.requests < 1) || (r.max_tokens && (!r.requests || *r.max_tokens < 1))) std::abort();
  }
  return 0;
}
