// Quantities print the way a person writes them.
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

// A bit rate or a size in bits, where a memory's bandwidth or capacity (bytes) is wanted.
static_assert(hml::written_in_bits("800 Gbit/s") && hml::written_in_bits("3.35Tbps") && hml::written_in_bits("25 Gb/s"));
static_assert(!hml::written_in_bits("3.35 TB/s") && !hml::written_in_bits("2039") && !hml::written_in_bits("1e3 GB/s"));
static_assert(hml::size_written_in_bits("80 Gb") && hml::size_written_in_bits("16 Gbit") && hml::size_written_in_bits("8b"));
static_assert(!hml::size_written_in_bits("80 GB") && !hml::size_written_in_bits("256 KiB") && !hml::size_written_in_bits("64"));

}  // namespace
