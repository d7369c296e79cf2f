// The coalition tier solver: every coalition's value and distance (solver/coalition_game.h) at
// every entry of a coalition tier space (coalition_tier_space.h), tier by tier in solve order,
// a byte an entry and split (coalition_code.h). tablebase/COALITION.md has the why.
//
// Splits: n players split into a coalition and the rest 2^(n-1) - 1 ways, each named by its
// coalition without the last seat (solver/coalition_splits.h); an entry stores every split's
// value, seats counted from its player to move. A move renames the seats (the child's start at
// its own player to move), so the splits of a block are solved together: a node is an entry and
// a split, and its children are the child entries' renamed splits.
//
// A block is solved as a two-sided game per node, the coalition choosing where seat 0 is in it:
// children in earlier tiers (already solved) and finished children are folded in first; then
// the block's own nodes are decided in increasing distance, each telling its parents in the
// block (a reverse of the block's moves, built for the block alone): a parent whose chooser the
// child suits wins one ply later, one whose every child is decided against its chooser loses one
// ply after the longest. Nodes never decided are draws. Blocks are solved in parallel; a tier's
// codes are held until the solve ends.
#pragma once

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <mutex>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "solver/coalition_splits.h"
#include "solver/wdl.h"
#include "tablebase/coalition_code.h"
#include "tablebase/coalition_tier_space.h"

namespace tablebase {

// One split's values over the entries in the row (CoalitionTally with the counts of one tier
// solve); seats from the player to move.
using CoalitionTierTally = solver::CoalitionTally;

// How each split reads at a child `shift` seats on: the child's split and whether the coalition is
// that split's rest (its value then from the other side).
class SplitRenaming {
 public:
  explicit SplitRenaming(int players) : splits_(players) {
    const std::uint32_t all = splits_.everyone();
    const int n = players;
    at_.assign(std::size_t(n) * splits_.count(), {});
    for (int d = 0; d < n; ++d)
      for (int u = 0; u < splits_.count(); ++u) {
        const std::uint32_t s = solver::CoalitionSplits::coalition(u);
        const std::uint32_t turned = d ? ((s >> d) | (s << (n - d))) & all : s;
        const auto [split, rest] = splits_.of(turned);
        at_[std::size_t(d) * splits_.count() + u] = {split, rest};
      }
  }
  const solver::CoalitionSplits& splits() const { return splits_; }
  int count() const { return splits_.count(); }
  std::pair<int, bool> at(int shift, int split) const {
    return at_[std::size_t(shift) * splits_.count() + split];
  }
  // Whether the coalition of `split` chooses where seat 0 is to move.
  static bool chooses(int split) { return solver::CoalitionSplits::coalition(split) & 1; }

 private:
  solver::CoalitionSplits splits_;
  std::vector<std::pair<int, bool>> at_;
};

// A finished position's code for coalition s when the seats `left` are still in.
inline CoalitionCode finished_code(std::uint32_t left, std::uint32_t s) {
  if (!(left & ~s)) return coalition_code(true, 0);
  if (!(left & s)) return coalition_code(false, 0);
  return kCoalitionDraw;
}

struct CoalitionTierReport {
  std::uint64_t entries = 0, positions = 0;  // entries in all; those in the row
  std::vector<CoalitionTierTally> splits;
  double seconds = 0;
};

template <CoalitionTierSpace S>
class CoalitionTierSolver {
 public:
  using Progress = std::function<void(int tiers_done, std::uint64_t entries_done)>;

  CoalitionTierSolver(const S& space, int threads)
      : space_(space), renaming_(space.players()), threads_(std::max(1, threads)) {}

  // Solves every tier; throws std::overflow_error for a distance past a byte's.
  void solve(const Progress& progress = {}) {
    const auto start = std::chrono::steady_clock::now();
    const int splits = renaming_.count();
    codes_.assign(space_.tier_count(), {});
    report_ = {};
    report_.splits.resize(splits);
    for (int u = 0; u < splits; ++u)
      report_.splits[u].coalition = solver::CoalitionSplits::coalition(u);
    tbb::task_arena arena(threads_);
    std::uint64_t done = 0;
    for (int t = 0; t < space_.tier_count(); ++t) {
      codes_[t].assign(space_.row_size(t) * splits, kCoalitionNotInRow);
      std::mutex merge;
      arena.execute([&] {
        tbb::parallel_for(tbb::blocked_range<std::uint64_t>(0, space_.block_count(t)),
                          [&](const auto& r) {
                            BlockWork work;
                            std::vector<CoalitionTierTally> tally(splits);
                            std::uint64_t positions = 0;
                            for (std::uint64_t b = r.begin(); b != r.end(); ++b)
                              positions += solve_block(t, b, work, tally);
                            std::lock_guard lock(merge);
                            report_.positions += positions;
                            for (int u = 0; u < splits; ++u) add(report_.splits[u], tally[u]);
                          });
      });
      done += space_.row_size(t);
      report_.entries += space_.tier_size(t);
      if (progress) progress(t + 1, done);
    }
    report_.seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }

