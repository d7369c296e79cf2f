// One block of a loopy tier solved (loopy_tier_space.h): every entry's value and distance
// (loopy_value.h), from its children in the block and in earlier tiers, which are final.
//
// The rules are those of solver/cyclic_retrograde.h: no child is a loss in 0; a win in 1 + the
// least distance of the losing children; a loss in 1 + the greatest when every child wins; a
// draw when neither is ever settled.
//
// First pass, every entry's children once: those in earlier tiers are read and folded into what
// the entry keeps: a losing one makes it a win at 1 + the least such distance, but only
// tentatively, as a losing child inside the block may come sooner; a drawn one means it can never
// lose; the greatest distance of its winning ones (out_max), as a loss lasts at least one more
// ply. Children inside the block are counted (unmoves) or left for the sweeps.
//
// Then levels d = 0, 1, 2, ...: the entries whose code is d are final at level d (a code only
// ever falls to d + 1 or more while level d is processed, so a tentative win still at d when
// level d comes is the least there is), and each tells its parents in the block:
// - a losing one makes an undecided parent a win at d + 1 (or lowers a tentative win to it);
// - a winning one counts down its parent's children not yet known to win; at 0, with no drawn
//   child outside, the parent is a loss at max(d + 1, out_max): its code is set at once, and as
//   the loser's distance cannot change any more, the parent waits in its code for its level.
// Entries found by scanning the block for code d (a byte compare an entry a level, cheap beside
// the first pass's moves) rather than kept in a queue: a block needs at most two bytes an entry
// beside its codes, its counters and out_max; a shared block (below) keeps only the counters and
// works out_max again from the children when a counter reaches 0, and sweeps need neither (each
// sweep reads every child again). Undecided entries at the end are draws. This is the queue of the
// cyclic retrograde in order of distance, levels taking the place of its FIFO, with children
// outside the block entered at the level of their distance.
//
// Reached only: given the tier's reached bits (loopy_reach.h), an entry play does not reach is
// left out: its moves are never generated, a final entry does not tell it, and its code stays
// what the fresh array holds (0, written by no one, so a tier's untouched pages take no memory);
// the solver stores it as not in the row (kLoopyNotInRow) when it writes or counts the tier. Exact
// for the entries kept: a reached entry's children are reached (the reach marks every child of a
// marked entry), so no value of a reached entry depends on one left out.
//
// Predecessors: by the space's unmoves when it has them (LoopyUnmoveSpace), each entry final at
// its level visiting its parents once; or by sweeps, each level regenerating the children of
// the undecided entries it may settle to see if one is final at d: at a level of losses (d even),
// the entries that could still become wins at d + 1, up to their first child lost at d; at a
// level of wins, the entries with no value yet, up to their first child that is not a final win
// (the space may stop its moves there: loopy_visit_goes_on); and no level at all where no entry
// is final at d, as such a level settles nothing. Sweeps need nothing from the game beyond its
// moves, and cost a pass over the undecided entries' moves each level: tablebase/LOOPY.md has
// what each measured. Or both (loss_unmoves): levels of losses by unmoves that name every copy of
// each parent class (a win at d + 1 is what any copy of a class with a move to a lost class is,
// so no copy need be told apart), levels of wins by sweeps (counting a parent down would need to
// know which copy's move reaches which).
//
// Threads: many small blocks go one to a thread (solve_loopy_block); a large block (by default
// of kSharedBlockEntries or more) is solved by all of them (solve_shared_loopy_block), each pass
// and level cut into chunks. Threads then meet only in parents' codes and counters, through atomic
// bytes: a level only sets codes above it, a counter reaches 0 once, and a parent whose counter
// does can have no losing child (it would not have counted down), so no two updates of one entry
// disagree; the join between levels orders the rest.
#pragma once

#include <tbb/enumerable_thread_specific.h>

#include <algorithm>
#include <atomic>
#include <climits>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <vector>

#include "solver/parallel_for.h"
#include "solver/zeroed_array.h"
#include "tablebase/loopy_reach.h"
#include "tablebase/loopy_tier_space.h"
#include "tablebase/loopy_value.h"

