// A step's operators looked up by name, for the compile-time tests of what a step runs. A failed lookup by
// `named` is a compile error: the operator is missing.
#pragma once
#include <string_view>

import hml;

namespace step_operators {

constexpr bool has(const hml::operator_list& ops, std::string_view name) {
  for (const hml::operator_cost& op : ops)
    if (op.name == name) return true;
  return false;
}

constexpr hml::operator_cost named(const hml::operator_list& ops, std::string_view name) {
  for (const hml::operator_cost& op : ops)
    if (op.name == name) return op;
  hml::expects(false, "no such operator");
  return {};
}

}  // namespace step_operators
