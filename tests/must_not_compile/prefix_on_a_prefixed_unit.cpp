// A prefix on a unit that already has one: giga(gigabyte) would be 1e18 bytes. Prefixes apply to base units.
// expected-error: call to consteval function 'hml::giga<.*>' is not a constant expression|constexpr variable 'exabyte' must be initialized by a constant expression
// expected-note: in call to 'expects\(false, &"hml: a prefix applies to a unit without one
import hml;

#ifdef HML_MUST_NOT_COMPILE
[[maybe_unused]] constexpr auto exabyte = hml::giga(hml::gigabyte);
#else
[[maybe_unused]] constexpr auto gigabyte = hml::giga(hml::byte);
#endif
