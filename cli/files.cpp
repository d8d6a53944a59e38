// The command's files: where output goes (output_stream: standard output, or a file written whole or not at
// all), and input files read once, in bounded memory, each remembered so that no output replaces it.
#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <csignal>
#include <exception>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>
#include <CLI/CLI.hpp>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common.hpp"

namespace hml_cli {

output_format output_options::chosen() const {
  if (format == "csv") return output_format::csv;
  if (format == "json") return output_format::json;
  return output_format::table;
}

void add_output_options(CLI::App& command, output_options& options, bool with_format) {
  if (with_format) {
    command.add_option("--format", options.format, "table (aligned text), csv (RFC 4180) or json")
        ->type_name("FORMAT")
        ->check(CLI::IsMember({"table", "csv", "json"}))
        ->capture_default_str();
  }
  command.add_option("-o,--output", options.path,
                     "write to FILE (atomically) instead of standard output (-); a FILE named .csv, .json, .yaml or "
                     ".svg must get that format")
      ->type_name("FILE");
}

row_stream::row_stream(std::span<const std::string> columns, output_format format, output_stream& out) : out_{out} {
  if (format == output_format::csv) {
    csv_.emplace(columns);
    csv_->header(out_.buffer());
  } else {
    json_.emplace(columns);
  }
}

void row_stream::add(std::span<const hml::cell> row) {
  views_.clear();
  for (const hml::cell& c : row) views_.push_back(hml::view_of(c));
  add(std::span<const hml::cell_view>{views_});
}

void row_stream::add(std::span<const hml::cell_view> row) {
  if (csv_) {
    csv_->row(out_.buffer(), row);
  } else {
    json_->row(out_.buffer(), row);
  }
  out_.flush_if_full();
}

void row_stream::finish() {
  if (json_) json_->finish(out_.buffer());
  out_.finish();
}

std::string render(const hml::table& t, output_format format, hml::number_format numbers) {
  switch (format) {
    case output_format::csv: return hml::to_csv(t);
    case output_format::json: return hml::to_json(t);
    case output_format::table: break;
  }
  return hml::format_table(t, numbers);
}

namespace {

// The temporary file being written, for the signal handler: a fixed buffer and a flag, which are all a
// handler may touch.
char pending_temporary[4096];
volatile std::sig_atomic_t has_pending_temporary = 0;

void remember_temporary(const std::filesystem::path& path) {
  const std::string& text = path.native();
  if (text.empty() || text.size() >= sizeof pending_temporary) return;
  has_pending_temporary = 0;
  std::memcpy(pending_temporary, text.c_str(), text.size() + 1);
  has_pending_temporary = 1;
}

void forget_temporary() { has_pending_temporary = 0; }

extern "C" void remove_temporary_and_end(int signal_number) {
  if (has_pending_temporary != 0) ::unlink(pending_temporary);
  std::signal(signal_number, SIG_DFL);
  std::raise(signal_number);
}

}  // namespace

void remove_temporary_on_interrupt() {
  // Every signal whose default ends the process and that a handler may catch (SIGKILL may not).
  for (const int signal_number : {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGALRM, SIGUSR1, SIGUSR2, SIGXCPU, SIGVTALRM, SIGPROF}) {
    // A signal ignored when hml started (SIGINT in a background job, SIGHUP under nohup) stays ignored.
    if (std::signal(signal_number, remove_temporary_and_end) == SIG_IGN) std::signal(signal_number, SIG_IGN);
  }
  // Past a file size limit (ulimit -f) a write fails with EFBIG, said in one line as a full disk is, where
  // SIGXFSZ would end the run without a word.
  std::signal(SIGXFSZ, SIG_IGN);
}

namespace {

// The regular files this run reads, and the option that named each: an output that would replace one is
// refused before it is written (roofline --ops k.csv -o k.csv once wrote its results over the kernels).
struct file_read {
  dev_t device = 0;
  ino_t inode = 0;
  std::string option;
};
std::vector<file_read>& files_read() {
  static std::vector<file_read> files;
  return files;
}

// An input_error where `path` is a regular file this run has read (through input_file), so that an output
// written there would replace its own input; `option` names the output.
void refuse_output_over_input(std::string_view option, const std::string& path) {
  struct stat status {};
  // "-" is the file the shell opened as standard output (`1<>k.csv`, `>> k.csv`), if a file.
  const bool standard_output = path == "-";
  if ((standard_output ? ::fstat(STDOUT_FILENO, &status) : ::stat(path.c_str(), &status)) != 0 || !S_ISREG(status.st_mode)) {
    return;
  }
  for (const file_read& input : files_read()) {
    if (input.device != status.st_dev || input.inode != status.st_ino) continue;
    if (standard_output) {
      throw input_error(input.option + ": standard output is the file it reads (the shell opened it for the output); "
                        "the output would write over the input: redirect it elsewhere");
    }
    throw input_error(std::string{option} + ", " + input.option + ": both name " + path +
                      "; the output would replace the input: write it elsewhere");
  }
}

}  // namespace

void check_output_format(const output_options& options, std::string_view option) {
  if (options.path == "-") return;
  // The format a file's name says, by the end of its name in either case (".csv" alone is one too).
  struct named_format {
    std::string_view suffix, format, shown;
  };
  constexpr named_format named[]{{".csv", "csv", "CSV"},     {".json", "json", "JSON"}, {".yaml", "yaml", "YAML"},
                                 {".yml", "yaml", "YAML"}, {".svg", "svg", "SVG"}};
  const std::filesystem::path path{options.path};
  const std::string name = hml::ascii_lowercase(path.filename().string());
  const auto said = std::ranges::find_if(named, [&](const named_format& n) { return name.ends_with(n.suffix); });
  if (said == std::ranges::end(named) || said->format == options.format) return;
  const auto shown = [&](std::string_view format) {
    const auto n = std::ranges::find(named, format, &named_format::format);
    return n == std::ranges::end(named) ? std::string{"a text table"} : std::string{n->shown};
  };
  // The same file named for what it gets, in its folder ("out" where the name was the suffix alone).
  std::string stem = path.filename().string();
  stem.resize(stem.size() - said->suffix.size());
  const std::string renamed =
      (path.parent_path() / ((stem.empty() ? "out" : stem) + (options.format == "table" ? ".txt" : "." + options.format))).string();
  const bool takes_it = std::ranges::find(options.formats, said->format) != options.formats.end();
  throw input_error(std::string{option} + ": '" + hml::message_text(options.path) + "': the name says " + shown(said->format) +
                    ", and the output is " + shown(options.format) + "; name it " + hml::message_text(renamed) +
                    (takes_it ? ", or give --format " + std::string{said->format} : ""));
}

output_stream::output_stream(const output_options& options) : path_{options.path}, text_{options.format == "table"} {
  refuse_output_over_input("-o", path_);  // first: no advice on a name that would replace the input
  check_output_format(options);
  if (path_ == "-") {
    struct stat status {};
    to_regular_file_ = ::fstat(STDOUT_FILENO, &status) == 0 && S_ISREG(status.st_mode);
  } else {
    // A new file, or one atomic_file replaces, is regular; an existing device or FIFO is written in place.
    std::error_code error;
    const std::filesystem::file_status status = std::filesystem::status(path_, error);
    to_regular_file_ = !std::filesystem::exists(status) || std::filesystem::is_regular_file(status);
  }
}

output_stream::~output_stream() {
  stop_writing();
  forget_temporary();
}

void output_stream::write_out(const std::string& text) {
  if (path_ == "-") {
    // A full disk is an error too, not a silently short output. (A closed pipe ends the process with
    // SIGPIPE first, as it does any Unix filter: `hml ... | head` stops quietly.)
    if (std::fwrite(text.data(), 1, text.size(), stdout) != text.size() || std::fflush(stdout) != 0) {
      // Closed by the shell (>&-), as -o /dev/stdout says it, not in the system's words ("Bad file descriptor").
      // Named as -o with its value, given or the default, as every error names its option (-o FILE says "-o: ").
      throw input_error(errno == EBADF ? std::string{"-o (-): standard output is closed (the shell closed it); give a file with -o"}
                                       : std::string{"-o (-): cannot write to standard output: "} + std::strerror(errno) +
                                             "; give a file with -o");
    }
  } else {
    write_for_option("--output", [&] {
      if (!file_) {  // opened with the first block: an early failure touches no file
        file_.emplace(path_);
        remember_temporary(file_->temporary_path());
      }
      file_->write(text);
    });
  }
}

// The writing thread: each block handed on, written and cleared (its buffer kept for the next one); after a
// failure the rest are dropped, and hand_on() or finish() throws it.
void output_stream::write_blocks(const std::stop_token& stop) {
  for (;;) {
    {
      std::unique_lock lock{mutex_};
      if (!written_.wait(lock, stop, [&] { return has_pending_; })) return;
    }
    std::exception_ptr failure;
    try {
      if (!failure_) write_out(pending_);
    } catch (...) {
      failure = std::current_exception();
    }
    pending_.clear();
    {
      const std::scoped_lock lock{mutex_};
      if (failure) failure_ = failure;
      has_pending_ = false;
    }
    written_.notify_all();
  }
}

// The full buffer to the writing thread, once it has written the block before; its emptied buffer back.
void output_stream::hand_on() {
  if (!writer_.joinable()) writer_ = std::jthread{[this](const std::stop_token& stop) { write_blocks(stop); }};
  {
    std::unique_lock lock{mutex_};
    written_.wait(lock, [&] { return !has_pending_; });
    if (failure_) std::rethrow_exception(failure_);
    std::swap(buffer_, pending_);
    has_pending_ = true;
  }
  written_.notify_all();
}

void output_stream::stop_writing() noexcept {
  if (!writer_.joinable()) return;
  writer_.request_stop();  // after the block it is writing, if any
  writer_.join();
}

void output_stream::finish() {
  if (writer_.joinable()) {
    {
      std::unique_lock lock{mutex_};
      written_.wait(lock, [&] { return !has_pending_; });
    }
    stop_writing();
    if (failure_) std::rethrow_exception(failure_);
  }
  if (text_) hml::escape_drawn_as_nothing(buffer_);
  write_out(buffer_);
  buffer_.clear();
  if (file_) write_for_option("--output", [&] { file_->commit(); });
  forget_temporary();
}

void emit(const output_options& options, const std::string& content) {
  output_stream out{options};
  out.buffer() = content;
  out.finish();
}

std::string input_name(const std::string& path) { return path == "-" ? "standard input" : path; }

std::string visible_whole(std::string_view text) {
  std::string shown;
  hml::append_visible(shown, text, hml::invisible_characters::escaped);
  return shown;
}

input_file::input_file(std::string_view option, const std::string& path)
    : option_{option},
      path_{path},
      source_name_{std::string{option} + ": " + input_name(path) + ": "} {
  const auto cannot_read = [&](const std::string& reason) {
    return input_error(option_ + ": cannot read " + (path_ == "-" ? std::string{"standard input"} : "'" + hml::path_shown(path_) + "'") + ": " + reason);
  };
  const auto cannot_open = [&](int error) {
    return cannot_read(std::string{std::strerror(error)} + (error == ENOENT || error == ENOTDIR ? "; give the path of a file that exists"
                                                            : error == EACCES                   ? "; give a file you may read"
                                                                                                : "; give a file that can be read"));
  };
  if (path == "-" && hml::held_as_closed(STDIN_FILENO))
    throw input_error(option_ + ": standard input is closed (the shell closed it); give a file, or open standard input");
  if (hml::closed_standard_stream_named(path) == STDIN_FILENO)
    throw cannot_read("standard input is closed (the shell closed it); give a file, or open standard input");
  if (path == "-") {
    fd_ = STDIN_FILENO;
  } else {
    // Without an error code, a loop of symbolic links throws the file system's own text; open() names it.
    std::error_code unreadable;
    if (std::filesystem::is_directory(path, unreadable)) throw cannot_read("it is a directory; give a file in it");
    fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd_ < 0) throw cannot_open(errno);
    owns_fd_ = true;
  }
  struct stat status {};
  if (::fstat(fd_, &status) == 0 && S_ISREG(status.st_mode)) {
    start_ = ::lseek(fd_, 0, SEEK_CUR);
    size_ = status.st_size;
    changed_ns_ = status.st_ctim.tv_sec * 1'000'000'000LL + status.st_ctim.tv_nsec;
    files_read().push_back({status.st_dev, status.st_ino, option_});
  }
}

