// What every subcommand shares: reading quantities from option text, the --format and -o options,
// input files, the roof a kernel runs against, and the one-line error.
#pragma once
#include <array>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <deque>
#include <exception>
#include <filesystem>
#include <functional>
#include <iterator>
#include <mutex>
#include <optional>
#include <ranges>
#include <span>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <stop_token>
#include <string_view>
#include <thread>
#include <utility>
#include <variant>
#include <vector>
#include <CLI/CLI.hpp>

import hml;

namespace hml_cli {

// Bad input: the message names the option or file and what is wrong with it.
class input_error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// "hml: error: <message>" on stderr (the library's own "hml: " prefix dropped); returns exit status 2.
int fail(std::string_view message);

// A count and its noun, singular for one: "1 step", "2 steps".
inline std::string counted(std::uint64_t n, std::string_view one, std::string_view many) {
  return std::to_string(n) + " " + std::string{n == 1 ? one : many};
}

// Choices as a message lists them: "1", "1 or 2", "1, 2, 4 or 8"; items all of which hold, with `last` " and ".
template <class Range>
std::string one_of(const Range& choices, std::string_view last = " or ") {
  std::string text;
  const auto n = static_cast<std::size_t>(std::ranges::distance(choices));
  std::size_t k = 0;
  for (const auto& choice : choices) {
    text += k == 0 ? std::string_view{} : k + 1 == n ? last : std::string_view{", "};
    if constexpr (std::is_arithmetic_v<std::remove_cvref_t<decltype(choice)>>) {
      text += std::to_string(choice);
    } else {
      text += choice;
    }
    ++k;
  }
  return text;
}

// A note for the user ("hml: note: ..."), printed on stderr when the run has succeeded: a run that fails
// prints its error alone.
void note(std::string line);
void print_notes();

// A name the catalog or the built-in list takes first ("h100_sxm", "triad") is theirs even where a file of
// that name lies in the folder its paths are read from (the working folder, or `folder`): said in a note,
// with the path that reads the file ("./h100_sxm").
void note_file_passed_over(std::string_view option, std::string_view name, std::string_view whose,
                           const std::filesystem::path& folder = {});

// Whether `path` reads standard input: "-", or a name of descriptor 0 (/dev/stdin, /dev/fd/0, a link to one);
// a file standard input was redirected from, named by its own path, is that file.
bool is_standard_input(std::string_view path);

// Standard input is one stream: two options that would read it ("--machine - --ops -") are an error before
// either reads it (the first would take what the second was given). Returns the message, or "" where none.
std::string standard_input_taken_twice(int argc, const char* const* argv);

// Words CLI11 would read as something else than the user meant, said before it reads them: `--hit-rate=`
// with nothing after '=' (CLI11 took the next word as its value), an option's value that is an option
// (`-o --round` wrote a file named --round), `-o=x` (a file named =x), a long option with one dash
// (`-hit-rate` was -h, help, and the run did not happen; `-output` was -o utput) and short options bundled
// (`-h0`). Returns the message, or "" where none.
std::string misread_argument(const CLI::App& hml, int argc, const char* const* argv);

// "--bogus: not an option of `hml lab`; see `hml lab --help`", and for a command that takes a file as it
// (hml devices NAME|FILE) how to give one whose name starts with a dash.
std::string not_an_option(const CLI::App& command, std::string_view word);

// "-output: not an option of `hml sweep`; a long option takes two dashes: did you mean --output?"
std::string long_option_with_one_dash(std::string_view program, std::string_view word);

// "--round: a flag takes no value; give --round alone".
std::string flag_given_a_value(std::string_view name);

// The option of `command` that the name typed ("--output", "-o") names, or nullptr.
const CLI::Option* option_named(const CLI::App& command, std::string_view typed);

// CLI11's own parse error in hml's form, "OPTION: what is wrong; what to do" (its messages name the option
// in several orders, "--machine is required", "Could not convert: --cores = x"). An argument the command
// does not know is said first, even where CLI11 stopped at a missing required option.
std::string parse_error_message(CLI::App& hml, const CLI::ParseError& error);

// The message with the options it opens with spelt as the user gave them: an option of several names
// (--machine, --device, --device-file; -o, --output) is checked under its first long name, but the error
// names the one typed, or each name typed where the user gave it by more than one.
std::string as_given(const CLI::App& hml, const std::string& message, int argc, const char* const* argv);


// Runs `work` and returns what it returns; an `Error` it throws becomes an input_error named after the option.
template <class Error, class Work>
decltype(auto) blamed_on(std::string_view option, Work&& work) {
  try {
    return std::forward<Work>(work)();
  } catch (const Error& e) {
    throw input_error(std::string{option} + ": " + std::string{hml::without_hml_prefix(e.what())});
  }
}

// Runs one of the library's checks or readers on an option's value; what it throws (std::invalid_argument,
// parse errors among them) is the option's: `check_option("--hit-rate", [&] { hml::validate_hit_rate(h); })`.
template <class Check>
decltype(auto) check_option(std::string_view option, Check&& check) {
  return blamed_on<std::invalid_argument>(option, std::forward<Check>(check));
}

// Writes a file an option names (`-o`, `--save`); a file that cannot be written is the option's:
// "--output: cannot write 'x.csv': the directory 'd' does not exist".
template <class Write>
decltype(auto) write_for_option(std::string_view option, Write&& write) {
  return blamed_on<hml::file_write_error>(option, std::forward<Write>(write));
}

// One rule for every option that takes a quantity: a plain number is FLOP, bytes or FLOP/B (counts read off a
// profiler or a file: `--flops 1e12`, `--in 4096`); a rate, a time or a frequency needs its unit, since a plain
// "3.35" bandwidth is more often a forgotten TB/s than 3.35 B/s.
template <class Q>
inline constexpr bool plain_number_is_base_unit =
    std::is_same_v<Q, hml::work> || std::is_same_v<Q, hml::data_size> || std::is_same_v<Q, hml::arithmetic_intensity>;

// Every size an option takes is in bytes (hml::parse_options::sizes_in_bytes).
template <class Q>
inline constexpr hml::parse_options options_for{.plain_number_is_base_unit = plain_number_is_base_unit<Q>,
                                                .sizes_in_bytes = true};

// `text` as a quantity for `option`; an input_error naming the option if it cannot be read.
template <class Q>
Q quantity_of(std::string_view option, const std::string& text) {
  return check_option(option, [&] { return hml::parse<Q>(text, options_for<Q>); });
}

// `text` as an axis (FROM:TO:POINTS[:log], a list or one value) for `option`.
template <class T>
hml::sampled_axis<T> axis_of(std::string_view option, const std::string& text) {
  return check_option(option, [&] { return hml::parse_axis<T>(text, options_for<T>); });
}

// A machine's memory bandwidth (`--peak-bandwidth`, `--host-bandwidth`, `--device-bandwidth`): a rate in bytes
// per second, finite and > 0. Memory bandwidth is published in bytes per second, so a bit rate ("3.35Tbps")
// is refused with the byte rate it may mean; a link's rate and the seed's tier bandwidths take bits.
hml::data_rate memory_bandwidth_of(std::string_view option, const std::string& text);

// A precision alone ("fp16", "bf16"), as a data type is given (`hml llm --weights`, `hml offload --precision`);
// a unit ("fp16tensor") is refused there: only a roofline's --precision, which picks a machine's ceiling,
// takes one.
hml::precision data_type_of(std::string_view option, const std::string& text);

// The checks every option of a kind takes, on its text, before CLI11 converts it (CLI11 would read -1 into
// an unsigned option as 2^64 - 1, and "nan" or "inf" into a double as they are):
// a count is a whole number within [low, most], its bounds in the message;
CLI::Validator whole_number(std::uint64_t low, std::uint64_t most);
// ...or from 0, its refusals advising `advised_low` and up, for a count whose least is checked where the
// option is known to apply (--size 5 on a kernel file is refused as no size a file takes, not as below 8);
CLI::Validator whole_number_checked_later(std::uint64_t advised_low, std::uint64_t most);
// a count is read in decimal, as every file and axis reads it: CLI11 reads integers as C does ("010" is 8),
// so every option CLI11 reads as a whole number (type UINT or INT) has its leading zeros dropped
// (check_plain_numbers, before any check);
// a plain number (a share, a ratio, cycles) is finite, and zero or of a magnitude from 1e-30 to 1e30 as a
// quantity's text must be (hml::largest_magnitude): every option CLI11 reads as a number (type FLOAT) takes
// this check (check_plain_numbers), so none lets "nan", "inf" or an overflow into a model.
CLI::Validator finite_number();
// ...and one the library bounds more tightly (runs, a share): its own rule first, so that a value past it is
// told that rule (1e300 runs were told a magnitude up to 1e30, then 1e29 was refused as past 1e15); an option
// given it takes no other finite_number().
CLI::Validator bounded_by(void (*validate)(double));
// a text that goes into the output (a title, a kernel's name) is UTF-8 without control characters, as a
// name in a file must be (hml::is_printable_utf8): an ESC would drive the terminal, a NUL cut the SVG.
CLI::Validator printable_text();
// ...and a name: printable_text() that is not blank (a row without a name could not be told apart).
CLI::Validator name_text();
void check_plain_numbers(CLI::App& hml);
// A flag (--round, --sequential, --no-gated) is given once and takes no value: CLI11 alone reads
// --round=yes as on, --round=banana as an error about an unnamed type, and --round --round as once.
void strict_flags(CLI::App& hml);

enum class output_format { table, csv, json };

struct output_options {
  std::string format = "table";  // table, csv or json; a command of other formats sets its own (yaml, svg)
  std::vector<std::string_view> formats{"table", "csv", "json"};  // what its --format takes, for advice
  std::string path = "-";  // "-": standard output

