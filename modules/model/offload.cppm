// hml.offload — whether to run a kernel where its data is (the host) or on another machine (a device)
// behind a link, and from what intensity or number of reuses offloading pays.
//
// The kernel's time on each machine is the time model's (run() on the machine description's main memory
// and its peak for the precision, memory and compute overlapped: the roofline's assumption). On top:
//   serial      copy in, run, copy out: T = L + in/B + T_dev + L + out/B (B: the copies' rate, below).
//   pipelined   in c chunks, a three-stage pipeline (copy in, run, copy out) whose stages take
//               a = L + in/(cB), k = T_dev/c, b = L + out/(cB): T = a + k + b + (c - 1) max(a, k, b) on a
//               full-duplex link (in and out overlap), max(a + b, k) on a half-duplex one, and no period
//               shorter than the device memory's time for a chunk's copies and the kernel's bytes.
//   zero-copy   the device reads its inputs and writes its outputs over the link in place (unified memory:
//               the link is the device's memory for them): T = max(transfer time in and out, compute time);
//               the kernel's other traffic is assumed to hit the device's caches.
//   host        the kernel where the data is.
// The verdict compares the fastest way to offload with the host; the speed-up is host time over it.
// Transfers: a byte offloaded crosses the link and the memories at both ends (hml::transfer_path). A copy is
// read from the host's main memory and written to the device's (and back), at the slowest of the three;
// bytes both ways at once share each memory (a copy in reads the host's memory while a copy out writes it).
// Zero-copy's and oversubscription's bytes stream between the device and the host's memory in place, at the
// link's rate and the host memory's. On GH200 the memory binds: 450 GB/s of C2C each way, 500 GB/s of
// LPDDR5X for both.
// Break-even, in closed form, for the serial way (the others are not closed forms in general):
//   reuses   the kernel runs r times on the transferred data: r* = (copy in + copy out)/(T_host - T_dev),
//            never (infinite) when the device is not faster per run.
//   intensity  a streaming kernel (it moves as many bytes in memory as it transfers, b) at I FLOP/B:
//            offloading pays from I* = P_h (1/B_l + 1/B_d) when the device is still memory-bound there
//            (I* <= P_d/B_d), else from I* = 1/(B_l (1/P_h - 1/P_d)); never when P_d <= P_h. B_l is the
//            copies' rate, at most the host memory's B_h, so offloading never pays at intensity 0.
// Oversubscription: a footprint (in + out) larger than the device's main memory keeps the share that fits
// there and streams the rest over the link while the kernel runs: the device's memory is then a flat,
// concurrent tiered memory of its main memory and the link (hml.tiers), and only the resident share is
// copied. The link then carries the kernel's streamed bytes beside the chunks' copies: a pipelined chunk's
// period holds both (its copies' link time plus the kernel's), so no way beats the link's time for the bytes
// it carries. Likewise the device's main memory: a period holds the chunk's copies written into it and read
// back beside the kernel's resident bytes (a device memory slower than the link came out twice as fast as it
// can be, and the verdict flipped to offload).
module;
#include <algorithm>
#include <cstddef>
#include <limits>
#include <string_view>
#include <utility>
export module hml.offload;
export import hml.link;
export import hml.tiers;
export import hml.analysis;

