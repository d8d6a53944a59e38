// hml.report:kernels_csv — a list of kernels from CSV text, as seed 002 takes its operations:
//
//   name,flops,memory_bytes
//   vector add,1000000,12000000
//   "matmul, 4096",137.4 GFLOP,192 MiB
//
// RFC 4180 (quoted fields may hold commas, quotes and line breaks; lines end in CRLF, LF or a lone CR). The header
// names the three columns in any order. Plain numbers are FLOP and bytes; numbers with units are read by
// hml::parse. Blank lines are skipped. Any error names the line it is on.
//
// The reader streams: kernels_csv_reader pulls bytes from a source in 64 KiB blocks and hands out one
// kernel at a time, so its memory does not grow with the input. A line without quotes that a block holds
// whole (nearly every line of a real file) is read in one pass, its fields views of the block; any other
// record is read byte by byte into strings. Hostile input fails fast in bounded memory:
// a record (a line, or the lines of a quoted field) longer than max_kernels_csv_record bytes is refused as
// soon as it passes the bound, and so is a NUL byte, which no CSV text holds (binary data such as
// /dev/zero or /dev/urandom fails at its first NUL, or at its first line's header).
module;
#include <algorithm>
#include <bit>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>
export module hml.report:kernels_csv;
import hml.analysis;
import hml.spelling;
import :csv;  // detail::find_first_of_bytes

export namespace hml {

// One operation of the list; `as_kernel()` views `name`, so the record must outlive the kernel (clang warns
// where a temporary record's does not).
struct [[gsl::Owner]] kernel_record {
  std::string name;
  work flops;
  data_size bytes;
  std::size_t line = 0;  // 1-based line of the CSV text where the record starts

  [[nodiscard]] kernel as_kernel() const noexcept [[clang::lifetimebound]] { return {name, flops, bytes}; }
};

// A malformed kernels CSV; what() is "line N: <what is wrong>".
class kernels_csv_error : public std::invalid_argument {
public:
  kernels_csv_error(std::size_t line, const std::string& problem)
      : std::invalid_argument("line " + std::to_string(line) + ": " + problem), line_{line}, problem_{problem} {}
  [[nodiscard]] std::size_t line() const noexcept { return line_; }
  // What is wrong, without the line: "flops: cannot read ..."; a tool says FILE:LINE: before it.
  [[nodiscard]] const std::string& problem() const noexcept { return problem_; }

  // A model's check failed on a field: "FIELD: what the check says", without its "hml: ".
  kernels_csv_error(std::size_t line, std::string_view field, const std::exception& check)
      : kernels_csv_error(line, std::string{field} + ": " + std::string{without_hml_prefix(check.what())}) {}

private:
  std::size_t line_;
  std::string problem_;
};

inline constexpr std::string_view kernels_csv_header = "name,flops,memory_bytes";

// The longest record the reader takes, in bytes (1 MiB: a kernel's name and two quantities need far less;
// a longer "line" is binary data or a missing closing quote, and reading on would hold it all in memory).
inline constexpr std::size_t max_kernels_csv_record = std::size_t{1} << 20;

// The longest name a kernel, a run's system or a citation may have, in bytes: a label to read, not data (a
// chart of kernels named by a megabyte each took over half a second and 5 MB of memory a name).
inline constexpr std::size_t max_name_bytes = 1'000;

// The most kernels a list holds: `hml roofline` streams 10^7 in under a second as CSV and in about seven as
// an aligned table (release build), which is as long as a run may take; an endless stream ends there.
inline constexpr std::size_t max_kernels_csv_records = 10'000'000;

// Where the reader's bytes come from: fills the span (or part of it) and returns how many bytes it wrote;
// 0 is the end of the input. It may throw (a read error); the reader lets that through.
using byte_source = std::function<std::size_t(std::span<char>)>;

}  // namespace hml

