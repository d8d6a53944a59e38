// hml.format against glibc's snprintf: over a million doubles (random bit patterns, human decimals, exact ties,
// values a few ulps around rounding boundaries) each formatted with %e, %f or %g must match character for
// character. The generator has a fixed seed, so a failure reproduces; the first mismatches are reported with
// the value in %a, the conversion, printf's text and ours.
#include <gtest/gtest.h>

#include <array>
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <iostream>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>
#include <string_view>

import hml.format;

namespace {

constexpr std::uint64_t seed = 0x686d6c2e666d74;  // "hml.fmt"

constexpr std::array<hml::float_style, 3> styles{hml::float_style::scientific, hml::float_style::fixed,
                                                 hml::float_style::general};
constexpr std::array<int, 6> large_precisions{20, 25, 30, 40, 60, 100};

std::string with_printf(double value, hml::number_format spec) {
  std::array<char, 512> buffer{};
  int n = 0;
  switch (spec.style) {
    case hml::float_style::scientific:
      n = std::snprintf(buffer.data(), buffer.size(), "%.*e", spec.precision, value);
      break;
    case hml::float_style::fixed:
      n = std::snprintf(buffer.data(), buffer.size(), "%.*f", spec.precision, value);
      break;
    case hml::float_style::general:
      n = std::snprintf(buffer.data(), buffer.size(), "%.*g", spec.precision, value);
      break;
  }
  return {buffer.data(), static_cast<std::size_t>(n)};
}

std::string hex(double value) {
  std::array<char, 64> buffer{};
  const int n = std::snprintf(buffer.data(), buffer.size(), "%a", value);
  return {buffer.data(), static_cast<std::size_t>(n)};
}

std::string conversion(hml::number_format spec) {
  return "%." + std::to_string(spec.precision) + static_cast<char>(spec.style);
}

// Formats each value both ways and reports the first few mismatches.
class differential {
public:
  explicit differential(std::string_view name) : name_{name} {}
  differential(const differential&) = delete;
  differential& operator=(const differential&) = delete;

  ~differential() {
    std::cout << "[          ] " << name_ << ": " << values_ << " values, " << comparisons_ << " conversions, "
              << mismatches_ << " mismatches\n";
  }

  void check(double value, hml::number_format spec) {
    ++comparisons_;
    const std::string expected = with_printf(value, spec);
    std::string got;
    hml::format_number_to(got, value, spec);
    // format_number is format_number_to into a fixed_text; every 8th conversion checks that path too.
    if (got == expected && (comparisons_ % 8 != 0 || hml::format_number(value, spec) == expected)) {
      return;
    }
    if (++mismatches_ <= max_reports) {
      ADD_FAILURE() << name_ << ": " << hex(value) << " with " << conversion(spec) << "\n  printf:        \""
                    << expected << "\"\n  hml (string):  \"" << got << "\"\n  hml (fixed_text): \""
                    << hml::format_number(value, spec).view() << '"';
    }
  }

  // One value, one conversion: styles and precisions 0..17 cycle with the value's index, and every 16th value
  // also gets a large precision.
  void check_one(double value) {
    const auto i = values_++;
    const auto style = styles[i % styles.size()];
    check(value, {style, static_cast<int>(i / styles.size() % 18)});
    if (i % 16 == 0) {
      check(value, {style, large_precisions[i / 16 % large_precisions.size()]});
    }
  }

