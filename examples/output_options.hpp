// Output options shared by the sweep examples: `--csv FILE`, `--json FILE` (and `--svg FILE` where a
// program draws a chart). Bad arguments print a message and exit with status 2; files are written
// atomically (hml::write_file_atomically), and a failed write exits with status 1.
#pragma once
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

import hml;

namespace examples {

struct output_options {
  std::string csv;
  std::string json;
  std::string svg;
};

[[noreturn]] inline void usage_error(const char* program, const std::string& message, bool takes_svg) {
  std::fprintf(stderr, "%s: %s\nusage: %s [--csv FILE] [--json FILE]%s\n", program, message.c_str(), program,
               takes_svg ? " [--svg FILE]" : "");
  std::exit(2);
}

inline output_options parse_output_options(int argc, char** argv, bool takes_svg = false) {
  output_options options;
  for (int i = 1; i < argc; ++i) {
    const std::string_view option = argv[i];
    std::string* target = option == "--csv"                ? &options.csv
                          : option == "--json"             ? &options.json
                          : option == "--svg" && takes_svg ? &options.svg
                                                           : nullptr;
    if (target == nullptr) usage_error(argv[0], "unknown argument '" + std::string{option} + "'", takes_svg);
    if (i + 1 >= argc || std::string_view{argv[i + 1]}.empty()) {
      usage_error(argv[0], std::string{option} + " needs a file name", takes_svg);
    }
    *target = argv[++i];
  }
  return options;
}

// Writes `content` to `path` unless the path is empty; false (after a message) if it cannot.
inline bool write_output(const std::string& path, const std::string& content) {
  if (path.empty()) return true;
  try {
    hml::write_file_atomically(path, content);
    return true;
  } catch (const hml::file_write_error& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return false;
  }
}

// The table as CSV and JSON where the options ask for them; the exit status for main.
inline int write_tables(const output_options& options, const hml::table& results) {
  const bool written = write_output(options.csv, options.csv.empty() ? std::string{} : hml::to_csv(results)) &&
                       write_output(options.json, options.json.empty() ? std::string{} : hml::to_json(results));
  return written ? 0 : 1;
}

}  // namespace examples
