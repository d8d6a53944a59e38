// Streaming: `hml sweep` and `hml roofline` as a user runs them, measured from outside: the wall time of
// each run and its peak resident memory (wait4's rusage, what /usr/bin/time -v reports), all in one run,
// so that every ratio compares figures taken under the same conditions.
//
// - sweeps of side x side points to CSV, JSON and the text table, to a file with -o (atomic: written,
//   synced, renamed) and to /dev/null (the program's own cost); the same sweep at a hundredth of the points
//   (memory must not grow with points), and one sweep of big_side x big_side points (about 10^7, the most a sweep takes) to /dev/null;
// - `hml roofline --round` against the roofline exercise's Python reference solution (roofline_reference.py)
//   on one generated file of `operations` operations, CSV in and CSV out; the two outputs must agree
//   (same names and bounds, the same doubles), else the program reports nothing and fails; then
//   `hml roofline` at full precision in each format, and on a tenth of the operations (memory);
// - binary input (/dev/zero, /dev/urandom): how long until the one-line error, and in what memory.
//
// Each hml figure is the best of at least --runs runs and of as many more as --min-seconds of runs take.
//
//   streaming --hml PATH --reference roofline_reference.py [--python python3] [--side N] [--big-side N]
//             [--operations N] [--runs N] [--min-seconds S] --markdown FILE
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include <CLI/CLI.hpp>
#include <unistd.h>

#include "../markdown_row.hpp"
#include "../measured_run.hpp"

import hml;

