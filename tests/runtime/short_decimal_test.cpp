// The CSV writer's fast paths for numbers (hml roofline --round at 10^6 operations spends most of its time
// writing numbers): a short_decimal cell written from its digits, and doubles of 2^22 and more written
// without std::to_chars' general method. Each text is compared with std::to_chars' own text of the same
// double, the definition of the CSV's numbers.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <random>
#include <string>
#include <variant>
#include <vector>

import hml;

namespace {

using namespace hml::literals;

std::string to_chars_text(double x) {
  std::array<char, 64> text{};
  return {text.data(), std::to_chars(text.data(), text.data() + text.size(), x).ptr};
}

// One CSV record of one column holding `cell`, without its line break.
std::string csv_text(const hml::cell_view& cell) {
  const std::vector<std::string> columns{"x"};
  hml::csv_writer writer{columns};
  std::string out;
  writer.row(out, std::array{cell});
  EXPECT_TRUE(out.ends_with("\r\n")) << out;
  return out.substr(0, out.size() - 2);
}

double power_of_ten(int places) { return std::pow(10.0, places); }

TEST(ShortDecimal, ValueIsTheDoubleNearestTheDecimal) {
  EXPECT_EQ((hml::short_decimal{87, 4, false}.value()), 0.0087);
  EXPECT_EQ((hml::short_decimal{376, 8, false}.value()), 3.76e-06);
  EXPECT_EQ((hml::short_decimal{125, 0, true}.value()), -125.0);
  const double negative_zero = hml::short_decimal{0, 2, true}.value();
  EXPECT_TRUE(negative_zero == 0.0 && std::signbit(negative_zero));
  EXPECT_EQ(hml::cell_number(hml::cell_view{hml::short_decimal{1, 1, false}}), 0.1);
}

TEST(ShortDecimal, CsvTextIsToCharsOfItsValue) {
  std::mt19937_64 random{2026};
  const auto check = [](const hml::short_decimal& d) {
    EXPECT_EQ(csv_text(d), to_chars_text(d.value())) << d.digits << " x 10^-" << d.places;
  };
  for (int i = 0; i < 300'000; ++i) {
    // Digit counts from 1 to 16 equally often, every number of places a short_decimal takes.
    const int digit_count = 1 + static_cast<int>(random() % 16);
    const std::uint64_t limit = std::min<std::uint64_t>(hml::short_decimal::digits_limit,
                                                        static_cast<std::uint64_t>(power_of_ten(digit_count)));
    std::uint64_t digits = random() % limit;
    if (i % 5 == 0) digits -= digits % 1000;  // trailing zeros, as 0.30 for 0.3 has
    check({digits, static_cast<int>(random() % 23), i % 7 == 0});
  }
  for (const std::uint64_t digits : {std::uint64_t{0}, std::uint64_t{1}, std::uint64_t{9}, std::uint64_t{10},
                                     std::uint64_t{99'999'999}, std::uint64_t{100'000'000}, std::uint64_t{999'999'999'999'999},
                                     std::uint64_t{1'000'000'000'000'000}, hml::short_decimal::digits_limit - 1}) {
    for (int places = 0; places <= 22; ++places) {
      check({digits, places, false});
      check({digits, places, true});
    }
  }
  // Outside a short_decimal's bounds the writer takes the double's way, with the same text.
  check({hml::short_decimal::digits_limit + 12345, 4, false});
  check({1234, 30, false});
}

// value() is the double nearest the decimal, inside the bounds (one division) and outside them (the text read
// back), as strtod reads the same decimal.
TEST(ShortDecimal, ValueIsTheNearestDouble) {
  EXPECT_EQ((hml::short_decimal{833, 4, false}.value()), std::strtod("833e-4", nullptr));
  EXPECT_EQ((hml::short_decimal{1234, 30, true}.value()), -std::strtod("1234e-30", nullptr));
  EXPECT_EQ((hml::short_decimal{1234, -3, false}.value()), 1234000.0);
  const std::uint64_t wide = hml::short_decimal::digits_limit * 2 + 1;  // not a double: rounded once, not twice
  EXPECT_EQ((hml::short_decimal{wide, 4, false}.value()),
            std::strtod((std::to_string(wide) + "e-4").c_str(), nullptr));
}

TEST(ShortDecimal, CsvTextOfLargeDoublesIsToCharsText) {
  std::mt19937_64 random{7};
  const auto check = [](double x) { EXPECT_EQ(csv_text(x), to_chars_text(x)) << x; };
  // Every bit pattern with an exponent from 2^20 to 2^54 (either side of the fast path's 2^22 to 2^53).
  for (int i = 0; i < 300'000; ++i) {
    const std::uint64_t exponent = 1023 + 20 + random() % 35;
    const std::uint64_t bits = exponent << 52 | (random() & ((std::uint64_t{1} << 52) - 1));
    const double x = std::bit_cast<double>(bits);
    check(i % 3 == 0 ? -x : x);
  }
  // Round numbers and their neighbours (trailing zeros, texts that fall to 1, 2 or 3 digits, ties between
  // two shortest texts), and the attainable FLOP/s of a roof: bandwidth times intensity.
  for (int i = 0; i < 100'000; ++i) {
    const double round = static_cast<double>(random() % 100'000) * power_of_ten(static_cast<int>(random() % 12));
    for (const double x : {round, std::nextafter(round, 0.0), std::nextafter(round, HUGE_VAL), round + 0.5, round + 0.25}) {
      check(x);
    }
    check(3.35e12 * (static_cast<double>(random() % 1'000'000'000) / static_cast<double>(1 + random() % 1'000'000)));
  }
  for (int e = 22; e <= 53; ++e) {
    const double p = std::ldexp(1.0, e);
    for (const double x : {p, std::nextafter(p, 0.0), std::nextafter(p, HUGE_VAL), 3 * p / 2}) check(x);
  }
  for (int k = 6; k <= 16; ++k) {
    const double p = power_of_ten(k);
    for (const double x : {p, std::nextafter(p, 0.0), std::nextafter(p, HUGE_VAL)}) check(x);
  }
}

TEST(ShortDecimal, RoundedCellsCarryTheirDigitsAndWriteAsTheirDoubles) {
  // The shortcut keeps the digits: 1/12 to 4 places is 833 x 10^-4.
  const hml::cell_view twelfth = hml::rounded_cell(1.0 / 12.0, 4);
  ASSERT_TRUE(std::holds_alternative<hml::short_decimal>(twelfth));
  EXPECT_EQ(std::get<hml::short_decimal>(twelfth).digits, 833u);
  EXPECT_EQ(std::get<hml::short_decimal>(twelfth).places, 4);
  // A double already coarser than the places (10^300) stays a double.
  EXPECT_TRUE(std::holds_alternative<double>(hml::rounded_cell(1e300, 4)));
  // Ties are decided in integers, to the even digit (Python: round(0.125, 2) == 0.12, round(0.375, 2) == 0.38),
  // and so are products of 2^52 and more, whose digits are too many for a short_decimal (5 x 10^11 + 1/3 is
  // 500000000000.33331298828125, 5000000000003333 x 10^-4 to 4 places).
  const auto digits_of = [](const hml::cell_view& c) {
    const auto* d = std::get_if<hml::short_decimal>(&c);
    return d != nullptr ? d->digits : 0;
  };
  EXPECT_EQ(digits_of(hml::rounded_cell(0.125, 2)), 12u);
  EXPECT_EQ(digits_of(hml::rounded_cell(0.375, 2)), 38u);
  const hml::cell_view large = hml::rounded_cell(5e11 + 1.0 / 3.0, 4);
  ASSERT_TRUE(std::holds_alternative<double>(large));
  EXPECT_EQ(std::get<double>(large), 500000000000.3333);
  // A rounded roofline row writes the same CSV through its short_decimal cells as through the doubles.
  const hml::roof roof{3.35_TBps, 67_TFLOPS};
  std::mt19937_64 random{11};
  std::uniform_real_distribution<double> flop_decades{3, 13};
  std::uniform_real_distribution<double> byte_decades{3, 11};
  const std::vector<std::string> columns(hml::roofline_fields.begin(), hml::roofline_fields.end());
  hml::csv_writer by_digits{columns};
  hml::csv_writer by_doubles{columns};
  std::string digits_text;
  std::string doubles_text;
  int decimals = 0;
  for (int i = 0; i < 100'000; ++i) {
    const hml::kernel k{"k", hml::work::from_value(std::round(std::pow(10.0, flop_decades(random)))),
                        hml::data_size::from_value(std::round(std::pow(10.0, byte_decades(random))))};
    const auto row = hml::roofline_row(hml::analyze(k, roof), true);
    std::array<hml::cell_view, hml::roofline_fields.size()> doubles = row;
    for (hml::cell_view& c : doubles) {
      if (std::holds_alternative<hml::short_decimal>(c)) {
        c = *hml::cell_number(c);
        ++decimals;
      }
    }
    by_digits.row(digits_text, row);
    by_doubles.row(doubles_text, doubles);
  }
  EXPECT_EQ(digits_text, doubles_text);
  EXPECT_GT(decimals, 250'000);  // most of the 400,000 numbers took the digits' way
}

}  // namespace
