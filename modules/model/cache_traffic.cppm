// hml.cache_traffic — what a loop kernel moves between the levels of a cache hierarchy, per cache line of
// work (one cache line's worth of iterations: 8 doubles of 64 B), from layer conditions.
//
// The formulation is kerncraft's layer-condition predictor (RRZE-HPC/kerncraft, kerncraft/cacheprediction.py,
// LayerConditionPredictor): for each array, its accesses' linear offsets sorted in decreasing order give the
// reuse distances between neighbours, and the first access of every array has an infinite one. A cache of
// size C keeps the reuse of every distance up to a tail t when
//     sum(distances <= t) + t * count(distances > t) <= C        (in bytes)
// and the largest t that fits decides: accesses at distances <= t hit, the others miss, one cache line
// stream each. A cache larger than all arrays together holds everything (no misses, no evictions). Every
// written array evicts one line per cache line of work from a level that does not hold everything.
//
// Which share of C counts is a convention: kerncraft compares with the whole cache (its tests of 2d-5pt at
// N = 1000 on a 32 kB L1 expect the condition to hold, 31,984 B <= 32,768 B), while the ECM papers and the
// RRZE tutorials' pen-and-paper rule keep a safety margin and take half of it, since the other streams and
// associativity take their share too. hml takes half by default (`layer_condition_share`) and the published
// kerncraft cases in tests/compile_time/ecm_published.cpp set it to 1 as kerncraft does.
//
// An array of lower rank than the nest (b[i] in a nest over j, i) is reused from one iteration of the outer
// loop to the next: its first access's distance is what the inner loops reach of it, not infinite, and where a
// cache keeps it, its lines neither come in nor (written) go out again. kerncraft's layer conditions take
// such an array as a stream of new lines.
//
// A strided array (b[2 * i]) moves its stride in lines per cache line of work, one line per iteration at
// most (a stride of a line or more: each element its own line), and a reuse distance of it takes the
// lines its stream touches in between: the distance in bytes, times the share of lines touched where the
// stride skips lines. kerncraft's layer conditions refuse such kernels (its cache simulator takes them);
// this is the same count per stream, which the unit-stride case leaves unchanged. Where the stride skips
// lines, two accesses whose innermost offsets differ by other than a multiple of it (b[16 * i] and
// b[16 * i + 8]) never meet the same element: each class of offsets (modulo the stride) is a stream of its
// own, and together they move the lines their elements fall in, counted over a period of the pattern with
// the array's first element at the start of a line (b[12 * i] and b[12 * i + 8] of doubles: 12 lines a
// cache line of work, every line of the span; b[16 * i] and b[16 * i + 8]: 16). The lines two classes
// share are a reuse as far apart as their first accesses (b[16 * i] and b[16 * i + 16001]: a thousand
// iterations), kept or not as any other. In the sum above each distance counts as the streams its lines make
// (its lines over one stream's): the classes' first accesses of b[16 * i] and b[16 * i + 16001], which share
// every line, are one stream of new lines, not two; b[16 * i] and b[16 * i + 8] are two.
//
// Streams run along contiguous rows: a nest whose innermost loop reaches less than a line of each longer
// row is refused (array_of_short_rows).
//
// A victim cache (level_description::victim) keeps a reuse where it and the level inside it together hold
// it, and its path from that level carries the hits among that level's misses in, and every line that level
// evicts out, clean or dirty (each line it brought in leaves again): pycachesim's count for kerncraft's
// `victims_to` (cachesim/backend.c, Cache__inject: the victim cache's STORE count for clean victims too) and
// RRZE-HPC's ECM-Model (ecm_generator/ecm.sh: every stream evicted once into a victim L3). kerncraft's
// layer-condition predictor takes every cache as inclusive (an L3 load for every L2 miss, an L3 store for
// every dirty line); inclusive_caches() is that view of a machine.
//
// Write-allocate: a written array whose line is not also read (b in b[i] = a[i]) misses with an infinite
// distance, which is the line read before it is written. A machine without write-allocate, or an array with
// non-temporal stores, has no such miss; a non-temporal array's lines also skip every cache and are counted
// once, between the last cache and main memory, however small the arrays.
module;
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>
export module hml.cache_traffic;
export import hml.loop_kernel;
export import hml.machine_description;

