// BucketSpill against a plain set of what was added: records spilled in compressed frames and read
// back, a flush taken up by another object (what was appended after it cut off), and damaged or
// short files refused.
#include "tablebase/bucket_spill.h"

#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdint>
#include <filesystem>
#include <random>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "tests/file_damage.h"

namespace {

struct Pair {
  std::uint64_t key, local;
  auto operator<=>(const Pair&) const = default;
};
using Spill = tablebase::BucketSpill<Pair>;

std::set<Pair> read_back(const Spill& spill, int bucket) {
  std::set<Pair> out;
  spill.for_each(bucket, [&](const Pair& p) { out.insert(p); });
  return out;
}

std::filesystem::path scratch_dir() {
  const auto dir =
      std::filesystem::temp_directory_path() / ("bucket-spill-test-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

}  // namespace

TEST_CASE("BucketSpill: spilled frames read back as added, a flush taken up again", "[tiers]") {
  const auto dir = scratch_dir();
  std::mt19937_64 random(3);
  std::vector<std::set<Pair>> added(3);
  const auto add = [&](Spill& spill, int n) {
    for (int i = 0; i < n; ++i) {
      const int b = int(random() % 3);
      const Pair p{random() % 50, random() % 100000};  // keys repeat, as a block's do
      spill.add(b, p);
      added[b].insert(p);
    }
  };
  std::vector<std::uint64_t> lengths;
  std::vector<std::set<Pair>> at_flush;
  {
    Spill spill(3, dir, "t", 4096);  // a cap of 256 pairs: many frames
    add(spill, 20000);
    for (int b = 0; b < 3; ++b) CHECK(read_back(spill, b) == added[b]);
    lengths = spill.flush();
    at_flush = added;
    for (int b = 0; b < 3; ++b) {
      CHECK(lengths[b] > 0);
      // Compressed: a frame's pairs share their keys' high bytes.
      CHECK(lengths[b] < added[b].size() * sizeof(Pair));
    }
    add(spill, 5000);  // appended after the flush
    for (int b = 0; b < 3; ++b) CHECK(read_back(spill, b) == added[b]);
  }
  // Flushed: the files outlive the object; another takes up the flush, without what came after.
  Spill again(3, dir, "t", 4096);
  again.resume(lengths);
  for (int b = 0; b < 3; ++b) CHECK(read_back(again, b) == at_flush[b]);
  // A cleared bucket's file stays until forget_cleared (the flush still needs it).
  again.clear(1);
  CHECK(std::filesystem::exists(dir / "t-1.spill"));
  CHECK_THROWS_AS(again.add(1, Pair{1, 1}), std::logic_error);
  again.forget_cleared();
  CHECK(!std::filesystem::exists(dir / "t-1.spill"));
  // A file shorter than its length, or damaged, is refused.
  {
    Spill longer(3, dir, "t", 4096);
    std::vector<std::uint64_t> more = lengths;
    more[0] += 1;
    CHECK_THROWS_AS(longer.resume(more), std::runtime_error);
  }
  const auto file = dir / "t-0.spill";
  const auto good = test_support::read_bytes(file);
  // A damaged byte is refused, or (a bit zstd's streams do not read) changes nothing read: it is
  // never misread.
  std::uint64_t refused = 0, flipped = 0;
  for (std::size_t at = 0; at < good.size(); at += 7) {  // frames' headers, data, checksums
    auto bad = good;
    bad[at] ^= 0x40;
    test_support::write_bytes(file, bad);
    Spill damaged(3, dir, "t", 4096);
    damaged.resume({lengths[0], 0, lengths[2]});
    ++flipped;
    std::set<Pair> got;
    try {
      got = read_back(damaged, 0);
    } catch (const std::runtime_error&) {
      ++refused;
      continue;
    }
    INFO("byte " << at);
    CHECK(got == at_flush[0]);
  }
  CHECK(refused > flipped * 9 / 10);
  std::filesystem::remove_all(dir);
}
