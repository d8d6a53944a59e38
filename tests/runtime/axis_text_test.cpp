// hml::parse_axis: ranges, log ranges, lists and single values, equal to the library's own axes; errors.
#include <gtest/gtest.h>

#include <cstddef>
#include <string>
#include <string_view>

import hml;

namespace {

using namespace hml::literals;

template <class T, class Axis>
void expect_same_points(const hml::sampled_axis<T>& parsed, const Axis& axis) {
  ASSERT_EQ(parsed.size(), axis.size());
  for (std::size_t i = 0; i < axis.size(); ++i) EXPECT_EQ(parsed[i], axis[i]) << i;
}

TEST(AxisText, RangesEqualTheLibraryAxes) {
  expect_same_points(hml::parse_axis<hml::data_rate>("1Gbit/s:100Gbit/s:5"), hml::linear_axis(1_Gbps, 100_Gbps, 5));
  expect_same_points(hml::parse_axis<hml::data_rate>("1Gbit/s:1Tbit/s:7:log"), hml::log_axis(1_Gbps, 1000_Gbps, 7));
  expect_same_points(hml::parse_axis<double>("0:1:11"), hml::linear_axis(0.0, 1.0, 11));
  expect_same_points(hml::parse_axis<hml::duration>(" 10 ns : 1 us : 3 : log "), hml::log_axis(10_ns, 1_us, 3));
  expect_same_points(hml::parse_axis<hml::data_size>("1MiB:1MiB:1"), hml::linear_axis(1_MiB, 1_MiB, 1));
}

TEST(AxisText, ListsAndSingleValues) {
  expect_same_points(hml::parse_axis<double>("0.1,0.5,0.95"), hml::values(0.1, 0.5, 0.95));
  expect_same_points(hml::parse_axis<hml::arithmetic_intensity>("0.5,16 FLOP/B", {.plain_number_is_base_unit = true}),
                     hml::values(0.5 * hml::flop_per_byte, 16.0 * hml::flop_per_byte));
  expect_same_points(hml::parse_axis<hml::duration>("50ns"), hml::values(50_ns));
  expect_same_points(hml::parse_axis<double>("-2.5"), hml::values(-2.5));
}

// The parse_error of `text`; a test failure if it is accepted.
template <class T>
std::string error_of(std::string_view text) {
  try {
    (void)hml::parse_axis<T>(text);
  } catch (const hml::parse_error& e) {
    return e.what();
  }
  ADD_FAILURE() << "accepted: " << text;
  return {};
}

TEST(AxisText, ErrorsSayWhatIsWrong) {
  EXPECT_NE(error_of<hml::data_rate>("10Gbit/s:1Gbit/s:3").find("FROM is larger than TO"), std::string::npos);
  EXPECT_NE(error_of<hml::data_rate>("1Gbit/s:2Gbit/s:0").find("POINTS \"0\""), std::string::npos);
  EXPECT_NE(error_of<hml::data_rate>("1Gbit/s:2Gbit/s:2.5").find("POINTS"), std::string::npos);
  EXPECT_NE(error_of<hml::data_rate>("1Gbit/s:2Gbit/s:99999999").find("POINTS"), std::string::npos);
  EXPECT_NE(error_of<hml::data_rate>("1Gbit/s:2Gbit/s:1").find("one point cannot run from FROM to TO"),
            std::string::npos);
  EXPECT_NE(error_of<hml::data_rate>("1Gbit/s:2Gbit/s").find("3 or 4 parts"), std::string::npos);
  EXPECT_NE(error_of<hml::data_rate>("1Gbit/s:2Gbit/s:3:lin").find("is not \"log\""), std::string::npos);
  EXPECT_NE(error_of<double>("0:1:3:log").find("starts at 0 or below"), std::string::npos);
  EXPECT_NE(error_of<double>("0.1,,0.5").find("an empty item"), std::string::npos);
  EXPECT_NE(error_of<double>("nan").find("finite number"), std::string::npos);
  EXPECT_NE(error_of<double>("0.5x").find("finite number"), std::string::npos);
  EXPECT_NE(error_of<hml::data_rate>("1GB,2GB/s").find("is a data size"), std::string::npos);
  // A point twice is a row twice (trial 80): a range to its own FROM, points doubles cannot tell apart, a
  // value listed again however it is written.
  EXPECT_NE(error_of<hml::data_rate>("1Gbit/s:1Gbit/s:3").find("3 points from FROM to the same TO are one point, repeated"),
            std::string::npos);
  EXPECT_NE(error_of<double>("1:1.0000000000000002:5").find("5 points between FROM and TO repeat some"), std::string::npos);
  EXPECT_NE(error_of<hml::data_rate>("1GB/s,2GB/s,1000MB/s").find("\"1000MB/s\" is \"1GB/s\" again; expected each point once"),
            std::string::npos);
  EXPECT_EQ(hml::parse_axis<hml::data_rate>("1Gbit/s:1Gbit/s:1").size(), 1u);
}

}  // namespace
