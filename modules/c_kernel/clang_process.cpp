// hml.c_kernel's shared libraries and child processes (see c_kernel.cppm): libclang and the LLVM-MCA plugin
// opened by dlopen, clang run as a child under limits, and the unnamed files it reads and writes.
module;
#include <array>
#include <cerrno>
#include <csignal>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <dlfcn.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
module hml.c_kernel;

namespace hml::detail {

namespace {
// What a system error asks of the user where the cause is a limit of the process, not hml's input.
std::string system_error_text(int error) {
  const std::string what = std::strerror(error);
  if (error == EMFILE || error == ENFILE) return what + "; raise the limit of open files (ulimit -n)";
  if (error == ENOMEM) return what + "; allow the process more memory (ulimit -v)";
  if (error == ENOSPC || error == EFBIG) return what + "; free memory, or raise the file size limit (ulimit -f)";
  return what + "; check the process's limits (ulimit -a)";
}
}  // namespace

void* open_library(std::span<const char* const> candidates, const char* symbol, std::string_view needs) {
  std::string why;
  for (const char* path : candidates) {
    void* library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (library != nullptr && dlsym(library, symbol) != nullptr) return library;
    if (const char* error = dlerror(); error != nullptr && why.empty()) why = error;
    if (library != nullptr) dlclose(library);
  }
  // A library that is there but cannot be mapped is held back by a memory limit, not missing.
  if (why.find("failed to map segment") != std::string::npos || why.find("Cannot allocate memory") != std::string::npos)
    refuse("a library hml reads C with could not be loaded (" + why + "); allow the process more memory (ulimit -v)");
  refuse(std::string{needs} + (why.empty() ? std::string{} : ": " + why));
}

unnamed_file::unnamed_file(std::string_view text) : fd_{::memfd_create("hml-c-kernel", MFD_CLOEXEC)} {
  if (fd_ < 0) refuse("cannot make an unnamed file for clang: " + system_error_text(errno));
  for (std::size_t at = 0; at < text.size();) {
    const ssize_t n = ::pwrite(fd_, text.data() + at, text.size() - at, static_cast<off_t>(at));
    if (n <= 0) refuse("cannot write an unnamed file for clang: " + system_error_text(errno));
    at += static_cast<std::size_t>(n);
  }
}

unnamed_file::~unnamed_file() { ::close(fd_); }

std::string unnamed_file::read(std::size_t largest, std::string_view what) const {
  struct stat status {};
  if (::fstat(fd_, &status) != 0) refuse(std::string{what} + " cannot be read: " + std::strerror(errno));
  if (static_cast<std::size_t>(status.st_size) > largest)
    refuse(std::string{what} + " is more than " + std::to_string(largest >> 20) + " MiB");
  std::string out(static_cast<std::size_t>(status.st_size), '\0');
  for (std::size_t at = 0; at < out.size();) {
    const ssize_t n = ::pread(fd_, out.data() + at, out.size() - at, static_cast<off_t>(at));
    if (n <= 0) break;  // it cannot shrink: nothing else holds it
    at += static_cast<std::size_t>(n);
  }
  return out;
}

clang_exit run_clang(const clang_process& process) {
  // Everything the child needs is made before fork(): after it, it calls only what a signal handler may.
  std::vector<char*> argv;
  for (const std::string& a : process.arguments) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  // An environment of its own: the user's could change the compile without a word (CCC_OVERRIDE_OPTIONS
  // took -O3 to -O0, CPATH adds headers). TMPDIR is kept for clang's temporary files.
  std::vector<std::string> environment{"PATH=/usr/bin:/bin", "LC_ALL=C"};
  if (const char* temporary = std::getenv("TMPDIR"); temporary != nullptr) environment.push_back(std::string{"TMPDIR="} + temporary);
  std::vector<char*> envp;
  for (std::string& variable : environment) envp.push_back(variable.data());
  envp.push_back(nullptr);
  const int null = ::open("/dev/null", O_RDWR | O_CLOEXEC);
  if (null < 0) return {};
  const auto descriptor = [&](const unnamed_file* f) { return f != nullptr ? f->descriptor() : null; };
  const std::array<int, 3> standard{descriptor(process.input), descriptor(process.output), descriptor(process.errors)};
  std::vector<int> shared;
  for (const unnamed_file* f : process.shared) shared.push_back(f->descriptor());
  const rlimit file_size{process.largest_file, process.largest_file};
  const rlimit cpu{process.cpu_seconds, process.cpu_seconds + 1};  // SIGXCPU at the first, SIGKILL a second on
  const rlimit no_core{0, 0};

  const pid_t child = ::fork();
  if (child < 0) {
    ::close(null);
    return {};
  }
  if (child == 0) {
    for (int target = 0; target < 3; ++target)
      if (::dup2(standard[static_cast<std::size_t>(target)], target) < 0) ::_exit(127);
    for (const int fd : shared)
      if (::fcntl(fd, F_SETFD, 0) < 0) ::_exit(127);  // kept across exec, under the same number
    // hml ignores SIGXFSZ (a write past `ulimit -f` is said as an error); inherited, clang went on past its
    // file size limit with every write failing, expanding a macro bomb for 5 s and 1 GiB where it ended in 0.3 s.
    ::signal(SIGXFSZ, SIG_DFL);
    ::setrlimit(RLIMIT_FSIZE, &file_size);
    ::setrlimit(RLIMIT_CPU, &cpu);
    ::setrlimit(RLIMIT_CORE, &no_core);
    ::execve(argv[0], argv.data(), envp.data());
    ::_exit(127);
  }
  ::close(null);
  int status = 0;
  while (::waitpid(child, &status, 0) < 0) {
    if (errno != EINTR) return {};
  }
  if (WIFSIGNALED(status)) return {.started = true, .signal = WTERMSIG(status)};
  // 127 is the child's own: exec failed (the shell's status for a program it cannot run).
  return {.started = WEXITSTATUS(status) != 127, .status = WEXITSTATUS(status)};
}

}  // namespace hml::detail
