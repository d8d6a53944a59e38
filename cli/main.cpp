// hml — the library's models from a shell: `hml lab`, `hml sweep`, `hml roofline`, `hml analyze`,
// `hml devices`, `hml chart`. Every error is one line on stderr and exit status 2.
#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <exception>
#include <iostream>
#include <new>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>
#include <CLI/CLI.hpp>
#include <fcntl.h>
#include <unistd.h>

#include "commands.hpp"
#include "common.hpp"

namespace {

// A standard stream the shell left closed (`>&-`) is held by /dev/null opened the other way, so that its
// reads or writes fail (EBADF) and say so: left free, the next file opened took its number, and a table
// meant for standard output went into the temporary copy of standard input, with exit status 0.
void hold_closed_standard_streams() {
  for (const int fd : {STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO}) {
    if (::fcntl(fd, F_GETFD) != -1 || errno != EBADF) continue;
    // open() takes the lowest free number, this one; standard error's holder takes writes (errors unseen).
    (void)::open("/dev/null", fd == STDOUT_FILENO ? O_RDONLY : O_WRONLY);
    hml::hold_as_closed(fd);  // a path to it (/dev/stderr) is refused as closed, not the placeholder written
  }
}

int run(int argc, char** argv) {
  CLI::App app{"hml: is this kernel limited by memory or by compute on this machine, and by how much?", "hml"};
  app.set_version_flag("--version", "hml " HML_VERSION);
  app.require_subcommand(1);
  app.footer(
      "Quantities, in every option: a number and its unit (205GB/s, 10MFLOP, 5us); a plain number is FLOP, bytes\n"
      "or FLOP/B, and a rate or a time needs its unit. A machine's memory bandwidth is in bytes per second (a bit\n"
      "rate is refused); a link's rate may be in bits. A data type (--weights, offload's --precision) is a\n"
      "precision alone (fp16); a roofline's --precision may name its unit (fp16tensor). Counts are whole numbers,\n"
      "read in decimal as files read them (--cores 010 is ten).\n"
      "Run `hml <command> --help` for a command's options and an example.");
  for (auto add_command : hml_cli::all_commands) add_command(app);
  hml_cli::check_plain_numbers(app);
  hml_cli::strict_flags(app);
  // CLI11 would call a mistyped command a missing one ("A subcommand is required"); say what it is.
  if (argc > 1 && argv[1][0] != '-') {
    std::vector<std::string> names;
    for (const CLI::App* command : std::as_const(app).get_subcommands([](const CLI::App*) { return true; })) {
      names.push_back(command->get_name());
    }
    if (std::ranges::find(names, argv[1]) == names.end()) {
      std::string known;
      for (const std::string& name : names) known += (known.empty() ? "" : ", ") + name;
      const std::string close = hml::did_you_mean(argv[1], std::vector<std::string_view>{names.begin(), names.end()});
      return hml_cli::fail("unknown command '" + hml::message_text(argv[1]) + "'; " +
                           (close.empty() ? "the commands are " + known : close));
    }
  }
  // hml's own options are --help and --version, flags; any other before the command is a command's, misplaced.
  if (const std::string_view first = argc > 1 ? argv[1] : ""; first.starts_with("-") && first != "-h" &&
                                                             first != "--help" && first != "--version") {
    const std::string word{first.substr(0, first.find('='))};
    if (word == "-h" || word == "--help" || word == "--version") return hml_cli::fail(hml_cli::flag_given_a_value(word));
    if (word == "-help" || word == "-version") {
      return hml_cli::fail(hml_cli::long_option_with_one_dash("hml", word));
    }
    constexpr std::array<std::string_view, 2> own{"help", "version"};
    if (const std::string close = word.starts_with("--") ? hml::did_you_mean(word.substr(2), own, "--") : ""; !close.empty())
      return hml_cli::fail(hml::message_text(word) + ": not an option of `hml`; " + close);
    // "--=x" has no name to cut at '=': shown whole, as a command shows it ("--" alone would be the end of options).
    const bool nameless = word.find_first_not_of('-') == std::string::npos;  // "-=x", "--=x"
    const std::string shown = nameless ? "'" + hml::message_text(first) + "'" : hml::message_text(word);
    return hml_cli::fail(shown + ": not an option of `hml`; options follow the command: hml COMMAND [OPTIONS] (see `hml --help`)");
  }
  if (const std::string twice = hml_cli::standard_input_taken_twice(argc, argv); !twice.empty()) {
    return hml_cli::fail(twice);
  }
  if (const std::string misread = hml_cli::misread_argument(app, argc, argv); !misread.empty()) {
    return hml_cli::fail(misread);
  }
  hml_cli::remove_temporary_on_interrupt();
  try {
    app.parse(argc, argv);
    hml_cli::print_notes();  // after the run: a run that fails says one line, its error
    return 0;
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) {  // --help, --version: on standard output, which may be full or closed
      app.exit(e);
      if (!std::cout.flush())
        return hml_cli::fail(std::string{e.get_name() == "CallForVersion" ? "--version" : "--help"} + ": cannot write to standard output: " +
                             std::strerror(errno));
      return 0;
    }
    return hml_cli::fail(hml_cli::as_given(app, hml_cli::parse_error_message(app, e), argc, argv));
  } catch (const std::bad_alloc&) {
    return hml_cli::fail("not enough memory for this run");
  } catch (const std::exception& e) {  // input errors, library validation, unwritable files
    return hml_cli::fail(hml_cli::as_given(app, e.what(), argc, argv));
  }
}

}  // namespace

int main(int argc, char** argv) {
  hold_closed_standard_streams();
  try {
    return run(argc, argv);
  } catch (const std::bad_alloc&) {  // in building the commands, before run's own handler; said without allocating
    std::fputs("hml: error: not enough memory for this run\n", stderr);
    return 2;
  }
}
