// The concurrent building block of the transposition tables: sizes, which bucket a hash selects,
// and critical sections that never overlap on one bucket.
#include "solver/locked_buckets.h"

#include <atomic>
#include <catch2/catch.hpp>
#include <cstdint>

#include "tests/test_support.h"

namespace {

struct Pair {
  std::uint64_t a, b;
};

}  // namespace

TEST_CASE("locked buckets: at most the bytes asked for, at least one bucket", "[locked_buckets]") {
  CHECK(solver::LockedBuckets<Pair>(0).size() == 1);
  CHECK(solver::LockedBuckets<Pair>(1000).size() == 1000 / 64);
  CHECK(solver::LockedBuckets<Pair>(1000).bytes() == 1000 / 64 * 64);
  CHECK(solver::LockedBuckets<Pair>(1 << 20).bytes() == 1 << 20);
}

TEST_CASE("locked buckets: a hash selects its bucket by its high bits", "[locked_buckets]") {
  solver::LockedBuckets<Pair> buckets(4 * 64);
  const std::uint64_t quarter = std::uint64_t{1} << 62;
  for (std::uint64_t n = 0; n < 4; ++n)
    for (std::uint64_t low : {std::uint64_t{0}, quarter - 1})
      buckets.with_bucket(n * quarter + low, [&](Pair& p) { p.a += n + 1; });
  for (std::size_t n = 0; n < 4; ++n)
    CHECK(buckets.with_bucket_at(n, [](const Pair& p) { return p.a; }) == 2 * (n + 1));
}

TEST_CASE("locked buckets: sections on one bucket never overlap, whatever the hashes",
          "[locked_buckets][parallel]") {
  // Two threads update both halves of one bucket under different hashes; a section that saw the
  // other thread's update half done would find the halves unequal, and lost updates would show in
  // the totals.
  solver::LockedBuckets<Pair> one(0);
  std::atomic<long> torn{0};
  const int rounds = 200'000 * test_support::kRaceRounds;
  test_support::run_together(2, [&](int thread) {
    const std::uint64_t hash = thread * (~std::uint64_t{0} / 3);
    long my_torn = 0;
    for (int i = 0; i < rounds; ++i)
      my_torn += one.with_bucket(hash + i, [](Pair& p) {
        const bool seen_torn = p.a != p.b;
        ++p.a;
        ++p.b;
        return seen_torn;
      });
    torn += my_torn;
  });
  CHECK(torn == 0);
  CHECK(one.with_bucket_at(0, [](const Pair& p) { return p.a; }) == 2u * rounds);
}
