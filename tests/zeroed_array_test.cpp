// solver/zeroed_array.h's sparse arrays (what the loopy tier solver holds a slice of a tier in,
// tablebase/loopy_slices.h): an array larger than the machine's memory is addressed, the few
// pages written hold memory and no others, and discarded pages read zero and are given back.
#include "solver/zeroed_array.h"

#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdint>
#include <fstream>

namespace {

// This process's resident bytes (/proc/self/statm).
std::uint64_t resident_bytes() {
  std::ifstream statm("/proc/self/statm");
  std::uint64_t size = 0, resident = 0;
  statm >> size >> resident;
  return resident * std::uint64_t(sysconf(_SC_PAGESIZE));
}

}  // namespace

TEST_CASE("a sparse zeroed array larger than memory holds only the pages written",
          "[zeroed-array]") {
  constexpr std::uint64_t kBytes = std::uint64_t{1} << 40;  // 1 TiB: past any machine here
  constexpr std::uint64_t kStride = std::uint64_t{1} << 30;
  auto a = solver::ZeroedArray<std::uint8_t>::sparse(kBytes);
  REQUIRE(a.size() == kBytes);
  const std::uint64_t before = resident_bytes();
  for (std::uint64_t i = 0; i < kBytes; i += kStride) a[i] = std::uint8_t(1 + i / kStride % 255);
  // 1024 pages written: 4 KB pages, not huge ones (which would be 2 GB).
  const std::uint64_t written = resident_bytes() - before;
  CHECK(written >= 1024 * 4096);
  CHECK(written < 64 * 1024 * 4096);
  std::uint64_t wrong = 0;
  for (std::uint64_t i = 0; i < kBytes; i += kStride)
    wrong += a[i] != std::uint8_t(1 + i / kStride % 255) || a[i + 1] != 0;
  CHECK(wrong == 0);
  a.discard(0, kBytes);
#if !defined(__SANITIZE_ADDRESS__)  // its shadow of the pages written stays resident
  CHECK(resident_bytes() < before + 64 * 4096);
#endif
  CHECK(a[0] == 0);
  CHECK(a[kBytes - kStride] == 0);
}
