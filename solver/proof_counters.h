// What the proof searches (proof_search.h, dfpn_search.h) share of their threads' bookkeeping:
// the figures they report, each thread's counters, and the stop flag of a node whose subtree
// several threads search.
#pragma once

#include <atomic>
#include <cstdint>

namespace solver {

struct ProofStats {
  std::uint64_t nodes = 0;       // positions expanded or looked up
  std::uint64_t proven = 0;      // wins stored in the table
  std::uint64_t disproven = 0;   // losses stored
  std::uint64_t table_hits = 0;  // positions answered by the table
  std::uint64_t oracle_hits = 0;
};

// One thread's counters: written only by that thread (a relaxed load and store, no atomic
// read-modify-write), read by stats() from any thread at any time.
struct ProofCounters {
  std::atomic<std::uint64_t> nodes{0}, proven{0}, disproven{0}, table_hits{0}, oracle_hits{0};

  static void bump(std::atomic<std::uint64_t>& counter, std::uint64_t by = 1) {
    counter.store(counter.load(std::memory_order_relaxed) + by, std::memory_order_relaxed);
  }
  void add_to(ProofStats& s) const {
    s.nodes += nodes.load(std::memory_order_relaxed);
    s.proven += proven.load(std::memory_order_relaxed);
    s.disproven += disproven.load(std::memory_order_relaxed);
    s.table_hits += table_hits.load(std::memory_order_relaxed);
    s.oracle_hits += oracle_hits.load(std::memory_order_relaxed);
  }
};

// A split node's stop flag, linked to its ancestors': a search below stops when any is set.
struct LinkedStop {
  std::atomic<bool> flag{false};
  const LinkedStop* parent = nullptr;
  bool stopped() const {
    for (const LinkedStop* s = this; s; s = s->parent)
      if (s->flag.load(std::memory_order_relaxed)) return true;
    return false;
  }
};

}  // namespace solver
