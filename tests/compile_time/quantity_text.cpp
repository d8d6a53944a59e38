// Quantities print the way a person writes them.
#include <algorithm>
#include <string_view>
import hml;

using namespace hml::literals;

namespace {

static_assert(hml::to_text(10_MiB) == "10 MiB");
static_assert(hml::to_text(1_MB) == "1 MB");
static_assert(hml::to_text(1_Gbps, {.information = hml::information_unit::bits}) == "1 Gbit/s");
static_assert(hml::to_text(204.8_GBps) == "205 GB/s");
static_assert(hml::to_text(12_MB / 205_GBps) == "58.5 us");
static_assert(hml::to_text(12_MB / 205_GBps, {.micro_sign = true}) == "58.5 \u00b5s");
static_assert(hml::to_text(5.3_TFLOPS) == "5.3 TFLOP/s");
static_assert(hml::to_text(1_MFLOP / 12_MB) == "0.0833 FLOP/B");
static_assert(hml::to_text(1_MFLOP / 5.3_TFLOPS) == "189 ns");
static_assert(hml::to_text(999.96_kB) == "1 MB");           // rounding carries into the next prefix
static_assert(hml::to_text(999.4_kB) == "999 kB");
static_assert(hml::to_text(1023_KiB) == "0.999 MiB");   // binary prefixes carry too: it was "1.02e+03 KiB"
static_assert(hml::to_text(999_KiB) == "999 KiB");
static_assert(hml::to_text(8320_MiB) == "8.12 GiB");
static_assert(hml::to_text(0x1p60 * hml::byte) == "1 EiB");  // 2^60 / 1000 rounds to a whole number
static_assert(hml::to_text(5e18 * hml::byte) == "5 EB" && hml::to_text(1e19 * hml::byte) == "10 EB");  // past 2^62 too
static_assert(hml::to_text(1e30 * hml::byte) == "1e+30 B");   // past the largest prefix: no "1e+12 EB"
static_assert(hml::to_text(0x1p70 * hml::byte) == "1.18e+21 B");    // an exact tie rounds to even, as printf does
static_assert(hml::to_text(1023_KiB, {.number = hml::fixed(0)}) == "1 MiB");
static_assert(hml::to_text(192_MiB, {.prefixes = hml::prefix_system::decimal}) == "201 MB");
static_assert(hml::to_text(192_MiB, {.number = hml::fixed(1)}) == "192.0 MiB");
static_assert(hml::to_text(8.388613e-2_s, {.number = hml::scientific(6)}) == "8.388613e+01 ms");
static_assert(hml::to_text(2.5_GHz) == "2.5 GHz");
// A decimal prefix moves the exponent of the double's exact value, where dividing by it rounded first (the
// forty-ninth trial): 2.0335e-07 s is just above 203.35 ns (203.34999999999997 once divided by 1e-9), and
// 2335 B is 2.335 kB exactly, a tie to even, where 2335 / 1000 is below it; 2.335e-06 s is above 2.335 us.
static_assert(hml::to_text(2.0335e-07 * hml::second, {.number = hml::general(4)}) == "203.4 ns");
static_assert(hml::to_text(2335_B) == "2.34 kB" && hml::to_text(2.335e-06 * hml::second) == "2.34 us");
static_assert(hml::to_text(2.0335e-07 * hml::second, {.number = hml::general(4), .unit = "ns"}) == "203.4 ns");
static_assert(hml::to_text(2.0335e-07 * hml::second, {.number = hml::scientific(3), .unit = "ns"}) == "2.034e+02 ns");
static_assert(hml::to_text(0_B) == "0 B");
// Whether a number carries into the next prefix is told by the digits printed, not by a division (the
// fiftieth trial): 999.5e-6 s is just below 999.5 us (divided, 999.5: it carried to "0.999 ms"), and 0.99995
// is just above 0.99995 s (divided, 999.9499...: it stayed "1000 ms").
static_assert(hml::to_text(999.5e-6 * hml::second) == "999 us");
static_assert(hml::to_text(0.99995 * hml::second, {.number = hml::general(4)}) == "1 s");
static_assert(hml::to_text(999.5e-9 * hml::second) == "999 ns" && hml::to_text(999.5_kB) == "1 MB");
// Below the smallest prefix too (the fifty-fifth trial): 0.99995 ps rounds to 1 ps, not "1e-12 s".
static_assert(hml::to_text(0.99995e-12 * hml::second) == "1 ps" && hml::to_text(0.9994e-12 * hml::second) == "9.99e-13 s");

// A fixed unit: no automatic prefix.
static_assert(hml::to_text(1_Gbps, {.number = hml::fixed(1), .unit = "Gbit/s"}) == "1.0 Gbit/s");
static_assert(hml::to_text(192_MiB / 205_GBps, {.number = hml::fixed(3), .unit = "ms"}) == "0.982 ms");
static_assert(hml::to_text(5.3_TFLOPS, {.unit = "GFLOP/s"}) == "5.3e+03 GFLOP/s");
static_assert(hml::to_text(10_MiB, {.number = hml::fixed(0), .unit = "B"}) == "10485760 B");

// A size or a rate in bits, which a reader of a memory's capacity or bandwidth refuses (parse_options).
constexpr bool counts_bits(std::string_view unit) { return hml::find_unit_symbol(unit)->counts_bits(); }
static_assert(counts_bits("Gbit/s") && counts_bits("Tbps") && counts_bits("Gb/s") && counts_bits("Gibit/s"));
static_assert(counts_bits("Gb") && counts_bits("Gbit") && counts_bits("b") && counts_bits("Kib"));
static_assert(!counts_bits("TB/s") && !counts_bits("GBps") && !counts_bits("GB") && !counts_bits("KiB") && !counts_bits("FLOP/byte"));
// Every unit that counts bits is an eighth of a byte unit (2^-3, 2^7, 2^17, ...), and only those.
static_assert(std::ranges::all_of(hml::unit_symbols, [](const hml::unit_symbol& u) {
  const bool eighths = (u.measures == hml::dimension::data_size || u.measures == hml::dimension::data_rate) &&
                       (u.binary_exponent + 3) % 10 == 0;
  return u.counts_bits() == eighths;
}));

}  // namespace
