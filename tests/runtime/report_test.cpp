// Tables, CSV, JSON and SVG writers, and atomic output files. CSV is read back with a small RFC 4180
// reader written here, JSON with nlohmann-json; numbers must come back as the same doubles.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>
#include <sys/stat.h>
#include <unistd.h>

#include "svg_read.hpp"

import hml;

namespace {

using namespace hml::literals;

// RFC 4180: records separated by CRLF (LF accepted), fields by commas, quoted fields may hold commas,
// CR, LF and doubled quotes.
std::vector<std::vector<std::string>> read_csv(const std::string& text) {
  std::vector<std::vector<std::string>> records;
  std::vector<std::string> record;
  std::string field;
  bool quoted = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quoted) {
      if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') {
        field += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        field += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      record.push_back(field);
      field.clear();
    } else if (c == '\r' || c == '\n') {
      if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n') ++i;
      record.push_back(field);
      field.clear();
      records.push_back(record);
      record.clear();
    } else {
      field += c;
    }
  }
  EXPECT_FALSE(quoted) << "unterminated quoted field";
  EXPECT_TRUE(field.empty() && record.empty()) << "last record without a line break";
  return records;
}

hml::table awkward_table() {
  hml::table t{{"name", "value", "note"}, {}};
  t.add_row({std::string{"plain"}, 0.1, std::string{"no quoting"}});
  t.add_row({std::string{"with, comma"}, 1.0 / 3.0, std::string{"say \"hi\""}});
  t.add_row({std::string{"line\r\nbreak"}, 6.02214076e23, std::string{"lf\nonly"}});
  t.add_row({std::string{"tiny"}, 5e-324, std::string{""}});
  t.add_row({std::string{"infinite"}, std::numeric_limits<double>::infinity(), std::string{"x"}});
  return t;
}

TEST(Report, CsvFollowsRfc4180AndRoundTrips) {
  const hml::table t = awkward_table();
  const std::string csv = hml::to_csv(t);
  EXPECT_EQ(csv.substr(0, 17), "name,value,note\r\n");
  EXPECT_NE(csv.find("\"with, comma\""), std::string::npos);
  EXPECT_NE(csv.find("\"say \"\"hi\"\"\""), std::string::npos);
  const auto records = read_csv(csv);
  ASSERT_EQ(records.size(), t.rows.size() + 1);
  EXPECT_EQ(records[0], t.columns);
  for (std::size_t r = 0; r < t.rows.size(); ++r) {
    ASSERT_EQ(records[r + 1].size(), 3u);
    EXPECT_EQ(records[r + 1][0], std::get<std::string>(t.rows[r][0]));
    EXPECT_EQ(std::strtod(records[r + 1][1].c_str(), nullptr), std::get<double>(t.rows[r][1])) << records[r + 1][1];
    EXPECT_EQ(records[r + 1][2], std::get<std::string>(t.rows[r][2]));
  }
}

// The CSV writer has a fast path for doubles that are short decimals (what `hml roofline --round` writes);
// its text must be std::to_chars' to the byte, for those and for every other double.
TEST(Report, CsvNumbersAreToCharsTextByteForByte) {
  std::vector<double> values{0.0,    -0.0,   1.0,   -1.0,   0.1,    0.5,    100.0,  1e-5,   1e-4,    0.001,
                             1234.5, 1e15,   1e16,  1e22,   1e23,   0x1p50, 0x1p49, 0x1p53, 5e-324,  1e-300,
                             67e12,  3.35e12, 99.99, 9.999e-5, 1.5e-7, 123456789.1234, 0.30000000000000004,
                             std::numeric_limits<double>::max(), std::numeric_limits<double>::infinity(),
                             -std::numeric_limits<double>::infinity(), std::numeric_limits<double>::quiet_NaN()};
  std::mt19937_64 random{2026};
  std::uniform_real_distribution<double> decades{-12.0, 17.0};
  std::uniform_int_distribution<int> places{0, 10};
  for (int i = 0; i < 200'000; ++i) {
    const double x = std::pow(10.0, decades(random)) * (i % 3 == 0 ? -1.0 : 1.0);
    values.push_back(x);
    values.push_back(hml::round_decimal(x, places(random)));
    // Any double at all, and short decimals of up to 16 digits with up to 22 places (the fast path's edges).
    values.push_back(std::bit_cast<double>(random()));
    const auto digits = static_cast<double>(random() >> (random() % 64));
    values.push_back(digits / std::pow(10.0, static_cast<double>(random() % 23)));
  }
  const std::vector<std::string> columns{"x"};
  hml::csv_writer csv{columns};
  for (const double x : values) {
    std::string written;
    const std::array<hml::cell_view, 1> row{x};
    csv.row(written, row);
    char expected[64];
    const std::string_view text{expected, static_cast<std::size_t>(std::to_chars(expected, expected + 64, x).ptr - expected)};
    ASSERT_EQ(written, std::string{text} + "\r\n") << "for " << x;
  }
}

