// The built `hml` program, driven from outside: every subcommand's output against the library's own
// results (JSON and CSV read back, numbers compared exactly), and every kind of bad input: exit status 2,
// one line on stderr, nothing on stdout, no output file.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <iterator>
#include <limits>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>
#include <sys/wait.h>
#include <unistd.h>

#include "cli_harness.hpp"        // runs hml as a shell would
#include "roofline_analysis.hpp"  // the roofline exercise's operations, as the example runs them
#include "svg_layout.hpp"         // the geometry of what the chart drew
#include "svg_read.hpp"           // where the chart drew things

import hml;
import hml.probe;

#ifdef HML_CLI

namespace {

using namespace hml::literals;
namespace fs = std::filesystem;

using namespace hml_test;

// Runs `producer | hml args... > consumer` in the shell, hml's address space limited to `limit_mib` MiB
// (ulimit -v) so that a run whose memory grows with its input or output fails instead of passing. `producer`
// writes hml's standard input (empty: none); `consumer` takes its standard output (empty: a file, read back).
outcome hml_run_bounded(std::size_t limit_mib, std::string_view producer, std::initializer_list<std::string> args,
                        std::string_view consumer = {}) {
  const scratch_directory io{"io"};
  std::string command = "{ " + (producer.empty() ? std::string{"true"} : std::string{producer}) + "; }";
  command += " | (ulimit -v " + std::to_string(limit_mib * 1024) + " && " + shell_quoted(HML_CLI);
  for (const std::string& arg : args) command += " " + shell_quoted(arg);
  command += " 2>" + shell_quoted((io.path / "err").string()) + "; echo $? >" +
             shell_quoted((io.path / "status").string()) + ")";
  command += consumer.empty() ? " >" + shell_quoted((io.path / "out").string())
                              : " | " + std::string{consumer} + " >" + shell_quoted((io.path / "out").string());
  EXPECT_EQ(std::system(command.c_str()), 0) << command;
  return {std::stoi(read_file(io.path / "status")), read_file(io.path / "out"), read_file(io.path / "err")};
}

// The address space `hml` may use in those runs: a run that streams needs under 24 MiB (a debug build
// included); holding the rows took about 930 B a sweep point and 600 B an operation (10^6 of them: 930 MB
// and 600 MB), so 2 x 10^5 rows of either would not fit.
constexpr std::size_t bounded_mib = 64;

constexpr bool address_space_limits_work = !address_sanitized;

// Shortest round-trip text of a double (what CSV input needs to carry the exact value).
std::string exact(double x) { return std::string{hml::format_number(x, hml::general(17)).view()}; }

// A JSON number, or the strings "inf" / "nan" the library writes for the non-finite ones.
double number_of(const nlohmann::json& j) {
  if (j.is_string()) {
    if (j == "inf") return std::numeric_limits<double>::infinity();
    if (j == "-inf") return -std::numeric_limits<double>::infinity();
    return std::numeric_limits<double>::quiet_NaN();
  }
  return j.get<double>();
}

// CSV records of the library's writer (CRLF, no quoted fields in these tests).
std::vector<std::vector<std::string>> csv_records(const std::string& text) {
  std::vector<std::vector<std::string>> records;
  std::istringstream lines{text};
  for (std::string line; std::getline(lines, line);) {
    EXPECT_TRUE(line.ends_with('\r')) << "not CRLF: " << line;
    if (line.ends_with('\r')) line.pop_back();
    std::vector<std::string>& fields = records.emplace_back();
    std::istringstream cells{line};
    for (std::string cell; std::getline(cells, cell, ',');) fields.push_back(cell);
  }
  return records;
}

double number_of(const std::string& csv_field) { return std::strtod(csv_field.c_str(), nullptr); }

// --- every subcommand -------------------------------------------------------------------------------

TEST(Cli, VersionAndHelp) {
  const outcome version = hml_run({"--version"});
  EXPECT_EQ(version.status, 0);
  EXPECT_EQ(version.out, "hml " HML_VERSION "\n");
  for (const std::string command : {"lab", "sweep", "roofline", "analyze", "devices", "chart"}) {
    const outcome help = hml_run({command, "--help"});
    EXPECT_EQ(help.status, 0) << command;
    EXPECT_NE(help.out.find("Example: hml " + command), std::string::npos) << command << ":\n" << help.out;
  }
  const outcome top = hml_run({"--help"});
  EXPECT_EQ(top.status, 0);
  for (const char* command : {"lab", "sweep", "roofline", "analyze", "devices", "chart"}) {
    EXPECT_NE(top.out.find(command), std::string::npos) << command;
  }
}

TEST(Cli, LabPrintsTheSeedBlockOfTheLibrary) {
  // The seed's bandwidth sweep, each case through the command and through the library.
  struct seed_case {
    std::string bandwidth;
    std::string ops;
    hml::data_rate rate;
    double ops_per_byte;
  };
  for (const seed_case& c :
       {seed_case{"1Gbit/s", "1", 1_Gbps, 1.0}, seed_case{"100Gbit/s", "1.0 FLOP/B", 100_Gbps, 1.0},
        seed_case{"10 Gbit/s", "0.5", 10_Gbps, 0.5}, seed_case{"10Gbps", "16", 10_Gbps, 16.0}}) {
    const outcome o = hml_run({"lab", "--size", "10MiB", "--bandwidth", c.bandwidth, "--ops-per-byte", c.ops,
                               "--latency", "50ns", "--peak", "10GFLOP/s", "--title", "case"});
    const hml::arithmetic_intensity ops = c.ops_per_byte * hml::flop_per_byte;
    std::string expected;
    hml::write_bandwidth_block(
        expected, "case", 10_MiB, c.rate, ops,
        hml::run(hml::streaming(10_MiB, ops), hml::memory{50_ns, c.rate}, hml::compute_core{10_GFLOPS}));
    EXPECT_EQ(o.status, 0) << o.err;
    EXPECT_EQ(o.out, expected);
  }
  // The defaults are the seed's low-bandwidth case.
  EXPECT_EQ(hml_run({"lab", "--title", "case"}).out,
            hml_run({"lab", "--size", "10MiB", "--bandwidth", "1Gbit/s", "--title", "case"}).out);
}

TEST(Cli, LabTwoTierMemoryAndOptions) {
  const outcome o = hml_run({"lab", "--size", "10MB", "--hit-rate", "0.95", "--fast", "500Gbit/s", "--slow", "10Gbit/s",
                             "--title", "Good locality"});
  const hml::two_tier_memory memory{50_ns, 500_Gbps, 10_Gbps, 0.95};
  std::string expected;
  hml::write_cache_block(
      expected, "Good locality", memory,
      hml::run(hml::streaming(10_MB, 1.0 * hml::flop_per_byte), memory, hml::compute_core{10_GFLOPS}));
  EXPECT_EQ(o.status, 0) << o.err;
  EXPECT_EQ(o.out, expected);

  // Random access and full overlap reach the model.
  const outcome random = hml_run({"lab", "--bandwidth", "100Gbit/s", "--pattern", "random", "--element", "8B",
                                  "--outstanding", "16", "--overlap", "full", "--title", "r"});
  std::string random_expected;
  const hml::kernel k = hml::streaming(10_MiB, 1.0 * hml::flop_per_byte, hml::random_access(8_B, 64_B, 16));
  hml::write_bandwidth_block(
      random_expected, "r", 10_MiB, 100_Gbps, 1.0 * hml::flop_per_byte,
      hml::run(k, hml::memory{50_ns, 100_Gbps}, hml::compute_core{10_GFLOPS}, {.overlap_policy = hml::overlap::full}));
  EXPECT_EQ(random.out, random_expected);

  // The seed's fixed decimals where they show the value; a value they would round away keeps its digits.
  const outcome small = hml_run({"lab", "--bandwidth", "1MB/s", "--ops-per-byte", "0.001"});
  EXPECT_NE(small.out.find("\nBandwidth: 0.008 Gbit/s\nOps per byte: 0.001\n"), std::string::npos) << small.out;
  const outcome tiers = hml_run({"lab", "--hit-rate", "0.004", "--fast", "500Gbit/s", "--slow", "10Gbit/s"});
  EXPECT_NE(tiers.out.find("\nHit rate: 0.004\nFast BW: 500.0 Gbit/s\nSlow BW: 10.0 Gbit/s\n"), std::string::npos)
      << tiers.out;
}

TEST(Cli, SweepCsvAndJsonEqualTheLibraryAtEveryPoint) {
  const auto bandwidths = hml::log_axis(1_Gbps, 1000_Gbps, 7);
  const std::vector<double> intensities{0.25, 1.0, 16.0};
  const auto expected = [&](std::size_t row) {
    const hml::data_rate bandwidth = bandwidths[row / intensities.size()];
    const double ops = intensities[row % intensities.size()];
    return std::pair{bandwidth, hml::run(hml::streaming(10_MiB, ops * hml::flop_per_byte),
                                         hml::memory{50_ns, bandwidth}, hml::compute_core{10_GFLOPS})};
  };
  const outcome csv =
      hml_run({"sweep", "--bandwidth", "1Gbit/s:1000Gbit/s:7:log", "--ops-per-byte", "0.25,1,16", "--format", "csv"});
  ASSERT_EQ(csv.status, 0) << csv.err;
  const auto records = csv_records(csv.out);
  ASSERT_EQ(records.size(), 1 + bandwidths.size() * intensities.size());
  const std::vector<std::string> header{"size_B",         "bandwidth_B_per_s", "ops_per_byte",
                                        "latency_s",      "peak_FLOP_per_s",   "memory_time_s",
                                        "compute_time_s", "total_time_s",      "regime"};
  EXPECT_EQ(records[0], header);
  for (std::size_t row = 0; row + 1 < records.size(); ++row) {
    const auto [bandwidth, result] = expected(row);
    const auto& r = records[row + 1];
    EXPECT_EQ(number_of(r[1]), bandwidth.value());
    EXPECT_EQ(number_of(r[5]), result.memory_time.value());
    EXPECT_EQ(number_of(r[6]), result.compute_time.value());
    EXPECT_EQ(number_of(r[7]), result.total.value());
    EXPECT_EQ(r[8], hml::to_string(result.limit));
  }

  const outcome json =
      hml_run({"sweep", "--bandwidth", "1Gbit/s:1000Gbit/s:7:log", "--ops-per-byte", "0.25,1,16", "--format", "json"});
  ASSERT_EQ(json.status, 0) << json.err;
  const nlohmann::json rows = nlohmann::json::parse(json.out);
  ASSERT_EQ(rows.size(), bandwidths.size() * intensities.size());
  for (std::size_t row = 0; row < rows.size(); ++row) {
    const auto [bandwidth, result] = expected(row);
    EXPECT_EQ(number_of(rows[row]["bandwidth_B_per_s"]), bandwidth.value());
    EXPECT_EQ(number_of(rows[row]["total_time_s"]), result.total.value());
    EXPECT_EQ(rows[row]["regime"], hml::to_string(result.limit));
  }

  // The aligned table shows the swept parameters and the results.
  const outcome table = hml_run({"sweep", "--hit-rate", "0:1:3", "--fast", "500Gbit/s", "--slow", "10Gbit/s"});
  ASSERT_EQ(table.status, 0) << table.err;
  EXPECT_TRUE(table.out.starts_with("hit rate  memory time")) << table.out;
  EXPECT_EQ(std::count(table.out.begin(), table.out.end(), '\n'), 2 + 3);

  // A random pattern's parameters travel with the file.
  const outcome random = hml_run({"sweep", "--bandwidth", "1Gbit/s,2Gbit/s", "--pattern", "random", "--element", "4B",
                                  "--outstanding", "8", "--format", "json"});
  ASSERT_EQ(random.status, 0) << random.err;
  const nlohmann::json random_rows = nlohmann::json::parse(random.out);
  ASSERT_EQ(random_rows.size(), 2u);
  EXPECT_EQ(number_of(random_rows[1]["element_B"]), 4.0);
  EXPECT_EQ(number_of(random_rows[1]["line_B"]), 64.0);
  EXPECT_EQ(number_of(random_rows[1]["outstanding"]), 8.0);
}

// Seed 002's operations (the example's list) as CSV with exact numbers.
std::string seed_operations_csv() {
  std::string csv{hml::kernels_csv_header};
  csv += "\n";
  for (const hml::kernel& k : roofline_analysis::operations) {
    csv += "\"" + std::string{k.name} + "\"," + exact(k.flops.value()) + "," + exact(k.bytes.value()) + "\n";
  }
  return csv;
}

TEST(Cli, RooflineAgreesWithTheLibraryOnSeed002) {
  const scratch_directory dir;
  const fs::path operations = dir.file("ops.csv", seed_operations_csv());
  const hml::roof roof = hml::roof_of(hml::devices::h100_sxm, hml::precision::fp32);
  for (const bool rounded : {false, true}) {
    const outcome o =
        rounded
            ? hml_run({"roofline", "--device", "h100_sxm", "--precision", "fp32", "--figures", "stated", "--ops", operations.string(), "--format", "json", "--round"})
            : hml_run({"roofline", "--device", "h100_sxm", "--precision", "fp32", "--figures", "stated", "--ops", "-", "--format", "json"}, operations.string());
    ASSERT_EQ(o.status, 0) << o.err;
    const nlohmann::json rows = nlohmann::json::parse(o.out);
    ASSERT_EQ(rows.size(), roofline_analysis::operations.size());
    const auto maybe_rounded = [rounded](double x, int decimals) {
      return rounded ? hml::round_decimal(x, decimals) : x;
    };
    for (std::size_t i = 0; i < rows.size(); ++i) {
      const hml::roofline_point p = hml::analyze(roofline_analysis::operations[i], roof);
      const nlohmann::json& row = rows[i];
      EXPECT_EQ(row.size(), hml::roofline_fields.size());
      EXPECT_EQ(row["name"], p.name);
      EXPECT_EQ(number_of(row["arithmetic_intensity"]), maybe_rounded(in(p.intensity, hml::flop_per_byte), 4));
      EXPECT_EQ(number_of(row["attainable_flops"]), maybe_rounded(in(p.attainable, hml::flop_per_second), 4));
      EXPECT_EQ(row["bound"], hml::to_string(p.bound));
      EXPECT_EQ(number_of(row["efficiency"]), maybe_rounded(p.efficiency_percent, 2));
      EXPECT_EQ(number_of(row["estimated_time_s"]), maybe_rounded(in(p.estimated_time, hml::second), 8));
    }
  }
  // The infinities of seed 002 (no bytes: intensity inf; no FLOP/s attainable: time inf) as "inf".
  const outcome json = hml_run({"roofline", "--device", "h100_sxm", "--precision", "fp32", "--figures", "stated", "--ops", operations.string(), "--format", "json"});
  EXPECT_NE(json.out.find("\"arithmetic_intensity\": \"inf\""), std::string::npos);
  EXPECT_NE(json.out.find("\"estimated_time_s\": \"inf\""), std::string::npos);
}

TEST(Cli, RooflineCsvAndGivenPeaks) {
  const scratch_directory dir;
  const fs::path operations =
      dir.file("ops.csv", "name,flops,memory_bytes\r\n\"add, 1M\",1 MFLOP,12 MB\r\nmatmul,137438953472,201326592\r\n");
  const outcome o = hml_run({"roofline", "--peak-compute", "5.3TFLOP/s", "--peak-bandwidth", "205GB/s", "--ops",
                             operations.string(), "--format", "csv", "-o", (dir.path / "out.csv").string()});
  ASSERT_EQ(o.status, 0) << o.err;
  EXPECT_TRUE(o.out.empty());
  const std::string csv = read_file(dir.path / "out.csv");
  const hml::roof tutorial{205_GBps, 5.3_TFLOPS};
  const hml::roofline_point add = hml::analyze(hml::kernel{"add, 1M", 1_MFLOP, 12_MB}, tutorial);
  EXPECT_TRUE(csv.starts_with("name,arithmetic_intensity,attainable_flops,bound,efficiency,estimated_time_s\r\n"));
  // Every number reads back as the library's double (CSV writes the shortest round-trip text).
  const std::string quoted_name = "\"add, 1M\",";  // the name has a comma, so it is quoted
  const std::size_t add_record = csv.find("\r\n" + quoted_name);
  ASSERT_NE(add_record, std::string::npos) << csv;
  const std::string rest = csv.substr(add_record + 2 + quoted_name.size());
  const std::vector<std::string> row = csv_records(rest.substr(0, rest.find("\r\n") + 2)).at(0);
  ASSERT_EQ(row.size(), 5u) << csv;
  EXPECT_EQ(number_of(row[0]), in(add.intensity, hml::flop_per_byte));
  EXPECT_EQ(number_of(row[1]), in(add.attainable, hml::flop_per_second));
  EXPECT_EQ(row[2], "memory-bound");
  EXPECT_EQ(number_of(row[3]), add.efficiency_percent);
  EXPECT_EQ(number_of(row[4]), in(add.estimated_time, hml::second));
  EXPECT_EQ(row[0], "0.08333333333333333");  // the shortest text that reads back, not %.17g's
  // The table names the roof.
  const outcome table = hml_run({"roofline", "--device", "M1 Pro", "--precision", "fp32", "--ops", operations.string()});
  EXPECT_EQ(table.status, 0) << table.err;
  EXPECT_TRUE(table.out.starts_with("roofline on Apple M1 Pro, 16-core GPU, FP32: ")) << table.out;
}

TEST(Cli, AnalyzeJsonEqualsMeasure) {
  // Seed 003's measured vector add on the tutorial's M1 Pro figures.
  const outcome o = hml_run({"analyze", "--flops", "10MFLOP", "--bytes", "120MB", "--time", "660.713us",
                             "--peak-compute", "5.3TFLOP/s", "--peak-bandwidth", "205GB/s", "--format", "json"});
  ASSERT_EQ(o.status, 0) << o.err;
  const hml::measured_point m =
      hml::analyze_measured(hml::kernel{"kernel", 10_MFLOP, 120_MB}, 660.713_us, hml::roof{205_GBps, 5.3_TFLOPS});
  const nlohmann::json row = nlohmann::json::parse(o.out).at(0);
  EXPECT_EQ(number_of(row["achieved_flops"]), in(m.achieved_compute, hml::flop_per_second));
  EXPECT_EQ(number_of(row["achieved_bytes_per_s"]), in(m.achieved_bandwidth, hml::byte_per_second));
  EXPECT_EQ(number_of(row["percent_of_peak_compute"]), m.percent_of_peak_compute);
  EXPECT_EQ(number_of(row["percent_of_bandwidth"]), m.percent_of_bandwidth);
  EXPECT_EQ(number_of(row["attainable_flops"]), in(m.attainable, hml::flop_per_second));
  EXPECT_EQ(number_of(row["gap"]), m.gap);
  EXPECT_EQ(row["bound"], "memory-bound");

  const outcome text =
      hml_run({"analyze", "--flops", "10MFLOP", "--bytes", "120MB", "--time", "660.713us", "--device", "m1_pro", "--precision", "fp32", "--figures", "stated"});
  ASSERT_EQ(text.status, 0) << text.err;
  EXPECT_NE(text.out.find("bound: memory-bound"), std::string::npos) << text.out;
  EXPECT_TRUE(text.err.empty()) << text.err;

  // A time in the wrong unit puts the kernel above a roof: it runs, with a note.
  const outcome slip =
      hml_run({"analyze", "--flops", "10MFLOP", "--bytes", "120MB", "--time", "660.713ns", "--device", "m1_pro", "--precision", "fp32", "--figures", "stated"});
  ASSERT_EQ(slip.status, 0) << slip.err;
  const hml::measured_point fast = hml::analyze_measured(hml::kernel{"kernel", 10_MFLOP, 120_MB}, 660.713_ns,
                                                hml::roof_named(hml::machine_named("m1_pro"), hml::precision::fp32));
  const auto note = [](double percent, std::string_view roof) {
    return "hml: note: the kernel reached " + std::string{hml::format_number(percent, hml::significant_format(percent, 3)).view()} +
           " % of the " + std::string{roof} + "; check --time and its unit\n";
  };
  EXPECT_EQ(slip.err, note(fast.percent_of_peak_compute, "peak compute") +
                          note(fast.percent_of_bandwidth, "memory bandwidth"));
  // Past a measured roof (the default figures) but within the datasheet's, the kernel beat the measurement: no
  // slip of the time's unit (a trial: 3.1 TB/s on the H100 SXM is 104 % of the measured 2.97 TB/s, 92.5 % of 3.35).
  const outcome beat =
      hml_run({"analyze", "--flops", "1GFLOP", "--bytes", "3.1GB", "--time", "1ms", "--device", "h100_sxm", "--precision", "fp16"});
  ASSERT_EQ(beat.status, 0) << beat.err;
  EXPECT_NE(beat.err.find("hml: note: the kernel reached 104 % of the memory bandwidth as measured, 92.5 % of the datasheet's: "
                          "it beat the measurement, or the caches served some bytes; --figures stated takes the datasheet's\n"),
            std::string::npos)
      << beat.err;
  EXPECT_EQ(beat.err.find("check --time"), std::string::npos) << beat.err;
  // A kernel of no FLOP is judged by its bandwidth alone, not by an infinite or NaN gap.
  const outcome copy =
      hml_run({"analyze", "--flops", "0", "--bytes", "1GB", "--time", "1s", "--device", "h100_sxm", "--precision", "fp32"});
  // 1 GB/s of the measured 2.97 TB/s (the default figures; the datasheet's 3.35 TB/s would give 0.0299 %).
  EXPECT_NE(copy.out.find("no FLOP: a data movement, at 0.0337 % of the memory roof"), std::string::npos) << copy.out;
  EXPECT_EQ(copy.out.find("nan"), std::string::npos) << copy.out;
}

TEST(Cli, DevicesListsTheCatalog) {
  // The machine file format: every machine, link and system, which reads back as the catalog.
  const outcome json = hml_run({"devices", "--format", "json"});
  ASSERT_EQ(json.status, 0) << json.err;
  const nlohmann::json document = nlohmann::json::parse(json.out);
  EXPECT_EQ(document["format"], hml::machine_file_format);
  ASSERT_EQ(document["machines"].size(), hml::machines::all.size());
  EXPECT_EQ(document["links"].size(), hml::systems::links.size());
  EXPECT_EQ(document["systems"].size(), hml::systems::all.size());
  const hml::machine_file file = hml::read_machine_file(json.out, "catalog.json");
  for (std::size_t i = 0; i < hml::machines::all.size(); ++i) {
    EXPECT_TRUE(*file.machines()[i] == *hml::machines::all[i]) << hml::machines::all[i]->id;
  }
  // The figures as a table: one row per machine.
  const outcome csv = hml_run({"devices", "--format", "csv"});
  ASSERT_EQ(csv.status, 0) << csv.err;
  const outcome yaml = hml_run({"devices", "--format", "yaml"});
  ASSERT_EQ(yaml.status, 0) << yaml.err;
  EXPECT_EQ(hml::read_machine_file(yaml.out, "catalog.yaml").machines().size(), hml::machines::all.size());
  const auto records = csv_records(csv.out);
  ASSERT_EQ(records.size(), hml::machines::all.size() + 1);
  for (std::size_t i = 0; i < hml::machines::all.size(); ++i) EXPECT_EQ(records[i + 1].at(0), hml::machines::all[i]->id);
  const outcome table = hml_run({"devices"});
  EXPECT_EQ(table.status, 0);
  for (const hml::machine_description* d : hml::machines::all) {
    EXPECT_NE(table.out.find(d->name), std::string::npos) << d->name;
  }
  for (const hml::link_description* l : hml::systems::links) EXPECT_NE(table.out.find(l->name), std::string::npos);
  const outcome one_csv = hml_run({"devices", "rtx-4090", "--format", "csv"});
  EXPECT_EQ(csv_records(one_csv.out).size(), 2u);
}

// One device: capacity as a quantity, every figure tagged with a numbered source whose title and place are
// listed below it, and the ridges that follow from the figures.
TEST(Cli, DevicesShowsOneDeviceWithItsSources) {
  const outcome one = hml_run({"devices", "H100 SXM"});
  ASSERT_EQ(one.status, 0) << one.err;
  EXPECT_TRUE(one.out.starts_with("h100_sxm: NVIDIA H100 SXM5 80GB\n")) << one.out;
  EXPECT_NE(one.out.find("  HBM3: 80 GB [3], 3.35 TB/s [3], 2.97 TB/s measured [4]\n"), std::string::npos) << one.out;
  // The L1 and L2 bandwidths this project measured (benchmarks/gpu), the L1 an SM's own.
  EXPECT_NE(one.out.find("  L1: 25.61 TB/s measured [1], per core\n  L2: 50 MB [2], 11.26 TB/s measured [1]\n"),
            std::string::npos) << one.out;
  // The datasheet's tensor peak, and beside it the matmul rate measured (MAMF, 794.5 TFLOP/s) with its ridge.
  EXPECT_NE(one.out.find("  FP16 tensor: 989 TFLOP/s [3] (sparse 1.979 PFLOP/s [3]), ridge 295.2 FLOP/B; "
                         "794.5 TFLOP/s measured [5], ridge 267.5 FLOP/B\n"),
            std::string::npos) << one.out;
  for (std::string_view key : hml::cited_sources(hml::devices::h100_sxm)) {
    const hml::source* s = hml::devices::find_source(key);
    ASSERT_NE(s, nullptr);
    EXPECT_NE(one.out.find(std::string{s->title} + "; " + std::string{s->where}), std::string::npos) << key;
  }
  // The V100: the measured L1, L2 and HBM ceilings and their ridges, beside the datasheet.
  const outcome v100 = hml_run({"devices", "v100"});
  ASSERT_EQ(v100.status, 0) << v100.err;
  for (const char* line : {"  L1: 14.34 TB/s measured [1], per core\n",
                           "  L1 14.34 TB/s measured [1]: ridge 0.4931 FLOP/B (FP64), ridge 0.2466 FLOP/B (FP64 no FMA)\n",
                           "  L2 2.997 TB/s measured [1]: ridge 2.359 FLOP/B (FP64), ridge 1.18 FLOP/B (FP64 no FMA)\n",
                           "  HBM2 828.8 GB/s measured [1]: ridge 8.529 FLOP/B (FP64), ridge 4.266 FLOP/B (FP64 no FMA)\n"}) {
    EXPECT_NE(v100.out.find(line), std::string::npos) << line << v100.out;
  }
}

// A device of the user's own, from a JSON file: shown by `hml devices --file`, and taken by --device-file
// wherever --device is, with the same results as the same figures given as peaks.
std::string my_gpu_json() {
  return R"({
  "id": "my_gpu", "name": "My GPU", "cores": 108, "clock": "1.41 GHz",
  "sources": [{"key": "spec", "title": "My GPU datasheet", "where": "example.com/my-gpu.pdf"}],
  "memory": [
    {"name": "L2", "capacity": "40 MB", "measured_bandwidth": {"value": "5 TB/s", "kind": "measured"}},
    {"name": "HBM2e", "capacity": "80 GB", "bandwidth": {"value": "2039 GB/s", "kind": "stated", "source": "spec"},
     "interface": {"bus_bits": 5120, "pin_rate": "3.19 Gbit/s"}}
  ],
  "compute": [
    {"precision": "fp32", "unit": "vector", "dense": {"value": "19.5 TFLOP/s", "source": "spec"}},
    {"precision": "fp16", "unit": "tensor", "dense": "312 TFLOP/s", "sparse": "624 TFLOP/s"}
  ]
})";
}

