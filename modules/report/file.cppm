// hml.report:file — output files that appear whole or not at all: the content goes to a temporary file
// in the target's directory (so the rename stays on one file system), which is then renamed over the
// target; a reader never sees a half-written file, and a failure leaves nothing behind.
module;
#include <atomic>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>

#include <unistd.h>
export module hml.report:file;

export namespace hml {

// Thrown when an output file cannot be written; the message names the path and the reason.
class file_write_error : public std::runtime_error {
public:
  file_write_error(const std::filesystem::path& path, const std::string& reason)
      : std::runtime_error("hml: cannot write '" + path.string() + "': " + reason), path_{path} {}
  [[nodiscard]] const std::filesystem::path& path() const noexcept { return path_; }

private:
  std::filesystem::path path_;
};

inline void write_file_atomically(const std::filesystem::path& path, std::string_view content) {
  namespace fs = std::filesystem;
  static std::atomic<unsigned> serial{0};
  const fs::path directory = path.has_parent_path() ? path.parent_path() : fs::path{"."};
  const fs::path temporary = directory / ("." + path.filename().string() + ".tmp-" + std::to_string(::getpid()) +
                                          "-" + std::to_string(serial++));
  std::error_code ignored;
  {
    std::ofstream out{temporary, std::ios::binary | std::ios::trunc};
    if (!out) throw file_write_error{path, std::strerror(errno)};
    out.write(content.data(), static_cast<std::streamsize>(content.size()));
    out.close();
    if (!out) {
      fs::remove(temporary, ignored);
      throw file_write_error{path, "writing the temporary file failed"};
    }
  }
  std::error_code error;
  fs::rename(temporary, path, error);
  if (error) {
    fs::remove(temporary, ignored);
    throw file_write_error{path, error.message()};
  }
}

}  // namespace hml