// The writer looks for the bytes that need quotes eight at a time; a comma, a quote, CR or LF anywhere in a
// field (here at every place of fields of 1 to 22 bytes) must quote it, and no other byte may.
TEST(Report, CsvQuotesAFieldWhereverItsSpecialByteIs) {
  const auto quoted_by_hand = [](std::string_view field) {
    if (field.find_first_of(",\"\r\n") == std::string_view::npos) return std::string{field};
    std::string quoted = "\"";
    for (const char c : field) quoted += c == '"' ? std::string{"\"\""} : std::string{c};
    return quoted + "\"";
  };
  const std::vector<std::string> columns{"text"};
  hml::csv_writer csv{columns};
  for (const char special : {',', '"', '\r', '\n', 'x', '\0', '\x80'}) {
    for (std::size_t at = 0; at < 20; ++at) {
      std::string field(1 + at + at % 3, 'a');
      field[at] = special;
      std::string written;
      const std::array<hml::cell_view, 1> row{std::string_view{field}};
      csv.row(written, row);
      EXPECT_EQ(written, quoted_by_hand(field) + "\r\n") << "byte " << static_cast<int>(special) << " at " << at;
    }
  }
}

TEST(Report, JsonParsesBackAtFullPrecision) {
  const hml::table t = awkward_table();
  const nlohmann::json parsed = nlohmann::json::parse(hml::to_json(t));
  ASSERT_TRUE(parsed.is_array());
  ASSERT_EQ(parsed.size(), t.rows.size());
  for (std::size_t r = 0; r + 1 < t.rows.size(); ++r) {
    EXPECT_EQ(parsed[r]["name"].get<std::string>(), std::get<std::string>(t.rows[r][0]));
    EXPECT_EQ(parsed[r]["value"].get<double>(), std::get<double>(t.rows[r][1]));
    EXPECT_EQ(parsed[r]["note"].get<std::string>(), std::get<std::string>(t.rows[r][2]));
  }
  EXPECT_EQ(parsed.back()["value"], "inf");
}

