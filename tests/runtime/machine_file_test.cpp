// The one machine file format: every catalog machine, link and system written in YAML and in JSON reads
// back as the same description, and every kind of bad input is one line naming the file, the line and the
// field.
#include <gtest/gtest.h>

#include <clocale>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>

#include <unistd.h>

import hml;

namespace {

using hml::file_syntax;

std::string error_of(std::string_view text) {
  try {
    (void)hml::read_machine_file(text, "m.yaml");
  } catch (const hml::machine_file_error& e) {
    return e.what();
  }
  return "accepted";
}

TEST(MachineFile, EveryCatalogMachineRoundTripsInBothSyntaxes) {
  for (const file_syntax syntax : {file_syntax::yaml, file_syntax::json}) {
    for (const hml::machine_description* m : hml::machines::all) {
      const std::string text = hml::write_machine_file(*m, syntax);
      const hml::machine_file file = hml::read_machine_file(text, "written");
      EXPECT_TRUE(file.machine() == *m) << m->id << "\n" << text;
      // The sources it cites come with it, so the file stands alone.
      for (const hml::source& s : file.sources()) EXPECT_EQ(s, *hml::catalog_source(s.key)) << s.key;
      EXPECT_EQ(hml::write_machine_file(file.machine(), syntax, file.sources()), text) << m->id;
    }
  }
  // Skylake-SP's L3 is a victim cache, and the file says so.
  const std::string skx = hml::write_machine_file(hml::cpus::skylake_sp_gold_6148, file_syntax::yaml);
  EXPECT_TRUE(hml::read_machine_file(skx, "skx").machine().memory[2].victim) << skx;
  EXPECT_NE(skx.find("victim: true"), std::string::npos) << skx;
}

// A shipped example whose id is a built-in entry's is that entry: every figure, its kind and its source, so
// that a user who starts from the file gets the built-in entry's results (issue 30's "shipped example files
// agree with the built-in entries").
TEST(MachineFile, ShippedExampleMachinesAreTheBuiltInEntries) {
  namespace fs = std::filesystem;
  std::size_t compared = 0;
  for (const fs::directory_entry& entry : fs::recursive_directory_iterator{fs::path{HML_SOURCE_DIR} / "examples"}) {
    const std::string extension = entry.path().extension().string();
    if (!entry.is_regular_file() || (extension != ".yml" && extension != ".yaml" && extension != ".json")) continue;
    std::ostringstream text;
    text << std::ifstream{entry.path()}.rdbuf();
    if (!hml::is_machine_file(text.str())) continue;
    const hml::machine_file file = hml::read_machine_file(text.str(), entry.path().string());
    for (const hml::machine_description* m : file.machines()) {
      const hml::machine_description* builtin = hml::find_machine(m->id);
      if (builtin == nullptr) continue;
      EXPECT_TRUE(*m == *builtin) << entry.path() << ": " << m->id;
      EXPECT_EQ(hml::write_machine_file(*m, file_syntax::yaml, file.sources()),
                hml::write_machine_file(*builtin, file_syntax::yaml))
          << entry.path();
      ++compared;
    }
  }
  EXPECT_GE(compared, 1U) << "examples/ecm/sandy_bridge_ep.yml is snb_e5_2680";
}

TEST(MachineFile, TheWholeCatalogRoundTripsAsOneDocument) {
  const hml::machine_document catalog{hml::machines::all, hml::systems::links, hml::systems::all};
  for (const file_syntax syntax : {file_syntax::yaml, file_syntax::json}) {
    const std::string text = hml::write_machine_file(catalog, syntax);
    const hml::machine_file file = hml::read_machine_file(text, "catalog");
    ASSERT_EQ(file.machines().size(), hml::machines::all.size());
    for (std::size_t i = 0; i < file.machines().size(); ++i) EXPECT_TRUE(*file.machines()[i] == *hml::machines::all[i]) << i;
    ASSERT_EQ(file.links().size(), hml::systems::links.size());
    for (std::size_t i = 0; i < file.links().size(); ++i) EXPECT_TRUE(*file.links()[i] == *hml::systems::links[i]) << i;
    ASSERT_EQ(file.systems().size(), hml::systems::all.size());
    for (std::size_t i = 0; i < file.systems().size(); ++i) {
      const hml::system_description& read = *file.systems()[i];
      const hml::system_description& given = *hml::systems::all[i];
      EXPECT_EQ(read.id, given.id);
      EXPECT_EQ(read.name, given.name);
      EXPECT_EQ(read.note, given.note);
      // Joined to the file's own machines and links, equal to the catalog's.
      EXPECT_TRUE(*read.host == *given.host) << given.id;
      EXPECT_TRUE(*read.device == *given.device) << given.id;
      EXPECT_EQ(read.joined_by == nullptr, given.joined_by == nullptr);
      if (given.joined_by != nullptr) EXPECT_TRUE(*read.joined_by == *given.joined_by) << given.id;
    }
    EXPECT_EQ(hml::write_machine_file(hml::machine_document{file.machines(), file.links(), file.systems()}, syntax,
                                      file.sources()),
              text);
  }
}

TEST(MachineFile, QuantitiesAreWrittenWithTheirUnitsAndStatedBesideMeasured) {
  const std::string yaml = hml::write_machine_file(hml::devices::h100_sxm, file_syntax::yaml);
  EXPECT_NE(yaml.find("format: hml-machine/1\n"), std::string::npos) << yaml;
  EXPECT_NE(yaml.find("bandwidth: {value: 3.35 TB/s, kind: stated, source: nvidia-h100-datasheet}"), std::string::npos)
      << yaml;
  EXPECT_NE(yaml.find("measured_bandwidth: {value: 2.97 TB/s, kind: measured, source: azure-babelstream}"),
            std::string::npos)
      << yaml;
  const std::string cpu = hml::write_machine_file(hml::cpus::sandy_bridge_ep_e5_2680, file_syntax::json);
  EXPECT_NE(cpu.find("\"value\": \"32 KiB\""), std::string::npos) << cpu;
  EXPECT_NE(cpu.find("\"value\": \"32 B/cy\""), std::string::npos) << cpu;
  EXPECT_NE(cpu.find("\"layer_condition_share\": 1.0"), std::string::npos) << cpu;
  EXPECT_NE(cpu.find("\"llvm_cpu\": \"sandybridge\""), std::string::npos) << cpu;
}

TEST(MachineFile, AMachineNeedsTheFormatAndItsNameIdAndMemory) {
  EXPECT_EQ(error_of("id: x\nname: X\nmemory: [{name: M, bandwidth: 1 GB/s}]\n"), "m.yaml:1: format: missing; add `format: hml-machine/1` as its first line");
  EXPECT_EQ(error_of("format: hml-machine/2\nid: x\n"),
            "m.yaml:1: format: \"hml-machine/2\" is not a format this hml reads; expected hml-machine/1");
  EXPECT_EQ(error_of("format: hml-machine/1\nid: x\nname: X\n"), "m.yaml:1: memory: missing; see docs/reference/machine-file.md");
  EXPECT_EQ(error_of("format: hml-machine/1\nid: x\nname: X\nmemory: []\n"), "m.yaml:4: memory: needs at least main memory; see docs/reference/machine-file.md");
}

TEST(MachineFile, DuplicateKeysUnknownFieldsAndNonFiniteNumbersAreRefusedWithTheLine) {
  const std::string head = "format: hml-machine/1\nid: x\nname: X\n";
  // A second "bandwidth" would otherwise replace the first (JSON's habit) or be dropped (YAML's).
  EXPECT_EQ(error_of(head + "memory:\n  - name: HBM\n    bandwidth: 2039 GB/s\n    bandwidth: 1 GB/s\n"),
            "m.yaml:7: memory[0].bandwidth: given twice (first on line 6); give it once");
  EXPECT_EQ(error_of(R"({"format": "hml-machine/1", "id": "x", "id": "y"})"), "m.yaml:1: id: given twice (first on line 1); give it once");
  EXPECT_EQ(error_of(head + "memory: [{name: M, bandwidht: 1 GB/s}]\n"),
            "m.yaml:4: memory[0].bandwidht: unknown field; did you mean bandwidth?");
  EXPECT_EQ(error_of(head + "memory: [{name: M, colour: red}]\n").substr(0, 59),
            "m.yaml:4: memory[0].colour: unknown field; expected one of ");
  EXPECT_EQ(error_of(head + "memory: [{name: M, bandwidth: inf GB/s}]\n").substr(0, 31), "m.yaml:4: memory[0].bandwidth: ");
  EXPECT_EQ(error_of(head + "layer_condition_share: nan\nmemory: [{name: M, bandwidth: 1 GB/s}]\n"),
            "m.yaml:4: layer_condition_share: \"nan\" is not a finite number; write a decimal number, as 2.5");
  EXPECT_EQ(error_of(head + "memory: [{name: M, bandwidth: 1 Gbit}]\n").substr(0, 31), "m.yaml:4: memory[0].bandwidth: ");
  EXPECT_EQ(error_of(head + "memory: [{name: M, bandwidth: {value: 1 GB/s, source: nowhere}}]\n"),
            "m.yaml:4: memory[0].bandwidth.source: \"nowhere\" is in no list of sources; see docs/reference/machine-file.md");
  EXPECT_EQ(error_of(head + "cores: 4294967297\nmemory: [{name: M, bandwidth: 1 GB/s}]\n"),
            "m.yaml:4: cores: 4294967297 is outside [1, 65536]; write a whole number within it");
  // A tag asks for a type hml does not read; yaml-cpp dropped it and kept the text.
  EXPECT_EQ(error_of(head + "note: !!binary aGVsbG8=\nmemory: [{name: M, bandwidth: 1 GB/s}]\n"),
            "m.yaml:4: note: the tag !!binary is not read; give the value without it");
  EXPECT_EQ(error_of(head + "memory: [{name: !foo M, bandwidth: 1 GB/s}]\n"),
            "m.yaml:4: memory[0].name: the tag !foo is not read; give the value without it");
  // Nesting: yaml-cpp recursed 100,000 levels into its own "bad file"; quoted brackets do not count, and an
  // apostrophe inside plain text opens no quote.
  EXPECT_EQ(error_of(head + "note: " + std::string(100'000, '[') + std::string(100'000, ']') + "\n"),
            "m.yaml:4: nested more than 64 levels deep ([ and {); a machine or kernel file nests a few");
  // Nesting by indentation reached yaml-cpp's own depth guard, whose message was "bad file" (the
  // forty-second trial).
  std::string indented = head + "note:\n";
  for (int level = 1; level <= 600; ++level) indented += std::string(static_cast<std::size_t>(level), ' ') + "-\n";
  EXPECT_TRUE(error_of(indented).ends_with(": not YAML: nested deeper than the YAML reader follows; a machine or kernel file nests a few levels"))
      << error_of(indented);
  EXPECT_EQ(error_of(head + "note: \"" + std::string(100, '[') + "\"\nmemory: [{name: M, bandwidth: 1 GB/s}]\n"), "accepted");
  EXPECT_EQ(error_of(head + "note: Intel's " + std::string(100, '{') + "\nmemory: [{name: M, bandwidth: 1 GB/s}]\n")
                .substr(0, 20),
            "m.yaml:4: nested mor");
  EXPECT_EQ(error_of(head + "memory:\n  - {name: HBM, bandwidth: 2 TB/s}\n  - {name: HBM, bandwidth: 1 TB/s}\n"),
            "m.yaml:6: memory[1].name: \"HBM\" names memory[0] too; give each level a name of its own");
  EXPECT_EQ(error_of(head + "llvm_cpu: Sandy Bridge\nmemory: [{name: M, bandwidth: 1 GB/s}]\n"),
            "m.yaml:4: llvm_cpu: expected LLVM's name of a CPU, as clang's -march takes it (\"sandybridge\", \"znver4\"), "
            "not \"Sandy Bridge\"; see docs/reference/machine-file.md");
  EXPECT_EQ(error_of(head + "llvm_cpu: znver4\nmemory: [{name: M, bandwidth: 1 GB/s}]\n"), "accepted");
  // A kernel's fixed cost is a duration of microseconds.
  EXPECT_EQ(error_of(head + "kernel_overhead: 4 GB\nmemory: [{name: M, bandwidth: 1 GB/s}]\n").substr(0, 27),
            "m.yaml:4: kernel_overhead: ");
  EXPECT_EQ(error_of(head + "kernel_overhead: 2 s\nmemory: [{name: M, bandwidth: 1 GB/s}]\n"),
            "m.yaml:4: kernel_overhead: must be from 1 ns to 1 ms (a kernel's fixed cost is microseconds), not 2 s; see docs/reference/machine-file.md");
  EXPECT_EQ(error_of(head + "kernel_overhead: -4 us\nmemory: [{name: M, bandwidth: 1 GB/s}]\n").substr(0, 27),
            "m.yaml:4: kernel_overhead: ");
  EXPECT_EQ(error_of(head + "kernel_overhead: 4.5 us\nmemory: [{name: M, bandwidth: 1 GB/s}]\n"), "accepted");
  // An attention rate is FLOP per second, above zero.
  EXPECT_EQ(error_of(head + "attention_rate: 347 TB/s\nmemory: [{name: M, bandwidth: 1 GB/s}]\n").substr(0, 26),
            "m.yaml:4: attention_rate: ");
  EXPECT_EQ(error_of(head + "attention_rate: 0 TFLOP/s\nmemory: [{name: M, bandwidth: 1 GB/s}]\n").substr(0, 26),
            "m.yaml:4: attention_rate: ");
  const std::string bf16 = "compute: [{precision: bf16, unit: tensor, dense: 989 TFLOP/s}]\n";
  EXPECT_EQ(error_of(head + "attention_rate: 347 TFLOP/s\nmemory: [{name: M, bandwidth: 1 GB/s}]\n" + bf16), "accepted");
  // ... of 16-bit tensor work: a machine without such a peak has nothing to bound it, and no model takes it
  // there (the seventieth trial: 1 PFLOP/s on a chip of 5.2 TFLOP/s was accepted).
  EXPECT_EQ(error_of(head + "attention_rate: 347 TFLOP/s\nmemory: [{name: M, bandwidth: 1 GB/s}]\n"),
            "m.yaml:4: attention_rate: the machine has no BF16 or FP16 tensor peak, whose work attention is; give that "
            "peak, or leave the attention rate out");
  EXPECT_EQ(error_of(head + "attention_rate: 1 PFLOP/s\nmemory: [{name: M, bandwidth: 1 GB/s}]\n"
                            "compute: [{precision: fp32, unit: vector, dense: 5.2 TFLOP/s}]\n").substr(0, 60),
            "m.yaml:4: attention_rate: the machine has no BF16 or FP16 te");
  // An INT4 weight rate is a kernel's below main memory's bandwidth (the faster of stated and measured), and
  // more than 1 % of it.
  const std::string hbm = "memory: [{name: HBM, bandwidth: 3.35 TB/s, measured_bandwidth: 2.97 TB/s}]\n";
  EXPECT_EQ(error_of(head + "int4_weight_rate: 1.924 TB/s\n" + hbm), "accepted");
  EXPECT_EQ(error_of(head + "int4_weight_rate: 3.4 TB/s\n" + hbm),
            "m.yaml:4: int4_weight_rate: 3.4 TB/s is above main memory's 3.35 TB/s: the rate is a dequantizing "
            "kernel's below the memory's, where it binds; see docs/reference/machine-file.md");
  EXPECT_EQ(error_of(head + "int4_weight_rate: 1.924 GB/s\n" + hbm),
            "m.yaml:4: int4_weight_rate: 1.924 GB/s is less than 1 % of main memory's 3.35 TB/s: check the unit's prefix; see docs/reference/machine-file.md");
  EXPECT_EQ(error_of(head + "int4_weight_rate: 1.9 TFLOP/s\n" + hbm).substr(0, 28), "m.yaml:4: int4_weight_rate: ");
  // A rate the weights are read at: bytes, a bit rate refused as a memory's bandwidth is (the twenty-ninth
  // trial: 1.924 Tbit/s was taken as 240.5 GB/s, the INT4 decode step 4.3 times longer).
  EXPECT_EQ(error_of(head + "int4_weight_rate: 1.924 Tbit/s\n" + hbm),
            "m.yaml:4: int4_weight_rate: cannot read \"1.924 Tbit/s\" as a data rate: \"Tbit/s\" at position 6 is bits per "
            "second (240.5 GB/s); a memory's bandwidth is in bytes per second (B/s, not b/s or bit/s): did you mean "
            "\"240.5 GB/s\"?");
  EXPECT_EQ(error_of(head + "ports: {stores_per_cycle: 0.0005}\nmemory: [{name: M, bandwidth: 1 GB/s}]\n"),
            "m.yaml:4: ports.stores_per_cycle: 0.0005 is outside [0.001, 64]; write a number within it");
  // A path is given on the level it comes from: none on the first, and main memory's is half duplex.
  EXPECT_EQ(error_of(head + "memory:\n  - {name: L1, capacity: 32 KiB, upstream: {full_duplex: true}}\n  - {name: M, bandwidth: 1 GB/s}\n"),
            "m.yaml:5: memory[0].upstream: the first level has no level inside it; give the path on the level it comes from");
  EXPECT_EQ(error_of(head + "memory:\n  - {name: L1, capacity: 32 KiB}\n  - {name: M, bandwidth: 1 GB/s, upstream: {full_duplex: true}}\n"),
            "m.yaml:6: memory[1].upstream.full_duplex: main memory's path is half duplex: its bandwidths already count "
            "reads and writes together; see docs/reference/machine-file.md");
  // A memory's bandwidth is in bytes per second: a bit rate there is refused, not read as 8x less (a trial's
  // "800 Gbit/s" became 100 GB/s); a pin rate is in bits.
  EXPECT_EQ(error_of(head + "memory: [{name: M, bandwidth: 800 Gbit/s}]\n"),
            "m.yaml:4: memory[0].bandwidth: cannot read \"800 Gbit/s\" as a data rate: \"Gbit/s\" at position 4 is bits "
            "per second (100 GB/s); a memory's bandwidth is in bytes per second (B/s, not b/s or bit/s): did you mean "
            "\"100 GB/s\"?");
  EXPECT_EQ(error_of(head + "memory: [{name: M, bandwidth: 1 GB/s, measured_bandwidth: {value: 3.35Tbps, kind: measured}}]\n")
                .substr(0, 38),
            "m.yaml:4: memory[0].measured_bandwidth");
  EXPECT_EQ(error_of(head + "memory: [{name: M, bandwidth: 1 GB/s}]\nmemory_bandwidths: [{kernel: copy, reads: 1, writes: 1, "
                            "bandwidth: 25 Gb/s}]\n").substr(0, 36),
            "m.yaml:5: memory_bandwidths[0].bandw");
  EXPECT_EQ(error_of(head + "memory: [{name: M, bandwidth: 38.4 GB/s, interface: {bus_bits: 64, pin_rate: 4.8 Gbit/s}}]\n"), "accepted");
  // A victim cache takes the evictions of a cache inside it: neither the first level nor main memory.
  EXPECT_EQ(error_of(head + "memory:\n  - {name: L1, capacity: 32 KiB, victim: true}\n  - {name: M, bandwidth: 1 GB/s}\n"),
            "m.yaml:5: memory[0].victim: the first level has no level inside it to take victims from; see docs/reference/machine-file.md");
  EXPECT_EQ(error_of(head + "memory:\n  - {name: L1, capacity: 32 KiB}\n  - {name: M, bandwidth: 1 GB/s, victim: true}\n"),
            "m.yaml:6: memory[1].victim: main memory (the last level) is no cache: a victim cache is a cache level "
            "outside another; see docs/reference/machine-file.md");
  EXPECT_EQ(error_of(head + "memory:\n  - {name: L1, capacity: 32 KiB}\n  - {name: L2, capacity: 1 MiB, victim: yes}\n"
                            "  - {name: M, bandwidth: 1 GB/s}\n").substr(0, 26),
            "m.yaml:6: memory[1].victim");
  EXPECT_EQ(error_of(head + "memory:\n  - {name: L1, capacity: 32 KiB}\n  - {name: L2, capacity: 1 MiB, victim: true}\n"
                            "  - {name: M, bandwidth: 1 GB/s}\n"),
            "accepted");
  // Names and notes go into tables and SVG as they are: no control characters, only UTF-8.
  EXPECT_EQ(error_of(head + "note: \"a\\x19b\"\nmemory: [{name: M, bandwidth: 1 GB/s}]\n"),
            "m.yaml:4: note: a control character or a byte that is not UTF-8 (\\x19, character 2); write printable UTF-8 text, "
            "on one line");
  // A byte that is not UTF-8 anywhere in the file (a comment too) is the file's: it is not UTF-8 text.
  EXPECT_EQ(error_of(head + "note: caf\xc3\nmemory: [{name: M, bandwidth: 1 GB/s}]\n"),
            "m.yaml:4: a byte that is not UTF-8 (0xC3); save the file as UTF-8");
  EXPECT_EQ(error_of(head + "note: caf\xc3\xa9\nmemory: [{name: M, bandwidth: 1 GB/s}]\n"), "accepted");
}

TEST(MachineFile, ASecondDocumentAndBinaryDataAreRefused) {
  const std::string machine = "format: hml-machine/1\nid: x\nname: X\nmemory: [{name: M, bandwidth: 1 GB/s}]\n";
  EXPECT_EQ(error_of(machine + "---\nid: y\n"), "m.yaml:5: a second document; a file holds one");
  EXPECT_EQ(error_of(machine + "# a comment \0 with a NUL\n"), "accepted");  // a C string ends at the NUL
  EXPECT_EQ(error_of(std::string_view{"format: hml-machine/1\n# \0\n", 25}), "m.yaml:2: not YAML: a NUL byte (binary data, or UTF-16?); give a text file in UTF-8");
  EXPECT_EQ(error_of(""), "m.yaml:1: the file is empty; write its fields");
  EXPECT_EQ(error_of("# nothing yet\n---\n"), "m.yaml:1: the file is empty; write its fields");
  // A null is no empty file, and lines that end in a carriage return alone are said as such (the seventieth
  // trial: "the file is empty; write its fields", and "not YAML: a ':' where no value can start").
  EXPECT_EQ(error_of("# a machine\nnull\n"), "m.yaml:2: a null value (null or ~), not a mapping of fields; write the file's fields");
  EXPECT_EQ(error_of("~"), "m.yaml:1: a null value (null or ~), not a mapping of fields; write the file's fields");
  EXPECT_EQ(error_of("--- null\n"), "m.yaml:1: a null value (null or ~), not a mapping of fields; write the file's fields");
  EXPECT_EQ(error_of("%YAML 1.2\n---\n!!null\n").substr(0, 23), "m.yaml:3: a null value ");
  EXPECT_EQ(error_of("---\n...\n"), "m.yaml:1: the file is empty; write its fields");
  EXPECT_EQ(error_of("---\n... # the end\n"), "m.yaml:1: the file is empty; write its fields");
  EXPECT_EQ(error_of("--- null\n--- null\n"), "m.yaml:2: a second document; a file holds one");
  EXPECT_EQ(error_of("format: hml-machine/1\nid: x\rname: X\r"),
            "m.yaml:2: a line ends with a carriage return alone (an old Mac's line endings), which this reader takes for "
            "no line break; save the file with LF or CRLF line endings");
  // ... in a comment too, where yaml-cpp reads the line after it as more of the comment (the hundred-and-eighth
  // trial: `# comment` CR `cores: 132` lost the cores); one in a value is a control character, said as such.
  EXPECT_EQ(error_of(machine.substr(0, machine.size() - 1) + " # a\rb\n").substr(0, 50), "m.yaml:4: a line ends with a carriage return alone");
  // ... wherever the parser would not fail on it: a JSON file's last byte, a YAML file's last line (it took
  // "\r" for a second document and for a field's name), or beside another fault, said at its own line.
  EXPECT_EQ(error_of("{\"format\": \"hml-machine/1\", \"id\": \"x\"}\r").substr(0, 50), "m.yaml:1: a line ends with a carriage return alone");
  EXPECT_EQ(error_of(machine + "\r").substr(0, 50), "m.yaml:5: a line ends with a carriage return alone");
  EXPECT_EQ(error_of(machine + "  bad: [\n# a\rb\n").substr(0, 41), "m.yaml:6: a line ends with a carriage ret");
  EXPECT_EQ(error_of("format: hml-machine/1\nid: x\nname: \"X\rY\"\nmemory: [{name: M, bandwidth: 1 GB/s}]\n").substr(0, 31),
            "m.yaml:3: name: a control chara");
  std::string crlf = machine;
  for (std::size_t at = crlf.find('\n'); at != std::string::npos; at = crlf.find('\n', at + 2)) crlf.insert(at, "\r");
  EXPECT_EQ(error_of(crlf), "accepted");
  // A field name past YAML's 1,024 bytes is a name to mend, not a value to quote.
  EXPECT_EQ(error_of("format: hml-machine/1\n" + std::string(1100, 'a') + ": 5\n"),
            "m.yaml:2: not YAML: a field name of more than 1024 bytes, YAML's most for a name; hml's fields are short words");
}

// A check made after reading names the field's line as the reader would: the field's, or its level's where it
// is left out, in a file of one machine or of several.
TEST(MachineFile, AFieldsLineIsFoundAfterReading) {
  const hml::machine_file one = hml::read_machine_file(
      "format: hml-machine/1\nid: x\nname: X\nmemory:\n  - {name: L1, capacity: 32 KiB}\n  - name: M\n"
      "    bandwidth: 1 GB/s\n",
      "one.yaml");
  EXPECT_EQ(one.line_of(one.machine(), "memory[1].bandwidth"), 7);
  EXPECT_EQ(one.line_of(one.machine(), "memory[0].scope"), 5);  // left out: its level's line
  EXPECT_EQ(one.line_of(one.machine(), ""), 1);
  EXPECT_EQ(one.line_of(hml::devices::h100_sxm, "memory[0]"), 0);  // not the file's
  const hml::machine_file two = hml::read_machine_file(
      "format: hml-machine/1\nmachines:\n  - {id: a, name: A, memory: [{name: M, bandwidth: 1 GB/s}]}\n"
      "  - id: b\n    name: B\n    memory:\n      - {name: M, bandwidth: 2 GB/s}\n",
      "two.yaml");
  ASSERT_EQ(two.machines().size(), 2u);
  EXPECT_EQ(two.line_of(*two.machines()[1], "memory[0].bandwidth"), 7);
  EXPECT_EQ(two.line_of(*two.machines()[0], "memory[0]"), 3);
}

TEST(MachineFile, ASystemJoinsTheFilesMachinesOrTheCatalogs) {
  const hml::machine_file file = hml::read_machine_file(
      "format: hml-machine/1\n"
      "systems:\n"
      "  - {id: mine, name: Mine, host: xeon_8480_plus, device: h100_pcie, joined_by: pcie5x16}\n",
      "s.yaml");
  ASSERT_EQ(file.systems().size(), 1u);
  EXPECT_EQ(file.systems()[0]->host, &hml::devices::xeon_8480_plus);
  EXPECT_EQ(file.systems()[0]->joined_by, &hml::systems::pcie5_x16);
  EXPECT_EQ(error_of("format: hml-machine/1\nsystems:\n  - {id: s, name: S, host: nope, device: h100_pcie}\n"),
            "m.yaml:3: systems[0].host: no machine \"nope\" in the file or the catalog; see docs/reference/machine-file.md");
  EXPECT_THROW((void)file.machine(), hml::machine_file_error);  // none, where one is wanted
}

}  // namespace

// The forty-fourth trial called the readers and writers from a program of its own.
TEST(MachineFile, PlainNumbersReadTheSameInEveryLocaleAndInDecimalOnly) {
  const std::string head = "format: hml-machine/1\nid: x\nname: X\n";
  const std::string memory = "memory: [{name: M, bandwidth: 1 GB/s}]\n";
  // std::stod read C99's hexadecimal floats, which no other field takes.
  EXPECT_EQ(error_of(head + "layer_condition_share: 0x1p-1\n" + memory),
            "m.yaml:4: layer_condition_share: \"0x1p-1\" is not a number; write a decimal number, as 2.5");
  EXPECT_EQ(error_of(head + "layer_condition_share: 0,5\n" + memory),
            "m.yaml:4: layer_condition_share: \"0,5\" is not a number; write a decimal number, as 2.5");
  // A range's message quotes the value as read: 1.0000001 said "not 1".
  EXPECT_EQ(error_of(head + "layer_condition_share: 1.0000001\n" + memory),
            "m.yaml:4: layer_condition_share: 1.0000001 is outside [0.001, 1]; write a number within it");
  // A program that honours its user's locale (a comma for the decimal point) reads what it wrote. A host
  // without the locale built (a fresh CI machine) gets it from glibc's sources, in a folder of this test's.
  const std::filesystem::path built = std::filesystem::temp_directory_path() / ("hml-locale-" + std::to_string(::getpid()));
  if (std::setlocale(LC_ALL, "de_DE.utf8") == nullptr) {
    std::filesystem::create_directories(built);
    const std::string localedef = "localedef -c -i de_DE -f UTF-8 '" + (built / "de_DE.utf8").string() + "' >/dev/null 2>&1";
    if (std::system(localedef.c_str()) == 0) ::setenv("LOCPATH", built.c_str(), 1);
  }
  const bool comma = std::setlocale(LC_ALL, "de_DE.utf8") != nullptr;
  std::filesystem::remove_all(built);  // loaded: its files are mapped, no longer read
  if (!comma) GTEST_SKIP() << "no de_DE.utf8 locale on this host, and localedef could not build one";
  ASSERT_STREQ(std::localeconv()->decimal_point, ",");
  for (const hml::machine_description* m : hml::cpus::all) {
    const hml::machine_file file = hml::read_machine_file(hml::write_machine_file(*m, file_syntax::yaml), "written.yaml");
    EXPECT_TRUE(file.machine() == *m) << m->id;
  }
  EXPECT_EQ(error_of(head + "layer_condition_share: 0,5\n" + memory),
            "m.yaml:4: layer_condition_share: \"0,5\" is not a number; write a decimal number, as 2.5");
  std::setlocale(LC_ALL, "C");
  ::unsetenv("LOCPATH");
}

TEST(MachineFile, PerCycleRatesKeepTheMagnitudesOfEveryFigure) {
  const std::string machine = "format: hml-machine/1\nid: x\nname: X\nclock: 1 GHz\nmemory:\n  - {name: L1, capacity: 32 KiB}\n"
                              "  - {name: L2, capacity: 1 MiB, upstream: {rate: RATE}}\n  - {name: M, bandwidth: 1 GB/s}\n";
  const auto with_rate = [&](std::string_view rate) {
    std::string text = machine;
    return error_of(text.replace(text.find("RATE"), 4, rate));
  };
  EXPECT_EQ(with_rate("1e-307 B/cy"), "m.yaml:7: memory[1].upstream.rate: 1e-307 B/cy is outside what one core's path moves, 1/65536 to 1024 B a cycle; write a rate within it");
  EXPECT_EQ(with_rate("1e31 B/cy"), "m.yaml:7: memory[1].upstream.rate: 1e+31 B/cy is outside what one core's path moves, 1/65536 to 1024 B a cycle; write a rate within it");
  EXPECT_EQ(with_rate("16 B/cy"), "accepted");
}

TEST(MachineFile, WritersRefuseTextTheReaderWouldRefuse) {
  hml::machine_description m = hml::machine_named("h100_sxm");
  for (const std::string_view name : {std::string_view{"GPU \xff rev"}, std::string_view{"GPU\x1b[2J"},
                                      std::string_view{"GPU\xe2\x80\xa8rev"}}) {
    m.name = name;
    for (const file_syntax syntax : {file_syntax::yaml, file_syntax::json}) {
      try {
        (void)hml::write_machine_file(m, syntax);
        ADD_FAILURE() << "written: " << name;
      } catch (const hml::machine_file_error& e) {
        EXPECT_TRUE(std::string_view{e.what()}.starts_with(
            "hml: cannot write name: a control character or a byte that is not UTF-8 ("))
            << e.what();
      }
    }
  }
}

// Its edit distances to every id took 16 s (a length apart by more than the tolerance is as far in edits),
// and the message quoted the megabyte with its escape sequence raw.
TEST(MachineFile, AnUnknownNameOfAMegabyteIsSaidShort) {
  const std::string name = "\x1b[31m" + std::string(1'000'000, 'x');
  try {
    (void)hml::machine_named(name);
    ADD_FAILURE() << "found";
  } catch (const hml::unknown_name_error& e) {
    const std::string_view what = e.what();
    EXPECT_TRUE(what.starts_with("unknown machine '\\x1b[31mxxx")) << what;
    EXPECT_NE(what.find("xxx... (1000005 bytes)'; known machines: "), std::string_view::npos) << what;
    EXPECT_LT(what.size(), 1000U);
  }
}