TEST(Cli, DeviceFileWhereverADeviceIsTaken) {
  const scratch_directory dir;
  const fs::path file = dir.file("my_gpu.json", my_gpu_json());
  const fs::path operations = dir.file("ops.csv", seed_operations_csv());

  const outcome shown = hml_run({"devices", "--file", file.string()});
  ASSERT_EQ(shown.status, 0) << shown.err;
  EXPECT_TRUE(shown.out.starts_with("my_gpu: My GPU\n")) << shown.out;
  EXPECT_NE(shown.out.find("  HBM2e: 80 GB, 2.039 TB/s [1]\n"), std::string::npos) << shown.out;
  EXPECT_NE(shown.out.find("  [1] My GPU datasheet; example.com/my-gpu.pdf\n"), std::string::npos) << shown.out;
  // An older device file is read with a note, and converted by --format yaml|json into a machine file
  // which reads back as the same machine.
  EXPECT_EQ(shown.err, "hml: note: " + file.string() + " is a device file (an older format), read as such; `hml devices " +
                           file.string() + " --format yaml` writes it as a machine file\n");
  const outcome as_csv = hml_run({"devices", "--file", file.string(), "--format", "csv"});
  ASSERT_EQ(as_csv.status, 0) << as_csv.err;
  EXPECT_NE(as_csv.out.find("my_gpu,"), std::string::npos) << as_csv.out;
  const outcome as_yaml = hml_run({"devices", file.string(), "--format", "yaml"});
  ASSERT_EQ(as_yaml.status, 0) << as_yaml.err;
  const hml::machine_file converted = hml::read_machine_file(as_yaml.out, "converted.yaml");
  EXPECT_TRUE(converted.machine() == hml::read_device_json(my_gpu_json()).machine()) << as_yaml.out;
  EXPECT_NE(as_yaml.out.find("title: My GPU datasheet"), std::string::npos) << as_yaml.out;

  // The roofline on the file's device equals the roofline on its figures given as peaks.
  const outcome from_file = hml_run({"roofline", "--device-file", file.string(), "--precision", "fp16", "--ops",
                                     operations.string(), "--format", "json"});
  const outcome from_peaks = hml_run({"roofline", "--peak-compute", "312TFLOP/s", "--peak-bandwidth", "2039GB/s",
                                      "--ops", operations.string(), "--format", "json"});
  ASSERT_EQ(from_file.status, 0) << from_file.err;
  EXPECT_EQ(from_file.out, from_peaks.out);
  const outcome table = hml_run({"roofline", "--device-file", file.string(), "--precision", "fp32", "--ops", operations.string()});
  EXPECT_TRUE(table.out.starts_with("roofline on My GPU, FP32: 19.5 TFLOP/s, 2.039 TB/s, ridge 9.564 FLOP/B\n")) << table.out;
  const outcome analyzed = hml_run({"analyze", "--flops", "10MFLOP", "--bytes", "120MB", "--time", "100us",
                                    "--device-file", file.string(), "--precision", "fp16_tensor"});
  ASSERT_EQ(analyzed.status, 0) << analyzed.err;
  EXPECT_NE(analyzed.out.find(" on My GPU, FP16 tensor (312 TFLOP/s, 2.039 TB/s, "), std::string::npos) << analyzed.out;
  const fs::path svg = dir.path / "chart.svg";
  const outcome chart = hml_run({"chart", "--device", "h100_sxm", "--device-file", file.string(), "--precision",
                                 "fp32", "--ops", operations.string(), "-o", svg.string()});
  ASSERT_EQ(chart.status, 0) << chart.err;
  EXPECT_NE(read_file(svg).find(">my_gpu</text>"), std::string::npos);
  EXPECT_EQ(svg_read::xml_problems(read_file(svg)), "");
}