// A number's text is the CSV's in JSON too, in an array of rows and in an object of parts (the fifty-fifth
// trial: nlohmann's grisu2 wrote 8.409999999999999e+21 where the CSV has 8.41e+21); digits that are an
// integer's keep ".0" (-0, past 2^53), so that a reader takes them for the double they are.
TEST(Report, JsonNumbersAreTheCsvDigits) {
  hml::table t{{"x"}, {}};
  for (const double x : {8.41e21, 1e23, 0.1, 67279999999999.99, 5e-8, 3.35e12 / 7, -0.0, 0x1p60, 2.0}) t.add_row({x});
  const std::string csv = hml::to_csv(t);
  const std::string json = hml::to_json(t, -1);
  EXPECT_EQ(json, R"([{"x":8.41e+21},{"x":1e+23},{"x":0.1},{"x":67279999999999.99},{"x":5e-08},{"x":478571428571.4286},)"
                  R"({"x":-0.0},{"x":1152921504606846976.0},{"x":2}])" "\n");
  EXPECT_NE(csv.find("\r\n8.41e+21\r\n1e+23\r\n0.1\r\n67279999999999.99\r\n5e-08\r\n478571428571.4286\r\n"), std::string::npos) << csv;
  hml::table one{{"x"}, {}};
  one.add_row({8.41e21});
  const std::array parts{hml::json_part{"summary", &one, true}, hml::json_part{"rows", &t}};
  const std::string object = hml::to_json_object(parts);
  EXPECT_NE(object.find("{\n  \"summary\": {\n    \"x\": 8.41e+21\n  },\n  \"rows\": [\n    {\n      \"x\": 8.41e+21\n    },"),
            std::string::npos) << object;
  EXPECT_TRUE(object.ends_with("    {\n      \"x\": 2\n    }\n  ]\n}\n")) << object;
  EXPECT_EQ(nlohmann::json::parse(object)["rows"].size(), t.rows.size());
  // The layout is nlohmann's dump(indent) of the same object, to the character, where the digits agree.
  hml::table plain{{"name", "n"}, {}};
  plain.add_row({std::string{"a\"b"}, 2.5});
  plain.add_row({std::string{"c"}, 3.0});
  hml::table empty{{"n"}, {}};
  hml::table short_one{{"x", "y"}, {}};
  short_one.add_row({1.5, std::string{"z"}});
  const std::array mixed{hml::json_part{"first", &plain, false}, hml::json_part{"none", &empty},
                         hml::json_part{"one", &short_one, true}};
  hml::table no_columns{{}, {}};
  no_columns.add_row({});
  const std::array bare{hml::json_part{"nothing", &no_columns, true}, hml::json_part{"rows", &no_columns}};
  for (const int indent : {-1, 0, 2, 4}) {
    for (const std::span<const hml::json_part> whole : {std::span<const hml::json_part>{mixed}, std::span<const hml::json_part>{bare},
                                                          std::span<const hml::json_part>{}}) {
      const std::string written = hml::to_json_object(whole, indent);
      EXPECT_EQ(written, nlohmann::ordered_json::parse(written).dump(indent) + "\n") << indent;
    }
  }
}

TEST(Report, JsonReplacesBytesThatAreNotUtf8) {
  hml::table t{{"name"}, {}};
  t.add_row({std::string{"caf\xe9"}});
  const nlohmann::json parsed = nlohmann::json::parse(hml::to_json(t));
  EXPECT_EQ(parsed[0]["name"], "caf\xef\xbf\xbd");  // U+FFFD
}

// A column's name is its key in each row's object: two of one name made {"a": 1, "a": 2}.
TEST(Report, JsonRefusesTwoColumnsOfOneName) {
  hml::table t{{"a", "a"}, {}};
  t.add_row({1.0, 2.0});
  EXPECT_THROW((void)hml::to_json(t), std::invalid_argument);
  try {
    (void)hml::to_json(t);
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "hml: a JSON table's columns are its keys: 'a' is given twice");
  }
}

TEST(Report, NoValueIsBlankInTextAndCsvAndNullInJson) {
  hml::table t{{"ceiling", "working_set_B"}, {}};
  t.add_row({std::string{"L1"}, 32768.0});
  t.add_row({std::string{"peak"}, hml::no_value{}});
  EXPECT_EQ(hml::to_csv(t), "ceiling,working_set_B\r\nL1,32768\r\npeak,\r\n");
  const nlohmann::json parsed = nlohmann::json::parse(hml::to_json(t));
  EXPECT_EQ(parsed[0]["working_set_B"], 32768.0);
  EXPECT_TRUE(parsed[1]["working_set_B"].is_null());
  EXPECT_EQ(hml::format_table(t), "ceiling  working_set_B\n-------  -------------\nL1               32768\npeak\n");
}

TEST(Report, TextTableAlignsColumns) {
  hml::table t{{"bandwidth", "time (s)", "regime"}, {}};
  t.add_row({std::string{"1 Gbit/s"}, 0.0849, std::string{"memory-bound"}});
  t.add_row({std::string{"100 Gbit/s"}, 0.00189, std::string{"compute-bound"}});
  EXPECT_EQ(hml::format_table(t, hml::general(3)),
            "bandwidth   time (s)  regime\n"
            "----------  --------  -------------\n"
            "1 Gbit/s      0.0849  memory-bound\n"
            "100 Gbit/s   0.00189  compute-bound\n");
  EXPECT_THROW(t.add_row({0.0}), std::invalid_argument);
}

