// Drives the built `hml` program from a test, as a user's shell would: one harness for every CLI suite
// (cli_test, cli_messages_test, hetero_cli_test, ecm_cli_test, llm_cli_test), so that what "one clear
// line and exit status 2" means is checked the same way everywhere.
#pragma once
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include <sys/wait.h>
#include <unistd.h>

namespace hml_test {

namespace fs = std::filesystem;

// Whether the programs under test are built with AddressSanitizer (as the tests are): it reserves terabytes
// of address space for its shadow memory, so `ulimit -v` stops any run, and it reads /proc/self/maps as a
// program starts, so none runs without /proc.
#if defined(__SANITIZE_ADDRESS__)
inline constexpr bool address_sanitized = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
inline constexpr bool address_sanitized = true;
#else
inline constexpr bool address_sanitized = false;
#endif
#else
inline constexpr bool address_sanitized = false;
#endif

// `text` with the first `from` replaced by `to`: a good file made bad in one place (a failure where it has no
// `from`).
inline std::string replaced(std::string text, std::string_view from, std::string_view to) {
  const std::size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  return at == std::string::npos ? text : text.replace(at, from.size(), to);
}

inline std::string read_file(const fs::path& p) {
  std::ifstream in{p, std::ios::binary};
  std::ostringstream content;
  content << in.rdbuf();
  return content.str();
}

// A fresh directory for one test (named after it, so parallel tests never share one), removed afterwards.
struct scratch_directory {
  fs::path path;
  explicit scratch_directory(std::string_view purpose = "files")
      : path{fs::temp_directory_path() /
             ("hml-cli-test-" + std::to_string(::getpid()) + "-" +
              ::testing::UnitTest::GetInstance()->current_test_info()->name() + "-" + std::string{purpose})} {
    fs::create_directories(path);
  }
  scratch_directory(const scratch_directory&) = delete;
  scratch_directory& operator=(const scratch_directory&) = delete;
  ~scratch_directory() { fs::remove_all(path); }
  [[nodiscard]] fs::path file(std::string_view name, std::string_view content) const {
    std::ofstream{path / name, std::ios::binary} << content;
    return path / name;
  }
};

// What one run of `hml` did: its exit status, standard output and standard error.
struct outcome {
  int status = -1;
  std::string out;
  std::string err;
};

inline std::string shell_quoted(std::string_view arg) {
  std::string quoted = "'";
  for (char c : arg) quoted += c == '\'' ? std::string{"'\\''"} : std::string(1, c);
  return quoted + "'";
}

#ifdef HML_CLI
// Runs `hml args...` with standard input from `input` (a file path, or empty for /dev/null).
inline outcome hml_run(const std::vector<std::string>& args, const std::string& input = {}) {
  const scratch_directory io{"io"};
  std::string command = shell_quoted(HML_CLI);
  for (const std::string& arg : args) command += " " + shell_quoted(arg);
  command += " <" + shell_quoted(input.empty() ? "/dev/null" : input) + " >" +
             shell_quoted((io.path / "out").string()) + " 2>" + shell_quoted((io.path / "err").string());
  const int raw = std::system(command.c_str());
  return {WIFEXITED(raw) ? WEXITSTATUS(raw) : -1, read_file(io.path / "out"), read_file(io.path / "err")};
}
#endif

// A usage or input error: status 2, one line on stderr that starts "hml: error: " and contains `needle`,
// nothing on stdout.
inline void expect_input_error(const outcome& o, std::string_view needle) {
  EXPECT_EQ(o.status, 2) << o.err;
  EXPECT_TRUE(o.out.empty()) << o.out;
  EXPECT_TRUE(o.err.starts_with("hml: error: ")) << o.err;
  EXPECT_EQ(std::count(o.err.begin(), o.err.end(), '\n'), 1) << o.err;
  EXPECT_NE(o.err.find(needle), std::string::npos) << "missing \"" << needle << "\" in: " << o.err;
}

}  // namespace hml_test
