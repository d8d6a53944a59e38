// Every bad value of every option, read off each command's --help, is said in one form: one line, exit
// status 2, `hml: error: OPTION: what is wrong; what to do`. A new option or check that says what is wrong
// and not what to do fails here, as does one that crashes on a value (a value of 25,000 bytes once
// overflowed the stack in std::regex) or cuts its advice off the line.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "cli_harness.hpp"

namespace {

using namespace hml_test;

#ifdef HML_CLI

struct option_help {
  std::vector<std::string> names;  // as typed: -o, --output
  std::string takes;               // FILE, SIZE, ... ("" for a flag)
};

// The options `hml COMMAND --help` lists, --help itself left out.
std::vector<option_help> options_of(const std::string& command) {
  const outcome help = hml_run({command, "--help"});
  EXPECT_EQ(help.status, 0) << help.err;
  std::vector<option_help> options;
  const std::regex line{R"(^  ((?:-\w,)?--[\w-]+(?:,--[\w-]+)*|-\w)(?: (\S+))?.*)"};
  std::istringstream text{help.out};
  for (std::string row; std::getline(text, row);) {
    std::smatch m;
    if (!std::regex_match(row, m, line)) continue;
    option_help option{.names = {}, .takes = m.str(2)};
    std::istringstream names{m.str(1)};
    for (std::string name; std::getline(names, name, ',');) option.names.push_back(name);
    if (std::ranges::find(option.names, "--help") != option.names.end()) continue;
    if (option.takes.starts_with("Needs") || option.takes.starts_with("Excludes")) option.takes.clear();
    options.push_back(option);
  }
  return options;
}

// `args` without `names` and the value after each.
std::vector<std::string> without(std::vector<std::string> args, const std::vector<std::string>& names) {
  for (auto i = args.begin(); i != args.end();) {
    i = std::ranges::find(names, *i) != names.end() ? args.erase(i, std::min(i + 2, args.end())) : i + 1;
  }
  return args;
}

// A value of another kind than the option takes: a size for a rate, a rate for anything else.
std::string of_another_kind(const std::string& takes) { return takes.find("RATE") != std::string::npos ? "1GB" : "1GB/s"; }

TEST(ErrorForm, EveryBadValueOfEveryOptionIsOneLineSayingWhatToDo) {
  const scratch_directory dir;
  const std::string ops = std::string{HML_SOURCE_DIR} + "/cli/kernels.csv";
  const std::string svg = (dir.path / "c.svg").string();
  const std::string text = (dir.path / "c.txt").string();
  // A run of each command that succeeds, for its options' bad values to be the only fault.
  const std::map<std::string, std::vector<std::string>> runs{
      {"lab", {}},
      {"sweep", {"-o", text}},
      {"roofline", {"--machine", "h100_sxm", "--precision", "fp32", "--ops", ops, "-o", text}},
      {"analyze", {"--flops", "1GFLOP", "--bytes", "1GB", "--time", "1s", "--machine", "h100_sxm", "--precision", "fp32", "-o", text}},
      {"devices", {"-o", text}},
      {"chart", {"--machine", "h100_sxm", "--precision", "fp32", "--ops", ops, "-o", svg}},
      {"tiers", {"--system", "xeon_max", "--footprint", "200GiB", "-o", text}},
      {"offload", {"--system", "gh200", "--in", "2GiB", "--out", "1GiB", "-o", text}},
      {"ecm", {"--machine", "snb_e5_2680", "--kernel", "triad", "-o", text}},
      {"llm", {"--model", "llama-2-7b", "--machine", "h100_sxm", "-o", text}},
      {"probe", {"--smallest", "16KiB", "--largest", "64KiB", "--min-time", "1ms", "--repetitions", "1", "--threads", "1", "-o", text}},
  };
  const std::regex one_form{R"(hml: error: \S.*: .+; .+\n)"};
  // Each run in an empty directory of its own: a value taken as a file name (-o abc) is written there, and
  // is not read by the next run (--machine abc).
  const fs::path was = fs::current_path();
  const fs::path cwd = dir.path / "cwd";
  const std::string overlong(5000, 'x');
  int refused = 0;
  for (const auto& [command, run] : runs) {
    const std::vector<option_help> options = options_of(command);
    EXPECT_GE(options.size(), 3U) << command;
    for (const option_help& option : options) {
      const std::vector<std::string> values =
          option.takes.empty() ? std::vector<std::string>{"=yes"}
                               : std::vector<std::string>{"-1", "nan", "abc", "0", of_another_kind(option.takes), overlong};
      for (const std::string& value : values) {
        std::vector<std::string> args = without(run, option.names);
        args.insert(args.begin(), command);
        if (option.takes.empty()) {
          args.push_back(option.names.back() + value);
        } else {
          args.insert(args.end(), {option.names.back(), value});
        }
        fs::remove_all(cwd);
        fs::create_directory(cwd);
        fs::current_path(cwd);
        const outcome o = hml_run(args);
        fs::current_path(was);
        const std::string shown = command + " " + option.names.back() + " " + value.substr(0, 20);
        ASSERT_TRUE(o.status == 0 || o.status == 2) << shown << ": status " << o.status << "\n" << o.err;
        if (o.status == 0) continue;
        ++refused;
        EXPECT_TRUE(std::regex_match(o.err, one_form)) << shown << ":\n" << o.err;
        // CLI11's own words, or hml's fallback for a message it does not know (help alone for advice).
        EXPECT_FALSE(o.err.ends_with("; see `hml " + command + " --help`\n")) << shown << ":\n" << o.err;
        for (const std::string_view cli11 : {"Could not convert", "is required", "At Most", " not in {", "Excludes", "Needs"})
          EXPECT_EQ(o.err.find(cli11), std::string::npos) << shown << ":\n" << o.err;
        EXPECT_TRUE(o.out.empty()) << shown;
      }
    }
  }
  EXPECT_GE(refused, 500);  // the values above are bad for most options
}

#endif

}  // namespace
