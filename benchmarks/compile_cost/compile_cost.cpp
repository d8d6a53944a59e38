// Measures what modules save at compile time: the seed examples' translation unit compiled against
// `import hml;` and against the library as textual headers, and compile-time sweeps of the seed model (grids
// of 10^2 to 10^5 points, 10^4 points along one axis) against clang's constexpr step limit. Every compile is the build's own command (from
// compile_commands.json) writing to a temporary object; time is the best of --runs, memory the peak RSS.
// Writes a Markdown fragment for benchmarks/README.md (--markdown).
#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <unistd.h>

#include <CLI/CLI.hpp>

#include "../markdown_row.hpp"
#include "../scratch_directory.hpp"
#include "compile_command.hpp"
#include "measured_run.hpp"
#include "time_trace.hpp"

import hml;

namespace {

using compile_cost::compile_command;
using compile_cost::measured_run;

// clang's default -fconstexpr-steps: the budget of one constant expression.
constexpr auto default_constexpr_steps = static_cast<long long>(hml::default_constexpr_steps);

struct options {
  std::filesystem::path database;
  std::vector<std::filesystem::path> seed_objects;     // built with import hml; and with textual headers
  std::vector<std::filesystem::path> library_objects;  // the same pair for library_only.cpp
  std::filesystem::path grid_object;
  std::filesystem::path source_dir;  // the project's: headers outside it are the outside ones
  std::filesystem::path markdown;
  int runs = 5;
  std::size_t max_points = 100'489;
};

using bench::scratch_directory;  // for the objects and logs of the measured compiles

// The fastest of `runs` compiles, or the first failure.
measured_run best_of(int runs, const compile_command& c, const scratch_directory& scratch) {
  const compile_command to_scratch = compile_cost::writing_to(c, scratch.path() / "object.o");
  std::optional<measured_run> best;
  for (int i = 0; i < runs; ++i) {
    measured_run run = compile_cost::run_measured(to_scratch, scratch.path() / "compiler.log");
    if (!run.succeeded) return run;
    if (!best || run.wall_time < best->wall_time) best = std::move(run);
  }
  return *best;
}

// Why a compile failed, in clang's words: its first error and the note on constant evaluation, if any.
std::string diagnosis(std::string_view output) {
  std::string found;
  for (std::string_view kind : {"error: ", "note: constexpr evaluation"}) {
    const std::size_t at = output.find(kind);
    if (at == std::string_view::npos) continue;
    const std::string_view line = output.substr(at, output.find('\n', at) - at);
    found.append(found.empty() ? "" : "<br>").append("`").append(line).append("`");
  }
  return found.empty() ? "(no diagnostic)" : found;
}

std::string time_text(const measured_run& run) { return hml::to_string(run.wall_time); }
std::string memory_text(const measured_run& run) {
  return hml::to_string(run.peak_memory, {.prefixes = hml::prefix_system::binary});
}
std::string count_text(double x) { return std::string{hml::format_number(x, hml::fixed(0)).view()}; }
std::string ratio_text(double x) { return std::string{hml::format_number(x, hml::general(3)).view()}; }

void progress(const std::string& what, const measured_run& run) {
  std::printf("compile_cost: %-52s %s, %s%s\n", what.c_str(), time_text(run).c_str(), memory_text(run).c_str(),
              run.succeeded ? "" : " (failed)");
  std::fflush(stdout);
}

// Part 1: each translation unit with `import hml;` and with textual headers.
struct both_ways {
  measured_run modules;
  measured_run headers;
};

both_ways compile_both_ways(const options& o, const std::vector<std::filesystem::path>& objects,
                            const std::string& name, const scratch_directory& scratch) {
  both_ways b{best_of(o.runs, compile_cost::find_compile_command(o.database, objects.at(0)), scratch),
              best_of(o.runs, compile_cost::find_compile_command(o.database, objects.at(1)), scratch)};
  progress(name + ", import hml;", b.modules);
  progress(name + ", textual headers", b.headers);
  for (const measured_run* run : {&b.modules, &b.headers}) {
    if (!run->succeeded) throw std::runtime_error(name + " did not compile:\n" + run->output);
  }
  return b;
}

// The seed examples' modules compile once more under clang's -ftime-trace: what is left of it that
// `import hml;` cannot take away.
std::string where_the_time_goes(const options& o, const both_ways& seed, const scratch_directory& scratch) {
  const std::filesystem::path trace = scratch.path() / "trace.json";
  const compile_command traced = compile_cost::with_flags(
      compile_cost::writing_to(compile_cost::find_compile_command(o.database, o.seed_objects.at(0)),
                               scratch.path() / "object.o"),
      "-ftime-trace=" + trace.string() + " -ftime-trace-granularity=0");
  const measured_run run = compile_cost::run_measured(traced, scratch.path() / "compiler.log");
  if (!run.succeeded) throw std::runtime_error("the traced compile of seed_examples.cpp failed:\n" + run.output);
  const compile_cost::time_trace_breakdown b = compile_cost::read_time_trace(trace, o.source_dir);
  const auto share = [&](hml::duration part) {
    return std::string{hml::format_number(part / b.frontend * 100, hml::fixed(0)).view()} + " %";
  };
  const hml::duration needed = seed.headers.wall_time / 10;
  return "Where the seed examples' compile with `import hml;` goes, from one more compile under clang's "
         "`-ftime-trace` (shares of its front-end time, " + hml::to_string(b.frontend) +
         "; the kinds overlap, since constant evaluation instantiates templates):\n\n" +
         bench::markdown_row({"where", "share"}) + bench::markdown_row({"---", "---:"}) +
         bench::markdown_row({"parsing headers from outside the project (`<string_view>` and the like, which the "
                              "examples' headers #include)", share(b.outside_headers)}) +
         bench::markdown_row({"constant evaluation (the `static_assert`s and `constexpr` reports)",
                              share(b.constant_evaluation)}) +
         bench::markdown_row({"template instantiation", share(b.template_instantiation)}) +
         bench::markdown_row({"reading the library's BMIs", share(b.module_loading)}) +
         "\n10x would need the modules compile to take " + hml::to_string(needed) + ". Modules remove the library's "
         "own parse, which `library_only.cpp` shows is nearly all of the textual cost; the standard headers the "
         "examples include and the examples' own evaluation stay, and `import std;` (not in libstdc++ 12) is what "
         "would remove the first.\n";
}

std::string modules_vs_headers(const options& o, const scratch_directory& scratch) {
  const both_ways seed = compile_both_ways(o, o.seed_objects, "seed_examples.cpp", scratch);
  const both_ways library = compile_both_ways(o, o.library_objects, "library_only.cpp", scratch);
  const auto time_ratio = [](const both_ways& b) { return b.headers.wall_time / b.modules.wall_time; };
  const auto memory_ratio = [](const both_ways& b) { return b.headers.peak_memory / b.modules.peak_memory; };
  const auto row = [&](const std::string& name, const both_ways& b) {
    return bench::markdown_row({name, time_text(b.modules), memory_text(b.modules), time_text(b.headers), memory_text(b.headers),
                      ratio_text(time_ratio(b)) + "x", ratio_text(memory_ratio(b)) + "x"});
  };
  const std::string runs = o.runs == 1 ? "one run" : "the best of " + std::to_string(o.runs) + " runs";
  std::string md = "Compile time: " + runs + "; memory: the compiler's peak resident set.\n\n";
  md += bench::markdown_row({"translation unit", "`import hml;` time", "memory", "textual headers time", "memory",
                   "headers / modules time", "memory"});
  md += bench::markdown_row({"---", "---:", "---:", "---:", "---:", "---:", "---:"});
  md += row("`seed_examples.cpp`: the seed examples at compile time", seed);
  md += row("`library_only.cpp`: the library alone", library);
  md += "\n**Seed examples, headers / modules: " + ratio_text(time_ratio(seed)) +
        "x the compile time (target >= 10x), " + ratio_text(memory_ratio(seed)) + "x the memory.** ";
  md += "The library alone: " + ratio_text(time_ratio(library)) + "x the time.\n\n" +
        where_the_time_goes(o, seed, scratch);
  return md;
}

// Part 2: compile-time sweeps of the seed model, square grids over two log axes and sweeps along one, with
// clang's default limits and, where those stop them, with the smallest power-of-two multiple of the default
// -fconstexpr-steps that lets them through.
struct sweep_shape {
  std::size_t side;  // a side x side grid; 0: a sweep along one axis
  std::size_t axis_points;

