// The subcommands of `hml`. Adding one is a cli/<name>.cpp that defines add_<name>_command, declared and
// listed here (cli/CMakeLists.txt globs the sources).
#pragma once
#include <CLI/CLI.hpp>

namespace hml_cli {

void add_lab_command(CLI::App& hml);
void add_sweep_command(CLI::App& hml);
void add_roofline_command(CLI::App& hml);
void add_analyze_command(CLI::App& hml);
void add_devices_command(CLI::App& hml);
void add_chart_command(CLI::App& hml);
void add_probe_command(CLI::App& hml);
void add_tiers_command(CLI::App& hml);
void add_offload_command(CLI::App& hml);
void add_ecm_command(CLI::App& hml);
void add_llm_command(CLI::App& hml);

inline constexpr void (*all_commands[])(CLI::App&) = {add_lab_command,     add_sweep_command,   add_roofline_command,
                                                      add_analyze_command, add_devices_command, add_chart_command,
                                                      add_probe_command,   add_tiers_command,   add_offload_command,
                                                      add_ecm_command,     add_llm_command};

}  // namespace hml_cli