  [[nodiscard]] output_format chosen() const;
};

void add_output_options(CLI::App& command, output_options& options, bool with_format = true);

// A file named for one format (.csv, .json, .yaml or .yml, .svg) gets that format or is refused: `-o r.svg`
// with a text table made a file that no SVG reader opens. Other names (.txt, .out, none) take any format.
// output_stream checks it; a command that writes its file otherwise calls it first.
void check_output_format(const output_options& options, std::string_view option = "--output");

// The table in the chosen format (text tables with `numbers`).
std::string render(const hml::table& t, output_format format, hml::number_format numbers = hml::general(6));

// Where a command's output goes as it is produced: standard output, or a file written atomically (-o). Text
// is appended to buffer() and handed on in blocks of output_block bytes (flush_if_full), so memory does not
// grow with the output; a text table's output shows its characters drawn as nothing as their codes
// (hml::escape_drawn_as_nothing), in its headings as in its cells. Nothing is written before the first block
// is full: a run that fails early leaves no output at all. A file appears at finish(), whole; a run that
// fails leaves none (on standard output, blocks already written stay written, as with any filter).
//
// Into a regular file (-o FILE, or standard output redirected to one), full blocks are written by a second
// thread while this one goes on filling the next (two blocks at most), so the kernel's time to copy 10^8
// bytes into the file's pages (a sweep of 10^6 points to JSON is 339 MB) is not added to the time to produce
// them; a failure to write is thrown here, at the next block handed on or at finish(). Anything else (a pipe,
// a terminal, /dev/null) takes a block at once or not at all, and is written here: a hand-off to a thread
// costs more than it saves there (3 % more CPU time for a sweep's CSV to /dev/null).
class output_stream {
 public:
  static constexpr std::size_t output_block = std::size_t{1} << 20;