export namespace hml {

struct offload_job {
  kernel work;       // one run of the kernel: its FLOP and the bytes it moves in memory
  data_size in;      // copied to the device before it runs
  data_size out;     // copied back after
  double runs = 1.0; // runs of the kernel on the transferred data (reuses)
};

// A streaming kernel's job: its inputs in, its outputs out (vector add of n floats: 2n x 4 B in, n x 4 B out).
[[nodiscard]] constexpr offload_job offload_of(const kernel& k, data_size in, data_size out, double runs = 1.0) noexcept {
  return {k, in, out, runs};
}

struct offload_options {
  unsigned chunks = 16;
};

struct offload_plan {
  duration host;       // all runs where the data is
  duration copy_in;    // one transfer of the resident inputs
  duration device;     // all runs on the device
  duration copy_out;
  duration serial;
  duration pipelined;
  duration zero_copy;
  std::string_view best;  // "serial", "pipelined" or "zero-copy"
  duration best_time;
  double speedup;         // host / best_time
  bool offload;           // the verdict: best_time < host
  double resident;        // share of the footprint in device memory (1 unless oversubscribed)
  double break_even_runs; // serial: runs from which offloading pays (infinite: never)
};

constexpr void validate_runs(double runs) {
  expects(runs >= 1.0 && runs < 1e15, "hml: runs must be within [1, 1e15); give how many times the job runs");  // false for NaN
}

// A job copies bytes or does work: one that does neither takes no time anywhere, and its speed-up (0 s / 0 s)
// would be no number.
// The bytes of one copy, in or out: none, or at least a byte.
[[nodiscard]] constexpr bool is_a_copy(data_size bytes) noexcept { return bytes.value() == 0 || bytes.value() >= 1; }

constexpr void validate(const offload_job& j) {
  validate(j.work);
  expects(isfinite(j.in) && j.in.value() >= 0 && isfinite(j.out) && j.out.value() >= 0,
          "hml: bytes copied in and out must be finite and >= 0");
  // A link copies whole bytes: half a byte is no copy (a chunk of it was told "less than a byte").
  expects(is_a_copy(j.in) && is_a_copy(j.out), "hml: a copy moves 0 B or at least 1 B");
  validate_runs(j.runs);
  expects(j.in.value() + j.out.value() > 0 || j.work.flops.value() > 0 || j.work.bytes.value() > 0,
          "hml: the job copies no bytes and does no work, so there is nothing to compare; give bytes or work");
}

inline constexpr unsigned max_chunks = 1'000'000;

constexpr void validate_chunks(unsigned chunks) {
  expects(chunks >= 1 && chunks <= max_chunks, "hml: chunks must be within [1, 1000000]; give how many pieces the transfers are cut into");
}

// The fewer of the bytes a job copies in and out, of those it copies at all (0 B where it copies none).
[[nodiscard]] constexpr data_size fewest_bytes_copied(const offload_job& j) {
  return j.in.value() == 0 ? j.out : j.out.value() == 0 || j.in.value() <= j.out.value() ? j.in : j.out;
}

// The most chunks a job's copies are cut into, each copying a byte at least each way it copies: 10 B in a
// million chunks is no copy a link makes. Its fewest bytes copied, capped at max_chunks.
[[nodiscard]] constexpr unsigned most_chunks(const offload_job& j) {
  const double fewest = fewest_bytes_copied(j).value();
  return fewest == 0 || fewest >= max_chunks ? max_chunks : static_cast<unsigned>(fewest);
}

constexpr void validate_chunks(unsigned chunks, const offload_job& j) {
  validate_chunks(chunks);
  expects(chunks <= most_chunks(j), "hml: a chunk would copy less than a byte; give at most as many chunks as the bytes copied");
}

// One run of the kernel on this machine: the time model on its main memory and its peak for the precision.
[[nodiscard]] constexpr duration kernel_time(const kernel& k, const machine_description& m, precision p) {
  return run(k, memory_of(m), core_of(m, kind_for(m, p)), {.overlap_policy = overlap::full}).total;
}

}  // namespace hml

export namespace hml::detail {

[[nodiscard]] constexpr duration longest(duration a, duration b) noexcept { return a > b ? a : b; }

}  // namespace hml::detail

export namespace hml {

// The way an offload's bytes go (see the header): the link, and the main memories at its two ends.
struct transfer_path {
  link over;
  data_rate host_memory;    // the host's main memory: copies read from it, zero-copy reads and writes it
  data_rate device_memory;  // the device's: copies write into it and read back from it
};

[[nodiscard]] constexpr transfer_path path_of(const link& l, const machine_description& host,
                                              const machine_description& device) {
  validate(l);
  return {l, memory_of(host).bandwidth, memory_of(device).bandwidth};
}

}  // namespace hml

