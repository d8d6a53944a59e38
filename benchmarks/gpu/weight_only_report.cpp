// Weight-only quantized products at batch 1, as gpt-fast runs them (weight_only.py): each product's time,
// the rate it reads its weights at (with their groups' scales and zero points) and that rate's share of the
// BF16 product's at the same shape, beside hml's operator model, whose expected time reads INT4 weights at the
// machine's INT4 weight rate: the fastest of these products in groups of 32, which the report checks.
#include "weight_only_report.hpp"

#include <algorithm>
#include <filesystem>
#include <map>
#include <string>
#include <tuple>
#include <vector>

import hml;

namespace gpu {
namespace {

struct product_run {
  std::string model, matrix, format, kernel;
  std::uint64_t n, k, group;
  hml::data_size stored;  // weights with their groups' scales and zero points
  hml::duration time;
};

// The run as `hml llm` takes it: BF16 activations, weights in the run's format and groups.
hml::inference_options options_of(const product_run& r, hml::estimate e) {
  hml::inference_options o;
  o.types = {.weights = precision_of(r.format),
             .activations = hml::precision::bf16,
             .kv_cache = hml::precision::bf16,
             .weight_group = r.group};
  o.estimate = e;
  return o;
}

// The operator `hml llm` makes of the product: one row times the weights, counted with their groups' scales.
hml::operator_cost operator_of(const product_run& r) {
  const hml::precisions types = options_of(r, hml::estimate::bound).types;
  return hml::with_group_scales(hml::linear(r.matrix, 1, r.k, r.n, types.activations, types.weights), types);
}

}  // namespace

std::string weight_only_report(const std::string& folder, const machine_views& on) {
  if (!std::filesystem::exists(folder + "/weight_only.csv")) return {};
  const char* header = "model,matrix,m,n,k,format,group,kernel,weight_bytes,scale_bytes,copies,seconds,relative_error,torch";
  std::vector<product_run> runs;
  std::string torch;
  for (const auto& r : read_csv(folder, "weight_only.csv", header).rows) {
    if (count(r[2]) != 1) throw std::runtime_error(folder + "/weight_only.csv: a product of one token is expected");
    runs.push_back({r[0], r[1], r[5], r[7], count(r[3]), count(r[4]), count(r[6]),
                    (number(r[8]) + number(r[9])) * hml::byte, number(r[11]) * hml::second});
    torch = r[13];
  }
  std::map<std::tuple<std::string, std::string>, hml::data_rate> bf16_rate;  // (model, matrix)
  hml::data_rate fastest_int4{};  // tinygemm's in groups of 32: the catalog's INT4 weight rate
  for (const product_run& r : runs) {
    if (r.format == "bf16") bf16_rate[{r.model, r.matrix}] = r.stored / r.time;
    if (r.kernel == "tinygemm" && r.group == 32) fastest_int4 = std::max(fastest_int4, r.stored / r.time);
  }
  // The catalog's rate must still be what these products give (to the digits shown).
  const hml::figure<hml::data_rate>& catalog_rate = on.measured.int4_weight_rate;
  if (!catalog_rate.published() || text(catalog_rate.value) != text(fastest_int4)) {
    throw std::runtime_error(folder + "/weight_only.csv: the fastest INT4 product in groups of 32 reads at " +
                             text(fastest_int4) + "; the catalog's INT4 weight rate is " +
                             (catalog_rate.published() ? text(catalog_rate.value) : std::string{"not published"}));
  }
  hml::table t{{"model", "matrix", "n x k", "weights", "kernel", "measured", "reads at", "of BF16's", "bound, stated",
                "error", "expected (hml llm)", "error"},
               {}};
  std::map<std::string, error_summary> errors;  // by format and kernel
  for (const product_run& r : runs) {
    // PyTorch's own INT8 kernel reads at a tenth of the bandwidth and serves no engine: in the file, not here.
    if (r.kernel == "_weight_int8pack_mm") continue;
    const hml::operator_cost op = operator_of(r);
    const hml::duration bound = hml::time_on(op, on.stated, options_of(r, hml::estimate::bound)).time;
    const hml::duration expected = hml::time_on(op, on.measured, options_of(r, hml::estimate::expected)).time;
    const std::string format = r.format + (r.group > 0 ? " g" + std::to_string(r.group) : "");
    const double bound_error = errors[format + ", " + r.kernel + ", bound"].add(bound, r.time);
    const double expected_error = errors[format + ", " + r.kernel + ", expected"].add(expected, r.time);
    const hml::data_rate rate = r.stored / r.time;
    t.add_row({r.model, r.matrix, std::to_string(r.n) + " x " + std::to_string(r.k), format, r.kernel, text(r.time), text(rate),
               ratio(rate / bf16_rate.at({r.model, r.matrix})), text(bound), percent(bound_error), text(expected),
               percent(expected_error)});
  }
  std::string verdict = "**Mean absolute error of the weight-only products, hml's expected time:";
  for (const auto& [name, e] : errors) {
    if (name.ends_with("expected")) verdict += " " + name.substr(0, name.size() - 10) + " " + e.text() + ";";
  }
  verdict.back() = '.';
  return "#### Weight-only quantized products of one token (PyTorch " + torch + ")\n\n" + code_block(t) + "\n" + verdict +
         "**\n";
}

}  // namespace gpu
