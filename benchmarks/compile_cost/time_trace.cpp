#include "time_trace.hpp"

#include <algorithm>
#include <fstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace compile_cost {

namespace {

using interval = std::pair<double, double>;  // begin and end, in microseconds

double union_length(std::vector<interval> intervals) {
  std::ranges::sort(intervals);
  double total = 0;
  double begin = 0;
  double end = -1;
  for (const auto& [b, e] : intervals) {
    if (b > end) {
      total += end > begin ? end - begin : 0;
      begin = b;
    }
    end = std::max(end, e);
  }
  return total + (end > begin ? end - begin : 0);
}

hml::duration microseconds(double us) { return us * hml::microsecond; }

}  // namespace

time_trace_breakdown read_time_trace(const std::filesystem::path& trace, const std::filesystem::path& project) {
  std::ifstream in{trace};
  const nlohmann::json document = nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false);
  if (!document.is_object() || !document.contains("traceEvents")) {
    throw std::runtime_error("'" + trace.string() + "' is not a clang -ftime-trace file");
  }
  std::string project_prefix = project.lexically_normal().string();
  if (!project_prefix.ends_with('/')) project_prefix += '/';  // /work/main is not /work/main-x
  std::vector<interval> frontend, headers, evaluation, instantiation, loading;
  const nlohmann::json& events = document["traceEvents"];
  for (std::size_t i = 0; i < events.size(); ++i) {
    const nlohmann::json& e = events[i];
    const std::string name = e.value("name", "");
    const std::string phase = e.value("ph", "");
    if (name == "Source" && phase == "b") {
      // A header's parse is an async begin/end pair, written one after the other.
      if (i + 1 == events.size() || events[i + 1].value("ph", "") != "e") continue;
      const std::string file = e["args"].value("detail", "");
      if (!file.starts_with(project_prefix)) {
        headers.emplace_back(e.value("ts", 0.0), events[i + 1].value("ts", 0.0));
      }
      continue;
    }
    if (phase != "X" || name.starts_with("Total ")) continue;
    const double begin = e.value("ts", 0.0);
    const interval span{begin, begin + e.value("dur", 0.0)};
    if (name == "Frontend") frontend.push_back(span);
    if (name.starts_with("Evaluate")) evaluation.push_back(span);
    if (name.starts_with("Instantiate")) instantiation.push_back(span);
    if (name == "Module Load" || name == "Read Loaded AST") loading.push_back(span);
  }
  if (frontend.empty()) throw std::runtime_error("'" + trace.string() + "' has no Frontend event");
  return {microseconds(union_length(std::move(frontend))), microseconds(union_length(std::move(headers))),
          microseconds(union_length(std::move(evaluation))), microseconds(union_length(std::move(instantiation))),
          microseconds(union_length(std::move(loading)))};
}

}  // namespace compile_cost
