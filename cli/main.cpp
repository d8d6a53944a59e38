// hml — the library's models from a shell: `hml lab`, `hml sweep`, `hml roofline`, `hml analyze`,
// `hml devices`, `hml chart`. Every error is one line on stderr and exit status 2.
#include <cstdio>
#include <exception>
#include <new>
#include <stdexcept>
#include <string>
#include <utility>
#include <CLI/CLI.hpp>

#include "commands.hpp"
#include "common.hpp"

int main(int argc, char** argv) {
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
    std::string known;
    bool found = false;
    for (const CLI::App* command : std::as_const(app).get_subcommands([](const CLI::App*) { return true; })) {
      found = found || command->get_name() == argv[1];
      known += (known.empty() ? "" : ", ") + command->get_name();
    }
    if (!found) return hml_cli::fail("unknown command '" + std::string{argv[1]} + "'; the commands are " + known);
  }
  if (const std::string twice = hml_cli::standard_input_taken_twice(argc, argv); !twice.empty()) {
    return hml_cli::fail(twice);
  }
  hml_cli::remove_temporary_on_interrupt();
  try {
    app.parse(argc, argv);
    hml_cli::print_notes();  // after the run: a run that fails says one line, its error
    return 0;
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);  // --help, --version
    return hml_cli::fail(hml_cli::as_given(app, hml_cli::parse_error_message(app, e), argc, argv));
  } catch (const std::bad_alloc&) {
    return hml_cli::fail("not enough memory for this run");
  } catch (const std::exception& e) {  // input errors, library validation, unwritable files
    return hml_cli::fail(hml_cli::as_given(app, e.what(), argc, argv));
  }
}
