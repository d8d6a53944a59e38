// The gpu report's last part: a whole model's steps issued eagerly from Python (eager_step.py), the host's
// issue time and the GPU's busy time beside the step's, against hml's step model.
#pragma once

#include <string>

#include "report_support.hpp"

namespace gpu {

// The Markdown subsection of the eager runs measured in `folder` (eager-1.csv, eager-2.csv, ...: one file a
// run of eager_step.py), on the machine's views `on`; empty where the folder holds none.
[[nodiscard]] std::string eager_report(const std::string& folder, const machine_views& on);

}  // namespace gpu
