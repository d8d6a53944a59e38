// A machine file's descriptions view the text it owns: a reference to the machine of a file read and
// destroyed in one expression dangles (the forty-fourth trial's program compiled, and crashed reading it).
// expected-error: temporary bound to local reference 'machine' will be destroyed at the end of the full-expression
#include <string_view>
import hml;

constexpr std::string_view text = "format: hml-machine/1\nid: x\nname: X\n";

[[maybe_unused]] std::string_view machine_id() {
#ifdef HML_MUST_NOT_COMPILE
  const hml::machine_description& machine = hml::read_machine_file(text, "x.yaml").machine();
#else
  const hml::machine_file file = hml::read_machine_file(text, "x.yaml");
  const hml::machine_description& machine = file.machine();
#endif
  return machine.id;
}
