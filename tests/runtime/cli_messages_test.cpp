// What `hml` says to people: the aligned roofline table in human units (CSV keeps base units), and the
// messages for the slips people make: two letters of a device swapped, a kernels CSV without a column, an
// output file that cannot be created, a precision a device has no figure for, a bit rate given where a byte
// rate is wanted, a chart asked for in a format the writer does not produce. Each bad input: exit status 2,
// one line on stderr naming what is wrong, nothing on stdout, no file written.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <regex>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "cli_harness.hpp"

import hml;

#ifdef HML_CLI

namespace {

namespace fs = std::filesystem;

using namespace hml_test;

const std::string kernels = std::string{HML_SOURCE_DIR} + "/cli/kernels.csv";

// The table for people. cli/kernels.csv's first row, "vector add 1M fp32", is 1 MFLOP over 12 MB; on the
// H100 SXM's FP32 roof on the datasheet's figures (67 TFLOP/s, 3.35 TB/s; --figures stated) by hand: intensity 1/12 = 0.08333 FLOP/B,
// attainable 3.35 TB/s x 1/12 = 279.17 GFLOP/s, efficiency 279.17 G / 67 T = 0.4167 %, time 12 MB / 3.35 TB/s
// = 3.582 us; matmul 4096 (2 x 4096^3 FLOP over 192 MiB) is compute-bound: 67 TFLOP/s, 100 %, 2.051 ms.
TEST(CliMessages, RooflineTableIsInHumanUnits) {
  const outcome o = hml_run({"roofline", "--device", "h100_sxm", "--precision", "fp32", "--figures", "stated", "--ops", kernels});
  ASSERT_EQ(o.status, 0) << o.err;
  EXPECT_NE(o.out.find("arithmetic intensity  attainable"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("vector add 1M fp32    0.08333 FLOP/B        279.2 GFLOP/s  memory-bound   0.4167 %    3.582 us\n"),
            std::string::npos)
      << o.out;
  EXPECT_NE(o.out.find("matmul 4096 fp32      682.7 FLOP/B          67 TFLOP/s     compute-bound  100 %       2.051 ms\n"),
            std::string::npos)
      << o.out;
  EXPECT_FALSE(std::regex_search(o.out, std::regex{"[0-9]e[-+]?[0-9]"})) << o.out;  // no exponent forms

  // CSV keeps base units at full precision: FLOP/s and seconds, the efficiency in percent.
  const outcome csv = hml_run({"roofline", "--device", "h100_sxm", "--precision", "fp32", "--figures", "stated", "--ops", kernels, "--format", "csv"});
  ASSERT_EQ(csv.status, 0) << csv.err;
  const std::size_t row = csv.out.find("vector add 1M fp32,");
  ASSERT_NE(row, std::string::npos) << csv.out;
  std::istringstream fields{csv.out.substr(row + 19, csv.out.find('\n', row) - row - 19)};
  double intensity = 0, attainable = 0;
  char comma = 0;
  fields >> intensity >> comma >> attainable;
  EXPECT_DOUBLE_EQ(intensity, 1.0 / 12);
  EXPECT_DOUBLE_EQ(attainable, 3.35e12 / 12);
}

TEST(CliMessages, SwappedLettersInADeviceGetASuggestion) {
  expect_input_error(hml_run({"roofline", "--device", "h100_smx", "--precision", "fp32", "--ops", kernels}),
                     "--device: unknown machine 'h100_smx'; did you mean h100_sxm?");
  expect_input_error(hml_run({"devices", "mi300xx"}), "did you mean mi300x");
  expect_input_error(hml_run({"devices", "im300x"}), "did you mean mi300x");
}

// A misspelt command, option or field is offered the name it is one or two edits from; a word close to
// none still gets the list or the help.
TEST(CliMessages, MisspeltNamesAreOfferedTheirSpelling) {
  expect_input_error(hml_run({"rooflin"}), "unknown command 'rooflin'; did you mean roofline?");
  expect_input_error(hml_run({"roofline", "--machne", "h100_sxm", "--ops", kernels}),
                     "--machne: not an option of `hml roofline`; did you mean --machine?");
  expect_input_error(hml_run({"llm", "--contxt", "4096"}), "--contxt: not an option of `hml llm`; did you mean --context?");
  expect_input_error(hml_run({"lab", "--bogus"}), "--bogus: not an option of `hml lab`; see `hml lab --help`");
  // The value given with = is no part of the name; names are compared without their dashes, and an older
  // alias (--device for --machine) is never offered.
  expect_input_error(hml_run({"llm", "--machne=h100_sxm"}), "--machne: not an option of `hml llm`; did you mean --machine?");
  expect_input_error(hml_run({"llm", "--p"}), "--p: not an option of `hml llm`; see `hml llm --help`");
  expect_input_error(hml_run({"roofline", "--devic", "h100_sxm"}), "--devic: not an option of `hml roofline`; see");
  // Another command's option is said to be theirs, not offered the nearest of this one's (--round: --bound).
  expect_input_error(hml_run({"llm", "--round"}), "--round: not an option of `hml llm` (it is one of `hml roofline`)");
  expect_input_error(hml_run({"--versoin"}), "--versoin: not an option of `hml`; did you mean --version?");
  expect_input_error(hml_run({"roof\x1bline"}), "unknown command 'roof\\x1bline'; did you mean roofline?");  // escaped
  const scratch_directory dir;
  const std::string device = dir.file("d.json", R"({"id": "d", "name": "D", "memory": [{"name": "M", "bandwith": "1 TB/s"}]})").string();
  expect_input_error(hml_run({"devices", device}), "d.json:1: memory[0].bandwith: unknown field; did you mean bandwidth?");
  // A long field is quoted short, so that the line still says what is wrong with it.
  const std::string yaml = dir.file("m.yaml", "format: hml-machine/1\nid: m\nname: M\ncores" + std::string(1000, 's') +
                                                  ": 8\nmemory: [{name: M, bandwidth: 1 TB/s}]\n").string();
  expect_input_error(hml_run({"devices", yaml}), "m.yaml:4: coressssss");
  expect_input_error(hml_run({"devices", yaml}), "(1005 bytes): unknown field; expected one of ");
  // Catalog links are offered as machines are.
  expect_input_error(hml_run({"llm", "--model", "llama-2-7b", "--machine", "h100_sxm", "--tp", "2", "--link", "nvlnk4"}),
                     "--link: unknown link 'nvlnk4'; did you mean nvlink4, or a rate per direction such as 63GB/s?");
}

TEST(CliMessages, AnOptionWithoutANameIsShownAsTyped) {
  // "--=x" was reported as "--", the end of options (the seventieth trial).
  expect_input_error(hml_run({"llm", "--=x"}), "'--=x': an option without a name before its '='; see `hml llm --help`");
  expect_input_error(hml_run({"roofline", "--="}), "'--=': an option without a name before its '='");
  expect_input_error(hml_run({"--=x"}), "'--=x': not an option of `hml`; options follow the command");
  expect_input_error(hml_run({"-=x"}), "'-=x': not an option of `hml`; options follow the command");
}

TEST(CliMessages, ANameOfAnotherKindIsSaidToBeIt) {
  expect_input_error(hml_run({"llm", "--model", "llama-2-7b", "--machine", "llama-2-7b"}),
                     "--machine: 'llama-2-7b' is a model, not a machine; known machines: h100_sxm");
  expect_input_error(hml_run({"offload", "--system", "h100_sxm", "--flops", "1TFLOP", "--in", "1GB", "--out", "1GB"}),
                     "--system: 'h100_sxm' is a machine, not a system; known systems: gh200");
  // A name with a dot reads as a file's, but where no file has it and the catalog does, it is said (the
  // seventy-first trial: "cannot read 'PCIe 5.0 x16'").
  expect_input_error(hml_run({"roofline", "--machine", "PCIe 5.0 x16", "--precision", "fp32", "--ops", kernels}),
                     "--machine: 'PCIe 5.0 x16' is a link, not a machine; known machines: ");
  expect_input_error(hml_run({"devices", "llama-2-7b"}),
                     "NAME: 'llama-2-7b' is a model, not a machine, link or system; `hml llm --model llama-2-7b` takes it");
}

TEST(CliMessages, AKernelsCsvWithoutAColumnNamesIt) {
  const scratch_directory dir;
  const auto run_on = [&](std::string_view csv) {
    return hml_run({"roofline", "--device", "h100_sxm", "--precision", "fp32", "--ops", dir.file("ops.csv", csv).string()});
  };
  expect_input_error(run_on("name,flops,bytes\na,1,2\n"),
                     ":1: the header has no memory_bytes column (it has \"name\", \"flops\", \"bytes\")");
  expect_input_error(run_on("flops,memory_bytes\n1,2\n"), "the header has no name column");
  expect_input_error(run_on("name\na\n"), "the header has no flops and memory_bytes columns");
  expect_input_error(run_on("name,flps,memory_bytes\na,1,2\n"),
                     ":1: the header has no flops column (it has \"name\", \"flps\", \"memory_bytes\"); did you mean flops for \"flps\"?");
  expect_input_error(run_on("name,flops,flops,memory_bytes\na,1,1,2\n"), "the header names the column flops twice");
  // A header in capitals is one slip a column, said once (the seventieth trial: it was offered nothing).
  expect_input_error(run_on("NAME,FLOPs,MEMORY_BYTES\na,1,2\n"),
                     "; did you mean name for \"NAME\", flops for \"FLOPs\" and memory_bytes for \"MEMORY_BYTES\"?");
  expect_input_error(run_on("name,flops,memory_bytes,extra\na,1,2,3\n"),
                     "the header has a column \"extra\" that is not one of name,flops,memory_bytes");
  // A column without a name is refused as a named one is, at the header (the seventieth trial: its cells were
  // dropped unread, and a trailing comma was blamed on line 2).
  expect_input_error(run_on("name,,flops,memory_bytes\na,x,1,2\n"), ":1: the header's column 2 has no name (a comma too many?)");
  expect_input_error(run_on("name,flops,memory_bytes,\na,1,2\n"), ":1: the header's column 4 has no name (a comma too many?)");
}

// A file named for one format gets that format (the seventieth trial: `-o r.svg` took a text table, a file no
// SVG reader opens; `--format json -o r.csv` and `hml devices --format yaml -o d.json` likewise), and nothing is
// written; a name of no format's takes any.
TEST(CliMessages, AnOutputNamedForAnotherFormatIsRefused) {
  const scratch_directory dir;
  const std::string ops = std::string{HML_SOURCE_DIR} + "/cli/kernels.csv";
  const auto roofline_with = [&](std::vector<std::string> more) {
    more.insert(more.begin(), {"roofline", "--machine", "h100_sxm", "--precision", "fp32", "--ops", ops});
    return hml_run(more);
  };
  // Refused before anything is written, so relative names leave nothing here either; the advice keeps the folder.
  expect_input_error(roofline_with({"-o", "r.svg"}), "-o: 'r.svg': the name says SVG, and the output is a text table; name it r.txt");
  expect_input_error(roofline_with({"--format", "json", "--output", "sub/r.CSV"}),
                     "--output: 'sub/r.CSV': the name says CSV, and the output is JSON; name it sub/r.json, or give --format csv");
  expect_input_error(roofline_with({"--format", "json", "-o", ".csv"}), "-o: '.csv': the name says CSV, and the output is JSON; name it out.json");
  expect_input_error(hml_run({"devices", "h100_sxm", "-o", "d.yaml"}),
                     "-o: 'd.yaml': the name says YAML, and the output is a text table; name it d.txt, or give --format yaml");
  expect_input_error(hml_run({"sweep", "--format", "csv", "-o", "s.yml"}), "-o: 's.yml': the name says YAML, and the output is CSV; name it s.csv");
  expect_input_error(hml_run({"probe", "--save", "m.csv"}), "--save: 'm.csv': the name says CSV, and the output is YAML; name it m.yaml");
  EXPECT_FALSE(fs::exists("r.svg") || fs::exists("sub") || fs::exists(".csv") || fs::exists("d.yaml") || fs::exists("s.yml") || fs::exists("m.csv"));
  EXPECT_TRUE(fs::is_empty(dir.path));
  for (const auto& [format, name] : {std::pair{"csv", "r.csv"}, {"json", "r.json"}, {"table", "r.txt"}, {"table", "r.out"}}) {
    const outcome o = roofline_with({"--format", format, "-o", (dir.path / name).string()});
    EXPECT_EQ(o.status, 0) << name << ": " << o.err;
  }
  const outcome yaml = hml_run({"devices", "h100_sxm", "--format", "yaml", "-o", (dir.path / "d.yml").string()});
  EXPECT_EQ(yaml.status, 0) << yaml.err;
  // --as-kernels writes CSV unasked: its name is .csv (the seventy-first trial: it was refused as a table's).
  const outcome as_kernels = hml_run({"llm", "--model", "llama-2-7b", "--machine", "h100_sxm", "--as-kernels", "decode", "-o",
                                   (dir.path / "k.csv").string()});
  EXPECT_EQ(as_kernels.status, 0) << as_kernels.err;
  expect_input_error(hml_run({"llm", "--model", "llama-2-7b", "--machine", "h100_sxm", "--as-kernels", "decode", "-o", "k.json"}),
                     "-o: 'k.json': the name says JSON, and the output is CSV; name it k.csv");  // no --format it refuses
  // chart's own rule: SVG only, a name that is an extension alone too.
  expect_input_error(hml_run({"chart", "--machine", "h100_sxm", "--precision", "fp32", "--ops", ops, "-o", ".csv"}),
                     "-o: '.csv': hml chart writes SVG only, not csv; name the file .svg");
  expect_input_error(hml_run({"chart", "--machine", "h100_sxm", "--precision", "fp32", "--ops", ops, "-o", "c."}),
                     "-o: 'c.': hml chart writes SVG only, not a name ending in '.'");
}

TEST(CliMessages, AnOutputFileThatCannotBeCreatedSaysWhy) {
  const scratch_directory dir;
  const auto chart_to = [&](const fs::path& out) {
    return hml_run({"chart", "--device", "h100_sxm", "--precision", "fp32", "--ops", kernels, "-o", out.string()});
  };
  // /proc exists and is a directory; it takes no new files. The system's own text, ENOENT's "No such file
  // or directory", would say the opposite of the truth.
  const outcome proc = chart_to("/proc/x.svg");
  expect_input_error(proc, "cannot create a file in the directory '/proc'");
  EXPECT_EQ(proc.err.find("No such file or directory"), std::string::npos) << proc.err;
  expect_input_error(chart_to(dir.path / "missing" / "x.svg"), "the directory '" + (dir.path / "missing").string() + "' does not exist");
  const fs::path plain = dir.file("plain", "a file");
  expect_input_error(chart_to(plain / "x.svg"), "'" + plain.string() + "' is not a directory");
  if (::geteuid() != 0) {  // root writes anywhere
    const fs::path locked = dir.path / "locked";
    fs::create_directory(locked);
    fs::permissions(locked, fs::perms::owner_read | fs::perms::owner_exec);
    expect_input_error(chart_to(locked / "x.svg"), "the directory '" + locked.string() + "' is not writable");
    EXPECT_FALSE(fs::exists(locked / "x.svg"));
    fs::permissions(locked, fs::perms::owner_all);
  }
}

// The V100's datasheet gives FP64 and FP32 on its vector units and FP16 on its tensor cores; no TF32, no FP8.
TEST(CliMessages, APrecisionADeviceLacksListsTheOnesItHas) {
  expect_input_error(hml_run({"roofline", "--device", "v100", "--precision", "tf32", "--ops", kernels}),
                     "--precision: NVIDIA V100 SXM2 32GB publishes no TF32 (vector or tensor) peak; it has fp64, fp32, fp16");
  expect_input_error(hml_run({"roofline", "--device", "v100", "--precision", "fp8", "--ops", kernels}),
                     "; it has fp64, fp32, fp16");
  expect_input_error(hml_run({"roofline", "--device", "v100", "--precision", "fp16_vector", "--ops", kernels}),
                     "; it has fp64_vector, fp32_vector, fp16_tensor");
}

TEST(CliMessages, ABitRateForAPeakBandwidthIsNamedAsSuch) {
  for (const std::string rate : {"3.35Tbps", "3.35 Tbit/s", "3.35Tb/s"}) {
    const outcome o = hml_run({"analyze", "--flops", "10MFLOP", "--bytes", "120MB", "--time", "30us", "--peak-compute",
                               "67TFLOP/s", "--peak-bandwidth", rate});
    expect_input_error(o, "--peak-bandwidth: cannot read \"" + rate + "\" as a data rate: ");
    expect_input_error(o, "is bits per second (418.8 GB/s); a memory's bandwidth is in bytes per second");
    // A b typed for a B: the byte rate as the rate was written, its space too; bits spelled out: their bytes.
    EXPECT_NE(o.err.find(rate == "3.35 Tbit/s" ? "did you mean \"418.75 GB/s\"?" : "did you mean \"3.35TB/s\" or \"418.75 GB/s\"?"),
              std::string::npos)
        << o.err;
    EXPECT_EQ(o.err.find("--time"), std::string::npos) << o.err;  // not blamed on another option
    expect_input_error(hml_run({"roofline", "--peak-compute", "67TFLOP/s", "--peak-bandwidth", rate, "--ops", kernels}),
                       "is bits per second");
  }
  // Bytes per second, however written, are what is wanted.
  for (const std::string rate : {"3.35TB/s", "3.35TBps", "3350 GB/s"}) {
    const outcome o = hml_run({"roofline", "--peak-compute", "67TFLOP/s", "--peak-bandwidth", rate, "--ops", kernels});
    EXPECT_EQ(o.status, 0) << rate << ": " << o.err;
    EXPECT_TRUE(o.out.starts_with("roofline on the given peaks: 67 TFLOP/s, 3.35 TB/s, ridge 20 FLOP/B\n")) << o.out;
  }
}

// One grammar for every command (`hml --help` states it): a plain number is FLOP or bytes wherever work or a
// size is asked for; a machine's memory bandwidth refuses a bit rate wherever it is given; a data type is a
// precision alone wherever one is asked for.
TEST(CliMessages, EveryCommandReadsQuantitiesOneWay) {
  const outcome plain = hml_run({"offload", "--system", "gh200", "--in", "1e9", "--out", "1e9", "--flops", "1e12"});
  const outcome units = hml_run({"offload", "--system", "gh200", "--in", "1GB", "--out", "1GB", "--flops", "1TFLOP"});
  ASSERT_EQ(plain.status, 0) << plain.err;
  EXPECT_EQ(plain.out, units.out);
  const outcome analyze = hml_run({"analyze", "--flops", "1e12", "--bytes", "1e9", "--time", "1ms", "--peak-compute",
                                   "67TFLOP/s", "--peak-bandwidth", "3.35TB/s"});
  EXPECT_EQ(analyze.status, 0) << analyze.err;
  for (const char* option : {"--host-bandwidth", "--device-bandwidth"}) {
    std::vector<std::string> args{"offload", "--in", "1GB", "--out", "1GB", "--flops", "1TFLOP", "--link", "nvlink4"};
    if (std::string_view{option} == "--host-bandwidth") {
      args.insert(args.end(), {"--host-bandwidth", "1600Gbit/s", "--host-peak", "1TFLOP/s", "--device", "h100_sxm"});
    } else {
      args.insert(args.end(), {"--host", "grace", "--device-bandwidth", "1600Gbit/s", "--device-peak", "1TFLOP/s"});
    }
    expect_input_error(hml_run(args), std::string{option} + ": cannot read \"1600Gbit/s\" as a data rate: \"Gbit/s\" at "
                                      "position 4 is bits per second (200 GB/s)");
  }
  expect_input_error(hml_run({"llm", "--model", "llama-2-7b", "--machine", "h100_sxm", "--weights", "fp16tensor"}),
                     "--weights: 'fp16tensor' names a compute unit (tensor or vector): the model chooses the units it runs on; give the precision alone, fp16");
  expect_input_error(hml_run({"offload", "--system", "gh200", "--in", "1GB", "--out", "1GB", "--precision", "fp32vector"}),
                     "--precision: 'fp32vector' names a compute unit (tensor or vector): the model chooses the units it runs on; give the precision alone, fp32");
  // A rate or a time needs its unit everywhere.
  expect_input_error(hml_run({"analyze", "--flops", "1e12", "--bytes", "1e9", "--time", "1", "--peak-compute",
                              "67TFLOP/s", "--peak-bandwidth", "3.35TB/s"}),
                     "--time: ");
}

TEST(CliMessages, AChartInAFormatTheWriterDoesNotProduceIsRefused) {
  const scratch_directory dir;
  for (const std::string name : {"roofline.png", "roofline.PDF", "roofline.svg.png"}) {
    const fs::path out = dir.path / name;
    expect_input_error(hml_run({"chart", "--device", "h100_sxm", "--precision", "fp32", "--ops", kernels, "-o", out.string()}),
                       "hml chart writes SVG only");
    EXPECT_FALSE(fs::exists(out)) << out;
  }
  EXPECT_TRUE(fs::is_empty(dir.path));
  const fs::path svg = dir.path / "roofline.SVG";
  EXPECT_EQ(hml_run({"chart", "--device", "h100_sxm", "--precision", "fp32", "--ops", kernels, "-o", svg.string()}).status, 0);
  EXPECT_TRUE(read_file(svg).starts_with("<svg "));
}

}  // namespace

#endif
