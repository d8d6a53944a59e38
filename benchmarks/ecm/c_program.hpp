// A kernel in C run as the ECM model predicts it: the very source and flags hml's in-core analysis compiled
// (hml::compiled_in_core::source and ::flags: the file's declarations at file scope, its loop nest as
// `void hml_kernel(void)`), linked with a small main that runs the kernel over and over, and started once
// per thread. Each process has the kernel's arrays as its own globals, as each thread of the other rows has
// its own arrays.
#pragma once
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

import hml;
import hml.c_kernel;

namespace bench {

// Appended to the kernel's source: no header, so that no name of the C library meets one of the kernel's.
// It writes every page of the program's data (the kernel's arrays are globals: until written, each page of
// them reads as the one page of zeros the system shares, which a read-only array would stream from L1),
// waits for the start time all processes share, then runs the kernel until the end time, `repeat` calls a
// pass, printing each pass's start and end (CLOCK_MONOTONIC, ns). The kernel is called through a volatile
// pointer, so that it is compiled as the analysis compiled it, not inlined into main.
inline constexpr const char* c_program_main = R"(
struct hml_timespec { long tv_sec; long tv_nsec; };
int clock_gettime(int, struct hml_timespec*);
int printf(const char*, ...);
long long atoll(const char*);
extern char __data_start[], _end[];
static long long hml_now(void) {
  struct hml_timespec t;
  clock_gettime(1 /* CLOCK_MONOTONIC */, &t);
  return t.tv_sec * 1000000000LL + t.tv_nsec;
}
int main(int argc, char** argv) {
  if (argc != 4) return 2;
  const long long start = atoll(argv[1]), end = atoll(argv[2]), repeat = atoll(argv[3]);
  for (volatile char* p = __data_start; p < _end; p += 4096) *p = *p;
  void (*volatile kernel)(void) = hml_kernel;
  kernel();
  while (hml_now() < start) {}
  for (long long t1 = 0; t1 < end;) {
    const long long t0 = hml_now();
    for (long long r = 0; r < repeat; ++r) kernel();
    t1 = hml_now();
    printf("%lld %lld\n", t0, t1);
  }
  return 0;
}
)";

class c_program {
public:
  // Builds the program in `folder` with the clang the analysis ran (HML_CLANG).
  c_program(const hml::compiled_in_core& compiled, const std::filesystem::path& folder, const std::string& name)
      : path_{folder / name} {
    const std::filesystem::path source = folder / (name + ".c");
    std::ofstream{source} << compiled.source << c_program_main;
    std::string command = HML_CLANG;
    for (const std::string& flag : compiled.flags) command += " " + flag;
    command += " " + source.string() + " -o " + path_.string();
    if (std::system(command.c_str()) != 0) throw std::runtime_error("cannot build " + name + ": " + command);
  }

  // The time of one pass with every process running: `processes` copies started together, each passing
  // over its arrays for `window`, `repeat` passes between two readings of the clock (a pass in L1 is
  // tens of nanoseconds, about what reading the clock twice takes). Only passes that lie wholly between the
  // last process's first pass and the first process's last one count (every process ran throughout), and the time is the slowest process's
  // best pass among them, as a parallel pass ends with its slowest thread. Where no pass ran beside the
  // others (a host so loaded that one process began after another ended), that is an error, unless
  // `measuring` is false (the smoke test: it checks that the program runs), which takes every pass.
  [[nodiscard]] hml::duration time(unsigned processes, std::chrono::nanoseconds window, unsigned repeat,
                                   bool measuring) const {
    using clock = std::chrono::steady_clock;  // CLOCK_MONOTONIC, as the program's
    const long long start = (clock::now() + std::chrono::seconds{1}).time_since_epoch().count();
    const long long end = start + window.count();
    const std::string command =
        path_.string() + " " + std::to_string(start) + " " + std::to_string(end) + " " + std::to_string(repeat);
    std::vector<FILE*> running;
    for (unsigned p = 0; p < processes; ++p) {
      FILE* f = ::popen(command.c_str(), "r");
      if (f == nullptr) throw std::runtime_error("cannot start " + path_.string());
      running.push_back(f);
    }
    std::vector<std::vector<std::pair<long long, long long>>> passes(processes);
    for (unsigned p = 0; p < processes; ++p) {
      long long t0 = 0;
      long long t1 = 0;
      while (std::fscanf(running[p], "%lld %lld", &t0, &t1) == 2) passes[p].emplace_back(t0, t1);
      if (::pclose(running[p]) != 0 || passes[p].empty()) throw std::runtime_error(path_.string() + " failed");
    }
    long long from = 0;
    long long to = std::numeric_limits<long long>::max();
    for (const auto& own : passes) {
      from = std::max(from, own.front().first);
      to = std::min(to, own.back().second);
    }
    double slowest = 0;
    for (const auto& own : passes) {
      double best = std::numeric_limits<double>::infinity();
      for (const auto& [t0, t1] : own) {
        if ((t0 >= from && t1 <= to) || !measuring) best = std::min(best, static_cast<double>(t1 - t0));
      }
      if (best == std::numeric_limits<double>::infinity()) throw std::runtime_error(path_.string() + ": no pass ran beside the others");
      slowest = std::max(slowest, best);
    }
    return slowest * 1e-9 / repeat * hml::second;
  }

private:
  std::filesystem::path path_;
};

}  // namespace bench