  // One value, every conversion: precisions 0..17 and the large ones, in each style.
  void check_all(double value) {
    ++values_;
    for (const auto style : styles) {
      for (int precision = 0; precision <= 17; ++precision) {
        check(value, {style, precision});
      }
      for (const int precision : large_precisions) {
        check(value, {style, precision});
      }
    }
  }

private:
  static constexpr int max_reports = 10;
  std::string name_;
  std::size_t values_ = 0;
  std::size_t comparisons_ = 0;
  int mismatches_ = 0;
};

double from_bits(std::uint64_t bits) { return std::bit_cast<double>(bits); }

// Up to `ulps` representable neighbours on each side of value.
template <class F>
void around(double value, int ulps, F&& visit) {
  double below = value;
  double above = value;
  visit(value);
  for (int i = 0; i < ulps; ++i) {
    below = std::nextafter(below, -std::numeric_limits<double>::infinity());
    above = std::nextafter(above, std::numeric_limits<double>::infinity());
    visit(below);
    visit(above);
  }
}

TEST(FormatNumber, SpecialValuesInEveryConversion) {
  differential d{"special values"};
  constexpr double inf = std::numeric_limits<double>::infinity();
  constexpr double nan = std::numeric_limits<double>::quiet_NaN();
  for (const double value :
       {0.0, -0.0, inf, -inf, nan, -nan, std::numeric_limits<double>::denorm_min(),
        -std::numeric_limits<double>::denorm_min(), std::numeric_limits<double>::min(),
        std::nextafter(std::numeric_limits<double>::min(), 0.0), std::numeric_limits<double>::max(),
        -std::numeric_limits<double>::max(), 1.0, -1.0, 0.1, 1e15, 1e16, 1e17, 1e22, 1e23, 0x1p53, 0x1p64,
        0x1p-64, 0x1p63 - 1024.0, 18446744073709549568.0, 1e-5, 1e-4, 9.9999995, 123.456}) {
    d.check_all(value);
  }
}

TEST(FormatNumber, RandomBitPatterns) {
  differential d{"random bit patterns"};
  std::mt19937_64 random{seed};
  for (int i = 0; i < 600'000; ++i) {
    d.check_one(from_bits(random()));
  }
  // Subnormals are 1/2048 of all patterns; give them a share of their own.
  for (int i = 0; i < 20'000; ++i) {
    d.check_one(from_bits(random() & 0x800f'ffff'ffff'ffff));
  }
  // And values in the range where the integer part fits in 64 bits and the fraction is short.
  std::uniform_int_distribution<std::uint64_t> moderate_exponent{1023 - 70, 1023 + 70};
  for (int i = 0; i < 100'000; ++i) {
    const std::uint64_t bits = (random() & 0x800f'ffff'ffff'ffff) | (moderate_exponent(random) << 52);
    d.check_one(from_bits(bits));
  }
}

TEST(FormatNumber, HumanDecimals) {
  differential d{"human decimals k/10^j"};
  std::mt19937_64 random{seed + 1};
  std::uniform_int_distribution<std::int64_t> numerator{-99'999'999, 99'999'999};
  std::uniform_int_distribution<int> scale{0, 12};
  constexpr std::array<double, 13> powers{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12};
  for (int i = 0; i < 300'000; ++i) {
    const auto j = static_cast<std::size_t>(scale(random));
    const double value = static_cast<double>(numerator(random)) / powers[j];
    d.check_one(i % 2 == 0 ? value : value * powers[static_cast<std::size_t>(scale(random))]);
  }
}

TEST(FormatNumber, ExactTies) {
  differential d{"exact ties"};
  std::mt19937_64 random{seed + 2};
  std::uniform_int_distribution<int> small{0, 100'000};
  for (int i = 0; i < 400; ++i) {
    const int k = small(random);
    d.check_all(k + 0.5);         // %.0f, and %.Ne where N + 1 is the number of digits of k
    d.check_all(-(k / 8.0));      // %.2f
    d.check_all(k / 1024.0);      // %.9f
    d.check_all(k * 0.5 + 0.25);  // %.1f
  }
  for (int k = 0; k < 64; ++k) {
    d.check_all(k + 0.5);
    d.check_all(k / 16.0);
  }
}

TEST(FormatNumber, RoundingBoundaries) {
  differential d{"rounding boundaries"};
  for (const double value : {9.5, 99.95, 0.00001, 0.5, 1.5, 2.5, 0.15, 0.25, 0.35, 9.995, 9.9995, 999999.5,
                             0.000099999996, 99999.95, 0.95, 0.05, 1e-300, 1e300, 5e-324, 1e21, 1e22}) {
    around(value, 3, [&](double v) { d.check_all(v); });
  }
  // d.ddd5 * 10^k with random digits: the decimal midpoint between two outputs at the matching precision, and
  // its neighbours, at every conversion.
  differential r{"random midpoints"};
  std::mt19937_64 random{seed + 3};
  std::uniform_int_distribution<int> digits{1, 15};
  std::uniform_int_distribution<int> exponent{-30, 30};
  for (int i = 0; i < 300; ++i) {
    const int n = digits(random);
    std::uniform_int_distribution<std::int64_t> mantissa{1, static_cast<std::int64_t>(std::pow(10.0, n)) - 1};
    const double midpoint = (static_cast<double>(mantissa(random)) * 10 + 5) * std::pow(10.0, exponent(random) - n);
    around(midpoint, 1, [&](double v) { r.check_all(v); });
  }
}

TEST(FormatNumber, AppendsToTheSink) {
  std::string text = "Memory time: ";
  hml::format_number_to(text, 8.388613e-02, hml::scientific(6));
  text += " s";
  EXPECT_EQ(text, "Memory time: 8.388613e-02 s");
}

TEST(FormatNumber, DefaultsArePrintfs) {
  EXPECT_EQ(hml::format_number(1.0 / 3, {}), "0.333333");
  EXPECT_EQ(hml::format_number(1.0 / 3, hml::scientific()), "3.333333e-01");
  EXPECT_EQ(hml::format_number(1.0 / 3, hml::fixed()), "0.333333");
}

TEST(FormatNumber, PrecisionOutOfRangeThrows) {
  EXPECT_THROW((void)hml::format_number(1.0, hml::fixed(-1)), std::invalid_argument);
  EXPECT_THROW((void)hml::format_number(1.0, hml::general(hml::max_number_precision + 1)), std::invalid_argument);
  std::string sink;
  EXPECT_THROW(hml::format_number_to(sink, 1.0, hml::scientific(1000)), std::invalid_argument);
  EXPECT_TRUE(sink.empty());
  EXPECT_NO_THROW((void)hml::format_number(1.0, hml::fixed(hml::max_number_precision)));
}

TEST(FixedText, AppendsAndCompares) {
  hml::fixed_text<8> text;
  EXPECT_TRUE(text.empty());
  EXPECT_EQ(text.capacity(), 8U);
  text.append("1.5");
  text.push_back(' ');
  text.append("GB");
  EXPECT_EQ(text.size(), 6U);
  EXPECT_EQ(text.view(), "1.5 GB");
  EXPECT_TRUE(text == "1.5 GB");
  EXPECT_TRUE(text == std::string_view{"1.5 GB"});
  EXPECT_TRUE(text == hml::fixed_text<6>{"1.5 GB"});
  EXPECT_FALSE(text == "1.5 G");
  EXPECT_STREQ(text.c_str(), "1.5 GB");
  EXPECT_EQ(std::string(text.begin(), text.end()), "1.5 GB");
  const std::string_view as_view = text;
  EXPECT_EQ(as_view, "1.5 GB");
  text.clear();
  EXPECT_TRUE(text.empty());
}

TEST(FixedText, OverflowThrows) {
  hml::fixed_text<3> text;
  text.append("abc");
  EXPECT_THROW(text.push_back('d'), std::length_error);
  EXPECT_EQ(text, "abc");
  hml::fixed_text<3> other;
  other.push_back('a');
  EXPECT_THROW(other.append("bcd"), std::length_error);
  EXPECT_EQ(other, "a");
}

}  // namespace