  const CoalitionTierReport& report() const { return report_; }
  const SplitRenaming& renaming() const { return renaming_; }
  // The codes of an entry in the row, one a split.
  std::span<const CoalitionCode> codes(Location at) const {
    const int n = renaming_.count();
    return {codes_[at.tier].data() + space_.row_rank(at.tier, at.index) * n, std::size_t(n)};
  }
  // Coalition s's code at the entry, s a set of its seats (bit j: seat j), neither none nor all.
  CoalitionCode code(Location at, std::uint32_t s) const {
    const auto [split, rest] = renaming_.splits().of(s);
    const CoalitionCode c = codes(at)[split];
    return rest ? coalition_flip(c) : c;
  }
  std::uint64_t held_bytes() const {
    std::uint64_t bytes = 0;
    for (const auto& c : codes_) bytes += c.capacity();
    return bytes;
  }

 private:
  // What solving a block holds, kept by a thread from block to block.
  struct BlockWork {
    std::vector<std::uint8_t> code;                   // by node: entry * splits + split
    std::vector<std::uint16_t> good, bad;             // chooser's best win + 1, longest loss + 1
    std::vector<std::uint32_t> pending;               // children in the block not yet decided
    std::vector<std::uint8_t> drawn;                  // a child is a draw
    std::vector<std::array<std::uint32_t, 3>> moves;  // parent entry, child entry, shift
    std::vector<std::uint32_t> first, parents;        // reverse of the block's moves, by node
    std::vector<std::vector<std::uint32_t>> queue;    // by distance: node * 2 + chooser wins
  };

  static constexpr std::uint16_t kNone = 0xffff;

  static void add(CoalitionTierTally& to, const CoalitionTierTally& from) {
    to.wins += from.wins;
    to.draws += from.draws;
    to.losses += from.losses;
    to.longest_win = std::max(to.longest_win, from.longest_win);
    to.longest_loss = std::max(to.longest_loss, from.longest_loss);
  }

  // Folds a decided or drawn child (its code from the node's coalition's side) into a node.
  static void fold(BlockWork& w, std::size_t node, bool coalition_chooses, CoalitionCode c) {
    if (c == kCoalitionDraw) {
      w.drawn[node] = 1;
      return;
    }
    const bool chooser_wins = bool(c & 1) == coalition_chooses;
    const std::uint16_t d = std::uint16_t((c >> 1) + 1);
    if (chooser_wins)
      w.good[node] = std::min(w.good[node], d);
    else
      w.bad[node] = std::max(w.bad[node], d);
  }

