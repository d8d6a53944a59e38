// `hml offload`: a kernel whose data is in the host's memory, run there or on a device over a link: copy
// in, compute, copy out (serially and pipelined), zero-copy, the verdict and the break-even (hml.offload).
#include <array>
#include <cmath>
#include <limits>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>
#include <CLI/CLI.hpp>

#include "commands.hpp"
#include "common.hpp"

namespace hml_cli {

namespace {

struct offload_options {
  std::string system;
  std::string host;
  std::string host_bandwidth;
  std::string host_peak;
  std::string device;
  std::string device_bandwidth;
  std::string device_peak;
  std::string device_capacity;
  std::string link;
  std::string precision = "fp32";
  bool precision_given = false;
  bool figures_given = false;
  std::string figures;  // add_figures_option sets its default
  std::string in;
  std::string out;
  std::string flops = "0FLOP";
  double runs = 1.0;
  unsigned chunks = 16;
  bool chunks_given = false;  // the default is fewer where a copy has fewer bytes
  output_options output;
};

std::string text(hml::duration t) { return hml::to_string(t, {.number = hml::general(3)}); }
std::string number(double x, hml::number_format f) { return std::string{hml::format_number(x, f).view()}; }

// Where serial offloading pays by intensity: from a point on, below one, or both (the device's memory wins
// at low intensity, its compute at high), or nowhere.
std::string intensity_range(const hml::serial_break_even& b) {
  // Four digits, as the roofline's table prints an intensity (4003 FLOP/B; three gave 4e+03).
  const auto at = [](hml::arithmetic_intensity i) { return hml::to_string(i, {.number = hml::general(4)}); };
  const std::string below = b.below.value() > 0 ? "below " + at(b.below) : std::string{};
  if (!hml::isfinite(b.from)) return below.empty() ? "at no intensity" : below + " only";
  return below.empty() ? "from " + at(b.from) : below + " and from " + at(b.from);
}

void run(const offload_options& o) {
  const output_format format = o.output.chosen();
  // The machines and the link: a catalog system, or each given.
  const hml::precision p = data_type_of("--precision", o.precision);
  const hml::machine_description* host = nullptr;
  const hml::machine_description* device = nullptr;
  std::optional<hml::machine_description> given_host;
  std::optional<hml::machine_description> given_device;
  std::optional<hml::link> link;
  machine_files files;
  files.use(figures_basis(o.figures));
  // A capacity is the given device's: a catalog's or a file's states its own (three refusals in turn told
  // to add --device-bandwidth, then to drop --device).
  if (!o.device_capacity.empty() && o.device_bandwidth.empty()) {
    const std::string named = !o.device.empty() ? "--device" : !o.system.empty() ? "--system" : "";
    if (named.empty()) throw input_error("--device-capacity: needs a device given by its figures; give --device-bandwidth and --device-peak too");
    throw input_error("--device-capacity, " + named + ": a capacity is a device's given by --device-bandwidth and --device-peak; a catalog's "
                      "or a file's device states its own: give it in a file (hml devices NAME --format yaml writes the catalog's)");
  }
  if (!o.system.empty()) {
    const hml::system_description& s = check_option("--system", [&]() -> const hml::system_description& {
      return hml::system_named(o.system);
    });
    if (s.joined_by == nullptr) throw input_error("--system: " + o.system + " has one memory pool: nothing to offload over; give a system of a host and a device (`hml devices` lists them)");
    host = &files.view_of(*s.host);
    device = &files.view_of(*s.device);
    link = files.link_of(*s.joined_by);
  }
  if (!o.host.empty()) host = &files.machine("--host", o.host);
  if (!o.host_bandwidth.empty()) {
    const hml::data_rate bandwidth = memory_bandwidth_of("--host-bandwidth", o.host_bandwidth);
    const auto peak = quantity_of<hml::compute_rate>("--host-peak", o.host_peak);
    check_option("--host-peak", [&] { hml::validate_peak(peak); });
    given_host = hml::describe(hml::memory{.latency = {}, .bandwidth = bandwidth}, hml::compute_core{peak}, p);
    host = &*given_host;
  }
  if (!o.device.empty()) {
    device = &files.machine("--device", o.device);
    if (!hml::main_memory(*device).capacity.published())  // hml::resident_share then takes all of the job
      note("--device: " + std::string{device->name} + " states no main-memory capacity: the job is taken as fitting it");
  }
  if (!o.device_bandwidth.empty()) {
    const hml::data_rate bandwidth = memory_bandwidth_of("--device-bandwidth", o.device_bandwidth);
    const auto peak = quantity_of<hml::compute_rate>("--device-peak", o.device_peak);
    check_option("--device-peak", [&] { hml::validate_peak(peak); });
    given_device = hml::describe(hml::memory{.latency = {}, .bandwidth = bandwidth}, hml::compute_core{peak}, p);
    given_device->name = "given";
    if (!o.device_capacity.empty()) {
      const auto capacity = quantity_of<hml::data_size>("--device-capacity", o.device_capacity);
      check_option("--device-capacity", [&] { hml::validate_capacity(capacity); });
      hml::machine_description with_capacity{.name = "given", .compute = given_device->compute};
      hml::level_description main = hml::main_memory(*given_device);
      main.capacity = hml::stated(capacity);
      with_capacity.memory.push_back(main);
      given_device = with_capacity;
    }
    device = &*given_device;
  }
  if (!o.link.empty()) link = files.link("--link", o.link);
  if (host == nullptr) throw input_error("--system, --host: missing; give --system NAME, or --host NAME or --host-bandwidth and --host-peak");
  if (device == nullptr) throw input_error("--system, --device: missing; give --system NAME, or --device NAME or --device-bandwidth and --device-peak");
  if (!link) throw input_error("--system, --link: missing; give --system NAME or --link pcie5x16|nvlink4|c2c|RATE");
  // Two files' machines of one id, described differently, are two machines under one name: the id is wrong.
  if (host != device && !host->id.empty() && host->id == device->id && !(files.own_of(*host) == files.own_of(*device)))
    throw input_error("--host, --device: two machines of one id, " + std::string{host->id} + " (\"" + hml::message_text(host->name) +
                      "\" and \"" + hml::message_text(device->name) + "\"); give one of them another id");
  // One machine at both ends is one memory pool, as a system of one machine is: nothing crosses the link.
  if (host == device || (!host->id.empty() && host->id == device->id))
    throw input_error("--host, --device: " + std::string{host->id.empty() ? host->name : host->id} +
                      " at both ends is one memory pool: nothing to offload over; give two machines");

  const auto in = quantity_of<hml::data_size>("--in", o.in);
  const auto out = quantity_of<hml::data_size>("--out", o.out);
  const auto flops = quantity_of<hml::work>("--flops", o.flops);
  // Each copy moves whole bytes (the kernel's bytes are those it copies: the fault is --in's or --out's).
  for (const auto& [option, bytes] : {std::pair{"--in", in}, {"--out", out}})
    if (!hml::is_a_copy(bytes))
      throw input_error(std::string{option} + ": " + hml::to_string(bytes) + " is a fraction of a byte, and a copy moves 0 B or at least 1 B; give one");
  // The question is whether moving the data pays: with none to move there is no transfer to weigh (said
  // before the job's own check, whose "bytes or work" would send the user to --flops).
  if (in.value() == 0 && out.value() == 0)
    throw input_error("--in, --out: both 0 B; give the bytes the kernel reads from and writes to the host");
  const hml::kernel k{"kernel", flops, in + out};
  const hml::offload_job job = hml::offload_of(k, in, out, o.runs);
  check_option("--in, --out, --flops", [&] { hml::validate(job); });
  // 16 chunks by default, fewer where a copy has fewer bytes (a reduction's 4 B out was refused with every
  // option at its default); chunks given are the user's, refused past a byte each.
  const unsigned most = hml::most_chunks(job);
  const unsigned chunks = o.chunks_given ? o.chunks : std::min(o.chunks, most);
  if (chunks > most) {
    const hml::data_size fewest = hml::fewest_bytes_copied(job);
    throw input_error("--chunks: " + std::to_string(chunks) + " chunks of " + (fewest.value() == in.value() ? "--in " : "--out ") + hml::to_string(fewest) +
                      " leave less than a byte to each; give --chunks at most " + std::to_string(most));
  }
  // Machines given by their figures have one peak, whatever the precision: naming one would change nothing.
  if (o.precision_given && given_host && given_device)
    throw input_error("--precision: the host and the device are given by their peaks (--host-peak, --device-peak), which "
                      "hold at any precision; leave --precision out, or name a catalog --host or --device");
  // Nor has either a datasheet figure beside a measured one for --figures to choose between; a described link
  // may (c2c's measured 297 GB/s beside its 450).
  const hml::link_description* described = o.link.empty() ? nullptr : files.find_link("--link", o.link);
  const bool link_measured = described != nullptr && hml::publishes_measured_rate(*described);
  if (o.figures_given && given_host && given_device && !link_measured)
    throw input_error("--figures: the host and the device are given by their figures (--host-bandwidth, "
                      "--device-bandwidth) and the link has no measured rate: nothing to choose between; leave --figures "
                      "out, or name a catalog --host or --device");
  // A machine without main memory's bandwidth is its option's fault; a precision either machine publishes no
  // peak for is --precision's, said with the machine's name (and, where the user gave none, as the default it is).
  if (given_host == std::nullopt) require_main_memory_bandwidth(o.system.empty() ? "--host" : "--system", o.host, *host);
  if (given_device == std::nullopt) require_main_memory_bandwidth(o.system.empty() ? "--device" : "--system", o.device, *device);
  for (const auto& [m, option, name] : {std::tuple{host, "--host", &o.host}, std::tuple{device, "--device", &o.device}}) {
    // A machine with no peak at all is its option's fault, whatever the precision.
    require_compute_peak(o.system.empty() ? option : "--system", o.system.empty() ? *name : std::string{}, *m);
    try {
      (void)hml::roof_named(*m, p);
    } catch (const std::invalid_argument& e) {
      // A machine given by its peak holds it at any precision: the precisions to offer are the named ones'.
      std::vector<const hml::machine_description*> named;
      if (given_host == std::nullopt) named.push_back(host);
      if (given_device == std::nullopt) named.push_back(device);
      std::string error{hml::without_hml_prefix(e.what())};
      error = error.substr(0, error.find("; "));  // what it has is told as what both have
      const std::vector<std::string> common = precisions_in_common(named);
      throw input_error(std::string{o.precision_given ? "--precision" : "--precision (fp32, the default)"} + ": " + error + "; " +
                        (common.empty() ? std::string{"no precision has a peak on both machines: give another host or device"}
                                        : "give --precision " + one_of(common) + (named.size() > 1 ? " (a peak on both)" : "")));
    }
  }
  const hml::offload_plan plan = check_option("--precision", [&] {
    return hml::plan_offload(job, *host, *device, *link, p, {.chunks = chunks});
  });
  const hml::serial_break_even break_even =
      check_option("--precision", [&] { return hml::break_even_of(job, *host, *device, *link, p); });

  if (format != output_format::table) {
    hml::table t{{"host_s", "copy_in_s", "device_s", "copy_out_s", "serial_s", "pipelined_s", "zero_copy_s", "best",
                  "speedup", "offload", "resident_share", "break_even_runs", "break_even_flop_per_byte",
                  "pays_below_flop_per_byte"},
                 {}};
    // "Never" is an empty CSV cell and a JSON null, as the text's "no number of runs" and "at no intensity".
    const auto finite_or_none = [](double x) { return std::isfinite(x) ? hml::cell{x} : hml::cell{hml::no_value{}}; };
    t.add_row({plan.host.value(), plan.copy_in.value(), plan.device.value(), plan.copy_out.value(),
               plan.serial.value(), plan.pipelined.value(), plan.zero_copy.value(), std::string{plan.best},
               plan.speedup, plan.offload, plan.resident,
               finite_or_none(plan.break_even_runs), finite_or_none(break_even.from.value()),
               break_even.below.value() > 0 ? finite_or_none(break_even.below.value()) : hml::cell{hml::no_value{}}});
    emit(o.output, render(t, format, hml::general(17)));
    return;
  }
  std::string s = "host: " + std::string{host->name.empty() ? "given" : host->name} + "\ndevice: " + std::string{device->name} +
                  "\nlink: " + hml::to_string(link->bandwidth.rate, {.number = hml::general(4)}) + " per direction, " +
                  std::string{hml::to_string(link->mode)} + "\n";
  // The memories at the link's ends can be slower than it (GH200: 500 GB/s of LPDDR5X beside 450 GB/s of C2C
  // each way): the times above already hold that; this says which bounds them.
  if (const hml::transfer_path path = hml::path_of(*link, *host, *device); hml::memory_bounds_transfers(path, in, out)) {
    const bool host_slower = path.host_memory <= path.device_memory;
    s += "transfers: bounded by the " + std::string{host_slower ? "host's" : "device's"} + " memory too, " +
         hml::to_string(hml::detail::copy_memory(path), {.number = hml::general(4)}) +
         " for both directions together\n";
  }
  s += "\n";
  const auto row = [&](std::string name, hml::duration t) {
    name.resize(20, ' ');
    s += name + text(t) + "\n";
  };
  row("on the host", plan.host);
  row("copy in", plan.copy_in);
  row("kernel on device", plan.device);
  row("copy out", plan.copy_out);
  row("serial", plan.serial);
  row("pipelined (" + std::to_string(chunks) + ")", plan.pipelined);
  row("zero-copy", plan.zero_copy);
  if (plan.resident < 1.0) {
    s += "oversubscribed: " + hml::percent_text(100 * plan.resident, hml::fixed(1)) +
         " of the data fits the device; the rest streams over the link\n";
  }
  s += "\nverdict: " + std::string{plan.offload ? "offload" : "run on the host"} + " (fastest offload: " +
       std::string{plan.best} + ", speed-up " + number(plan.speedup, hml::general(3)) + "x)\n";
  // A break-even below one run (the copies pay for themselves in one): runs are whole and at least one; at
  // one, the first run ties.
  const double runs_from = plan.break_even_runs;
  const auto runs_text = [&](double runs) {
    const std::string shown = number(runs, hml::general(3));
    return shown + (shown == "1" ? " run" : " runs");
  };
  s += "serial offloading pays from " +
       (runs_from == std::numeric_limits<double>::infinity() ? std::string{"no number of runs"}
        : hml::detail::clearly_below(runs_from, 1.0) ? "the first run (break-even " + number(runs_from, hml::general(3)) + " runs)"
                           : runs_text(runs_from)) +
       " on the transferred data, or " + intensity_range(break_even) + "\n";
  emit(o.output, s);
}

}  // namespace

void add_offload_command(CLI::App& hml) {
  auto* command = hml.add_subcommand("offload", "run a kernel where its data is, or offload it over a link?");
  command->footer(
      "The kernel reads --in bytes and writes --out bytes (its memory traffic is their sum) and does --flops.\n"
      "Example: hml offload --host-bandwidth 200GB/s --host-peak 2TFLOP/s --device h100_pcie --link pcie5x16 \\\n"
      "           --in 2GiB --out 1GiB --flops 0.268435456GFLOP\n"
      "         hml offload --system gh200 --in 40GB --out 20GB --flops 1TFLOP --format json\n"
      "         hml offload --host h100_sxm --device-bandwidth 2TB/s --device-peak 51TFLOP/s --device-capacity 80GB \\\n"
      "           --link 63GB/s --in 100GB --out 20GB");
  auto o = std::make_shared<offload_options>();
  auto* system = command->add_option("--system", o->system, "a catalog system: gh200, h100_pcie_host (hml devices)")
                     ->type_name("NAME");
  auto* host = command->add_option("--host", o->host, "the host, where the data is: " + std::string{machine_help})
                   ->type_name("NAME|FILE")
                   ->excludes(system);
  auto* bandwidth = command->add_option("--host-bandwidth", o->host_bandwidth, "the host's memory bandwidth, e.g. 200GB/s")
                        ->type_name("RATE");
  auto* peak = command->add_option("--host-peak", o->host_peak, "the host's peak compute, e.g. 2TFLOP/s")->type_name("RATE");
  bandwidth->needs(peak)->excludes(system)->excludes(host);
  peak->needs(bandwidth);
  // A system is its host, device and link together: none of them is given beside it (a trial's --system gh200
  // --device h100_pcie kept GH200's C2C link without a word).
  auto* device = command->add_option("--device", o->device, "the device: " + std::string{machine_help})
                     ->type_name("NAME|FILE")
                     ->excludes(system);
  auto* device_bandwidth =
      command->add_option("--device-bandwidth", o->device_bandwidth, "the device's memory bandwidth, e.g. 2TB/s")
          ->type_name("RATE");
  auto* device_peak =
      command->add_option("--device-peak", o->device_peak, "the device's peak compute, e.g. 51TFLOP/s")->type_name("RATE");
  command->add_option("--device-capacity", o->device_capacity, "with --device-bandwidth, the device's memory, e.g. 80GB (default: unlimited)")
      ->type_name("SIZE");
  device_bandwidth->needs(device_peak)->excludes(device)->excludes(system);
  device_peak->needs(device_bandwidth);
  command->add_option("--link", o->link, "pcie3x16 ... pcie6x16, nvlink3/4/5, c2c, cxl2x8 ..., or a rate per direction")
      ->type_name("LINK")
      ->excludes(system);
  CLI::Option* figures = add_figures_option(*command, o->figures);
  CLI::Option* precision =
      command->add_option("--precision", o->precision, "the kernel's precision (default fp32)")->type_name("NAME");
  command->add_option("--in", o->in, "bytes copied to the device, e.g. 2GiB")->type_name("SIZE")->required();
  command->add_option("--out", o->out, "bytes copied back, e.g. 1GiB")->type_name("SIZE")->required();
  command->add_option("--flops", o->flops, "the kernel's work, e.g. 1TFLOP (default 0)")->type_name("WORK");
  command->add_option("--runs", o->runs, "runs of the kernel on the transferred data (default 1)")->transform(bounded_by(hml::validate_runs));
  CLI::Option* chunks = command->add_option("--chunks", o->chunks, "chunks of the pipelined offload (fewer by default where a copy has fewer bytes)")
      ->check(whole_number(1, hml::max_chunks))
      ->capture_default_str();
  add_output_options(*command, o->output);
  command->callback([o, precision, figures, chunks] {
    o->precision_given = precision->count() > 0;
    o->chunks_given = chunks->count() > 0;
    o->figures_given = figures->count() > 0;
    run(*o);
  });
}

}  // namespace hml_cli
