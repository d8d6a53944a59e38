// A program run as a user runs it, measured from outside: the wall time from fork to exit and the peak
// resident memory of the process (wait4's rusage, what /usr/bin/time -v reports), so that nothing inside
// the program is timed by the program. For the benchmark parts that run the built `hml`, with what they
// share around it: a generated list of kernels, the lines of an output, counts as text.
#pragma once
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <fstream>
#include <random>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>
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

// 1000000 as "1,000,000".
inline std::string count(std::size_t n) {
  std::string digits = std::to_string(n);
  for (std::size_t at = digits.size(); at > 3; at -= 3) digits.insert(at - 3, ",");
  return digits;
}

inline std::size_t count_lines(const std::filesystem::path& p) {
  std::ifstream in{p, std::ios::binary};
  std::size_t lines = 0;
  std::vector<char> block(1 << 20);
  while (in) {
    in.read(block.data(), static_cast<std::streamsize>(block.size()));
    lines += static_cast<std::size_t>(std::count(block.data(), block.data() + in.gcount(), '\n'));
  }
  return lines;
}

// `n` kernels as `hml roofline` and `hml chart` read them, and as the roofline exercise's Python reference
// reads them (plain numbers): FLOP and bytes log-uniform over ten and eight decades, so that both bounds of
// a roof occur, fixed by the seed.
inline void write_kernels_csv(const std::filesystem::path& p, std::size_t n) {
  std::mt19937_64 random{2026};
  std::uniform_real_distribution<double> flop_decades{3, 13};
  std::uniform_real_distribution<double> byte_decades{3, 11};
  std::ofstream out{p, std::ios::binary};
  out << "name,flops,memory_bytes\n";
  for (std::size_t i = 0; i < n; ++i) {
    out << "kernel " << i << ',' << std::llround(std::pow(10.0, flop_decades(random))) << ','
        << std::llround(std::pow(10.0, byte_decades(random))) << '\n';
  }
}

// A part's run: `fragment(work)` in a scratch folder of its own, removed whatever happens, and the Markdown
// it returns written to `markdown` whole (a temporary renamed over it) and to standard output. On any
// failure, one line on stderr naming the part, status 1, and no fragment.
template <class Fragment>
int write_fragment(std::string_view part, const std::string& markdown, Fragment fragment) {
  namespace fs = std::filesystem;
  const fs::path work = fs::temp_directory_path() / ("hml-" + std::string{part} + "-bench-" + std::to_string(::getpid()));
  try {
    fs::create_directories(work);
    const std::string md = fragment(work);
    fs::remove_all(work);
    const fs::path temporary = markdown + ".tmp";
    {
      std::ofstream out{temporary, std::ios::binary};
      out << md;
      if (!out.flush()) throw std::runtime_error("cannot write " + temporary.string());
    }
    fs::rename(temporary, markdown);
    std::fputs(md.c_str(), stdout);
    return 0;
  } catch (const std::exception& e) {
    std::error_code ignored;
    fs::remove_all(work, ignored);
    std::fprintf(stderr, "%s: %s\n", std::string{part}.c_str(), e.what());
    return 1;
  }
}

}  // namespace bench
