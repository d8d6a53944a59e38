// hml.vocabulary — the words every model of a machine speaks, below all of them: where a figure comes from
// (provenance, figure, source), lists of a fixed capacity that keep a machine a constexpr value
// (fixed_list), and precisions and compute units (precision, compute_unit, compute_kind).
module;
#include <array>
#include <cstddef>
#include <initializer_list>
#include <string_view>
export module hml.vocabulary;
export import hml.units;

export namespace hml {

// Where a figure comes from.
enum class provenance {
  stated,       // in the vendor's datasheet, product brief or press release
  derived,      // computed in code from stated parts (pin rate x bus width, cores x clock x FLOP/cycle)
  measured,     // a published benchmark result
  unconfirmed,  // third-party or from memory: not confirmed in a retrieved text
};

[[nodiscard]] constexpr std::string_view to_string(provenance p) noexcept {
  switch (p) {
    case provenance::stated: return "stated";
    case provenance::derived: return "derived";
    case provenance::measured: return "measured";
    case provenance::unconfirmed: return "unconfirmed";
  }
  return "?";
}

// A value, its provenance and the key of its source (a document listed with the machine, e.g. in
// hml::devices::sources). A value of 0 means "not published" (or no such unit).
template <class Quantity>
struct figure {
  Quantity value{};
  provenance kind = provenance::stated;
  std::string_view source{};

  [[nodiscard]] constexpr bool published() const noexcept { return value.value() > 0; }
  friend constexpr bool operator==(const figure&, const figure&) = default;
};

template <class Quantity>
[[nodiscard]] constexpr figure<Quantity> stated(Quantity q, std::string_view source = {}) noexcept {
  return {q, provenance::stated, source};
}
template <class Quantity>
[[nodiscard]] constexpr figure<Quantity> derived(Quantity q, std::string_view source = {}) noexcept {
  return {q, provenance::derived, source};
}
template <class Quantity>
[[nodiscard]] constexpr figure<Quantity> measured(Quantity q, std::string_view source = {}) noexcept {
  return {q, provenance::measured, source};
}
template <class Quantity>
[[nodiscard]] constexpr figure<Quantity> unconfirmed(Quantity q, std::string_view source = {}) noexcept {
  return {q, provenance::unconfirmed, source};
}

// A document a figure cites: its key, its title, and where a reader finds it.
struct source {
  std::string_view key;
  std::string_view title;
  std::string_view where;
  friend constexpr bool operator==(const source&, const source&) = default;
};

// Up to `Capacity` values in order, constexpr: `fixed_list<int, 4>{1, 2}` holds two.
template <class T, std::size_t Capacity>
class fixed_list {
public:
  constexpr fixed_list() = default;
  constexpr fixed_list(std::initializer_list<T> items) {
    for (const T& item : items) push_back(item);
  }

  constexpr void push_back(const T& item) {
    expects(count_ < Capacity, "hml: a machine description's list is full");
    items_[count_++] = item;
  }

  [[nodiscard]] constexpr std::size_t size() const noexcept { return count_; }
  [[nodiscard]] constexpr bool empty() const noexcept { return count_ == 0; }
  [[nodiscard]] static constexpr std::size_t capacity() noexcept { return Capacity; }
  [[nodiscard]] constexpr const T* begin() const noexcept { return items_.data(); }
  [[nodiscard]] constexpr const T* end() const noexcept { return items_.data() + count_; }
  [[nodiscard]] constexpr const T& operator[](std::size_t i) const {
    expects(i < count_, "hml: index past the end of a machine description's list");
    return items_[i];
  }
  [[nodiscard]] constexpr T& operator[](std::size_t i) {
    expects(i < count_, "hml: index past the end of a machine description's list");
    return items_[i];
  }
  [[nodiscard]] constexpr const T& back() const { return (*this)[count_ - 1]; }

