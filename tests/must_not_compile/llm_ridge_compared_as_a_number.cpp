// The ridge batch compared as a number: ask reached(), then batch() (an error where decode never turns).
// Where decode never turns compute-bound there is no batch, and an infinity would pass `> 64` unseen.
// expected-error: hml: a decode ridge is a batch or never, not a number: ask ridge\.reached\(\), then read ridge\.batch\(\)
import hml;

namespace {

constexpr hml::decode_ridge ridge = hml::ridge_batch(hml::models::llama_2_7b, 1, hml::devices::h100_sxm);
#ifdef HML_MUST_NOT_COMPILE
static_assert(ridge > 64);
#else
static_assert(ridge.reached() && ridge.batch() > 64);
#endif

}  // namespace