namespace {

namespace fs = std::filesystem;
using bench::best_of;
using bench::count;
using bench::count_lines;
using bench::load_average;
using bench::markdown_row;
using bench::measured;
using bench::run;

std::string seconds(double s) { return hml::to_string(hml::duration::from_value(s), {.number = hml::general(3)}); }
std::string memory(double bytes) {
  return hml::to_string(hml::data_size::from_value(bytes), {.number = hml::general(3), .prefixes = hml::prefix_system::binary});
}
std::string number(double x, int digits = 3) { return std::string{hml::format_number(x, hml::general(digits)).view()}; }
std::string ratio(double x) { return number(x) + "x"; }
std::string runs(int n) { return std::to_string(n) + (n == 1 ? " run" : " runs"); }

std::vector<std::string> split(std::string_view line, char separator) {
  std::vector<std::string> fields;
  std::size_t begin = 0;
  for (std::size_t end; (end = line.find(separator, begin)) != std::string_view::npos; begin = end + 1) {
    fields.emplace_back(line.substr(begin, end - begin));
  }
  fields.emplace_back(line.substr(begin));
  return fields;
}

// hml's and the reference's CSV: the same header, names and bounds, and the same doubles in every other
// field (the texts differ: Python writes 5300000000000.0 where hml writes 5.3e+12). Returns the rows.
std::size_t check_agreement(const fs::path& hml_csv, const fs::path& python_csv) {
  std::ifstream a{hml_csv, std::ios::binary};
  std::ifstream b{python_csv, std::ios::binary};
  std::string line_a;
  std::string line_b;
  std::size_t rows = 0;
  for (std::size_t line = 1;; ++line) {
    const bool more_a = static_cast<bool>(std::getline(a, line_a));
    const bool more_b = static_cast<bool>(std::getline(b, line_b));
    if (more_a != more_b) throw std::runtime_error("hml and the reference wrote different numbers of lines");
    if (!more_a) return rows;
    const std::vector<std::string> x = split(line_a, ',');
    const std::vector<std::string> y = split(line_b, ',');
    bool same = x.size() == y.size() && x.size() == 6;
    for (std::size_t f = 0; same && f < x.size(); ++f) {
      const bool text = line == 1 || f == 0 || f == 3;
      same = text ? x[f] == y[f] : std::strtod(x[f].c_str(), nullptr) == std::strtod(y[f].c_str(), nullptr);
    }
    if (!same) throw std::runtime_error("line " + std::to_string(line) + ": hml wrote '" + line_a + "', the reference '" + line_b + "'");
    rows += line > 1 ? 1 : 0;
  }
}

struct options {
  std::string hml;
  std::string reference;
  std::string python;
  std::size_t side = 1000;
  std::size_t big_side = 3'162;  // 3162^2 = 9,998,244: just under hml::max_sweep_points (10^7)
  std::size_t operations = 1'000'000;
  int runs = 3;
  double min_seconds = 2;  // hml's runs of each measurement take at least this long in all
  std::string markdown;
};

// How many runs each hml figure is the best of.
std::string sample(const options& o) {
  std::string text = "at least " + runs(o.runs);
  if (o.min_seconds > 0) text += " and of as many as " + seconds(o.min_seconds) + " of runs take";
  return text;
}

std::string fragment(const options& o, const fs::path& work) {
  const fs::path null = "/dev/null";
  const fs::path err = work / "stderr";
  std::ostringstream md;
  const std::string load_before = load_average();
  const std::string axes_bandwidth = "1Gbit/s:1Tbit/s:";
  const auto sweep = [&](std::size_t side, std::string_view format) {
    return std::vector<std::string>{o.hml, "sweep", "--bandwidth", axes_bandwidth + std::to_string(side) + ":log",
                                    "--ops-per-byte", "0.25:16:" + std::to_string(side), "--format",
                                    std::string{format}};
  };
  const std::size_t point_count = o.side * o.side;
  const auto points = static_cast<double>(point_count);

  // --- sweeps ---
  md << "### `hml sweep`\n\n";
  md << "`hml sweep --bandwidth 1Gbit/s:1Tbit/s:" << o.side << ":log --ops-per-byte 0.25:16:" << o.side
     << " --format F`: " << count(point_count) << " points; wall time the best of " << sample(o)
     << ", peak resident memory the largest. `-o FILE` writes a temporary file beside FILE, syncs it to the "
        "disk and renames it; `> /dev/null` is the program's own cost.\n\n";
  md << markdown_row({"format", "`-o FILE`", "points/s", "peak memory", "`> /dev/null`", "points/s", "peak memory",
                      "output"});
  md << markdown_row({"---", "---:", "---:", "---:", "---:", "---:", "---:", "---:"});
  double csv_seconds = 0;
  double csv_peak = 0;
  double csv_file_seconds = 0;
  double json_seconds = 0;
  double json_file_seconds = 0;
  double largest_peak = 0;
  for (const std::string_view format : {"csv", "json", "table"}) {
    const fs::path file = work / ("sweep." + std::string{format});
    std::vector<std::string> to_file = sweep(o.side, format);
    to_file.insert(to_file.end(), {"-o", file.string()});
    const measured f = best_of(o.runs, to_file, null, null, err, o.min_seconds);
    const std::size_t lines = count_lines(file);
    const std::size_t expected = format == "csv" ? o.side * o.side + 1
                                 : format == "table" ? o.side * o.side + 2
                                                     : o.side * o.side * 11 + 2;  // a line per brace and per field
    if (lines != expected) {
      throw std::runtime_error("hml sweep --format " + std::string{format} + " wrote " + std::to_string(lines) +
                               " lines, not " + std::to_string(expected));
    }
    const auto size = static_cast<double>(fs::file_size(file));
    fs::remove(file);
    const measured n = best_of(o.runs, sweep(o.side, format), null, null, err, o.min_seconds);
    if (format == "csv") {
      csv_seconds = n.seconds;
      csv_file_seconds = f.seconds;
      csv_peak = n.peak_bytes;
    } else if (format == "json") {
      json_seconds = n.seconds;
      json_file_seconds = f.seconds;
    }
    if (format != "table") largest_peak = std::max({largest_peak, f.peak_bytes, n.peak_bytes});
    md << markdown_row({std::string{format}, seconds(f.seconds), number(points / f.seconds), memory(f.peak_bytes),
                        seconds(n.seconds), number(points / n.seconds), memory(n.peak_bytes),
                        hml::to_string(hml::data_size::from_value(size), {.number = hml::general(3)})});
  }
  md << "\n**" << count(point_count) << " points: CSV in " << seconds(csv_seconds) << " to /dev/null, "
     << seconds(csv_file_seconds) << " to a synced file (target <= 300 ms); JSON in " << seconds(json_seconds) << ", "
     << seconds(json_file_seconds) << " (target <= 600 ms); peak memory at most " << memory(largest_peak)
     << " (target <= 64 MiB).**\n";
  const std::size_t small_side = std::max<std::size_t>(o.side / 10, 1);
  const measured small = best_of(1, sweep(small_side, "csv"), null, null, err);
  const measured big = best_of(1, sweep(o.big_side, "csv"), null, null, err);
  const double big_points = static_cast<double>(o.big_side * o.big_side);
  md << "\nMemory against points (CSV to /dev/null): " << count(small_side * small_side) << " points peak at "
     << memory(small.peak_bytes) << ", " << count(point_count) << " at " << memory(csv_peak) << " ("
     << ratio(csv_peak / small.peak_bytes) << "), and " << count(o.big_side * o.big_side) << " points ran to the end in "
     << seconds(big.seconds) << " (" << number(big_points / big.seconds) << " points/s) at a peak of "
     << memory(big.peak_bytes) << " (" << ratio(big.peak_bytes / small.peak_bytes) << " the small sweep's).\n\n";

  // --- roofline ---
  const fs::path operations = work / "operations.csv";
  const fs::path fewer = work / "operations-tenth.csv";
  bench::write_kernels_csv(operations, o.operations);
  bench::write_kernels_csv(fewer, std::max<std::size_t>(o.operations / 10, 1));
  const double n_ops = static_cast<double>(o.operations);
  const std::vector<std::string> peaks{"--peak-compute", "67TFLOP/s", "--peak-bandwidth", "3.35TB/s"};
  const auto roofline = [&](const fs::path& ops, std::vector<std::string> extra) {
    std::vector<std::string> argv{o.hml, "roofline"};
    argv.insert(argv.end(), peaks.begin(), peaks.end());
    argv.insert(argv.end(), {"--ops", ops.string()});
    argv.insert(argv.end(), extra.begin(), extra.end());
    return argv;
  };
  const fs::path hml_out = work / "hml.csv";
  const measured hml_round =
      best_of(o.runs, roofline(operations, {"--format", "csv", "--round"}), null, hml_out, err, o.min_seconds);
  md << "### `hml roofline` against the Python reference\n\n";
  md << "One file of " << count(o.operations) << " operations (`name,flops,memory_bytes`, plain numbers, "
     << memory(static_cast<double>(fs::file_size(operations))) << "), CSV in and CSV out, on a roof of 67 TFLOP/s and "
        "3.35 TB/s. The reference is the exercise's `roofline_analysis()` as published, in "
        "`benchmarks/streaming/roofline_reference.py` with the csv module to read and write; `hml roofline --round` "
        "rounds as it does. ";
  if (o.python.empty()) {
    md << "No python3 was found, so the reference did not run.\n\n";
  } else {
    const fs::path python_out = work / "python.csv";
    const fs::path version_file = work / "python-version";
    run({o.python, "--version"}, null, version_file, err);
    std::string version;
    std::getline(std::ifstream{version_file}, version);
    const measured python = best_of(std::min(o.runs, 2), {o.python, o.reference, "67e12", "3.35e12", operations.string(), python_out.string()},
                                    null, null, err);
    const std::size_t rows = check_agreement(hml_out, python_out);
    if (rows != o.operations) throw std::runtime_error("the outputs hold " + std::to_string(rows) + " rows");
    fs::remove(python_out);
    md << "Both wrote the same " << count(o.operations) << " rows (names and bounds equal, every number the same "
          "double); wall time the best of " << runs(hml_round.runs) << " for hml (" << sample(o) << "), of "
       << runs(python.runs) << " for Python (`" << o.python << "`: " << version
       << "); the operations are read and analysed on one thread while a second formats them and a "
          "third writes.\n\n";
    md << markdown_row({"program", "wall time", "operations/s", "peak memory"});
    md << markdown_row({"---", "---:", "---:", "---:"});
    md << markdown_row({"Python reference", seconds(python.seconds), number(n_ops / python.seconds), memory(python.peak_bytes)});
    md << markdown_row({"`hml roofline --format csv --round`", seconds(hml_round.seconds), number(n_ops / hml_round.seconds),
                        memory(hml_round.peak_bytes)});
    md << "\n**hml roofline / Python: " << ratio(python.seconds / hml_round.seconds) << " faster (target >= 50x), "
       << ratio(hml_round.peak_bytes / python.peak_bytes) << " the peak memory.**\n\n";
  }
  fs::remove(hml_out);
  md << "`hml roofline` at full precision (no `--round`), output to /dev/null:\n\n";
  md << markdown_row({"format", "wall time", "operations/s", "peak memory", "a tenth of the operations: peak memory"});
  md << markdown_row({"---", "---:", "---:", "---:", "---:"});
  for (const std::string_view format : {"csv", "json", "table"}) {
    const measured all = best_of(o.runs, roofline(operations, {"--format", std::string{format}}), null, null, err, o.min_seconds);
    const measured tenth = best_of(1, roofline(fewer, {"--format", std::string{format}}), null, null, err);
    md << markdown_row({std::string{format}, seconds(all.seconds), number(n_ops / all.seconds), memory(all.peak_bytes),
                        memory(tenth.peak_bytes)});
  }

  // --- hostile input ---
  md << "\nBinary input ends in one line on stderr and status 2:\n\n";
  md << markdown_row({"`--ops`", "wall time", "peak memory", "message"});
  md << markdown_row({"---", "---:", "---:", "---"});
  for (const std::string_view device : {"/dev/zero", "/dev/urandom"}) {
    const measured m = run(roofline(device, {}), null, null, err);
    if (m.status != 2 || !m.error.starts_with("hml: error: ")) {
      throw std::runtime_error("hml roofline --ops " + std::string{device} + ": status " + std::to_string(m.status) + ", " + m.error);
    }
    // Random bytes quoted in the message would not be UTF-8 (nor a Markdown cell): shown as \xHH.
    std::string message;
    for (const char c : m.error.substr(0, m.error.find('\n'))) {
      const auto code = static_cast<unsigned char>(c);
      if (code >= 0x20 && code < 0x7F && c != '`' && c != '|') {
        message += c;
      } else {
        constexpr std::string_view hex = "0123456789abcdef";
        message += "\\x";
        message += hex[code >> 4];
        message += hex[code & 0xF];
      }
    }
    md << markdown_row({std::string{device}, seconds(m.seconds), memory(m.peak_bytes), "`" + message + "`"});
  }
  fs::remove(operations);
  fs::remove(fewer);
  const std::string load_after = load_average();
  const double cores = static_cast<double>(std::max(1u, std::thread::hardware_concurrency()));
  const bool busy = std::atof(load_before.c_str()) > cores || std::atof(load_after.c_str()) > cores;
  md << "\nThe machine's 1-minute load average was " << load_before << " when this part started and " << load_after
     << " when it ended" << (busy ? " (above the core count: other programs shared the cores, and wall times read long)"
                                  : " (below the core count)")
     << ".\n";
  return md.str();
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"hml sweep and hml roofline, measured from outside; a Markdown fragment for benchmarks/README.md"};
  options o;
  app.add_option("--hml", o.hml, "the hml program")->required();
  app.add_option("--reference", o.reference, "roofline_reference.py")->required();
  app.add_option("--python", o.python, "python3 (none: the reference is not run)");
  app.add_option("--side", o.side, "sweep side x side points")->capture_default_str();
  app.add_option("--big-side", o.big_side, "the big sweep's side")->capture_default_str();
  app.add_option("--operations", o.operations, "operations in the roofline file")->capture_default_str();
  app.add_option("--runs", o.runs, "runs of each measurement at least (the best is kept)")->capture_default_str();
  app.add_option("--min-seconds", o.min_seconds, "and as many more as hml's runs of it take this long in all")
      ->capture_default_str();
  app.add_option("--markdown", o.markdown, "write the fragment here")->required();
  CLI11_PARSE(app, argc, argv);
  return bench::write_fragment("streaming", o.markdown, [&](const fs::path& work) { return fragment(o, work); });
}
