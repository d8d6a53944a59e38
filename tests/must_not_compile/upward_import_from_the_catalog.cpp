// An upward import does not build: code on the catalog layer cannot reach the report layer above it.
// This case links hml::catalog only, as modules/catalog does, so importing hml.report is not found.
// links: hml::catalog
// expected-error: module 'hml.report' not found
import hml.catalog;
#ifdef HML_MUST_NOT_COMPILE
import hml.report;
#endif

static_assert(hml::main_memory(hml::devices::h100_sxm).bandwidth.published());