namespace hml::detail {

inline constexpr std::int64_t infinite_distance = -1;  // the first access of an array: never a reuse

struct reuse_distances {
  // Finite ones first, in bytes of cache they need, each with the lines a miss of it brings in (its stream's,
  // or all its array's streams' for the reuse from one outer iteration to the next).
  std::array<std::int64_t, max_kernel_accesses + max_kernel_arrays> bytes{};
  std::array<std::size_t, max_kernel_accesses + max_kernel_arrays> finite_lines{};
  // The streams each finite distance's lines make: its lines over one stream's of its array (1 but where a
  // strided array's classes share lines), the cache it holds being that many times its distance.
  std::array<double, max_kernel_accesses + max_kernel_arrays> finite_streams{};
  std::size_t finite = 0;
  std::size_t infinite = 0;
  std::size_t infinite_lines = 0;  // lines per cache line of work the infinite distances bring
  double infinite_streams = 0;     // the streams those lines make, each holding the tail
};

constexpr bool counts_write_allocate(const loop_kernel& k, std::size_t array, bool write_allocate) {
  return write_allocate && k.arrays[array].stores == store_kind::normal;
}

// Lines per cache line of work one stream of the array moves: its stride, one per iteration at most.
constexpr std::size_t stream_lines(const loop_kernel& k, std::size_t array, std::size_t cacheline_bytes) {
  const kernel_array& a = k.arrays[array];
  const auto per_line = static_cast<std::int64_t>(std::max<std::size_t>(1, cacheline_bytes / a.element_bytes));
  return static_cast<std::size_t>(std::min(a.stride, per_line));
}

// Whether the array's stride passes a line: then each class of its innermost offsets is a stream.
constexpr bool skips_lines(const loop_kernel& k, std::size_t array, std::size_t cacheline_bytes) {
  return k.arrays[array].stride * static_cast<std::int64_t>(k.arrays[array].element_bytes) >
         static_cast<std::int64_t>(cacheline_bytes);
}

// The class of an access: its innermost offset modulo the stride where the stride skips lines, else 0 (one
// stream). Accesses of a class meet the same elements, iterations apart.
constexpr std::int64_t offset_class(const loop_kernel& k, const array_access& x, std::size_t cacheline_bytes) {
  if (!skips_lines(k, x.array, cacheline_bytes)) return 0;
  const std::int64_t stride = k.arrays[x.array].stride, r = x.offset[k.dimensions - 1] % stride;
  return r < 0 ? r + stride : r;
}

// The array's classes among its accesses (its written ones alone where `written_only`), in order of appearance.
struct offset_classes {
  std::array<std::int64_t, max_kernel_accesses> of{};
  std::size_t count = 0;
};
constexpr offset_classes classes_of(const loop_kernel& k, std::size_t array, std::size_t cacheline_bytes,
                                    bool written_only = false) {
  offset_classes c{};
  for (const array_access& x : k.accesses) {
    if (x.array != array || (written_only && x.kind != access_kind::write)) continue;
    const std::int64_t r = offset_class(k, x, cacheline_bytes);
    if (std::find(c.of.begin(), c.of.begin() + static_cast<std::ptrdiff_t>(c.count), r) ==
        c.of.begin() + static_cast<std::ptrdiff_t>(c.count))
      c.of[c.count++] = r;
  }
  return c;
}

// Lines per cache line of work that all the array's streams (its written ones where `written_only`) move
// together: one stream's where the stride does not skip lines; else the lines the classes' elements fall
// in over a cache line of work, which moves the pattern on by exactly its stride in lines, so that the
// distinct lines modulo the stride are those of each such period.
constexpr std::size_t lines_of_classes(const loop_kernel& k, std::size_t array, std::size_t cacheline_bytes,
                                       const offset_classes& c) {
  if (!skips_lines(k, array, cacheline_bytes) || c.count < 2) return stream_lines(k, array, cacheline_bytes);
  const kernel_array& a = k.arrays[array];
  const auto element = static_cast<std::int64_t>(a.element_bytes), line = static_cast<std::int64_t>(cacheline_bytes);
  const std::int64_t per_line = std::max<std::int64_t>(1, line / element);
  std::array<std::uint64_t, max_stride / 64> touched{};  // a bit a line, modulo the stride
  std::size_t lines = 0;
  for (std::int64_t i = 0; i < per_line; ++i) {
    for (std::size_t j = 0; j < c.count; ++j) {
      const auto at = static_cast<std::size_t>((a.stride * i + c.of[j]) * element / line % a.stride);
      const std::uint64_t bit = std::uint64_t{1} << (at % 64);
      lines += (touched[at / 64] & bit) == 0 ? 1 : 0;
      touched[at / 64] |= bit;
    }
  }
  return lines;
}
constexpr std::size_t array_lines(const loop_kernel& k, std::size_t array, std::size_t cacheline_bytes,
                                  bool written_only = false) {
  return lines_of_classes(k, array, cacheline_bytes, classes_of(k, array, cacheline_bytes, written_only));
}

// The cache a distance of `bytes` in the array needs: the lines its stream touches in between.
constexpr std::int64_t footprint(const loop_kernel& k, std::size_t array, std::int64_t bytes, std::size_t cacheline_bytes) {
  const std::int64_t step = k.arrays[array].stride * static_cast<std::int64_t>(k.arrays[array].element_bytes);
  const auto line = static_cast<std::int64_t>(cacheline_bytes);
  return step <= line ? bytes : (bytes + step - 1) / step * line;
}

// Where an array does not vary with an outer loop (b[i] in a nest over j, i), its first access in the
// steady state is no new line but one used an iteration of that loop before: its reuse distance is what
// the loops inside that one touch of the array, in bytes (the N elements of b that i reaches), as a row is
// a[j + 1][i]'s; the elements the loops do not reach take no room. 0 where the array varies with every
// loop (its first access is new: an infinite distance).
constexpr std::int64_t outer_reuse_bytes(const loop_kernel& k, std::size_t array, std::size_t cacheline_bytes) {
  const kernel_array& a = k.arrays[array];
  std::int64_t span = static_cast<std::int64_t>(a.element_bytes);
  for (std::size_t d = k.dimensions; d-- > 0;) {
    if (!varies_with(a, d)) return footprint(k, array, span, cacheline_bytes);
    span *= reach(k, array, d);
  }
  return 0;
}

// The reuse distances of all arrays in bytes; a write-only array without write-allocate (or with
// non-temporal stores) has none, since no line of it is ever read.
constexpr reuse_distances distances_of(const loop_kernel& k, bool write_allocate, std::size_t cacheline_bytes) {
  reuse_distances r{};
  for (std::size_t a = 0; a < k.arrays.size(); ++a) {
    const bool read = is_read(k, a);
    if (!read && !counts_write_allocate(k, a, write_allocate)) continue;
    const auto element = static_cast<std::int64_t>(k.arrays[a].element_bytes);
    const auto streams = [&](std::size_t lines) {
      return static_cast<double>(lines) / static_cast<double>(stream_lines(k, a, cacheline_bytes));
    };
    const auto add_finite = [&](std::int64_t cache_bytes, std::size_t lines) {
      r.finite_lines[r.finite] = lines;
      r.finite_streams[r.finite] = streams(lines);
      r.bytes[r.finite++] = cache_bytes;
    };
    // Within each class, the distances between neighbouring offsets.
    const offset_classes classes = classes_of(k, a, cacheline_bytes);
    std::array<std::int64_t, max_kernel_accesses> leaders{};  // each class's first access: its largest offset
    for (std::size_t c = 0; c < classes.count; ++c) {
      std::array<std::int64_t, max_kernel_accesses> offsets{};
      std::size_t n = 0;
      for (const array_access& x : k.accesses) {
        if (x.array != a || offset_class(k, x, cacheline_bytes) != classes.of[c]) continue;
        const std::int64_t o = linear_offset(k, x);
        if (std::find(offsets.begin(), offsets.begin() + static_cast<std::ptrdiff_t>(n), o) ==
            offsets.begin() + static_cast<std::ptrdiff_t>(n))
          offsets[n++] = o;
      }
      std::sort(offsets.begin(), offsets.begin() + static_cast<std::ptrdiff_t>(n), [](auto x, auto y) { return x > y; });
      leaders[c] = offsets[0];
      for (std::size_t i = 1; i < n; ++i)
        add_finite(footprint(k, a, (offsets[i - 1] - offsets[i]) * element, cacheline_bytes),
                   stream_lines(k, a, cacheline_bytes));
    }
    // Classes whose elements share lines (b[9i] and b[9i + 1]) meet them as far apart as their first
    // accesses are (b[16i] and b[16i + 16001]: a thousand iterations): from the class of the largest offset
    // down, the lines a class shares with those before it are a reuse, the rest new. The reuse is from the
    // nearest class before it that shares its lines, not merely the class before it: b[16i + 8] between
    // b[16i + 16001] and b[16i] shares none of their lines (the thirty-second trial: a distance of 64 B,
    // kept in every cache, where b[16i]'s lines were last met a thousand iterations before).
    std::array<std::size_t, max_kernel_accesses> order{};
    for (std::size_t c = 0; c < classes.count; ++c) order[c] = c;
    std::sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(classes.count),
              [&](std::size_t x, std::size_t y) { return leaders[x] > leaders[y]; });
    offset_classes before{};
    std::size_t lines = 0;  // of the classes so far; at the end, all the array's streams move together
    for (std::size_t i = 0; i < classes.count; ++i) {
      before.of[before.count++] = classes.of[order[i]];
      const std::size_t lines_now = lines_of_classes(k, a, cacheline_bytes, before);
      const std::size_t shared = i == 0 ? 0 : stream_lines(k, a, cacheline_bytes) - (lines_now - lines);
      if (shared > 0) {
        std::size_t nearest = i - 1;  // some class before shares them: the union's lines are fewer
        const auto shares = [&](std::size_t j) {
          const offset_classes pair{.of = {classes.of[order[j]], classes.of[order[i]]}, .count = 2};
          return lines_of_classes(k, a, cacheline_bytes, pair) < 2 * stream_lines(k, a, cacheline_bytes);
        };
        while (nearest > 0 && !shares(nearest)) --nearest;
        add_finite(footprint(k, a, (leaders[order[nearest]] - leaders[order[i]]) * element, cacheline_bytes), shared);
      }
      lines = lines_now;
    }
    // The first access of each class: a reuse from the outer loop's last iteration, or a new line.
    if (const std::int64_t outer = outer_reuse_bytes(k, a, cacheline_bytes); outer > 0) {
      add_finite(outer, lines);
    } else {
      r.infinite += classes.count;
      r.infinite_lines += lines;  // the shared lines among them as the reuses above, kept
      r.infinite_streams += streams(lines);
    }
  }
  return r;
}

}  // namespace hml::detail

