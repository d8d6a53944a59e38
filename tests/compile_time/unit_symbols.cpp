// The unit symbol table, checked by the compiler: spellings are unique, every canonical scale has one
// printing symbol, and the rows the parser and the formatter rely on say what they should.
import hml.units;

namespace {

using hml::dimension;
using hml::find_unit_symbol;

// std::string_view's operator== is not visible through `import hml.units;` alone (it lives in the module's
// global fragment); its member functions are.
using symbol_text = decltype(hml::unit_symbol::text);
constexpr bool same(symbol_text a, symbol_text b) {
  if (a.size() != b.size()) return false;
  for (decltype(a.size()) i = 0; i < a.size(); ++i) {
    if (a[i] != b[i]) return false;
  }
  return true;
}

constexpr bool all_spellings_unique() {
  for (const auto& a : hml::unit_symbols) {
    int count = 0;
    for (const auto& b : hml::unit_symbols) count += same(a.text, b.text) ? 1 : 0;
    if (count != 1) return false;
  }
  return true;
}
static_assert(all_spellings_unique());

// A printer must find exactly one canonical symbol per scale, and every accepted spelling must have one.
constexpr bool every_scale_has_one_canonical_symbol() {
  for (const auto& a : hml::unit_symbols) {
    int canonical = 0;
    for (const auto& b : hml::unit_symbols) {
      canonical += b.is_canonical() && b.measures == a.measures && b.decimal_exponent == a.decimal_exponent &&
                           b.binary_exponent == a.binary_exponent
                       ? 1
                       : 0;
    }
    if (canonical != 1) return false;
  }
  return true;
}
static_assert(every_scale_has_one_canonical_symbol());

// Every byte rate has its "ps" spelling, every bit rate its "bps" one and every compute rate its FLOPS one, at
// the same scale (trials found GBps read and PBps or MiBps refused, GFLOPS read and MFLOPS refused, Tbps read
// and Pbps or Gibps refused with a byte rate, 8x the value, suggested).
constexpr const hml::unit_symbol* spelled(symbol_text stem, symbol_text suffix) {
  for (const hml::unit_symbol& symbol : hml::unit_symbols) {
    const symbol_text text = symbol.text;
    if (text.size() == stem.size() + suffix.size() && same(text.substr(0, stem.size()), stem) &&
        same(text.substr(stem.size()), suffix))
      return &symbol;
  }
  return nullptr;
}
consteval bool every_rate_has_its_short_spelling() {
  for (const hml::unit_symbol& symbol : hml::unit_symbols) {
    const symbol_text text = symbol.text;
    if (!symbol.is_canonical() || !text.ends_with("/s")) continue;
    const symbol_text per_second = text.substr(0, text.size() - 2);
    const hml::unit_symbol* found = nullptr;
    if (symbol.measures == dimension::data_rate && per_second.ends_with("B")) found = spelled(per_second, "ps");
    else if (symbol.measures == dimension::data_rate && per_second.ends_with("bit"))  // kbit/s: kbps, Gibit/s: Gibps
      found = spelled(per_second.substr(0, per_second.size() - 3), "bps");
    else if (symbol.measures == dimension::compute_rate) found = spelled(per_second, "S");
    else continue;
    if (found == nullptr || found->scale() != symbol.scale() || found->measures != symbol.measures) return false;
  }
  return true;
}
static_assert(every_rate_has_its_short_spelling());

// Case matters: b is bit, B is byte.
static_assert(find_unit_symbol("B")->binary_exponent == 0);
static_assert(find_unit_symbol("b")->binary_exponent == -3);
static_assert(find_unit_symbol("gb") == nullptr);
static_assert(find_unit_symbol("") == nullptr);

static_assert(find_unit_symbol("GB/s")->measures == dimension::data_rate);
static_assert(find_unit_symbol("GB/s")->decimal_exponent == 9);
static_assert(find_unit_symbol("GB/s")->is_canonical());
static_assert(find_unit_symbol("MiB")->binary_exponent == 20 && find_unit_symbol("MiB")->decimal_exponent == 0);
static_assert(find_unit_symbol("us")->decimal_exponent == -6);
static_assert(find_unit_symbol("\u00B5s")->decimal_exponent == -6 && !find_unit_symbol("\u00B5s")->is_canonical());
static_assert(find_unit_symbol("Gibit")->binary_exponent == 27);
static_assert(find_unit_symbol("FLOP/B")->measures == dimension::arithmetic_intensity);

// Accepted spellings print as their canonical form.
static_assert(same(hml::canonical_form(*find_unit_symbol("Gbps")).text, "Gbit/s"));
static_assert(same(hml::canonical_form(*find_unit_symbol("TFLOPS")).text, "TFLOP/s"));
static_assert(same(hml::canonical_form(*find_unit_symbol("GiBps")).text, "GiB/s"));
static_assert(same(hml::canonical_unit_symbol(dimension::data_size, 0, 20)->text, "MiB"));
static_assert(same(hml::canonical_unit_symbol(dimension::duration, -6, 0)->text, "us"));

// Scales.
static_assert(find_unit_symbol("Gbit")->scale() == 1.25e8);
static_assert(find_unit_symbol("KiB")->scale() == 1024.0);
static_assert(find_unit_symbol("ns")->scale() == 1e-9);

// Base units and names.
static_assert(same(hml::base_unit_symbol(dimension::data_size), "B"));
static_assert(same(hml::base_unit_symbol(dimension::compute_rate), "FLOP/s"));
static_assert(same(hml::base_unit_symbol(dimension::frequency), "Hz"));
static_assert(same(hml::dimension_name(dimension::data_rate), "data rate"));
static_assert(same(hml::dimension_name(dimension::arithmetic_intensity), "arithmetic intensity"));

static_assert(hml::dimension_of<hml::data_size> == dimension::data_size);
static_assert(hml::dimension_of<hml::bandwidth> == dimension::data_rate);
static_assert(hml::dimension_of<hml::compute_rate> == dimension::compute_rate);
static_assert(hml::dimension_of<hml::arithmetic_intensity> == dimension::arithmetic_intensity);
static_assert(hml::dimension_of<hml::frequency> == dimension::frequency);

}  // namespace