TEST(Cli, BadDeviceFilesNameTheFileAndTheField) {
  const scratch_directory dir;
  const fs::path operations = dir.file("ops.csv", seed_operations_csv());
  const auto with = [&](std::string_view json) {
    const fs::path file = dir.file("bad.json", json);
    return hml_run({"roofline", "--device-file", file.string(), "--precision", "fp32", "--ops", operations.string()});
  };
  // FILE:LINE: FIELD, the line of the field in cli/my_gpu.json.
  const auto at = [&](int line) { return "--device-file: " + (dir.path / "bad.json").string() + ":" + std::to_string(line) + ": "; };
  std::string good = my_gpu_json();
  const auto replaced = [&](std::string_view from, std::string_view to) {
    std::string text = good;
    text.replace(text.find(from), from.size(), to);
    return text;
  };
  expect_input_error(with("{\"id\": "), at(1) + "not JSON: ");
  expect_input_error(with("[]"), at(1) + "the top level: expected an object, not a list");
  expect_input_error(with(replaced("\"2039 GB/s\"", "\"2039 GB\"")),
                     at(6) + "memory[1].bandwidth: cannot read \"2039 GB\" as a data rate");
  expect_input_error(with(replaced("\"capacity\": \"80 GB\"", "\"capacity\": \"-80 GB\"")), at(6) + "memory[1].capacity: ");
  expect_input_error(with(replaced("\"capacity\": \"80 GB\"", "\"capacity\": \"0 GB\"")),
                     at(6) + "memory[1].capacity: must be finite and > 0");
  expect_input_error(with(replaced("\"bus_bits\"", "\"bus_width\"")),
                     at(7) + "memory[1].interface.bus_width: unknown field; expected one of channels, bus_bits, pin_rate");
  expect_input_error(with(replaced("\"source\": \"spec\"}}", "\"source\": \"specs\"}}")),
                     at(10) + "compute[0].dense.source: 'specs' is not in the file's sources");
  expect_input_error(with(replaced("\"kind\": \"stated\"", "\"kind\": \"vendor\"")),
                     at(6) + "memory[1].bandwidth.kind: \"vendor\" is not one of stated, derived, measured, unconfirmed; ");
  expect_input_error(with(replaced("\"precision\": \"fp16\"", "\"precision\": \"fp17\"")),
                     at(11) + "compute[1].precision: \"fp17\" is not one of fp64, fp32, tf32, bf16, fp16, fp8, int8, int4, nvfp4, mxfp4; ");
  expect_input_error(with(replaced("\"unit\": \"tensor\"", "\"unit\": \"matrix\"")),
                     at(11) + "compute[1].unit: \"matrix\" is not one of vector, tensor; ");
  expect_input_error(with(replaced("\"precision\": \"fp16\", \"unit\": \"tensor\"", "\"precision\": \"fp32\", \"unit\": \"vector\"")),
                     at(11) + "compute[1]: FP32 is given twice");
  expect_input_error(with(replaced("\"id\": \"my_gpu\"", "\"id\": \"My GPU\"")), at(2) + "id: use lower-case letters");
  expect_input_error(with(replaced("\"name\": \"My GPU\", ", "")), at(1) + "name: missing");
  expect_input_error(with(replaced("\"bandwidth\": {\"value\": \"2039 GB/s\", \"kind\": \"stated\", \"source\": \"spec\"},", "")),
                     at(6) + "memory[1]: main memory (the last level) needs a bandwidth or a measured_bandwidth");
  expect_input_error(with(replaced("\"cores\": 108", "\"cores\": -1")), at(2) + "cores: -1 is outside [1, 65536]; write a number within it");
  // A precision the file's device has no peak for is --precision's fault, as for a catalog device.
  const fs::path file = dir.file("my_gpu.json", my_gpu_json());
  expect_input_error(hml_run({"roofline", "--device-file", file.string(), "--precision", "fp64", "--ops", operations.string()}),
                     "--precision: My GPU publishes no FP64 (vector or tensor) peak");
  expect_input_error(hml_run({"devices", "--file", (dir.path / "missing.json").string()}), "--file: cannot read '");
  expect_input_error(hml_run({"devices", "v100", "--file", file.string()}), "NAME, --file: not together; give one of them");
}