namespace hml::detail::kernels_csv {

// A record's fields, valid until the next record is read: views of the reader's buffer, or of `copies` for
// a record read byte by byte. Both vectors are kept between records, so their buffers are reused.
struct record {
  std::vector<std::string_view> fields;
  std::vector<std::string> copies;
  std::size_t line = 0;
  // The fields are views of the reader's block, which may be read byte_reader::slack bytes past any field's
  // end (a number's digits are loaded 16 bytes at a time); false for fields in `copies`.
  bool readable_past_fields = false;
};

// A record of other than the header's fields, said with what to do: fields past the header's all empty are
// a trailing comma; more, a comma inside a field; fewer, a field left out.
[[nodiscard]] inline std::string field_count_problem(const record& r, std::size_t expected) {
  const std::size_t found = r.fields.size();
  const bool trailing = found > expected && std::all_of(r.fields.begin() + static_cast<std::ptrdiff_t>(expected), r.fields.end(),
                                                        [](std::string_view f) { return f.empty(); });
  return "expected " + std::to_string(expected) + " fields like the header, found " + std::to_string(found) +
         (trailing ? "; delete the comma at the line's end" : found > expected ? "; quote a field that holds a comma"
                                                                               : "; give each column its field (empty between two commas)");
}

// The bytes of a source, one at a time, through a block buffer.
class byte_reader {
public:
  explicit byte_reader(byte_source source) : source_{std::move(source)}, buffer_(block + slack) {}

  static constexpr int end = -1;
  // Bytes read at a time, and bytes after them that are never filled but may be read (as zeros).
  static constexpr std::size_t block = std::size_t{1} << 16;
  static constexpr std::size_t slack = 16;

  int peek() {
    if (at_ == filled_ && !refill()) return end;
    return static_cast<unsigned char>(buffer_[at_]);
  }
  int get() {
    const int c = peek();
    if (c != end) ++at_;
    return c;
  }
  // Skips `prefix` if the input starts with it (the buffer holds at least its size unless the input is shorter).
  void skip_prefix(std::string_view prefix) {
    while (filled_ - at_ < prefix.size() && refill()) {
    }
    if (std::string_view{buffer_.data() + at_, filled_ - at_}.starts_with(prefix)) at_ += prefix.size();
  }
  // The bytes buffered from here on (refilled when none are), for a caller that scans many at once and
  // then skip()s them; empty at the end of the input.
  std::string_view buffered() {
    if (at_ == filled_) refill();
    return {buffer_.data() + at_, filled_ - at_};
  }
  void skip(std::size_t n) noexcept { at_ += n; }

private:
  // More bytes after what the buffer holds; false at the end of the input.
  bool refill() {
    if (ended_) return false;
    if (at_ == filled_) at_ = filled_ = 0;
    if (filled_ == block) {  // only skip_prefix keeps bytes: move them to the front
      std::memmove(buffer_.data(), buffer_.data() + at_, filled_ - at_);
      filled_ -= at_;
      at_ = 0;
    }
    const std::size_t got = source_(std::span<char>{buffer_.data() + filled_, block - filled_});
    if (got == 0) ended_ = true;
    filled_ += got;
    return got > 0;
  }

  byte_source source_;
  std::vector<char> buffer_;
  std::size_t at_ = 0;
  std::size_t filled_ = 0;
  bool ended_ = false;
};

// Reads RFC 4180 records; a field is quoted only if it starts with a quote, which must then close it.
class record_reader {
public:
  explicit record_reader(byte_source source) : in_{std::move(source)} {
    in_.skip_prefix("\xEF\xBB\xBF");  // a UTF-8 byte order mark
  }

  // The next record that is not blank, or false at the end of the input.
  bool next(record& r) {
    for (;;) {
      if (in_.peek() == byte_reader::end) return false;
      if (!read_plain_line(r)) read(r);
      const bool blank = r.fields.size() == 1 && r.fields[0].find_first_not_of(" \t") == std::string_view::npos;
      if (!blank) return true;
    }
  }

  [[nodiscard]] std::size_t line() const noexcept { return line_; }

private:
  // The first byte of `block` at or after `from` that ends a run of field text: one that ends an unquoted
  // field, the quote that ends a quoted one (or is an error in an unquoted one), the line break a quoted
  // field counts, and NUL, which is refused. block.size() if none does.
  static std::size_t end_of_run(std::string_view block, std::size_t from = 0) noexcept {
    return find_first_of_bytes<',', '"', '\r', '\n', '\0'>(block, from);
  }

