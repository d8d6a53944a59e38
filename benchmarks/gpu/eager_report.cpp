// A whole Llama 3 8B's steps issued eagerly from Python, run by eager_step.py several times on one machine:
// each point's step time, the host's time to issue the step and the GPU's busy time (medians over the runs),
// the longer of those two beside the step, and hml's expected time, which takes kernels as queued ahead of
// the GPU (as a CUDA graph or a serving engine's runtime issues them). The runs' spread is the host's.
#include "eager_report.hpp"

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <tuple>
#include <vector>

import hml;

namespace gpu {
namespace {

struct eager_point {
  std::vector<hml::duration> time, issue, busy;
  std::uint64_t activities = 0;
};

using point_key = std::tuple<int, std::uint64_t, std::uint64_t>;  // prefill first, then batch and tokens

hml::duration median(std::vector<hml::duration> v) {
  std::ranges::sort(v);
  const std::size_t n = v.size();
  return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2.0;
}

std::string spread(const std::vector<hml::duration>& v) {
  const auto [low, high] = std::ranges::minmax(v);
  return text(low) + " - " + text(high);
}

// The runs' files in the order of their numbers: eager-1.csv, eager-2.csv, ...
std::vector<std::string> run_files(const std::string& folder) {
  std::vector<std::string> names;
  for (int run = 1; std::filesystem::exists(folder + "/eager-" + std::to_string(run) + ".csv"); ++run) {
    names.push_back("eager-" + std::to_string(run) + ".csv");
  }
  return names;
}

}  // namespace

std::string eager_report(const std::string& folder, const machine_views& on) {
  const std::vector<std::string> files = run_files(folder);
  if (files.empty()) return {};
  std::map<point_key, eager_point> points;
  std::string torch;
  for (const std::string& name : files) {
    const char* header = "model,phase,batch,tokens,seconds,issue_seconds,gpu_seconds,gpu_activities,torch";
    for (const auto& r : read_csv(folder, name, header).rows) {
      if (r[0] != "llama-3-8b") throw std::runtime_error(folder + "/" + name + ": no model '" + r[0] + "' here");
      eager_point& p = points[{r[1] == "prefill" ? 0 : 1, count(r[2]), count(r[3])}];
      p.time.push_back(number(r[4]) * hml::second);
      p.issue.push_back(number(r[5]) * hml::second);
      p.busy.push_back(number(r[6]) * hml::second);
      p.activities = count(r[7]);
      torch = r[8];
    }
  }
  hml::table t{{"step", "batch", "tokens", "measured", "runs from - to", "host issue", "GPU busy", "kernels, copies", "longer of the two",
                "error", "expected (hml llm)", "error", "against GPU busy"},
               {}};
  error_summary longer_errors, expected_errors, busy_errors;
  for (const auto& [key, p] : points) {
    const auto [phase, batch, tokens] = key;
    const hml::step_shape step = phase == 0 ? hml::prefill_step(batch, tokens) : hml::decode_step(batch, tokens);
    const hml::duration measured = median(p.time), issue = median(p.issue), busy = median(p.busy);
    const hml::duration longer = std::max(issue, busy);
    const hml::duration expected = bf16_step(hml::models::llama_3_8b, step, on, hml::estimate::expected).time.value;
    const double longer_error = longer_errors.add(longer, measured), expected_error = expected_errors.add(expected, measured);
    const double busy_error = busy_errors.add(expected, busy);
    t.add_row({phase == 0 ? "prefill" : "decode", static_cast<double>(batch), static_cast<double>(tokens), text(measured),
               spread(p.time), text(issue), text(busy), static_cast<double>(p.activities), text(longer),
               percent(longer_error), text(expected), percent(expected_error), percent(busy_error)});
  }
  std::vector<hml::duration> issues;
  for (const auto& [key, p] : points) issues.insert(issues.end(), p.issue.begin(), p.issue.end());
  return "#### A whole Llama 3 8B issued eagerly from Python (PyTorch " + torch + ", " + std::to_string(files.size()) +
         " runs)\n\n" + code_block(t) + "\n**Mean absolute error of the eager steps: the longer of the host's issue time and "
         "the GPU's busy time " + longer_errors.text() + "; hml's expected time, kernels queued ahead of the GPU, " +
         expected_errors.text() + ", and against the GPU's busy time alone " + busy_errors.text() + ". The host took " +
         spread(issues) + " to issue one step.**\n";
}

}  // namespace gpu
