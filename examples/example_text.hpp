// Small text helpers shared by the examples' constexpr reports.
#pragma once
#include <initializer_list>
#include <string_view>

import hml;

namespace example_text {

// Appends the pieces in order: `write(out, "Memory time: ", ms(t), "\n")`.
template <class Sink>
constexpr void write(Sink& out, std::initializer_list<std::string_view> pieces) {
  for (std::string_view piece : pieces)
    for (char c : piece) out.push_back(c);
}

constexpr auto number(double x, hml::number_format f) { return hml::format_number(x, f); }

// A duration in a fixed unit, the way the seeds print it ("0.982 ms", "660.713 us").
constexpr auto in_ms(hml::duration t, hml::number_format f = hml::general(3)) {
  return hml::to_text(t, {.number = f, .unit = "ms"});
}
constexpr auto in_us(hml::duration t, hml::number_format f = hml::general(3)) {
  return hml::to_text(t, {.number = f, .unit = "us"});
}

// One block per item, separated by blank lines, as the seed lab prints its cases.
template <class Sink, class Items, class WriteBlock>
constexpr void write_blocks(Sink& out, const Items& items, WriteBlock write_block) {
  bool first = true;
  for (const auto& item : items) {
    if (!first) out.push_back('\n');
    first = false;
    write_block(item);
  }
}

// "88.6 %"
constexpr auto percent(double x, hml::number_format f = hml::fixed(1)) {
  auto text = number(x, f);
  text.append(" %");
  return text;
}

}  // namespace example_text