// Padded by display columns, not bytes (the thirty-third trial's é中😀, 9 bytes in 5 columns, was 4 out of
// line); a combining accent takes none.
TEST(Report, TextTableAlignsWideAndCombiningCharacters) {
  hml::table t{{"name", "FLOP"}, {}};
  t.add_row({std::string{"\u00e9\u4e2d\U0001F600"}, 1.0});
  t.add_row({std::string{"e\u0301"}, 2.0});
  t.add_row({std::string{"abc"}, 3.0});
  EXPECT_EQ(hml::format_table(t),
            "name   FLOP\n"
            "-----  ----\n"
            "\u00e9\u4e2d\U0001F600     1\n"
            "e\u0301         2\n"
            "abc       3\n");
  EXPECT_EQ(hml::display_width("\u00e9\u4e2d\U0001F600"), 5U);
}

// A cell wider than hml::widest_aligned runs past its column rather than widen it: a kernel named by a
// megabyte padded every row of its table to a megabyte.
TEST(Report, TextTableColumnsStopWidening) {
  hml::table t{{"name", "FLOP"}, {}};
  const std::string wide(hml::widest_aligned + 80, 'k');
  t.add_row({wide, 1.0});
  t.add_row({std::string{"short"}, 2.0});
  const std::string padded = "short" + std::string(hml::widest_aligned - 5, ' ');
  EXPECT_EQ(hml::format_table(t), "name" + std::string(hml::widest_aligned - 4, ' ') + "  FLOP\n" +
                                      std::string(hml::widest_aligned, '-') + "  ----\n" + wide + "     1\n" + padded + "     2\n");
}

hml::roofline_chart example_chart() {
  return {"A <two-ceiling> roofline & points",
          {{"DRAM", 100_GBps}, {"L2", 1_TBps}},
          {{"FP32", 10_TFLOPS}, {"FP64", 5_TFLOPS}},
          {{"stream", 0.1 * hml::flop_per_byte, 9_GFLOPS, hml::point_kind::measured},
           {"gemm", 50.0 * hml::flop_per_byte, 7_TFLOPS, hml::point_kind::predicted},
           {"stencil", 0.5 * hml::flop_per_byte, 40_GFLOPS, hml::point_kind::before},
           {"stencil tiled", 4.0 * hml::flop_per_byte, 300_GFLOPS, hml::point_kind::after}}};
}

TEST(Report, SvgHasEveryLabelEscaped) {
  const std::string svg = hml::to_svg(example_chart());
  EXPECT_EQ(svg.rfind("<svg", 0), 0u);
  EXPECT_NE(svg.find("A &lt;two-ceiling&gt; roofline &amp; points"), std::string::npos);
  for (const char* label : {"DRAM 100 GB/s", "L2 1 TB/s", "FP32 10 TFLOP/s", "FP64 5 TFLOP/s", "ridge 10 FLOP/B",
                            "stream", "gemm", "stencil tiled", "measured kernel", "predicted kernel",
                            "before kernel", "after kernel", "Arithmetic intensity (FLOP/B)", "100 GFLOP/s"}) {
    EXPECT_NE(svg.find(label), std::string::npos) << label;
  }
  EXPECT_THROW((void)hml::to_svg({"empty", {}, {}, {}}), std::invalid_argument);
}

// The review's case: H100 (ridge 20 FLOP/B) and MI300X (30.8 FLOP/B, on faster memory) on one chart. Each must
// be its own roofline, not one mixed roof with MI300X's ridge and H100's line rising past H100's peak.
hml::roofline_chart two_machines() {
  hml::roofline_chart chart{
      "two machines", {}, {}, {{"stream", 0.25 * hml::flop_per_byte, 800_GFLOPS, hml::point_kind::predicted}}};
  chart.roofs = {{"h100", {3350_GBps, 67_TFLOPS}}, {"mi300x", {5300_GBps, 163400_GFLOPS}}};
  return chart;
}

constexpr double pixel = 0.06;  // the writer rounds coordinates to 0.1 px

