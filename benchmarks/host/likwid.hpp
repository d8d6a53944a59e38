// likwid-bench as the reference the probe is held against: runs one of its kernels on a working set with
// the same thread count and reads the rate it reports. Its MByte/s and MFlops/s are decimal (10^6).
#pragma once
#include <array>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <optional>
#include <regex>
#include <string>
#include <string_view>

import hml;

namespace bench {

// The likwid-bench kernels that match the probe's instruction set and byte counts.
struct likwid_kernels {
  std::string copy, triad, peakflops, peakflops_sp;
};

inline likwid_kernels likwid_kernels_for(std::string_view isa) {
  if (isa == "avx512f") return {"copy_avx512", "triad_avx512_fma", "peakflops_avx512_fma", "peakflops_sp_avx512_fma"};
  if (isa == "avx2+fma") return {"copy_avx", "triad_avx_fma", "peakflops_avx_fma", "peakflops_sp_avx_fma"};
  return {"copy", "triad", "peakflops", "peakflops_sp"};
}

inline bool likwid_available() { return std::system("command -v likwid-bench >/dev/null 2>&1") == 0; }

// Runs `likwid-bench -t <test> -W N:<bytes>B:<threads>` and returns the value after `field:` (e.g.
// "MByte/s"), or nothing if it did not run or printed no such field.
inline std::optional<double> likwid_run(const std::string& test, hml::data_size working_set, unsigned threads,
                                        const std::string& field) {
  // Sizes of 2 GiB and more overflow likwid-bench's byte count: give those in kB (10^3 B).
  const auto bytes = static_cast<unsigned long long>(working_set.value());
  const std::string size = bytes < (1ull << 31) ? std::to_string(bytes) + "B" : std::to_string(bytes / 1000) + "kB";
  const std::string command =
      "likwid-bench -t " + test + " -W N:" + size + ":" + std::to_string(threads) + " 2>/dev/null";
  const std::unique_ptr<FILE, int (*)(FILE*)> pipe{popen(command.c_str(), "r"), pclose};
  if (!pipe) return std::nullopt;
  std::string output;
  std::array<char, 4096> buffer{};
  while (std::fgets(buffer.data(), static_cast<int>(buffer.size()), pipe.get()) != nullptr) output += buffer.data();
  std::smatch match;
  const std::regex pattern{"\\n" + std::regex_replace(field, std::regex{R"([/()])"}, R"(\$&)") + R"(:\s+([0-9.eE+]+))"};
  if (!std::regex_search(output, match, pattern)) return std::nullopt;
  return std::stod(match[1].str());
}

// The best of `runs` runs, as the probe keeps the best of its repetitions.
inline std::optional<double> likwid_figure(const std::string& test, hml::data_size working_set, unsigned threads,
                                           const std::string& field, unsigned runs) {
  std::optional<double> best;
  for (unsigned r = 0; r < runs; ++r) {
    if (const auto figure = likwid_run(test, working_set, threads, field); figure && (!best || *figure > *best)) {
      best = figure;
    }
  }
  return best;
}

inline std::optional<hml::data_rate> likwid_bandwidth(const std::string& test, hml::data_size working_set,
                                                      unsigned threads, unsigned runs) {
  const auto mbyte_per_s = likwid_figure(test, working_set, threads, "MByte/s", runs);
  if (!mbyte_per_s) return std::nullopt;
  return *mbyte_per_s * (hml::megabyte / hml::second);
}

inline std::optional<hml::compute_rate> likwid_flops(const std::string& test, hml::data_size working_set,
                                                     unsigned threads, unsigned runs) {
  const auto mflop_per_s = likwid_figure(test, working_set, threads, "MFlops/s", runs);
  if (!mflop_per_s) return std::nullopt;
  return *mflop_per_s * (hml::mega(hml::flop) / hml::second);
}

}  // namespace bench