input_file::~input_file() {
  if (owns_fd_) ::close(fd_);
  if (copy_ != nullptr) std::fclose(copy_);
}

std::size_t input_file::read(std::span<char> buffer) {
  for (;;) {
    const ::ssize_t got = ::read(fd_, buffer.data(), buffer.size());
    if (got >= 0) {
      const auto n = static_cast<std::size_t>(got);
      if (copying_ && n > 0) {
        const auto kept = [&] { return path_ == "-" ? std::string{"standard input"} : "'" + path_ + "'"; };
        copied_ += n;
        if (copied_ > max_kept_copy) {
          throw input_error(option_ + ": " + kept() + " is longer than 1 GiB, the most of a stream kept to read it twice " +
                            "(a text table measures its columns first); give a file, or --format csv, which streams");
        }
        if (std::fwrite(buffer.data(), 1, n, copy_) != n) {
          throw input_error(option_ + ": cannot keep a copy of " + kept() + " to read it twice: " + std::strerror(errno) +
                            "; give a file, or --format csv, which streams");
        }
      }
      return n;
    }
    if (errno != EINTR)
      throw input_error(option_ + ": cannot read " + (path_ == "-" ? std::string{"standard input"} : "'" + path_ + "'") + ": " +
                        std::strerror(errno) + "; give a file that can be read");
  }
}

