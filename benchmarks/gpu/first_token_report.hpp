// The gpu report's part on a first token from a CUDA graph (first_token.py): a whole Llama 3 8B's prefill
// replayed with nothing of the host in it, a minimal request around it, and the GPU's time by kind of kernel,
// against the operator model of `hml llm`.
#pragma once

#include <string>

#include "report_support.hpp"

namespace gpu {

// The Markdown subsection of the first tokens measured in `folder` (first_token.csv, first_token_kernels.csv),
// on the machine's views `on`; empty where the folder holds none.
[[nodiscard]] std::string first_token_report(const std::string& folder, const machine_views& on);

}  // namespace gpu
