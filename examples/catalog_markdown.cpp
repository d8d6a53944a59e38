// Prints docs/reference/catalog.md from hml::devices (its one list of devices and its list of sources), so that the
// document cannot drift from the catalog: the test docs.catalog compares this program's output with the file.
#include <cstdio>
#include <string>
#include <string_view>

import hml;

namespace {

using namespace hml::literals;

void put(std::string_view s) { std::fwrite(s.data(), 1, s.size(), stdout); }

char letter(hml::provenance p) {
  switch (p) {
    case hml::provenance::stated: return 'S';
    case hml::provenance::derived: return 'D';
    case hml::provenance::measured: return 'M';
    case hml::provenance::unconfirmed: return 'U';
  }
  return '?';
}

template <class Quantity>
std::string value(Quantity q, hml::information_unit information = hml::information_unit::bytes) {
  return hml::to_string(q, {.number = hml::general(6), .prefixes = hml::prefix_system::decimal, .information = information});
}

// A per-cycle rate (a path between two caches) has no unit text of the library's: bytes a cycle.
std::string value(hml::bytes_per_cycle q, hml::information_unit = hml::information_unit::bytes) {
  return std::string{hml::format_number(q.value(), hml::general(6)).view()} + " B/cy";
}

template <class Quantity>
std::string cell(const hml::figure<Quantity>& f) {
  if (!f.published()) return "—";
  return value(f.value) + " (" + letter(f.kind) + ")";
}

// One row of the figures table: device, figure, value, kind, source key.
template <class Quantity>
void figure_row(const hml::device& d, const std::string& what, const hml::figure<Quantity>& f,
                hml::information_unit information = hml::information_unit::bytes) {
  if (!f.published()) return;
  put("| " + std::string{d.id} + " | " + what + " | " + value(f.value, information) + " | " + std::string{hml::to_string(f.kind)} +
      " | " + (f.source.empty() ? "—" : "`" + std::string{f.source} + "`") + " |\n");
}

void figure_rows(const hml::device& d) {
  figure_row(d, "clock", d.clock);
  figure_row(d, "kernel overhead", d.kernel_overhead);
  figure_row(d, "attention rate", d.attention_rate);
  figure_row(d, "INT4 weight rate", d.int4_weight_rate);
  for (const hml::level_description& l : d.memory) {
    const std::string name{l.name};
    figure_row(d, name + " capacity", l.capacity);
    figure_row(d, name + " rate from the level outside", l.upstream.rate);
    figure_row(d, name + " bandwidth", l.bandwidth);
    figure_row(d, name + " write bandwidth", l.write_bandwidth);
    figure_row(d, name + " bandwidth, measured", l.measured_bandwidth);
    figure_row(d, name + " latency", l.latency);
    figure_row(d, name + " pin rate", l.interface.pin_rate, hml::information_unit::bits);  // as datasheets give it
    if (hml::published(l.interface)) {
      figure_row(d,
                 name + " bandwidth = " + (l.interface.channels > 1 ? std::to_string(l.interface.channels) + " x " : "") +
                     std::to_string(l.interface.bus_bits) + " bits x pin rate",
                 hml::derived_bandwidth(l.interface));
    }
  }
  for (const hml::ceiling_description& c : d.compute) {
    const std::string name{c.name()};
    figure_row(d, name, c.dense);
    figure_row(d, name + ", sparse", c.sparse);
    figure_row(d, name + ", measured", c.measured);
  }
  for (const hml::stream_mix_bandwidth& m : d.memory_bandwidths) {
    figure_row(d, "main memory, " + std::string{m.kernel} + " (" + std::to_string(m.reads) + " read, " +
                      std::to_string(m.writes) + " write streams)",
               m.bandwidth);
  }
  for (const hml::domain_description& domain : d.domains) {
    figure_row(d, std::string{domain.name} + " last cache", domain.last_cache);
    figure_row(d, std::string{domain.name} + " memory bandwidth", domain.memory_bandwidth);
  }
}

// The profiling script's gpu_specs_db (docs/explanation/origins.md): (bandwidth GB/s, "FP32 GFLOPS").
struct seed_row {
  std::string_view key;
  double bandwidth_gbs, fp32_gflops;
  const hml::device* device;
};
const seed_row seed_004[] = {
    {"GB200", 8000, 80000, nullptr},  {"GH200", 4000, 1980, nullptr},
    {"H100", 3350, 1980, &hml::devices::h100_sxm}, {"A100", 1935, 1248, &hml::devices::a100_sxm_80gb},
    {"V100", 900, 1245, &hml::devices::v100},       {"RTX 4090", 1008, 1321, &hml::devices::rtx_4090},
    {"RTX 3090", 936, 1188, &hml::devices::rtx_3090},
};

constexpr hml::precision overview[] = {hml::precision::fp64, hml::precision::fp32, hml::precision::tf32,
                                       hml::precision::bf16, hml::precision::fp16, hml::precision::int8};

// Links and systems (hml::systems in modules/catalog/systems.cppm): `hml offload --link ID / --system ID`.
void links_and_systems() {
  put("\n## Links\n\n"
      "From `hml::systems::links`. A link's figure is its rate per direction (`hml::per_direction`); the\n"
      "datasheets' totals over both directions (`hml::bidirectional_total`) are shown beside it. PCIe is lanes x\n"
      "transfer rate x encoding (128b/130b for 3.0 to 5.0; PCIe 6.0 and CXL 3.0 at the raw 64 GT/s, their FLIT\n"
      "overhead counted with the protocol's), NVLink links x rate per link, both derived in code.\n\n"
      "NVLink SHARP's all-reduce (`--all-reduce nvls`) runs at its measured bus bandwidth, which NCCL's bus bandwidth\n"
      "counts above the per-direction rate (transformer-conventions.md).\n\n"
      "| id | Link | Per direction | Both directions | Kind | Measured (to, from the device) | Latency | NVLS bus bandwidth | Source | Note |\n"
      "|---|---|---|---|---|---|---|---|---|---|\n");
  for (const hml::link_description* l : hml::systems::links) {
    put("| `" + std::string{l->id} + "` | " + std::string{l->name} + " | " + value(l->bandwidth.value.rate) + " | " +
        value(hml::bidirectional_of(l->bandwidth.value, l->mode).rate) + " | " + std::string{hml::to_string(l->bandwidth.kind)} +
        " | " +
        (l->measured_to_device.published()
             ? value(l->measured_to_device.value.rate) + ", " + value(l->measured_from_device.value.rate) + " (`" +
                   std::string{l->measured_to_device.source} + "`)"
             : std::string{"—"}) +
        " | " +
        (l->latency.published() ? value(l->latency.value) + " (`" + std::string{l->latency.source} + "`)" : std::string{"—"}) +
        " | " +
        (l->nvls_bus_bandwidth.published()
             ? value(l->nvls_bus_bandwidth.value) + " (`" + std::string{l->nvls_bus_bandwidth.source} + "`)"
             : std::string{"—"}) +
        " | `" + std::string{l->bandwidth.source} + "` | " + std::string{l->note} + " |\n");
  }
  put("\n## Systems\n\n"
      "From `hml::systems::all`: machines joined by a link, the host where the data is and a device.\n\n"
      "| id | System | Host | Device | Link | Note |\n|---|---|---|---|---|---|\n");
  for (const hml::system_description* sys : hml::systems::all) {
    put("| `" + std::string{sys->id} + "` | " + std::string{sys->name} + " | `" + std::string{sys->host->id} + "` | `" +
        std::string{sys->device->id} + "` | " +
        (sys->joined_by != nullptr ? "`" + std::string{sys->joined_by->id} + "`" : std::string{"— (one pool)"}) + " | " +
        std::string{sys->note} + " |\n");
  }
  put("\n### The systems' own machines, every figure and its source\n\n"
      "| Device | Figure | Value | Kind | Source |\n|---|---|---|---|---|\n");
  for (const hml::device* d : {&hml::systems::grace, &hml::systems::gh200_hopper, &hml::systems::mi300a,
                               &hml::systems::xeon_max_9480}) {
    figure_rows(*d);
  }
  put("\n### Sources of the links and systems\n\n| Key | Document | Where to find it |\n|---|---|---|\n");
  for (const hml::source& src : hml::systems::sources) {
    put("| `" + std::string{src.key} + "` | " + std::string{src.title} + " | " + std::string{src.where} + " |\n");
  }
}

// The CPUs of the ECM model (hml::cpus in modules/catalog/cpus.cppm): `hml ecm --machine ID`.
void cpus_of_the_ecm_model() {
  put("\n## CPUs of the ECM model\n\n"
      "From `hml::cpus::all` ([the ECM model](../explanation/ecm-model.md)): kerncraft's and INSPECT's machine files\n"
      "and two of this project's, with caches, per-cycle rates between them, main memory's stream mixes and port\n"
      "counts. Every figure and its source:\n\n"
      "| Machine | Figure | Value | Kind | Source |\n|---|---|---|---|---|\n");
  for (const hml::machine_description* m : hml::cpus::all) figure_rows(*m);
  put("\n### Sources of the CPUs\n\n| Key | Document | Where to find it |\n|---|---|---|\n");
  for (const hml::source& src : hml::cpus::sources) {
    put("| `" + std::string{src.key} + "` | " + std::string{src.title} + " | " + std::string{src.where} + " |\n");
  }
}

}  // namespace

