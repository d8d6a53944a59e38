// hml::read_kernels_csv: RFC 4180 fields, units or plain numbers, headers in any order, and errors that
// name their line.
#include <gtest/gtest.h>

#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <vector>

import hml;

namespace {

using namespace hml::literals;

// The line a malformed text is reported on; a test failure if it is not rejected.
std::size_t error_line(std::string_view text) {
  try {
    (void)hml::read_kernels_csv(text);
  } catch (const hml::kernels_csv_error& e) {
    EXPECT_TRUE(std::string{e.what()}.starts_with("line " + std::to_string(e.line()) + ": ")) << e.what();
    return e.line();
  }
  ADD_FAILURE() << "accepted: " << text;
  return 0;
}

TEST(KernelsCsv, PlainNumbersAreFlopAndBytesAndUnitsAreRead) {
  const auto kernels = hml::read_kernels_csv(
      "name,flops,memory_bytes\n"
      "vector add,1000000,12000000\n"
      "matmul,137.4 GFLOP,192 MiB\n"
      "exponent,1e9,0\n");
  ASSERT_EQ(kernels.size(), 3u);
  EXPECT_EQ(kernels[0].name, "vector add");
  EXPECT_EQ(kernels[0].flops, 1_MFLOP);
  EXPECT_EQ(kernels[0].bytes, 12_MB);
  EXPECT_EQ(kernels[1].flops, 137.4_GFLOP);
  EXPECT_EQ(kernels[1].bytes, 192_MiB);
  EXPECT_EQ(kernels[2].flops, 1_GFLOP);
  EXPECT_EQ(kernels[2].bytes, 0_B);
  EXPECT_EQ(kernels[2].line, 4u);
  const hml::kernel k = kernels[1].as_kernel();
  EXPECT_EQ(k.name, "matmul");
  EXPECT_EQ(hml::intensity(k), 137.4_GFLOP / 192_MiB);
}

// Fields of digits alone take a shortcut past hml::parse; they must read as the same values, and anything
// else (spaces, a point, an exponent, 16 digits and more) as hml::parse reads it. Quoted, a field is read
// its leading bytes one at a time and its last 8 at once: 8 to 15 bytes with a point or an exponent in the
// leading bytes or in the last 8 must not pass for digits.
TEST(KernelsCsv, DigitsAloneReadAsHmlParseReadsThem) {
  const std::vector<std::string> fields{"0",          "7",    "007", "123456789012345", "1234567890123456",
                                        "99999999999999999999", "12.5", "1e3", " 42", "42 ",
                                        "12345678", "1234567.5", "1.2345678", "12.345678901", "123456789012e2",
                                        "1234567890123.5"};
  for (const std::string& f : fields) {
    // The field as both columns; "0" beside a 7, since a row of 0 FLOP and 0 B is refused.
    const std::string flops = f == "0" ? "7" : f;
    const auto kernels = hml::read_kernels_csv("name,flops,memory_bytes\nk,\"" + flops + "\",\"" + f + "\"\n" +
                                               "k,\"" + f + "\",\"" + flops + "\"\n");
    ASSERT_EQ(kernels.size(), 2u) << f;
    const hml::parse_options plain{.plain_number_is_base_unit = true};
    EXPECT_EQ(kernels[1].flops.value(), hml::parse<hml::work>(f, plain).value()) << f;
    EXPECT_EQ(kernels[0].bytes.value(), hml::parse<hml::data_size>(f, plain).value()) << f;
  }
}

TEST(KernelsCsv, QuotedFieldsCrlfBomBlankLinesAndColumnOrder) {
  const auto kernels = hml::read_kernels_csv(
      "\xEF\xBB\xBFmemory_bytes, flops ,name\r\n"
      "\r\n"
      "8,2,\"add, \"\"fused\"\"\"\r\n"
      "16,4,\"two, \"\"quoted\"\"\"\r\n"
      "32,8,last");
  ASSERT_EQ(kernels.size(), 3u);
  EXPECT_EQ(kernels[0].name, "add, \"fused\"");
  EXPECT_EQ(kernels[0].flops, 2_FLOP);
  EXPECT_EQ(kernels[0].bytes, 8_B);
  EXPECT_EQ(kernels[0].line, 3u);
  EXPECT_EQ(kernels[1].name, "two, \"quoted\"");
  EXPECT_EQ(kernels[2].line, 5u);
  EXPECT_EQ(kernels[2].name, "last");
  // A header alone is refused, as hml refuses it (the library gave no kernels, the CLI an error).
  try {
    (void)hml::read_kernels_csv("\nname,flops,memory_bytes\n");
    ADD_FAILURE() << "a header alone was read";
  } catch (const hml::kernels_csv_error& e) {
    EXPECT_STREQ(e.what(), "line 2: no kernels after the header; write a kernel a line");
  }
  // A lone CR ends a line too (and counts as one).
  const auto classic_mac = hml::read_kernels_csv("name,flops,memory_bytes\ra,1,2\rb,3,4");
  ASSERT_EQ(classic_mac.size(), 2u);
  EXPECT_EQ(classic_mac[1].name, "b");
  EXPECT_EQ(classic_mac[1].line, 3u);
}

TEST(KernelsCsv, ErrorsNameTheLine) {
  EXPECT_EQ(error_line(""), 1u);
  EXPECT_EQ(error_line("name,flops\n"), 1u);
  EXPECT_EQ(error_line("name,flops,memory_bytes,extra\n"), 1u);
  EXPECT_EQ(error_line("name,flops,flops\n"), 1u);
  EXPECT_EQ(error_line("name,flops,memory_bytes\na,1,2\nb,1\n"), 3u);
  EXPECT_EQ(error_line("name,flops,memory_bytes\na,1,2,3\n"), 2u);
  EXPECT_EQ(error_line("name,flops,memory_bytes\na,-1,2\n"), 2u);
  EXPECT_EQ(error_line("name,flops,memory_bytes\na,1,inf\n"), 2u);
  EXPECT_EQ(error_line("name,flops,memory_bytes\na,1 GB,2\n"), 2u);     // a size where work is expected
  EXPECT_EQ(error_line("name,flops,memory_bytes\na,1,2 GFLOP\n"), 2u);  // work where a size is expected
  EXPECT_EQ(error_line("name,flops,memory_bytes\na,,2\n"), 2u);
  EXPECT_EQ(error_line("name,flops,memory_bytes\n\n\n\"a\"x,1,2\n"), 4u);
  EXPECT_EQ(error_line("name,flops,memory_bytes\na\"b,1,2\n"), 2u);
  EXPECT_EQ(error_line("name,flops,memory_bytes\nok,1,2\n\"never\nclosed,1,2\n"), 3u);
  // A name holds no control character: a quoted line break is refused at the line its record begins.
  EXPECT_EQ(error_line("name,flops,memory_bytes\nok,1,2\n\"two\nlines\",1,2\n"), 3u);
  EXPECT_EQ(error_line("name,flops,memory_bytes\n\"tab\there\",1,2\n"), 2u);
}

// What the reader makes of a text handed to it one byte at a time: then no line is ever whole in its buffer,
// so every line is read byte by byte, where read_kernels_csv reads most in one pass over its buffer.
struct read_result {
  std::vector<hml::kernel_record> kernels;
  std::string error;
};
read_result read_one_byte_at_a_time(std::string_view text) {
  read_result result;
  try {
    hml::kernels_csv_reader reader{[&text](std::span<char> buffer) {
      if (text.empty() || buffer.empty()) return std::size_t{0};
      buffer[0] = text.front();
      text.remove_prefix(1);
      return std::size_t{1};
    }};
    for (hml::kernel_record k; reader.next(k);) result.kernels.push_back(k);
  } catch (const hml::kernels_csv_error& e) {
    result.error = e.what();
  }
  return result;
}
read_result read_whole(std::string_view text) {
  try {
    return {hml::read_kernels_csv(text), {}};
  } catch (const hml::kernels_csv_error& e) {
    return {{}, e.what()};
  }
}

// Both ways must read the same kernels, and refuse the same input with the same message, wherever in a line
// the byte that ends a field falls (the one-pass search goes eight bytes at a time).
// A list has a most: an endless stream ends there, on the line past it (a trial streamed 300 MB of kernels
// into `hml roofline`, which had no bound). The bound is the reader's, given smaller here.
TEST(KernelsCsv, AListPastItsMostIsRefusedOnTheLinePastIt) {
  static_assert(hml::max_kernels_csv_records == 10'000'000);
  hml::kernels_csv_reader reader{hml::text_source("name,flops,memory_bytes\na,1,1\nb,2,2\nc,3,3\n"), 2};
  hml::kernel_record k;
  EXPECT_TRUE(reader.next(k));
  EXPECT_TRUE(reader.next(k));
  try {
    (void)reader.next(k);
    ADD_FAILURE() << "a third kernel was read";
  } catch (const hml::kernels_csv_error& e) {
    EXPECT_EQ(e.line(), 4U);
    EXPECT_EQ(e.problem(), "more than 2 kernels, the most a list takes; split the list");
  }
}

TEST(KernelsCsv, LinesReadInOnePassReadAsByteByByte) {
  std::string text = "name,flops,memory_bytes\n\n  \r\n";
  for (std::size_t at = 0; at < 20; ++at) {
    const char* const line_end = at % 3 == 0 ? "\r\n" : at % 3 == 1 ? "\n" : "\r";
    text += std::string(1 + at, 'n') + "," + std::string(1 + at % 9, '7') + "," + std::to_string(at) + " GB" + line_end;
  }
  text += "\"quoted, once\",1,2\nlast,3,4";  // a quote, and a last line without a line break
  const read_result whole = read_whole(text);
  const read_result bytes = read_one_byte_at_a_time(text);
  ASSERT_EQ(whole.error, "");
  ASSERT_EQ(whole.kernels.size(), 22u);
  ASSERT_EQ(bytes.kernels.size(), whole.kernels.size());
  for (std::size_t i = 0; i < whole.kernels.size(); ++i) {
    EXPECT_EQ(whole.kernels[i].name, bytes.kernels[i].name);
    EXPECT_EQ(whole.kernels[i].flops, bytes.kernels[i].flops);
    EXPECT_EQ(whole.kernels[i].bytes, bytes.kernels[i].bytes);
    EXPECT_EQ(whole.kernels[i].line, bytes.kernels[i].line);
  }
  EXPECT_EQ(whole.kernels[19].name, std::string(20, 'n'));
  EXPECT_EQ(whole.kernels[19].flops, 77_FLOP);  // 1 + 19 % 9 sevens
  EXPECT_EQ(whole.kernels[19].bytes, 19_GB);
  EXPECT_EQ(whole.kernels[19].line, 23u);  // after the header, two blank lines and 19 lines
  EXPECT_EQ(whole.kernels[20].name, "quoted, once");
  for (std::size_t at = 0; at < 20; ++at) {
    for (const char wrong : {'\0', '"'}) {
      std::string bad = "name,flops,memory_bytes\nok,1,2\n" + std::string(20, 'x') + ",1,2\n";
      bad[bad.size() - 25 + at] = wrong;  // in the 20 x's
      const read_result refused = read_whole(bad);
      EXPECT_TRUE(refused.error.starts_with("line 3: ")) << refused.error;
      EXPECT_EQ(refused.error, read_one_byte_at_a_time(bad).error);
    }
  }
}

// Unquoted, a field of digits is read 16 bytes at a time from the reader's block, the bytes after it
// included (a comma, the next field, a line break, or the block's unfilled end): the same values as
// hml::parse gives, and as the byte-by-byte reader (quoted fields above, or one byte at a time) gives, for
// every length of digits, whatever follows them, and at every place in the 64 KiB block.
TEST(KernelsCsv, UnquotedDigitsReadAsHmlParseReadsThem) {
  const hml::parse_options plain{.plain_number_is_base_unit = true};
  std::vector<std::string> fields{"0", "007", "1234567890123456", "99999999999999999999", "12.5", "1e3", " 42", "4 2"};
  for (std::size_t digits = 1; digits <= 16; ++digits) fields.push_back(std::string{"9876543210987654"}.substr(0, digits));
  for (const std::string& f : fields) {
    for (const std::string_view after : {"\n", "\r\n", ",", ",123456789012345678\n", ""}) {
      // As flops (a comma and more digits follow) and as memory_bytes (what `after` holds follows).
      const std::string text = "name,flops,memory_bytes\nk," + f + "," + f + std::string{after};
      const read_result whole = read_whole(text);
      const read_result bytes = read_one_byte_at_a_time(text);
      EXPECT_EQ(whole.error, bytes.error) << text;
      ASSERT_EQ(whole.kernels.size(), bytes.kernels.size()) << text;
      if (!whole.error.empty()) continue;  // ",": one field too many, either way
      ASSERT_EQ(whole.kernels.size(), 1u) << text;
      EXPECT_EQ(whole.kernels[0].flops.value(), hml::parse<hml::work>(f, plain).value()) << text;
      EXPECT_EQ(whole.kernels[0].bytes.value(), hml::parse<hml::data_size>(f, plain).value()) << text;
      EXPECT_EQ(bytes.kernels[0].bytes, whole.kernels[0].bytes) << text;
    }
  }
  // Lines of every length across several blocks, so that fields end at every place of a block, its last
  // bytes included.
  std::string text = "name,flops,memory_bytes\n";
  std::vector<double> expected;
  for (std::size_t i = 0; text.size() < 200'000; ++i) {
    const std::string n = std::to_string(((i + 1) * 7'919'117) % 1'000'000'000'000'000ULL).substr(0, 1 + i % 15);
    text += std::string(1 + i % 5, 'x') + "," + n + "," + n + "\n";
    expected.push_back(hml::parse<hml::work>(n, plain).value());
  }
  const read_result whole = read_whole(text);
  ASSERT_EQ(whole.error, "");
  ASSERT_EQ(whole.kernels.size(), expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i) {
    ASSERT_EQ(whole.kernels[i].flops.value(), expected[i]) << i;
    ASSERT_EQ(whole.kernels[i].bytes.value(), expected[i]) << i;
  }
}

TEST(KernelsCsv, AQuantityErrorKeepsTheParserMessage) {
  std::string parser_message;
  try {
    (void)hml::parse<hml::data_size>("10 gb", {.plain_number_is_base_unit = true, .sizes_in_bytes = true});
  } catch (const hml::parse_error& e) {
    parser_message = e.what();
  }
  ASSERT_FALSE(parser_message.empty());
  try {
    (void)hml::read_kernels_csv("name,flops,memory_bytes\na,1,10 gb\n");
    FAIL() << "accepted";
  } catch (const hml::kernels_csv_error& e) {
    EXPECT_EQ(std::string{e.what()}, "line 2: memory_bytes: " + parser_message);
  }
}

}  // namespace
