// One machine, one option: a file written by `hml devices ID --format json|yaml` is taken unchanged by every
// command that takes a machine, and gives what the catalog entry gives.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "cli_harness.hpp"

import hml;
import hml.probe;

namespace {

namespace fs = std::filesystem;
using namespace hml_test;

constexpr std::string_view kernels = "name,flops,memory_bytes\nstream,2000000,24000000\nmatmul,137438953472,201326592\n";

// The machine's file, written by `hml devices`.
fs::path written(const scratch_directory& dir, const std::string& id, const std::string& format) {
  const outcome o = hml_run({"devices", id, "--format", format});
  EXPECT_EQ(o.status, 0) << o.err;
  EXPECT_EQ(o.err, "");
  return dir.file(id + "." + format, o.out);
}

// The same command on the catalog entry and on its file: the same output, and the same notes (the measured
// figures taken in place of the datasheet's, which the file carries side by side as the catalog does).
void expect_same(const std::string& id, const fs::path& file, const std::vector<std::string>& before,
                 const std::vector<std::string>& after, const std::string& option = "--machine") {
  std::vector<std::string> by_name = before;
  by_name.insert(by_name.end(), {option, id});
  by_name.insert(by_name.end(), after.begin(), after.end());
  std::vector<std::string> by_file = before;
  by_file.insert(by_file.end(), {option, file.string()});
  by_file.insert(by_file.end(), after.begin(), after.end());
  const outcome from_name = hml_run(by_name);
  const outcome from_file = hml_run(by_file);
  ASSERT_EQ(from_name.status, 0) << from_name.err;
  ASSERT_EQ(from_file.status, 0) << from_file.err;
  EXPECT_EQ(from_file.out, from_name.out) << by_file[0];
  EXPECT_EQ(from_file.err, from_name.err) << by_file[0];
}

TEST(MachineCli, AGpuFileIsTakenByRooflineChartLlmOffloadAndAnalyze) {
  const scratch_directory dir;
  const fs::path ops = dir.file("ops.csv", kernels);
  for (const std::string format : {"json", "yaml"}) {
    const fs::path h100 = written(dir, "h100_sxm", format);
    expect_same("h100_sxm", h100, {"roofline"}, {"--precision", "fp32", "--ops", ops.string()});
    expect_same("h100_sxm", h100, {"chart"}, {"--precision", "fp16", "--ops", ops.string(), "-o", "-"});
    expect_same("h100_sxm", h100, {"llm", "--model", "llama-2-7b"}, {"--batch", "4", "--prompt", "128", "--generate", "16"});
    expect_same("h100_sxm", h100, {"offload", "--host", "xeon_8480_plus", "--link", "pcie5x16"},
                {"--in", "2GiB", "--out", "1GiB", "--flops", "1TFLOP", "--precision", "fp64"}, "--device");
    expect_same("h100_sxm", h100, {"analyze", "--flops", "10GFLOP", "--bytes", "1GB", "--time", "1ms"},
                {"--precision", "fp32"});
  }
}

TEST(MachineCli, ACpuFileIsTakenByEcmRooflineAndTiers) {
  const scratch_directory dir;
  const fs::path ops = dir.file("ops.csv", kernels);
  for (const std::string format : {"json", "yaml"}) {
    const fs::path snb = written(dir, "snb_e5_2680", format);
    expect_same("snb_e5_2680", snb, {"ecm", "--kernel", "triad"}, {"--cores", "2"});
    expect_same("snb_e5_2680", snb, {"roofline"}, {"--precision", "fp64", "--ops", ops.string()});
    const fs::path xeon_max = written(dir, "xeon_max_9480", format);
    expect_same("xeon_max_9480", xeon_max, {"tiers"}, {"--footprint", "200GiB", "--hot-bytes", "0.3", "--hot-accesses", "0.9"});
  }
}

// `hml probe --save` writes one file that every model takes. The probe reaches beyond four times the last
// cache (main memory's samples start there) with short repetitions: what it measures is not judged here (it
// depends on the host), only that every command runs on it and prints finite figures.
TEST(MachineCli, AProbedFileIsTakenByEveryCommand) {
  const scratch_directory dir;
  const fs::path ops = dir.file("ops.csv", kernels);
  const fs::path host = dir.path / "host.yaml";
  const hml::data_size largest = 6 * std::max(hml::last_level_cache(), 1.0 * hml::mebibyte);
  const outcome probe = hml_run({"probe", "--smallest", "16KiB", "--largest", hml::to_string(largest, {.number = hml::fixed(0), .prefixes = hml::prefix_system::binary}),
                                 "--min-time", "1ms", "--repetitions", "1", "--save", host.string(), "-o", (dir.path / "ceilings.txt").string()});
  ASSERT_EQ(probe.status, 0) << probe.err;
  EXPECT_EQ(probe.err.find("no ECM figures"), std::string::npos) << probe.err;
  const hml::machine_file file = hml::read_machine_file(read_file(host), host.string());
  // The file's caches are not the table's plateaus, and a note says so, naming each of them.
  const std::size_t differ = probe.err.find("hml: note: " + host.string() + "'s levels are the caches the system reports (");
  ASSERT_NE(differ, std::string::npos) << probe.err;
  for (std::size_t level = 0; level + 1 < file.machine().memory.size(); ++level)
    EXPECT_NE(probe.err.find(std::string{file.machine().memory[level].name} + " ", differ), std::string::npos) << probe.err;
  EXPECT_TRUE(file.machine().clock.published());
  EXPECT_EQ(file.sources().size(), 1u);
  // The probe names the host's core as LLVM does, where LLVM can tell it (else a note says so), and a kernel
  // in C then takes its in-core time from the loop compiled for it.
  const std::string_view llvm_cpu = file.machine().llvm_cpu;
  EXPECT_TRUE(!llvm_cpu.empty() || probe.err.find("names no LLVM CPU") != std::string::npos) << probe.err;
  if (!llvm_cpu.empty()) {
    const outcome c = hml_run({"ecm", "--machine", host.string(), "--kernel",
                               (fs::path{HML_SOURCE_DIR} / "examples" / "ecm" / "triad.c").string(), "-D", "N=100000"});
    EXPECT_NE(c.out.find("in-core: clang -O3 -march=" + std::string{llvm_cpu} + ", LLVM-MCA"), std::string::npos)
        << c.out << c.err;
  }
  const std::vector<std::vector<std::string>> commands{
      {"roofline", "--machine", host.string(), "--precision", "fp64", "--ops", ops.string()},
      {"chart", "--machine", host.string(), "--precision", "fp32", "--ops", ops.string(), "-o", "-"},
      {"analyze", "--flops", "10GFLOP", "--bytes", "1GB", "--time", "1s", "--machine", host.string(), "--precision", "fp64"},
      {"llm", "--model", "llama-2-7b", "--machine", host.string(), "--weights", "fp32", "--activations", "fp32", "--kv", "fp32",
       "--prompt", "16", "--generate", "2"},
      {"offload", "--host", "grace", "--device", host.string(), "--link", "pcie5x16", "--in", "1GiB", "--out", "1GiB",
       "--flops", "1TFLOP"},
      {"ecm", "--machine", host.string(), "--kernel", "triad"},
  };
  for (const std::vector<std::string>& command : commands) {
    const outcome o = hml_run(command);
    EXPECT_EQ(o.status, 0) << command[0] << ": " << o.err;
    EXPECT_FALSE(o.out.empty()) << command[0];
    EXPECT_EQ(o.out.find("nan"), std::string::npos) << command[0] << ": " << o.out;
    EXPECT_EQ(o.out.find("inf"), std::string::npos) << command[0] << ": " << o.out;
  }
  // Its caches are measured levels, but caches: hml tiers takes none as a tier, and says so.
  expect_input_error(hml_run({"tiers", "--machine", host.string(), "--footprint", "1MiB"}),
                     "--machine: " + host.string() + ": one tier; a tiered memory has two or more: its caches are no tiers");
}

TEST(MachineCli, OlderFilesAreReadWithOneNote) {
  const scratch_directory dir;
  const fs::path old_cpu = fs::path{HML_SOURCE_DIR} / "tests" / "fuzz" / "corpus" / "ecm_machine_file" / "sandy_bridge_ep.yml";
  const outcome o = hml_run({"ecm", "--machine", old_cpu.string(), "--kernel", "triad", "--cores", "1"});
  ASSERT_EQ(o.status, 0) << o.err;
  EXPECT_EQ(o.err, "hml: note: " + old_cpu.string() + " is an ECM machine file (an older format), read as such; `hml devices " +
                       old_cpu.string() + " --format yaml` writes it as a machine file\n");
  // Converted, it gives the same prediction without the note.
  const outcome converted = hml_run({"devices", old_cpu.string(), "--format", "yaml"});
  ASSERT_EQ(converted.status, 0) << converted.err;
  const fs::path file = dir.file("snb.yaml", converted.out);
  const outcome again = hml_run({"ecm", "--machine", file.string(), "--kernel", "triad", "--cores", "1"});
  EXPECT_EQ(again.out, o.out);
  EXPECT_EQ(again.err, "");
}

// The shipped example machine file is the older device file converted: the same machine, figures and sources.
TEST(MachineCli, TheExampleFileIsTheOlderOneConverted) {
  const fs::path cli = fs::path{HML_SOURCE_DIR} / "cli";
  const hml::machine_file yaml = hml::read_machine_file(read_file(cli / "my_gpu.yaml"), "my_gpu.yaml");
  const hml::loaded_device json = hml::read_device_json(read_file(cli / "my_gpu.json"));
  EXPECT_TRUE(yaml.machine() == json.machine());
  ASSERT_EQ(yaml.sources().size(), json.sources().size());
  for (std::size_t i = 0; i < yaml.sources().size(); ++i) EXPECT_TRUE(yaml.sources()[i] == json.sources()[i]);
}

TEST(MachineCli, NamesAndFilesFailInOneLine) {
  expect_input_error(hml_run({"tiers", "--machine", "xeon_max_948", "--footprint", "1GiB"}),
                     "--machine: unknown machine 'xeon_max_948'; did you mean xeon_max_9480?");
  expect_input_error(hml_run({"offload", "--system", "gh20", "--in", "1GB", "--out", "1GB"}),
                     "--system: unknown system 'gh20'; did you mean gh200?");
  expect_input_error(hml_run({"roofline", "--machine", "no/such.yaml", "--precision", "fp32", "--ops", "-"}),
                     "--machine: cannot read 'no/such.yaml'");
  expect_input_error(hml_run({"ecm", "--machine", "mi300a", "--kernel", "triad"}),
                     "--machine: mi300a: the ECM model needs its caches from L1 (its first level, Infinity Cache, is shared by "
                     "the cores), Infinity Cache's rate into the level inside it and a clock (it counts cycles), which this catalog "
                     "entry does not state");
}

}  // namespace
