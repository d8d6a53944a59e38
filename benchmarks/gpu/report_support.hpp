// What the gpu report's parts share: the measurement files, the text of figures and errors, the catalog's
// entry of a measured GPU and the two views of it the models take.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "../prediction_error.hpp"

import hml;

namespace gpu {

// --- The measurement files ---------------------------------------------------------------------------------

// A CSV file of plain fields (no quotes: gpu_measure and layer_step.py write none), checked against the
// header it must have.
struct csv_rows {
  std::string path;
  std::vector<std::vector<std::string>> rows;
};

inline csv_rows read_csv(const std::string& folder, const std::string& name, std::string_view header) {
  csv_rows file{folder + "/" + name, {}};
  std::ifstream in{file.path};
  if (!in) throw std::runtime_error(file.path + ": cannot read");
  std::string line;
  if (!std::getline(in, line) || line != header) {
    throw std::runtime_error(file.path + ":1: expected the header '" + std::string{header} + "'");
  }
  const auto columns = static_cast<std::size_t>(std::count(header.begin(), header.end(), ',') + 1);
  for (int number = 2; std::getline(in, line); ++number) {
    std::vector<std::string> fields;
    std::stringstream split{line};
    for (std::string field; std::getline(split, field, ',');) fields.push_back(field);
    if (fields.size() != columns) {
      throw std::runtime_error(file.path + ":" + std::to_string(number) + ": expected " + std::to_string(columns) + " fields");
    }
    file.rows.push_back(std::move(fields));
  }
  return file;
}

inline double number(const std::string& field) {
  std::size_t used = 0;
  const double value = std::stod(field, &used);
  if (used != field.size() || !std::isfinite(value) || value < 0) throw std::runtime_error("not a number: '" + field + "'");
  return value;
}
inline std::uint64_t count(const std::string& field) { return static_cast<std::uint64_t>(number(field)); }

// --- Text -------------------------------------------------------------------------------------------------

inline std::string text(auto quantity) { return hml::to_string(quantity, {.number = hml::general(4)}); }

inline std::string percent(double value) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%+.1f %%", value);
  return buffer;
}

inline std::string ratio(double value) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.1f %%", value * 100.0);
  return buffer;
}

inline std::string code_block(const hml::table& t) { return "```text\n" + hml::format_table(t) + "```\n"; }

// The predictions' errors against the measurements, and their mean absolute error (hml's).
struct error_summary {
  std::vector<double> errors;  // shares: 0.25 is 25 %
  // The prediction's error in percent of the measurement (bench::error_percent), kept for the mean.
  double add(hml::duration predicted, hml::duration measured) {
    const double error_percent = bench::error_percent(predicted, measured);
    errors.push_back(error_percent / 100.0);
    return error_percent;
  }
  [[nodiscard]] std::string text() const {
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.1f %% over %zu", hml::mean_absolute_error(errors) * 100.0, errors.size());
    return buffer;
  }
};

inline hml::precision precision_of(const std::string& name) { return hml::precision_named(name).type; }

// --- The catalog's entry -------------------------------------------------------------------------------------

inline const hml::device& catalog_entry(std::string_view name) {
  if (name.find("H200") != std::string_view::npos) return hml::devices::h200;
  if (name.find("H100") != std::string_view::npos) {
    return name.find("PCIe") != std::string_view::npos ? hml::devices::h100_pcie : hml::devices::h100_sxm;
  }
  throw std::runtime_error("the catalog has no entry for '" + std::string{name} + "'");
}

// --- The machine, two ways ---------------------------------------------------------------------------------

// The machine on the datasheet's figures, and on the measurements where it publishes them (hml llm's default).
struct machine_views {
  hml::machine_description stated, measured;
  explicit machine_views(const hml::device& d)
      : stated{hml::with_figures(d, hml::basis::datasheet)},
        measured{hml::with_figures(d, hml::basis::measured_where_published)} {}
};

inline hml::inference_options options_for(hml::precision p, hml::estimate e) {
  hml::inference_options o;
  o.types = {p, p, p};
  o.estimate = e;
  return o;
}

// A BF16 step of `model` as `hml llm` times it on the GPU: the bound on the datasheet's figures, the expected
// time on the measured ones (hml llm's default).
inline hml::step_analysis bf16_step(const hml::transformer& model, const hml::step_shape& step, const machine_views& on,
                                    hml::estimate e) {
  return hml::analyze_step(model, step, e == hml::estimate::bound ? on.stated : on.measured, options_for(hml::precision::bf16, e));
}

}  // namespace gpu
