// A token count taken for a size: the longest context that fits is a number of tokens, not of bytes.
// A token of Llama-2 7B's cache is 512 KiB in FP16; convert with kv_cache_size(model, batch, context).
// expected-error: hml: a count of tokens is not a quantity: multiply its count by a quantity per token
import hml;

namespace {

#ifdef HML_MUST_NOT_COMPILE
constexpr hml::data_size longest = hml::largest_context(hml::models::llama_2_7b, 1, hml::devices::h100_sxm);
#else
constexpr hml::tokens longest = hml::largest_context(hml::models::llama_2_7b, 1, hml::devices::h100_sxm);
#endif
static_assert(sizeof(longest) > 0);

}  // namespace