export namespace hml::detail {

[[nodiscard]] constexpr data_rate slower(data_rate a, data_rate b) noexcept { return a < b ? a : b; }

// `one_way` bytes one direction and `other_way` the other at once, through a memory that carries both.
[[nodiscard]] constexpr duration both_ways_through(const link& l, data_rate memory, data_size one_way,
                                                   data_size other_way) noexcept {
  const data_size both = one_way + other_way;
  return longest(link_time_both_ways_of(l, one_way, other_way),
                 both.value() == 0 ? duration{} : l.latency + time_to_move(both, memory));
}

// Copies cross both memories; bytes in place, the host's alone.
[[nodiscard]] constexpr data_rate copy_memory(const transfer_path& p) noexcept { return slower(p.host_memory, p.device_memory); }

// The link as a copy sees it: its rate capped by the slower memory the copy crosses.
[[nodiscard]] constexpr link copy_link(const transfer_path& p) noexcept {
  return {slower(p.over.bandwidth.rate, copy_memory(p)), p.over.latency, p.over.mode};
}

// Whether `a` is below `b` by more than rounding: two ways that move the same bytes through the same memory
// tie, and their sums in another order differ in the last bits (520 ms against 520 ms less an ulp gave
// "offload, speed-up 1x"). A tie goes to the host: offloading gains nothing.
[[nodiscard]] constexpr bool clearly_below(double a, double b) noexcept { return a < b * (1 - 1e-12); }
[[nodiscard]] constexpr bool beats(duration a, duration b) noexcept { return clearly_below(a.value(), b.value()); }
}  // namespace hml::detail

