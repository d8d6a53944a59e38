// `hml`'s streamed output, whose full blocks (1 MiB) a second thread writes into a regular file while the
// first produces the next: output of many blocks is the same text to standard output and to a file, and a
// failure to write a block is the one-line error and status 2, however many blocks follow it.
#include <gtest/gtest.h>
#include <algorithm>
#include <cstddef>
#include <cstdlib>
#include <filesystem>
#include <initializer_list>
#include <iterator>
#include <string>
#include <utility>
#include <vector>
#include <sys/wait.h>

#include "cli_harness.hpp"

#ifdef HML_CLI
namespace {

namespace fs = std::filesystem;

using hml_test::hml_run;
using hml_test::read_file;
using hml_test::scratch_directory;
using hml_test::shell_quoted;

// 400 x 200 points: some 13 MB of JSON, 13 blocks, so blocks are handed on while others are written.
const std::vector<std::string> sweep{"sweep", "--bandwidth", "1GB/s:2GB/s:400", "--ops-per-byte", "1:2:200"};

std::vector<std::string> with(std::vector<std::string> args, std::initializer_list<std::string> more) {
  args.insert(args.end(), more);
  return args;
}

TEST(OutputStream, ManyBlocksAreTheSameTextToStandardOutputAndToAFile) {
  const scratch_directory dir;
  for (const std::string format : {"csv", "json", "table"}) {
    const hml_test::outcome streamed = hml_run(with(sweep, {"--format", format}));
    ASSERT_EQ(streamed.status, 0) << streamed.err;
    EXPECT_GT(streamed.out.size(), std::size_t{4} << 20) << format;  // several blocks
    const fs::path file = dir.path / ("sweep." + format);
    const hml_test::outcome written = hml_run(with(sweep, {"--format", format, "-o", file.string()}));
    ASSERT_EQ(written.status, 0) << written.err;
    EXPECT_TRUE(written.out.empty());
    EXPECT_TRUE(read_file(file) == streamed.out) << format;
  }
  EXPECT_EQ(std::distance(fs::directory_iterator{dir.path}, {}), 3);  // no temporary left
}

// A failure part way through a file: written on the second thread, thrown on the first, one error line,
// status 2 and no file (its temporary removed). A file size limit (ulimit -f, with SIGXFSZ ignored so that
// write() fails with EFBIG) stops the file after a block or two of the sweep's 13 MB.
TEST(OutputStream, AFailedBlockIsOneErrorLineAndNoFile) {
  const scratch_directory dir;
  const fs::path file = dir.path / "sweep.json";
  std::string command = "trap '' XFSZ; ulimit -f 2048; exec " + shell_quoted(HML_CLI);
  for (const std::string& arg : with(sweep, {"--format", "json", "-o", file.string()})) command += " " + shell_quoted(arg);
  command += " 2>" + shell_quoted((dir.path / "err").string());
  const int raw = std::system(("sh -c " + shell_quoted(command)).c_str());
  EXPECT_EQ(WIFEXITED(raw) ? WEXITSTATUS(raw) : -1, 2);
  const std::string err = read_file(dir.path / "err");
  EXPECT_TRUE(err.starts_with("hml: error: -o: cannot write '" + file.string() + "': ")) << err;
  EXPECT_EQ(std::count(err.begin(), err.end(), '\n'), 1) << err;
  EXPECT_EQ(std::distance(fs::directory_iterator{dir.path}, {}), 1);  // err only: no file, no temporary
}

// A full standard output or device (written in place, on the first thread): the same one line and status.
TEST(OutputStream, AFullDiskIsOneErrorLine) {
  if (!fs::exists("/dev/full")) GTEST_SKIP() << "no /dev/full";
  const scratch_directory dir;
  for (const bool to_file : {true, false}) {
    std::string command = shell_quoted(HML_CLI);
    for (const std::string& arg : with(sweep, {"--format", "json"})) command += " " + shell_quoted(arg);
    command += to_file ? " -o /dev/full" : " >/dev/full";
    command += " 2>" + shell_quoted((dir.path / "err").string());
    const int raw = std::system(command.c_str());
    EXPECT_EQ(WIFEXITED(raw) ? WEXITSTATUS(raw) : -1, 2);
    const std::string err = read_file(dir.path / "err");
    EXPECT_TRUE(err.starts_with(to_file ? "hml: error: -o: cannot write '/dev/full': " : "hml: error: -o (-): cannot write to standard output: "))
        << err;
    EXPECT_EQ(std::count(err.begin(), err.end(), '\n'), 1) << err;
  }
}

// The thirty-fifth trial: a standard stream the shell closed was taken by the next file opened (a table for
// standard output went into the copy of standard input, exit status 0); --help and --version said nothing
// where they could not write; -o over a loop of links replaced the link.
TEST(OutputStream, ClosedOrFullStandardStreamsAreErrors) {
  const scratch_directory dir;
  const std::string kernels = shell_quoted((fs::path{HML_SOURCE_DIR} / "cli/kernels.csv").string());
  const auto shell = [&](const std::string& line) {
    const int raw = std::system((line + " 2>" + shell_quoted((dir.path / "err").string())).c_str());
    return std::pair{WIFEXITED(raw) ? WEXITSTATUS(raw) : -1, read_file(dir.path / "err")};
  };
  const std::string hml = shell_quoted(HML_CLI), roofline = " roofline --machine h100_sxm --precision fp32 --ops -";
  const auto [closed_out, closed_out_err] = shell("cat " + kernels + " | " + hml + roofline + " >&-");
  EXPECT_EQ(closed_out, 2);
  EXPECT_EQ(closed_out_err, "hml: error: -o (-): standard output is closed (the shell closed it); give a file with -o\n");
  const auto [closed_in, closed_in_err] = shell(hml + roofline + " <&-");
  EXPECT_EQ(closed_in, 2);
  EXPECT_EQ(closed_in_err, "hml: error: --ops: standard input is closed (the shell closed it); give a file, or open standard input\n");
  // A path to a closed stream is the stream, not its placeholder (the forty-seventh trial: `--ops /dev/stdin
  // <&-` read an empty file, and `-o /dev/stderr 2>&-` wrote into /dev/null with exit status 0).
  EXPECT_EQ(shell(hml + " roofline --machine h100_sxm --precision fp32 --ops /dev/stdin <&-").second,
            "hml: error: --ops: cannot read '/dev/stdin': standard input is closed (the shell closed it); give a file, or open standard input\n");
  EXPECT_EQ(shell(hml + " sweep --format csv -o /dev/stdout >&-").second,
            "hml: error: -o: cannot write '/dev/stdout': standard output is closed (the shell closed it); give a file\n");
  EXPECT_EQ(std::system(("sh -c " + shell_quoted(hml + " sweep --format csv -o /dev/fd/2 2>&-")).c_str()), 2 << 8);
  for (const auto& [request, flag] : {std::pair<std::string, std::string>{" --help", "--help"}, {" --version", "--version"}, {" roofline --help", "--help"}}) {
    const auto [status, err] = shell(hml + request + " >&-");
    EXPECT_EQ(status, 2) << request;
    EXPECT_TRUE(err.starts_with("hml: error: " + flag + ": cannot write to standard output: ")) << request << ": " << err;
    if (fs::exists("/dev/full")) EXPECT_EQ(shell(hml + request + " >/dev/full").first, 2) << request;
  }
  fs::create_symlink("loop_b", dir.path / "loop_a");
  fs::create_symlink("loop_a", dir.path / "loop_b");
  const hml_test::outcome looped = hml_run({"devices", "-o", (dir.path / "loop_a").string()});
  EXPECT_EQ(looped.status, 2);
  EXPECT_TRUE(looped.err.ends_with("loop_a': Too many levels of symbolic links; give a path that can be written\n")) << looped.err;
  EXPECT_TRUE(fs::is_symlink(dir.path / "loop_a"));
  // A working directory removed under the shell was called a file system that takes no new files.
  const std::string gone = shell_quoted((dir.path / "gone").string());
  const auto [deleted, deleted_err] = shell("mkdir " + gone + " && cd " + gone + " && rmdir " + gone + " && " + hml +
                                            " devices --format csv -o x.csv");
  EXPECT_EQ(deleted, 2);
  EXPECT_EQ(deleted_err, "hml: error: -o: cannot write 'x.csv': the directory '.' has been deleted (is it the working "
                         "directory of a removed folder?); give a path that can be written\n");
}

// -o /dev/stdout, /dev/fd/N: the shell's own descriptor, written through as -o - is. The file behind it was
// replaced by a rename, so a log appended to lost what it held and what the shell wrote after (a trial's
// finding); a pipe behind it was refused.
TEST(OutputStream, TheProcesssOwnDescriptorsAreWrittenThrough) {
  const scratch_directory dir;
  const std::vector<std::string> small{"sweep", "--bandwidth", "1GB/s:2GB/s:3", "--ops-per-byte", "1:2:2", "--format", "csv"};
  const hml_test::outcome expected = hml_run(small);
  ASSERT_EQ(expected.status, 0) << expected.err;
  const hml_test::outcome many = hml_run(with(sweep, {"--format", "csv"}));  // blocks on the second thread
  ASSERT_EQ(many.status, 0) << many.err;
  const auto command_of = [](const std::vector<std::string>& args, const std::string& output) {
    std::string command = shell_quoted(HML_CLI);
    for (const std::string& arg : args) command += " " + shell_quoted(arg);
    return command + " -o " + output;
  };
  const fs::path log = dir.path / "log";
  const struct {
    std::string output;
    std::string fd;  // the descriptor it names, appending to the log
    bool many;
  } cases[] = {{"/dev/stdout", "1", false}, {"/dev/fd/3", "3", false}, {"/proc/self/fd/1", "1", false}, {"/dev/stdout", "1", true}};
  for (const auto& c : cases) {
    const std::string to = " >&" + c.fd;
    const std::string command = "echo before > " + shell_quoted(log.string()) + "; { echo kept" + to + "; " +
                                command_of(c.many ? with(sweep, {"--format", "csv"}) : small, c.output) +
                                "; echo after" + to + "; } " + c.fd + ">> " + shell_quoted(log.string());
    const std::string& text = c.many ? many.out : expected.out;
    const int raw = std::system(("sh -c " + shell_quoted(command)).c_str());
    EXPECT_EQ(WIFEXITED(raw) ? WEXITSTATUS(raw) : -1, 0) << command;
    EXPECT_TRUE(read_file(log) == "before\nkept\n" + text + "after\n") << c.output << ": " << read_file(log).substr(0, 200);
  }
  // A script's own /proc/$$/fd/1 is the file hml's standard output is too (inherited): written through it.
  const std::string script = "echo before > " + shell_quoted(log.string()) + "; sh -c " +
                             shell_quoted("echo kept; " + command_of(small, "/proc/$$/fd/1") + "; echo after") + " >> " +
                             shell_quoted(log.string());
  EXPECT_EQ(std::system(("sh -c " + shell_quoted(script)).c_str()), 0);
  EXPECT_EQ(read_file(log), "before\nkept\n" + expected.out + "after\n");
  // Another process's descriptor on a file of its own: refused, the file left as it was.
  const fs::path other = dir.path / "other";
  const std::string foreign = "sleep 5 > " + shell_quoted(other.string()) + " & " + command_of(small, "/proc/$!/fd/1") +
                              " 2> " + shell_quoted(log.string()) + "; status=$?; kill $!; exit $status";
  const int raw = std::system(("sh -c " + shell_quoted(foreign)).c_str());
  EXPECT_EQ(WIFEXITED(raw) ? WEXITSTATUS(raw) : -1, 2);
  EXPECT_NE(read_file(log).find("it is another process's descriptor (/proc/PID/fd)"), std::string::npos) << read_file(log);
  EXPECT_EQ(read_file(other), "");
  fs::remove(other);

  // Through a pipe: the same text comes out of it.
  const std::string piped = command_of(small, "/dev/stdout") + " | cat > " + shell_quoted(log.string());
  EXPECT_EQ(std::system(("sh -c " + shell_quoted(piped)).c_str()), 0);
  EXPECT_EQ(read_file(log), expected.out);
  EXPECT_EQ(std::distance(fs::directory_iterator{dir.path}, {}), 1);  // the log only: no temporary
}

}  // namespace
#endif  // HML_CLI