  [[nodiscard]] std::size_t points() const noexcept { return side != 0 ? side * side : axis_points; }
  [[nodiscard]] std::string text() const {
    return side != 0 ? std::to_string(side) + " x " + std::to_string(side) + " grid (two log axes)"
                     : count_text(static_cast<double>(axis_points)) + " along one log axis";
  }
  [[nodiscard]] std::string flag() const {
    return side != 0 ? "-DHML_GRID_SIDE=" + std::to_string(side) : "-DHML_AXIS_POINTS=" + std::to_string(axis_points);
  }
};

struct sweep_result {
  sweep_shape shape;
  long long steps;  // 0: clang's default
  measured_run run;
};

std::string steps_text(long long steps) {
  return steps == 0 ? "default (" + count_text(default_constexpr_steps) + ")" : count_text(static_cast<double>(steps));
}

measured_run compile_sweep(const compile_command& unit, const sweep_shape& shape, long long steps,
                           const scratch_directory& scratch, int runs) {
  std::string flags = shape.flag();
  if (steps != 0) flags += " -fconstexpr-steps=" + std::to_string(steps);
  measured_run run = best_of(runs, compile_cost::with_flags(unit, flags), scratch);
  progress(shape.text() + ", steps " + steps_text(steps), run);
  return run;
}

std::string sweep_scaling(const options& o, const scratch_directory& scratch) {
  const compile_command unit = compile_cost::find_compile_command(o.database, o.grid_object);
  const std::vector<sweep_shape> shapes{{10, 0}, {32, 0}, {100, 0}, {0, 10'000}, {317, 0}};
  std::vector<sweep_result> results;
  for (const sweep_shape& shape : shapes) {
    if (shape.points() > o.max_points) continue;
    // The largest sizes take tens of seconds a compile: fewer runs of those.
    const int runs = shape.points() > 10'000 ? std::min(o.runs, 2) : o.runs;
    measured_run run = compile_sweep(unit, shape, 0, scratch, runs);
    const bool passed = run.succeeded;
    results.push_back({shape, 0, std::move(run)});
    if (passed) continue;
    for (long long steps = 2 * default_constexpr_steps; steps <= 64 * default_constexpr_steps; steps *= 2) {
      measured_run raised = compile_sweep(unit, shape, steps, scratch, runs);
      if (!raised.succeeded) continue;
      results.push_back({shape, steps, std::move(raised)});
      break;
    }
  }

  std::string md = bench::markdown_row({"sweep", "points", "`-fconstexpr-steps`", "result", "compile time", "peak memory"});
  md += bench::markdown_row({"---", "---:", "---:", "---", "---:", "---:"});
  for (const sweep_result& r : results) {
    const std::string points = count_text(static_cast<double>(r.shape.points()));
    md += r.run.succeeded
              ? bench::markdown_row({r.shape.text(), points, steps_text(r.steps), "compiles", time_text(r.run), memory_text(r.run)})
              : bench::markdown_row({r.shape.text(), points, steps_text(r.steps), "fails: " + diagnosis(r.run.output), "", ""});
  }
  return md;
}

}  // namespace

int main(int argc, char** argv) {
  options o;
  CLI::App app{"Compile time and compiler memory: import hml; vs textual headers, and compile-time grid sweeps"};
  app.add_option("--compile-commands", o.database, "the build's compile_commands.json")->required()->check(CLI::ExistingFile);
  app.add_option("--seed-objects", o.seed_objects, "objects of seed_examples.cpp: with import hml;, with headers")
      ->required()->expected(2);
  app.add_option("--library-objects", o.library_objects, "objects of library_only.cpp: with import hml;, with headers")
      ->required()->expected(2);
  app.add_option("--grid-object", o.grid_object, "object of grid_sweep.cpp")->required();
  app.add_option("--source-dir", o.source_dir, "the project's source directory")->required()->check(CLI::ExistingDirectory);
  app.add_option("--markdown", o.markdown, "where to write the results as Markdown")->required();
  app.add_option("--runs", o.runs, "compiles per measurement; the fastest counts")->check(CLI::Range(1, 100));
  app.add_option("--max-points", o.max_points, "largest sweep to compile (100 to 100489 points)")
      ->check(CLI::Range(std::size_t{100}, std::size_t{100'489}));
  CLI11_PARSE(app, argc, argv);

  try {
    const scratch_directory scratch{"hml-compile-cost"};
    std::string md = "### `import hml;` vs textual headers\n\n" + modules_vs_headers(o, scratch);
    md += "\n### Compile-time sweeps\n\n" + sweep_scaling(o, scratch);
    hml::write_file_atomically(o.markdown, md);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "compile_cost: %s\n", e.what());
    return 1;
  }
  return 0;
}