TEST(Report, SvgDrawsEachRoofWithItsOwnRidgeAndPeak) {
  const hml::roofline_chart chart = two_machines();
  const std::string svg = hml::to_svg(chart);
  const svg_read::plot p{svg};
  const std::vector<svg_read::drawn_roof> roofs = svg_read::roofs(svg);
  ASSERT_EQ(roofs.size(), 2u);
  const char* labels[] = {"h100 ridge 20 FLOP/B", "mi300x ridge 30.8 FLOP/B"};
  for (std::size_t i = 0; i < roofs.size(); ++i) {
    const hml::labelled_roof& given = chart.roofs[i];
    const svg_read::drawn_roof& r = roofs[i];
    const double bandwidth = given.roof.bandwidth.value();
    const double peak = given.roof.peak.value();
    const double ridge = peak / bandwidth;
    SCOPED_TRACE(given.name);
    EXPECT_EQ(r.name, given.name);
    EXPECT_EQ(r.bandwidth, bandwidth);
    EXPECT_EQ(r.peak, peak);
    EXPECT_EQ(r.ridge, ridge);
    // The axes show the ridge with room around it.
    EXPECT_LT(p.x_low, ridge);
    EXPECT_GT(p.x_high, ridge);
    EXPECT_GT(p.y_high, peak);

    // The polyline: from the left edge up the bandwidth line to this roof's ridge, then along its peak.
    ASSERT_EQ(r.line.size(), 3u);
    EXPECT_NEAR(r.line[0].x, p.left, pixel);
    EXPECT_NEAR(std::log10(p.rate_at(r.line[0].y) / (bandwidth * p.intensity_at(r.line[0].x))), 0.0, 2e-3);
    EXPECT_NEAR(r.line[1].x, p.x(ridge), pixel);
    EXPECT_NEAR(r.line[1].y, p.y(peak), pixel);
    EXPECT_NEAR(r.line[2].x, p.right(), pixel);
    EXPECT_NEAR(r.line[2].y, p.y(peak), pixel);
    for (const svg_read::point& corner : r.line) EXPECT_GE(corner.y, p.y(peak) - pixel);  // y grows downwards

    // Its ridge marker and label at its own ridge.
    EXPECT_NEAR(r.marker.x, p.x(ridge), pixel);
    EXPECT_NEAR(r.marker.y, p.y(peak), pixel);
    // Its label near its marker (where it is clear of every other thing: chart_layout_test checks that).
    EXPECT_LT(std::hypot(r.label_at.x - r.marker.x, r.label_at.y - r.marker.y), 100.0);
    EXPECT_EQ(r.label, labels[i]);
    // Its legend entry: name, then bandwidth and peak.
    EXPECT_NE(svg.find(">" + given.name + "</text>"), std::string::npos);
  }
  EXPECT_NE(roofs[0].colour, roofs[1].colour);
  EXPECT_GT(roofs[1].line[1].x - roofs[0].line[1].x, 10.0);  // two ridges, MI300X's to the right
  EXPECT_NE(svg.find(">3.35 TB/s, 67 TFLOP/s</text>"), std::string::npos);
  EXPECT_NE(svg.find(">5.3 TB/s, 163 TFLOP/s</text>"), std::string::npos);
  // Regions under a roof differ between machines: none shaded, none in the legend.
  EXPECT_EQ(svg.find("memory-bound region"), std::string::npos);
  EXPECT_EQ(svg.find("#dbe8f7"), std::string::npos);
  EXPECT_NE(svg.find(">stream</text>"), std::string::npos);
  EXPECT_EQ(std::count(svg.begin(), svg.end(), '<') , std::count(svg.begin(), svg.end(), '>'));
}

TEST(Report, SvgAxesCoverEveryRidgeAndPoint) {
  hml::roofline_chart chart = two_machines();
  chart.roofs.push_back({"low", {10_GBps, 1_TFLOPS}});  // ridge 100 FLOP/B, far right of the others
  chart.points.push_back(
      {"far left", 0.001 * hml::flop_per_byte, hml::compute_rate::from_value(10e6), hml::point_kind::measured});
  chart.points.push_back({"above", 1000.0 * hml::flop_per_byte, 2000_TFLOPS, hml::point_kind::measured});
  const std::string svg = hml::to_svg(chart);
  const svg_read::plot p{svg};
  EXPECT_LT(p.x_low, 0.001);
  EXPECT_GT(p.x_high, 1000.0);
  EXPECT_LE(p.y_low, 10e6);
  EXPECT_GT(p.y_high, 2000e12);
  const std::vector<svg_read::drawn_roof> roofs = svg_read::roofs(svg);
  ASSERT_EQ(roofs.size(), 3u);
  EXPECT_NEAR(roofs[2].line[1].x, p.x(100.0), pixel);
  EXPECT_NEAR(roofs[2].line[1].y, p.y(1e12), pixel);
}

