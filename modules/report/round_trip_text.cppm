// hml.report:round_trip_text (internal) — quantities as hml's files write them: the fewest digits that read
// back as the very same double, so that a file written and read again holds the same machine.
module;
#include <stdexcept>
#include <string>
#include <type_traits>
module hml.report:round_trip_text;
import hml.units;
import :csv;  // detail::append_shortest

namespace hml::detail {

// "3.35 TB/s", "256 KiB", "80 GB", "1.98 GHz", "100 ns": the fewest digits, with the prefix hml prints
// (decimal, or binary for a size that is a whole number of KiB, MiB, ... only), that read back as the very
// same double; the base unit's 17 digits, which always do, where no prefixed text does (its division by
// the prefix rounds).
template <class Q>
bool reads_back_as(const std::string& text, Q q) {
  try {
    return parse<Q>(text).value() == q.value();
  } catch (const std::invalid_argument&) {
    return false;  // a prefix the reader does not take: the next text, or the base unit's
  }
}

// In bits where `information` says so and some text in bits reads back ("5.24 Gbit/s", a pin's rate as
// datasheets give it), else in bytes.
template <class Q>
std::string round_trip_text(Q q, information_unit information = information_unit::bytes) {
  const prefix_system prefixes = std::is_same_v<Q, data_size> ? prefix_system::automatic : prefix_system::decimal;
  // From 3 digits: %g-style general formatting writes 50 as "5e+01" at fewer, and a prefixed number is below 1000.
  for (const information_unit unit : {information, information_unit::bytes}) {
    for (int digits = 3; digits <= 17; ++digits) {
      std::string text = to_string(q, {.number = general(digits), .prefixes = prefixes, .information = unit});
      if (reads_back_as(text, q)) return text;
    }
  }
  return to_string(q, {.number = general(17), .unit = base_unit_symbol(dimension_of<Q>)});
}

// "32 B/cy": the shortest digits that read back as the same double (no prefixes: B/cy is no hml unit).
std::string per_cycle_text(bytes_per_cycle r) {
  std::string text;
  detail::append_shortest(text, r.value());
  return text + " B/cy";
}

}  // namespace hml::detail
