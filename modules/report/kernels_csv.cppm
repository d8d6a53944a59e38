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
// kernel at a time, so its memory does not grow with the input. Hostile input fails fast in bounded memory:
// a record (a line, or the lines of a quoted field) longer than max_kernels_csv_record bytes is refused as
// soon as it passes the bound, and so is a NUL byte, which no CSV text holds (binary data such as
// /dev/zero or /dev/urandom fails at its first NUL, or at its first line's header).
module;
#include <algorithm>
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

export namespace hml {

// One operation of the list; `as_kernel()` views `name`, so the record must outlive the kernel.
struct kernel_record {
  std::string name;
  work flops;
  data_size bytes;
  std::size_t line = 0;  // 1-based line of the CSV text where the record starts

  [[nodiscard]] kernel as_kernel() const noexcept { return {name, flops, bytes}; }
};

// A malformed kernels CSV; what() is "line N: <what is wrong>".
class kernels_csv_error : public std::invalid_argument {
public:
  kernels_csv_error(std::size_t line, const std::string& problem)
      : std::invalid_argument("line " + std::to_string(line) + ": " + problem), line_{line} {}
  [[nodiscard]] std::size_t line() const noexcept { return line_; }

private:
  std::size_t line_;
};

inline constexpr std::string_view kernels_csv_header = "name,flops,memory_bytes";

// The longest record the reader takes, in bytes (1 MiB: a kernel's name and two quantities need far less;
// a longer "line" is binary data or a missing closing quote, and reading on would hold it all in memory).
inline constexpr std::size_t max_kernels_csv_record = std::size_t{1} << 20;

// Where the reader's bytes come from: fills the span (or part of it) and returns how many bytes it wrote;
// 0 is the end of the input. It may throw (a read error); the reader lets that through.
using byte_source = std::function<std::size_t(std::span<char>)>;

}  // namespace hml

namespace hml::detail::kernels_csv {

struct record {
  std::vector<std::string> fields;  // kept between records, so their buffers are reused
  std::size_t count = 0;            // fields in use
  std::size_t line = 0;
};

// The bytes of a source, one at a time, through a block buffer.
class byte_reader {
public:
  explicit byte_reader(byte_source source) : source_{std::move(source)}, buffer_(std::size_t{1} << 16) {}

  static constexpr int end = -1;

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
    if (filled_ == buffer_.size()) {  // only skip_prefix keeps bytes: move them to the front
      std::memmove(buffer_.data(), buffer_.data() + at_, filled_ - at_);
      filled_ -= at_;
      at_ = 0;
    }
    const std::size_t got = source_(std::span<char>{buffer_.data() + filled_, buffer_.size() - filled_});
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
      read(r);
      const bool blank = r.count == 1 && r.fields[0].find_first_not_of(" \t") == std::string::npos;
      if (!blank) return true;
    }
  }

  [[nodiscard]] std::size_t line() const noexcept { return line_; }

private:
  // Bytes that end a run of field text: those that end an unquoted field, the quote that ends a quoted one
  // (or is an error in an unquoted one), the line break a quoted field counts, and NUL, which is refused.
  static constexpr bool stops_run(char c) noexcept {
    return c == ',' || c == '"' || c == '\r' || c == '\n' || c == '\0';
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
    if (c == 0) throw kernels_csv_error{line_, "a NUL byte: this is binary data, not CSV text"};
    count(r, 1);
    return c;
  }

  // Appends to `field` the bytes before the next one that stops_run (from the buffer, a block at a time).
  void take_run(const record& r, std::string& field) {
    for (;;) {
      const std::string_view block = in_.buffered();
      std::size_t n = 0;
      while (n < block.size() && !stops_run(block[n])) ++n;
      count(r, n);
      field.append(block.data(), n);
      in_.skip(n);
      if (n < block.size() || block.empty()) return;
    }
  }

  void read(record& r) {
    r.count = 0;
    r.line = line_;
    length_ = 0;
    for (;;) {
      if (r.count == r.fields.size()) r.fields.emplace_back();
      std::string& field = r.fields[r.count++];
      field.clear();
      if (in_.peek() == '"') {
        const std::size_t opened_on = line_;
        take(r);
        for (;;) {
          take_run(r, field);
          if (in_.peek() == byte_reader::end) throw kernels_csv_error{opened_on, "a quoted field is not closed"};
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
          throw kernels_csv_error{line_, "text after the closing quote of a field"};
        }
      } else {
        take_run(r, field);
        const int c = in_.peek();
        if (c == '"') throw kernels_csv_error{line_, "a quote inside an unquoted field"};
        if (c == 0) take(r);  // refused as NUL
      }
      if (in_.peek() == ',') {
        take(r);
        continue;
      }
      if (in_.peek() == '\r') take(r);
      if (in_.peek() == '\n') take(r);
      ++line_;
      return;
    }
  }

  byte_reader in_;
  std::size_t line_ = 1;
  std::size_t length_ = 0;  // bytes of the record being read
};

