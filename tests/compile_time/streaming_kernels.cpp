// The streaming kernels' FLOP and bytes per element, as STREAM and likwid-bench count them (write-allocate
// not counted): "triad" is STREAM's three-array triad; the probe's four-array kernel is the Schoenauer triad.
import hml;

namespace {

using namespace hml::literals;

static_assert(hml::copy<double>(1).bytes == 16_B && hml::copy<double>(1).flops == 0_FLOP);
static_assert(hml::triad<double>(1).bytes == 24_B && hml::triad<double>(1).flops == 2_FLOP);
static_assert(hml::schoenauer_triad<double>(1).bytes == 32_B && hml::schoenauer_triad<double>(1).flops == 2_FLOP);
static_assert(hml::vector_add<float>(1).bytes == 12_B && hml::vector_add<float>(1).flops == 1_FLOP);
static_assert(hml::store<double>(1).bytes == 8_B && hml::store<double>(1).flops == 0_FLOP);  // likwid-bench's "store"
// Intensity: the Schoenauer triad does the same FLOP as STREAM's over a third more bytes.
static_assert(hml::intensity(hml::schoenauer_triad<double>(1000)) == 0.0625 * hml::flop_per_byte);
static_assert(hml::intensity(hml::triad<double>(1000)) * 0.75 == hml::intensity(hml::schoenauer_triad<double>(1000)));

}  // namespace
