// The second half of the gpu report: attention kernels, kernel launches and a whole model's steps measured
// on a GPU (attention.py and model_step.py), against hml's operator and step models.
#pragma once

#include <string>

#include "report_support.hpp"

import hml;

namespace gpu {

// The Markdown subsections of the attention kernels, the launches and the whole model measured in `folder`
// (attention.csv, launch.csv, model.csv), on the catalog's entry `d` and its two views `on`. Throws where the
// catalog's attention rate is no longer what the measurements give.
[[nodiscard]] std::string attention_and_model_report(const std::string& folder, const hml::device& d,
                                                     const machine_views& on);

}  // namespace gpu