export namespace hml {

struct traffic_options {
  double layer_condition_share = 0.5;  // the share of a cache's capacity that may hold reuse (see above)
  bool write_allocate = true;          // the machine reads a line before a normal store writes it
  std::size_t cores_sharing = 1;       // cores that share a shared level's capacity, working alike
  std::size_t cacheline_bytes = 64;    // how many lines a strided array's stream moves (traffic_at;
                                       // cache_traffic_of takes the machine's)
};

// Between one cache level and the next level out, per cache line of work: lines that come in (loads for
// reads, write-allocates for stores) and lines that go out (evictions of written lines).
struct level_traffic {
  std::string_view level{};      // the inner level of the pair ("L1" for L1 <-> L2)
  std::size_t loads = 0;         // lines read for the kernel's reads
  std::size_t write_allocates = 0;
  std::size_t evictions = 0;     // (a strided array's stream moves its stride in lines of each)
  std::size_t clean_victims = 0; // clean lines evicted into a victim cache outside, which holds them
  std::size_t hits = 0;          // reuse distances this level keeps
  std::size_t reuses = 0;        // the kernel's finite reuse distances, kept or not
  bool layer_condition = false;  // every finite reuse distance is kept
  bool fully_cached = false;     // the level holds all arrays
  data_size requirement{};       // capacity the kept reuse needs

