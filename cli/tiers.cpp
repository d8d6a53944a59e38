// `hml tiers`: a working set over a tiered memory (a catalog machine's levels, or tiers given as
// NAME:CAPACITY:BANDWIDTH) under each placement policy, with the best placement (hml.tiers).
#include <algorithm>
#include <memory>
#include <string>
#include <vector>
#include <CLI/CLI.hpp>

#include "commands.hpp"
#include "common.hpp"

namespace hml_cli {

namespace {

struct tiers_options {
  std::string system;
  std::string machine;
  std::string figures;  // add_figures_option sets its default
  std::vector<std::string> tiers;
  std::string footprint;
  double hot_bytes = 1.0;
  double hot_accesses = 1.0;
  double write_share = 0.0;
  std::vector<double> shares;
  bool sequential = false;
  output_options output;
};

struct outcome {
  std::string policy;
  bool fits = true;
  hml::placement placement{};
};

// A machine's tiers are its main memory and its addressable levels (hml::tiers_of): each needs a capacity and
// a bandwidth on the figures asked for, where one without was left out without a word, and a cache between
// two of them is a level no placement can go around. Said at the level's line where a file gives it
// (`files.where`), and under --figures stated as that option's doing too.
void check_tier_levels(const machine_files& files, const std::string& name_or_path, const hml::machine_description& m,
                       const std::string& option, bool stated) {
  // Without an addressable level there is main memory alone, one tier, which the caller refuses as such.
  if (std::ranges::none_of(m.memory, &hml::level_description::addressable)) return;
  const auto level = [&](std::size_t i, std::string_view field) {
    const std::string at = "memory[" + std::to_string(i) + "]";
    return files.where(name_or_path, m, field.empty() ? at : at + "." + std::string{field}) + " (" +
           hml::message_text(m.memory[i].name) + ")";
  };
  // A machine file says so at its line when read; a catalog machine is checked here.
  if (const std::size_t i = hml::cache_between_tiers(m); i < m.memory.size())
    throw input_error(option + ": " + level(i, "") + " is a cache between two tiers, which hml tiers does not model; " +
                      "mark it addressable: true, or leave it out");
  for (std::size_t i = 0; i < m.memory.size(); ++i) {
    const hml::level_description& l = m.memory[i];
    const bool last = i + 1 == m.memory.size();
    if (!l.addressable && !last) continue;
    const std::string what = last ? "main memory" : "addressable";
    if (!l.capacity.published())
      throw input_error(option + ": " + level(i, "capacity") + " is " + what + " but states no capacity; give its capacity");
    if (!l.bandwidth.published() && stated)
      throw input_error(option + ", --figures stated: " + level(i, "bandwidth") + " is " + what +
                        " but states no datasheet bandwidth, which --figures stated takes; give its stated bandwidth, "
                        "or leave --figures stated out");
    if (!l.bandwidth.published())
      throw input_error(option + ": " + level(i, "bandwidth") + " is " + what + " but states no bandwidth; give its bandwidth");
  }
}

void run(const tiers_options& o) {
  const output_format format = o.output.chosen();
  hml::tiered_memory memory{.mode = o.sequential ? hml::serving::sequential : hml::serving::concurrent};
  std::string title;
  machine_files files;
  files.use(figures_basis(o.figures));
  const hml::machine_description* m = nullptr;
  if (!o.system.empty()) {
    m = &files.view_of(*check_option("--system", [&] { return hml::system_named(o.system).host; }));
  } else if (!o.machine.empty()) {
    m = &files.machine("--machine", o.machine);
  }
  if (m != nullptr) {
    check_tier_levels(files, o.system.empty() ? o.machine : o.system, *m, o.system.empty() ? "--machine" : "--system",
                      files.stated());
    memory.tiers = hml::tiers_of(*m).tiers;
    title = std::string{m->name};
  }
  for (const std::string& spec : o.tiers) {
    if (memory.tiers.size() == hml::max_tiers) throw input_error("--tier: more than 4 tiers; give at most 4");
    // A tier's bandwidths are a memory's: a bit rate is refused (by parse_tier), as by every bandwidth option.
    const hml::tier t = check_option("--tier", [&] { return hml::parse_tier(spec); });
    // Names that print alike ('A', 'A ', 'A\u200b') are one to whoever reads the table.
    const auto alike = std::ranges::find_if(memory.tiers, [&](const hml::tier& other) {
      return hml::look_alike(other.name) == hml::look_alike(t.name);
    });
    if (alike != memory.tiers.end())
      throw input_error("--tier: two tiers are named " +
                        (alike->name == t.name ? "'" + hml::message_text(t.name) + "'"
                                               : "alike, '" + hml::message_text(alike->name) + "' and '" + hml::message_text(t.name) +
                                                     "' (" + hml::first_difference(alike->name, t.name) + ")") +
                        "; give each its own name");
    memory.tiers.push_back(t);
  }
  // The option the tiers came from, which a message about them names (a machine has one tier or more, so
  // with --tier there are two or more).
  const std::string tiers_from = !o.tiers.empty()    ? "--tier"
                                 : !o.system.empty()  ? "--system"
                                 : !o.machine.empty() ? "--machine"
                                                      : "";
  if (tiers_from.empty()) {
    throw input_error("--system, --machine, --tier: missing; give --system or --machine with two tiers (xeon_max, "
                      "xeon_max_9480) or --tier twice or more");
  }
  // A message about a machine's or system's tiers names it, as a reader's message names its file.
  const std::string tiers_source =
      tiers_from == "--tier" ? tiers_from : tiers_from + ": " + hml::path_shown(input_name(tiers_from == "--system" ? o.system : o.machine));
  if (memory.tiers.size() < 2) {
    throw input_error(tiers_source + ": one tier; a tiered memory has two or more: " +
                      (tiers_from == "--tier" ? std::string{"give --tier NAME:CAPACITY:BANDWIDTH[:WRITE] twice or more"}
                                              : tiers_from == "--system"
                                                  ? "give --system xeon_max (two tiers), or --tier twice or more in its place"
                                                  : "its caches are no tiers (a tier is a level programs address as memory, addressable: true in a machine file); give "
                                                    "--machine xeon_max_9480 (two tiers), or --tier twice or more in its place"));
  }
  check_option(tiers_source, [&] { hml::validate(memory); });
  if (title.empty()) title = "the given tiers";
  const auto footprint = quantity_of<hml::data_size>("--footprint", o.footprint);
  const hml::working_set w{.footprint = footprint, .skew = {o.hot_bytes, o.hot_accesses}, .write_share = o.write_share};
  check_option("--footprint", [&] { hml::validate_footprint(footprint); });
  // A placement places bytes: below one, the hot share's check blamed --hot-bytes where none was given.
  if (footprint.value() > 0 && footprint.value() < 1)
    throw input_error("--footprint: " + hml::to_string(footprint, {.number = hml::general(4)}) +
                      " is less than a byte; give a footprint of a byte or more");
  // No hot bytes is --hot-bytes' fault alone; all of them hot with a share of the accesses, both shares' (one
  // left at its default is named with its value, as every option's is).
  check_option(o.hot_bytes == 0 ? "--hot-bytes" : "--hot-bytes, --hot-accesses", [&] { hml::validate(w.skew); });
  if (const double hot = o.hot_bytes * footprint.value(); hot > 0 && hot < 1)
    throw input_error("--hot-bytes, --footprint: a hot share of " +
                      std::string{hml::format_number(o.hot_bytes, hml::general(4)).view()} + " of " +
                      hml::to_string(footprint, {.number = hml::general(4)}) + " is less than a byte; give a larger share");
  if (!hml::any_placement_fits(memory, w)) {
    throw input_error("--footprint: the working set does not fit the tiers (" +
                      hml::to_string(hml::total_capacity(memory), {.number = hml::general(4)}) +
                      " in all); give a smaller footprint, or tiers that hold it");
  }

  // Flat mode's shares: given, or the fast tier filled and the rest in order.
  // Counted here, where --shares given twice (its values appended) is still visible as too many.
  if (!o.shares.empty() && o.shares.size() != memory.tiers.size())
    throw input_error("--shares: " + std::to_string(o.shares.size()) + (o.shares.size() == 1 ? " share for " : " shares for ") +
                      std::to_string(memory.tiers.size()) +
                      " tiers; give --shares once, with one share per tier (0.32,0.68)");
  hml::fixed_list<double, hml::max_tiers> shares;
  for (double share : o.shares) shares.push_back(share);
  if (o.shares.empty()) shares = hml::fill_in_order_shares(memory, w);
  std::vector<outcome> outcomes;
  // A policy without room for the working set is a row that says so; any other error is the input's.
  const auto attempt = [&](std::string policy, bool fits, auto place) {
    outcomes.push_back(fits ? outcome{std::move(policy), true, place()} : outcome{std::move(policy), false, {}});
  };
  const bool two = memory.tiers.size() == 2;
  if (!two)  // said, so that their rows are not looked for
    note("cache and best placement take two tiers; with " + std::to_string(memory.tiers.size()) +
         " only flat and weighted interleave are shown");
  if (two) attempt("cache", hml::cache_mode_fits(memory, w), [&] { return hml::cache_mode(memory, w); });
  check_option("--shares", [&] {
    attempt("flat", hml::shares_fit(memory, w, shares), [&] { return hml::flat(memory, w, shares); });
  });
  attempt("weighted interleave", hml::interleave_fits(memory, w), [&] { return hml::weighted_interleave(memory, w); });
  if (two) {
    // The best placement takes the faster tier first at the working set's mix of reads and writes: a tier fast
    // to read and slow to write falls behind where --write-share makes it, and that is the option to name.
    const hml::data_rate first = hml::detail::tier_rate_of(memory.tiers[0], w.write_share);
    const hml::data_rate second = hml::detail::tier_rate_of(memory.tiers[1], w.write_share);
    if (first < second) {
      const bool by_writes = !(memory.tiers[0].read < memory.tiers[1].read);
      const auto rate = [](hml::data_rate r) { return hml::to_string(r, {.number = hml::general(4)}); };
      throw input_error(tiers_from + (by_writes ? ", --write-share" : "") + ": the first tier serves " + rate(first) +
                        (by_writes ? " at this write share" : "") + ", below the second's " + rate(second) +
                        "; the best placement takes the faster tier first: " +
                        (by_writes ? "give the tiers in the order they serve this mix, or a smaller --write-share"
                                   : "give the faster tier first"));
    }
    check_option(tiers_from, [&] {  // the tiers are the option's that gave them (--machine's, --system's too)
      attempt("best placement", hml::any_placement_fits(memory, w), [&] { return hml::best_placement(memory, w); });
    });
  }

  if (format != output_format::table) {
    hml::table t{{"policy", "fits", "bandwidth_Bps", "time_s", "fast_tier_bytes_share", "fast_tier_traffic_share", "hit_rate"}, {}};
    for (const outcome& r : outcomes) {
      if (!r.fits) {
        t.add_row({r.policy, false, hml::no_value{}, hml::no_value{}, hml::no_value{}, hml::no_value{}, hml::no_value{}});
        continue;
      }
      // Only a cache has a hit rate: the other policies' is empty (null), not 0.
      const hml::cell hit = r.placement.policy == "cache" ? hml::cell{r.placement.hit_rate} : hml::cell{hml::no_value{}};
      t.add_row({r.policy, true, r.placement.bandwidth.value(), r.placement.time.value(),
                 r.placement.tiers[0].bytes, r.placement.tiers[0].traffic, hit});
    }
    emit(o.output, render(t, format, hml::general(17)));
    return;
  }
  std::string s = title + ", " + std::string{hml::to_string(memory.mode)} + " tiers\n";
  for (const hml::tier& t : memory.tiers) {
    // A write rate of its own is said: with --write-share it moves every figure below.
    const bool writes_apart = t.write.value() > 0 && t.write != t.read;
    s += "  " + std::string{t.name} + ": " + hml::to_string(t.capacity, {.number = hml::general(4)}) + ", " +
         hml::to_string(t.read, {.number = hml::general(4)}) +
         (writes_apart ? ", writes " + hml::to_string(t.write, {.number = hml::general(4)}) : "") + "\n";
  }
  s += "working set " + hml::to_string(footprint, {.number = hml::general(4)}) + "; " +
       hml::percent_text(100 * o.hot_bytes, hml::general(3)) + " of it takes " +
       hml::percent_text(100 * o.hot_accesses, hml::general(3)) + " of the accesses" +
       (o.write_share > 0 ? "; " + hml::percent_text(100 * o.write_share, hml::general(3)) + " of the traffic writes" : "") +
       "\n\n";
  hml::table t{{"policy", "bandwidth", "one pass", "bytes in " + std::string{memory.tiers[0].name},
                "traffic in " + std::string{memory.tiers[0].name}},
               {}};
  for (const outcome& r : outcomes) {
    if (!r.fits) {
      t.add_row({r.policy, std::string{"does not fit"}, std::string{"-"}, std::string{"-"}, std::string{"-"}});
      continue;
    }
    t.add_row({r.policy, hml::to_string(r.placement.bandwidth, {.number = hml::general(3)}),
               hml::to_string(r.placement.time, {.number = hml::general(3)}),
               hml::percent_text(100 * r.placement.tiers[0].bytes, hml::fixed(1)),
               hml::percent_text(100 * r.placement.tiers[0].traffic, hml::fixed(1))});
  }
  emit(o.output, s + hml::format_table(t));
}

}  // namespace

void add_tiers_command(CLI::App& hml) {
  auto* command = hml.add_subcommand("tiers", "a working set over tiered memory under each placement policy");
  command->footer(
      "Policies: cache (the first tier caches the second), flat (--shares, default: fill the first tier),\n"
      "weighted interleave (shares by bandwidth) and the best placement of the hottest bytes.\n"
      "Example: hml tiers --system xeon_max --footprint 200GiB --hot-bytes 0.3 --hot-accesses 0.9\n"
      "         hml tiers --tier HBM:64GiB:1638.4GB/s --tier DDR5:512GiB:307.2GB/s --footprint 200GiB --format csv");
  auto o = std::make_shared<tiers_options>();
  auto* system = command->add_option("--system", o->system, "a catalog system whose host has tiers: xeon_max")
                     ->type_name("NAME");
  auto* machine = command->add_option("--machine", o->machine, "a machine with two tiers or more: " + std::string{machine_help})
                      ->type_name("NAME|FILE")
                      ->excludes(system);
  CLI::Option* figures = add_figures_option(*command, o->figures);
  // Tiers given by their figures have no datasheet or measurement to choose between.
  command->add_option("--tier", o->tiers, "a tier NAME:CAPACITY:BANDWIDTH[:WRITE], fastest first (repeat)")
      ->type_name("SPEC")
      ->excludes(system)
      ->excludes(machine)
      ->excludes(figures);
  command->add_option("--footprint", o->footprint, "the working set's size, e.g. 200GiB")->type_name("SIZE")->required();
  command->add_option("--hot-bytes", o->hot_bytes, "share of the bytes that is hot (1: uniform)")->transform(bounded_by(hml::validate_share))->capture_default_str();
  command->add_option("--hot-accesses", o->hot_accesses, "share of the accesses the hot bytes take")->transform(bounded_by(hml::validate_share))->capture_default_str();
  command->add_option("--write-share", o->write_share, "share of the traffic that writes")->transform(bounded_by(hml::validate_share))->capture_default_str();
  command->add_option("--shares", o->shares, "flat mode's share of the bytes per tier, e.g. 0.32,0.68")->delimiter(',');
  command->add_flag("--sequential", o->sequential, "tiers serve one after the other (default: at once)");
  add_output_options(*command, o->output);
  command->callback([o] { run(*o); });
}

}  // namespace hml_cli