// One machine given as a roof: its line, ridge and the shaded regions under it.
TEST(Report, SvgOfOneRoofShadesItsRegions) {
  hml::roofline_chart chart = two_machines();
  chart.roofs.pop_back();
  const std::string svg = hml::to_svg(chart);
  const svg_read::plot p{svg};
  const std::vector<svg_read::drawn_roof> roofs = svg_read::roofs(svg);
  ASSERT_EQ(roofs.size(), 1u);
  EXPECT_EQ(roofs[0].label, "ridge 20 FLOP/B");
  EXPECT_NEAR(roofs[0].line[1].x, p.x(20.0), pixel);
  for (const char* label : {"memory-bound region", "compute-bound region", ">h100</text>", ">3.35 TB/s, 67 TFLOP/s<"}) {
    EXPECT_NE(svg.find(label), std::string::npos) << label;
  }
  // The compute-bound region (the first element of its colour; the legend's swatch comes later) starts at
  // the ridge, level with the peak.
  const std::size_t fill = svg.find("fill=\"#fbe5d0\"");
  ASSERT_NE(fill, std::string::npos);
  const std::string region = svg_read::tag(svg, "<rect ", svg.rfind("<rect ", fill));
  EXPECT_NEAR(svg_read::number(region, "x"), p.x(20.0), pixel);
  EXPECT_NEAR(svg_read::number(region, "y"), p.y(67e12), pixel);
}

// What a log axis cannot show, and charts that are empty or ambiguous, are refused with a message that names
// the part.
TEST(Report, SvgRejectsChartsItCannotDraw) {
  const auto message_of = [](const hml::roofline_chart& c) -> std::string {
    try {
      (void)hml::to_svg(c);
    } catch (const std::invalid_argument& e) {
      return e.what();
    }
    return "no exception";
  };
  const auto expect_message = [&](const hml::roofline_chart& c, const std::string& part) {
    const std::string message = message_of(c);
    EXPECT_TRUE(message.starts_with("hml: roofline chart: ")) << message;
    EXPECT_NE(message.find(part), std::string::npos) << "missing \"" << part << "\" in: " << message;
  };
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  expect_message({"empty", {}, {}, {}}, "give roofs, or at least one bandwidth and one compute ceiling");
  expect_message({"no peak", {{"DRAM", 100_GBps}}, {}, {}}, "at least one bandwidth and one compute ceiling");

  hml::roofline_chart c = two_machines();
  c.bandwidths = {{"DRAM", 100_GBps}};
  expect_message(c, "not both");
  c = two_machines();
  c.roofs[1].roof.bandwidth = hml::data_rate::from_value(0);
  expect_message(c, "roof 'mi300x': bandwidth must be finite and at least 2.2e-308");
  c = two_machines();
  c.roofs[0].roof.peak = hml::compute_rate::from_value(nan);
  expect_message(c, "roof 'h100': peak must be finite and at least 2.2e-308");
  c = two_machines();
  c.roofs[1].name = "h100";
  expect_message(c, "roof 'h100' is given twice");
  c = two_machines();
  c.roofs[1].name.clear();
  expect_message(c, "a roof needs a name");
  c = two_machines();
  while (c.roofs.size() <= hml::max_chart_roofs) {
    c.roofs.push_back({"r" + std::to_string(c.roofs.size()), {1_TBps, 1_TFLOPS}});
  }
  expect_message(c, "9 roofs; a chart draws at most 8");
  c = two_machines();
  c.points[0].intensity = hml::arithmetic_intensity::from_value(inf);
  expect_message(c, "point 'stream': intensity must be finite and at least 2.2e-308");
  c = two_machines();
  c.points[0].achieved = hml::compute_rate::from_value(0);
  expect_message(c, "point 'stream': rate must be finite and at least 2.2e-308");
  c = two_machines();  // a subnormal rate's decade below is 0: the axis never ended (the forty-fourth trial)
  c.points[0].achieved = hml::compute_rate::from_value(5e-324);
  expect_message(c, "point 'stream': rate must be finite and at least 2.2e-308");
  c = example_chart();
  c.bandwidths[0].bandwidth = hml::data_rate::from_value(-1);
  expect_message(c, "bandwidth ceiling 'DRAM' must be finite and at least 2.2e-308");
  c = example_chart();
  c.computes[1].peak = hml::compute_rate::from_value(inf);
  expect_message(c, "compute ceiling 'FP64' must be finite and at least 2.2e-308");
}

