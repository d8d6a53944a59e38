// hml.probe's machine half: what the system reports (memory, caches, the vector width), and the machine
// descriptions a probe's measurements make: its roofline and memory levels, the one-machine description,
// and the ECM model's machine (hml::host_machine::cpu) with its port model.
module;
#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <limits>
#include <numeric>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <unistd.h>
module hml.probe;
import hml.machine_description;
import hml.ecm;

namespace hml {

data_size physical_memory() {
  const long pages = ::sysconf(_SC_PHYS_PAGES);
  const long page_size = ::sysconf(_SC_PAGESIZE);
  return pages > 0 && page_size > 0 ? static_cast<double>(pages) * static_cast<double>(page_size) * byte
                                    : data_size::from_value(std::numeric_limits<double>::infinity());
}

data_size last_level_cache() {
  const std::vector<data_size> caches = reported_caches();
  return caches.empty() ? 0 * byte : caches.back();
}
std::size_t host_machine::level_index(data_size working_set) const {
  expects(!levels.empty(), "hml: the machine has no measured memory level");
  for (std::size_t i = 0; i < levels.size(); ++i) {
    if (!(levels[i].largest < working_set)) return i;
  }
  return levels.size() - 1;
}

const bandwidth_plateau& host_machine::level_for(data_size working_set) const {
  return levels[level_index(working_set)];
}

duration host_machine::latency(std::size_t level) const {
  return level < latencies.size() ? latencies[level] : 0 * second;
}

data_size host_machine::latency_working_set(std::size_t level) const {
  return std::sqrt(levels.at(level).smallest.value() * levels.at(level).largest.value()) * byte;
}

memory host_machine::memory_for(data_size working_set) const {
  const std::size_t level = level_index(working_set);
  return {latency(level), levels[level].ceiling.bandwidth};
}

memory host_machine::dram() const {
  expects(!levels.empty(), "hml: the machine has no measured memory level");
  return {latency(levels.size() - 1), levels.back().ceiling.bandwidth};
}

compute_core host_machine::core() const { return {peak}; }

roof host_machine::roofline() const { return {dram().bandwidth, peak}; }

compute_ceiling host_machine::compute() const { return {"FP64 FMA", peak}; }

compute_ceiling host_machine::compute_fp32() const { return {"FP32 FMA", peak_fp32}; }

namespace {
// The memory installed (physical_memory()); unpublished where the system does not say.
figure<data_size> installed_memory() {
  const data_size installed = physical_memory();
  return isfinite(installed) ? measured(installed, probe_source.key) : figure<data_size>{};
}
}  // namespace

machine_description host_machine::description() const {
  machine_description d{.id = "this_machine", .name = "this machine (hml probe)"};
  expects(levels.size() <= decltype(d.memory)::capacity(),
          "hml: the probe found more memory levels than a machine description holds");
  const auto measured = [](auto q) { return hml::measured(q, probe_source.key); };
  for (std::size_t i = 0; i < levels.size(); ++i) {
    level_description level{.name = levels[i].ceiling.name, .bandwidth = measured(levels[i].ceiling.bandwidth)};
    if (latency(i).value() > 0) level.latency = measured(latency(i));
    d.memory.push_back(level);
  }
  if (!d.memory.empty()) d.memory[d.memory.size() - 1].capacity = installed_memory();
  d.compute.push_back({.type = precision::fp64, .unit = compute_unit::vector, .dense = measured(peak)});
  d.compute.push_back({.type = precision::fp32, .unit = compute_unit::vector, .dense = measured(peak_fp32)});
  d.compute.push_back({.type = precision::fp64, .unit = compute_unit::vector, .dense = measured(scalar_chain),
                       .variant = scalar_chain_compute().name});
  return d;
}
namespace {
// The first line of a small sysfs file, "" if it cannot be read.
std::string sysfs_line(const std::string& path) {
  std::ifstream in{path};
  std::string line;
  std::getline(in, line);
  return line;
}

// The data (or unified) cache of `level` (1, 2, 3) of CPU 0 as Linux reports it in sysfs ("48K"), the one
// instance a core sees; else as sysconf reports it, which may be the whole package's (a VM on a 384 MB
// EPYC reported 384 MiB of L3 where sysfs and lscpu say 32 MiB); 0 B if neither does.
data_size cache_size(std::size_t level) {
  for (int index = 0; index < 10; ++index) {
    const std::string dir = "/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(index) + "/";
    const std::string found = sysfs_line(dir + "level");
    if (found.empty()) break;
    if (found != std::to_string(level) || sysfs_line(dir + "type") == "Instruction") continue;
    const std::string size = sysfs_line(dir + "size");
    std::size_t used = 0;
    double value = 0;
    try {
      value = std::stod(size, &used);
    } catch (const std::exception&) {
      break;
    }
    const char unit = used < size.size() ? size[used] : ' ';
    const double scale = unit == 'K' ? 1024.0 : unit == 'M' ? 1024.0 * 1024.0 : unit == 'G' ? 1024.0 * 1024.0 * 1024.0 : 1.0;
    if (value > 0) return value * scale * byte;
  }
  const int name = level == 1 ? _SC_LEVEL1_DCACHE_SIZE : level == 2 ? _SC_LEVEL2_CACHE_SIZE : _SC_LEVEL3_CACHE_SIZE;
  const long size = level <= 3 ? ::sysconf(name) : 0;
  return size > 0 ? static_cast<double>(size) * byte : data_size{};
}

// The bytes one vector load or store of the probe's kernels moves for vector_isa()'s name; 0 if unknown
// (a machine put together by hand).
std::size_t vector_bytes(std::string_view isa) {
  if (isa == "avx512f") return 64;
  if (isa == "avx2+fma") return 32;
  if (isa == "generic") return 16;  // the baseline x86-64 compiler's SSE2
  return 0;
}
}  // namespace

std::vector<data_size> reported_caches() {
  std::vector<data_size> caches;
  for (std::size_t level = 1; level <= 3; ++level) {
    const data_size size = cache_size(level);
    if (size.value() <= 0) break;
    caches.push_back(size);
  }
  return caches;
}

machine_description host_machine::cpu() const { return cpu(reported_caches()); }

// The probe's kernels as stream mixes: the Schoenauer triad (a[i] = b[i] + c[i] * d[i]) and copy.
constexpr stream_mix_bandwidth triad_mix{.kernel = "triad", .reads = 3, .writes = 1};
constexpr stream_mix_bandwidth copy_mix{.kernel = "copy", .reads = 1, .writes = 1};

machine_description host_machine::cpu(std::span<const data_size> caches) const {
  expects(clock.value() > 0, "hml: the ECM description of this machine needs its measured clock");
  expects(!levels.empty(), "hml: the machine has no measured memory level");
  const auto measured = [](auto q) { return hml::measured(q, probe_source.key); };
  const auto measured_latency = [&](std::size_t level) {
    return latency(level).value() > 0 ? measured(latency(level)) : figure<duration>{};
  };
  // The latency of the first plateau measured inside (above, below]; none if no plateau was.
  const auto latency_inside = [&](data_size above, data_size below) {
    for (std::size_t i = 0; i < levels.size(); ++i) {
      const data_size at = latency_working_set(i);
      if (above < at && !(below < at)) return measured_latency(i);
    }
    return figure<duration>{};
  };
  const double per_core = 1.0 / static_cast<double>(threads);
  const machine_description probed = description();
  machine_description m{.id = probed.id, .name = probed.name, .compute = probed.compute};
  m.clock = measured(clock);
  m.cores = threads;

  // Each level's bandwidth per core from the samples inside it, scaled to the lines a triad moves.
  const auto add_level = [&](level_description level, data_rate all_threads) {
    level.bandwidth = measured(all_threads * (per_core * write_allocate_factor(triad_mix.reads, triad_mix.writes)));
    m.memory.push_back(level);
  };
  const data_size unbounded = std::numeric_limits<double>::infinity() * byte;
  data_rate l1_triad = levels.front().ceiling.bandwidth;  // counted, all threads: the in-core figure below
  data_rate l1_store{};  // all threads; none: the port model's default
  data_rate memory_triad = levels.back().ceiling.bandwidth;
  data_rate memory_copy = copy.empty() ? data_rate{} : copy.back().bandwidth;
  figure<duration> memory_latency = measured_latency(levels.size() - 1);
  if (caches.empty()) {
    // Nothing reported: the plateaus are the levels, their sizes what the samples show.
    expects(levels.size() >= 2, "hml: the ECM description needs a cache level and main memory");
    for (std::size_t i = 0; i + 1 < levels.size(); ++i) {
      add_level({.name = levels[i].ceiling.name, .capacity = measured(levels[i].largest * per_core),
                 .latency = measured_latency(i), .scope = sharing::per_core},
                levels[i].ceiling.bandwidth);
    }
  } else {
    static constexpr std::array<std::string_view, 3> names{"L1", "L2", "L3"};
    expects(caches.size() <= names.size(), "hml: the ECM description takes up to three cache levels");
    const std::vector<working_set_range> ranges = sample_ranges(caches);
    for (std::size_t i = 0; i < caches.size(); ++i) {
      const auto [smallest, largest, shared, capacity] = ranges[i];
      const std::optional<data_rate> inside = median_within(schoenauer_triad, smallest, largest);
      if (!inside) {  // which cache, and where its samples would be
        const auto text = [](data_size s) { return to_string(s, {.number = general(3), .prefixes = prefix_system::binary}); };
        throw std::invalid_argument("hml: no probed working set lies well inside " + std::string{names[i]} + " (" +
                                    text(caches[i]) + " as the system reports it: sets from " + text(smallest) + " to " +
                                    text(largest) + ", all threads); probe from below the first cache to well beyond the last");
      }
      add_level({.name = names[i], .capacity = measured(caches[i]),
                 .latency = latency_inside(i == 0 ? data_size{} : ranges[i - 1].capacity, capacity),
                 .scope = shared ? sharing::shared : sharing::per_core},
                *inside);
      if (i == 0) {
        l1_triad = *fastest_within(schoenauer_triad, smallest, largest);
        if (const auto stored = fastest_within(store, smallest, largest)) l1_store = *stored;
      }
    }
    const data_size beyond = ranges.back().smallest;
    if (!(ranges[caches.size() - 1].capacity < latency_working_set(levels.size() - 1))) memory_latency = {};
    // Without a sample past the caches, main memory's figures would be the last cache's, in every model.
    const std::optional<data_rate> triad = median_within(schoenauer_triad, beyond, unbounded);
    expects(triad.has_value(), "hml: no working set reached four times the last cache, so main memory's figures "
                               "would be a cache's; probe working sets past it");
    memory_triad = *triad;
    if (const auto copied = median_within(copy, beyond, unbounded)) memory_copy = *copied;
  }
  m.ports = ports(l1_triad, l1_store);
  m.memory.push_back({.name = "DRAM", .capacity = installed_memory(), .bandwidth = measured(memory_triad),
                      .latency = memory_latency});
  m.memory_bandwidths.push_back({triad_mix.kernel, triad_mix.reads, triad_mix.writes, measured(memory_triad)});
  if (!copy.empty()) m.memory_bandwidths.push_back({copy_mix.kernel, copy_mix.reads, copy_mix.writes, measured(memory_copy)});
  // memmove's samples are all beyond four times the last cache (probe() takes no others).
  if (const auto moved = median_within(copy_memmove, data_size{}, unbounded)) {
    m.memory_bandwidths.push_back(
        {.kernel = "copy-nt", .reads = 1, .writes = 1, .bandwidth = measured(*moved), .non_temporal = true});
  }
  return m;
}

std::vector<host_machine::working_set_range> host_machine::sample_ranges(std::span<const data_size> caches) const {
  std::vector<working_set_range> ranges;
  data_size inner_share{};  // what the levels inside hold, all threads together
  for (std::size_t i = 0; i < caches.size(); ++i) {
    const bool shared = i + 1 == caches.size() && threads > 1;
    const data_size all_threads_hold = shared ? caches[i] : caches[i] * static_cast<double>(threads);
    ranges.push_back({2.0 * inner_share, all_threads_hold / 2.0, shared, all_threads_hold});
    inner_share = all_threads_hold;
  }
  const data_size unbounded = std::numeric_limits<double>::infinity() * byte;
  ranges.push_back({4.0 * inner_share, unbounded, false, unbounded});
  return ranges;
}

port_model host_machine::ports(data_rate l1_triad, data_rate l1_store) const {
  port_model p;
  if (const std::size_t width = vector_bytes(isa); width > 0 && threads > 0 && clock >= least_clock && clock <= most_clock) {
    // Vector accesses per cycle on one core.
    const auto per_core_cycle = [&](data_rate all_threads) {
      return per_cycle(all_threads / static_cast<double>(threads), clock).value() / static_cast<double>(width);
    };
    p.vector_bytes = width;
    // A rate outside what a machine file takes is a disturbed measurement (a thread descheduled on a loaded
    // host measured 0.0005 stores a cycle): the default stays, and the probe's file reads back.
    const auto plausible = [](double rate) { return rate >= port_model::least_rate && rate <= port_model::most_rate; };
    if (const double ops = per_core_cycle(l1_triad); plausible(ops)) p.memory_ops_per_cycle = ops;
    if (l1_store.value() > 0) {
      if (const double stores = per_core_cycle(l1_store); plausible(stores)) p.stores_per_cycle = stores;
    }
  }
  return p;
}

compute_ceiling host_machine::scalar_chain_compute() const { return {"FP64 scalar FMA chain", scalar_chain}; }

}  // namespace hml
