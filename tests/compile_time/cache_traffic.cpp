// Cache traffic per cache line of work, each case derived by hand in its comment (64 B lines, doubles).
import hml;

namespace {

using namespace hml::literals;
using hml::kernels::copy;
using hml::kernels::schoenauer_triad;
using hml::kernels::stencil2d5;
using hml::kernels::stream_triad;

constexpr hml::traffic_options half{};  // the default: half of a cache may hold reuse
constexpr auto capacity = 32_KiB;       // an L1; the streaming arrays below are far larger

// Schönauer triad a = b + c * d: b, c and d are read (3 loads), a is written (1 write-allocate, 1 eviction).
constexpr auto triad = hml::traffic_at(schoenauer_triad(10'000'000), "L1", capacity * 0.5, half);
static_assert(triad.loads == 3 && triad.write_allocates == 1 && triad.evictions == 1 && triad.lines() == 5);

// STREAM triad a = b + s * c: 2 loads, 1 write-allocate, 1 eviction.
static_assert(hml::traffic_at(stream_triad(10'000'000), "L1", capacity * 0.5).lines() == 4);

// copy b = a: 1 load, 1 write-allocate, 1 eviction; with non-temporal stores only the load stays in the
// caches, and the store goes straight to memory.
static_assert(hml::traffic_at(copy(10'000'000), "L1", capacity * 0.5).lines() == 3);
constexpr auto nt = hml::traffic_at(copy(10'000'000, hml::store_kind::non_temporal), "L1", capacity * 0.5);
static_assert(nt.loads == 1 && nt.write_allocates == 0 && nt.evictions == 0);
// A machine without write-allocate reads no line before a store.
static_assert(hml::traffic_at(copy(10'000'000), "L1", capacity * 0.5, {.write_allocate = false}).lines() == 2);

// update a = s * a: the line read is the line written: 1 load, 1 eviction, no write-allocate of its own.
constexpr auto update = hml::traffic_at(hml::kernels::update(10'000'000), "L1", capacity * 0.5);
static_assert(update.loads == 1 && update.write_allocates == 0 && update.evictions == 1);

// 2D 5-point stencil over rows of N doubles. a's offsets +N, +1, -1, -N give reuse distances 8(N-1), 16,
// 8(N-1) bytes and one infinite; b adds one infinite. Keeping all rows needs
// 16(N-1) + 16 + 2 * 8(N-1) = 32N - 16 bytes. In half of a 32 KiB L1 (16,384 B): N = 512 needs 16,368 B
// and holds (a loads 1 row: 1 load + 1 write-allocate + 1 eviction = 3 lines); N = 513 needs 16,400 B and
// fails (rows j-1 and j+1 miss too: 3 loads, 5 lines).
constexpr auto holds = hml::traffic_at(stencil2d5(1000, 512), "L1", capacity * 0.5);
constexpr auto fails = hml::traffic_at(stencil2d5(1000, 513), "L1", capacity * 0.5);
static_assert(holds.layer_condition && holds.loads == 1 && holds.lines() == 3);
static_assert(holds.requirement == 16'368_B);
static_assert(!fails.layer_condition && fails.loads == 3 && fails.lines() == 5);

// A level larger than all arrays keeps everything: no line moves (two 8 kB vectors in 32 KiB).
constexpr auto cached = hml::traffic_at(schoenauer_triad(1000), "L1", capacity);
static_assert(cached.fully_cached && cached.lines() == 0);

// Over a machine's levels, with half of each: the layer condition of a 2D stencil with rows of 2,000
// doubles (32N - 16 = 63,984 B) fails in a 32 KiB L1 and holds in a 1 MiB L2 and a shared 32 MiB L3.
constexpr hml::machine_description three_levels{
    .memory = {{.name = "L1", .capacity = hml::stated(32_KiB), .scope = hml::sharing::per_core},
               {.name = "L2", .capacity = hml::stated(1_MiB), .scope = hml::sharing::per_core},
               {.name = "L3", .capacity = hml::stated(32_MiB)},
               {.name = "DRAM", .bandwidth = hml::stated(64_GBps)}}};
constexpr auto stencil = hml::cache_traffic_of(stencil2d5(4000, 2000), three_levels);
static_assert(stencil.levels.size() == 3);
static_assert(hml::lines_between(stencil, 0) == 5 && hml::lines_between(stencil, 1) == 3 &&
              hml::lines_between(stencil, 2) == 3);
// On 32 cores sharing L3, each has 32 MiB / 32 / 2 = 512 KiB: still enough for 63,984 B.
static_assert(hml::lines_between(hml::cache_traffic_of(stencil2d5(4000, 2000), three_levels, {.cores_sharing = 32}), 2) == 3);
// Non-temporal copy: one line in from memory and one line out around the caches.
static_assert(hml::lines_between(hml::cache_traffic_of(copy(100'000'000, hml::store_kind::non_temporal), three_levels), 2) == 2);
// In L1 the source moves no line, and the stores still go around the caches into memory: one line a CL.
constexpr auto small_nt = hml::cache_traffic_of(copy(1000, hml::store_kind::non_temporal), three_levels);
static_assert(small_nt.levels[0].fully_cached && hml::lines_between(small_nt, 0) == 0 && hml::lines_between(small_nt, 2) == 1);

// The same machine with its L3 a victim cache of the L2. A Schoenauer triad in memory: the L2 takes 4 lines
// in (b, c, d and a's write-allocate), none from the L3, which holds none of them; all 4 go out into the
// L3, a dirty, b, c and d clean (the inclusive L3: 4 in, 1 out); 5 lines between the L3 and memory either
// way. With all arrays in the L3 and the L2 together (4 x 1.12 MB = 4.48 MB in half of 1 + 8 MiB, 4.5 MiB),
// but not in the L3's half alone: the 4 lines come in from the L3 and 4 go out, and none reach memory.
constexpr hml::machine_description victim_l3 = [] {
  hml::machine_description m = three_levels;
  m.memory[2].capacity = hml::stated(8_MiB);
  m.memory[2].victim = true;
  return m;
}();
constexpr auto streamed = hml::cache_traffic_of(schoenauer_triad(100'000'000), victim_l3);
static_assert(streamed.levels[1].loads == 0 && streamed.levels[1].write_allocates == 0 &&
              streamed.levels[1].evictions == 1 && streamed.levels[1].clean_victims == 3 && hml::lines_between(streamed, 1) == 4);
static_assert(hml::lines_between(hml::cache_traffic_of(schoenauer_triad(100'000'000), hml::inclusive_caches(victim_l3)), 1) == 5);
static_assert(hml::lines_between(streamed, 2) == 5 && hml::busier_direction(streamed, 1) == 4);
constexpr auto in_l3 = hml::cache_traffic_of(schoenauer_triad(140'000), victim_l3);
static_assert(in_l3.levels[1].loads == 3 && in_l3.levels[1].write_allocates == 1 && in_l3.levels[1].evictions == 1 &&
              in_l3.levels[1].clean_victims == 3 && hml::lines_between(in_l3, 1) == 8 && in_l3.levels[2].fully_cached);
static_assert(hml::layer_condition_capacity(victim_l3, 2, {}) == 4608_KiB &&
              hml::layer_condition_capacity(three_levels, 2, {}) == 16_MiB);
static_assert(!hml::cache_traffic_of(schoenauer_triad(140'000), hml::inclusive_caches(victim_l3)).levels[2].fully_cached);

// Matrix rows summed into a vector, c[i] += a[j][i] * b[i] over j < M rows of N doubles: b and c do not
// vary with j (extent 0 there), so each is reused one row later, after N doubles of its own: a distance of
// 8N bytes each, where a's first access is new (infinite). With N = 2000, keeping b and c needs
// 16,000 + 16,000 + a's tail 16,000 = 48,000 B: more than half of a 32 KiB L1 (a, b and c come in, c goes
// out: 4 lines), less than half of a 1 MiB L2 (only a's line comes in; c stays there, dirty: 1 line).
constexpr hml::loop_kernel row_sums{
    .name = "row sums",
    .dimensions = 2,
    .extents = {1000, 2000},
    .arrays = {{.name = "a", .extents = {1000, 2000}}, {.name = "b", .extents = {0, 2000}}, {.name = "c", .extents = {0, 2000}}},
    .accesses = {{.array = 0}, {.array = 1}, {.array = 2}, {.array = 2, .kind = hml::access_kind::write}},
    .flops = {.add = 1, .mul = 1}};
constexpr auto row_sums_l1 = hml::traffic_at(row_sums, "L1", capacity * 0.5);
static_assert(row_sums_l1.reuses == 2 && row_sums_l1.hits == 0);
static_assert(row_sums_l1.loads == 3 && row_sums_l1.write_allocates == 0 && row_sums_l1.evictions == 1);
constexpr auto row_sums_l2 = hml::traffic_at(row_sums, "L2", 1_MiB * 0.5);
static_assert(row_sums_l2.layer_condition && row_sums_l2.requirement == 48'000_B);
static_assert(row_sums_l2.loads == 1 && row_sums_l2.evictions == 0 && row_sums_l2.lines() == 1);
// b and c are 16,000 B each and a 16 MB: a cache that holds b, c and a's tail but not a keeps them.
static_assert(hml::array_size(row_sums, row_sums.arrays[1]) == 16'000_B);

// A strided read, a[i] = s * b[S * i] (+ b[S * i + later], read again `later` elements on) over n doubles:
// b's stream moves S lines per CL of work, 8 at most (a stride of a line or more: each of the 8 elements its
// own line); a is written (1 write-allocate, 1 eviction).
constexpr hml::loop_kernel strided(long long n, long long stride, long long later = 0) {
  hml::loop_kernel k{.name = "strided",
                     .dimensions = 1,
                     .extents = {n},
                     .arrays = {{.name = "a", .extents = {n}}, {.name = "b", .extents = {stride * n + later}, .stride = stride}},
                     .accesses = {{.array = 1}, {.array = 0, .kind = hml::access_kind::write}},
                     .flops = {.mul = 1}};
  if (later != 0) k.accesses.push_back({.array = 1, .offset = {later}});
  return k;
}
constexpr auto stride2 = hml::traffic_at(strided(10'000'000, 2), "L1", capacity * 0.5);
static_assert(stride2.loads == 2 && stride2.write_allocates == 1 && stride2.evictions == 1 && stride2.lines() == 4);
static_assert(hml::traffic_at(strided(10'000'000, 16), "L1", capacity * 0.5).loads == 8);
static_assert(hml::traffic_at(strided(10'000'000, 1), "L1", capacity * 0.5).loads == 1);  // the unit stride's 1
// b[2i] and b[2i + 1] share their lines: a distance of 8 B, kept; b still brings 2 lines.
constexpr auto pairs = hml::traffic_at(strided(10'000'000, 2, 1), "L1", capacity * 0.5);
static_assert(pairs.layer_condition && pairs.loads == 2);
// With a stride of 16 doubles (128 B), b[16i + 1600] is read again 100 iterations later: 12,800 B apart in
// the array, but only every other line of them is touched, 6,400 B of cache. Keeping it needs that plus
// the tails of b's first access and a's write-allocate: 3 x 6,400 = 19,200 B. 20 KiB holds it (b: 8 lines
// a CL); 18 KiB does not (both of b's accesses bring 8 lines: 16).
constexpr auto far_kept = hml::traffic_at(strided(1'000'000, 16, 1600), "L1", 20_KiB);
static_assert(far_kept.layer_condition && far_kept.requirement == 19'200_B && far_kept.loads == 8 && far_kept.lines() == 10);
constexpr auto far_lost = hml::traffic_at(strided(1'000'000, 16, 1600), "L1", 18_KiB);
static_assert(!far_lost.layer_condition && far_lost.loads == 16 && far_lost.lines() == 18);
// Offsets that are not a multiple of a stride that skips lines never meet the same element (the twentieth
// held-out trial: b[16i] and b[16i + 8] were taken as one stream, 8 lines of b where the loop reads 16, and
// the prediction beat main memory's bandwidth 1.6-fold). Each class of offsets is a stream; together they
// move the lines their elements fall in: 16 for b[16i] and b[16i + 8] or + 24, as b[16i] and c[16i] do;
// 12 for b[12i] and b[12i + 8] (every line of the span); 9 for b[9i] and b[9i + 1] (mostly one line each
// iteration, the ninth where the pair straddles two). Offsets a multiple of the stride apart stay reuse.
static_assert(hml::traffic_at(strided(1'000'000, 16, 8), "L1", capacity * 0.5).loads == 16);
static_assert(hml::traffic_at(strided(1'000'000, 16, 24), "L1", capacity * 0.5).loads == 16);
static_assert(hml::traffic_at(strided(1'000'000, 12, 8), "L1", capacity * 0.5).loads == 12);
static_assert(hml::traffic_at(strided(1'000'000, 9, 1), "L1", capacity * 0.5).loads == 9);
static_assert(hml::traffic_at(strided(1'000'000, 16, 16), "L1", capacity * 0.5).loads == 8);
// Classes that share lines meet them as far apart as their first accesses (the twenty-first trial, which
// simulated LRU caches: b[16i] and b[16i + 16001] share every line a thousand iterations apart, 64,064 B of
// b's lines in between). A cache that holds that keeps them, 8 lines; one that does not reads both, 16.
static_assert(hml::traffic_at(strided(1'000'000, 16, 16001), "L1", 32_KiB).loads == 16);
static_assert(hml::traffic_at(strided(1'000'000, 16, 16001), "L2", 256_KiB).loads == 8);
// Their first accesses are one stream of new lines, not two (the twenty-eighth trial: b[16i + 20801] needed
// a fourth 83,264 B where b[16i + 20800], the same lines in the same order, needed three): the reuse, b's
// new lines and a's write-allocate, 3 x 64,064 B. 200 KiB keeps it.
static_assert(hml::traffic_at(strided(1'000'000, 16, 16001), "L2", 256_KiB).requirement == 192'192_B);
static_assert(hml::traffic_at(strided(1'000'000, 16, 16001), "L2", 200_KiB).loads == 8);
static_assert(hml::traffic_at(strided(1'000'000, 16, 20801), "L2", 256_KiB).requirement ==
              hml::traffic_at(strided(1'000'000, 16, 20800), "L2", 256_KiB).requirement + 3 * 64_B);
// A class between them that shares neither's lines (b[16i + 8]) leaves the reuse b[16i] makes of
// b[16i + 16001]'s lines a thousand iterations long (the thirty-second trial, by LRU simulation too: 25 lines
// into the L1, 17 into the L2, where a distance of 64 B was counted and kept in both): 4 x 64,064 B, b's two
// streams of new lines, the reuse and a's write-allocate.
constexpr hml::loop_kernel three_classes = [] {
  hml::loop_kernel k = strided(1'000'000, 16, 16001);
  k.accesses.push_back({.array = 1, .offset = {8}});
  return k;
}();
static_assert(hml::traffic_at(three_classes, "L1", 32_KiB).loads == 24 &&
              hml::traffic_at(three_classes, "L1", 32_KiB).lines() == 26);
static_assert(hml::traffic_at(three_classes, "L2", 256_KiB).requirement == 4 * 64'064_B &&
              hml::traffic_at(three_classes, "L2", 256_KiB).loads == 16);
// Two such pairs (b[16i + 16009] and b[16i + 8] too): two reuses, two streams of new lines and a's, 5 x 64,064 B;
// a 256 KiB L2 keeps neither (32 lines of b, as the trial's simulation counts them).
constexpr hml::loop_kernel two_pairs = [] {
  hml::loop_kernel k = three_classes;
  k.accesses.push_back({.array = 1, .offset = {16009}});
  k.arrays[1].extents = {16'000'000 + 16009};
  return k;
}();
static_assert(hml::traffic_at(two_pairs, "L3", 20_MiB).requirement == 5 * 64'064_B &&
              hml::traffic_at(two_pairs, "L3", 20_MiB).loads == 16);
static_assert(hml::traffic_at(two_pairs, "L2", 256_KiB).loads == 32);
static_assert(hml::traffic_at(strided(1'000'000, 9, 1), "L1", 1_KiB).loads == 9);  // the next iteration's
// Written in two classes, a[16i] and a[16i + 8] evict both streams' lines.
constexpr hml::loop_kernel two_written_streams = [] {
  hml::loop_kernel k = strided(1'000'000, 1);
  k.arrays[0].extents = {16'000'008};
  k.arrays[0].stride = 16;
  k.accesses.push_back({.array = 0, .kind = hml::access_kind::write, .offset = {8}});
  return k;
}();
constexpr auto two_written = hml::traffic_at(two_written_streams, "L1", capacity * 0.5);
static_assert(two_written.loads == 1 && two_written.write_allocates == 16 && two_written.evictions == 16);

}  // namespace