// A fresh directory under the build's temporary directory, removed afterwards.
struct scratch_directory {
  std::filesystem::path path = std::filesystem::temp_directory_path() /
                               ("hml-report-test-" + std::to_string(::getpid()) + "-" +
                                ::testing::UnitTest::GetInstance()->current_test_info()->name());
  scratch_directory() { std::filesystem::create_directories(path); }
  ~scratch_directory() { std::filesystem::remove_all(path); }
  [[nodiscard]] bool empty() const { return std::filesystem::is_empty(path); }
};

std::string read(const std::filesystem::path& p) {
  std::ifstream in{p, std::ios::binary};
  std::ostringstream content;
  content << in.rdbuf();
  return content.str();
}

TEST(Report, WriteFileAtomicallyReplacesWholeFile) {
  const scratch_directory dir;
  const auto target = dir.path / "out.csv";
  hml::write_file_atomically(target, "first\n");
  hml::write_file_atomically(target, "second, longer\n");
  EXPECT_EQ(read(target), "second, longer\n");
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator{dir.path}, {}), 1);  // no temporary left
}

// The forty-third trial: a temporary's name was the process id and a count, so a leftover of a process
// with this id (or another container's hml, PID 1 as well) made every later run fail with "File exists".
TEST(Report, WriteFileAtomicallyIsNotBlockedByALeftoverOfTheSameProcessId) {
  const scratch_directory dir;
  const auto target = dir.path / "out.csv";
  hml::write_file_atomically(target, "first\n");
  for (int serial = 0; serial < 16; ++serial) {
    std::ofstream{dir.path / (".hml-" + std::to_string(::getpid()) + "-" + std::to_string(serial) + ".tmp")} << "left\n";
  }
  hml::write_file_atomically(target, "second\n");
  EXPECT_EQ(read(target), "second\n");
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator{dir.path}, {}), 17);  // the leftovers, and no more
}

TEST(Report, WriteFileAtomicallyFollowsLinksAndKeepsPermissions) {
  namespace fs = std::filesystem;
  const scratch_directory dir;
  const auto target = dir.path / "target.csv";
  hml::write_file_atomically(target, "old\n");
  fs::permissions(target, fs::perms::owner_read | fs::perms::owner_write);
  fs::create_symlink(target, dir.path / "link.csv");
  hml::write_file_atomically(dir.path / "link.csv", "new\n");
  EXPECT_TRUE(fs::is_symlink(dir.path / "link.csv")) << "the link stays a link";
  EXPECT_EQ(read(target), "new\n") << "the file it points to is replaced";
  EXPECT_EQ(fs::status(target).permissions(), fs::perms::owner_read | fs::perms::owner_write);
  // A name near the file system's limit: the temporary's name must not grow past it.
  const auto long_name = dir.path / (std::string(250, 'n') + ".csv");
  hml::write_file_atomically(long_name, "x");
  EXPECT_EQ(read(long_name), "x");
  EXPECT_EQ(std::distance(fs::directory_iterator{dir.path}, {}), 3);  // target, link, long name: no temporaries
  EXPECT_THROW(hml::write_file_atomically("", "x"), hml::file_write_error);
  // A link to a file not written yet, by a relative path, through a second link: the file is made where the
  // links lead, and they stay links (a trial's output replaced such a link with a file of its own).
  fs::create_directories(dir.path / "sub");
  fs::create_symlink("sub/new.csv", dir.path / "dangling.csv");
  fs::create_symlink("dangling.csv", dir.path / "twice.csv");
  hml::write_file_atomically(dir.path / "twice.csv", "made\n");
  EXPECT_TRUE(fs::is_symlink(dir.path / "twice.csv") && fs::is_symlink(dir.path / "dangling.csv"));
  EXPECT_EQ(read(dir.path / "sub" / "new.csv"), "made\n");
}

