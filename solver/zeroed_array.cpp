#include "solver/zeroed_array.h"

#include <sys/mman.h>

#include <cstdint>
#include <new>

namespace solver {

namespace {

constexpr std::size_t kHugePage = std::size_t{2} << 20;

std::size_t mapped_length(std::size_t bytes) {
  return (bytes + kHugePage - 1) & ~(kHugePage - 1);
}

}  // namespace

void* map_zeroed(std::size_t bytes) {
  const std::size_t length = mapped_length(bytes);
  // Map a huge page more than needed, then return the parts before and after the aligned block.
  void* raw =
      mmap(nullptr, length + kHugePage, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (raw == MAP_FAILED) throw std::bad_alloc();
  const auto start = reinterpret_cast<std::uintptr_t>(raw);
  const std::uintptr_t aligned = (start + kHugePage - 1) & ~(kHugePage - 1);
  if (aligned > start) munmap(raw, aligned - start);
  if (const std::size_t tail = start + kHugePage - aligned; tail > 0)
    munmap(reinterpret_cast<void*>(aligned + length), tail);
  // Advice only: without transparent huge pages the memory is still good, in 4 KB pages.
  madvise(reinterpret_cast<void*>(aligned), length, MADV_HUGEPAGE);
  return reinterpret_cast<void*>(aligned);
}

void unmap_zeroed(void* memory, std::size_t bytes) {
  munmap(memory, mapped_length(bytes));
}

}  // namespace solver