namespace tablebase {

// unmoves: every final entry tells its parents (counters for the wins' parents); sweeps: each
// level looks at the undecided entries' children again; loss_unmoves: a lost entry tells its
// parents' every copy (LoopyParentCopySpace) that they win, and the entries that may lose are
// swept.
enum class LoopyPredecessors { unmoves, sweeps, loss_unmoves };

// Blocks at least this large are shared by the threads by default; smaller ones go one to a
// thread.
inline constexpr std::uint64_t kSharedBlockEntries = std::uint64_t{1} << 20;

// What a block being solved keeps beside its codes, by unmoves: a byte an entry in a shared
// block, two in one a thread solves (reused from block to block).
struct LoopyBlockScratch {
  // Children in the block not yet known to win, or kCannotLose with a drawn child outside.
  solver::ZeroedArray<std::uint8_t> counter;
  std::vector<std::uint8_t> out_max;  // 1 + the greatest winning distance outside (unshared)
};

// What each thread keeps while it solves: the space's cursor, and the entries of the block an
// entry's moves or unmoves reach (a space that stores symmetric images once may reach one entry
// by several moves; counters count each once).
template <LoopyTierSpace S>
struct LoopyWorker {
  typename S::Cursor cursor;
  std::vector<std::uint64_t> found;
};

namespace loopy_detail {

// The counter of an entry with a drawn child outside its block: it never loses.
inline constexpr std::uint8_t kCannotLose = 255;
// The most children in the block an entry may have: its counter is a byte.
inline constexpr int kMostChildrenInBlock = 254;
// Entries a thread takes at a time in a shared block.
inline constexpr std::uint64_t kChunk = std::uint64_t{1} << 16;

// The bytes of a block: plain when one thread solves it, atomic (relaxed) when threads share it.
template <bool kShared>
struct BlockBytes {
  static std::uint8_t load(const std::uint8_t& b) {
    if constexpr (kShared)
      return std::atomic_ref<std::uint8_t>(const_cast<std::uint8_t&>(b))
          .load(std::memory_order_relaxed);
    else
      return b;
  }
  static void store(std::uint8_t& b, std::uint8_t v) {
    if constexpr (kShared)
      std::atomic_ref<std::uint8_t>(b).store(v, std::memory_order_relaxed);
    else
      b = v;
  }
  // Lowers b to v if it is above v.
  static void lower(std::uint8_t& b, std::uint8_t v) {
    if constexpr (kShared) {
      std::atomic_ref<std::uint8_t> a(b);
      std::uint8_t now = a.load(std::memory_order_relaxed);
      while (now > v && !a.compare_exchange_weak(now, v, std::memory_order_relaxed)) {
      }
    } else {
      b = std::min(b, v);
    }
  }
  // One less; the value after.
  static std::uint8_t count_down(std::uint8_t& b) {
    if constexpr (kShared)
      return std::uint8_t(std::atomic_ref<std::uint8_t>(b).fetch_sub(1, std::memory_order_relaxed) -
                          1);
    else
      return --b;
  }
};

// The positions of code d in codes[from, to), in order, to visit(k).
template <bool kShared, typename Visit>
void for_each_code(const LoopyCode* codes, std::uint64_t from, std::uint64_t to, LoopyCode d,
                   Visit visit) {
  if constexpr (kShared) {
    for (std::uint64_t k = from; k < to; ++k)
      if (BlockBytes<true>::load(codes[k]) == d) visit(k);
  } else {
    for (const void* at = std::memchr(codes + from, d, to - from); at;) {
      const auto k = std::uint64_t(static_cast<const LoopyCode*>(at) - codes);
      visit(k);
      at = k + 1 < to ? std::memchr(codes + k + 1, d, to - k - 1) : nullptr;
    }
  }
}

// The greatest code set: the last level to process.
inline void raise_to(std::atomic<int>& last, int v) {
  int now = last.load(std::memory_order_relaxed);
  while (now < v && !last.compare_exchange_weak(now, v, std::memory_order_relaxed)) {
  }
}

// A block's solve, by one thread (kShared false: `run` calls its body on the whole range) or by
// all (true: in chunks, in parallel).
template <bool kShared, LoopyTierSpace S>
class BlockSolve {
  using Bytes = BlockBytes<kShared>;

 public:
  BlockSolve(const S& space, int tier, IndexRange block, const std::vector<const LoopyCode*>& tiers,
             const std::uint64_t* reached, LoopyPredecessors predecessors,
             LoopyBlockScratch& scratch)
      : space_(space),
        tier_(tier),
        block_(block),
        n_(block.end - block.begin),
        tiers_(tiers),
        codes_(const_cast<LoopyCode*>(tiers[tier]) + block.begin),
        reached_(reached),
        unmoves_(predecessors == LoopyPredecessors::unmoves),
        loss_unmoves_(predecessors == LoopyPredecessors::loss_unmoves) {
    if constexpr (!LoopyUnmoveSpace<S>)
      if (unmoves_) throw std::logic_error("unmoves asked of a space that has none");
    if constexpr (!LoopyParentCopySpace<S>)
      if (loss_unmoves_) throw std::logic_error("parents by class asked of a space that has none");
    if (!unmoves_) return;
    // A shared block's counters start from fresh zero pages: those of entries with no child in
    // the block (a tier of lost positions, say) are never written, so they take no memory.
    if (kShared || scratch.counter.size() < n_)
      scratch.counter = solver::ZeroedArray<std::uint8_t>(n_);
    counter_ = scratch.counter.data();
    if constexpr (!kShared) {
      if (scratch.out_max.size() < n_) scratch.out_max.resize(n_);
      out_max_ = scratch.out_max.data();
    }
  }