TEST(Report, WriteFileAtomicallyWritesIntoWhatIsNotARegularFile) {
  // A FIFO (as /dev/null or /dev/stdout would be) is written in place, not replaced by a regular file.
  namespace fs = std::filesystem;
  const scratch_directory dir;
  const auto fifo = dir.path / "pipe";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  fs::create_hard_link(fifo, dir.path / "same-pipe");  // to release the reader if the FIFO were replaced
  std::string received;
  std::thread reader{[&] { received = read(fifo); }};
  hml::write_file_atomically(fifo, "through the pipe\n");
  const bool still_a_fifo = fs::is_fifo(fifo);
  if (!still_a_fifo) std::ofstream{dir.path / "same-pipe"}.close();
  reader.join();
  EXPECT_TRUE(still_a_fifo);
  EXPECT_EQ(received, "through the pipe\n");
  EXPECT_EQ(std::distance(fs::directory_iterator{dir.path}, {}), 2);  // the FIFO's two names, no temporary
}

TEST(Report, WriteFileAtomicallyFailsCleanlyAndNamesThePath) {
  const scratch_directory dir;
  const auto expect_failure = [](const std::filesystem::path& target) {
    try {
      hml::write_file_atomically(target, "content");
      ADD_FAILURE() << "no exception for " << target;
    } catch (const hml::file_write_error& e) {
      EXPECT_NE(std::string{e.what()}.find(target.string()), std::string::npos) << e.what();
      EXPECT_EQ(e.path(), target);
    }
  };
  // A directory that does not exist, a "directory" that is a file, a target that is a directory.
  expect_failure(dir.path / "missing" / "out.json");
  hml::write_file_atomically(dir.path / "file", "x");
  expect_failure(dir.path / "file" / "out.json");
  std::filesystem::create_directory(dir.path / "taken");
  std::ofstream{dir.path / "taken" / "inside"} << "keeps the directory non-empty";
  expect_failure(dir.path / "taken");
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator{dir.path}, {}), 2);  // file, taken: no leftovers

  // A read-only directory (permissions do not stop root, so this part needs an ordinary user).
  const auto locked = dir.path / "locked";
  std::filesystem::create_directory(locked);
  std::filesystem::permissions(locked, std::filesystem::perms::owner_read | std::filesystem::perms::owner_exec);
  if (::geteuid() != 0) {
    expect_failure(locked / "out.csv");
    EXPECT_TRUE(std::filesystem::is_empty(locked));
  }
  std::filesystem::permissions(locked, std::filesystem::perms::owner_all);
}

}  // namespace

namespace {

// Writes the example chart where the render test (tests/examples/render_svg.cmake) and people can see it.
TEST(Report, SvgExampleChartIsWritten) {
  const auto target = std::filesystem::path{HML_BIN_DIR} / "roofline-test-chart.svg";
  hml::write_file_atomically(target, hml::to_svg(example_chart()));
  EXPECT_TRUE(std::filesystem::file_size(target) > 1000);
  const auto two = std::filesystem::path{HML_BIN_DIR} / "roofline-test-two-machines.svg";
  hml::write_file_atomically(two, hml::to_svg(two_machines()));
  EXPECT_TRUE(std::filesystem::file_size(two) > 1000);
}

// Rates of things hml has no unit for take the quantities' decimal prefixes, carry included.
TEST(RateText, DecimalPrefixAsQuantitiesHave) {
  EXPECT_EQ(hml::rate_text(1.2e9, "It/s"), "1.2 GIt/s");
  EXPECT_EQ(hml::rate_text(512, "It/s"), "512 It/s");
  EXPECT_EQ(hml::rate_text(15.26e9, "It/s"), "15.26 GIt/s");
  EXPECT_EQ(hml::rate_text(999.96e6, "It/s"), "1 GIt/s");  // 999.96 M at four digits rounds to 1000 M
  EXPECT_EQ(hml::rate_text(0, "It/s"), "0 It/s");
}

}  // namespace
