// Interleaving 200 GiB by bandwidth puts 168 GiB in a Xeon Max's 64 GiB of HBM: the placement does not fit.
// Weighted interleave spreads pages by bandwidth, not by room; constant evaluation rejects it with the
// model's message.
// expected-error: constexpr variable '[a-z_]+' must be initialized by a constant expression
// expected-note: hml: the placement does not fit a tier's capacity
import hml;
using namespace hml::literals;

constexpr hml::tiered_memory xeon_max = hml::tiers_of(hml::systems::xeon_max_9480);
#ifdef HML_MUST_NOT_COMPILE
constexpr hml::data_size footprint = 200_GiB;
#else
constexpr hml::data_size footprint = 64_GiB;
#endif
[[maybe_unused]] constexpr hml::placement interleaved = hml::weighted_interleave(xeon_max, {.footprint = footprint});
