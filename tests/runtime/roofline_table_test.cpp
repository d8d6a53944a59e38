// Seed 002's rounding (Python's round) and the roofline and measured tables.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <random>
#include <string>
#include <variant>

import hml;

namespace {

using namespace hml::literals;

TEST(RoundDecimal, BehavesLikePythonRound) {
  // Python 3: round(0.125, 2) == 0.12 (an exact tie goes to even), round(0.375, 2) == 0.38,
  // round(2.675, 2) == 2.67 (2.675 is stored below its decimal text), round(1/12, 4) == 0.0833.
  EXPECT_EQ(hml::round_decimal(0.125, 2), 0.12);
  EXPECT_EQ(hml::round_decimal(0.375, 2), 0.38);
  EXPECT_EQ(hml::round_decimal(2.675, 2), 2.67);
  EXPECT_EQ(hml::round_decimal(1.0 / 12.0, 4), 0.0833);
  EXPECT_EQ(hml::round_decimal(3.756e-06, 8), 3.76e-06);
  EXPECT_EQ(hml::round_decimal(1e300, 4), 1e300);
  EXPECT_TRUE(std::isinf(hml::round_decimal(std::numeric_limits<double>::infinity(), 4)));
  EXPECT_TRUE(std::isnan(hml::round_decimal(std::numeric_limits<double>::quiet_NaN(), 4)));
}

TEST(RoundDecimal, AgreesWithPrintfAndStrtod) {
  // The definition: the double nearest the correctly rounded %.Nf text.
  const auto expect_printf = [](double x, int decimals) {
    char text[512];
    std::snprintf(text, sizeof text, "%.*f", decimals, x);
    const double expected = std::strtod(text, nullptr);
    const double rounded = hml::round_decimal(x, decimals);
    EXPECT_TRUE(rounded == expected && std::signbit(rounded) == std::signbit(expected))
        << x << " to " << decimals << ": " << rounded << ", printf " << text;
  };
  std::mt19937_64 random{12345};
  std::uniform_real_distribution<double> magnitude{-12, 24};
  for (int i = 0; i < 200000; ++i) {
    const double x = std::pow(10.0, magnitude(random));
    expect_printf(i % 2 == 0 ? x : -x, static_cast<int>(random() % 12));
  }
  // Decimal ties and their neighbours (2.675, 0.125: the text ends in 5 one place past the rounding), where
  // the product x * 10^N lands on or next to a half: the shortcut must step aside for the text.
  for (int i = 0; i < 200000; ++i) {
    const int decimals = static_cast<int>(random() % 9);
    const auto digits = static_cast<double>(random() % 100'000'000);
    const double tie = (digits * 10 + 5) / std::pow(10.0, decimals + 1);
    for (const double x : {tie, std::nextafter(tie, 0.0), std::nextafter(tie, HUGE_VAL), -tie}) {
      expect_printf(x, decimals);
    }
  }
  for (const double x : {0.0, -0.0, 4.9e-324, 0x1p52 - 0.5, 0x1p52 + 1, 1e22, 1.7976931348623157e308}) {
    for (int decimals = 0; decimals < 12; ++decimals) expect_printf(x, decimals);
  }
}

TEST(RooflineTable, SeedFieldsAtFullPrecisionOrRounded) {
  const hml::roof roof{3.35_TBps, 67_TFLOPS};
  const std::array<hml::kernel, 2> kernels{hml::vector_add<float>(1 << 20), hml::kernel{"registers", 1_GFLOP, 0_B}};
  const auto points = hml::analyze(kernels, roof);
  for (const bool rounded : {false, true}) {
    const hml::table t = hml::roofline_table(points, rounded);
    ASSERT_EQ(t.columns.size(), hml::roofline_fields.size());
    for (std::size_t c = 0; c < t.columns.size(); ++c) EXPECT_EQ(t.columns[c], hml::roofline_fields[c]);
    ASSERT_EQ(t.rows.size(), 2u);
    const auto number = [&](std::size_t row, std::size_t column) { return std::get<double>(t.rows[row][column]); };
    const auto expect = [&](double x, int decimals) { return rounded ? hml::round_decimal(x, decimals) : x; };
    EXPECT_EQ(std::get<std::string>(t.rows[0][0]), "vector add");
    EXPECT_EQ(number(0, 1), expect(in(points[0].intensity, hml::flop_per_byte), 4));
    EXPECT_EQ(number(0, 2), expect(in(points[0].attainable, hml::flop_per_second), 4));
    EXPECT_EQ(std::get<std::string>(t.rows[0][3]), "memory-bound");
    EXPECT_EQ(number(0, 4), expect(points[0].efficiency_percent, 2));
    EXPECT_EQ(number(0, 5), expect(in(points[0].estimated_time, hml::second), 8));
    EXPECT_TRUE(std::isinf(number(1, 1)));
    EXPECT_EQ(std::get<std::string>(t.rows[1][3]), "compute-bound");
  }
  // Rounding changes what seed 002 rounds: 1/12 FLOP/B to 0.0833.
  EXPECT_EQ(std::get<double>(hml::roofline_table(points, true).rows[0][1]), 0.0833);
}

TEST(MeasuredTable, OneRowPerMeasurement) {
  const hml::measured_point m = hml::analyze_measured(hml::vector_add<float>(10'000'000), 660.713_us, {205_GBps, 5.3_TFLOPS});
  const hml::table t = hml::measured_table({&m, 1});
  ASSERT_EQ(t.rows.size(), 1u);
  ASSERT_EQ(t.columns.size(), 9u);
  EXPECT_EQ(std::get<double>(t.rows[0][2]), in(m.achieved_compute, hml::flop_per_second));
  EXPECT_EQ(std::get<double>(t.rows[0][3]), in(m.achieved_bandwidth, hml::byte_per_second));
  EXPECT_EQ(std::get<double>(t.rows[0][5]), m.percent_of_bandwidth);
  EXPECT_EQ(std::get<std::string>(t.rows[0][6]), "memory-bound");
  EXPECT_EQ(std::get<double>(t.rows[0][8]), m.gap);
}

}  // namespace
