// `hml lab`: one configuration of the seed lab's model, printed as the seed prints it.
#include <memory>
#include <string>
#include <CLI/CLI.hpp>

#include "commands.hpp"
#include "model.hpp"

namespace hml_cli {

void add_lab_command(CLI::App& hml) {
  auto* command = hml.add_subcommand("lab", "memory, compute and total time of one configuration, and its regime");
  command->footer(
      "Example: hml lab --size 10MiB --bandwidth 1Gbit/s --ops-per-byte 1 --latency 50ns --peak 10GFLOP/s\n"
      "         hml lab --size 10MB --hit-rate 0.95 --fast 500Gbit/s --slow 10Gbit/s\n"
      "Without options: the toy lab's low-bandwidth case (docs/explanation/origins.md).");
  auto options = std::make_shared<model_options>();
  auto title = std::make_shared<std::string>("hml lab");
  add_model_options(*command, *options, false);
  command->add_option("--title", *title, "the block's title")->check(name_text())->capture_default_str();
  command->callback([options, title] {
    const model_space space = space_of(*options, false);
    std::string out;
    for_each_point(space, [&](const model_point& p) {
      if (space.two_tier()) {
        hml::write_cache_block(out, *title, hml::two_tier_memory{p.latency, p.fast, p.slow, p.hit_rate}, p.result);
      } else {
        hml::write_bandwidth_block(out, *title, p.size, p.bandwidth, p.ops_per_byte, p.result);
      }
    });
    emit({}, out);
  });
}

}  // namespace hml_cli
