// hml.report:file — output files that appear whole or not at all: the content goes to a temporary file
// in the target's directory (so the rename stays on one file system), which is then renamed over the
// target; a reader never sees a half-written file, and a failure leaves nothing behind.
module;
#include <atomic>
#include <cerrno>
#include <cstddef>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>
export module hml.report:file;

namespace hml::detail::file {

// All of `content` to the open descriptor `fd`, then to the disk (fsync), or the reason it failed.
inline std::string write_all(int fd, std::string_view content) {
  while (!content.empty()) {
    const ::ssize_t written = ::write(fd, content.data(), content.size());
    if (written < 0) {
      if (errno == EINTR) continue;
      return std::strerror(errno);
    }
    content.remove_prefix(static_cast<std::size_t>(written));
  }
  // Devices and pipes cannot be synced (EINVAL); that is no failure of the write.
  if (::fsync(fd) != 0 && errno != EINVAL && errno != EROFS) return std::strerror(errno);
  return {};
}

}  // namespace hml::detail::file

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


// Writes `content` to `path` so that a reader sees the old file or the whole new one, never a part: a
// temporary file beside the target, synced, then renamed over it (keeping the target's permissions). A
// symbolic link is followed, so the file it points to is replaced, not the link; a target that is not a
// regular file (/dev/null, a FIFO) is written in place, as there is nothing to replace.
inline void write_file_atomically(const std::filesystem::path& path, std::string_view content) {
  namespace fs = std::filesystem;
  if (path.empty()) throw file_write_error{path, "the path is empty"};
  std::error_code error;
  fs::path target = fs::weakly_canonical(path, error);
  if (error) target = path;
  const fs::file_status status = fs::status(target, error);
  if (fs::is_directory(status)) throw file_write_error{path, "it is a directory"};
  if (fs::exists(status) && !fs::is_regular_file(status)) {
    const int fd = ::open(target.c_str(), O_WRONLY | O_CLOEXEC);
    if (fd < 0) throw file_write_error{path, std::strerror(errno)};
    const std::string failure = detail::file::write_all(fd, content);
    ::close(fd);
    if (!failure.empty()) throw file_write_error{path, failure};
    return;
  }

  // A short name of its own: the target's name plus a suffix could pass the file system's name limit.
  static std::atomic<unsigned> serial{0};
  const fs::path directory = target.has_parent_path() ? target.parent_path() : fs::path{"."};
  const fs::path temporary =
      directory / (".hml-" + std::to_string(::getpid()) + "-" + std::to_string(serial++) + ".tmp");
  const ::mode_t mode = fs::exists(status) ? static_cast<::mode_t>(status.permissions()) : 0666;
  const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
  if (fd < 0) throw file_write_error{path, std::strerror(errno)};
  std::string failure = detail::file::write_all(fd, content);
  if (::close(fd) != 0 && failure.empty()) failure = std::strerror(errno);
  if (failure.empty() && fs::exists(status)) {
    fs::permissions(temporary, status.permissions(), error);  // the umask narrowed `mode` at creation
  }
  if (failure.empty()) {
    fs::rename(temporary, target, error);
    if (error) failure = error.message();
  }
  if (!failure.empty()) {
    std::error_code ignored;
    fs::remove(temporary, ignored);
    throw file_write_error{path, failure};
  }
}

}  // namespace hml
