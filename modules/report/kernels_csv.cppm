// hml.report:kernels_csv — a list of kernels from CSV text, as seed 002 takes its operations:
//
//   name,flops,memory_bytes
//   vector add,1000000,12000000
//   "matmul, 4096",137.4 GFLOP,192 MiB
//
// RFC 4180 (quoted fields may hold commas, quotes and line breaks; lines end in CRLF, LF or a lone CR). The header
// names the three columns in any order. Plain numbers are FLOP and bytes; numbers with units are read by
// hml::parse. Blank lines are skipped. Any error names the line it is on.
module;
#include <cstddef>
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

}  // namespace hml

namespace hml::detail::kernels_csv {

struct record {
  std::vector<std::string> fields;
  std::size_t line = 0;
};

// RFC 4180 records; a field is quoted only if it starts with a quote, which must then close it.
inline std::vector<record> split_records(std::string_view text) {
  if (text.starts_with("\xEF\xBB\xBF")) text.remove_prefix(3);  // a UTF-8 byte order mark
  std::vector<record> records;
  std::size_t line = 1;
  std::size_t i = 0;
  while (i < text.size()) {
    record r{{}, line};
    std::string field;
    bool record_done = false;
    while (!record_done) {
      if (i < text.size() && text[i] == '"') {
        const std::size_t opened_on = line;
        for (++i;; ++i) {
          if (i >= text.size()) throw kernels_csv_error{opened_on, "a quoted field is not closed"};
          if (text[i] == '"') {
            if (i + 1 < text.size() && text[i + 1] == '"') {
              field += '"';
              ++i;
              continue;
            }
            ++i;
            break;
          }
          if (text[i] == '\n') ++line;
          field += text[i];
        }
        if (i < text.size() && text[i] != ',' && text[i] != '\r' && text[i] != '\n') {
          throw kernels_csv_error{line, "text after the closing quote of a field"};
        }
      } else {
        while (i < text.size() && text[i] != ',' && text[i] != '\r' && text[i] != '\n') {
          if (text[i] == '"') throw kernels_csv_error{line, "a quote inside an unquoted field"};
          field += text[i++];
        }
      }
      r.fields.push_back(std::move(field));
      field.clear();
      if (i < text.size() && text[i] == ',') {
        ++i;
        continue;
      }
      if (i < text.size() && text[i] == '\r') ++i;
      if (i < text.size() && text[i] == '\n') ++i;
      ++line;
      record_done = true;
    }
    const bool blank = r.fields.size() == 1 && r.fields[0].find_first_not_of(" \t") == std::string::npos;
    if (!blank) records.push_back(std::move(r));
  }
  return records;
}

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
  columns at{missing, missing, missing};
  for (std::size_t c = 0; c < header.fields.size(); ++c) {
    const std::string_view column = trimmed(header.fields[c]);
    std::size_t* slot = column == "name" ? &at.name : column == "flops" ? &at.flops
                        : column == "memory_bytes" ? &at.bytes : nullptr;
    if (slot == nullptr || *slot != missing) {
      throw kernels_csv_error{header.line, "the header must name the columns " + std::string{kernels_csv_header} +
                                               " (in any order), each once; found \"" + std::string{column} + "\""};
    }
    *slot = c;
  }
  if (at.name == missing || at.flops == missing || at.bytes == missing) {
    throw kernels_csv_error{header.line, "the header must name the columns " + std::string{kernels_csv_header}};
  }
  return at;
}

template <class Q>
Q read_quantity(const record& r, std::size_t column, std::string_view column_name) {
  try {
    return parse<Q>(r.fields[column], {.plain_number_is_base_unit = true});
  } catch (const parse_error& e) {
    throw kernels_csv_error{r.line, std::string{column_name} + ": " + e.what()};
  }
}

}  // namespace hml::detail::kernels_csv

export namespace hml {

// The kernels of a CSV text, in order; throws kernels_csv_error.
[[nodiscard]] inline std::vector<kernel_record> read_kernels_csv(std::string_view text) {
  namespace k = detail::kernels_csv;
  const std::vector<k::record> records = k::split_records(text);
  if (records.empty()) throw kernels_csv_error{1, "no header: expected " + std::string{kernels_csv_header}};
  const k::columns at = k::read_header(records.front());
  std::vector<kernel_record> kernels;
  kernels.reserve(records.size() - 1);
  for (std::size_t i = 1; i < records.size(); ++i) {
    const k::record& r = records[i];
    if (r.fields.size() != records.front().fields.size()) {
      throw kernels_csv_error{r.line, "expected " + std::to_string(records.front().fields.size()) +
                                          " fields like the header, found " + std::to_string(r.fields.size())};
    }
    kernels.push_back({r.fields[at.name], k::read_quantity<work>(r, at.flops, "flops"),
                       k::read_quantity<data_size>(r, at.bytes, "memory_bytes"), r.line});
  }
  return kernels;
}

}  // namespace hml