  [[nodiscard]] constexpr std::size_t lines() const noexcept { return loads + write_allocates + evictions + clean_victims; }
};

struct cache_traffic {
  fixed_list<level_traffic, max_memory_levels> levels{};  // one per cache level, L1 first
  std::size_t non_temporal_stores = 0;  // lines per CL of work written around the caches, into main memory
};

// The capacity a level offers one core's kernel under these options.
[[nodiscard]] constexpr data_size usable_capacity(const level_description& l, const traffic_options& o) {
  const double sharing = l.scope == sharing::shared ? static_cast<double>(o.cores_sharing) : 1.0;
  return l.capacity.value * (o.layer_condition_share / sharing);
}

// The capacity a cache level's layer condition takes: what it offers one core's kernel, and for a victim
// cache the capacity of the level inside it too (their lines are apart).
[[nodiscard]] constexpr data_size layer_condition_capacity(const machine_description& m, std::size_t level,
                                                           const traffic_options& o) {
  const level_description& l = m.memory[level];
  expects(l.capacity.published(), "hml: cache traffic needs every cache level's capacity");
  const data_size own = usable_capacity(l, o);
  return l.victim && level > 0 ? own + layer_condition_capacity(m, level - 1, o) : own;
}

// The machine with every cache taken as inclusive: no victim caches, as kerncraft's layer-condition
// predictor takes them (kerncraft/cacheprediction.py, LayerConditionPredictor: an L3 load for every L2 miss,
// an L3 store for every dirty eviction) and so INSPECT's "Layer Condition" columns.
[[nodiscard]] constexpr machine_description inclusive_caches(machine_description m) noexcept {
  for (std::size_t i = 0; i < m.memory.size(); ++i) m.memory[i].victim = false;
  return m;
}

// The first array whose rows the innermost loop reaches for less than a line, leaving the rest of each
// (a[j][i] for i < 2 of 64 doubles), where none: the number of arrays. Such rows' lines are each row's own,
// a share of a line a row, where the streams the layer conditions count (kerncraft's too) run along
// contiguous rows. Rows reached for a line or more are taken as contiguous (at most a line a row more;
// docs/explanation/ecm-model.md).
[[nodiscard]] constexpr std::size_t array_of_short_rows(const loop_kernel& k, std::size_t cacheline_bytes) {
  if (k.dimensions < 2) return k.arrays.size();
  const std::size_t inner = k.dimensions - 1;
  for (std::size_t a = 0; a < k.arrays.size(); ++a) {
    const kernel_array& x = k.arrays[a];
    const std::int64_t reached = reach(k, a, inner);
    if (varies_with(x, inner - 1) && reached < x.extents[inner] &&
        reached * static_cast<std::int64_t>(x.element_bytes) < static_cast<std::int64_t>(cacheline_bytes)) {
      return a;
    }
  }
  return k.arrays.size();
}

// The traffic of one cache level of capacity `capacity`.
[[nodiscard]] constexpr level_traffic traffic_at(const loop_kernel& k, std::string_view name, data_size capacity,
                                                 const traffic_options& o = {}) {
  validate(k);
  expects(array_of_short_rows(k, o.cacheline_bytes) == k.arrays.size(),
          "hml: the innermost loop reaches less than a cache line of each row of an array and leaves the rest of "
          "the row: the ECM model's streams run along contiguous rows (as kerncraft's layer conditions do); "
          "describe the loop over whole rows, or the rows' lines as an array of their own");
  const detail::reuse_distances d = detail::distances_of(k, o.write_allocate, o.cacheline_bytes);
  level_traffic t{.level = name, .reuses = d.finite};
  const data_size all_arrays = total_array_size(k);
  if (capacity > all_arrays) {
    t.fully_cached = true;
    t.layer_condition = true;
    t.hits = d.finite + d.infinite;
    t.requirement = all_arrays;
    return t;  // no misses, no evictions
  }
  // Tails in decreasing order; the first whose requirement fits decides.
  std::int64_t kept = -1;  // the longest distance kept (none: -1)
  std::array<std::int64_t, max_kernel_accesses + max_kernel_arrays> tails = d.bytes;
  std::sort(tails.begin(), tails.begin() + static_cast<std::ptrdiff_t>(d.finite), [](auto x, auto y) { return x > y; });
  for (std::size_t i = 0; i < d.finite; ++i) {
    const std::int64_t tail = tails[i];
    double requirement = 0;  // bytes; whole but where a strided array's classes share lines
    std::size_t hits = 0;
    for (std::size_t j = 0; j < d.finite; ++j) {
      hits += d.bytes[j] <= tail ? 1 : 0;
      requirement += d.finite_streams[j] * static_cast<double>(std::min(d.bytes[j], tail));
    }
    requirement += d.infinite_streams * static_cast<double>(tail);
    if (requirement * byte <= capacity) {
      t.hits = hits;
      t.requirement = requirement * byte;
      kept = tail;
      break;
    }
  }
  t.layer_condition = t.hits == d.finite;
  std::size_t missed_lines = d.infinite_lines;
  for (std::size_t j = 0; j < d.finite; ++j)
    if (d.bytes[j] > kept) missed_lines += d.finite_lines[j];
  // Misses split into reads and write-allocates: a write-only array's infinite distance is its allocate.
  // A written array this level keeps from one outer iteration to the next (c[i] += ... in a nest over j,
  // i, with c in cache) stays here, dirty: neither allocated nor evicted again each line of work.
  for (std::size_t a = 0; a < k.arrays.size(); ++a) {
    if (!is_written(k, a)) continue;
    const std::int64_t outer = detail::outer_reuse_bytes(k, a, o.cacheline_bytes);
    if (outer > 0 && outer <= kept) continue;
    const std::size_t lines = detail::array_lines(k, a, o.cacheline_bytes, true);
    if (k.arrays[a].stores == store_kind::normal) t.evictions += lines;
    if (!is_read(k, a) && detail::counts_write_allocate(k, a, o.write_allocate)) t.write_allocates += lines;
  }
  t.loads = missed_lines - t.write_allocates;
  return t;
}

// Every cache level of the machine (all levels but the last, main memory), L1 first.
[[nodiscard]] constexpr cache_traffic cache_traffic_of(const loop_kernel& k, const machine_description& m,
                                                 const traffic_options& o = {}) {
  expects(m.memory.size() >= 2, "hml: cache traffic needs at least one cache level and main memory");
  expects(!m.memory[0].victim && !m.memory.back().victim,
          "hml: a victim cache is a cache outside another: neither the fastest level nor main memory");
  cache_traffic c{};
  traffic_options with_line = o;
  if (m.cacheline_bytes > 0) with_line.cacheline_bytes = m.cacheline_bytes;
  for (std::size_t i = 0; i + 1 < m.memory.size(); ++i)
    c.levels.push_back(traffic_at(k, m.memory[i].name, layer_condition_capacity(m, i, with_line), with_line));
  // Into a victim cache come only the hits among the inner level's misses (the others load past it, from
  // the level outside), and out of that level every line it brought in, clean or dirty.
  for (std::size_t i = 1; i < c.levels.size(); ++i) {
    if (!m.memory[i].victim) continue;
    level_traffic& path = c.levels[i - 1];
    const level_traffic& victim = c.levels[i];
    const std::size_t entered = path.loads + path.write_allocates;
    path.clean_victims = entered > path.evictions ? entered - path.evictions : 0;
    path.loads -= std::min(path.loads, victim.loads);
    path.write_allocates -= std::min(path.write_allocates, victim.write_allocates);
  }
  for (std::size_t a = 0; a < k.arrays.size(); ++a)
    if (is_written(k, a) && k.arrays[a].stores == store_kind::non_temporal)
      c.non_temporal_stores += detail::array_lines(k, a, with_line.cacheline_bytes, true);
  return c;
}

// Lines per cache line of work between cache level `i` and the next level out; the last pair (last cache
// and main memory) also carries the non-temporal stores, even where a cache would hold every array: a
// non-temporal store goes around the caches whatever the size.
[[nodiscard]] constexpr double lines_between(const cache_traffic& c, std::size_t i) {
  const level_traffic& t = c.levels[i];
  const bool last = i + 1 == c.levels.size();
  return static_cast<double>(t.lines()) + (last ? static_cast<double>(c.non_temporal_stores) : 0.0);
}

// The larger of the lines that come in (loads, write-allocates) and the lines that go out (evictions, and at
// the last pair the non-temporal stores) between cache level `i` and the next level out: what a path that
// moves both ways at once (full duplex) takes its time from.
[[nodiscard]] constexpr double busier_direction(const cache_traffic& c, std::size_t i) {
  const level_traffic& t = c.levels[i];
  const double in = static_cast<double>(t.loads + t.write_allocates);
  const double out = lines_between(c, i) - in;
  return in > out ? in : out;
}

}  // namespace hml
