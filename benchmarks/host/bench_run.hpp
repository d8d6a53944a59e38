// What both host benchmark programs share: their command line (CLI11), the probe at full or tiny size,
// and writing their Markdown fragment (whole or not at all) or printing it.
#pragma once
#include <CLI/CLI.hpp>

#include <cstdio>
#include <exception>
#include <functional>
#include <string>
#include <type_traits>

import hml;
import hml.probe;

namespace bench {

struct run_options {
  std::string out;     // the fragment file; empty: print to stdout
  bool tiny = false;   // a few small working sets and short timings: checks that the program runs
};

// The probe as the benchmarks run it: the library's default ladder (16 KiB to 2 GiB), or a tiny one.
inline hml::probe_options probe_options(const run_options& run) {
  using namespace hml::literals;
  if (!run.tiny) return {};
  return {.working_sets = hml::working_set_ladder(16_KiB, 256_KiB, 1),
          .timing = {.threads = 0, .min_time = 1_ms, .repetitions = 1}};
}

// Parses the command line, runs `body`, and writes what it returns; one message and status 1 on failure.
inline int main(int argc, char** argv, const std::string& description,
                const std::function<std::string(const run_options&)>& body) {
  CLI::App app{description};
  run_options run;
  app.add_option("--out", run.out, "write the Markdown fragment to this file (default: stdout)");
  app.add_flag("--tiny", run.tiny, "tiny sizes and timings: checks that the program runs, measures nothing");
  CLI11_PARSE(app, argc, argv);
  try {
    const std::string fragment = body(run);
    if (run.out.empty()) {
      std::fputs(fragment.c_str(), stdout);
    } else {
      hml::write_file_atomically(run.out, fragment);
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: error: %s\n", app.get_name().empty() ? argv[0] : app.get_name().c_str(), e.what());
    return 1;
  }
  return 0;
}

// A percentage as table text: one decimal is all a measurement on a shared machine supports.
inline std::string percent_text(double percent) { return std::string{hml::format_number(percent, hml::fixed(1)).view()}; }

// A quantity as the tables show it; sizes with binary prefixes, as working sets are doubled from 16 KiB.
template <class Quantity>
std::string text(Quantity q) {
  if constexpr (std::is_same_v<Quantity, hml::data_size>) {
    return hml::to_string(q, {.prefixes = hml::prefix_system::binary});
  } else {
    return hml::to_string(q);
  }
}

// A table as an aligned text block in Markdown.
inline std::string text_block(const hml::table& t) { return "```text\n" + hml::format_table(t) + "```\n"; }

}  // namespace bench
