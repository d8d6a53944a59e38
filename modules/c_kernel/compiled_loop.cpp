// hml.c_kernel's in-core time from the compiled loop (see c_kernel.cppm): clang compiles the kernel, the
// innermost loop's body is taken from the assembly, LLVM-MCA (through the plugin llvm_mca.cpp, opened on
// first use) simulates it.
module;
#include <algorithm>
#include <array>
#include <csignal>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <span>
#include <sstream>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

#include <dlfcn.h>
#include <yaml-cpp/yaml.h>

#include "llvm_mca_abi.h"
module hml.c_kernel;

namespace hml {

namespace {

using detail::refuse;

// Passes LLVM-MCA simulates: the cycles of the second hundred over a hundred are the steady state's, without
// the pipeline's filling and draining (llvm-mca itself runs 100 and divides).
constexpr unsigned simulated_passes = 100;
// The most clang may write to any file (the assembly, the optimisation record): a kernel's loops compile to
// a few KiB.
constexpr std::size_t largest_output = std::size_t{16} << 20;

// --- The plugin ---------------------------------------------------------------------------------------------

struct plugin_api {
  hml_mca_analyse_fn analyse = nullptr;
  hml_mca_host_cpu_fn host_cpu = nullptr;
};

plugin_api load_plugin() {
  // A program of this build takes the plugin this build made; any other (installed, or a copy) the one beside
  // it (PREFIX/bin/hml finds PREFIX/lib/hml, wherever `cmake --install --prefix` put or a copy moved it),
  // then the one at the prefix configured, and never a build tree's, a path anyone may make on another host.
  std::error_code error;
  const std::filesystem::path program = std::filesystem::read_symlink("/proc/self/exe", error);
  const std::string beside = (program.parent_path().parent_path() / HML_LLVM_MCA_RELATIVE).string();
  const bool of_this_build = program.string().starts_with(HML_BUILD_DIRECTORY "/");
  std::vector<const char*> candidates{beside.c_str(), HML_LLVM_MCA_INSTALLED};
  if (of_this_build) candidates.insert(candidates.begin(), HML_LLVM_MCA_PLUGIN);
  void* library = detail::open_library(candidates, "hml_mca_analyse",
                                       "the in-core time from the compiled loop needs hml's LLVM-MCA plugin (" + beside +
                                           " or " + HML_LLVM_MCA_INSTALLED + ") and libLLVM (Debian's llvm-19-dev; "
                                           "./lab setup installs it)");
  const plugin_api api{.analyse = reinterpret_cast<hml_mca_analyse_fn>(dlsym(library, "hml_mca_analyse")),
                       .host_cpu = reinterpret_cast<hml_mca_host_cpu_fn>(dlsym(library, "hml_mca_host_cpu"))};
  if (api.host_cpu == nullptr) refuse("hml's LLVM-MCA plugin has no hml_mca_host_cpu: it is older than this hml");
  return api;
}

const plugin_api& plugin() {
  static const plugin_api api = load_plugin();
  return api;
}

hml_mca_report analyse(const std::string& block, std::string_view cpu, unsigned passes) {
  auto report = std::make_unique<hml_mca_report>();
  const std::string name{cpu};
  if (plugin().analyse(block.c_str(), name.c_str(), passes, report.get()) != 0) refuse(std::string{"LLVM-MCA: "} + report->error);
  return *report;
}

// --- Compiling ----------------------------------------------------------------------------------------------

// Runs clang for the compile: "" where it succeeded, else why not, in a few words (the first line clang
// wrote to the process's `errors`).
std::string compile(const detail::clang_process& process) {
  const detail::clang_exit e = detail::run_clang(process);
  if (!e.started) return "cannot start " + process.arguments.front();
  if (e.signal == SIGXFSZ) return "it wrote more than " + std::to_string(process.largest_file >> 20) + " MiB";
  if (e.signal == SIGXCPU) return "it ran past " + std::to_string(process.cpu_seconds) + " s of processor time";
  if (e.signal != 0) return "it was killed by signal " + std::to_string(e.signal);
  if (e.status == 0) return {};
  std::string message = process.errors->read(largest_output, "clang's errors");
  message = message.substr(0, message.find('\n'));
  return message.size() > 200 ? message.substr(0, 197) + "..." : message;
}

// --- Reading what clang wrote -------------------------------------------------------------------------------

// The innermost loop's body: the instructions from a label to a jump back to it (where the compiler tests
// for the exit in the middle, the loop spans blocks: a conditional exit, then `jmp` back), of the loops that
// hold no other loop, the one with the most instructions (the vectorised loop, beside which the compiler
// keeps a scalar remainder loop). Directives, comments and the debug-line labels (.Ltmp) the optimisation
// record brings are left out.
std::vector<std::string> innermost_loop_body(const std::string& assembly) {
  std::vector<std::string> instructions;
  std::vector<std::pair<std::string, std::size_t>> labels;  // name, index of the instruction it precedes
  struct span {
    std::size_t first = 0;
    std::size_t last = 0;  // the jump back, included
  };
  std::vector<span> loops;
  std::istringstream lines{assembly};
  for (std::string line; std::getline(lines, line);) {
    const bool label = !line.empty() && line.front() != ' ' && line.front() != '\t' && line.front() != '#' &&
                       line.find(':') != std::string::npos;
    if (label) {
      if (!line.starts_with(".Ltmp")) labels.emplace_back(line.substr(0, line.find(':')), instructions.size());
      continue;
    }
    std::string instruction{trimmed(std::string_view{line}.substr(0, line.find('#')))};
    if (instruction.empty() || instruction.front() == '.') continue;
    instructions.push_back(instruction);
    if (instruction.front() != 'j') continue;
    const std::size_t space = instruction.find_first_of(" \t");
    if (space == std::string::npos) continue;
    const std::string target{trimmed(std::string_view{instruction}.substr(space))};
    for (const auto& [name, at] : labels)
      if (name == target) loops.push_back({at, instructions.size() - 1});
  }
  const auto holds_another = [&](const span& outer) {
    return std::any_of(loops.begin(), loops.end(), [&](const span& inner) {
      return inner.first >= outer.first && inner.last <= outer.last && (inner.first != outer.first || inner.last != outer.last);
    });
  };
  std::vector<std::string> best;
  for (const span& loop : loops) {
    if (holds_another(loop) || loop.last + 1 - loop.first <= best.size()) continue;
    best.assign(instructions.begin() + static_cast<std::ptrdiff_t>(loop.first),
                instructions.begin() + static_cast<std::ptrdiff_t>(loop.last) + 1);
  }
  return best;
}

// The stores among a loop body's instructions: a move whose last operand is in memory ("vmovupd %ymm0,
// -96(%rbx,%r12,8)").
std::size_t stores_in(const std::vector<std::string>& body) {
  return static_cast<std::size_t>(std::count_if(body.begin(), body.end(), [](const std::string& instruction) {
    const bool move = instruction.starts_with("mov") || instruction.starts_with("vmov");
    return move && instruction.ends_with(')');  // AT&T order: the destination last, an address in parentheses
  }));
}

// What clang's optimisation record says of the innermost loop.
struct loop_record {
  unsigned width = 1;       // the vectoriser's factor
  unsigned interleave = 1;  // its interleave count
  unsigned unroll = 1;      // the unroller's factor, after it
  std::vector<unsigned> removed;  // the trip counts of the loops the unroller unrolled completely
};

unsigned count_in(const YAML::Node& value) {
  const long n = std::strtol(value.as<std::string>().c_str(), nullptr, 10);
  return n >= 1 && n <= (1L << 30) ? static_cast<unsigned>(n) : 1U;
}

// The record's remarks on the innermost loop: the loop vectoriser's width and interleave count where it
// vectorised it (it vectorises innermost loops only, and the kernel has one), and the unroller's factor for
// the loop at that line (at any line where nothing was vectorised); the loops the unroller removed
// ("completely unrolled loop with N iterations").
loop_record innermost_record(const std::string& record) {
  struct remark {
    std::string pass, name;
    long line = 0;
    YAML::Node args;
  };
  std::vector<remark> remarks;
  for (const YAML::Node& r : YAML::LoadAll(record)) {
    if (!r.IsMap() || !r["Pass"] || !r["Name"] || !r["Args"].IsSequence()) continue;
    const long line = r["DebugLoc"] && r["DebugLoc"]["Line"] ? r["DebugLoc"]["Line"].as<long>() : 0;
    remarks.push_back({r["Pass"].as<std::string>(), r["Name"].as<std::string>(), line, r["Args"]});
  }
  const auto arg = [](const remark& r, const char* key) -> std::optional<unsigned> {
    for (const YAML::Node& a : r.args)
      if (a.IsMap() && a[key]) return count_in(a[key]);
    return std::nullopt;
  };
  loop_record out{};
  std::optional<long> vectorised_line;
  for (const remark& r : remarks) {
    if (r.pass != "loop-vectorize" || r.name != "Vectorized") continue;
    vectorised_line = r.line;
    out.width = arg(r, "VectorizationFactor").value_or(1);
    out.interleave = arg(r, "InterleaveCount").value_or(1);
  }
  for (const remark& r : remarks) {
    if (r.pass != "loop-unroll") continue;
    const std::optional<unsigned> count = arg(r, "UnrollCount");
    if (!count) continue;
    if (r.name == "FullyUnrolled") {
      out.removed.push_back(*count);
    } else if (!vectorised_line || r.line == *vectorised_line) {
      out.unroll = std::max(out.unroll, *count);  // the main loop's, not a remainder's
    }
  }
  return out;
}

std::string joined(const std::vector<std::string>& lines) {
  std::string out;
  for (const std::string& l : lines) out += l + "\n";
  return out;
}

}  // namespace

std::string host_llvm_cpu() {
  std::array<char, 64> name{};
  if (plugin().host_cpu(name.data(), static_cast<unsigned>(name.size())) != 0) refuse("LLVM cannot tell this host's CPU");
  return name.data();
}

namespace {

// The in-core time of a kernel already parsed from `text`.
compiled_in_core compile_and_analyse(const detail::parsed_c_kernel& parsed, std::string_view text, std::string_view file,
                                     std::span<const c_define> defines, std::string_view llvm_cpu,
                                     std::size_t cacheline_bytes) {
  const loop_kernel& kernel = parsed.storage->kernel;

  // The declarations at file scope, so that the loop's stores are seen and kept; the nest in a function.
  compiled_in_core out{};
  out.source = std::string{text.substr(0, parsed.loop_begin)} + "\nvoid " + std::string{detail::kernel_function} +
               "(void) {\n" + std::string{text.substr(parsed.loop_begin)} + "\n}\n";
  const detail::unnamed_file source{out.source};
  out.llvm_cpu = std::string{llvm_cpu};
  out.compiler = "clang -O3 -march=" + out.llvm_cpu;
  // The loop stays a loop: clang would make a copy or a fill a call to memcpy or memset, which hml's
  // loop kernel does not model (kerncraft's kernels are loops, whatever a library would do for them).
  out.flags = {"-x", "c", "-std=c11", "-O3", "-march=" + out.llvm_cpu, "-w",
               "-fno-builtin-memcpy", "-fno-builtin-memmove", "-fno-builtin-memset"};
  for (const std::string& name : parsed.declared_names) out.flags.push_back("-fno-builtin-" + name);
  for (const c_define& d : defines) out.flags.push_back(detail::define_argument(d));
  const detail::unnamed_file assembly;
  const detail::unnamed_file record;
  const detail::unnamed_file errors;
  std::vector<std::string> arguments{HML_CLANG};
  arguments.insert(arguments.end(), out.flags.begin(), out.flags.end());
  for (const std::string a : {"-S", "-o", "-", "-fsave-optimization-record=yaml"}) arguments.push_back(a);
  arguments.push_back("-foptimization-record-file=" + record.path());
  arguments.push_back("-");
  // A kernel within the reader's bounds compiles in well under a second; ten of processor time is the most.
  const detail::clang_process process{.arguments = std::move(arguments), .input = &source, .output = &assembly,
                                      .errors = &errors, .shared = {&record}, .largest_file = largest_output,
                                      .cpu_seconds = 10};
  if (const std::string failed = compile(process); !failed.empty())
    refuse(std::string{file} + ": " + out.compiler + " failed: " + failed);

  loop_record loop{};
  try {
    loop = innermost_record(record.read(largest_output, "clang's optimisation record"));
  } catch (const YAML::Exception& e) {
    refuse(std::string{file} + ": clang's optimisation record cannot be read: " + e.what());
  }
  out.vector_width = loop.width;
  out.interleave = loop.interleave;
  out.unroll = loop.unroll;
  // A short innermost loop may be unrolled away: its vector passes were then as many as a loop the unroller
  // removed, and the loop found would be an outer one, whose pass is a whole row.
  const std::int64_t trips = kernel.extents[kernel.dimensions - 1];
  const auto vector_passes = static_cast<unsigned>(trips / (out.vector_width * out.interleave));
  if (std::find(loop.removed.begin(), loop.removed.end(), vector_passes) != loop.removed.end())
    refuse(std::string{file} + ": " + out.compiler + " unrolled the innermost loop entirely (" + std::to_string(trips) +
           " iterations); give it more, or the in-core times with --t-ol, --t-nol");

  out.loop_body = innermost_loop_body(assembly.read(largest_output, "clang's assembly"));
  if (out.loop_body.empty())
    refuse(std::string{file} + ": " + out.compiler + " left no loop (unrolled entirely?, or removed: a store that has no "
           "effect, as to a scalar or of an element onto itself, is dead code); give the loop more iterations or stores "
           "that count, or the in-core times with --t-ol, --t-nol");

  // The unroller's remark names a loop by its source line, which the vectoriser's remainder loop shares: a
  // remainder unrolled by 2 (958 iterations in passes of 16 leave 14) read as the vector loop's factor,
  // and halved its time. The body says which: each pass stores every written access once per vector.
  const auto writes = static_cast<std::size_t>(std::count_if(kernel.accesses.begin(), kernel.accesses.end(),
                                                              [](const array_access& x) { return x.kind == access_kind::write; }));
  if (const std::size_t stores = stores_in(out.loop_body); writes > 0 && stores > 0 && stores % (writes * out.interleave) == 0)
    out.unroll = static_cast<unsigned>(stores / (writes * out.interleave));

  const std::string block = joined(out.loop_body);
  const hml_mca_report body = analyse(block, llvm_cpu, simulated_passes);
  const hml_mca_report twice = analyse(block, llvm_cpu, 2 * simulated_passes);
  // The ports a plain load uses: over many passes, so that every port it may issue to takes some.
  const hml_mca_report load = analyse("movq (%rax), %rcx\n", llvm_cpu, simulated_passes);
  const double per_cacheline = static_cast<double>(cacheline_bytes) /
                               static_cast<double>(element_bytes(kernel)) / out.iterations_per_pass();
  double busiest = 0;       // of all ports: T_OL, as kerncraft's LLVM-MCA machine files list every port there
  double busiest_load = 0;  // of the load ports: T_nOL
  for (unsigned r = 0; r < body.resources; ++r) {
    const bool loads = load.resource[r].cycles_per_pass > 0;
    const double busy = body.resource[r].cycles_per_pass * per_cacheline;
    out.ports.push_back({.name = body.resource[r].name, .busy = busy * cycle, .loads = loads});
    busiest = std::max(busiest, busy);
    if (loads) busiest_load = std::max(busiest_load, busy);
  }
  // The steady state: the second hundred passes' cycles, without the pipeline's filling and draining.
  const double steady = (twice.total_cycles - body.total_cycles) / simulated_passes;
  const double simulated = steady * per_cacheline;
  out.simulated = simulated * cycle;
  // Where dependencies, the front end or the scheduler make a pass longer than its busiest port, the
  // simulated time is T_OL, so that the prediction for data in L1 is the simulation's.
  out.time = {.overlapping = std::max(busiest, simulated) * cycle, .non_overlapping = busiest_load * cycle};
  return out;
}

void check_llvm_cpu(std::string_view llvm_cpu) {
  if (llvm_cpu.empty() || !is_llvm_cpu_name(llvm_cpu))
    refuse("the in-core time from the compiled loop needs the machine's LLVM CPU (llvm_cpu: in its machine file)");
}

}  // namespace

compiled_in_core in_core_from_c(std::string_view text, std::string_view file, std::span<const c_define> defines,
                                std::string_view llvm_cpu, std::size_t cacheline_bytes) {
  return analyse_c_kernel(text, file, defines, llvm_cpu, cacheline_bytes).in_core;
}

c_kernel_analysis analyse_c_kernel(std::string_view text, std::string_view file, std::span<const c_define> defines,
                                   std::string_view llvm_cpu, std::size_t cacheline_bytes) {
  check_llvm_cpu(llvm_cpu);
  text = detail::without_byte_order_mark(text);
  detail::parsed_c_kernel parsed = detail::parse_c_kernel(text, file, defines);
  compiled_in_core in_core = compile_and_analyse(parsed, text, file, defines, llvm_cpu, cacheline_bytes);
  return {loaded_kernel{std::move(parsed.storage)}, std::move(in_core)};
}

}  // namespace hml