  // The common record, a line without quotes that the buffer holds whole, read in one pass over the buffer,
  // its fields views of it (no byte is copied); false, with nothing read, for any other, which read() takes
  // byte by byte: a quote or NUL, a line that goes on past the buffer, a CR at its end (an LF may follow).
  // The buffer is far shorter than max_kernels_csv_record, so such a line is never too long.
  bool read_plain_line(record& r) {
    const std::string_view block = in_.buffered();
    r.fields.clear();
    r.readable_past_fields = true;
    std::size_t field_start = 0;
    for (std::size_t i = end_of_run(block); i < block.size(); i = end_of_run(block, i + 1)) {
      const char c = block[i];
      if (c == ',') {
        r.fields.push_back(block.substr(field_start, i - field_start));
        field_start = i + 1;
        continue;
      }
      const bool line_end = c == '\n' || (c == '\r' && i + 1 < block.size());
      if (!line_end) return false;
      r.fields.push_back(block.substr(field_start, i - field_start));
      r.line = line_++;
      in_.skip(i + (c == '\r' && block[i + 1] == '\n' ? 2 : 1));
      return true;
    }
    return false;
  }

  // Counts `n` more bytes of the record `r`: refuses records past the bound.
  void count(const record& r, std::size_t n) {
    length_ += n;
    if (length_ > max_kernels_csv_record) {
      throw kernels_csv_error{r.line, "a record longer than " + std::to_string(max_kernels_csv_record) +
                                          " bytes (the most the reader takes; a quote not closed?)"};
    }
  }

  // The next byte of the record `r`; refuses NUL.
  int take(const record& r) {
    const int c = in_.get();
    if (c == 0) throw kernels_csv_error{line_, "a NUL byte: this is binary data, not CSV text; give a CSV file (UTF-8 text)"};
    count(r, 1);
    return c;
  }

  // Appends to `field` the bytes before the next one that ends a run (from the buffer, a block at a time).
  void take_run(const record& r, std::string& field) {
    for (;;) {
      const std::string_view block = in_.buffered();
      const std::size_t n = end_of_run(block);
      count(r, n);
      field.append(block.data(), n);
      in_.skip(n);
      if (n < block.size() || block.empty()) return;
    }
  }

  void read(record& r) {
    std::size_t count = 0;
    r.line = line_;
    length_ = 0;
    for (;;) {
      if (count == r.copies.size()) r.copies.emplace_back();
      std::string& field = r.copies[count++];
      field.clear();
      if (in_.peek() == '"') {
        const std::size_t opened_on = line_;
        take(r);
        for (;;) {
          take_run(r, field);
          if (in_.peek() == byte_reader::end) throw kernels_csv_error{opened_on, "a quoted field is not closed; end it with a quote"};
          const int c = take(r);
          if (c == '"') {
            if (in_.peek() != '"') break;
            take(r);
          } else if (c == '\n') {
            ++line_;
          }
          field += static_cast<char>(c);
        }
        const int after = in_.peek();
        if (after != byte_reader::end && after != ',' && after != '\r' && after != '\n') {
          if (after == 0) take(r);  // refused as NUL
          throw kernels_csv_error{line_, "text after the closing quote of a field; quote the whole field, and double a quote inside it (\"\")"};
        }
      } else {
        take_run(r, field);
        const int c = in_.peek();
        if (c == '"') throw kernels_csv_error{line_, "a quote inside an unquoted field; quote the whole field, and double a quote inside it (\"\")"};
        if (c == 0) take(r);  // refused as NUL
      }
      if (in_.peek() == ',') {
        take(r);
        continue;
      }
      if (in_.peek() == '\r') take(r);
      if (in_.peek() == '\n') take(r);
      ++line_;
      r.fields.assign(r.copies.begin(), r.copies.begin() + static_cast<std::ptrdiff_t>(count));
      r.readable_past_fields = false;
      return;
    }
  }