int main() {
  put("# Device catalog\n\n"
      "Generated by `examples/catalog_markdown.cpp` from `hml::devices` (modules/catalog/catalog.cppm); the test\n"
      "`docs.catalog` fails if this file and the catalog differ. Regenerate with\n"
      "`build/default/bin/catalog_markdown > docs/reference/catalog.md`.\n\n"
      "Every device is an `hml::machine_description`: memory levels, fastest first (the last is main memory), and\n"
      "compute ceilings per precision and unit. Every figure is typed and has a kind and a source:\n"
      "S = stated (datasheet, product brief, press release), D = derived in code from stated parts (channels x bus\n"
      "width x pin rate; cores x clock x FLOP/cycle), M = measured (a published benchmark, carried beside the\n"
      "datasheet figure, never in its place), U = unconfirmed (third-party or from memory). — = not published or no\n"
      "such unit. Tensor figures are dense; the vendors' \"with sparsity\" figures are kept apart (`sparse`).\n"
      "Where the hardware notes cite several documents for one device, datasheet figures cite the datasheet and\n"
      "architectural details (bus, pin rate, SMs, clock, L2) the page that gives them.\n"
      "Left out of the hardware notes: GH200 (datasheet not retrieved), M2 Max (FP32 only third-party), and\n"
      "GB200 and A100 PCIe (not needed yet). The notes' tables give FP8 for the H100s and the H200 alone; the\n"
      "L40S's FP8, the B200's FP8 and FP4 and the A100s' INT4 peaks, added for transformer inference, cite their\n"
      "datasheets directly. The CPUs of the ECM model are [below](#cpus-of-the-ecm-model).\n\n"
      "A precision alone (`--precision fp16`, `hml::precision::fp16`) means its vector units where the device\n"
      "publishes them, else its tensor units; `fp16_tensor` / `fp64_vector` names the unit. Below, `t` marks a\n"
      "tensor-unit peak.\n\n"
      "| Device | id | Main memory | Bandwidth | Measured | FP64 | FP32 | TF32 | BF16 | FP16 | INT8 |\n"
      "|---|---|---|---|---|---|---|---|---|---|---|\n");
  for (const hml::device* d : hml::devices::all) {
    const hml::level_description& main = hml::main_memory(*d);
    put("| " + std::string{d->name} + " | `" + std::string{d->id} + "` | " +
        (main.capacity.published() ? value(main.capacity.value) + " " : std::string{}) + std::string{main.name} +
        " | " + cell(main.bandwidth) + " | " + cell(main.measured_bandwidth));
    for (hml::precision p : overview) {
      const hml::compute_kind k = hml::kind_for(*d, p);
      const hml::figure<hml::compute_rate> peak = hml::peak(*d, k);
      put(" | " + cell(peak) + (peak.published() && k.unit == hml::compute_unit::tensor ? " t" : ""));
    }
    put(" |\n");
  }

  put("\n## Every figure and its source\n\n| Device | Figure | Value | Kind | Source |\n|---|---|---|---|---|\n");
  for (const hml::device* d : hml::devices::all) figure_rows(*d);

  put("\n## Notes\n\n| Device | Note |\n|---|---|\n");
  for (const hml::device* d : hml::devices::all) {
    if (!d->note.empty()) put("| " + std::string{d->name} + " | " + std::string{d->note} + " |\n");
  }

  put("\n## The V100's measured hierarchical roofline\n\n"
      "The Empirical Roofline Toolkit (ERT) ceilings of a V100, as published in the hierarchical-roofline plotting\n"
      "data of C. Yang, first author of \"Hierarchical Roofline Analysis for GPUs\" (source\n"
      "`yang-kurth-williams-ert-v100`; the figures were read from that data, not from the paper's text), beside the\n"
      "datasheet's 900 GB/s and 7.8 TFLOP/s. Each level's ridge is the measured compute ceiling over the level's\n"
      "measured bandwidth\n"
      "(`hml::hierarchical_roof_of<3, 2>(hml::devices::v100, hml::basis::measured)`):\n\n"
      "| Level | Measured bandwidth |");
  const hml::device& v100 = hml::devices::v100;
  for (const hml::ceiling_description& c : v100.compute) {
    if (c.measured.published()) {
      put(" Ridge at " + std::string{c.name()} + " (" +
          value(c.measured.value) + ") |");
    }
  }
  put("\n|---|---|---|---|\n");
  for (const hml::level_description& l : v100.memory) {
    if (!l.measured_bandwidth.published()) continue;
    put("| " + std::string{l.name} + " | " + value(l.measured_bandwidth.value) + " |");
    for (const hml::ceiling_description& c : v100.compute) {
      if (c.measured.published()) {
        put(" " + hml::to_string(hml::ridge_point(hml::roof{l.measured_bandwidth.value, c.measured.value}),
                                 {hml::general(4)}) +
            " |");
      }
    }
    put("\n");
  }

  put("\n## Sources\n\n| Key | Document | Where to find it |\n|---|---|---|\n");
  for (const hml::source& s : hml::devices::sources) {
    put("| `" + std::string{s.key} + "` | " + std::string{s.title} + " | " + std::string{s.where} + " |\n");
  }

  put("\n## Your own machine\n\n"
      "A machine of your own is a machine file (`format: hml-machine/1`, YAML or JSON), the same fields as a\n"
      "catalog entry; `--machine FILE` takes it wherever `--machine NAME` is taken, and `hml devices FILE` shows\n"
      "it. `hml devices NAME --format yaml` writes any catalog machine as one to start from, `hml probe --save\n"
      "host.yaml` writes the machine it measured, and `cli/my_gpu.yaml` is an example. The format is in\n"
      "[the machine file reference](machine-file.md); older device JSON files (`cli/my_gpu.json`) are still read,\n"
      "with a note naming the command that converts them.\n");

  put("\n## The profiling script's GPU table, corrected\n\n"
      "The profiling script's `gpu_specs_db` (profile_kernel.py; see [origins](../explanation/origins.md)) labels\n"
      "its second column \"peak FP32 GFLOPS\", but most entries are 13-63x too low (the H100's 1980 may be a slip\n"
      "from its ~1,979 TFLOP/s FP16-sparse tensor figure). Its A100 \"SXM\" bandwidth, 1935 GB/s, is the A100 PCIe 80GB's. GB200 and GH200 are not in the catalog.\n\n"
      "| Script key | Script BW | Script FP32 | Catalog device | Catalog BW | Catalog FP32 | FP32 ratio |\n"
      "|---|---|---|---|---|---|---|\n");
  for (const seed_row& row : seed_004) {
    const hml::data_rate seed_bw = row.bandwidth_gbs * hml::giga(hml::byte_per_second);
    const hml::compute_rate seed_fp32 = row.fp32_gflops * hml::giga(hml::flop_per_second);
    put("| " + std::string(row.key) + " | " + value(seed_bw) + " | " + value(seed_fp32) + " | ");
    if (row.device == nullptr) {
      put("— | — | — | — |\n");
      continue;
    }
    const hml::figure<hml::compute_rate> fp32 = hml::peak(*row.device, {hml::precision::fp32, hml::compute_unit::vector});
    put(std::string(row.device->name) + " | " + cell(hml::main_memory(*row.device).bandwidth) + " | " + cell(fp32) +
        " | " + std::string(hml::format_number(fp32.value / seed_fp32, hml::fixed(1)).view()) + "x |\n");
  }
  links_and_systems();
  cpus_of_the_ecm_model();
}