export namespace hml {

// One copy one way: the link's latency, then the bytes at the slowest of the link and the two memories.
[[nodiscard]] constexpr duration copy_time(const transfer_path& p, data_size bytes) {
  return link_time(detail::copy_link(p), bytes);
}

// The rate bytes stream at in place, `in` of them read from the host's memory and `out` written to it.
[[nodiscard]] constexpr data_rate in_place_rate(const transfer_path& p, data_size in, data_size out) noexcept {
  return detail::slower(detail::streaming_rate_of(p.over, in, out), p.host_memory);
}

// Whether a memory at the link's ends, not the link, bounds some transfer of a job that copies `in` bytes to
// the device and `out` back: a copy one way, the copies of both ways at once, or the bytes in place.
[[nodiscard]] constexpr bool memory_bounds_transfers(const transfer_path& p, data_size in, data_size out) noexcept {
  const data_rate link_rate = p.over.bandwidth.rate;
  const data_rate both_ways = detail::streaming_rate_of(p.over, in, out);  // the link's, in and out at once
  return detail::copy_memory(p) < link_rate || (in.value() > 0 && out.value() > 0 && detail::copy_memory(p) < both_ways) ||
         in_place_rate(p, in, out) < both_ways;
}

// The share of a footprint that fits the device's main memory (1 if its capacity is not published).
[[nodiscard]] constexpr double resident_share(const machine_description& device, data_size footprint) {
  const figure<data_size> capacity = main_memory(device).capacity;
  if (!capacity.published() || footprint <= capacity.value) return 1.0;
  return capacity.value / footprint;
}

// The device's memory for a kernel whose footprint is `resident` in it and that reads `in` and writes `out`:
// its main memory, or with oversubscription main memory and the link serving at once (flat shares: resident,
// 1 - resident), the link's share streaming reads one way and writes the other in the host's memory, as
// zero-copy's bytes do.
[[nodiscard]] constexpr memory device_memory(const machine_description& device, const transfer_path& path,
                                             double resident, data_size in, data_size out) {
  const memory main = memory_of(device);
  if (resident >= 1.0) return main;
  const tier device_tier = tier_of(main_memory(device));
  const data_size footprint = device_tier.capacity / resident;
  const tiered_memory over_link{{device_tier, {"link", footprint, in_place_rate(path, in, out)}}, serving::concurrent};
  const placement p = flat(over_link, {.footprint = footprint}, {resident, 1.0 - resident});
  const duration latency = path.over.latency;
  return {main.latency > latency ? main.latency : latency, p.bandwidth};
}

[[nodiscard]] constexpr offload_plan plan_offload(const offload_job& job, const machine_description& host,
                                                  const machine_description& device, const link& l, precision p,
                                                  offload_options options = {}) {
  validate(job);
  validate(l);
  validate_chunks(options.chunks, job);
  const double runs = job.runs;
  const duration host_time = runs * kernel_time(job.work, host, p);

  const transfer_path path = path_of(l, host, device);
  const link copies = detail::copy_link(path);
  const double resident = resident_share(device, job.in + job.out);
  const memory device_mem = device_memory(device, path, resident, job.in, job.out);
  const compute_core device_core = core_of(device, kind_for(device, p));
  const duration device_time =
      runs * run(job.work, device_mem, device_core, {.overlap_policy = overlap::full}).total;

  const duration in = link_time(copies, resident * job.in);
  const duration out = link_time(copies, resident * job.out);
  const duration serial = in + device_time + out;

  const double c = options.chunks;
  const duration a = link_time(copies, resident * job.in / c);
  const duration k = device_time / c;
  const duration b = link_time(copies, resident * job.out / c);
  const duration link_stage =
      detail::both_ways_through(copies, detail::copy_memory(path), resident * job.in / c, resident * job.out / c);
  const duration streamed = runs * time_to_move((1.0 - resident) * job.work.bytes, in_place_rate(path, job.in, job.out)) / c;
  // The device's main memory takes a chunk's copies and the kernel's resident bytes in the same period.
  const duration device_stage =
      time_to_move(resident * (job.in + job.out + runs * job.work.bytes) / c, path.device_memory);
  const duration pipelined =
      a + k + b + (c - 1.0) * detail::longest(detail::longest(link_stage + streamed, k), device_stage);

  const duration zero_copy =
      detail::longest(detail::both_ways_through(l, path.host_memory, runs * job.in, runs * job.out),
                      runs * compute_time(device_core, job.work.flops));

  // Each run's time is checked; their sum over 10^14 runs of a 10^308-FLOP kernel is not, and would be inf.
  for (const duration t : {host_time, device_time, serial, pipelined, zero_copy}) {
    expects(t.value() <= largest_finite, "hml: an offload time overflows a double: too much work or too many bytes for the runs");
  }
  std::string_view best = "serial";
  duration best_time = serial;
  if (pipelined < best_time) {
    best = "pipelined";
    best_time = pipelined;
  }
  if (zero_copy < best_time) {
    best = "zero-copy";
    best_time = zero_copy;
  }

  const duration per_run_gain = host_time / runs - device_time / runs;
  const double break_even = detail::beats(device_time, host_time) ? (in + out) / per_run_gain : std::numeric_limits<double>::infinity();
  return {host_time, in, device_time, out, serial, pipelined, zero_copy, best, best_time,
          host_time / best_time, detail::beats(best_time, host_time), resident, break_even};
}

// The intensity from which offloading a streaming kernel serially pays (see the header).
[[nodiscard]] constexpr arithmetic_intensity break_even_intensity(const machine_description& host,
                                                                  const machine_description& device, const link& l,
                                                                  precision p) {
  const roof h = roof_of(host, p);
  const roof d = roof_of(device, p);
  const data_rate link_rate = detail::copy_link(path_of(l, host, device)).bandwidth.rate;
  const duration per_byte_offloaded = time_to_move(1 * byte, link_rate) + time_to_move(1 * byte, d.bandwidth);
  const arithmetic_intensity device_memory_bound = h.peak * per_byte_offloaded / (1 * byte);
  if (device_memory_bound <= ridge_point(d)) return device_memory_bound;
  if (d.peak <= h.peak) return arithmetic_intensity::from_value(std::numeric_limits<double>::infinity());
  return 1 * flop / (link_rate * (1 * flop / h.peak - 1 * flop / d.peak));
}

// Where offloading this job serially pays, by the intensity of its kernel, its copies, runs and
// oversubscription as they are (the closed form above takes data that fit the device, one run and links
// without latency: it stayed 32.6 FLOP/B where a device holding half the data paid from 23.4). A run on the host
// takes max(h, F/P_h), on the device c + max(d, F/P_d), with h and d the memory times and c the copies shared
// over the runs: piecewise linear in the FLOP F, with breaks at the two ridges. Where the device's memory wins,
// serial offloading can pay below an intensity and lose above it (P_d <= P_h), or pay again further up: so the
// answer is the range it pays from to the end (`from`, infinite: never at high intensity) and, below that, the
// range from 0 it pays in (`below`, 0: none).
struct serial_break_even {
  arithmetic_intensity from;
  arithmetic_intensity below;
};

[[nodiscard]] constexpr serial_break_even break_even_of(const offload_job& job, const machine_description& host,
                                                       const machine_description& device, const link& l, precision p) {
  validate(job);
  validate(l);
  expects(job.work.bytes.value() > 0, "hml: a job that moves no bytes has no intensity to break even at");
  const kernel moving{job.work.name, 0 * flop, job.work.bytes, job.work.pattern};  // its memory time alone
  const double resident = resident_share(device, job.in + job.out);
  const compute_core device_core = core_of(device, kind_for(device, p));
  const transfer_path path = path_of(l, host, device);
  const double h = kernel_time(moving, host, p).value();
  const double d =
      run(moving, device_memory(device, path, resident, job.in, job.out), device_core, {.overlap_policy = overlap::full}).total.value();
  const double c = (copy_time(path, resident * job.in) + copy_time(path, resident * job.out)).value() / job.runs;
  const double ph = core_of(host, kind_for(host, p)).peak.value();
  const double pd = device_core.peak.value();
  const auto on_host = [&](double f) { return h > f / ph ? h : f / ph; };
  const auto serial = [&](double f) { return c + (d > f / pd ? d : f / pd); };
  const auto gain = [&](double f) { return on_host(f) - serial(f); };
  // The gain is linear between 0, the two ridges and the tail past them (slope 1/P_h - 1/P_d a FLOP): with
  // the roots of each piece, it keeps its sign between neighbouring points.
  double points[6] = {0.0, h * ph, d * pd};  // and a root on each of the two pieces and on the tail
  std::size_t n = 3;
  if (points[1] > points[2]) std::swap(points[1], points[2]);
  for (std::size_t i = 0; i < 2; ++i)
    if ((gain(points[i]) < 0) != (gain(points[i + 1]) < 0) && points[i] < points[i + 1])
      points[n++] = points[i] + (points[i + 1] - points[i]) * gain(points[i]) / (gain(points[i]) - gain(points[i + 1]));
  if (const double tail = 1 / ph - 1 / pd; tail != 0 && (gain(points[2]) < 0) == (tail > 0))
    points[n++] = points[2] - gain(points[2]) / tail;
  std::sort(points, points + n);
  n = static_cast<std::size_t>(std::unique(points, points + n) - points);
  // Whether serial offloading pays on the stretch after points[i] (to the next, or on for the last). A tie
  // goes to the host, as in the plan's verdict: where both are memory-bound at the same time, the stretch
  // ties all along, and counting it paid said "from 0 FLOP/B" where offloading pays from the next break.
  const auto pays_after = [&](std::size_t i) {
    const double f = i + 1 < n ? (points[i] + points[i + 1]) / 2 : 2 * points[i] + 1;
    return detail::clearly_below(serial(f), on_host(f));
  };
  constexpr double never = std::numeric_limits<double>::infinity();
  double from = never;
  std::size_t first_of_tail = n;  // the stretches from here on all pay
  while (first_of_tail > 0 && pays_after(first_of_tail - 1)) --first_of_tail;
  if (first_of_tail < n) from = points[first_of_tail];
  double below = 0.0;
  if (first_of_tail > 0 && pays_after(0)) {
    std::size_t i = 0;
    while (pays_after(i + 1)) ++i;  // stops before first_of_tail: that stretch does not pay
    below = points[i + 1];
  }
  const double bytes = job.work.bytes.value();
  return {arithmetic_intensity::from_value(from / bytes), arithmetic_intensity::from_value(below / bytes)};
}

}  // namespace hml
