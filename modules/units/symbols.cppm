// hml.units:symbols — the unit spellings the library knows, for reading (parse) and for printing.
//
// One table, one row per spelling: the text, what it measures, and its scale into the base unit (byte,
// second, FLOP, ...) as 10^decimal_exponent x 2^binary_exponent. The scale is kept as two exact exponents
// rather than a double so that a reader can shift the exponent of the decimal text it converts (one
// rounding, bit-identical to the literals) and a printer can tell SI from IEC prefixes. Bits are bytes x
// 2^-3 (IEC 80000-13: b is bit, B is byte). Canonical rows are the ones a printer writes; each canonical
// scale of a dimension has exactly one canonical row. Accepted rows are other spellings people write.
module;
#include <array>
#include <cstddef>
#include <string_view>
export module hml.units:symbols;
import :core;
import hml.format;

export namespace hml {

// What a quantity measures; one per quantity alias of hml.units:core.
enum class dimension : unsigned char {
  data_size,
  duration,
  work,
  data_rate,
  compute_rate,
  arithmetic_intensity,
  frequency,
};

// "data size", "data rate", ...: for messages ("cannot read ... as a data rate").
[[nodiscard]] constexpr std::string_view dimension_name(dimension d) noexcept {
  switch (d) {
    case dimension::data_size: return "data size";
    case dimension::duration: return "duration";
    case dimension::work: return "work";
    case dimension::data_rate: return "data rate";
    case dimension::compute_rate: return "compute rate";
    case dimension::arithmetic_intensity: return "arithmetic intensity";
    case dimension::frequency: return "frequency";
  }
  return "quantity";
}

// Typical units of a dimension, for "expected a data rate such as GB/s or Gbit/s".
// `bytes_only`: none in bits, for a reading that refuses them (parse_options::sizes_in_bytes, rates_in_bytes).
[[nodiscard]] constexpr std::string_view example_units(dimension d, bool bytes_only = false) noexcept {
  switch (d) {
    case dimension::data_size: return bytes_only ? "GB or MiB" : "GB, MiB or Gbit";
    case dimension::duration: return "ns, us or ms";
    case dimension::work: return "GFLOP or TFLOP";
    case dimension::data_rate: return bytes_only ? "GB/s or TB/s" : "GB/s or Gbit/s";
    case dimension::compute_rate: return "TFLOP/s or GFLOPS";
    case dimension::arithmetic_intensity: return "FLOP/B";
    case dimension::frequency: return "MHz or GHz";
  }
  return "";
}

// Whether a printer may write the spelling, or a reader only accepts it.
enum class spelling : unsigned char { canonical, accepted };

struct unit_symbol {
  std::string_view text;
  dimension measures;
  int decimal_exponent;  // 1 text unit = 10^decimal_exponent x 2^binary_exponent base units
  int binary_exponent;
  spelling kind;

  [[nodiscard]] constexpr bool is_canonical() const noexcept { return kind == spelling::canonical; }

  // A size or a rate counted in bits ("Gbit", "Gb", "Gbit/s", "Gbps"): a bit unit names bit or writes b
  // where its byte unit writes B, and no other size or rate has a lower-case b.
  [[nodiscard]] constexpr bool counts_bits() const noexcept {
    return (measures == dimension::data_size || measures == dimension::data_rate) &&
           text.find('b') != std::string_view::npos;
  }

