// hml::read_device_json: a machine description from JSON, every field checked, errors naming the field.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

import hml;

namespace {

using namespace hml::literals;
using hml::compute_unit;
using hml::precision;

std::string read_file(const std::filesystem::path& p) {
  std::ifstream in{p, std::ios::binary};
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// The file the README's session reads: the catalog's A100 SXM4 80GB, written by hand.
std::string my_gpu() { return read_file(std::filesystem::path{HML_SOURCE_DIR} / "cli" / "my_gpu.json"); }

std::string error_of(std::string_view json) {
  try {
    (void)hml::read_device_json(json);
  } catch (const hml::device_file_error& e) {
    return e.what();
  }
  return "accepted";
}

TEST(DeviceFile, ReadsTheCatalogsShape) {
  const hml::loaded_device file = hml::read_device_json(my_gpu());
  const hml::device& d = file.machine();
  EXPECT_EQ(d.id, "my_gpu");
  EXPECT_EQ(d.cores, 108u);
  EXPECT_EQ(d.clock.value, 1.41_GHz);
  ASSERT_EQ(d.memory.size(), 2u);
  EXPECT_EQ(d.memory[0].name, "L2");
  EXPECT_EQ(d.memory[0].capacity.value, 40_MB);
  const hml::level_description& main = hml::main_memory(d);
  EXPECT_EQ(main.capacity.value, 80_GB);
  EXPECT_EQ(main.bandwidth.value, 2039_GBps);
  EXPECT_EQ(main.bandwidth.kind, hml::provenance::stated);
  EXPECT_EQ(main.bandwidth.source, "a100");
  EXPECT_EQ(main.measured_bandwidth.kind, hml::provenance::measured);
  EXPECT_EQ(hml::interface_bandwidth(main.interface), hml::interface_bandwidth(hml::main_memory(hml::devices::a100_sxm_80gb).interface));
  ASSERT_EQ(file.sources().size(), 2u);
  EXPECT_EQ(file.sources()[0].where, "nvidia-a100-datasheet-us-nvidia-1758950-r4-web.pdf");
  // The same roofs as the catalog's entry for the same device.
  for (const precision p : {precision::fp64, precision::fp32, precision::fp16}) {
    const hml::roof mine = hml::roof_of(d, p);
    const hml::roof catalog = hml::roof_of(hml::devices::a100_sxm_80gb, p);
    EXPECT_EQ(mine.peak, catalog.peak) << hml::to_string(p);
    EXPECT_EQ(mine.bandwidth, catalog.bandwidth) << hml::to_string(p);
  }
  EXPECT_EQ(hml::find_ceiling(d, {precision::fp16, compute_unit::tensor})->sparse.value, 624_TFLOPS);
  // Found by name in its own list, as catalog devices are.
  EXPECT_EQ(hml::find_machine("My-GPU", file.as_list()), &d);
}

TEST(DeviceFile, TheDeviceOutlivesAMove) {
  hml::loaded_device first = hml::read_device_json(my_gpu());
  const hml::device* before = &first.machine();
  const hml::loaded_device moved = std::move(first);
  EXPECT_EQ(&moved.machine(), before);
  EXPECT_EQ(moved.machine().name, "My GPU (an A100 SXM4 80GB, by hand)");
  EXPECT_EQ(hml::main_memory(moved.machine()).name, "HBM2e");
}

TEST(DeviceFile, AMinimalFileAndItsDefaults) {
  const hml::loaded_device file = hml::read_device_json(
      R"({"id": "box", "name": "Box", "memory": [{"name": "DRAM", "bandwidth": "100 GB/s", "latency": "80 ns"}],
          "compute": [{"precision": "fp64", "unit": "vector", "dense": "1 TFLOP/s"},
                      {"precision": "fp64", "unit": "vector", "measured": "0.5 TFLOP/s", "variant": "no FMA"}]})");
  const hml::device& d = file.machine();
  EXPECT_EQ(hml::main_memory(d).latency.value, 80_ns);
  EXPECT_EQ(hml::main_memory(d).scope, hml::sharing::shared);
  EXPECT_EQ(hml::main_memory(d).interface.bus_bits, 0u);
  EXPECT_EQ(hml::memory_of(d).latency, 80_ns);
  EXPECT_EQ(hml::roof_of(d, precision::fp64).peak, 1_TFLOPS);  // the peak, not the variant
  EXPECT_TRUE(file.sources().empty());
}

template <class Q>
void expect_same(const hml::figure<Q>& written, const hml::figure<Q>& read, std::string_view what) {
  EXPECT_EQ(read.value, written.value) << what;  // exactly: the writer's digits read back as the same double
  EXPECT_EQ(read.kind, written.kind) << what;
  EXPECT_EQ(read.source, written.source) << what;
}

// Every catalog device, written as a device file and read back, is the same description.
TEST(DeviceFile, EveryCatalogDeviceRoundTrips) {
  for (const hml::device* d : hml::devices::all) {
    SCOPED_TRACE(d->id);
    const hml::loaded_device file = hml::read_device_json(hml::to_device_json(*d));
    const hml::device& r = file.machine();
    EXPECT_EQ(r.id, d->id);
    EXPECT_EQ(r.name, d->name);
    EXPECT_EQ(r.note, d->note);
    EXPECT_EQ(r.cores, d->cores);
    expect_same(d->clock, r.clock, "clock");
    ASSERT_EQ(r.memory.size(), d->memory.size());
    for (std::size_t i = 0; i < d->memory.size(); ++i) {
      const hml::level_description& a = d->memory[i];
      const hml::level_description& b = r.memory[i];
      EXPECT_EQ(b.name, a.name);
      EXPECT_EQ(b.scope, a.scope);
      expect_same(a.capacity, b.capacity, "capacity");
      expect_same(a.bandwidth, b.bandwidth, "bandwidth");
      expect_same(a.write_bandwidth, b.write_bandwidth, "write bandwidth");
      expect_same(a.measured_bandwidth, b.measured_bandwidth, "measured bandwidth");
      expect_same(a.latency, b.latency, "latency");
      EXPECT_EQ(b.interface.channels, a.interface.bus_bits > 0 ? a.interface.channels : 1u);
      EXPECT_EQ(b.interface.bus_bits, a.interface.bus_bits);
      expect_same(a.interface.pin_rate, b.interface.pin_rate, "pin rate");
    }
    ASSERT_EQ(r.compute.size(), d->compute.size());
    for (std::size_t i = 0; i < d->compute.size(); ++i) {
      const hml::ceiling_description& a = d->compute[i];
      const hml::ceiling_description& b = r.compute[i];
      EXPECT_TRUE(b.kind() == a.kind());
      EXPECT_EQ(b.variant, a.variant);
      expect_same(a.dense, b.dense, "dense");
      expect_same(a.sparse, b.sparse, "sparse");
      expect_same(a.measured, b.measured, "measured");
    }
    // The sources it cites, with their titles and places.
    const std::vector<std::string_view> cited = hml::cited_sources(*d);
    ASSERT_EQ(file.sources().size(), cited.size());
    for (std::size_t i = 0; i < cited.size(); ++i) {
      EXPECT_EQ(file.sources()[i].key, cited[i]);
      EXPECT_EQ(file.sources()[i].where, hml::devices::find_source(cited[i])->where);
    }
  }
}

TEST(DeviceFile, ErrorsNameTheField) {
  const std::string ok_memory = R"("memory": [{"name": "DRAM", "bandwidth": "100 GB/s"}])";
  const std::string ok_compute = R"("compute": [{"precision": "fp32", "unit": "vector", "dense": "1 TFLOP/s"}])";
  const auto file = [&](std::string_view extra, std::string memory = "", std::string compute = "") {
    return "{\"id\": \"x\", \"name\": \"X\", " + std::string{extra} + (memory.empty() ? ok_memory : memory) + ", " +
           (compute.empty() ? ok_compute : compute) + "}";
  };
  EXPECT_EQ(error_of(file("")), "accepted");
  EXPECT_TRUE(error_of("").starts_with("device.json:1: not JSON: ")) << error_of("");
  EXPECT_EQ(error_of("42"), "device.json:1: the top level: expected an object, not 42; see docs/reference/machine-file.md");
  // A number too large for a double is nlohmann's out_of_range, not a parse_error (found by fuzz.device_file).
  EXPECT_EQ(error_of("1E99999"), "device.json:1: the top level: \"1E99999\" is past a double's range; see docs/reference/machine-file.md");
  // ... placed at its line and field as every reader places a figure (the sixty-ninth trial: no line, no field).
  EXPECT_EQ(error_of(file("\"cores\": 1e400, ")), "device.json:1: cores: \"1e400\" is past a double's range; see docs/reference/machine-file.md");
  EXPECT_EQ(error_of(file("\"colour\": \"red\", ")),
            "device.json:1: colour: unknown field; expected one of id, name, cores, clock, note, sources, memory, compute");
  // A value of the wrong type is shown as the machine file's reader shows it: text quoted, and a whole number
  // in quotes told to drop them.
  EXPECT_EQ(error_of(file("\"cores\": \"108\", ")), "device.json:1: cores: expected a whole number, not the text \"108\"; write it without quotes");
  EXPECT_EQ(error_of(file("\"cores\": true, ")), "device.json:1: cores: expected a whole number, not true; write one, as 8");
  EXPECT_EQ(error_of(file("\"cores\": \"many\", ")), "device.json:1: cores: expected a whole number, not the text \"many\"; write one, as 8");
  EXPECT_EQ(error_of(file("", R"("memory": [])")), "device.json:1: memory: needs at least one entry; see docs/reference/machine-file.md");
  EXPECT_EQ(error_of(file("", R"("memory": {"name": "DRAM"})")), "device.json:1: memory: expected a list, not an object; see docs/reference/machine-file.md");
  EXPECT_EQ(error_of(file("", R"("memory": [{"name": "DRAM", "bandwidth": 100}])")),
            "device.json:1: memory[0].bandwidth: expected a quantity with its unit as a string (\"2 TB/s\"), not 100; see docs/reference/machine-file.md");
  EXPECT_TRUE(error_of(file("", R"("memory": [{"name": "DRAM", "bandwidth": "100 GB"}])"))
                  .starts_with("device.json:1: memory[0].bandwidth: cannot read \"100 GB\" as a data rate"));
  EXPECT_EQ(error_of(file("", R"("memory": [{"name": "DRAM", "bandwidth": "nan GB/s"}])")).substr(0, 35),
            "device.json:1: memory[0].bandwidth:");
  EXPECT_EQ(error_of(file("", R"("memory": [{"name": "DRAM", "latency": "1 ns"}])")),
            "device.json:1: memory[0]: main memory (the last level) needs a bandwidth or a measured_bandwidth; see docs/reference/machine-file.md");
  EXPECT_EQ(error_of(file("", R"("memory": [{"name": "DRAM", "bandwidth": "1 GB/s", "scope": "local"}])")),
            "device.json:1: memory[0].scope: \"local\" is not one of shared, per_core; write one of them");
  EXPECT_EQ(error_of(file("", R"("memory": [{"name": "DRAM", "bandwidth": "1 GB/s", "interface": {"channels": 2}}])")),
            "device.json:1: memory[0].interface.bus_bits: missing; see docs/reference/machine-file.md");
  EXPECT_EQ(error_of(file("", "", R"("compute": [{"precision": "fp32", "unit": "vector"}])")),
            "device.json:1: compute[0]: needs a dense or a measured peak; see docs/reference/machine-file.md");
  EXPECT_EQ(error_of(file("", "", R"("compute": [{"unit": "vector", "dense": "1 TFLOP/s"}])")),
            "device.json:1: compute[0].precision: missing; add it");
  EXPECT_EQ(error_of(file(R"("sources": [{"key": "a", "title": "A", "where": "a"}, {"key": "a", "title": "B", "where": "b"}], )")),
            "device.json:1: sources[1].key: 'a' is listed twice; see docs/reference/machine-file.md");
  EXPECT_EQ(error_of(file("", R"("memory": [{"name": "DRAM", "bandwidth": {"value": "1 GB/s", "source": "a"}}])")),
            "device.json:1: memory[0].bandwidth.source: 'a' is not in the file's sources; see docs/reference/machine-file.md");
  EXPECT_EQ(error_of(file("", R"("memory": [{"name": "DRAM", "bandwidth": {"kind": "stated"}}])")),
            "device.json:1: memory[0].bandwidth.value: missing; see docs/reference/machine-file.md");
  std::string seven_levels = R"("memory": [)";
  for (int i = 0; i < 7; ++i) seven_levels += std::string{i == 0 ? "" : ", "} + R"({"name": "L", "bandwidth": "1 GB/s"})";
  EXPECT_EQ(error_of(file("", seven_levels + "]")), "device.json:1: memory: has 7 entries; at most 6");

  // Across lines, each error names the line of its field; a key given twice (nlohmann would keep the last,
  // so a second "bandwidth" would replace the first silently), a NUL, a control character in a name and a
  // core count past hml::max_cores are refused.
  const std::string lines = "{\n  \"id\": \"x\",\n  \"name\": \"X\",\n  \"memory\": [{\"name\": \"DRAM\",\n"
                            "    \"bandwidth\": \"2039 GB/s\",\n    \"bandwidth\": \"1 GB/s\"}],\n  " +
                            ok_compute + "\n}\n";
  EXPECT_EQ(error_of(lines), "device.json:6: memory[0].bandwidth: given twice (first on line 5); give it once");
  EXPECT_EQ(error_of("{\n  \"id\": \"x\",\n  \"name\": \"X\",\n  \"cores\": -1,\n  " + ok_memory + ", " + ok_compute + "}"),
            "device.json:4: cores: -1 is outside [1, 65536]; write a number within it");
  EXPECT_EQ(error_of(file("\"cores\": 1048576, ")), "device.json:1: cores: 1048576 is outside [1, 65536]; write a number within it");
  EXPECT_EQ(error_of("{\n  \"id\": \"x\",\n  \"name\": \"X\\u001b[2J\",\n  " + ok_memory + ", " + ok_compute + "}"),
            "device.json:3: name: a control character or a byte that is not UTF-8 (\\x1b, character 2); write printable UTF-8 text, "
            "on one line");
  EXPECT_EQ(error_of("{\n  \"id\": \"x\",\n  \"name\":\n  \"X\"\n  \"memory\": []}"),
            "device.json:5: not JSON: a string where ',' or '}' should be (a ',' missing?)");
  EXPECT_TRUE(error_of(std::string{"{\"id\": \"x\",\n\0"}).starts_with("device.json:2: not JSON: ")) << error_of(std::string{"{\"id\": \"x\",\n\0"});
}

}  // namespace