  byte_reader in_;
  std::size_t line_ = 1;
  std::size_t length_ = 0;  // bytes of the record being read
};

// The position of each of name, flops and memory_bytes in the header.
struct columns {
  std::size_t name, flops, bytes;
};

inline columns read_header(const record& header) {
  constexpr std::size_t missing = static_cast<std::size_t>(-1);
  const std::string expected =
      "expected the columns " + std::string{kernels_csv_header} + " (in any order, each once)";
  columns at{missing, missing, missing};
  std::string found;  // the header's columns as written, for the message
  std::vector<std::string_view> unknowns;  // each a slip of a missing column, perhaps ("flps")
  std::size_t empty_column = missing;      // a column without a name: its cells would be dropped unread
  for (std::size_t c = 0; c < header.fields.size(); ++c) {
    const std::string_view column = trimmed(header.fields[c]);
    found += (found.empty() ? "\"" : ", \"") + std::string{column} + "\"";
    std::size_t* slot = column == "name" ? &at.name : column == "flops" ? &at.flops
                        : column == "memory_bytes" ? &at.bytes : nullptr;
    if (slot == nullptr) {
      if (column.empty() && empty_column == missing) empty_column = c;
      unknowns.push_back(column);
      continue;
    }
    if (*slot != missing) {
      throw kernels_csv_error{header.line, "the header names the column " + std::string{column} + " twice; " + expected};
    }
    *slot = c;
  }
  // A missing column is named: "bytes" for "memory_bytes" is the usual slip, and the message shows both.
  std::vector<std::string_view> absent;
  for (const auto& [slot, name] : {std::pair{at.name, "name"}, {at.flops, "flops"}, {at.bytes, "memory_bytes"}}) {
    if (slot == missing) absent.push_back(name);
  }
  if (!absent.empty()) {
    std::string names;  // "name", "flops and memory_bytes", "name, flops and memory_bytes"
    for (std::size_t i = 0; i < absent.size(); ++i) {
      names += (i == 0 ? "" : i + 1 == absent.size() ? " and " : ", ") + std::string{absent[i]};
    }
    std::vector<std::string> meanings;  // "flops for \"flps\"", one a column that is a slip of a missing one
    for (const std::string_view column : unknowns) {
      if (const std::vector<std::string_view> meant = closest_spellings(column, absent, 1); !meant.empty())
        meanings.push_back(std::string{meant.front()} + " for \"" + message_text(column) + "\"");
    }
    std::string slips;  // "; did you mean flops for \"flps\"?", "; did you mean name for \"NAME\" and flops for \"FLOPS\"?"
    for (std::size_t i = 0; i < meanings.size(); ++i) {
      slips += (i == 0 ? "; did you mean " : i + 1 == meanings.size() ? " and " : ", ") + meanings[i];
    }
    if (!slips.empty()) slips += "?";
    throw kernels_csv_error{header.line, "the header has no " + names + (absent.size() > 1 ? " columns" : " column") +
                                             " (it has " + found + ")" + (slips.empty() ? "; " + expected : slips)};
  }
  if (empty_column != missing) {
    throw kernels_csv_error{header.line, "the header's column " + std::to_string(empty_column + 1) +
                                             " has no name (a comma too many?); " + expected};
  }
  if (!unknowns.empty()) {
    throw kernels_csv_error{header.line, "the header has a column \"" + message_text(unknowns.front()) +
                                             "\" that is not one of " + std::string{kernels_csv_header} + "; " + expected};
  }
  return at;
}

// Whether the 8 bytes of `word` (the first in its lowest byte) are all digits, and if so their value in
// `value`: a test and three multiplications for the 8 (the method of simdjson's parse_eight_digits), where a
// loop takes 8 of each. The callers load `word` from the text with memcpy, which puts the first byte lowest
// only on a little-endian machine: elsewhere it declines, and they read the field through hml::parse.
inline bool eight_digits_value(std::uint64_t word, std::uint64_t& value) noexcept {
  if constexpr (std::endian::native != std::endian::little) return false;
  // A digit is 0x30 to 0x39: its high half is 3, and adding 6 to its low half carries nothing into it.
  if (((word & 0xF0F0'F0F0'F0F0'F0F0ULL) | (((word + 0x0606'0606'0606'0606ULL) & 0xF0F0'F0F0'F0F0'F0F0ULL) >> 4)) !=
      0x3333'3333'3333'3333ULL) {
    return false;
  }
  word -= 0x3030'3030'3030'3030ULL;
  word = word * 10 + (word >> 8);  // pairs of digits, in every other byte
  value = ((((word & 0x0000'00FF'0000'00FFULL) * 0x000F'4240'0000'0064ULL) +
            (((word >> 16) & 0x0000'00FF'0000'00FFULL) * 0x0000'2710'0000'0001ULL)) >> 32) & 0xFFFF'FFFFULL;
  return true;
}

// The value of `text` if it is 1 to 15 digits alone (below 10^15, so exact as a double), read as 16 bytes
// at once, `text` and the bytes after it: the bytes past its end are shifted out and '0's shifted in before
// it, so the 16 digits spell the same number; no loop, so no branch on the number of digits. The 16 bytes
// from text.data() must be readable (record::readable_past_fields).
inline bool short_digits_value(std::string_view text, std::uint64_t& value) noexcept {
  if constexpr (std::endian::native != std::endian::little) return false;
  const std::size_t size = text.size();
  if (size == 0 || size > 15) return false;
  using u128 = unsigned __int128;
  std::uint64_t first = 0;
  std::uint64_t second = 0;
  std::memcpy(&first, text.data(), 8);
  std::memcpy(&second, text.data() + 8, 8);
  constexpr u128 zeros = (u128{0x3030'3030'3030'3030ULL} << 64) | 0x3030'3030'3030'3030ULL;
  // The first byte is the lowest: shifting up by the 16 - size bytes that are missing drops the bytes after
  // the text and leaves room for the leading '0's.
  const u128 sixteen = ((static_cast<u128>(second) << 64 | first) << (8 * (16 - size))) | (zeros >> (8 * size));
  std::uint64_t high = 0;
  std::uint64_t low = 0;
  if (!eight_digits_value(static_cast<std::uint64_t>(sixteen), high) ||
      !eight_digits_value(static_cast<std::uint64_t>(sixteen >> 64), low)) {
    return false;
  }
  value = high * 100'000'000 + low;
  return true;
}

template <class Q>
Q read_quantity(const record& r, std::size_t column, std::string_view column_name) {
  // Digits alone, as most files of operations hold them: below 10^15 the integer they spell is exact as a
  // double, so it is the value hml::parse reads (a plain number in the base unit), without its scan and
  // std::from_chars, which were a quarter of the time of reading such a file. A field that is a view of the
  // reader's block is read 16 bytes at once (short_digits_value); a copied one (a record read byte by
  // byte), its last 8 digits at once and the others one at a time.
  const std::string_view text = r.fields[column];
  std::uint64_t value = 0;
  if (r.readable_past_fields) {
    if (short_digits_value(text, value)) return Q::from_value(static_cast<double>(value));
  } else if (!text.empty() && text.size() <= 15) {
    const std::size_t one_by_one = text.size() >= 8 ? text.size() - 8 : text.size();
    std::size_t digits = 0;
    for (; digits < one_by_one; ++digits) {
      const unsigned digit = static_cast<unsigned char>(text[digits]) - unsigned{'0'};  // > 9 if not a digit
      if (digit > 9) break;
      value = value * 10 + digit;
    }
    if (digits == text.size()) return Q::from_value(static_cast<double>(value));
    // Only a field of 8 bytes or more gets here with digits == one_by_one (a shorter one of digits alone
    // returned above): its last 8 bytes, read at once, may still be something else (a point, an exponent).
    if (digits == one_by_one) {
      std::uint64_t word = 0;
      std::uint64_t last_eight = 0;
      std::memcpy(&word, text.data() + digits, 8);
      if (eight_digits_value(word, last_eight)) {
        return Q::from_value(static_cast<double>(value * 100'000'000 + last_eight));
      }
    }
  }
  Q q{};
  try {
    q = parse<Q>(text, {.plain_number_is_base_unit = true, .sizes_in_bytes = true});
  } catch (const parse_error& e) {
    throw kernels_csv_error{r.line, std::string{column_name} + ": " + e.what()};
  }
  return q;
}

}  // namespace hml::detail::kernels_csv

export namespace hml {

// The kernels of a CSV input, one at a time: the constructor reads the header, next() each kernel in order;
// both throw kernels_csv_error (and let a source's own exceptions through).
class kernels_csv_reader {
public:
  // `most`: the most kernels it takes (a test gives fewer to see the refusal).
  explicit kernels_csv_reader(byte_source source, std::size_t most = max_kernels_csv_records)
      : records_{std::move(source)}, most_{most} {
    namespace k = detail::kernels_csv;
    k::record header;
    if (!records_.next(header)) throw kernels_csv_error{1, "no header; write the first line as " + std::string{kernels_csv_header}};
    at_ = k::read_header(header);
    header_fields_ = header.fields.size();
    header_line_ = header.line;
  }

  // The next kernel into `out` (its buffers reused), or false at the end of the input, which holds one at
  // least: a list of no kernels has nothing to analyse or draw.
  bool next(kernel_record& out) {
    namespace k = detail::kernels_csv;
    if (!records_.next(record_)) {
      if (kernels_ == 0) throw kernels_csv_error{header_line_, "no kernels after the header; write a kernel a line"};
      return false;
    }
    if (++kernels_ > most_)
      throw kernels_csv_error{record_.line, "more than " + std::to_string(most_) + " kernels, the most a list takes; split the list"};
    if (record_.fields.size() != header_fields_) throw kernels_csv_error{record_.line, k::field_count_problem(record_, header_fields_)};
    out.flops = k::read_quantity<work>(record_, at_.flops, "flops");
    out.bytes = k::read_quantity<data_size>(record_, at_.bytes, "memory_bytes");
    // Neither FLOP nor bytes: no time, no intensity, no bound; a row of nothing is a mistake in the file.
    if (out.flops.value() == 0 && out.bytes.value() == 0) {
      throw kernels_csv_error{record_.line, "flops, memory_bytes: both 0; a kernel computes or moves bytes"};
    }
    try {
      validate_kernel_bytes(out.bytes);
    } catch (const std::invalid_argument& e) {
      throw kernels_csv_error{record_.line, "memory_bytes", e};
    }
    out.name.assign(record_.fields[at_.name]);
    // A name goes into tables, SVG text and JSON strings: control characters and bytes that are not UTF-8
    // would make those invalid (or move a terminal's cursor), so they are refused here, once.
    if (!is_printable_utf8(out.name)) throw kernels_csv_error{record_.line, "name: " + unprintable_part(out.name) + "; write printable UTF-8 text, on one line"};
    // Rows, labels and JSON name each kernel: a blank one could not be told from a row without a name.
    if (is_blank(out.name)) throw kernels_csv_error{record_.line, "name: empty; every kernel needs a name"};
    if (out.name.size() > max_name_bytes)
      throw kernels_csv_error{record_.line, "name: longer than " + std::to_string(max_name_bytes) + " bytes; shorten it"};
    out.line = record_.line;
    return true;
  }

private:
  detail::kernels_csv::record_reader records_;
  detail::kernels_csv::record record_;
  detail::kernels_csv::columns at_{};
  std::size_t header_fields_ = 0;
  std::size_t header_line_ = 1;
  std::size_t most_;
  std::size_t kernels_ = 0;
};

// The bytes of a text in memory, as a reader's source.
[[nodiscard]] inline byte_source text_source(std::string_view text) {
  return [text](std::span<char> buffer) mutable {
    const std::size_t n = std::min(buffer.size(), text.size());
    std::copy_n(text.data(), n, buffer.data());
    text.remove_prefix(n);
    return n;
  };
}

// The kernels of a CSV text, in order; throws kernels_csv_error.
[[nodiscard]] inline std::vector<kernel_record> read_kernels_csv(std::string_view text) {
  kernels_csv_reader reader{text_source(text)};
  std::vector<kernel_record> kernels;
  for (kernel_record k; reader.next(k);) kernels.push_back(std::move(k));
  return kernels;
}

}  // namespace hml
