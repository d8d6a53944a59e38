// A first token as a serving engine's graph gives it: first_token.py's prefill of a whole Llama 3 8B replayed
// from a CUDA graph, beside hml's expected time and bound, and what a request adds around it (its prompt in,
// its token out). Then where the GPU's time goes, by kind of kernel (matrix products, attention, the rest:
// norms, rotary, copies, element-wise), beside the operators of hml that do that work.
#include "first_token_report.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <filesystem>
#include <map>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

import hml;

namespace gpu {
namespace {

// The kinds first_token.py sorts the profiler's kernels into, in the order the table shows them.
constexpr std::array<std::string_view, 3> kinds{"matrix product", "attention", "other"};

// The kind of kernel an operator of hml runs as: attention, a matrix product (its GEMM shape), or the rest.
std::string_view kind_of(const hml::operator_time& t) {
  if (t.op.name.starts_with("attention")) return "attention";
  return t.op.gemm.count > 0 ? "matrix product" : "other";
}

struct kind_time {
  std::uint64_t kernels = 0;
  hml::duration time{};
};

using point = std::pair<std::uint64_t, std::uint64_t>;  // batch, tokens

hml::step_analysis expected_prefill(point p, const machine_views& on, hml::estimate e) {
  return bf16_step(hml::models::llama_3_8b, hml::prefill_step(p.first, p.second), on, e);
}

std::string by_kind_table(const std::string& folder, const machine_views& on) {
  std::map<point, std::map<std::string, kind_time>> measured;
  for (const auto& r : read_csv(folder, "first_token_kernels.csv", "model,batch,tokens,kind,kernels,seconds,torch").rows) {
    measured[{count(r[1]), count(r[2])}][r[3]] = {count(r[4]), number(r[5]) * hml::second};
  }
  hml::table t{{"batch", "tokens", "kernels of", "measured", "kernels", "expected (hml llm)", "kernels", "error"}, {}};
  for (const auto& [p, by_kind] : measured) {
    std::map<std::string_view, kind_time> predicted;
    for (const hml::operator_time& op : expected_prefill(p, on, hml::estimate::expected).operators) {
      kind_time& k = predicted[kind_of(op)];
      k.kernels += static_cast<std::uint64_t>(op.op.repeats);
      k.time += op.time;
    }
    for (const std::string_view kind : kinds) {
      const auto found = by_kind.find(std::string{kind});
      if (found == by_kind.end()) throw std::runtime_error(folder + "/first_token_kernels.csv: no " + std::string{kind} + " row");
      const kind_time& m = found->second;
      const kind_time& e = predicted[kind];
      t.add_row({static_cast<double>(p.first), static_cast<double>(p.second), std::string{kind}, text(m.time),
                 static_cast<double>(m.kernels), text(e.time), static_cast<double>(e.kernels),
                 percent(bench::error_percent(e.time, m.time))});
    }
  }
  return code_block(t);
}

}  // namespace

std::string first_token_report(const std::string& folder, const machine_views& on) {
  if (!std::filesystem::exists(folder + "/first_token.csv")) return {};
  hml::table t{{"batch", "tokens", "graph", "eager", "a request", "its cost", "expected (hml llm)", "error", "bound (hml llm)", "error"}, {}};
  error_summary expected_errors, bound_errors;
  std::vector<hml::duration> request_costs;
  std::string torch;
  const char* header = "model,batch,tokens,graph_seconds,eager_seconds,request_seconds,torch";
  for (const auto& r : read_csv(folder, "first_token.csv", header).rows) {
    if (r[0] != "llama-3-8b") throw std::runtime_error(folder + "/first_token.csv: no model '" + r[0] + "' here");
    const point p{count(r[1]), count(r[2])};
    const hml::duration graph = number(r[3]) * hml::second, eager = number(r[4]) * hml::second;
    const hml::duration request = number(r[5]) * hml::second;
    const hml::duration expected = expected_prefill(p, on, hml::estimate::expected).time.value;
    const hml::duration bound = expected_prefill(p, on, hml::estimate::bound).time.value;
    request_costs.push_back(request - graph);
    torch = r[6];
    t.add_row({static_cast<double>(p.first), static_cast<double>(p.second), text(graph), text(eager), text(request),
               text(request - graph), text(expected), percent(expected_errors.add(expected, graph)), text(bound),
               percent(bound_errors.add(bound, graph))});
  }
  const auto [least, most] = std::ranges::minmax(request_costs);
  return "#### A first token from a CUDA graph (PyTorch " + torch + ", BF16, random weights)\n\n"
         "The prefill and its sample replayed from a graph; a request copies its prompt in, replays and reads its "
         "token back (the host's clock); its cost is what it takes beyond the graph.\n\n" +
         code_block(t) + "\nThe graph's kernels by kind (one replay under torch.profiler), beside hml's operators of that kind.\n\n" +
         by_kind_table(folder, on) + "\n**Mean absolute error of the first token from a graph: expected " +
         expected_errors.text() + ", bound " + bound_errors.text() + "; a request around it took " + text(least) + " to " +
         text(most) + " more.**\n";
}

}  // namespace gpu
