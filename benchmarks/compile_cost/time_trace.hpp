// Where a compile's front-end time goes, read from clang's -ftime-trace, so that the benchmark says why a
// ratio is what it is from a measurement rather than a guess.
#pragma once
#include <filesystem>

import hml;

namespace compile_cost {

// Each figure is the union of the intervals of one kind of event: nested events of that kind count once.
// Kinds overlap (constant evaluation instantiates templates; a header's parse includes whatever it does).
struct time_trace_breakdown {
  hml::duration frontend;
  hml::duration outside_headers;         // parsing #includes from outside the project: std, Boost, range-v3
  hml::duration constant_evaluation;     // Evaluate* events
  hml::duration template_instantiation;  // Instantiate* events
  hml::duration module_loading;          // reading BMIs (Module Load, Read Loaded AST)
};

// Reads a trace written by `clang -ftime-trace=<trace>`; headers under `project` are the project's own.
// Throws std::runtime_error naming the file if it is not such a trace.
[[nodiscard]] time_trace_breakdown read_time_trace(const std::filesystem::path& trace,
                                                   const std::filesystem::path& project);

}  // namespace compile_cost
