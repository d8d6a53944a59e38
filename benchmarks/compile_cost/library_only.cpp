// Nothing but the library: what reaching hml costs a translation unit, with no work of its own. Built
// against `import hml;` and against the library as textual headers, like seed_examples.cpp.
#include "hml_import.hpp"

static_assert(sizeof(hml::data_size) == sizeof(double));