std::string input_file::read_whole(std::size_t limit) {
  std::string text;
  std::array<char, 64 * 1024> block{};
  while (const std::size_t n = read(block)) {
    if (text.size() + n > limit) {
      throw input_error(source_name_ + "larger than " + std::to_string(limit) + " bytes; is it the right file?");
    }
    text.append(block.data(), n);
  }
  return text;
}

std::string input_file::where(std::size_t line) const {
  return option_ + ": " + input_name(path_) + ":" + std::to_string(line) + ": ";
}

hml::byte_source input_file::source() {
  return [this](std::span<char> buffer) { return read(buffer); };
}

namespace {
// A file without a name, in $TMPDIR where it is set, else /tmp (std::tmpfile ignores TMPDIR): unnamed where
// the file system has such files, else named and unlinked at once; closed on exec either way.
std::FILE* unnamed_copy() {
  const char* given = std::getenv("TMPDIR");
  const std::string directory = given != nullptr && *given != '\0' ? given : "/tmp";
  int fd = -1;
#ifdef O_TMPFILE
  fd = ::open(directory.c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
#endif
  if (fd < 0) {
    std::string name = directory + "/.hml-copy-XXXXXX";
    fd = ::mkostemp(name.data(), O_CLOEXEC);
    if (fd >= 0) ::unlink(name.c_str());
  }
  if (fd < 0) return nullptr;
  if (std::FILE* file = ::fdopen(fd, "w+")) return file;
  const int reason = errno;
  ::close(fd);
  errno = reason;
  return nullptr;
}
}  // namespace

void input_file::keep_copy() {
  if (start_ >= 0) return;  // a regular file is read again in place
  copy_ = unnamed_copy();   // unlinked already: it vanishes with the process, however that ends
  if (copy_ == nullptr) {
    throw input_error(option_ + ": cannot keep a copy of " + (path_ == "-" ? std::string{"standard input"} : "'" + path_ + "'") +
                      " to read it twice (in $TMPDIR, else /tmp): " + std::strerror(errno) +
                      "; give a folder it may write as TMPDIR");
  }
  copying_ = true;
}

void input_file::check_unchanged() const {
  struct stat status {};
  if (start_ < 0 || ::fstat(fd_, &status) != 0) return;
  // Any change of status counts: a file renamed over looks as one edited in place with its modification time
  // put back and then renamed over (the forty-fifth trial's table of two versions).
  if (status.st_size != size_ || status.st_ctim.tv_sec * 1'000'000'000LL + status.st_ctim.tv_nsec != changed_ns_)
    throw input_error(option_ + ": '" + path_ + "' changed while it was read; run again when nothing writes to it");
}

void input_file::rewind() {
  if (start_ >= 0) {
    check_unchanged();
    if (::lseek(fd_, start_, SEEK_SET) < 0) {
      throw input_error(option_ + ": cannot read '" + path_ + "' again: " + std::strerror(errno) + "; give a file, or --format csv, which reads once");
    }
    return;
  }
  if (copy_ == nullptr || std::fflush(copy_) != 0 || ::lseek(::fileno(copy_), 0, SEEK_SET) < 0) {
    throw input_error(option_ + ": cannot read '" + path_ + "' again; give a file, or --format csv, which reads once");
  }
  if (owns_fd_) ::close(fd_);
  fd_ = ::fileno(copy_);
  owns_fd_ = false;
  copying_ = false;
}

[[noreturn]] void rethrow_kernels_error(const input_file& input, std::exception_ptr failure) {
  try {
    std::rethrow_exception(std::move(failure));
  } catch (const hml::kernels_csv_error& e) {
    throw input_error(input.where(e.line()) + e.problem());
  }
}

std::vector<hml::kernel_record> read_kernels(std::string_view option, const std::string& path) {
  input_file input{option, path};
  std::vector<hml::kernel_record> kernels;
  for_each_kernel<int>(
      input, [](const hml::kernel_record&, int&) {}, [&](const hml::kernel_record& k, int) { kernels.push_back(k); });
  return kernels;
}

}  // namespace hml_cli
