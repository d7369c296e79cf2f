#include "solver/zeroed_array.h"

#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <new>

namespace solver {

namespace {

bool huge(std::size_t bytes) {
  return bytes >= kHugePageArrayBytes;
}

std::size_t page_bytes(std::size_t bytes) {
  return huge(bytes) ? kHugePageBytes : std::size_t(sysconf(_SC_PAGESIZE));
}

}  // namespace

std::size_t mapped_bytes(std::size_t bytes) {
  const std::size_t page = page_bytes(bytes);
  return (bytes + page - 1) / page * page;
}

void* map_zeroed(std::size_t bytes) {
  const std::size_t length = mapped_bytes(bytes);
  if (!huge(bytes)) {
    void* memory =
        mmap(nullptr, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (memory == MAP_FAILED) throw std::bad_alloc();
    // Under THP "always" the kernel would back it with huge pages anyway.
    madvise(memory, length, MADV_NOHUGEPAGE);
    return memory;
  }
  // Map a huge page more than needed, then return the parts before and after the aligned block.
  void* raw = mmap(nullptr, length + kHugePageBytes, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (raw == MAP_FAILED) throw std::bad_alloc();
  const auto start = reinterpret_cast<std::uintptr_t>(raw);
  const std::uintptr_t aligned = (start + kHugePageBytes - 1) & ~(kHugePageBytes - 1);
  if (aligned > start) munmap(raw, aligned - start);
  if (const std::size_t tail = start + kHugePageBytes - aligned; tail > 0)
    munmap(reinterpret_cast<void*>(aligned + length), tail);
  // Advice only: without transparent huge pages the memory is still good, in 4 KB pages.
  madvise(reinterpret_cast<void*>(aligned), length, MADV_HUGEPAGE);
  return reinterpret_cast<void*>(aligned);
}

void* map_sparse(std::size_t bytes) {
  // The length unmap_zeroed gives back: mapped_bytes, a multiple of 4 KB pages in either case.
  const std::size_t length = mapped_bytes(bytes);
  void* memory = mmap(nullptr, length, PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (memory == MAP_FAILED) throw std::bad_alloc();
  madvise(memory, length, MADV_NOHUGEPAGE);
  return memory;
}

void unmap_zeroed(void* memory, std::size_t bytes) {
  munmap(memory, mapped_bytes(bytes));
}

void discard_zeroed(void* memory, std::size_t from, std::size_t to) {
  const auto page = std::size_t(sysconf(_SC_PAGESIZE));
  const std::size_t first = (from + page - 1) / page * page, end = to / page * page;
  if (first < end) madvise(static_cast<char*>(memory) + first, end - first, MADV_DONTNEED);
}

}  // namespace solver