// A device's peak depends on the precision (FP32 on an H100: ridge 20 FLOP/B; FP16 tensor: 295): the
// command asks for it rather than assume FP32.
TEST(Cli, ADeviceNeedsAPrecision) {
  const scratch_directory dir;
  const fs::path operations = dir.file("ops.csv", seed_operations_csv());
  expect_input_error(hml_run({"roofline", "--device", "h100_sxm", "--ops", operations.string()}),
                     "hml: error: --precision: missing, and a machine has a roof for each precision; give "
                     "--precision fp64, fp32, tf32, bf16, fp16, fp8 or int8\n");
  expect_input_error(hml_run({"analyze", "--flops", "1GFLOP", "--bytes", "1GB", "--time", "1s", "--device", "h100_sxm"}),
                     "--precision: missing, and a machine has a roof for each precision; give --precision fp64, ");
  const outcome fp16 = hml_run({"roofline", "--device", "h100_sxm", "--precision", "fp16", "--ops", operations.string()});
  EXPECT_TRUE(fp16.out.starts_with("roofline on NVIDIA H100 SXM5 80GB, FP16 tensor: 794.5 TFLOP/s, 2.97 TB/s, ridge 267.5 FLOP/B\n"))
      << fp16.out << fp16.err;
  // The default takes the measured HBM3 bandwidth (BabelStream, 2.97 TB/s) and matmul rates (MAMF) and says
  // so; stated, the datasheet's.
  EXPECT_EQ(fp16.err, "hml: note: h100_sxm: measured figures in place of the datasheet's: HBM3 2.97 TB/s "
                      "(azure-babelstream), FP64 32.57 TFLOP/s (hml-gpu-h100-sxm), FP64 tensor 62.61 TFLOP/s "
                      "(hml-gpu-h100-sxm), FP32 64.3 TFLOP/s (hml-gpu-h100-sxm), TF32 tensor 400.7 TFLOP/s "
                      "(hml-gpu-h100-sxm), BF16 tensor 794.5 TFLOP/s (bekman-mamf), FP16 tensor 794.5 TFLOP/s "
                      "(bekman-mamf), FP8 tensor 1.403 PFLOP/s (bekman-mamf); --figures stated takes the datasheet's\n");
  const outcome stated =
      hml_run({"roofline", "--device", "h100_sxm", "--precision", "fp16", "--figures", "stated", "--ops", operations.string()});
  EXPECT_TRUE(stated.out.starts_with("roofline on NVIDIA H100 SXM5 80GB, FP16 tensor: 989 TFLOP/s, 3.35 TB/s, ridge 295.2 FLOP/B\n"))
      << stated.out << stated.err;
  EXPECT_TRUE(stated.err.empty()) << stated.err;
  expect_input_error(hml_run({"roofline", "--device", "h100_sxm", "--precision", "fp16", "--figures", "datasheet", "--ops",
                              operations.string()}),
                     "hml: error: --figures: 'datasheet' is not one of stated, measured; give one of them\n");
}

