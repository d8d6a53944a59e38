// libFuzzer target: hml::read_machine_file on arbitrary bytes (YAML or JSON). Either a file comes back whose
// machines write and read back as themselves, or hml::machine_file_error; anything else (another
// exception, a crash, a hang, a machine that does not round-trip) is a finding. The seed corpus holds
// machines, a system and the catalog's links, written by `hml devices ... --format yaml|json`.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

import hml;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text{reinterpret_cast<const char*>(data), size};
  try {
    const hml::machine_file file = hml::read_machine_file(text, "fuzz.yaml");
    for (const hml::machine_description* m : file.machines()) {
      const std::string written = hml::write_machine_file(*m, hml::file_syntax::yaml, file.sources());
      const hml::machine_file again = hml::read_machine_file(written, "written.yaml");
      if (!(again.machine() == *m)) std::abort();
    }
  } catch (const hml::machine_file_error&) {
  }
  return 0;
}
