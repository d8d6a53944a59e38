// hml.report:file — output files that appear whole or not at all: the content goes to a temporary file
// in the target's directory (so the rename stays on one file system), which is then renamed over the
// target; a reader never sees a half-written file, and a failure leaves nothing behind. The content may
// come in pieces (atomic_file::write), so output of any size streams through a bounded buffer.
module;
#include <atomic>
#include <cerrno>
#include <charconv>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <random>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>

#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>
export module hml.report:file;
import hml.units;  // message_text: a long path in a message

namespace hml::detail::file {

// All of `content` to the open descriptor `fd`, or the reason it failed.
inline std::string write_all(int fd, std::string_view content) {
  while (!content.empty()) {
    const ::ssize_t written = ::write(fd, content.data(), content.size());
    if (written < 0) {
      if (errno == EINTR) continue;
      return std::strerror(errno);
    }
    content.remove_prefix(static_cast<std::size_t>(written));
  }
  return {};
}

// What `fd` holds, to the disk (fsync), or the reason it failed.
inline std::string sync(int fd) {
  // Devices and pipes cannot be synced (EINVAL); that is no failure of the write.
  if (::fsync(fd) != 0 && errno != EINVAL && errno != EROFS) return std::strerror(errno);
  return {};
}

// While it lives, every signal that can wait does (all but SIGKILL and SIGSTOP, which no mask holds): from an
// output's link to its rename it has a name, and a SIGTERM, SIGUSR1 or SIGALRM there left it behind.
class ending_signals_held {
public:
  ending_signals_held() {
    ::sigset_t held;
    ::sigfillset(&held);
    ::pthread_sigmask(SIG_BLOCK, &held, &before_);
  }
  ending_signals_held(const ending_signals_held&) = delete;
  ending_signals_held& operator=(const ending_signals_held&) = delete;
  ~ending_signals_held() { ::pthread_sigmask(SIG_SETMASK, &before_, nullptr); }

private:
  ::sigset_t before_{};
};

inline constexpr int no_descriptor = -1;
inline constexpr int another_process = -2;

// The descriptor N where `path`, or a link on the way to its file, is this process's /proc/PID/fd/N
// (/dev/stdout leads to /proc/self/fd/1, /dev/fd to /proc/self/fd). Another process's (a script's
// /proc/$$/fd/1) is taken as this one's standard output or error where it is the same file, as it is when
// inherited; else another_process. no_descriptor where the path is none.
inline int own_descriptor(std::filesystem::path path) {
  namespace fs = std::filesystem;
  const fs::path own = fs::path{"/proc"} / std::to_string(::getpid()) / "fd";
  std::error_code error;
  for (int hops = 0; hops < 40; ++hops) {
    const fs::path directory = fs::weakly_canonical(fs::absolute(path, error).parent_path(), error);
    const bool proc_fd = !error && directory.filename() == "fd" && directory.parent_path().parent_path() == "/proc";
    const std::string name = path.filename().string();
    int fd = -1;
    const auto [end, failure] = std::from_chars(name.data(), name.data() + name.size(), fd);
    if (proc_fd && failure == std::errc{} && end == name.data() + name.size()) {
      if (directory == own) return fd;
      struct stat target {};
      struct stat mine {};
      if (::stat(path.c_str(), &target) != 0) return another_process;
      for (const int standard : {STDOUT_FILENO, STDERR_FILENO}) {
        if (::fstat(standard, &mine) == 0 && mine.st_dev == target.st_dev && mine.st_ino == target.st_ino) return standard;
      }
      return another_process;
    }
    if (!fs::is_symlink(fs::symlink_status(path, error))) break;
    const fs::path to = fs::read_symlink(path, error);
    if (error) break;
    path = to.is_absolute() ? to : path.parent_path() / to;
  }
  return no_descriptor;
}

// The standard streams (bits 0, 1, 2) the program found closed and holds with placeholders (hold_as_closed).
inline std::atomic<unsigned> closed_standard_streams{0};

}  // namespace hml::detail::file