  template <typename Run>
  void solve(Run run) {
    run([&](std::uint64_t from, std::uint64_t to, LoopyWorker<S>& worker) {
      for (std::uint64_t k = from; k < to; ++k) first_pass(k, worker);
    });
    for (int d = 0; d <= last_.load(std::memory_order_relaxed); ++d) {
      if (!unmoves_ && !any_final_at(d)) continue;
      run([&](std::uint64_t from, std::uint64_t to, LoopyWorker<S>& worker) {
        if (unmoves_)
          for_each_code<kShared>(codes_, from, to, LoopyCode(d),
                                 [&](std::uint64_t k) { tell_parents(k, d, worker); });
        else if (d % 2 == 1)
          // Only this thread writes these entries' codes in a level of sweeps: a plain scan.
          for_each_code<false>(codes_, from, to, kLoopyUnresolved,
                               [&](std::uint64_t k) { sweep_for_loss(k, d, worker); });
        else if (loss_unmoves_)
          for_each_code<kShared>(codes_, from, to, LoopyCode(d),
                                 [&](std::uint64_t k) { tell_copies_lost(k, d, worker); });
        else
          for (std::uint64_t k = from; k < to; ++k) sweep_for_win(k, d, worker);
      });
    }
    run([&](std::uint64_t from, std::uint64_t to, LoopyWorker<S>&) {
      std::replace(codes_ + from, codes_ + to, kLoopyUnresolved, kLoopyDraw);
    });
  }

 private:
  // Whether entry k of the block is solved: reached, or every entry solved.
  bool kept(std::uint64_t k) const { return !reached_ || reached_bit(reached_, block_.begin + k); }
  std::uint64_t in_block(Location c) const {
    if (c.tier != tier_ || c.index < block_.begin || c.index >= block_.end)
      throw std::logic_error("a move leaves its block for another block of the same tier");
    return c.index - block_.begin;
  }
  void set(std::uint64_t k, int distance) {
    Bytes::store(codes_[k], loopy_decided(distance));
    raise_to(last_, distance);
  }

  // The entries in worker.found, each once.
  static void distinct(std::vector<std::uint64_t>& found) {
    if constexpr (distinct_in_block<S>()) return;
    std::sort(found.begin(), found.end());
    found.erase(std::unique(found.begin(), found.end()), found.end());
  }

  // What an entry's children outside the block say: the least distance of a losing one, 1 + the
  // greatest of a winning one (out_max, 0 without), and whether one is drawn.
  struct Outside {
    bool any = false, drawn = false;
    int quickest_loss = INT_MAX, out_max = 0;
    void add(LoopyCode v) {
      if (v == kLoopyDraw)
        drawn = true;
      else if (v & 1)
        out_max = std::max<int>(out_max, v + 1);
      else
        quickest_loss = std::min<int>(quickest_loss, v);
    }
  };

