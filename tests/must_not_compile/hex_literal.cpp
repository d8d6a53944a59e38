// A hexadecimal literal with a unit suffix; hml literals are decimal only (no 0x, no 0b): write 16_GB.
// expected-error: call to consteval function 'hml::literals::operator""_GB<'0', 'x', '1', '0'>' is not a constant expression
import hml;

using namespace hml::literals;

namespace {

[[maybe_unused]] void capacity() {
#ifdef HML_MUST_NOT_COMPILE
  [[maybe_unused]] const hml::data_size hbm = 0x10_GB;
#else
  [[maybe_unused]] const hml::data_size hbm = 16_GB;
#endif
}

}  // namespace
