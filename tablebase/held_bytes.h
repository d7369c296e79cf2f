// Bytes a vector holds on the heap (its capacity, not its size): what memory plans count for the
// index structures that sit beside the tables.
#pragma once

#include <cstdint>
#include <vector>

namespace tablebase {

template <typename T>
std::uint64_t held_bytes(const std::vector<T>& v) {
  return std::uint64_t(v.capacity()) * sizeof(T);
}

}  // namespace tablebase
