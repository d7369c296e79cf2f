// Zero-filled memory for big tables read at random places: transposition tables and the tier
// solver's tiers. It is mapped anonymously (the kernel supplies zero pages lazily, so a big table
// costs nothing until it is used). A large array is aligned to 2 MB and advised for transparent
// huge pages: with 4 KB pages nearly every read of a table of gigabytes also misses the TLB and
// walks the page tables, and 2 MB pages make those walks rare (bench/memory_bench.cpp). A huge
// page is resident as a whole once any byte of it is touched, so a small array gets 4 KB pages
// instead: hundreds of small tiers, each rounded up to 2 MB, would hold gigabytes that no plan
// counted. Where the kernel gives no huge pages it still works.
//
// T must be a type for which all-zero bytes are a valid, "empty" value.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <type_traits>
#include <utility>

namespace solver {

// Arrays of at least this many bytes get huge pages of kHugePageBytes; a huge page then rounds
// one up by at most 1/32 of its size.
inline constexpr std::size_t kHugePageArrayBytes = std::size_t{64} << 20;
inline constexpr std::size_t kHugePageBytes = std::size_t{2} << 20;

// What an array of `bytes` costs when all of it is in use: its length rounded up to whole pages
// of the size it gets. Memory plans count this, not `bytes`.
std::size_t mapped_bytes(std::size_t bytes);

// `bytes` of zeroed memory, page-aligned (2 MB-aligned when large); throws std::bad_alloc when
// the system refuses.
void* map_zeroed(std::size_t bytes);
void unmap_zeroed(void* memory, std::size_t bytes);
// `bytes` of zeroed memory of which only a few parts will be used at a time (a loopy tier solved a
// slice at a time, or the ranges of a child that a slice reads): 4 KB pages, so a part costs
// what it spans and no more, and not reserved against the system's commit limit, so a table
// larger than the machine's memory can be addressed by its own indices. Freed by unmap_zeroed.
void* map_sparse(std::size_t bytes);
// Gives the pages wholly inside bytes [from, to) of memory from map_zeroed back to the kernel:
// they read as zero again and hold no memory until written.
void discard_zeroed(void* memory, std::size_t from, std::size_t to);

template <typename T>
class ZeroedArray {
  static_assert(std::is_trivially_destructible_v<T>);

 public:
  ZeroedArray() = default;
  explicit ZeroedArray(std::size_t size)
      : data_(size ? static_cast<T*>(map_zeroed(size * sizeof(T))) : nullptr), size_(size) {}
  // Mapped by map_sparse: for arrays only parts of which are ever in use at once.
  static ZeroedArray sparse(std::size_t size) {
    ZeroedArray a;
    a.data_ = size ? static_cast<T*>(map_sparse(size * sizeof(T))) : nullptr;
    a.size_ = size;
    return a;
  }
  ZeroedArray(ZeroedArray&& other) noexcept
      : data_(std::exchange(other.data_, nullptr)), size_(std::exchange(other.size_, 0)) {}
  ZeroedArray& operator=(ZeroedArray&& other) noexcept {
    std::swap(data_, other.data_);
    std::swap(size_, other.size_);
    return *this;
  }
  ~ZeroedArray() {
    if (data_) unmap_zeroed(data_, size_ * sizeof(T));
  }

  T* data() { return data_; }
  const T* data() const { return data_; }
  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  // The memory it holds once every element is used (mapped_bytes).
  std::size_t mapped_bytes() const { return size_ ? solver::mapped_bytes(size_ * sizeof(T)) : 0; }
  // Drops the pages wholly inside bytes [from, to): they read as zero again (discard_zeroed).
  void discard(std::size_t from, std::size_t to) {
    if (data_) discard_zeroed(data_, from, std::min(to, size_ * sizeof(T)));
  }
  T& operator[](std::size_t i) { return data_[i]; }
  const T& operator[](std::size_t i) const { return data_[i]; }
  operator std::span<T>() { return {data_, size_}; }
  operator std::span<const T>() const { return {data_, size_}; }

 private:
  T* data_ = nullptr;
  std::size_t size_ = 0;
};

}  // namespace solver
