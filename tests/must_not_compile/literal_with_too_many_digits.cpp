// A literal with more than 19 significant digits, more than the parser holds exactly: a double keeps 17, write those.
// expected-error: call to consteval function 'hml::literals::operator""_s<'3', '.', '1', '4', '1', '5', '9', '2', '6', '5', '3', '5', '8', '9', '7', '9', '3', '2', '3', '8', '4', '6'>' is not a constant expression
import hml;

using namespace hml::literals;

namespace {

[[maybe_unused]] void constants() {
#ifdef HML_MUST_NOT_COMPILE
  [[maybe_unused]] const hml::duration t = 3.14159265358979323846_s;
#else
  [[maybe_unused]] const hml::duration t = 3.141592653589793_s;
#endif
}

}  // namespace