  explicit output_stream(const output_options& options);
  ~output_stream();
  output_stream(const output_stream&) = delete;
  output_stream& operator=(const output_stream&) = delete;
  std::string& buffer() noexcept { return buffer_; }
  void flush_if_full() {
    if (buffer_.size() < output_block) return;
    if (text_) hml::escape_drawn_as_nothing(buffer_);
    if (to_regular_file_) {
      hand_on();
    } else {
      write_out(buffer_);
      buffer_.clear();
    }
  }
  void finish();

 private:
  void hand_on();
  void write_out(const std::string& text);
  void write_blocks(const std::stop_token& stop);
  void stop_writing() noexcept;

  std::string path_;
  bool text_ = false;  // a text table and its headings: characters drawn as nothing are shown as their codes
  bool to_regular_file_ = false;
  std::string buffer_;
  std::optional<hml::atomic_file> file_;
  // The writing thread's block: `pending_` belongs to it while `has_pending_` is set.
  std::mutex mutex_;
  std::condition_variable_any written_;
  std::string pending_;
  bool has_pending_ = false;
  std::exception_ptr failure_;
  std::jthread writer_;  // started with the first full block
};

// A table's rows written as they are made, as CSV or JSON: the text render() gives for the whole table, in
// the memory of one row, for tables that grow with a count (an ECM scaling table of 65,536 cores held whole
// took 200 MiB).
class row_stream {
 public:
  row_stream(std::span<const std::string> columns, output_format format, output_stream& out);
  void add(std::span<const hml::cell> row);
  void add(std::span<const hml::cell_view> row);  // a row already viewed: no copy (a sweep's 10^7 rows)
  void finish();