// Each device its own roofline (ridge at its own peak / bandwidth, line capped at its own peak), and each
// kernel at its attainable rate on each device: not one mixed roof of all the devices' ceilings.
TEST(Cli, ChartWritesAnSvgWithEveryKernelAndDevice) {
  const scratch_directory dir;
  const fs::path operations = dir.file("ops.csv", seed_operations_csv());
  const fs::path svg = dir.path / "roofline.svg";
  const outcome o = hml_run({"chart", "--device", "h100_sxm", "--precision", "fp32", "--device", "a100_sxm_80gb", "--device", "MI300X",
                             "--ops", operations.string(), "-o", svg.string()});
  ASSERT_EQ(o.status, 0) << o.err;
  const std::string chart = read_file(svg);
  EXPECT_TRUE(chart.starts_with("<svg ")) << chart.substr(0, 100);
  EXPECT_EQ(svg_read::xml_problems(chart), "");
  const svg_read::plot p{chart};
  const std::vector<svg_read::drawn_roof> drawn = svg_read::roofs(chart);
  const std::pair<std::string, const hml::device*> devices[] = {
      {"h100_sxm", &hml::devices::h100_sxm},
      {"a100_sxm_80gb", &hml::devices::a100_sxm_80gb},
      {"mi300x", &hml::devices::mi300x}};
  ASSERT_EQ(drawn.size(), std::size(devices));
  constexpr double pixel = 0.06;  // coordinates are written to 0.1 px
  for (std::size_t i = 0; i < drawn.size(); ++i) {
    const auto& [id, device] = devices[i];
    // The default figures: each measurement where one is published (--figures measured).
    const hml::roof roof = hml::roof_of(hml::with_figures(*device, hml::basis::measured_where_published), hml::precision::fp32);
    const double ridge = hml::ridge_point(roof).value();
    const double peak = roof.peak.value();
    SCOPED_TRACE(id);
    EXPECT_EQ(drawn[i].name, id);
    EXPECT_EQ(drawn[i].ridge, ridge);
    ASSERT_EQ(drawn[i].line.size(), 3u);
    EXPECT_NEAR(drawn[i].line[1].x, p.x(ridge), pixel);
    EXPECT_NEAR(drawn[i].line[1].y, p.y(peak), pixel);
    EXPECT_NEAR(drawn[i].line[2].y, p.y(peak), pixel);
    for (const svg_read::point& corner : drawn[i].line) EXPECT_GE(corner.y, p.y(peak) - pixel);
    EXPECT_NEAR(drawn[i].marker.x, p.x(ridge), pixel);
    EXPECT_TRUE(drawn[i].label.starts_with(id + " ridge ")) << drawn[i].label;
    EXPECT_NE(chart.find(">" + id + "</text>"), std::string::npos);  // the legend entry

    // This device's point markers (class "point", data-roof naming it): their centres.
    std::vector<svg_read::point> centres;
    for (std::size_t at = chart.find(" class=\"point\" data-roof=\"" + id + "\""); at != std::string::npos;
         at = chart.find(" class=\"point\" data-roof=\"" + id + "\"", at + 1)) {
      const std::size_t open = chart.rfind('<', at);
      const std::string element = chart.substr(open, chart.find('>', open) - open + 1);
      if (element.starts_with("<circle ")) {
        centres.push_back({svg_read::number(element, "cx"), svg_read::number(element, "cy")});
        continue;
      }
      const std::vector<double> corners = svg_layout::numbers_in(svg_read::attribute(element, "d"));
      svg_read::point centre{0, 0};
      for (std::size_t c = 0; c + 1 < corners.size(); c += 2) centre.x += corners[c], centre.y += corners[c + 1];
      const double n = static_cast<double>(corners.size() / 2);
      centres.push_back({centre.x / n, centre.y / n});
    }
    // Every kernel a log axis can show, where the roofline puts it on this device, and labelled once.
    std::size_t drawn_kernels = 0;
    for (const hml::kernel& k : roofline_analysis::operations) {
      const hml::roofline_point at = hml::analyze(k, roof);
      const std::string label = ">" + std::string{k.name} + "</text>";
      if (!(at.intensity.value() > 0) || !std::isfinite(at.intensity.value())) {
        EXPECT_EQ(chart.find(label), std::string::npos) << label;
        continue;
      }
      ++drawn_kernels;
      const std::size_t text = chart.find(label);
      ASSERT_NE(text, std::string::npos) << label;
      EXPECT_EQ(chart.find(label, text + 1), std::string::npos) << label << " twice";
      const double x = p.x(at.intensity.value()), y = p.y(at.attainable.value());
      // The regular polygons' corners are written to 0.1 px: their centre is within 0.1 px.
      EXPECT_TRUE(std::any_of(centres.begin(), centres.end(), [&](const svg_read::point& c) {
        return std::abs(c.x - x) < 0.1 && std::abs(c.y - y) < 0.1;
      })) << label << " has no marker at (" << x << ", " << y << ")";
    }
    EXPECT_EQ(centres.size(), drawn_kernels);
  }
  EXPECT_EQ(chart.find("memory-bound region"), std::string::npos);  // regions differ between devices
  // The kernels a log axis cannot show are named on stderr, one note each.
  EXPECT_NE(o.err.find("'copy 1Mi fp32 (0 FLOP)' is not drawn"), std::string::npos) << o.err;
  EXPECT_NE(o.err.find("'in registers (0 B)' is not drawn"), std::string::npos) << o.err;
}

// The docs' sessions are real: each `$ hml ...` line of every ```console block in README.md and
// docs/**/*.md, run again in the source directory (stderr with stdout), prints what the page shows. A block
// whose fence follows a line `<!-- not rerun: REASON -->` is a measurement of one machine and is skipped.
// With HML_REFRESH_DOCS=1 in the environment the pages are rewritten with the real output instead (after an
// intended change of the output; review the diff):
//   HML_REFRESH_DOCS=1 build/default/bin/hml_runtime_tests --gtest_filter=Cli.DocsSessionsShowRealOutput
TEST(Cli, DocsSessionsShowRealOutput) {
  const fs::path source{HML_SOURCE_DIR};
  std::vector<fs::path> pages{source / "README.md"};
  for (const fs::directory_entry& entry : fs::recursive_directory_iterator(source / "docs")) {
    if (entry.is_regular_file() && entry.path().extension() == ".md") pages.push_back(entry.path());
  }
  std::sort(pages.begin() + 1, pages.end());
  const char* refresh_variable = std::getenv("HML_REFRESH_DOCS");
  const bool refresh = refresh_variable != nullptr && std::string_view{refresh_variable} == "1";
  const scratch_directory io{"session"};
  std::size_t sessions = 0;
  for (const fs::path& page : pages) {
    const std::string text = read_file(page);
    std::string rewritten;
    std::size_t copied = 0;
    const std::string opening = "```console\n";
    for (std::size_t at = text.find(opening); at != std::string::npos; at = text.find(opening, at)) {
      // The line before the fence (rfind's npos + 1 is 0: the page's first line).
      const std::size_t previous_end = at == 0 ? 0 : at - 1;
      const std::size_t previous_start = previous_end == 0 ? 0 : text.rfind('\n', previous_end - 1) + 1;
      const std::string_view previous = std::string_view{text}.substr(previous_start, previous_end - previous_start);
      at += opening.size();
      const std::size_t close = text.find("```", at);
      ASSERT_NE(close, std::string::npos) << page;
      if (previous.starts_with("<!-- not rerun: ")) continue;
      const std::string block = text.substr(at, close - at);
      ASSERT_TRUE(block.starts_with("$ ")) << page << ": a console block starts with its command";
      rewritten += text.substr(copied, at - copied);
      copied = close;
      std::size_t line = 0;
      while (line < block.size()) {
        const std::size_t command_end = block.find('\n', line);
        const std::string shown_command = block.substr(line + 2, command_end - line - 2);
        std::string command = shown_command;
        std::size_t next = block.find("\n$ ", command_end);
        next = next == std::string::npos ? block.size() : next + 1;
        const std::string shown = block.substr(command_end + 1, next - command_end - 1);
        line = next;
        // `hml` at the start of the command or of a pipeline stage is the built program.
        for (std::size_t h = command.find("hml "); h != std::string::npos; h = command.find("hml ", h + 1)) {
          if (h == 0 || command.compare(h - 2, 2, "| ") == 0) command.replace(h, 3, shell_quoted(HML_CLI));
        }
        const std::string run = "cd " + shell_quoted(HML_SOURCE_DIR) + " && (" + command + ") >" +
                                shell_quoted((io.path / "out").string()) + " 2>&1";
        (void)std::system(run.c_str());
        const std::string real = read_file(io.path / "out");
        rewritten += "$ " + shown_command + "\n" + real;
        if (!refresh) EXPECT_EQ(real, shown) << page << ": " << shown_command;
        ++sessions;
      }
    }
    rewritten += text.substr(copied);
    if (refresh && rewritten != text) std::ofstream{page, std::ios::binary} << rewritten;
  }
  EXPECT_GE(sessions, 8u);
}

// --- bad input ----------------------------------------------------------------------------------------

TEST(Cli, UnknownDeviceSuggestsTheClosestNames) {
  const scratch_directory dir;
  const fs::path operations = dir.file("ops.csv", seed_operations_csv());
  expect_input_error(hml_run({"roofline", "--device", "h10", "--precision", "fp32", "--ops", operations.string()}),
                     "--device: unknown machine 'h10'; did you mean h100_sxm, h100_pcie?");
  // Under the name the user typed (--device, --device-file are --machine's names before 0.9).
  expect_input_error(hml_run({"roofline", "--machine", "h10", "--precision", "fp32", "--ops", operations.string()}),
                     "--machine: unknown machine 'h10'");
  expect_input_error(hml_run({"roofline", "--device-file=h10", "--precision", "fp32", "--ops", operations.string()}),
                     "--device-file: unknown machine 'h10'");
  expect_input_error(hml_run({"devices", "mi3000x"}), "did you mean mi300x");
  expect_input_error(
      hml_run({"roofline", "--device", "v100", "--precision", "tf32_tensor", "--ops", operations.string()}),
      "--precision: NVIDIA V100 SXM2 32GB publishes no TF32 tensor peak");
  expect_input_error(hml_run({"roofline", "--device", "v100", "--precision", "fp7", "--ops", operations.string()}),
                     "--precision: unknown precision 'fp7'");
  expect_input_error(hml_run({"roofline", "--device", "v100", "--precision", "fp8", "--ops", operations.string()}),
                     "--precision: NVIDIA V100 SXM2 32GB publishes no FP8 (vector or tensor) peak");
}

TEST(Cli, WrongDimensionNegativeAndNanValues) {
  expect_input_error(hml_run({"lab", "--bandwidth", "1GB"}),
                     "--bandwidth: cannot read \"1GB\" as a data rate: \"GB\" at position 1 is a data size");
  expect_input_error(hml_run({"lab", "--size=-1MiB"}), "--size: cannot read \"-1MiB\" as a data size");
  expect_input_error(hml_run({"lab", "--peak", "nan GFLOP/s"}), "is not a finite number");
  expect_input_error(hml_run({"lab", "--latency", "50"}), "--latency:");
  // The library's own checks, named after the option that broke them.
  expect_input_error(hml_run({"lab", "--bandwidth", "0GB/s"}), "--bandwidth: memory bandwidth must be finite and > 0");
  expect_input_error(hml_run({"lab", "--hit-rate", "1.5", "--fast", "1GB/s", "--slow", "1GB/s"}),
                     "--hit-rate: hit rate must be within [0, 1]");
  expect_input_error(hml_run({"sweep", "--hit-rate", "0:2:3", "--fast", "1GB/s", "--slow", "1GB/s"}),
                     "--hit-rate: hit rate must be within [0, 1]");
  expect_input_error(hml_run({"sweep", "--hit-rate", "0.5", "--fast", "1GB/s", "--slow", "0GB/s,1GB/s"}),
                     "--slow: memory bandwidth must be finite and > 0");
  expect_input_error(hml_run({"lab", "--peak", "0TFLOP/s"}), "--peak: peak compute rate must be finite and > 0");
  expect_input_error(hml_run({"lab", "--pattern", "random", "--element", "0B"}),
                     "--element: an access element is a whole number of bytes, at least 1 B");
  expect_input_error(hml_run({"lab", "--outstanding", "16"}), "--outstanding: only with --pattern random");
  expect_input_error(hml_run({"sweep", "--element", "8B"}), "--element: only with --pattern random");
  expect_input_error(hml_run({"lab", "--pattern", "random", "--outstanding", "0.5"}),
                     "--outstanding: outstanding requests must be within [1, 1e12)");
  expect_input_error(hml_run({"analyze", "--flops", "1", "--bytes", "1", "--time", "1s", "--peak-compute",
                              "0FLOP/s", "--peak-bandwidth", "1GB/s"}),
                     "--peak-compute: peak compute rate must be finite and > 0");
  expect_input_error(hml_run({"lab", "--hit-rate", "nan", "--fast", "1GB/s", "--slow", "1GB/s"}), "--hit-rate:");
  expect_input_error(hml_run({"lab", "--bandwidth", "1Gbit/s:2Gbit/s:3"}), "--bandwidth:");
  expect_input_error(hml_run({"sweep", "--bandwidth", "10Gbit/s:1Gbit/s:3"}), "FROM is larger than TO");
  expect_input_error(hml_run({"sweep", "--size", "1MB:2MB:0"}), "POINTS");
  // 65536^4 points wrap a 64-bit count around to 0: refused, not run as an empty sweep.
  expect_input_error(hml_run({"sweep", "--size", "1B:2B:65536", "--ops-per-byte", "1:2:65536", "--latency",
                              "1ns:2ns:65536", "--peak", "1GFLOP/s:2GFLOP/s:65536"}),
                     "--size, --ops-per-byte, --latency, --peak: the sweep has more than 10000000 points");
  expect_input_error(hml_run({"sweep", "--size", "1B:2B:1001", "--bandwidth", "1GB/s:2GB/s:1000000"}),
                     "--size, --bandwidth: the sweep has more than 10000000 points");
  expect_input_error(
      hml_run({"analyze", "--flops", "1GFLOP", "--bytes", "1GB", "--time", "0s", "--device", "h100_sxm", "--precision", "fp32"}),
      "--time: a measured time must be finite and > 0");
  expect_input_error(
      hml_run({"analyze", "--flops", "1GFLOP/s", "--bytes", "1GB", "--time", "1s", "--device", "h100_sxm", "--precision", "fp32"}),
      "--flops:");
  expect_input_error(hml_run({"analyze", "--flops", "0", "--bytes", "0", "--time", "1s", "--device", "h100_sxm", "--precision", "fp32"}),
                     "--flops, --bytes: a kernel of 0 FLOP and 0 B has nothing to analyse");
}

