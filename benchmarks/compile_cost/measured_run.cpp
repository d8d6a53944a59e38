#include <cerrno>
#include <chrono>
#include <cstring>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "measured_run.hpp"

import hml;

namespace compile_cost {

namespace {

[[noreturn]] void run_in_child(const compile_command& c, const std::filesystem::path& log) {
  const int out = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (out < 0 || ::chdir(c.directory.c_str()) != 0) ::_exit(127);
  ::dup2(out, STDOUT_FILENO);
  ::dup2(out, STDERR_FILENO);
  ::execl("/bin/sh", "sh", "-c", c.command.c_str(), static_cast<char*>(nullptr));
  ::_exit(127);
}

std::string read_file(const std::filesystem::path& path) {
  std::ifstream in{path};
  return {std::istreambuf_iterator<char>{in}, std::istreambuf_iterator<char>{}};
}

}  // namespace

measured_run run_measured(const compile_command& c, const std::filesystem::path& log) {
  const auto start = std::chrono::steady_clock::now();
  const pid_t child = ::fork();
  if (child < 0) throw std::runtime_error(std::string{"cannot start a process: "} + std::strerror(errno));
  if (child == 0) run_in_child(c, log);
  int status = 0;
  rusage usage{};
  // The child's rusage covers the processes it waited for too (the shell's compiler and its cc1).
  while (::wait4(child, &status, 0, &usage) < 0) {
    if (errno != EINTR) throw std::runtime_error(std::string{"waiting for the compiler failed: "} + std::strerror(errno));
  }
  const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start;
  return {.succeeded = WIFEXITED(status) && WEXITSTATUS(status) == 0,
          .wall_time = elapsed.count() * hml::second,
          .peak_memory = static_cast<double>(usage.ru_maxrss) * hml::kibibyte,  // Linux counts in KiB
          .output = read_file(log)};
}

}  // namespace compile_cost