export namespace hml {

// A standard stream (0, 1 or 2) the shell closed (`2>&-`), which the program holds with a placeholder so that
// the next file it opens does not take the number (hml's main does): a path that names the stream
// (/dev/stderr, /dev/fd/2, /proc/self/fd/2) is then refused as closed, where it reached the placeholder
// (`-o /dev/stderr 2>&-` wrote into /dev/null with exit status 0).
inline void hold_as_closed(int standard_stream) noexcept {
  detail::file::closed_standard_streams |= 1U << static_cast<unsigned>(standard_stream);
}

[[nodiscard]] inline bool held_as_closed(int standard_stream) noexcept {
  return standard_stream >= 0 && standard_stream <= 2 &&
         (detail::file::closed_standard_streams & (1U << static_cast<unsigned>(standard_stream))) != 0;
}

// The standard stream a path names, where it is held as closed; else -1.
[[nodiscard]] inline int closed_standard_stream_named(const std::filesystem::path& path) {
  const int fd = detail::file::own_descriptor(path);
  return held_as_closed(fd) ? fd : -1;
}

[[nodiscard]] constexpr std::string_view standard_stream_name(int fd) noexcept {
  return fd == 0 ? "standard input" : fd == 1 ? "standard output" : "standard error";
}

// A path as a message shows it: one past 256 bytes shortened, for the reason and the advice to stay on the line.
[[nodiscard]] inline std::string path_shown(const std::string& path) {
  return path.size() > 256 ? message_text(path) : path;
}

// Thrown when an output file cannot be written; the message names the path and the reason.
class file_write_error : public std::runtime_error {
public:
  // A reason that says no more is followed by what is left to do: write elsewhere.
  file_write_error(const std::filesystem::path& path, const std::string& reason)
      : std::runtime_error("hml: cannot write '" + path_shown(path.string()) + "': " + reason +
                           (reason.find("; ") == std::string::npos ? "; give a path that can be written" : "")),
        path_{path} {}
  [[nodiscard]] const std::filesystem::path& path() const noexcept { return path_; }

private:
  std::filesystem::path path_;
};


// Why no file can be created in `directory` (the system's errno text alone says "No such file or directory"
// for /proc, which exists): whether the directory is missing, is not one, is read-only or not writable, or
// is a file system that holds no files of ours.
inline std::string cannot_create_in(const std::filesystem::path& directory, int error) {
  namespace fs = std::filesystem;
  const std::string where = "'" + directory.string() + "'";
  std::error_code ignored;
  const fs::file_status status = fs::status(directory, ignored);
  if (!fs::exists(status)) return "the directory " + where + " does not exist; create it, or give a path in one that does";
  if (!fs::is_directory(status)) return where + " is not a directory";
  const std::string detail = std::string{" ("} + std::strerror(error) + ")";
  switch (error) {
    case EACCES:
    case EPERM: return "the directory " + where + " is not writable" + detail;
    case EROFS: return "the directory " + where + " is on a read-only file system" + detail;
    // The directory exists, yet creating in it says ENOENT: removed while in use (the working directory of
    // a shell whose folder was deleted: no links left), or a virtual file system such as /proc or /sys.
    case ENOENT: {
      struct stat held {};
      if (::stat(directory.c_str(), &held) == 0 && held.st_nlink == 0)
        return "the directory " + where + " has been deleted (is it the working directory of a removed folder?)";
      return "cannot create a file in the directory " + where + ": its file system takes no new files (as /proc and /sys)";
    }
    case ENOSPC:
    case EDQUOT: return "no space left to create a file in " + where + detail;
    default: return "cannot create a file in the directory " + where + detail;
  }
}

// The file a write to `path` replaces: an absolute path with its symbolic links followed, the last one too
// where it leads nowhere yet (weakly_canonical stops at a link whose file does not exist, and a rename then
// replaced the link with a file), and "." and ".." resolved. Two outputs that are one file, spelt apart
// (p.json, ./p.json, a link to it) before it exists, have one.
inline std::filesystem::path written_path(std::filesystem::path path) {
  namespace fs = std::filesystem;
  std::error_code error;
  for (int hops = 0; hops < 40 && fs::is_symlink(fs::symlink_status(path, error)); ++hops) {
    const fs::path to = fs::read_symlink(path, error);
    if (error) break;
    path = to.is_absolute() ? to : path.parent_path() / to;
  }
  const fs::path canonical = fs::weakly_canonical(fs::absolute(path, error), error);
  return error ? path : canonical;
}

// An output file written piece by piece that a reader sees whole or not at all: the pieces go to a
// temporary file beside the target (so the rename stays on one file system), which commit() syncs and
// renames over the target, keeping the target's permissions. Where the system has them (Linux, O_TMPFILE),
// the temporary file has no name until commit() links it in just before the rename: a process killed
// part way (SIGKILL included) leaves nothing behind, as the system frees an unnamed file with its last
// descriptor; a new target is the file's first name, and an existing one is replaced by a rename from a
// name of its own, which it has for microseconds, with every signal that can wait held till the rename (a
// SIGKILL in those microseconds leaves the whole output beside the target, as ".hml-PID-RANDOM.tmp").
// Elsewhere it is a named ".hml-PID-RANDOM.tmp", removed on every way out the process sees. Its random part
// is its own across processes, containers (where every hml may be PID 1) and leftovers. A symbolic link is
// followed, so the file it points to is replaced, not the link; a target that is not a regular file
// (/dev/null, a FIFO) is written in place, as there is nothing to replace. A path that names one of the process's own descriptors
// (/dev/stdout, /dev/fd/N, /proc/self/fd/N) is written through that descriptor, as "-" is: the file behind it
// is one the shell opened, perhaps to append to, and replacing it lost what it held. Another process's
// /proc/PID/fd/N is refused unless it is this one's standard output or error too. Destroyed without
// commit() (a failure part way), it removes the temporary file, so nothing is left behind.
class atomic_file {
public:
  explicit atomic_file(const std::filesystem::path& path) : path_{path} {
    namespace fs = std::filesystem;
    if (path.empty()) throw file_write_error{path, "the path is empty"};
    std::error_code error;
    target_ = written_path(path);
    status_ = fs::status(target_, error);
    if (fs::is_directory(status_)) throw file_write_error{path, "it is a directory; give a file's path (in it, or beside it)"};
    if (const int closed = closed_standard_stream_named(path); closed >= 0) {
      throw file_write_error{path, std::string{standard_stream_name(closed)} + " is closed (the shell closed it); give a file"};
    }
    if (const int own = detail::file::own_descriptor(path); own != detail::file::no_descriptor) {
      if (own == detail::file::another_process) {
        throw file_write_error{path, "it is another process's descriptor (/proc/PID/fd), whose file a new one would "
                                     "replace under it; give -o - and redirect, or the file's own path"};
      }
      fd_ = ::fcntl(own, F_DUPFD_CLOEXEC, 0);  // shares its offset and append mode; closing it leaves the original
      if (fd_ < 0) throw file_write_error{path, std::strerror(errno)};
      through_descriptor_ = true;
      return;
    }
    // A loop of links (ELOOP), or a file the user may not write (a rename needs only its folder writable, and
    // replaced a read-only file or another user's, as `>` would not): refused as `>` refuses them.
    if (fs::is_symlink(fs::symlink_status(target_, error))) throw file_write_error{path, std::strerror(ELOOP)};
    if (fs::exists(status_) && ::access(target_.c_str(), W_OK) != 0) throw file_write_error{path, std::strerror(errno)};
    if (fs::exists(status_) && !fs::is_regular_file(status_)) {
      fd_ = ::open(target_.c_str(), O_WRONLY | O_CLOEXEC);
      if (fd_ < 0) throw file_write_error{path, std::strerror(errno)};
      return;
    }
    directory_ = target_.has_parent_path() ? target_.parent_path() : fs::path{"."};
    const ::mode_t mode = fs::exists(status_) ? static_cast<::mode_t>(status_.permissions()) : 0666;
#ifdef O_TMPFILE
    // An unnamed file is linked in through /proc/self/fd: where no /proc is mounted (a container's choice), a
    // named one from the start (every -o failed after the whole run, "No such file or directory").
    if (::access("/proc/self/fd", X_OK) == 0) {
      fd_ = ::open(directory_.c_str(), O_TMPFILE | O_WRONLY | O_CLOEXEC, mode);
      if (fd_ >= 0) {
        unnamed_ = true;
        return;
      }
    }
    // File systems without unnamed files say EOPNOTSUPP (or EISDIR on older kernels): a named one then.
#endif
    for (int attempt = 0; fd_ < 0 && attempt < 8; ++attempt) {  // a name taken: another is as likely free
      temporary_ = temporary_name();
      fd_ = ::open(temporary_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
      if (fd_ < 0 && errno != EEXIST) break;
    }
    if (fd_ < 0) {
      const int reason = errno;
      temporary_.clear();
      throw file_write_error{path, cannot_create_in(directory_, reason)};
    }
  }
  atomic_file(const atomic_file&) = delete;
  atomic_file& operator=(const atomic_file&) = delete;
  ~atomic_file() { abandon(); }

  // The named temporary file the content goes to until commit(); empty where it has no name (O_TMPFILE),
  // where the target is written in place, or after commit(). (A program that may be killed part way can
  // remove it from a signal handler.)
  [[nodiscard]] const std::filesystem::path& temporary_path() const noexcept { return temporary_; }

  // Appends `content`; a failure throws file_write_error and leaves nothing behind.
  void write(std::string_view content) {
    if (fd_ < 0) throw file_write_error{path_, "the file is already closed"};
    if (through_descriptor_) std::fflush(nullptr);  // what the process printed there before comes first
    if (std::string failure = detail::file::write_all(fd_, content); !failure.empty()) fail(failure);
  }

  // Syncs, closes and renames the temporary file over the target: from here on a reader sees the new file.
  void commit() {
    namespace fs = std::filesystem;
    if (fd_ < 0) throw file_write_error{path_, "the file is already closed"};
    std::string failure = detail::file::sync(fd_);
    const detail::file::ending_signals_held held;  // till the file has its one name
    if (unnamed_ && failure.empty()) failure = link_in();
    if (::close(std::exchange(fd_, -1)) != 0 && failure.empty()) failure = std::strerror(errno);
    if (!failure.empty()) fail(failure);
    if (temporary_.empty()) return;  // written in place
    std::error_code error;
    if (fs::exists(status_)) {
      fs::permissions(temporary_, status_.permissions(), error);  // the umask narrowed the mode at creation
    }
    fs::rename(temporary_, target_, error);
    if (error) fail(error.message());
    temporary_.clear();
  }

private:

  // A short name of its own (the target's name plus a suffix could pass the file system's name limit),
  // random past the process id, which another container's hml, or a leftover's, may have had.
  [[nodiscard]] std::filesystem::path temporary_name() const {
    std::random_device random;  // the system's (getrandom(2)): no seed two processes share
    char text[17];
    const auto bits = std::uint64_t{random()} << 32 | random();
    char* end = std::to_chars(text, text + sizeof text, bits, 16).ptr;
    return directory_ / (".hml-" + std::to_string(::getpid()) + "-" + std::string{text, end} + ".tmp");
  }

  // Links the unnamed file in: as the target where there is none yet, else under a name beside it, for the
  // rename. (linkat of /proc/self/fd/N is how open(2) says to link an O_TMPFILE file without privileges.)
  std::string link_in() {
    if (std::filesystem::exists(status_) && ::fchmod(fd_, static_cast<::mode_t>(status_.permissions())) != 0) {
      return std::strerror(errno);
    }
    const std::string self = "/proc/self/fd/" + std::to_string(fd_);
    if (!std::filesystem::exists(status_)) {
      if (::linkat(AT_FDCWD, self.c_str(), AT_FDCWD, target_.c_str(), AT_SYMLINK_FOLLOW) == 0) return {};
      if (errno != EEXIST) return std::strerror(errno);  // made meanwhile: replaced, as one there before
    }
    for (int attempt = 0; attempt < 8; ++attempt) {
      const std::filesystem::path name = temporary_name();
      if (::linkat(AT_FDCWD, self.c_str(), AT_FDCWD, name.c_str(), AT_SYMLINK_FOLLOW) == 0) {
        temporary_ = name;
        return {};
      }
      if (errno != EEXIST) break;
    }
    return std::strerror(errno);
  }

  void abandon() noexcept {
    if (fd_ >= 0) ::close(std::exchange(fd_, -1));
    if (!temporary_.empty()) {
      std::error_code ignored;
      std::filesystem::remove(temporary_, ignored);
      temporary_.clear();
    }
  }
  [[noreturn]] void fail(const std::string& reason) {
    abandon();
    throw file_write_error{path_, reason};
  }

  std::filesystem::path path_;       // as given: error messages name it
  std::filesystem::path target_;     // with links resolved
  std::filesystem::path directory_;  // where the temporary file goes: the target's
  std::filesystem::path temporary_;  // empty: unnamed, written in place, or renamed already
  bool unnamed_ = false;             // an O_TMPFILE file, linked in at commit()
  bool through_descriptor_ = false;  // one of the process's own descriptors, written through
  std::filesystem::file_status status_;
  int fd_ = -1;
};

// Writes `content` to `path` as one atomic_file: a reader sees the old file or the whole new one.
inline void write_file_atomically(const std::filesystem::path& path, std::string_view content) {
  atomic_file file{path};
  file.write(content);
  file.commit();
}

}  // namespace hml