// Past the old cap of 10^6 points, in every format, in an address space too small to hold the rows.
TEST(Cli, SweepStreamsRowsInBoundedMemory) {
  if (!address_space_limits_work) GTEST_SKIP() << "ulimit -v stops every run under AddressSanitizer";
  const outcome csv = hml_run_bounded(
      bounded_mib, {}, {"sweep", "--bandwidth", "1GB/s:2GB/s:1001", "--ops-per-byte", "1:2:1000", "--format", "csv"},
      "wc -l");
  EXPECT_EQ(csv.status, 0) << csv.err;
  EXPECT_EQ(std::stoul(csv.out), 1 + 1'001'000u);
  const outcome json = hml_run_bounded(
      bounded_mib, {}, {"sweep", "--bandwidth", "1GB/s:2GB/s:1000", "--ops-per-byte", "1:2:200", "--format", "json"},
      "grep -c regime");
  EXPECT_EQ(json.status, 0) << json.err;
  EXPECT_EQ(std::stoul(json.out), 200'000u);
  // The table takes two passes (widths first) and holds no row either.
  const outcome table = hml_run_bounded(
      bounded_mib, {}, {"sweep", "--bandwidth", "1GB/s:2GB/s:1000", "--ops-per-byte", "1:2:200"}, "wc -l");
  EXPECT_EQ(table.status, 0) << table.err;
  EXPECT_EQ(std::stoul(table.out), 2 + 200'000u);
}

std::string many_operations(std::size_t n) {
  return "{ echo name,flops,memory_bytes; yes 'kernel,1 GFLOP,100 MB' | head -n " + std::to_string(n) + "; }";
}

TEST(Cli, RooflineStreamsOperationsInBoundedMemory) {
  if (!address_space_limits_work) GTEST_SKIP() << "ulimit -v stops every run under AddressSanitizer";
  const std::vector<std::string> formats{"csv", "json", "table"};
  for (const std::string& format : formats) {
    const outcome o = hml_run_bounded(
        bounded_mib, many_operations(200'000),
        {"roofline", "--peak-compute", "5.3TFLOP/s", "--peak-bandwidth", "205GB/s", "--ops", "-", "--format", format},
        "grep -c memory-bound");
    EXPECT_EQ(o.status, 0) << format << ": " << o.err;
    EXPECT_EQ(std::stoul(o.out), 200'000u) << format;
  }
}

// A text table measures its columns in a first pass; from a pipe, the second pass reads a temporary copy.
TEST(Cli, RooflineTableFromAPipeEqualsTheTableFromAFile) {
  const scratch_directory dir;
  const fs::path operations = dir.file("ops.csv", seed_operations_csv());
  const outcome from_file = hml_run({"roofline", "--device", "h100_sxm", "--precision", "fp32", "--ops", operations.string()});
  ASSERT_EQ(from_file.status, 0) << from_file.err;
  const outcome from_pipe = hml_run_bounded(address_space_limits_work ? bounded_mib : 1U << 30, "cat " + shell_quoted(operations.string()),
                                            {"roofline", "--device", "h100_sxm", "--precision", "fp32", "--ops", "-"});
  ASSERT_EQ(from_pipe.status, 0) << from_pipe.err;
  EXPECT_EQ(from_pipe.out, from_file.out);
  EXPECT_EQ(std::count(from_file.out.begin(), from_file.out.end(), '\n'),
            static_cast<std::ptrdiff_t>(3 + roofline_analysis::operations.size()));
}

// Binary data, endless streams and a line of gigabytes: one line on stderr and status 2, in bounded memory
// (each of these would grow without end in a reader that takes the whole input before it parses).
TEST(Cli, HostileOperationsFailFastInBoundedMemory) {
  if (!address_space_limits_work) GTEST_SKIP() << "ulimit -v stops every run under AddressSanitizer";
  const auto roofline_of = [](std::string_view producer) {
    return hml_run_bounded(bounded_mib, producer, {"roofline", "--device", "h100_sxm", "--precision", "fp32", "--ops", "-"});
  };
  const auto expect_refused = [](const outcome& o, std::string_view needle) {
    EXPECT_EQ(o.status, 2) << o.err;
    EXPECT_TRUE(o.out.empty()) << o.out.substr(0, 200);
    EXPECT_TRUE(o.err.starts_with("hml: error: --ops: standard input:")) << o.err;
    EXPECT_EQ(std::count(o.err.begin(), o.err.end(), '\n'), 1) << o.err;
    EXPECT_NE(o.err.find(needle), std::string::npos) << o.err;
  };
  expect_refused(roofline_of("cat /dev/zero"), ":1: a NUL byte: this is binary data, not CSV text; give a CSV file (UTF-8 text)");
  expect_refused(roofline_of("cat /dev/urandom"), "");
  expect_refused(roofline_of("yes abcdefgh | tr -d '\\n'"), ":1: a record longer than 1048576 bytes");
  expect_refused(roofline_of("printf 'name,flops,memory_bytes\\n\"never closed'; yes"), ":2: a record longer than");
  // The files themselves, not through a pipe.
  const outcome zero_file = hml_run_bounded(bounded_mib, {}, {"roofline", "--device", "h100_sxm", "--precision", "fp32", "--ops", "/dev/zero"});
  EXPECT_EQ(zero_file.status, 2);
  EXPECT_EQ(zero_file.err, "hml: error: --ops: /dev/zero:1: a NUL byte: this is binary data, not CSV text; give a CSV file (UTF-8 text)\n");
}

// A name holds no control character: a quoted line break (RFC 4180 allows one) or a NUL is refused, with the
// line where the record begins, so no table, CSV or JSON is ever broken by one.
TEST(Cli, ALineBreakOrNulInANameIsRefused) {
  const scratch_directory dir;
  const fs::path operations =
      dir.file("ops.csv", "name,flops,memory_bytes\nplain,1 GFLOP,1 GB\n\"two\nlines\",1 GFLOP,1 MB\n");
  for (const char* format : {"table", "csv", "json"}) {
    expect_input_error(
        hml_run({"roofline", "--device", "h100_sxm", "--precision", "fp32", "--ops", operations.string(), "--format", format}),
        "--ops: " + operations.string() + ":3: name: a control character or a byte that is not UTF-8");
  }

  // An error that quotes such a field is still one line.
  const fs::path broken_header = dir.file("header.csv", "\"na\nme\",flops,memory_bytes\nok,1,2\n");
  expect_input_error(hml_run({"roofline", "--device", "h100_sxm", "--precision", "fp32", "--ops", broken_header.string()}),
                     "(it has \"na\\nme\", \"flops\", \"memory_bytes\")");
  const char with_nul[] = "name,flops,memory_bytes\nok,1,2\nn\0ul,1,2\n";
  const fs::path nul = dir.file("nul.csv", std::string{with_nul, sizeof with_nul - 1});
  expect_input_error(hml_run({"roofline", "--device", "h100_sxm", "--precision", "fp32", "--ops", nul.string()}),
                     "--ops: " + nul.string() + ":3: a NUL byte: this is binary data, not CSV text; give a CSV file (UTF-8 text)");
}

// An error part way through a long input, after megabytes of rows were written to -o's temporary file:
// no output file, no temporary left.
TEST(Cli, FailurePartWayLeavesNoFile) {
  const scratch_directory dir;
  std::string csv{"name,flops,memory_bytes\n"};
  for (int i = 0; i < 50'000; ++i) csv += "kernel " + std::to_string(i) + ",1 GFLOP,100 MB\n";
  csv += "broken,1 GFLOP\n";
  const fs::path operations = dir.file("ops.csv", csv);
  for (const std::string format : {"csv", "json", "table"}) {
    const fs::path out = dir.path / ("out." + format);
    expect_input_error(hml_run({"roofline", "--device", "h100_sxm", "--precision", "fp32", "--ops", operations.string(), "--format", format,
                                "-o", out.string()}),
                       ":50002: expected 3 fields like the header, found 2");
    EXPECT_FALSE(fs::exists(out));
  }
  EXPECT_EQ(std::distance(fs::directory_iterator{dir.path}, {}), 1);  // ops.csv only
  // On standard output the rows before the error have gone out (a pipe cannot take them back); the status
  // and the one line on stderr say that the run failed.
  const outcome streamed = hml_run({"roofline", "--device", "h100_sxm", "--precision", "fp32", "--ops", operations.string(), "--format", "csv"});
  EXPECT_EQ(streamed.status, 2);
  EXPECT_EQ(streamed.err, "hml: error: --ops: " + operations.string() + ":50002: expected 3 fields like the header, found 2; give each column its field (empty between two commas)\n");
}

// An interrupted run (SIGTERM, or Ctrl-C's SIGINT, in a long sweep) removes the temporary file it was writing:
// no output file, no leftover. The sweep has 10^8 points, far more than it writes before the signal comes.
// (SIGTERM here: a background job of a script ignores SIGINT, and hml keeps a signal ignored that was.)
TEST(Cli, InterruptedRunLeavesNoFile) {
  const scratch_directory dir;
  const fs::path out = dir.path / "sweep.csv";
  const std::string command =
      shell_quoted(HML_CLI) + " sweep --bandwidth 1GB/s:2GB/s:3000 --ops-per-byte 1:2:3000 --format csv -o " +
      shell_quoted(out.string()) + " & pid=$!; " +
      // Until the run holds a file in the directory open (a named temporary or an unnamed one, O_TMPFILE).
      "while kill -0 $pid 2>/dev/null && ! ls -l /proc/$pid/fd 2>/dev/null | grep -qF " + shell_quoted(dir.path.string()) +
      "; do sleep 0.05; done; kill -TERM $pid; wait $pid; exit $?";
  const int raw = std::system(("sh -c " + shell_quoted(command)).c_str());
  EXPECT_EQ(WIFEXITED(raw) ? WEXITSTATUS(raw) : -1, 128 + SIGTERM);  // the shell's status for a run ended by SIGTERM
  EXPECT_FALSE(fs::exists(out));
  EXPECT_TRUE(fs::is_empty(dir.path)) << "a temporary file is left";
}

TEST(Cli, MalformedCsvNamesTheLine) {
  const scratch_directory dir;
  const fs::path header_only = dir.file("header.csv", "name,flops,memory_bytes\n");
  expect_input_error(hml_run({"roofline", "--device", "h100_sxm", "--precision", "fp32", "--ops", "-"}, header_only.string()),
                     "--ops: standard input:1: no kernels after the header");
  const auto run_on = [&](std::string_view csv) {
    return hml_run({"roofline", "--device", "h100_sxm", "--precision", "fp32", "--ops", dir.file("ops.csv", csv).string()});
  };
  expect_input_error(run_on("name,flops,memory_bytes\na,1,2\nb,x,3\n"), ":3: flops: cannot read \"x\"");
  expect_input_error(run_on("name,flops,memory_bytes\na,1,2\n\nc,1\n"), ":4: expected 3 fields");
  expect_input_error(run_on("name,flops,memory_bytes\na,-1,2\n"), ":2: flops:");
  expect_input_error(run_on("name,flops,memory_bytes\na,1,nan\n"), ":2: memory_bytes:");
  expect_input_error(run_on("name,flops,memory_bytes\na,1,2 GB/s\n"), ":2: memory_bytes:");
  expect_input_error(run_on("name,flops,bytes\n"), ":1: the header has no memory_bytes column");
  expect_input_error(run_on("name,flops,memory_bytes\n\"open,1,2\n"), ":2: a quoted field is not closed");
  expect_input_error(hml_run({"roofline", "--device", "h100_sxm", "--precision", "fp32", "--ops", (dir.path / "missing.csv").string()}),
                     "--ops: cannot read '");
}

// A device given twice, under any of its names, would be drawn twice: an input error, and no file.
// Whatever the title and the names hold (markup, quotes, non-ASCII), the chart is well-formed XML: escaped in
// one place, the writer's (which also replaces control characters and bytes that are not UTF-8 with U+FFFD
// for a library caller: ChartLayout.HostileNamesAndTitlesMakeWellFormedXml). From the shell, such a title is
// refused, as such a name in the CSV is.
TEST(Cli, ChartIsWellFormedXmlWhateverTheTitleAndNamesHold) {
  const scratch_directory dir;
  const fs::path operations = dir.file("ops.csv", "name,flops,memory_bytes\n\"<b>&amp;\"\"q\"\" 'a'\",1e9,1e8\n"
                                                  "caf\xc3\xa9,1e10,1e8\n");
  const fs::path svg = dir.path / "c.svg";
  expect_input_error(hml_run({"chart", "--peak-compute", "5.3TFLOP/s", "--peak-bandwidth", "205GB/s", "--title",
                              "T \x1b[2J\x01 \xff\nnext", "--ops", operations.string(), "-o", svg.string()}),
                     "--title: a control character or a byte that is not UTF-8 (\\x1b, character 3); give printable UTF-8 text");
  EXPECT_FALSE(fs::exists(svg));
  const outcome o = hml_run({"chart", "--peak-compute", "5.3TFLOP/s", "--peak-bandwidth", "205GB/s", "--title",
                             "T <i>&amp; \"caf\xc3\xa9\"", "--ops", operations.string(), "-o", svg.string()});
  ASSERT_EQ(o.status, 0) << o.err;
  const std::string chart = read_file(svg);
  EXPECT_EQ(svg_read::xml_problems(chart), "");
  EXPECT_NE(chart.find(">T &lt;i&gt;&amp;amp; &quot;caf\xc3\xa9&quot;</text>"), std::string::npos) << chart;
  EXPECT_NE(chart.find(">&lt;b&gt;&amp;amp;&quot;q&quot; 'a'</text>"), std::string::npos);
  EXPECT_NE(chart.find(">caf\xc3\xa9</text>"), std::string::npos);
}

// A chart draws at most hml::max_chart_kernels kernels: one more is one line naming the option, the file and
// the line, exit 2, no file, read no further than that line.
TEST(Cli, ChartRefusesMoreKernelsThanItDraws) {
  const scratch_directory dir;
  std::string csv = "name,flops,memory_bytes\n";
  for (std::size_t i = 0; i <= hml::max_chart_kernels; ++i) csv += "k" + std::to_string(i) + ",1e9,1e8\n";
  const fs::path operations = dir.file("many.csv", csv);
  const fs::path svg = dir.path / "c.svg";
  expect_input_error(hml_run({"chart", "--peak-compute", "5.3TFLOP/s", "--peak-bandwidth", "205GB/s", "--ops",
                              operations.string(), "-o", svg.string()}),
                     "--ops: " + operations.string() + ":100002: more than 100000 kernels; a chart draws at "
                     "most 100000 (split the file)");
  EXPECT_FALSE(fs::exists(svg));
  // On two machines each kernel is two points (100,000 kernels on eight machines took 35 s and 446 MiB).
  expect_input_error(hml_run({"chart", "--machine", "h100_sxm", "--machine", "a100_sxm_80gb", "--precision", "fp32", "--ops",
                              operations.string(), "-o", svg.string()}),
                     "--ops: " + operations.string() + ":50002: more than 50000 kernels; a chart of 2 machines draws at "
                     "most 50000, each on each (100000 points; split the file)");
  EXPECT_FALSE(fs::exists(svg));
}

// Past the labels placed regardless, a kernel without a clear spot is left unlabelled: the legend counts
// them and one note says how many, the same count.
TEST(Cli, ChartNotesTheKernelsItLeftUnlabelled) {
  const scratch_directory dir;
  std::string csv = "name,flops,memory_bytes\n";
  for (int i = 0; i < 300; ++i) {
    // Intensities from 0.01 to 1000 FLOP/B, each its own: 300 columns of markers across the plot.
    csv += "kernel" + std::to_string(i) + "," + exact(1e6 * std::pow(10.0, 5.0 * i / 300)) + ",1e8\n";
  }
  const fs::path operations = dir.file("ops.csv", csv);
  const fs::path svg = dir.path / "c.svg";
  const outcome o = hml_run({"chart", "--peak-compute", "5.3TFLOP/s", "--peak-bandwidth", "205GB/s", "--ops",
                             operations.string(), "-o", svg.string()});
  ASSERT_EQ(o.status, 0) << o.err;
  const std::string prefix = "hml: note: ", middle = " of 300 kernels left unlabelled (no clear spot)\n";
  ASSERT_TRUE(o.err.starts_with(prefix) && o.err.ends_with(middle)) << o.err;
  EXPECT_EQ(std::count(o.err.begin(), o.err.end(), '\n'), 1) << o.err;
  const std::string count = o.err.substr(prefix.size(), o.err.size() - prefix.size() - middle.size());
  EXPECT_GT(std::stoul(count), 0u);
  const std::string chart = read_file(svg);
  EXPECT_NE(chart.find(">" + count + " kernels unlabelled</text>"), std::string::npos) << count;
  EXPECT_EQ(svg_read::xml_problems(chart), "");
}

TEST(Cli, ChartRefusesADeviceGivenTwiceOrTooManyDevices) {
  const scratch_directory dir;
  const fs::path operations = dir.file("ops.csv", seed_operations_csv());
  const fs::path svg = dir.path / "c.svg";
  expect_input_error(hml_run({"chart", "--device", "h100_sxm", "--precision", "fp32", "--device", "mi300x", "--device", "H100-SXM", "--ops",
                              operations.string(), "-o", svg.string()}),
                     "hml: error: --device: h100_sxm and H100-SXM are one machine (id 'h100_sxm'); give each machine once\n");
  expect_input_error(
      hml_run({"chart", "--device", "mi300x", "--precision", "fp32", "--device", "mi300x", "--ops", operations.string(), "-o", svg.string()}),
      "--device: 'mi300x' is given twice");
  expect_input_error(hml_run({"chart", "--device", "h100_sxm", "--precision", "fp32", "--device", "h100_pcie", "--device", "h200", "--device",
                              "a100_sxm_80gb", "--device", "a100_sxm_40gb", "--device", "l40s", "--device", "rtx_4090",
                              "--device", "rtx_3090", "--device", "mi300x", "--ops", operations.string(), "-o",
                              svg.string()}),
                     "--device: a chart compares at most 8 machines, not 9");
  EXPECT_FALSE(fs::exists(svg));
  // Two different devices are fine.
  EXPECT_EQ(hml_run({"chart", "--device", "h100_sxm", "--precision", "fp32", "--device", "h100_pcie", "--ops", operations.string(), "-o",
                     svg.string()})
                .status,
            0);
  EXPECT_TRUE(fs::exists(svg));
}

TEST(Cli, UnwritableOrFailedOutputLeavesNoFile) {
  const scratch_directory dir;
  const fs::path operations = dir.file("ops.csv", seed_operations_csv());
  expect_input_error(hml_run({"roofline", "--device", "h100_sxm", "--precision", "fp32", "--ops", operations.string(), "-o",
                              (dir.path / "no-such-dir" / "out.txt").string()}),
                     "cannot write '");
  expect_input_error(hml_run({"chart", "--device", "h100_sxm", "--precision", "fp32", "--ops", operations.string(), "-o",
                              (dir.path / "no-such-dir" / "c.svg").string()}),
                     "cannot write '");
  // An input error after the output was named: no file, not even an empty one.
  const fs::path bad = dir.file("bad.csv", "name,flops,memory_bytes\na,1,2\nb,1\n");
  expect_input_error(hml_run({"roofline", "--device", "h100_sxm", "--precision", "fp32", "--ops", bad.string(), "--format", "csv", "-o",
                              (dir.path / "out.csv").string()}),
                     bad.string() + ":3: ");
  expect_input_error(
      hml_run({"chart", "--device", "h100_sxm", "--precision", "fp32", "--ops", bad.string(), "-o", (dir.path / "c.svg").string()}),
      bad.string() + ":3: ");
  // A full standard output is an error, not a silently short listing.
  if (fs::exists("/dev/full")) {
    const std::string command =
        shell_quoted(HML_CLI) + " devices >/dev/full 2>" + shell_quoted((dir.path / "err").string());
    const int raw = std::system(command.c_str());
    EXPECT_EQ(WIFEXITED(raw) ? WEXITSTATUS(raw) : -1, 2);
    EXPECT_TRUE(read_file(dir.path / "err").starts_with("hml: error: -o (-): cannot write to standard output: "));
    fs::remove(dir.path / "err");
  }
  expect_input_error(hml_run({"devices", "-o", ""}), "-o: an empty value (an unset variable?); give FILE (see `hml devices --help`)");
  EXPECT_FALSE(fs::exists(dir.path / "out.csv"));
  EXPECT_FALSE(fs::exists(dir.path / "c.svg"));
  EXPECT_EQ(std::distance(fs::directory_iterator{dir.path}, {}), 2);  // ops.csv and bad.csv only
}

TEST(Cli, OutputDashIsStandardOutput) {
  const outcome to_dash = hml_run({"devices", "--format", "csv", "-o", "-"});
  ASSERT_EQ(to_dash.status, 0) << to_dash.err;
  EXPECT_EQ(to_dash.out, hml_run({"devices", "--format", "csv"}).out);
  EXPECT_FALSE(fs::exists("-"));
}

TEST(Cli, ProbeDescribesThisMachineAsRooflineCeilings) {
  // A tiny probe (three working sets, short repetitions): what it measures is not judged here, only that the
  // description is whole and typed. benchmarks/host holds it against likwid-bench.
  const outcome o = hml_run({"probe", "--smallest", "16KiB", "--largest", "64KiB", "--min-time", "1ms",
                             "--repetitions", "1", "--format", "json"});
  ASSERT_EQ(o.status, 0) << o.err;
  const nlohmann::json ceilings = nlohmann::json::parse(o.out);
  if (hml::last_level_cache() > 64_KiB) {
    EXPECT_TRUE(o.err.starts_with("hml: note: the largest working set, 64 KiB, fits the last-level cache")) << o.err;
  }
  ASSERT_GE(ceilings.size(), 4u);
  const std::size_t levels = ceilings.size() - 3;  // then the FP64 and FP32 FMA peaks and the scalar chain
  for (std::size_t i = 0; i < levels; ++i) {
    EXPECT_EQ(ceilings[i]["kind"], "bandwidth");
    EXPECT_EQ(ceilings[i]["unit"], "B/s");
    EXPECT_GT(number_of(ceilings[i]["value"]), 0.0);
    EXPECT_LE(number_of(ceilings[i]["smallest_working_set_B"]), number_of(ceilings[i]["largest_working_set_B"]));
    EXPECT_GT(number_of(ceilings[i]["latency_s"]), 0.0);
  }
  const std::vector<std::string> compute_ceilings{"FP64 FMA", "FP32 FMA", "FP64 scalar FMA chain"};
  for (std::size_t i = 0; i < compute_ceilings.size(); ++i) {
    const nlohmann::json& c = ceilings[levels + i];
    EXPECT_EQ(c["ceiling"], compute_ceilings[i]);
    EXPECT_EQ(c["kind"], "compute");
    EXPECT_EQ(c["unit"], "FLOP/s");
    EXPECT_GT(number_of(c["value"]), 0.0);
    EXPECT_TRUE(c["smallest_working_set_B"].is_null());  // a peak in registers has no working set
    EXPECT_TRUE(c["largest_working_set_B"].is_null());
    EXPECT_TRUE(c["latency_s"].is_null());
  }
  const nlohmann::json& peak = ceilings[levels];
  // Keys keep the table's column order.
  EXPECT_EQ(peak.begin().key(), "ceiling");

  // --save keeps the machine as a machine file, which --machine reads back: the probe's result is a machine
  // description like any catalog machine's, every figure measured. So tiny a probe reaches no cache's inside:
  // the file has the levels found, and a note says why it has no ECM figures.
  const scratch_directory dir;
  const fs::path saved = dir.path / "host.json";
  const outcome save = hml_run({"probe", "--smallest", "16KiB", "--largest", "64KiB", "--min-time", "1ms",
                                "--repetitions", "1", "--format", "json", "--save", saved.string()});
  ASSERT_EQ(save.status, 0) << save.err;
  const hml::machine_file host = hml::read_machine_file(read_file(saved), saved.string());
  EXPECT_EQ(host.machine().memory.size(), nlohmann::json::parse(save.out).size() - 3);
  EXPECT_EQ(hml::main_memory(host.machine()).bandwidth.kind, hml::provenance::measured);
  EXPECT_EQ(hml::peak(host.machine(), {hml::precision::fp64, hml::compute_unit::vector}).kind, hml::provenance::measured);
  EXPECT_NE(save.err.find("hml: note: " + saved.string() + " has the levels the probe found and no ECM figures ("),
            std::string::npos)
      << save.err;
  const outcome on_host = hml_run({"roofline", "--machine", saved.string(), "--precision", "fp64", "--ops", "-"},
                                  dir.file("ops.csv", seed_operations_csv()).string());
  ASSERT_EQ(on_host.status, 0) << on_host.err;
  EXPECT_TRUE(on_host.out.starts_with("roofline on this machine (hml probe), FP64: ")) << on_host.out;

  const outcome text = hml_run({"probe", "--largest", "32KiB", "--min-time", "1ms", "--repetitions", "1"});
  ASSERT_EQ(text.status, 0) << text.err;
  EXPECT_TRUE(text.out.starts_with("this machine: ")) << text.out;
  EXPECT_NE(text.out.find("roofline (DRAM): "), std::string::npos) << text.out;
}

TEST(Cli, ProbeRejectsBadSizesThreadsAndTimes) {
  expect_input_error(hml_run({"probe", "--largest", "1GB/s"}), "--largest: cannot read \"1GB/s\" as a data size");
  expect_input_error(hml_run({"probe", "--smallest", "1MiB", "--largest", "64KiB"}), "--smallest, --largest: a working-set ladder needs 0 < smallest <= largest");
  expect_input_error(hml_run({"probe", "--threads", "60000"}), "--threads: this process may run on");
  expect_input_error(hml_run({"probe", "--threads", "100000"}), "--threads: '100000' is above 65536; give a whole number from 0 to 65536");
  expect_input_error(hml_run({"probe", "--repetitions", "0"}), "--repetitions: '0' is below 1; give a whole number from 1 to 100");
  expect_input_error(hml_run({"probe", "--min-time", "-1ms"}), "--min-time");
  expect_input_error(hml_run({"probe", "--min-time", "inf s"}), "--min-time");
  // Sizes the machine cannot hold are refused before anything is allocated (not an overflow, not the OOM killer).
  expect_input_error(hml_run({"probe", "--largest", "1e30B"}), "--largest: a working set must be at most half");
  expect_input_error(hml_run({"probe", "--smallest", "1PB", "--largest", "2PB"}), "--smallest: a working set must");
  // Below 1 KiB every size ran the same one-line arrays for the whole --min-time (100 sizes: 5 minutes).
  expect_input_error(hml_run({"probe", "--smallest", "1e-30B", "--largest", "1B"}),
                     "--smallest: the probe's working sets must be at least 1 KiB");
  expect_input_error(hml_run({"probe", "--smallest", "1023B", "--largest", "1MiB"}), "--smallest: ");
}

TEST(Cli, UsageErrorsExitWithTwo) {
  expect_input_error(hml_run({}), "no command given: hml COMMAND [OPTIONS]; see `hml --help`");
  expect_input_error(hml_run({"frobnicate"}), "unknown command 'frobnicate'; the commands are lab, sweep, roofline");
  expect_input_error(hml_run({"lab", "--bogus"}), "--bogus");
  expect_input_error(hml_run({"sweep", "--format", "xml"}), "--format");
  expect_input_error(hml_run({"roofline", "--device", "h100_sxm"}), "--ops: missing; give --ops FILE (see `hml roofline --help`)");
  expect_input_error(hml_run({"roofline", "--ops", "-"}),
                     "--machine, --peak-compute: missing; give --machine NAME|FILE, or --peak-compute and --peak-bandwidth");
  expect_input_error(hml_run({"roofline", "--ops", "-", "--peak-compute", "1TFLOP/s", "--peak-bandwidth", "1TB/s",
                              "--figures", "stated"}),
                     "--peak-compute, --figures: not together; give one of them");
  expect_input_error(hml_run({"roofline", "--peak-compute", "1TFLOP/s", "--ops", "-"}), "--peak-bandwidth");
  expect_input_error(hml_run({"lab", "--hit-rate", "0.5"}), "--hit-rate: needs --fast too; give both, or neither");
  expect_input_error(hml_run({"chart", "--device", "h100_sxm", "--ops", "-"}), "--output: missing; give --output FILE");
}

}  // namespace

#else
TEST(Cli, NotBuilt) { GTEST_SKIP() << "the hml program is not built (HML_BUILD_CLI=OFF)"; }
#endif