  // The scale as a double: exact when decimal_exponent >= 0, correctly rounded otherwise.
  [[nodiscard]] constexpr double scale() const noexcept {
    return detail::times_power_of_two(detail::power_of_ten(decimal_exponent), binary_exponent);
  }
};

namespace detail::symbol_rows {
constexpr auto canonical = spelling::canonical;
constexpr auto accepted = spelling::accepted;
constexpr auto size = dimension::data_size;
constexpr auto rate = dimension::data_rate;
}  // namespace detail::symbol_rows

// clang-format off
inline constexpr auto unit_symbols = [] {
  using namespace detail::symbol_rows;
  return std::array{
    // Data size: bytes with SI and IEC prefixes, then bits; b is an accepted synonym of bit.
    unit_symbol{"B",     size, 0,  0,  canonical},
    unit_symbol{"kB",    size, 3,  0,  canonical},
    unit_symbol{"MB",    size, 6,  0,  canonical},
    unit_symbol{"GB",    size, 9,  0,  canonical},
    unit_symbol{"TB",    size, 12, 0,  canonical},
    unit_symbol{"PB",    size, 15, 0,  canonical},
    unit_symbol{"EB",    size, 18, 0,  canonical},
    unit_symbol{"KiB",   size, 0,  10, canonical},
    unit_symbol{"MiB",   size, 0,  20, canonical},
    unit_symbol{"GiB",   size, 0,  30, canonical},
    unit_symbol{"TiB",   size, 0,  40, canonical},
    unit_symbol{"PiB",   size, 0,  50, canonical},
    unit_symbol{"EiB",   size, 0,  60, canonical},
    unit_symbol{"bit",   size, 0,  -3, canonical},
    unit_symbol{"kbit",  size, 3,  -3, canonical},
    unit_symbol{"Mbit",  size, 6,  -3, canonical},
    unit_symbol{"Gbit",  size, 9,  -3, canonical},
    unit_symbol{"Tbit",  size, 12, -3, canonical},
    unit_symbol{"Pbit",  size, 15, -3, canonical},
    unit_symbol{"Ebit",  size, 18, -3, canonical},
    unit_symbol{"Kibit", size, 0,  7,  canonical},
    unit_symbol{"Mibit", size, 0,  17, canonical},
    unit_symbol{"Gibit", size, 0,  27, canonical},
    unit_symbol{"Tibit", size, 0,  37, canonical},
    unit_symbol{"Pibit", size, 0,  47, canonical},
    unit_symbol{"Eibit", size, 0,  57, canonical},
    unit_symbol{"b",     size, 0,  -3, accepted},
    unit_symbol{"kb",    size, 3,  -3, accepted},
    unit_symbol{"Mb",    size, 6,  -3, accepted},
    unit_symbol{"Gb",    size, 9,  -3, accepted},
    unit_symbol{"Tb",    size, 12, -3, accepted},
    unit_symbol{"Pb",    size, 15, -3, accepted},
    unit_symbol{"Eb",    size, 18, -3, accepted},
    unit_symbol{"Kib",   size, 0,  7,  accepted},
    unit_symbol{"Mib",   size, 0,  17, accepted},
    unit_symbol{"Gib",   size, 0,  27, accepted},
    unit_symbol{"Tib",   size, 0,  37, accepted},
    unit_symbol{"Pib",   size, 0,  47, accepted},
    unit_symbol{"Eib",   size, 0,  57, accepted},

    // Data rate: every size symbol per second, then the "ps" forms (Bps = byte/s, bps = bit/s).
    unit_symbol{"B/s",     rate, 0,  0,  canonical},
    unit_symbol{"kB/s",    rate, 3,  0,  canonical},
    unit_symbol{"MB/s",    rate, 6,  0,  canonical},
    unit_symbol{"GB/s",    rate, 9,  0,  canonical},
    unit_symbol{"TB/s",    rate, 12, 0,  canonical},
    unit_symbol{"PB/s",    rate, 15, 0,  canonical},
    unit_symbol{"EB/s",    rate, 18, 0,  canonical},
    unit_symbol{"KiB/s",   rate, 0,  10, canonical},
    unit_symbol{"MiB/s",   rate, 0,  20, canonical},
    unit_symbol{"GiB/s",   rate, 0,  30, canonical},
    unit_symbol{"TiB/s",   rate, 0,  40, canonical},
    unit_symbol{"PiB/s",   rate, 0,  50, canonical},
    unit_symbol{"EiB/s",   rate, 0,  60, canonical},
    unit_symbol{"bit/s",   rate, 0,  -3, canonical},
    unit_symbol{"kbit/s",  rate, 3,  -3, canonical},
    unit_symbol{"Mbit/s",  rate, 6,  -3, canonical},
    unit_symbol{"Gbit/s",  rate, 9,  -3, canonical},
    unit_symbol{"Tbit/s",  rate, 12, -3, canonical},
    unit_symbol{"Pbit/s",  rate, 15, -3, canonical},
    unit_symbol{"Ebit/s",  rate, 18, -3, canonical},
    unit_symbol{"Kibit/s", rate, 0,  7,  canonical},
    unit_symbol{"Mibit/s", rate, 0,  17, canonical},
    unit_symbol{"Gibit/s", rate, 0,  27, canonical},
    unit_symbol{"Tibit/s", rate, 0,  37, canonical},
    unit_symbol{"Pibit/s", rate, 0,  47, canonical},
    unit_symbol{"Eibit/s", rate, 0,  57, canonical},
    unit_symbol{"b/s",     rate, 0,  -3, accepted},
    unit_symbol{"kb/s",    rate, 3,  -3, accepted},
    unit_symbol{"Mb/s",    rate, 6,  -3, accepted},
    unit_symbol{"Gb/s",    rate, 9,  -3, accepted},
    unit_symbol{"Tb/s",    rate, 12, -3, accepted},
    unit_symbol{"Pb/s",    rate, 15, -3, accepted},
    unit_symbol{"Eb/s",    rate, 18, -3, accepted},
    unit_symbol{"Kib/s",   rate, 0,  7,  accepted},
    unit_symbol{"Mib/s",   rate, 0,  17, accepted},
    unit_symbol{"Gib/s",   rate, 0,  27, accepted},
    unit_symbol{"Tib/s",   rate, 0,  37, accepted},
    unit_symbol{"Pib/s",   rate, 0,  47, accepted},
    unit_symbol{"Eib/s",   rate, 0,  57, accepted},
    unit_symbol{"Bps",     rate, 0,  0,  accepted},
    unit_symbol{"kBps",    rate, 3,  0,  accepted},
    unit_symbol{"MBps",    rate, 6,  0,  accepted},
    unit_symbol{"GBps",    rate, 9,  0,  accepted},
    unit_symbol{"TBps",    rate, 12, 0,  accepted},
    unit_symbol{"PBps",    rate, 15, 0,  accepted},
    unit_symbol{"EBps",    rate, 18, 0,  accepted},
    unit_symbol{"KiBps",   rate, 0,  10, accepted},
    unit_symbol{"MiBps",   rate, 0,  20, accepted},
    unit_symbol{"GiBps",   rate, 0,  30, accepted},
    unit_symbol{"TiBps",   rate, 0,  40, accepted},
    unit_symbol{"PiBps",   rate, 0,  50, accepted},
    unit_symbol{"EiBps",   rate, 0,  60, accepted},
    unit_symbol{"bps",     rate, 0,  -3, accepted},
    unit_symbol{"kbps",    rate, 3,  -3, accepted},
    unit_symbol{"Mbps",    rate, 6,  -3, accepted},
    unit_symbol{"Gbps",    rate, 9,  -3, accepted},
    unit_symbol{"Tbps",    rate, 12, -3, accepted},
    unit_symbol{"Pbps",    rate, 15, -3, accepted},
    unit_symbol{"Ebps",    rate, 18, -3, accepted},
    unit_symbol{"Kibps",   rate, 0,  7,  accepted},
    unit_symbol{"Mibps",   rate, 0,  17, accepted},
    unit_symbol{"Gibps",   rate, 0,  27, accepted},
    unit_symbol{"Tibps",   rate, 0,  37, accepted},
    unit_symbol{"Pibps",   rate, 0,  47, accepted},
    unit_symbol{"Eibps",   rate, 0,  57, accepted},

    // Duration. "us" is canonical because it is plain ASCII; the micro sign (U+00B5) and the Greek mu
    // (U+03BC, which keyboards often produce instead) are accepted.
    unit_symbol{"ps",         dimension::duration, -12, 0, canonical},  // as hml prints an L1's latency
    unit_symbol{"ns",         dimension::duration, -9, 0, canonical},
    unit_symbol{"us",         dimension::duration, -6, 0, canonical},
    unit_symbol{"ms",         dimension::duration, -3, 0, canonical},
    unit_symbol{"s",          dimension::duration, 0,  0, canonical},
    unit_symbol{"\u00B5s",    dimension::duration, -6, 0, accepted},
    unit_symbol{"\u03BCs",    dimension::duration, -6, 0, accepted},

    // Frequency (clocks).
    unit_symbol{"Hz",  dimension::frequency, 0, 0, canonical},
    unit_symbol{"kHz", dimension::frequency, 3, 0, canonical},
    unit_symbol{"MHz", dimension::frequency, 6, 0, canonical},
    unit_symbol{"GHz", dimension::frequency, 9, 0, canonical},
    unit_symbol{"THz", dimension::frequency, 12, 0, canonical},
    unit_symbol{"PHz", dimension::frequency, 15, 0, canonical},
    unit_symbol{"EHz", dimension::frequency, 18, 0, canonical},

    // Work: a count of floating-point operations.
    unit_symbol{"FLOP",  dimension::work, 0,  0, canonical},
    unit_symbol{"kFLOP", dimension::work, 3,  0, canonical},
    unit_symbol{"MFLOP", dimension::work, 6,  0, canonical},
    unit_symbol{"GFLOP", dimension::work, 9,  0, canonical},
    unit_symbol{"TFLOP", dimension::work, 12, 0, canonical},
    unit_symbol{"PFLOP", dimension::work, 15, 0, canonical},
    unit_symbol{"EFLOP", dimension::work, 18, 0, canonical},

    // Compute rate. FLOPS (FLOP per second) is accepted but never printed: it reads too much like a
    // plural of FLOP, the very mix-up the types exist to prevent.
    unit_symbol{"FLOP/s",  dimension::compute_rate, 0,  0, canonical},
    unit_symbol{"kFLOP/s", dimension::compute_rate, 3,  0, canonical},
    unit_symbol{"MFLOP/s", dimension::compute_rate, 6,  0, canonical},
    unit_symbol{"GFLOP/s", dimension::compute_rate, 9,  0, canonical},
    unit_symbol{"TFLOP/s", dimension::compute_rate, 12, 0, canonical},
    unit_symbol{"PFLOP/s", dimension::compute_rate, 15, 0, canonical},
    unit_symbol{"EFLOP/s", dimension::compute_rate, 18, 0, canonical},
    unit_symbol{"FLOPS",   dimension::compute_rate, 0,  0, accepted},
    unit_symbol{"kFLOPS",  dimension::compute_rate, 3,  0, accepted},
    unit_symbol{"MFLOPS",  dimension::compute_rate, 6,  0, accepted},
    unit_symbol{"GFLOPS",  dimension::compute_rate, 9,  0, accepted},
    unit_symbol{"TFLOPS",  dimension::compute_rate, 12, 0, accepted},
    unit_symbol{"PFLOPS",  dimension::compute_rate, 15, 0, accepted},
    unit_symbol{"EFLOPS",  dimension::compute_rate, 18, 0, accepted},

    // Arithmetic intensity.
    unit_symbol{"FLOP/B",    dimension::arithmetic_intensity, 0, 0, canonical},
    unit_symbol{"FLOP/byte", dimension::arithmetic_intensity, 0, 0, accepted},
  };
}();
// clang-format on

// The row spelled exactly `text`, or nullptr. Spellings are case-sensitive (b is bit, B is byte).
[[nodiscard]] constexpr const unit_symbol* find_unit_symbol(std::string_view text) noexcept {
  for (const unit_symbol& symbol : unit_symbols) {
    if (symbol.text == text) return &symbol;
  }
  return nullptr;
}

// The canonical row of `d` with the given scale, or nullptr: what a printer writes for that scale.
[[nodiscard]] constexpr const unit_symbol* canonical_unit_symbol(dimension d, int decimal_exponent,
                                                                 int binary_exponent) noexcept {
  for (const unit_symbol& symbol : unit_symbols) {
    if (symbol.is_canonical() && symbol.measures == d && symbol.decimal_exponent == decimal_exponent &&
        symbol.binary_exponent == binary_exponent) {
      return &symbol;
    }
  }
  return nullptr;
}

// The canonical spelling of the same unit as `symbol`: "Gbit/s" for "Gbps", "GB/s" for "GB/s".
[[nodiscard]] constexpr const unit_symbol& canonical_form(const unit_symbol& symbol) noexcept {
  const unit_symbol* canonical = canonical_unit_symbol(symbol.measures, symbol.decimal_exponent, symbol.binary_exponent);
  return canonical != nullptr ? *canonical : symbol;
}

// The base unit's symbol: "B", "s", "FLOP", "B/s", "FLOP/s", "FLOP/B", "Hz".
[[nodiscard]] constexpr std::string_view base_unit_symbol(dimension d) noexcept {
  const unit_symbol* base = canonical_unit_symbol(d, 0, 0);
  return base != nullptr ? base->text : std::string_view{};
}

// What a quantity alias measures: dimension_of<data_rate> == dimension::data_rate.
template <class Q>
inline constexpr dimension dimension_of = [] {
  static_assert(detail::always_false<Q>, "hml: dimension_of takes a quantity alias such as hml::data_rate");
  return dimension::data_size;
}();

}  // namespace hml

namespace hml {
template <> inline constexpr dimension dimension_of<data_size> = dimension::data_size;
template <> inline constexpr dimension dimension_of<duration> = dimension::duration;
template <> inline constexpr dimension dimension_of<work> = dimension::work;
template <> inline constexpr dimension dimension_of<data_rate> = dimension::data_rate;
template <> inline constexpr dimension dimension_of<compute_rate> = dimension::compute_rate;
template <> inline constexpr dimension dimension_of<arithmetic_intensity> = dimension::arithmetic_intensity;
template <> inline constexpr dimension dimension_of<frequency> = dimension::frequency;
}  // namespace hml