  // Children outside the block folded in, inside counted (each distinct child once). Each code is
  // written once, and a 0 (a loss in 0) not at all: a tier's fresh array already holds it, and a
  // tier of lost positions then takes no memory.
  void first_pass(std::uint64_t k, LoopyWorker<S>& worker) {
    if (!kept(k)) return;
    Outside outside;
    int inside = 0;  // children in the block, each once (where a counter keeps them)
    // A space that counts its children inside the block spares locating them: where its count is
    // of distinct entries, or where no counter is kept (only whether there is one matters then).
    bool counted = false;
    if constexpr (LoopyOutsideChildSpace<S>)
      if (distinct_in_block<S>() || !unmoves_) {
        inside =
            space_.for_each_child_outside(worker.cursor, tier_, block_.begin + k, [&](Location c) {
              if (c.tier == tier_) throw std::logic_error("a child outside its block in its tier");
              outside.add(tiers_[c.tier][c.index]);
              outside.any = true;
            });
        outside.any = outside.any || inside > 0;
        counted = true;
      }
    if (!counted) {
      worker.found.clear();
      space_.for_each_child(worker.cursor, tier_, block_.begin + k, [&](Location c) {
        outside.any = true;
        if (c.tier != tier_)
          outside.add(tiers_[c.tier][c.index]);
        else if constexpr (distinct_in_block<S>())
          inside += in_block(c) < n_;  // in_block checks the space's contract
        else
          worker.found.push_back(in_block(c));
      });
      if constexpr (!distinct_in_block<S>()) {
        distinct(worker.found);
        inside = int(worker.found.size());
      }
    }
    if (unmoves_ && inside > kMostChildrenInBlock)
      throw std::logic_error("an entry has more children in its block than a counter holds");
    if (unmoves_) {
      const std::uint8_t counter = outside.drawn ? kCannotLose : std::uint8_t(inside);
      if (!kShared || counter) counter_[k] = counter;  // a shared block's start at 0
      if constexpr (!kShared) out_max_[k] = std::uint8_t(outside.out_max);
    }
    if (!outside.any) return;  // a loss in 0
    if (outside.quickest_loss != INT_MAX)
      set(k, outside.quickest_loss + 1);  // tentative: a losing child inside may come sooner
    else if (!outside.drawn && inside == 0)
      set(k, outside.out_max);
    else
      Bytes::store(codes_[k], kLoopyUnresolved);
  }

  // out_max of entry k: kept, or (a shared block) from its children again.
  int out_max(std::uint64_t k, LoopyWorker<S>& worker) const {
    if constexpr (!kShared) {
      return out_max_[k];
    } else {
      Outside outside;
      space_.for_each_child(worker.cursor, tier_, block_.begin + k, [&](Location c) {
        if (c.tier != tier_) outside.add(tiers_[c.tier][c.index]);
      });
      return outside.out_max;
    }
  }

  // Entry k is final at level d: its parents in the block learn it, each once.
  void tell_parents(std::uint64_t k, int d, LoopyWorker<S>& worker) {
    if constexpr (LoopyUnmoveSpace<S>) {
      if (!kept(k)) return;  // a left-out 0, not a loss
      const bool lost = d % 2 == 0;
      const auto tell = [&](std::uint64_t p) {
        const LoopyCode v = Bytes::load(codes_[p]);
        // Final already (undecided and draws are above every level), or left out.
        if (v <= d || !kept(p)) return;
        if (lost) {
          Bytes::lower(codes_[p], loopy_decided(d + 1));
          raise_to(last_, d + 1);
        } else if (v == kLoopyUnresolved && Bytes::load(counter_[p]) != kCannotLose &&
                   Bytes::count_down(counter_[p]) == 0) {
          set(p, std::max(d + 1, out_max(p, worker)));
        }
      };
      // Parents the space names each once are told as they come (a shared block's out_max moves
      // the cursor, so there they are gathered first, as where the space may name one twice).
      if constexpr (distinct_in_block<S>() && !kShared) {
        space_.for_each_parent(worker.cursor, tier_, block_.begin + k, [&](std::uint64_t parent) {
          tell(in_block({tier_, parent}));
        });
      } else {
        worker.found.clear();
        space_.for_each_parent(worker.cursor, tier_, block_.begin + k, [&](std::uint64_t parent) {
          worker.found.push_back(in_block({tier_, parent}));
        });
        distinct(worker.found);
        for (const std::uint64_t p : worker.found) tell(p);
      }
    }
  }

  // Entry k is lost at level d (even): every copy of its parents' classes in the block is a win at
  // d + 1, or sooner. (A loss waiting for its level has no losing child, so it is not among them.)
  void tell_copies_lost(std::uint64_t k, int d, LoopyWorker<S>& worker) {
    if constexpr (LoopyParentCopySpace<S>) {
      if (!kept(k)) return;  // a left-out 0, not a loss
      space_.for_each_parent_copy(worker.cursor, tier_, block_.begin + k,
                                  [&](std::uint64_t parent) {
                                    const std::uint64_t p = in_block({tier_, parent});
                                    if (Bytes::load(codes_[p]) <= d + 1 || !kept(p)) return;
                                    Bytes::lower(codes_[p], loopy_decided(d + 1));
                                    raise_to(last_, d + 1);
                                  });
    }
  }

  // Whether a kept entry of the block is final at level d (its code is d), between levels. A
  // level of sweeps with none changes nothing: a losing child makes its parent a win only at the
  // child's own level, and a parent whose children all win is a loss at the level of the slowest
  // (or sooner, by the first pass), which that child's code is.
  bool any_final_at(int d) const {
    bool any = false;
    for_each_code<false>(codes_, 0, n_, LoopyCode(d),
                         [&](std::uint64_t k) { any = any || kept(k); });
    return any;
  }