  // The same items in the same order (the unused capacity is not compared).
  friend constexpr bool operator==(const fixed_list& a, const fixed_list& b) {
    if (a.count_ != b.count_) return false;
    for (std::size_t i = 0; i < a.count_; ++i) {
      if (!(a.items_[i] == b.items_[i])) return false;
    }
    return true;
  }

private:
  std::array<T, Capacity> items_{};
  std::size_t count_ = 0;
};

// --- Precisions and compute units ---------------------------------------------------------------------

// NVFP4 and MXFP4 are 4-bit floats (E2M1) in blocks that share a scale: an FP8 (E4M3) scale for each 16
// elements (NVIDIA's NVFP4), or a power of two (E8M0) for each 32 (the OCP microscaling format, MXFP4).
enum class precision { fp64, fp32, tf32, bf16, fp16, fp8, int8, int4, nvfp4, mxfp4 };
inline constexpr std::array<precision, 10> all_precisions{precision::fp64, precision::fp32, precision::tf32,
                                                          precision::bf16, precision::fp16, precision::fp8,
                                                          precision::int8, precision::int4, precision::nvfp4,
                                                          precision::mxfp4};

[[nodiscard]] constexpr std::string_view to_string(precision p) noexcept {
  switch (p) {
    case precision::fp64: return "FP64";
    case precision::fp32: return "FP32";
    case precision::tf32: return "TF32";
    case precision::bf16: return "BF16";
    case precision::fp16: return "FP16";
    case precision::fp8: return "FP8";
    case precision::int8: return "INT8";
    case precision::int4: return "INT4";
    case precision::nvfp4: return "NVFP4";
    case precision::mxfp4: return "MXFP4";
  }
  return "?";
}

// The precision of an element type, so that a kernel built from float32 data is analysed at FP32:
// `analyze(k, device, precision_of<float>)`. Only types whose precision is unambiguous have one.
template <class Element>
inline constexpr bool has_precision = false;
template <>
inline constexpr bool has_precision<double> = true;
template <>
inline constexpr bool has_precision<float> = true;

template <class Element>
  requires has_precision<Element>
inline constexpr precision precision_of = sizeof(Element) == 8 ? precision::fp64 : precision::fp32;

// Vector (CUDA cores, SIMD) or tensor / matrix units (Tensor Cores, Matrix Cores, AMX).
enum class compute_unit { vector, tensor };

// A precision on a unit: the key of a compute ceiling.
struct compute_kind {
  precision type;
  compute_unit unit;
  friend constexpr bool operator==(compute_kind, compute_kind) noexcept = default;
};

// "FP64", "FP64 tensor", ...: one name per kind; a vector kind is named by its precision alone.
[[nodiscard]] constexpr std::string_view to_string(compute_kind k) noexcept {
  if (k.unit == compute_unit::vector) return to_string(k.type);
  constexpr std::array<std::string_view, all_precisions.size()> tensor{
      "FP64 tensor", "FP32 tensor", "TF32 tensor", "BF16 tensor", "FP16 tensor",
      "FP8 tensor",  "INT8 tensor", "INT4 tensor", "NVFP4 tensor", "MXFP4 tensor"};
  return tensor[static_cast<std::size_t>(k.type)];
}

// "hml: the machine publishes no FP8 tensor peak; ...": one literal a kind, as `expects` takes one, so that a
// constant expression's note names the kind, not its enumerators ({5, 1}).
[[nodiscard]] constexpr const char* no_peak_message(compute_kind k) noexcept {
  constexpr std::array<const char*, all_precisions.size()> vector{
      "hml: the machine publishes no FP64 peak; give a kind its compute ceilings list, or a machine with one",
      "hml: the machine publishes no FP32 peak; give a kind its compute ceilings list, or a machine with one",
      "hml: the machine publishes no TF32 peak; give a kind its compute ceilings list, or a machine with one",
      "hml: the machine publishes no BF16 peak; give a kind its compute ceilings list, or a machine with one",
      "hml: the machine publishes no FP16 peak; give a kind its compute ceilings list, or a machine with one",
      "hml: the machine publishes no FP8 peak; give a kind its compute ceilings list, or a machine with one",
      "hml: the machine publishes no INT8 peak; give a kind its compute ceilings list, or a machine with one",
      "hml: the machine publishes no INT4 peak; give a kind its compute ceilings list, or a machine with one",
      "hml: the machine publishes no NVFP4 peak; give a kind its compute ceilings list, or a machine with one",
      "hml: the machine publishes no MXFP4 peak; give a kind its compute ceilings list, or a machine with one"};
  constexpr std::array<const char*, all_precisions.size()> tensor{
      "hml: the machine publishes no FP64 tensor peak; give a kind its compute ceilings list, or a machine with one",
      "hml: the machine publishes no FP32 tensor peak; give a kind its compute ceilings list, or a machine with one",
      "hml: the machine publishes no TF32 tensor peak; give a kind its compute ceilings list, or a machine with one",
      "hml: the machine publishes no BF16 tensor peak; give a kind its compute ceilings list, or a machine with one",
      "hml: the machine publishes no FP16 tensor peak; give a kind its compute ceilings list, or a machine with one",
      "hml: the machine publishes no FP8 tensor peak; give a kind its compute ceilings list, or a machine with one",
      "hml: the machine publishes no INT8 tensor peak; give a kind its compute ceilings list, or a machine with one",
      "hml: the machine publishes no INT4 tensor peak; give a kind its compute ceilings list, or a machine with one",
      "hml: the machine publishes no NVFP4 tensor peak; give a kind its compute ceilings list, or a machine with one",
      "hml: the machine publishes no MXFP4 tensor peak; give a kind its compute ceilings list, or a machine with one"};
  return (k.unit == compute_unit::vector ? vector : tensor)[static_cast<std::size_t>(k.type)];
}

}  // namespace hml