inline std::string_view trimmed(std::string_view s) {
  const std::size_t first = s.find_first_not_of(" \t");
  if (first == std::string_view::npos) return {};
  return s.substr(first, s.find_last_not_of(" \t") - first + 1);
}

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
  std::string unknown;
  for (std::size_t c = 0; c < header.fields.size(); ++c) {
    const std::string_view column = trimmed(header.fields[c]);
    found += (found.empty() ? "\"" : ", \"") + std::string{column} + "\"";
    std::size_t* slot = column == "name" ? &at.name : column == "flops" ? &at.flops
                        : column == "memory_bytes" ? &at.bytes : nullptr;
    if (slot == nullptr) {
      if (unknown.empty()) unknown = std::string{column};
      continue;
    }
    if (*slot != missing) {
      throw kernels_csv_error{header.line, "the header names the column " + std::string{column} + " twice; " + expected};
    }
    *slot = c;
  }
  // A missing column is named: "bytes" for "memory_bytes" is the usual slip, and the message shows both.
  std::string absent;
  for (const auto& [slot, name] : {std::pair{at.name, "name"}, {at.flops, "flops"}, {at.bytes, "memory_bytes"}}) {
    if (slot == missing) absent += (absent.empty() ? "" : " and ") + std::string{name};
  }
  if (!absent.empty()) {
    throw kernels_csv_error{header.line, "the header has no " + absent + " column (it has " + found + "); " + expected};
  }
  if (!unknown.empty()) {
    throw kernels_csv_error{header.line, "the header has a column \"" + unknown + "\" that is not one of " +
                                             std::string{kernels_csv_header} + "; " + expected};
  }
  return at;
}

template <class Q>
Q read_quantity(const record& r, std::size_t column, std::string_view column_name) {
  // Digits alone, as most files of operations hold them: below 10^15 the integer they spell is exact as a
  // double, so it is the value hml::parse reads (a plain number in the base unit), without its scan and
  // std::from_chars, which were a quarter of the time of reading such a file.
  if (const std::string& text = r.fields[column]; !text.empty() && text.size() <= 15) {
    std::uint64_t value = 0;
    bool digits_only = true;
    for (const char c : text) {
      digits_only = digits_only && c >= '0' && c <= '9';
      value = value * 10 + static_cast<std::uint64_t>(c - '0');
    }
    if (digits_only) return Q::from_value(static_cast<double>(value));
  }
  try {
    return parse<Q>(r.fields[column], {.plain_number_is_base_unit = true});
  } catch (const parse_error& e) {
    throw kernels_csv_error{r.line, std::string{column_name} + ": " + e.what()};
  }
}

}  // namespace hml::detail::kernels_csv

export namespace hml {

// The kernels of a CSV input, one at a time: the constructor reads the header, next() each kernel in order;
// both throw kernels_csv_error (and let a source's own exceptions through).
class kernels_csv_reader {
public:
  explicit kernels_csv_reader(byte_source source) : records_{std::move(source)} {
    namespace k = detail::kernels_csv;
    if (!records_.next(header_)) throw kernels_csv_error{1, "no header: expected " + std::string{kernels_csv_header}};
    header_.fields.resize(header_.count);
    at_ = k::read_header(header_);
  }

  // The next kernel into `out` (its buffers reused), or false at the end of the input.
  bool next(kernel_record& out) {
    namespace k = detail::kernels_csv;
    if (!records_.next(record_)) return false;
    if (record_.count != header_.count) {
      throw kernels_csv_error{record_.line, "expected " + std::to_string(header_.count) +
                                                " fields like the header, found " + std::to_string(record_.count)};
    }
    out.flops = k::read_quantity<work>(record_, at_.flops, "flops");
    out.bytes = k::read_quantity<data_size>(record_, at_.bytes, "memory_bytes");
    out.name.swap(record_.fields[at_.name]);
    out.line = record_.line;
    return true;
  }

private:
  detail::kernels_csv::record_reader records_;
  detail::kernels_csv::record header_;
  detail::kernels_csv::record record_;
  detail::kernels_csv::columns at_{};
};

// The kernels of a CSV text, in order; throws kernels_csv_error.
[[nodiscard]] inline std::vector<kernel_record> read_kernels_csv(std::string_view text) {
  kernels_csv_reader reader{[text](std::span<char> buffer) mutable {
    const std::size_t n = std::min(buffer.size(), text.size());
    std::copy_n(text.data(), n, buffer.data());
    text.remove_prefix(n);
    return n;
  }};
  std::vector<kernel_record> kernels;
  for (kernel_record k; reader.next(k);) kernels.push_back(std::move(k));
  return kernels;
}

}  // namespace hml
