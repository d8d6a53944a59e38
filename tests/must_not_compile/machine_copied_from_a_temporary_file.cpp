// A copy of a temporary file's machine views the file's text after the file is gone (the forty-eighth
// trial's program compiled without a warning, and read freed memory): the machine is a gsl::Pointer of the
// file, so clang says so, as it does of a reference to it.
// expected-error: object backing the pointer will be destroyed at the end of the full-expression
#include <string_view>
import hml;

constexpr std::string_view text = "format: hml-machine/1\nid: x\nname: X\n";

[[maybe_unused]] std::string_view machine_id() {
#ifdef HML_MUST_NOT_COMPILE
  const hml::machine_description machine = hml::read_machine_file(text, "x.yaml").machine();
#else
  const hml::machine_file file = hml::read_machine_file(text, "x.yaml");
  const hml::machine_description machine = file.machine();
#endif
  return machine.id;
}