  // Entry k, undecided at level d (odd: wins final at d), looks at its children again: a loss
  // once every child is a final win and none outside is drawn (a losing child outside made it a
  // tentative win in the first pass, which a level of wins cannot change). It stops at the first
  // child that says otherwise. A code set in this level is above d, so it reads as not final
  // here, as it should.
  void sweep_for_loss(std::uint64_t k, int d, LoopyWorker<S>& worker) {
    bool can_lose = true;
    int slowest_win = -1;
    Outside outside;
    space_.for_each_child(worker.cursor, tier_, block_.begin + k, [&](Location c) {
      if (!can_lose) return false;  // for a space that goes on after a stop
      if (c.tier != tier_) {
        outside.add(tiers_[c.tier][c.index]);
        can_lose = !outside.drawn;
      } else {
        const LoopyCode w = Bytes::load(codes_[in_block(c)]);
        if (w <= d && w % 2 == 1)
          slowest_win = std::max<int>(slowest_win, w);
        else
          can_lose = false;
      }
      return can_lose;
    });
    if (can_lose) set(k, std::max(slowest_win + 1, outside.out_max));
  }

  // Entry k, not final at level d (even: losses final at d), a win at d + 1 if a child in the
  // block is one of them; it stops at the first. Not a loss: its children would all have been
  // final wins at the level before, which would have made it one.
  void sweep_for_win(std::uint64_t k, int d, LoopyWorker<S>& worker) {
    const LoopyCode v = Bytes::load(codes_[k]);
    if (v <= d) return;  // final, or left out (a 0)
    // A loss waiting for its level, or a win that cannot come sooner.
    if (v != kLoopyUnresolved && (v % 2 == 0 || v == d + 1)) return;
    bool losing_child = false;
    space_.for_each_child(worker.cursor, tier_, block_.begin + k, [&](Location c) {
      losing_child = losing_child || (c.tier == tier_ && Bytes::load(codes_[in_block(c)]) == d);
      return !losing_child;
    });
    if (losing_child) set(k, d + 1);
  }

  const S& space_;
  int tier_;
  IndexRange block_;
  std::uint64_t n_;
  const std::vector<const LoopyCode*>& tiers_;
  LoopyCode* codes_;
  const std::uint64_t* reached_;  // the tier's, or nullptr: every entry solved
  bool unmoves_, loss_unmoves_;
  std::uint8_t *out_max_ = nullptr, *counter_ = nullptr;
  std::atomic<int> last_{0};
};

}  // namespace loopy_detail

// Solves the entries `block` of tier `tier` into tiers[tier] on this thread; tiers[c] holds every
// child tier c's codes. With `reached` (tier `tier`'s reached bits, loopy_reach.h), only the
// entries play reaches are solved, the others left as they are (see above); nullptr solves all.
// Throws std::overflow_error for a distance past kMaxLoopyDistance and std::logic_error for a space
// that breaks its contract (a move out of the block into its own tier).
template <LoopyTierSpace S>
void solve_loopy_block(const S& space, int tier, IndexRange block,
                       const std::vector<const LoopyCode*>& tiers, const std::uint64_t* reached,
                       LoopyPredecessors predecessors, LoopyBlockScratch& scratch,
                       LoopyWorker<S>& worker) {
  loopy_detail::BlockSolve<false, S>(space, tier, block, tiers, reached, predecessors, scratch)
      .solve([&](const auto& body) { body(0, block.end - block.begin, worker); });
}

// The same, with every thread of the caller's arena on the one block.
template <LoopyTierSpace S>
void solve_shared_loopy_block(const S& space, int tier, IndexRange block,
                              const std::vector<const LoopyCode*>& tiers,
                              const std::uint64_t* reached, LoopyPredecessors predecessors,
                              LoopyBlockScratch& scratch) {
  tbb::enumerable_thread_specific<LoopyWorker<S>> workers;
  const std::uint64_t n = block.end - block.begin;
  loopy_detail::BlockSolve<true, S>(space, tier, block, tiers, reached, predecessors, scratch)
      .solve([&](const auto& body) {
        solver::parallel_for(
            std::uint64_t{0}, (n + loopy_detail::kChunk - 1) / loopy_detail::kChunk,
            [&](std::uint64_t c) {
              const std::uint64_t from = c * loopy_detail::kChunk;
              body(from, std::min(n, from + loopy_detail::kChunk), workers.local());
            });
      });
}

}  // namespace tablebase
