// A scratch directory for the files a benchmark program makes (compiled objects, logs, programs built from
// kernels in C), named by a prefix and the process, and removed with everything in it on the way out.
#pragma once
#include <filesystem>
#include <string>
#include <string_view>
#include <system_error>

#include <unistd.h>

namespace bench {

class scratch_directory {
public:
  // "hml-compile-cost" makes /tmp/hml-compile-cost-<pid>.
  explicit scratch_directory(std::string_view prefix)
      : path_{std::filesystem::temp_directory_path() / (std::string{prefix} + "-" + std::to_string(::getpid()))} {
    std::filesystem::create_directories(path_);
  }
  scratch_directory(const scratch_directory&) = delete;
  scratch_directory& operator=(const scratch_directory&) = delete;
  ~scratch_directory() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  [[nodiscard]] const std::filesystem::path& path() const noexcept { return path_; }

private:
  std::filesystem::path path_;
};

}  // namespace bench
