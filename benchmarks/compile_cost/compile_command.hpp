// The exact command CMake compiles a translation unit with, read from compile_commands.json, so that a
// measurement re-runs what the build runs (module map included) rather than a hand-written approximation.
#pragma once
#include <filesystem>
#include <string>
#include <string_view>

namespace compile_cost {

struct compile_command {
  std::filesystem::path directory;  // where the command runs; its paths are relative to it
  std::string command;              // a shell command line
};

// The command that builds `object` (an absolute path, as CMake's "output" field has it). Throws
// std::runtime_error naming the database and the object when there is none.
[[nodiscard]] compile_command find_compile_command(const std::filesystem::path& database,
                                                   const std::filesystem::path& object);

// The same command writing its object file to `object` instead (the build's own stays untouched).
[[nodiscard]] compile_command writing_to(compile_command c, const std::filesystem::path& object);

// The same command with `flags` appended (e.g. "-DHML_GRID_SIDE=100 -fconstexpr-steps=8388608").
[[nodiscard]] compile_command with_flags(compile_command c, std::string_view flags);

}  // namespace compile_cost
