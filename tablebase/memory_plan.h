// What the tier solvers' memory plans share: the error that refuses a solve before it starts, and
// the room their table reads and writes take beside the tiers.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

#include "solver/size_text.h"

namespace tablebase {

// The solve cannot fit the memory cap; the message says how much it needs.
class MemoryCapError : public std::runtime_error {
 public:
  explicit MemoryCapError(const std::string& what) : std::runtime_error(what) {}
};

// Throws MemoryCapError when `planned` bytes pass the cap, saying what solving `variant` needs
// (`per` names what each share is, " on every rank" for example).
inline void check_memory_plan(const std::string& variant, std::uint64_t planned, std::uint64_t cap,
                              const std::string& per = "") {
  if (planned > cap)
    throw MemoryCapError("solving " + variant + " needs " + solver::size_text(planned) +
                         " of memory" + per + ", more than the cap of " + solver::size_text(cap) +
                         " (--memory)");
}

// Reading and writing table files goes block by block; this bounds their buffers.
inline constexpr std::uint64_t kIoBufferBytes = std::uint64_t{64} << 20;

}  // namespace tablebase
