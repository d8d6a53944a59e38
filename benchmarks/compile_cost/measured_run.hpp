// Runs a command and measures it the way `/usr/bin/time -v` would: wall-clock time and the peak resident
// memory of the process and everything it ran (wait4's rusage), so no extra tool has to be installed.
#pragma once
#include <string>

#include "compile_command.hpp"

import hml;

namespace compile_cost {

struct measured_run {
  bool succeeded = false;   // exited with status 0
  hml::duration wall_time;  // from start to exit
  hml::data_size peak_memory;
  std::string output;  // what the command wrote to stdout and stderr
};

// Runs `c.command` with /bin/sh in `c.directory`; its output goes through the file `log`.
[[nodiscard]] measured_run run_measured(const compile_command& c, const std::filesystem::path& log);

}  // namespace compile_cost
