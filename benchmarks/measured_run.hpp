// A program run as a user runs it, measured from outside: the wall time from fork to exit and the peak
// resident memory of the process (wait4's rusage, what /usr/bin/time -v reports), so that nothing inside
// the program is timed by the program. For the benchmark parts that run the built `hml`.
#pragma once
#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

namespace bench {

struct measured {
  int status = -1;        // exit status (-1: killed)
  double seconds = 0;     // wall time, start to exit
  double peak_bytes = 0;  // peak resident set of the process
  std::string error;      // what it wrote to stderr
  int runs = 1;           // runs the best was taken from
};

// Runs `argv` with standard input from `in` and standard output to `out` (paths), and measures it.
inline measured run(const std::vector<std::string>& argv, const std::filesystem::path& in,
                    const std::filesystem::path& out, const std::filesystem::path& err) {
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  const auto start = std::chrono::steady_clock::now();
  const ::pid_t child = ::fork();
  if (child < 0) throw std::runtime_error("fork failed");
  if (child == 0) {
    const int i = ::open(in.c_str(), O_RDONLY);
    const int o = ::open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const int e = ::open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (i < 0 || o < 0 || e < 0 || ::dup2(i, 0) < 0 || ::dup2(o, 1) < 0 || ::dup2(e, 2) < 0) ::_exit(127);
    ::execv(args[0], args.data());
    ::_exit(127);
  }
  int status = 0;
  ::rusage usage{};
  if (::wait4(child, &status, 0, &usage) != child) throw std::runtime_error("wait4 failed");
  measured m;
  m.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  m.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  m.peak_bytes = static_cast<double>(usage.ru_maxrss) * 1024.0;  // ru_maxrss is in KiB on Linux
  std::ifstream text{err};
  std::getline(text, m.error, '\0');
  return m;
}

// The best (shortest) of at least `runs` runs and of as many more as `min_seconds` of runs take (at most 100),
// with the largest peak memory seen; a failed run is an error. The time sizes the sample as Google Benchmark
// sizes its own: one run of hml takes 0.1-0.7 s, and on this shared VM `hml roofline --round` (two threads)
// took 91-143 ms at best and 112-191 ms at the median in batches of 20-40 runs minutes apart, so three runs
// alone often hold no quiet one.
inline measured best_of(int runs, const std::vector<std::string>& argv, const std::filesystem::path& in,
                        const std::filesystem::path& out, const std::filesystem::path& err, double min_seconds = 0) {
  measured best;
  double total = 0;
  int r = 0;
  for (; r < runs || (total < min_seconds && r < 100); ++r) {
    const measured m = run(argv, in, out, err);
    if (m.status != 0) throw std::runtime_error(argv[0] + " failed (status " + std::to_string(m.status) + "): " + m.error);
    if (r == 0 || m.seconds < best.seconds) best = {m.status, m.seconds, std::max(best.peak_bytes, m.peak_bytes), {}};
    best.peak_bytes = std::max(best.peak_bytes, m.peak_bytes);
    total += m.seconds;
  }
  best.runs = r;
  return best;
}

// The 1-minute load average: figures taken while other programs compete for the cores read slower.
inline std::string load_average() {
  std::ifstream in{"/proc/loadavg"};
  std::string first;
  in >> first;
  return first.empty() ? std::string{"unknown"} : first;
}

}  // namespace bench