  std::uint64_t solve_block(int t, std::uint64_t b, BlockWork& w,
                            std::vector<CoalitionTierTally>& tally) {
    const IndexRange range = space_.block_range(t, b);
    // The block's entries in the row, numbered from 0 in index order.
    const std::uint64_t base = space_.row_rank(t, range.begin);
    const std::size_t n = space_.row_rank(t, range.end) - base;
    const std::size_t splits = std::size_t(renaming_.count()), nodes = n * splits;
    if (!n) return 0;
    w.code.assign(nodes, kCoalitionUnresolved);
    w.good.assign(nodes, kNone);
    w.bad.assign(nodes, 0);
    w.pending.assign(nodes, 0);
    w.drawn.assign(nodes, 0);
    w.moves.clear();
    typename S::Cursor cursor;
    std::size_t e = 0;
    for (std::uint64_t i = range.begin; i < range.end; ++i) {
      if (!space_.for_each_child(cursor, t, i, [&](const CoalitionChild& c) {
            if (c.at.tier == t) {
              if (c.at.index < range.begin || c.at.index >= range.end)
                throw std::logic_error("a move inside a tier left its block");
              w.moves.push_back({std::uint32_t(e),
                                 std::uint32_t(space_.row_rank(t, c.at.index) - base),
                                 std::uint32_t(c.shift)});
              for (std::size_t u = 0; u < splits; ++u) ++w.pending[e * splits + u];
              return;
            }
            if (c.at.tier < 0 && !c.left) throw std::logic_error("a move led out of the row");
            for (std::size_t u = 0; u < splits; ++u) {
              const auto [split, rest] = renaming_.at(c.shift, int(u));
              CoalitionCode code;
              if (c.at.tier < 0) {
                code = finished_code(c.left, solver::CoalitionSplits::coalition(int(u)));
              } else {
                if (c.at.tier > t) throw std::logic_error("a move led to a later tier");
                code = codes_[c.at.tier][space_.row_rank(c.at.tier, c.at.index) * splits + split];
                if (!coalition_decided(code) && code != kCoalitionDraw)
                  throw std::logic_error("a move led to an entry not solved");
                if (rest) code = coalition_flip(code);
              }
              fold(w, e * splits + u, SplitRenaming::chooses(int(u)), code);
            }
          }))
        continue;
      ++e;
    }
    // The block's moves reversed: for each child node, its parent nodes (and whether the
    // coalition is the child split's rest, in the parent's top bit).
    w.first.assign(nodes + 1, 0);
    for (const auto& m : w.moves)
      for (std::size_t u = 0; u < splits; ++u)
        ++w.first[m[1] * splits + std::size_t(renaming_.at(int(m[2]), int(u)).first) + 1];
    for (std::size_t i = 0; i < nodes; ++i) w.first[i + 1] += w.first[i];
    w.parents.resize(w.first[nodes]);
    {
      std::vector<std::uint32_t> fill(w.first.begin(), w.first.end() - 1);
      for (const auto& m : w.moves)
        for (std::size_t u = 0; u < splits; ++u) {
          const auto [split, rest] = renaming_.at(int(m[2]), int(u));
          w.parents[fill[m[1] * splits + std::size_t(split)]++] =
              std::uint32_t(m[0] * splits + u) | (rest ? 0x80000000u : 0);
        }
    }
    for (auto& q : w.queue) q.clear();
    const auto push = [&](std::size_t node, bool chooser_wins, int d) {
      if (d > kMaxCoalitionDistance) coalition_code(true, d);  // throws
      if (w.queue.size() <= std::size_t(d)) w.queue.resize(d + 1);
      w.queue[d].push_back(std::uint32_t(node * 2 + (chooser_wins ? 1 : 0)));
    };
    for (std::size_t e = 0; e < n; ++e) {
      for (std::size_t u = 0; u < splits; ++u) {
        const std::size_t node = e * splits + u;
        if (w.good[node] != kNone)
          push(node, true, w.good[node]);
        else if (!w.pending[node])
          w.drawn[node] ? void(w.code[node] = kCoalitionDraw) : push(node, false, w.bad[node]);
      }
    }
    for (std::size_t d = 1; d < w.queue.size(); ++d)
      for (std::size_t i = 0; i < w.queue[d].size(); ++i) {
        const std::size_t node = w.queue[d][i] >> 1;
        const bool chooser_wins = w.queue[d][i] & 1;
        if (w.code[node] != kCoalitionUnresolved) continue;
        const bool chooses = SplitRenaming::chooses(int(node % splits));
        const CoalitionCode c = coalition_code(chooser_wins == chooses, int(d));
        w.code[node] = c;
        for (std::uint32_t k = w.first[node]; k < w.first[node + 1]; ++k) {
          const std::size_t parent = w.parents[k] & 0x7fffffffu;
          if (w.code[parent] != kCoalitionUnresolved) continue;
          const CoalitionCode seen = (w.parents[k] >> 31) ? coalition_flip(c) : c;
          const bool parent_chooses = SplitRenaming::chooses(int(parent % splits));
          if (bool(seen & 1) == parent_chooses) {
            if (w.good[parent] > d + 1) {
              w.good[parent] = std::uint16_t(d + 1);
              push(parent, true, int(d + 1));
            }
          } else {
            w.bad[parent] = std::max<std::uint16_t>(w.bad[parent], std::uint16_t(d + 1));
            if (!--w.pending[parent] && w.good[parent] == kNone && !w.drawn[parent])
              push(parent, false, w.bad[parent]);
          }
        }
      }
    CoalitionCode* out = codes_[t].data() + base * splits;
    for (std::size_t e = 0; e < n; ++e) {
      for (std::size_t u = 0; u < splits; ++u) {
        CoalitionCode c = w.code[e * splits + u];
        if (c == kCoalitionUnresolved) c = kCoalitionDraw;
        out[e * splits + u] = c;
        CoalitionTierTally& to = tally[u];
        if (c == kCoalitionDraw) {
          ++to.draws;
        } else if (c & 1) {
          ++to.wins;
          to.longest_win = std::max(to.longest_win, int(c >> 1));
        } else {
          ++to.losses;
          to.longest_loss = std::max(to.longest_loss, int(c >> 1));
        }
      }
    }
    return n;
  }

  const S& space_;
  SplitRenaming renaming_;
  int threads_;
  std::vector<std::vector<CoalitionCode>> codes_;  // by tier: entry * splits + split
  CoalitionTierReport report_;
};

}  // namespace tablebase
