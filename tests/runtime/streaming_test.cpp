// Row-at-a-time writers (CSV, JSON, the aligned table), atomic files written in pieces, and the kernels
// reader on a byte source: the same text as the whole-table functions, with hostile input refused after
// a bounded number of bytes.
#include <gtest/gtest.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <limits>
#include <random>
#include <span>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>
#include <unistd.h>

import hml;

namespace {

namespace fs = std::filesystem;

hml::table awkward_table() {
  hml::table t{{"name", "value", "note"}, {}};
  t.add_row({std::string{"plain"}, 0.1, std::string{"no quoting"}});
  t.add_row({std::string{"with, comma"}, 1.0 / 3.0, std::string{"say \"hi\""}});
  t.add_row({std::string{"line\r\nbreak"}, 6.02214076e23, hml::no_value{}});
  t.add_row({std::string{"not utf-8 \xff"}, 1e15, std::string{"lf\nonly"}});
  t.add_row({std::string{"integral"}, 100.0, std::string{"\t"}});
  t.add_row({std::string{"infinite"}, std::numeric_limits<double>::infinity(), std::string{"x"}});
  t.add_row({std::string{"nan"}, std::numeric_limits<double>::quiet_NaN(), std::string{"x"}});
  return t;
}

std::vector<hml::cell_view> views(const std::vector<hml::cell>& row) {
  std::vector<hml::cell_view> out;
  for (const hml::cell& c : row) out.push_back(hml::view_of(c));
  return out;
}

// A number as hml's JSON holds it: NaN and infinities as strings, a whole number within 2^53 (not -0) as an
// integer, any other as a double.
nlohmann::ordered_json json_number(double x) {
  if (std::isnan(x)) return "nan";
  if (std::isinf(x)) return x > 0 ? "inf" : "-inf";
  if (std::abs(x) <= 0x1p53 && x == std::trunc(x) && !(x == 0 && std::signbit(x))) return static_cast<std::int64_t>(x);
  return x;
}

// What nlohmann-json itself writes for the table (the array built whole, then dumped).
std::string nlohmann_dump(const hml::table& t, int indent) {
  nlohmann::ordered_json rows = nlohmann::ordered_json::array();
  for (const auto& row : t.rows) {
    nlohmann::ordered_json object = nlohmann::ordered_json::object();
    for (std::size_t c = 0; c < t.columns.size(); ++c) {
      if (const double* x = std::get_if<double>(&row[c])) {
        object[t.columns[c]] = json_number(*x);
      } else if (const std::string* s = std::get_if<std::string>(&row[c])) {
        object[t.columns[c]] = *s;
      } else {
        object[t.columns[c]] = nullptr;
      }
    }
    rows.push_back(std::move(object));
  }
  return rows.dump(indent, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
}

TEST(Streaming, JsonWriterWritesWhatNlohmannWritesForTheWholeArray) {
  const hml::table t = awkward_table();
  for (const int indent : {2, 4, 0, -1}) {
    hml::json_writer writer{t.columns, indent};
    std::string out;
    for (const auto& row : t.rows) writer.row(out, views(row));
    writer.finish(out);
    EXPECT_EQ(out, nlohmann_dump(t, indent)) << "indent " << indent;
    EXPECT_EQ(hml::to_json(t, indent), out);
  }
  const hml::table empty{{"a", "b"}, {}};
  EXPECT_EQ(hml::to_json(empty), nlohmann_dump(empty, 2));
  EXPECT_EQ(hml::to_json(empty), "[]\n");
}

TEST(Streaming, CsvWriterRowsAreTheWholeTablesCsv) {
  const hml::table t = awkward_table();
  hml::csv_writer writer{t.columns};
  std::string out;
  writer.header(out);
  for (const auto& row : t.rows) writer.row(out, views(row));
  EXPECT_EQ(out, hml::to_csv(t));
  EXPECT_TRUE(out.starts_with("name,value,note\r\nplain,0.1,no quoting\r\n\"with, comma\",")) << out;
}

// The writers format a repeated number once; every row must still carry its own number's text.
TEST(Streaming, RepeatedNumbersKeepTheirOwnText) {
  const std::vector<double> values{1.5, 1.5, 0.0, -0.0, -0.0, 0.0, std::numeric_limits<double>::quiet_NaN(),
                                   std::numeric_limits<double>::quiet_NaN(), 2.5, 1.5, 1.5};
  const std::vector<std::string> columns{"x"};
  hml::csv_writer csv{columns};
  hml::json_writer json{columns, -1};
  std::string csv_text;
  std::string json_text;
  for (const double x : values) {
    const std::vector<hml::cell_view> row{x};
    csv.row(csv_text, row);
    json.row(json_text, row);
  }
  json.finish(json_text);
  std::string expected_csv;
  nlohmann::ordered_json expected_json = nlohmann::ordered_json::array();
  for (const double x : values) {
    char text[32];
    expected_csv.append(text, std::to_chars(text, text + sizeof text, x).ptr).append("\r\n");
    expected_json.push_back({{"x", json_number(x)}});
  }
  EXPECT_EQ(csv_text, expected_csv);
  EXPECT_EQ(json_text, expected_json.dump() + "\n");
}

// json_writer escapes a text cell again only when it changes (a sweep's regime repeats); every row must
// still carry its own text, as nlohmann writes it (bytes that are not UTF-8 replaced).
TEST(Streaming, RepeatedTextKeepsItsOwnText) {
  const std::vector<std::string> texts{"memory-bound", "memory-bound", "compute-bound", "memory-bound", "a \"quote\"",
                                       "a \"quote\"",  "bad \xff byte", "bad \xff byte", "", "", "memory-bound"};
  hml::table t{{"regime", "x"}, {}};
  for (std::size_t i = 0; i < texts.size(); ++i) t.rows.push_back({texts[i], static_cast<double>(i % 3)});
  for (const int indent : {2, -1}) {
    hml::json_writer writer{t.columns, indent};
    std::string out;
    for (const auto& row : t.rows) writer.row(out, views(row));
    writer.finish(out);
    EXPECT_EQ(out, nlohmann_dump(t, indent)) << "indent " << indent;
  }
}

// The CSV writer tests a field's bytes eight at a time for the ones that need quotes (comma, quote, CR, LF):
// every such byte at every place of fields of every length up to 24, and bytes that only look alike to a
// word trick (a space, NUL, bytes above 0x7F, neighbours of those four), quote exactly as RFC 4180 says,
// in a row (csv_writer) and in the header (the column names).
TEST(Streaming, CsvQuotesExactlyTheFieldsThatNeedIt) {
  const auto expected = [](const std::string& field) {
    if (field.find_first_of(",\"\r\n") == std::string::npos) return field;
    std::string quoted = "\"";
    for (const char c : field) quoted += c == '"' ? std::string{"\"\""} : std::string(1, c);
    return quoted + "\"";
  };
  for (std::size_t size = 1; size <= 24; ++size) {
    for (std::size_t at = 0; at < size; ++at) {
      for (const char c : {',', '"', '\r', '\n', ' ', '\0', '\x80', '\xAC', '+', '-', '\t', '!', '#'}) {
        std::string field(size, 'x');
        field[at] = c;
        const std::vector<std::string> columns{field, "y"};
        hml::csv_writer writer{columns};
        std::string out;
        writer.header(out);
        writer.row(out, std::vector<hml::cell_view>{std::string_view{field}, std::string_view{"y"}});
        const std::string line = expected(field) + ",y\r\n";
        ASSERT_EQ(out, line + line) << "size " << size << ", byte " << static_cast<int>(c) << " at " << at;
      }
    }
  }
}

TEST(Streaming, TableLayoutMeasuresThenWritesTheSameTable) {
  hml::table t{{"name", "x"}, {}};
  t.add_row({std::string{"a"}, 1.0});
  t.add_row({std::string{"longer name"}, 12345.678});
  hml::table_layout layout{t.columns};
  for (const auto& row : t.rows) layout.measure(views(row));
  std::string out;
  layout.header(out);
  for (const auto& row : t.rows) layout.row(out, views(row));
  EXPECT_EQ(out, hml::format_table(t));
  EXPECT_EQ(out,
            "name               x\n"
            "-----------  -------\n"
            "a                  1\n"
            "longer name  12345.7\n");
}

// A line break or NUL in a text cell would split a table's line or hide the rest of it: they are escapes.
TEST(Streaming, TableShowsControlCharactersAsEscapes) {
  hml::table t{{"name", "x"}, {}};
  t.add_row({std::string{"two\nlines"}, 1.0});
  t.add_row({std::string{"nul\0byte", 8}, 2.0});
  t.add_row({std::string{"cr\rtab\t\x7f"}, 3.0});
  const std::string text = hml::format_table(t);
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 5) << text;  // header, rule, three rows
  EXPECT_EQ(text.find('\0'), std::string::npos);
  EXPECT_EQ(text.find('\r'), std::string::npos);
  EXPECT_NE(text.find("two\\nlines"), std::string::npos) << text;
  EXPECT_NE(text.find("nul\\x00byte"), std::string::npos) << text;
  EXPECT_NE(text.find("cr\\rtab\\t\\x7f"), std::string::npos) << text;
  // Every line is as wide as the rule (the widths count the escapes as shown).
  std::istringstream lines{text};
  std::string header;
  std::string rule;
  std::getline(lines, header);
  std::getline(lines, rule);
  for (std::string line; std::getline(lines, line);) EXPECT_EQ(line.size(), rule.size()) << line;
}

struct scratch_directory {
  fs::path path = fs::temp_directory_path() / ("hml-streaming-test-" + std::to_string(::getpid()) + "-" +
                                               ::testing::UnitTest::GetInstance()->current_test_info()->name());
  scratch_directory() { fs::create_directories(path); }
  ~scratch_directory() { fs::remove_all(path); }
  [[nodiscard]] std::ptrdiff_t entries() const { return std::distance(fs::directory_iterator{path}, {}); }
};

std::string read(const fs::path& p) {
  std::ifstream in{p, std::ios::binary};
  std::ostringstream content;
  content << in.rdbuf();
  return content.str();
}

TEST(Streaming, AtomicFileAppearsWholeAtCommitAndNotAtAllWithout) {
  const scratch_directory dir;
  const fs::path target = dir.path / "out.csv";
  {
    std::ofstream{target} << "old\n";
    hml::atomic_file file{target};
    for (int i = 0; i < 1000; ++i) file.write("a piece of the new content\n");
    EXPECT_EQ(read(target), "old\n") << "a reader sees the old file until the commit";
    file.commit();
    EXPECT_EQ(read(target).size(), 1000 * std::string_view{"a piece of the new content\n"}.size());
    EXPECT_THROW(file.write("late"), hml::file_write_error);
  }
  EXPECT_EQ(dir.entries(), 1);  // no temporary left
  {
    hml::atomic_file file{dir.path / "never.csv"};
    file.write("written, then abandoned (an error part way)");
    // out.csv and the temporary, unless the system gave an unnamed one (O_TMPFILE), which has no entry
    EXPECT_EQ(dir.entries(), file.temporary_path().empty() ? 1 : 2);
  }
  EXPECT_FALSE(fs::exists(dir.path / "never.csv"));
  EXPECT_EQ(dir.entries(), 1) << "the temporary is removed";
}

// --- the kernels reader on a byte source ---------------------------------------------------------------

// A source that hands out `text` at most `block` bytes at a time and counts what it handed out.
struct text_source {
  std::string_view text;
  std::size_t block;
  std::size_t* handed_out;
  std::size_t operator()(std::span<char> buffer) {
    const std::size_t n = std::min({buffer.size(), block, text.size()});
    std::copy_n(text.data(), n, buffer.data());
    text.remove_prefix(n);
    *handed_out += n;
    return n;
  }
};

std::vector<hml::kernel_record> read_in_blocks(std::string_view text, std::size_t block) {
  std::size_t handed_out = 0;
  hml::kernels_csv_reader reader{text_source{text, block, &handed_out}};
  std::vector<hml::kernel_record> kernels;
  for (hml::kernel_record k; reader.next(k);) kernels.push_back(k);
  return kernels;
}

TEST(Streaming, KernelsReadInAnyBlocksAreTheSame) {
  const std::string text =
      "\xEF\xBB\xBFmemory_bytes,name,flops\r\n"
      "12 MB,vector add,1000000\r\n"
      "\r\n"
      "192 MiB,\"matmul, \"\"4096\"\"\",137.4 GFLOP\r"
      "0,registers,1e9\n";
  const std::vector<hml::kernel_record> whole = hml::read_kernels_csv(text);
  ASSERT_EQ(whole.size(), 3u);
  EXPECT_EQ(whole[1].name, "matmul, \"4096\"");
  EXPECT_EQ(whole[2].line, 5u);
  for (const std::size_t block : {1U, 2U, 3U, 5U, 7U, 64U}) {
    const std::vector<hml::kernel_record> blocks = read_in_blocks(text, block);
    ASSERT_EQ(blocks.size(), whole.size()) << "block " << block;
    for (std::size_t i = 0; i < whole.size(); ++i) {
      EXPECT_EQ(blocks[i].name, whole[i].name);
      EXPECT_EQ(blocks[i].flops, whole[i].flops);
      EXPECT_EQ(blocks[i].bytes, whole[i].bytes);
      EXPECT_EQ(blocks[i].line, whole[i].line);
    }
  }
  // A quoted line break is refused (a name holds no control character), at the line where its record begins,
  // and a record after one is counted past both of its lines, however the text arrives.
  const std::string line_break = "name,flops,memory_bytes\nok,1,2\n\"two\nlines\",1,2\n";
  const std::string unclosed = "name,flops,memory_bytes\n\"a\nb\nc\"\"d,1,2\n";
  for (const std::size_t block : {1U, 2U, 3U, 5U, 64U}) {
    for (const auto& [text_read, line] : {std::pair{line_break, 3U}, std::pair{unclosed, 2U}}) {
      try {
        (void)read_in_blocks(text_read, block);
        ADD_FAILURE() << "accepted in blocks of " << block << ": " << text_read;
      } catch (const hml::kernels_csv_error& e) {
        EXPECT_EQ(e.line(), line) << "block " << block << ": " << e.what();
      }
    }
  }
}

// The first kernel comes back while the input is still being produced: the reader does not wait for the end.
TEST(Streaming, KernelsComeBackBeforeTheInputEnds) {
  std::size_t handed_out = 0;
  bool header_given = false;
  hml::kernels_csv_reader reader{[&](std::span<char> buffer) {  // an endless list of kernels
    const std::string_view piece = header_given ? "k,1 GFLOP,1 MB\n" : "name,flops,memory_bytes\n";
    header_given = true;
    const std::size_t n = std::min(buffer.size(), piece.size());
    std::copy_n(piece.data(), n, buffer.data());
    handed_out += n;
    return n;
  }};
  hml::kernel_record k;
  for (int i = 0; i < 100'000; ++i) ASSERT_TRUE(reader.next(k));
  EXPECT_EQ(k.name, "k");
  EXPECT_EQ(k.line, 100'001u);
  EXPECT_LT(handed_out, 100'002u * 16);  // what 100,001 lines take, and at most one block ahead
}

// The error a source of hostile bytes ends with, and how many bytes it took to find it.
struct refusal {
  std::string message;
  std::size_t bytes_read = 0;
};

template <class Next>
refusal refuse(Next next_byte) {
  std::size_t handed_out = 0;
  try {
    hml::kernels_csv_reader reader{[&](std::span<char> buffer) {
      for (char& c : buffer) c = next_byte();
      handed_out += buffer.size();
      return buffer.size();
    }};
    for (hml::kernel_record k; reader.next(k);) {
    }
    ADD_FAILURE() << "an endless hostile input ended";
  } catch (const hml::kernels_csv_error& e) {
    return {e.what(), handed_out};
  }
  return {};
}

constexpr std::size_t block = std::size_t{1} << 16;  // what the reader asks its source for at a time

TEST(Streaming, HostileInputFailsWithinBoundedBytes) {
  // /dev/zero: the first byte is NUL.
  const refusal zeros = refuse([] { return '\0'; });
  EXPECT_EQ(zeros.message, "line 1: a NUL byte: this is binary data, not CSV text; give a CSV file (UTF-8 text)");
  EXPECT_LE(zeros.bytes_read, block);
  // /dev/urandom: random bytes fail at the first line, whatever they are.
  for (unsigned seed = 0; seed < 20; ++seed) {
    std::mt19937 random{seed};
    const refusal noise = refuse([&] { return static_cast<char>(random() & 0xFF); });
    EXPECT_TRUE(noise.message.starts_with("line ")) << noise.message;
    EXPECT_LE(noise.bytes_read, hml::max_kernels_csv_record + block) << noise.message;
  }
  // A line of gigabytes: refused once it passes the bound, so memory holds at most the bound.
  const refusal long_line = refuse([] { return 'a'; });
  EXPECT_EQ(long_line.message, "line 1: a record longer than 1048576 bytes (the most the reader takes; a quote not closed?)");
  EXPECT_LE(long_line.bytes_read, hml::max_kernels_csv_record + block);
  // A quoted field that never closes, over endless lines.
  std::size_t i = 0;
  const std::string_view open_quote = "name,flops,memory_bytes\n\"never closed\n";
  const refusal unclosed = refuse([&] { return i < open_quote.size() ? open_quote[i++] : '\n'; });
  EXPECT_TRUE(unclosed.message.starts_with("line 2: a record longer than")) << unclosed.message;
  EXPECT_LE(unclosed.bytes_read, hml::max_kernels_csv_record + 2 * block);
}

TEST(Streaming, NulInAFieldIsRefusedOnItsLine) {
  const auto error_of = [](std::string_view text) {
    try {
      (void)hml::read_kernels_csv(text);
    } catch (const hml::kernels_csv_error& e) {
      return std::string{e.what()};
    }
    return std::string{"accepted"};
  };
  using namespace std::string_view_literals;
  EXPECT_EQ(error_of("name,flops,memory_bytes\na\0b,1,2\n"sv), "line 2: a NUL byte: this is binary data, not CSV text; give a CSV file (UTF-8 text)");
  EXPECT_EQ(error_of("name,flops,memory_bytes\n\"a\nb\0\",1,2\n"sv),
            "line 3: a NUL byte: this is binary data, not CSV text; give a CSV file (UTF-8 text)");
  EXPECT_EQ(error_of("name,flops,memory_bytes\n\"a\"\0,1,2\n"sv), "line 2: a NUL byte: this is binary data, not CSV text; give a CSV file (UTF-8 text)");
  EXPECT_EQ(error_of("name,flops,memory_bytes\na,1,2\0"sv), "line 2: a NUL byte: this is binary data, not CSV text; give a CSV file (UTF-8 text)");
  // A record just under the bound is read; one byte more is refused (a name is far shorter: spaces pad a figure).
  const std::string padding(hml::max_kernels_csv_record - std::string_view{"n,1,2\n"}.size(), ' ');
  EXPECT_EQ(hml::read_kernels_csv("name,flops,memory_bytes\nn," + padding + "1,2\n").at(0).flops.value(), 1.0);
  EXPECT_TRUE(error_of("name,flops,memory_bytes\nn, " + padding + "1,2\n").starts_with("line 2: a record longer than"));
}

}  // namespace
