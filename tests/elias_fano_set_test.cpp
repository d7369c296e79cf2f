// EliasFanoSet against a plain sorted vector: every value's index, every index's value, values
// not in the set, and the words read back (and refused when damaged).
#include "tablebase/elias_fano_set.h"

#include <algorithm>
#include <bit>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <random>
#include <set>
#include <stdexcept>
#include <vector>

using tablebase::EliasFanoSet;

namespace {

std::vector<std::uint64_t> random_set(std::mt19937_64& random, std::uint64_t count,
                                      std::uint64_t bound) {
  std::set<std::uint64_t> values;
  while (values.size() < count) values.insert(random() % bound);
  return {values.begin(), values.end()};
}

// Asks the set for every value and index, and for values around them not in it.
void check_like_a_list(const EliasFanoSet& set, const std::vector<std::uint64_t>& values,
                       std::uint64_t bound) {
  REQUIRE(set.size() == values.size());
  for (std::uint64_t k = 0; k < values.size(); ++k) {
    REQUIRE(set.at(k) == values[k]);
    REQUIRE(set.find(values[k]) == k);
  }
  std::mt19937_64 random(values.size());
  for (int i = 0; i < 2000; ++i) {
    const std::uint64_t v = random() % (bound + 10);
    const auto it = std::lower_bound(values.begin(), values.end(), v);
    const std::uint64_t expected =
        it != values.end() && *it == v ? std::uint64_t(it - values.begin()) : EliasFanoSet::npos;
    REQUIRE(set.find(v) == expected);
  }
}

}  // namespace

TEST_CASE("An Elias-Fano set answers as its sorted list", "[tiers]") {
  std::mt19937_64 random(7);
  // Sparse and dense sets, the bucket of one value and of several, bounds that are and are not
  // powers of two, sets that fill their bound.
  const std::vector<std::pair<std::uint64_t, std::uint64_t>> shapes = {
      {1, 1},          {1, 1000},          {5, 5},          {300, 300},        {700, 1024},
      {1000, 1001},    {1000, 64000},      {2000, 1 << 20}, {5000, 123456789}, {40000, 40000 * 64},
      {3, 1ull << 40}, {10000, 1ull << 50}};
  for (const auto& [count, bound] : shapes) {
    const auto values = random_set(random, count, bound);
    const EliasFanoSet set(values, bound);
    check_like_a_list(set, values, bound);
    std::vector<std::uint64_t> words;
    set.append_words(words);
    REQUIRE(words.size() == EliasFanoSet::word_count(count, bound));
    check_like_a_list(EliasFanoSet::from_words(count, bound, words), values, bound);
    // A set takes about 2 + log2(bound / count) bits a value.
    CHECK(words.size() * 64 <= count * (3 + std::max(0.0, std::log2(double(bound) / count))) + 128);
  }
}

TEST_CASE("An Elias-Fano set refuses values out of order and damaged words", "[tiers]") {
  REQUIRE_THROWS_AS(EliasFanoSet(std::vector<std::uint64_t>{3, 3}, 10), std::invalid_argument);
  REQUIRE_THROWS_AS(EliasFanoSet(std::vector<std::uint64_t>{4, 2}, 10), std::invalid_argument);
  REQUIRE_THROWS_AS(EliasFanoSet(std::vector<std::uint64_t>{4, 10}, 10), std::invalid_argument);
  std::mt19937_64 random(11);
  const auto values = random_set(random, 500, 100000);
  std::vector<std::uint64_t> words;
  EliasFanoSet(values, 100000).append_words(words);
  REQUIRE_THROWS_AS(EliasFanoSet::from_words(500, 100000, {words.data(), words.size() - 1}),
                    std::invalid_argument);
  // The last value's one moved past the high bits' end (the count still right): a value past
  // the bound. And a one too many.
  std::vector<std::uint64_t> moved = words;
  REQUIRE(moved.back() >> 63 == 0);
  auto last = moved.end() - 1;
  while (!*last) --last;
  *last &= ~(std::uint64_t{1} << (63 - std::countl_zero(*last)));
  moved.back() |= std::uint64_t{1} << 63;
  REQUIRE_THROWS_AS(EliasFanoSet::from_words(500, 100000, moved), std::invalid_argument);
  std::vector<std::uint64_t> extra = words;
  extra.back() |= std::uint64_t{1} << 63;
  REQUIRE_THROWS_AS(EliasFanoSet::from_words(500, 100000, extra), std::invalid_argument);
}