 private:
  std::optional<hml::csv_writer> csv_;
  std::optional<hml::json_writer> json_;
  output_stream& out_;
  std::vector<hml::cell_view> views_;
};

// SIGINT, SIGTERM and SIGHUP remove the output file's temporary where it has a name (where the system has
// unnamed temporaries, O_TMPFILE, there is none to remove, and SIGKILL leaves nothing either), then end the
// process as the signal would.
void remove_temporary_on_interrupt();

// All of `content` to standard output, or atomically to the file (so a failure leaves no partial file).
void emit(const output_options& options, const std::string& content);

// How errors and notes name an input: "standard input" for -, else the path.
std::string input_name(const std::string& path);
// A path or name printed whole in an output or a note: control characters, bytes that are not UTF-8 and
// invisible characters escaped, as a table's cells are (a file named with an ESC turned the terminal red).
std::string visible_whole(std::string_view text);

// An input file, or standard input for "-", read in blocks by a kernels reader; errors name the option and
// the file. A command that reads its input twice (a text table measures its columns first) asks for
// rewind(): a regular file is read again from where it started, anything else (a pipe) from a temporary
// copy made while it was read the first time (keep_copy()), so memory stays bounded either way.
class input_file {
 public:
  input_file(std::string_view option, const std::string& path);
  ~input_file();
  input_file(const input_file&) = delete;
  input_file& operator=(const input_file&) = delete;

  // "--ops: standard input: " or "--ops: kernels.csv: ", for errors in what the input holds.
  [[nodiscard]] const std::string& source_name() const noexcept { return source_name_; }
  // "--ops: kernels.csv:12: ", for an error on a line of the input.
  [[nodiscard]] std::string where(std::size_t line) const;
  [[nodiscard]] hml::byte_source source();
  // The whole input, for a small file read at once (a device file); more than `limit` bytes is an error,
  // so an endless stream fails in bounded memory.
  [[nodiscard]] std::string read_whole(std::size_t limit);
  void keep_copy();
  void rewind();
  // After each reading: a regular file written to (or whose status changed) while it was read is an error,
  // not a table of two versions, or whose first rows were measured on other bytes than they show.
  void check_unchanged() const;

 private:
  std::size_t read(std::span<char> buffer);

