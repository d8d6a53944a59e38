// libFuzzer target: the catalog's lookups by name (`--machine NAME`, `--model`, `--link`, `--system`,
// `--precision`) on arbitrary bytes. Either an entry comes back, or std::invalid_argument (an unknown name,
// with its did-you-mean); anything else, or a suggestion that is not a catalog id, is a finding.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <string_view>

import hml;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::string_view name{reinterpret_cast<const char*>(data) + 1, size - 1};
  try {
    switch (data[0] % 5) {
      case 0: {
        const hml::machine_description& m = hml::machine_named(name);
        if (hml::find_machine(m.id) != &m) std::abort();  // found again by its own id
        break;
      }
      case 1: (void)hml::model_named(name); break;
      case 2: hml::validate(hml::link_named(name)); break;
      case 3: (void)hml::system_named(name); break;
      default: (void)hml::precision_named(name); break;
    }
  } catch (const hml::unknown_name_error& e) {
    for (const std::string_view id : e.suggestions()) {
      if (data[0] % 5 == 0 && hml::find_machine(id) == nullptr) std::abort();
    }
  } catch (const std::invalid_argument&) {
  }
  return 0;
}
