// hml.c_kernel's in-core time from the compiled loop (see c_kernel.cppm): clang compiles the kernel, the
// innermost loop's body is taken from the assembly, LLVM-MCA (through the plugin llvm_mca.cpp, opened on
// first use) simulates it.
module;
#include <algorithm>
#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <span>
#include <sstream>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

#include <dlfcn.h>
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>
#include <yaml-cpp/yaml.h>

#include "llvm_mca_abi.h"
module hml.c_kernel;

namespace hml {

namespace {

namespace fs = std::filesystem;

// Passes LLVM-MCA simulates; llvm-mca's default is 100.
constexpr unsigned simulated_passes = 100;

[[noreturn]] void refuse(std::string message) { throw ecm_file_error(std::move(message)); }

// --- The plugin ---------------------------------------------------------------------------------------------

struct plugin_api {
  hml_mca_analyse_fn analyse = nullptr;
  hml_mca_host_cpu_fn host_cpu = nullptr;
};

plugin_api load_plugin() {
  // The plugin this build made, then the installed one.
  constexpr std::array<const char*, 2> candidates{HML_LLVM_MCA_PLUGIN, HML_LLVM_MCA_INSTALLED};
  std::string why;
  for (const char* path : candidates) {
    if (void* library = dlopen(path, RTLD_NOW | RTLD_LOCAL)) {
      const plugin_api api{.analyse = reinterpret_cast<hml_mca_analyse_fn>(dlsym(library, "hml_mca_analyse")),
                           .host_cpu = reinterpret_cast<hml_mca_host_cpu_fn>(dlsym(library, "hml_mca_host_cpu"))};
      if (api.analyse != nullptr && api.host_cpu != nullptr) return api;
    }
    if (why.empty()) why = dlerror() ? dlerror() : "";
  }
  refuse("the in-core time from the compiled loop needs hml's LLVM-MCA plugin and libLLVM (Debian's llvm-19-dev; "
         "./lab setup installs it)" + (why.empty() ? std::string{} : ": " + why));
}

const plugin_api& plugin() {
  static const plugin_api api = load_plugin();
  return api;
}

hml_mca_report analyse(const std::string& block, std::string_view cpu) {
  auto report = std::make_unique<hml_mca_report>();
  const std::string name{cpu};
  if (plugin().analyse(block.c_str(), name.c_str(), simulated_passes, report.get()) != 0) refuse(std::string{"LLVM-MCA: "} + report->error);
  return *report;
}

// --- Compiling ----------------------------------------------------------------------------------------------

// A folder of its own for one compile, removed with everything in it when done.
struct scratch_folder {
  fs::path path;
  scratch_folder() {
    static std::atomic<unsigned> count{0};
    path = fs::temp_directory_path() / ("hml-c-kernel-" + std::to_string(::getpid()) + "-" + std::to_string(count++));
    fs::create_directories(path);
  }
  scratch_folder(const scratch_folder&) = delete;
  scratch_folder& operator=(const scratch_folder&) = delete;
  ~scratch_folder() {
    std::error_code ignored;
    fs::remove_all(path, ignored);
  }
};

std::string read_all(const fs::path& p) {
  std::ifstream in{p, std::ios::binary};
  return {std::istreambuf_iterator<char>{in}, std::istreambuf_iterator<char>{}};
}

// Runs clang with `arguments` (no shell); its standard error goes to `errors`. The exit status, or -1.
int run_clang(const std::vector<std::string>& arguments, const fs::path& errors) {
  std::vector<char*> argv;
  for (const std::string& a : arguments) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 2, errors.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  pid_t child = 0;
  const int spawned = posix_spawn(&child, argv[0], &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (spawned != 0) return -1;
  int status = 0;
  while (waitpid(child, &status, 0) < 0) {
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

std::string first_line(const std::string& text) {
  const std::string line = text.substr(0, text.find('\n'));
  return line.size() > 200 ? line.substr(0, 197) + "..." : line;
}

// --- Reading what clang wrote -------------------------------------------------------------------------------

std::string trimmed(std::string_view s) {
  const std::size_t begin = s.find_first_not_of(" \t");
  if (begin == std::string_view::npos) return {};
  const std::size_t end = s.find_last_not_of(" \t");
  return std::string{s.substr(begin, end - begin + 1)};
}

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
    std::string instruction = trimmed(line.substr(0, line.find('#')));
    if (instruction.empty() || instruction.front() == '.') continue;
    instructions.push_back(instruction);
    if (instruction.front() != 'j') continue;
    const std::size_t space = instruction.find_first_of(" \t");
    if (space == std::string::npos) continue;
    const std::string target = trimmed(instruction.substr(space));
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

struct vectorisation {
  unsigned width = 1;
  unsigned interleave = 1;
  std::vector<unsigned> fully_unrolled;  // the trip counts of the loops the unroller removed
};

unsigned whole(const YAML::Node& value) {
  const long n = std::strtol(value.as<std::string>().c_str(), nullptr, 10);
  return n >= 1 && n <= (1L << 30) ? static_cast<unsigned>(n) : 1U;
}

// How many iterations one pass of the compiled loop does, from clang's optimisation record: the loop
// vectoriser's width and interleave count where it vectorised the loop (it vectorises innermost loops only,
// and the kernel has one), else the unroller's factor where it unrolled it; and the loops the unroller
// removed altogether ("completely unrolled loop with N iterations").
vectorisation passes_of(const std::string& record) {
  vectorisation v{};
  bool vectorised = false;
  unsigned unrolled = 1;
  for (const YAML::Node& remark : YAML::LoadAll(record)) {
    if (!remark.IsMap() || !remark["Pass"] || !remark["Name"] || !remark["Args"].IsSequence()) continue;
    const std::string pass = remark["Pass"].as<std::string>();
    const std::string name = remark["Name"].as<std::string>();
    for (const YAML::Node& arg : remark["Args"]) {
      if (!arg.IsMap()) continue;
      if (pass == "loop-vectorize" && name == "Vectorized") {
        vectorised = true;
        if (arg["VectorizationFactor"]) v.width = whole(arg["VectorizationFactor"]);
        if (arg["InterleaveCount"]) v.interleave = whole(arg["InterleaveCount"]);
      }
      if (pass != "loop-unroll" || !arg["UnrollCount"]) continue;
      if (name == "FullyUnrolled") {
        v.fully_unrolled.push_back(whole(arg["UnrollCount"]));
      } else {
        unrolled = whole(arg["UnrollCount"]);
      }
    }
  }
  if (!vectorised) v.interleave = unrolled;
  return v;
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

compiled_in_core in_core_from_c(std::string_view text, std::string_view file, std::span<const c_define> defines,
                                std::string_view llvm_cpu, std::size_t cacheline_bytes) {
  if (llvm_cpu.empty() || !is_llvm_cpu_name(llvm_cpu))
    refuse("the in-core time from the compiled loop needs the machine's LLVM CPU (llvm_cpu: in its machine file)");
  const detail::parsed_c_kernel parsed = detail::parse_c_kernel(text, file, defines);
  const loop_kernel& kernel = parsed.storage->kernel;

  // The declarations at file scope, so that the loop's stores are seen and kept; the nest in a function.
  const scratch_folder scratch;
  const fs::path source = scratch.path / "kernel.c";
  std::ofstream{source} << text.substr(0, parsed.loop_begin) << "\nvoid hml_kernel(void) {\n"
                        << text.substr(parsed.loop_begin) << "\n}\n";
  compiled_in_core out{};
  out.llvm_cpu = std::string{llvm_cpu};
  out.compiler = "clang -O3 -march=" + out.llvm_cpu;
  std::vector<std::string> arguments{HML_CLANG, "-x", "c", "-std=c11", "-O3", "-march=" + out.llvm_cpu, "-S",
                                     "-w", "-o", (scratch.path / "kernel.s").string(), "-fsave-optimization-record=yaml",
                                     "-foptimization-record-file=" + (scratch.path / "kernel.opt.yaml").string()};
  for (const c_define& d : defines) arguments.push_back("-D" + d.name + "=" + std::to_string(d.value));
  arguments.push_back(source.string());
  const fs::path errors = scratch.path / "errors.txt";
  if (const int status = run_clang(arguments, errors); status != 0)
    refuse(std::string{file} + ": " + out.compiler + " failed" +
           (status < 0 ? " to start (" + std::string{HML_CLANG} + ")" : ": " + first_line(read_all(errors))));

  vectorisation v{};
  try {
    v = passes_of(read_all(scratch.path / "kernel.opt.yaml"));
  } catch (const YAML::Exception& e) {
    refuse(std::string{file} + ": clang's optimisation record cannot be read: " + e.what());
  }
  out.vector_width = v.width;
  out.interleave = v.interleave;
  // A short innermost loop may be unrolled away: its passes were then as many as a loop the unroller removed,
  // and the loop found is an outer one, whose pass is a whole row.
  const std::int64_t trips = kernel.extents[kernel.dimensions - 1];
  const auto passes = static_cast<unsigned>(trips / out.iterations_per_pass());
  if (std::find(v.fully_unrolled.begin(), v.fully_unrolled.end(), passes) != v.fully_unrolled.end())
    refuse(std::string{file} + ": " + out.compiler + " unrolled the innermost loop entirely (" + std::to_string(trips) +
           " iterations): give it more, or the in-core times with --t-ol, --t-nol");

  out.loop_body = innermost_loop_body(read_all(scratch.path / "kernel.s"));
  if (out.loop_body.empty())
    refuse(std::string{file} + ": " + out.compiler + " left no loop (unrolled entirely?): give the loop more iterations");

  const hml_mca_report body = analyse(joined(out.loop_body), llvm_cpu);
  const hml_mca_report load = analyse("movq (%rax), %rcx\n", llvm_cpu);  // the ports a plain load uses
  const double per_cacheline = static_cast<double>(cacheline_bytes) /
                               static_cast<double>(element_bytes(kernel)) / out.iterations_per_pass();
  double busiest = 0;       // of all ports: T_OL, as kerncraft's LLVM-MCA machine files list every port there
  double busiest_load = 0;  // of the load ports: T_nOL
  for (unsigned r = 0; r < body.resources; ++r) {
    const bool loads = load.resource[r].cycles > 0;
    const double cycles_per_cacheline = body.resource[r].cycles * per_cacheline;
    out.ports.push_back({.name = body.resource[r].name, .cycles = cycles_per_cacheline, .loads = loads});
    busiest = std::max(busiest, cycles_per_cacheline);
    if (loads) busiest_load = std::max(busiest_load, cycles_per_cacheline);
  }
  const double simulated = body.cycles_per_iteration * per_cacheline;
  out.simulated = simulated * cycle;
  // Where dependencies, the front end or the scheduler make a pass longer than its busiest port, the
  // simulated time is T_OL, so that the prediction for data in L1 is the simulation's.
  out.time = {.overlapping = std::max(busiest, simulated) * cycle, .non_overlapping = busiest_load * cycle};
  return out;
}

}  // namespace hml