  std::string option_;
  std::string path_;
  std::string source_name_;
  int fd_ = -1;
  bool owns_fd_ = false;
  long long start_ = -1;      // where a regular file started; -1: not seekable
  long long size_ = 0;        // a regular file's size and last change when opened (its status change: a
  long long changed_ns_ = 0;  // write moves it, and no one can set it back as `touch -d` sets the modification time)
  std::FILE* copy_ = nullptr;  // the bytes read so far, where the input cannot be read again
  bool copying_ = false;
  std::size_t copied_ = 0;
};

// The most of a stream kept to read it twice: the disk it goes to is bounded too (an endless stream filled
// $TMPDIR until no space was left, the forty-seventh trial). A table of 10^6 kernels is some 100 MB of CSV.
inline constexpr std::size_t max_kept_copy = std::size_t{1} << 30;

// The error of a kernels reader, as an input_error naming the option and the file.
[[noreturn]] void rethrow_kernels_error(const input_file& input, std::exception_ptr failure);

// Every kernel of the input, in order: `prepare(kernel, T& work)` on a second thread, then
// `visit(kernel, const T& work)` on this one. Errors name the option, the file and the line, and an input
// with no kernels after its header is an error.
//
// The input is read, parsed and prepared (a roofline analysed and rounded, say) a batch or two ahead of
// `visit` (formatting; an output_stream writes the text on a thread of its own): those halves take about as
// long as each other, so on two cores a long list takes half the time. Three batches of 4096 kernels
// circulate (one read, one visited, one waiting), their strings reused, so memory stays bounded.
template <class T, class Prepare, class Visit>
void for_each_kernel(input_file& input, Prepare prepare, Visit visit) {
  constexpr std::size_t batch_size = 4096;
  struct batch {
    std::vector<hml::kernel_record> kernels = std::vector<hml::kernel_record>(batch_size);
    std::vector<T> work = std::vector<T>(batch_size);
    std::size_t size = 0;
  };
  std::array<batch, 3> batches;
  std::mutex mutex;
  std::condition_variable_any changed;
  std::deque<batch*> empty{&batches[0], &batches[1], &batches[2]};
  std::deque<batch*> full;
  bool read_all = false;
  std::exception_ptr failure;

  std::jthread reader{[&](const std::stop_token& stop) {
    try {
      hml::kernels_csv_reader kernels{input.source()};
      for (bool more = true; more;) {
        batch* b = nullptr;
        {
          std::unique_lock lock{mutex};
          if (!changed.wait(lock, stop, [&] { return !empty.empty(); })) return;  // the visitor failed
          b = empty.front();
          empty.pop_front();
        }
        b->size = 0;
        while (b->size < batch_size && (more = kernels.next(b->kernels[b->size]))) {
          prepare(std::as_const(b->kernels[b->size]), b->work[b->size]);
          ++b->size;
        }
        {
          const std::scoped_lock lock{mutex};
          full.push_back(b);
          read_all = !more;
        }
        changed.notify_all();
      }
    } catch (...) {
      {
        const std::scoped_lock lock{mutex};
        failure = std::current_exception();
        read_all = true;
      }
      changed.notify_all();
    }
  }};

  for (;;) {
    batch* b = nullptr;
    {
      std::unique_lock lock{mutex};
      changed.wait(lock, [&] { return !full.empty() || read_all; });
      if (full.empty()) break;
      b = full.front();
      full.pop_front();
    }
    // A throw here leaves through the jthread's destructor, which stops the reader and joins it.
    for (std::size_t i = 0; i < b->size; ++i) visit(std::as_const(b->kernels[i]), std::as_const(b->work[i]));
    {
      const std::scoped_lock lock{mutex};
      empty.push_back(b);
    }
    changed.notify_all();
  }
  reader.join();
  if (failure) rethrow_kernels_error(input, failure);
  input.check_unchanged();  // a file written while it was read gave a table of two versions
}

// The kernels of a CSV file (or "-"), all in memory (a chart draws them all).
std::vector<hml::kernel_record> read_kernels(std::string_view option, const std::string& path);

// The machines named on the command line, and the files they were read from (which own their text): each
// is a catalog id or name (`hml devices`), or a machine file ("-": standard input). A file in the machine
// format (docs/reference/machine-file.md) is read as such; an older device JSON or ECM YAML file is read
// too, with a one-line note on standard error naming the command that converts it. Errors name the option.
//
// The machine comes with the figures of the chosen basis as its own (hml::with_figures): `--figures measured`
// (hml::basis::measured_where_published) takes each published measurement in place of the datasheet's
// figure beside it and says so in a note naming each; the machine's own figures are taken as they are by
// default (`hml devices` shows both).
class machine_files {
 public:
  const hml::machine_description& machine(std::string_view option, const std::string& name_or_path);
  // The sources a machine read from a file cites (the catalog's machines cite the catalog's: empty).
  [[nodiscard]] std::span<const hml::source> sources_of(const hml::machine_description& m) const;
  // A catalog machine (a system's host or device) with the chosen figures.
  const hml::machine_description& view_of(const hml::machine_description& own);
  // The machine a view was made of (itself where it is none): every figure as the machine states it.
  [[nodiscard]] const hml::machine_description& own_of(const hml::machine_description& view) const;
  // A link by id or name, a machine file's read so far before the catalog's (a file that describes nvlink4
  // is the user's nvlink4), or a rate (hml::link_named), on the chosen figures.
  hml::link link(std::string_view option, const std::string& id_or_rate);
  // (Two files given that describe one id differently are refused under `option`.)
  [[nodiscard]] const hml::link_description* find_link(std::string_view option, std::string_view id_or_name) const;
  hml::link link_of(const hml::link_description& own);
  // From here on, link() and find_link() take the links of the file that holds `machine` alone (none where it
  // is the catalog's), not those of every file read: a compared run's own, where another run's file gave a
  // run after it its nvlink4 at 10 GB/s.
  void links_beside(const hml::machine_description& machine);
  // The models' figures (`--figures`); without it a machine is taken as it is, every figure its own.
  void use(hml::basis figures) noexcept { figures_ = figures; }
  // The ECM's view: main memory by its stream mixes where it has them, which the notes then name.
  void take_stream_mixes() noexcept { stream_mixes_ = true; }
  // Paths are read from `folder` (a runs file's): a catalog name's file twin is looked for there.
  void paths_from(std::filesystem::path folder) { folder_ = std::move(folder); }
  // Whether --figures stated was chosen.
  [[nodiscard]] bool stated() const noexcept { return figures_ == hml::basis::datasheet; }
  // A file whole, for `hml devices FILE`: a machine file as it is (several machines, links and systems, as
  // `hml devices SYSTEM --format yaml` writes them), with `machine` set where it holds one machine (on the
  // chosen figures); an older format's file is its one machine.
  struct loaded {
    const hml::machine_file* file = nullptr;
    const hml::machine_description* machine = nullptr;
  };
  loaded whole_file(std::string_view option, const std::string& path, bool a_file = false);
  // "-", a name with a slash or a dot, or one the file system holds: read as a file, not looked up.
  static bool looks_like_a_path(const std::string& text);
  static bool is_there(const std::string& path);
  // Where a field of a machine is, for a check made after reading it: "my.yaml:12: memory[0].scope" for a
  // machine file's machine (the field's line, or its level's where it is left out), "NAME: memory[0].scope"
  // for a catalog machine or an older format's file (which has no such field).
  [[nodiscard]] std::string where(const std::string& name_or_path, const hml::machine_description& view,
                                  std::string_view field) const;

