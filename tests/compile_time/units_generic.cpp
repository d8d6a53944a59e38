// Generic code sees the unit rules: cross-dimension sums and comparisons are not valid expressions,
// and bool or characters do not scale quantities.
#include <concepts>
#include <functional>
#include <type_traits>

import hml;

namespace {

template <class A, class B>
concept addable = requires(A a, B b) { a + b; };
template <class A, class B>
concept comparable = requires(A a, B b) { a < b; };
template <class A, class B>
concept scalable = requires(A a, B b) { a * b; };

static_assert(addable<hml::data_size, hml::data_size>);
static_assert(!addable<hml::data_size, hml::duration>);
static_assert(!addable<hml::work, hml::compute_rate>);
static_assert(comparable<hml::data_rate, hml::data_rate>);
static_assert(!comparable<hml::data_rate, hml::data_size>);
static_assert(!std::is_invocable_v<std::plus<>, hml::data_size, hml::duration>);
static_assert(!std::equality_comparable_with<hml::arithmetic_intensity, hml::compute_rate>);
static_assert(scalable<hml::data_size, double> && scalable<hml::data_size, int>);
static_assert(!scalable<hml::data_size, bool>);
static_assert(!scalable<hml::data_size, char>);

}  // namespace
