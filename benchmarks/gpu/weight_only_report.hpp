// The gpu report's part on weight-only quantized products (weight_only.py): one token's product with each of
// Llama 2's projections, its weights in BF16, INT8 and INT4, against the operator model of `hml llm`.
#pragma once

#include <string>

#include "report_support.hpp"

namespace gpu {

// The Markdown subsection of the products measured in `folder` (weight_only.csv), on the machine's views `on`;
// empty where the folder holds none.
[[nodiscard]] std::string weight_only_report(const std::string& folder, const machine_views& on);

}  // namespace gpu