 private:
  const hml::machine_description& resolve(std::string_view option, const std::string& name_or_path);
  loaded load(std::string_view option, const std::string& path, bool a_file = false);  // a_file: never the catalog's
  [[nodiscard]] std::vector<const hml::machine_file*> files_of_links() const;  // the files whose links link() takes
  std::deque<std::variant<hml::machine_file, hml::loaded_device, hml::loaded_cpu>> files_;
  std::optional<const hml::machine_file*> links_only_of_;  // links_beside's file (nullptr: none); unset: every file
  std::deque<std::pair<hml::machine_description, const hml::machine_description*>> views_;  // view, machine
  std::optional<hml::basis> figures_;
  bool stream_mixes_ = false;
  std::filesystem::path folder_;
};

// A roofline needs main memory's bandwidth: a machine (file) without one is its option's fault, not the
// precision's. A kerncraft-style file with stream mixes alone is the ECM's (hml ecm), and said so.
void require_main_memory_bandwidth(std::string_view option, const std::string& name_or_path,
                                   const hml::machine_description& m);
// ...nor one without any compute peak: no precision would find one.
void require_compute_peak(std::string_view option, const std::string& name_or_path, const hml::machine_description& m);
// What --precision may be for every one of `machines` (a datasheet peak on each, widest first), for a
// message's "what to do": chart and offload told one machine's, which the other lacked.
std::vector<std::string> precisions_in_common(std::span<const hml::machine_description* const> machines);

// --figures stated|measured, the same in every subcommand that takes a machine: which of a machine's
// figures the models use where it publishes a measurement beside its datasheet's. The default, measured, is
// set here.
CLI::Option* add_figures_option(CLI::App& command, std::string& figures);
hml::basis figures_basis(const std::string& figures);

// A quantity as hml's tables and notes print it: four significant digits, decimal prefixes ("2.97 TB/s").
template <class Q>
std::string quantity_text(Q q) {
  return hml::to_string(q, {.number = hml::general(4), .prefixes = hml::prefix_system::decimal});
}

// The help text of an option that takes a machine.
inline constexpr std::string_view machine_help =
    "a catalog machine (id or name; see `hml devices`) or a machine file (YAML or JSON; - for standard input)";

// The roof to analyze against: --machine NAME|FILE with --precision P (required: a machine has a peak per
// precision, and none is assumed), or --peak-compute and --peak-bandwidth. --device and --device-file are
// --machine's older names, kept until the first release.
struct roof_options {
  std::vector<std::string> machines;
  std::string precision;
  std::string peak_compute;
  std::string peak_bandwidth;
  std::string figures;
  mutable machine_files files;  // the files read, which own the machines drawn from them
};

struct named_roof {
  std::string label;  // the machine's id, or "given" for --peak-*
  std::string title;  // "NVIDIA H100 SXM5 80GB, FP32" or "the given peaks"
  hml::roof roof;
  const hml::machine_description* machine = nullptr;  // the machine (view) it is drawn from; none for --peak-*
};

void add_roof_options(CLI::App& command, roof_options& options, bool several_machines = false);
std::vector<named_roof> roofs_of(const roof_options& options);

// "67 TFLOP/s, 3.35 TB/s, ridge 20 FLOP/B"
std::string roof_text(const hml::roof& r);

}  // namespace hml_cli
