// The coalition tier solver: every coalition's value and distance (solver/coalition_game.h) at
// every entry of a coalition tier space (coalition_tier_space.h), tier by tier in solve order,
// a code an entry and split (coalition_code.h: a byte, or two where distances pass a byte's).
// tablebase/COALITION.md has the why.
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
#include <tbb/task_arena.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <mutex>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "solver/coalition_splits.h"
#include "solver/parallel_for.h"
#include "solver/wdl.h"
#include "tablebase/coalition_code.h"
#include "tablebase/coalition_tier_files.h"
#include "tablebase/coalition_tier_space.h"
#include "tablebase/table_file.h"

namespace tablebase {

// One split's values over the entries (CoalitionTally with the counts of one tier
// solve); seats from the player to move.
using CoalitionTierTally = solver::CoalitionTally;

// A decided or drawn code counted into a split's tally.
template <CoalitionCodeWidth Code>
void count(CoalitionTierTally& to, Code c) {
  if (c == kCoalitionDraw<Code>) {
    ++to.draws;
  } else if (c & 1) {
    ++to.wins;
    to.longest_win = std::max(to.longest_win, int(c >> 1));
  } else {
    ++to.losses;
    to.longest_loss = std::max(to.longest_loss, int(c >> 1));
  }
}
inline void add(CoalitionTierTally& to, const CoalitionTierTally& from) {
  to.wins += from.wins;
  to.draws += from.draws;
  to.losses += from.losses;
  to.longest_win = std::max(to.longest_win, from.longest_win);
  to.longest_loss = std::max(to.longest_loss, from.longest_loss);
}

// How each split reads at a child `shift` seats on: the child's split and whether the coalition is
// that split's rest (its value then from the other side).
class SplitRenaming {
 public:
  explicit SplitRenaming(int players) : splits_(players) {
    const int n = players;
    at_.assign(std::size_t(n) * splits_.count(), {});
    from_ = at_;
    for (int d = 0; d < n; ++d)
      for (int u = 0; u < splits_.count(); ++u) {
        const std::uint32_t s = solver::CoalitionSplits::coalition(u);
        const auto [split, rest] = splits_.of(seats_from(s, d, n));
        at_[std::size_t(d) * splits_.count() + u] = {split, rest};
        from_[std::size_t(d) * splits_.count() + split] = {u, rest};
      }
  }
  const solver::CoalitionSplits& splits() const { return splits_; }
  int count() const { return splits_.count(); }
  std::pair<int, bool> at(int shift, int split) const {
    return at_[std::size_t(shift) * splits_.count() + split];
  }
  // The inverse: the split that reads as `split` at a child `shift` seats on, and whether as its
  // rest.
  std::pair<int, bool> from(int shift, int split) const {
    return from_[std::size_t(shift) * splits_.count() + split];
  }
  // Whether the coalition of `split` chooses where seat 0 is to move.
  static bool chooses(int split) { return solver::CoalitionSplits::coalition(split) & 1; }

 private:
  solver::CoalitionSplits splits_;
  std::vector<std::pair<int, bool>> at_, from_;
};

// A finished position's code for coalition s when the seats `left` are still in.
template <CoalitionCodeWidth Code = CoalitionCode>
Code finished_code(std::uint32_t left, std::uint32_t s) {
  if (!(left & ~s)) return coalition_code<Code>(true, 0);
  if (!(left & s)) return coalition_code<Code>(false, 0);
  return kCoalitionDraw<Code>;
}

struct CoalitionTierReport {
  std::uint64_t positions = 0;
  std::vector<CoalitionTierTally> splits;
  std::uint64_t peak_held_bytes = 0;   // the most codes held at once
  std::uint64_t block_work_bytes = 0;  // the most a thread's block held at once
  std::uint64_t file_bytes = 0;        // of the tier files written
  int tiers_read = 0;                  // tiers found on disk, not solved again
  int tiers_reread = 0;                // tier files read back after their codes were dropped
  // Positions whose player to move cannot force a win alone but can choose which of at least
  // two others can (after its move); counted only when every tier was solved by this run.
  std::uint64_t kingmakers = 0;
  bool kingmakers_counted = true;
  std::vector<std::int64_t> kingmakers_by_tier;  // -1: a tier read, not solved
  double seconds = 0;
};

// What one tier's solve found (CoalitionTierSolver::solve_tier).
struct CoalitionTierSolved {
  std::vector<CoalitionTierTally> splits;  // by split
  std::int64_t kingmakers = -1;            // -1: the tier was read from its file
  std::uint64_t file_bytes = 0;
};

// A report of no tier yet: the splits of `players` named, `tiers` tiers' kingmakers unknown.
inline CoalitionTierReport empty_coalition_report(int players, int tiers) {
  CoalitionTierReport report;
  report.splits = solver::split_tallies(solver::CoalitionSplits(players));
  report.kingmakers_by_tier.assign(std::size_t(tiers), -1);
  return report;
}

// Adds tier t's solve (of `positions` entries) to a report: its tallies, kingmakers (counted only
// while every tier was solved, none read) and file bytes.
inline void add_tier(CoalitionTierReport& to, int t, std::uint64_t positions,
                     const CoalitionTierSolved& solved) {
  for (std::size_t u = 0; u < to.splits.size(); ++u) add(to.splits[u], solved.splits[u]);
  to.positions += positions;
  to.kingmakers_by_tier[std::size_t(t)] = solved.kingmakers;
  if (solved.kingmakers < 0) {
    ++to.tiers_read;
    to.kingmakers_counted = false;
  } else {
    to.kingmakers += std::uint64_t(solved.kingmakers);
  }
  to.file_bytes += solved.file_bytes;
}

struct CoalitionTierSolveOptions {
  int threads = 1;
  // Where each tier's codes are written when solved (coalition_tier_files.h), and read back from
  // when a later tier needs them and they were dropped; a tier whose file is there is read, not
  // solved again. Empty: no files, every tier held to the end.
  std::filesystem::path dir;
  // With a dir: the codes held at most, in bytes. Before a tier is solved, tiers it does not need
  // are dropped, those needed again latest first (and those never needed again at once), until it
  // and its children fit (if they alone do not, they are held all the same: the report says).
  std::uint64_t budget_bytes = ~std::uint64_t{0};
  int zstd_level = 8;
};

// Code: CoalitionCode (a byte an entry and split) or WideCoalitionCode (two).
template <CoalitionTierSpace S, CoalitionCodeWidth Code = CoalitionCode>
class CoalitionTierSolver {
 public:
  using Progress = std::function<void(int tiers_done, std::uint64_t positions_done)>;
  using code_type = Code;

  CoalitionTierSolver(const S& space, CoalitionTierSolveOptions options)
      : space_(space),
        renaming_(space.players()),
        options_(std::move(options)),
        arena_(std::max(1, options_.threads)) {
    options_.threads = std::max(1, options_.threads);
  }

  // Solves every tier (or reads it, with a dir that holds it); throws CoalitionCodesTooNarrow for
  // a distance past Code's (the tiers solved before it kept in the dir), TableError for a tier
  // file it cannot trust or write.
  void solve(const Progress& progress = {}) {
    const auto start = std::chrono::steady_clock::now();
    begin();
    std::uint64_t done = 0;
    for (int t = 0; t < space_.tier_count(); ++t) {
      solve_tier(t);
      done += space_.tier_size(t);
      if (progress) progress(t + 1, done);
    }
    report_.seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }

  // Starts a run of solve_tier calls: nothing held, the report empty.
  void begin() {
    const int tiers = space_.tier_count();
    codes_.assign(tiers, {});
    resident_.assign(tiers, false);
    held_ = 0;
    report_ = empty_coalition_report(space_.players(), tiers);
    // Which later tiers need each tier, in solve order.
    uses_.assign(tiers, {});
    for (int t = 0; t < tiers; ++t)
      for (int c : space_.tier_children(t)) uses_[c].push_back(t);
  }

  // Solves tier t, or reads it from its file in the dir; its child tiers are held by this solver
  // or in their files (solved by another, as an MPI rank's). What it found is added to the report
  // and returned: the tier's tally by split, its kingmakers (-1 for a tier read) and file bytes.
  // Throws as solve() does.
  CoalitionTierSolved solve_tier(int t) {
    const int splits = renaming_.count();
    make_room(t);
    readers_.clear();
    readers_.resize(space_.tier_count());
    for (int c : space_.tier_children(t)) {
      if (!by_entry_[c]) {
        hold(c);
      } else {
        readers_[c] =
            std::make_unique<TableReader>(open_coalition_tier(file_name(c), codes_size(c)));
        readers_[c]->share_cache(cache_);
      }
    }
    CoalitionTierSolved solved;
    solved.splits = solver::split_tallies(renaming_.splits());
    if (!options_.dir.empty() && coalition_tier_present(file_name(t), codes_size(t))) {
      hold(t);
      tally_codes(t, solved.splits);
    } else {
      codes_[t].assign(codes_size(t), kCoalitionNotInRow<Code>);
      std::uint64_t tier_kingmakers = 0;
      add_held(t);
      std::mutex merge;
      arena_.execute([&] {
        solver::parallel_for(tbb::blocked_range<std::uint64_t>(0, space_.block_count(t)),
                             [&](const auto& r) {
                               BlockWork work;
                               std::vector<CoalitionTierTally> mine(splits);
                               std::uint64_t kingmakers = 0;
                               for (std::uint64_t b = r.begin(); b != r.end(); ++b) {
                                 const IndexRange range = space_.block_range(t, b);
                                 if (range.end - range.begin > kBigBlock) {
                                   std::lock_guard one_at_a_time(big_block_);
                                   solve_block(t, b, work, mine, kingmakers);
                                   work = BlockWork{};  // its arrays freed
                                 } else {
                                   solve_block(t, b, work, mine, kingmakers);
                                 }
                               }
                               std::lock_guard lock(merge);
                               tier_kingmakers += kingmakers;
                               for (int u = 0; u < splits; ++u) add(solved.splits[u], mine[u]);
                             });
      });
      solved.kingmakers = std::int64_t(tier_kingmakers);
      if (!options_.dir.empty())
        solved.file_bytes = write_coalition_tier(file_name(t), std::span<const Code>(codes_[t]),
                                                 options_.zstd_level);
    }
    readers_.clear();
    add_tier(report_, t, space_.tier_size(t), solved);
    report_.block_work_bytes = block_work_peak_.load();
    return solved;
  }

  void set_budget(std::uint64_t bytes) { options_.budget_bytes = bytes; }
  // What the threads' blocks hold at most while they are solved, estimated from the space's
  // largest block: a block of more than kBigBlock positions is solved by one thread at a time
  // (and its arrays freed after), the others' blocks are smaller.
  std::uint64_t block_work_bound() const {
    std::uint64_t largest = 0;
    for (int t = 0; t < space_.tier_count(); ++t)
      for (std::uint64_t b = 0; b < space_.block_count(t); ++b) {
        const IndexRange range = space_.block_range(t, b);
        largest = std::max(largest, range.end - range.begin);
      }
    const std::uint64_t per_position =
        kWorkBytesPerPosition + std::uint64_t(renaming_.count()) * 2 * (sizeof(Code) - 1);
    return per_position *
           (largest + std::uint64_t(options_.threads - 1) * std::min(largest, kBigBlock));
  }

  const CoalitionTierReport& report() const { return report_; }
  const SplitRenaming& renaming() const { return renaming_; }
  // The codes of an entry in the row, one a split (its tier read again if it was dropped).
  std::span<const Code> codes(Location at) {
    hold(at.tier);
    const int n = renaming_.count();
    return {codes_[at.tier].data() + at.index * n, std::size_t(n)};
  }
  // Coalition s's code at the entry, s a set of its seats (bit j: seat j), neither none nor all.
  Code code(Location at, std::uint32_t s) {
    const auto [split, rest] = renaming_.splits().of(s);
    const Code c = codes(at)[split];
    return rest ? coalition_flip(c) : c;
  }
  // The codes held now.
  std::uint64_t held_bytes() const { return held_; }

 private:
  // What solving a block holds, kept by a thread from block to block.
  // Nodes are an entry and a split (entry * splits + split), entries numbered in the block.
  static constexpr std::uint64_t kBigBlock = std::uint64_t{1} << 18;
  // A block's arrays a position in byte codes: 6 bytes a split, 4 of its queue slots a split, and
  // 8 a move inside the block (on nevsky:4x4:3, whose largest block held 81 bytes a position, 96
  // covers some 4 moves in the block more than it has); two-byte codes add 2 bytes a split.
  static constexpr std::uint64_t kWorkBytesPerPosition = 96;
  struct BlockWork {
    // Chooser's best win + 1; longest loss + 1, and kDrawn when a child is a draw.
    std::vector<Code> good, bad;
    std::vector<std::uint16_t> pending;  // children in the block not yet decided against
    // The block's moves, child entry << 32 | parent entry << 3 | shift, sorted: a child's parents
    // are edges[first[child] .. first[child + 1]).
    std::vector<std::uint64_t> edges;
    std::vector<std::uint32_t> first;
    std::vector<std::vector<std::uint32_t>> queue;  // by distance: node * 2 + chooser wins
    // By entry: the seats that can force a win alone after one of its moves (kingmakers).
    std::vector<std::uint8_t> winners;
    std::vector<Code> seen;  // a child's codes, by split, from the parent's side
  };

  // A distance + 1 stays below kDrawn: kMaxCoalitionDistance is under half the code's range.
  static constexpr Code kNone = Code(~Code{0}), kDrawn = Code(kNone ^ (kNone >> 1));

  // Whether a code (read from the other side when `rest`) is a win.
  static bool wins(Code c, bool rest) { return coalition_decided(c) && bool(c & 1) != rest; }

  // Folds a decided or drawn child (its code from the node's coalition's side) into a node.
  static void fold(BlockWork& w, std::size_t node, bool coalition_chooses, Code c) {
    if (c == kCoalitionDraw<Code>) {
      w.bad[node] |= kDrawn;
      return;
    }
    const bool chooser_wins = bool(c & 1) == coalition_chooses;
    const Code d = Code((c >> 1) + 1);
    if (chooser_wins)
      w.good[node] = std::min(w.good[node], d);
    else
      w.bad[node] = Code(std::max<int>(w.bad[node] & ~kDrawn, d) | (w.bad[node] & kDrawn));
  }

  std::uint64_t solve_block(int t, std::uint64_t b, BlockWork& w,
                            std::vector<CoalitionTierTally>& tally, std::uint64_t& kingmakers) {
    const IndexRange range = space_.block_range(t, b);
    // The block's entries, numbered from 0.
    const std::uint64_t base = range.begin;
    const std::size_t n = range.end - base;
    const std::size_t splits = std::size_t(renaming_.count()), nodes = n * splits;
    if (!n) return 0;
    // The block's codes, decided in place.
    Code* code = codes_[t].data() + base * splits;
    std::fill(code, code + nodes, kCoalitionUnresolved<Code>);
    if (n >= std::size_t{1} << 28)
      throw std::length_error("a block of more than 2^28 positions in the row");
    w.good.assign(nodes, kNone);
    w.bad.assign(nodes, 0);
    w.pending.assign(nodes, 0);
    w.edges.clear();
    w.winners.assign(n, 0);
    w.seen.resize(splits);
    typename S::Cursor cursor;
    for (std::size_t e = 0; e < n; ++e) {
      space_.for_each_child(cursor, t, base + e, [&](const CoalitionChild& c) {
        if (c.at.tier == t) {
          if (c.at.index < range.begin || c.at.index >= range.end)
            throw std::logic_error("a move inside a tier left its block");
          const std::uint64_t child = c.at.index - base;
          w.edges.push_back(child << 32 | std::uint64_t(e) << 3 | std::uint64_t(c.shift));
          if (w.pending[e * splits] == 0xffff)
            throw std::length_error("a position with more than 65535 moves in its block");
          for (std::size_t u = 0; u < splits; ++u) ++w.pending[e * splits + u];
          return;
        }
        if (c.at.tier < 0 && !c.left) throw std::logic_error("a move led out of the row");
        for (std::size_t u = 0; u < splits; ++u) {
          const auto [split, rest] = renaming_.at(c.shift, int(u));
          Code code;
          if (c.at.tier < 0) {
            code = finished_code<Code>(c.left, solver::CoalitionSplits::coalition(int(u)));
          } else {
            if (c.at.tier > t) throw std::logic_error("a move led to a later tier");
            code = child_code(c.at, split);
            if (!coalition_decided(code) && code != kCoalitionDraw<Code>)
              throw std::logic_error("a move led to an entry not solved");
            if (rest) code = coalition_flip(code);
          }
          w.seen[u] = code;
          fold(w, e * splits + u, SplitRenaming::chooses(int(u)), code);
        }
        for (int k = 0; k < space_.players(); ++k) {
          const auto [u, rest] = renaming_.splits().of(1u << k);
          if (wins(w.seen[u], rest)) w.winners[e] |= std::uint8_t(1u << k);
        }
      });
    }
    std::sort(w.edges.begin(), w.edges.end());
    w.first.assign(n + 1, 0);
    for (const std::uint64_t edge : w.edges) ++w.first[(edge >> 32) + 1];
    for (std::size_t i = 0; i < n; ++i) w.first[i + 1] += w.first[i];
    for (auto& q : w.queue) q.clear();
    const auto push = [&](std::size_t node, bool chooser_wins, int d) {
      if (d > kMaxCoalitionDistance<Code>) coalition_code<Code>(true, d);  // throws
      if (w.queue.size() <= std::size_t(d)) w.queue.resize(d + 1);
      w.queue[d].push_back(std::uint32_t(node * 2 + (chooser_wins ? 1 : 0)));
    };
    for (std::size_t e = 0; e < n; ++e) {
      for (std::size_t u = 0; u < splits; ++u) {
        const std::size_t node = e * splits + u;
        if (w.good[node] != kNone)
          push(node, true, w.good[node]);
        else if (!w.pending[node])
          w.bad[node] & kDrawn ? void(code[node] = kCoalitionDraw<Code>)
                               : push(node, false, w.bad[node]);
      }
    }
    for (std::size_t d = 1; d < w.queue.size(); ++d)
      for (std::size_t i = 0; i < w.queue[d].size(); ++i) {
        const std::size_t node = w.queue[d][i] >> 1;
        const bool chooser_wins = w.queue[d][i] & 1;
        if (code[node] != kCoalitionUnresolved<Code>) continue;
        const bool chooses = SplitRenaming::chooses(int(node % splits));
        const Code c = coalition_code<Code>(chooser_wins == chooses, int(d));
        code[node] = c;
        const std::size_t child = node / splits;
        const int split = int(node % splits);
        for (std::uint32_t k = w.first[child]; k < w.first[child + 1]; ++k) {
          // The parent's split that reads as this one at the child.
          const auto [u, rest] = renaming_.from(int(w.edges[k] & 7), split);
          const std::size_t parent = std::size_t(w.edges[k] >> 3 & 0x1fffffff) * splits + u;
          if (code[parent] != kCoalitionUnresolved<Code>) continue;
          const Code seen = rest ? coalition_flip(c) : c;
          const bool parent_chooses = SplitRenaming::chooses(u);
          if (bool(seen & 1) == parent_chooses) {
            if (w.good[parent] > d + 1) {
              w.good[parent] = Code(d + 1);
              push(parent, true, int(d + 1));
            }
          } else {
            w.bad[parent] =
                Code(std::max<int>(w.bad[parent] & ~kDrawn, int(d + 1)) | (w.bad[parent] & kDrawn));
            if (!--w.pending[parent] && w.good[parent] == kNone && !(w.bad[parent] & kDrawn))
              push(parent, false, w.bad[parent]);
          }
        }
      }
    for (std::size_t e = 0; e < n; ++e) {
      for (std::size_t u = 0; u < splits; ++u) {
        Code& c = code[e * splits + u];
        if (c == kCoalitionUnresolved<Code>) c = kCoalitionDraw<Code>;
        count(tally[u], c);
      }
    }
    // Kingmakers: the players who can force a win alone after some move, the block's children's
    // added to the others'.
    const int players = space_.players();
    for (const std::uint64_t edge : w.edges) {
      const std::size_t child = edge >> 32, parent = edge >> 3 & 0x1fffffff;
      const int shift = int(edge & 7);
      for (int j = 0; j < players; ++j) {
        const auto [u, rest] = renaming_.splits().of(1u << j);
        if (wins(code[child * splits + u], rest))
          w.winners[parent] |= std::uint8_t(1u << (j + shift) % players);
      }
    }
    const auto [alone, alone_rest] = renaming_.splits().of(1u);
    for (std::size_t e = 0; e < n; ++e)
      kingmakers += !wins(code[e * splits + alone], alone_rest) &&
                    std::popcount(unsigned(w.winners[e] & ~1u)) >= 2;
    std::uint64_t work = sizeof(Code) * (w.good.capacity() + w.bad.capacity()) +
                         2 * w.pending.capacity() + 8 * w.edges.capacity() + 4 * w.first.capacity();
    for (const auto& q : w.queue) work += 4 * q.capacity();
    for (std::uint64_t seen = block_work_peak_.load();
         work > seen && !block_work_peak_.compare_exchange_weak(seen, work);) {
    }
    return n;
  }

  std::uint64_t codes_size(int t) const { return space_.tier_size(t) * renaming_.count(); }
  std::uint64_t codes_bytes(int t) const { return codes_size(t) * sizeof(Code); }
  CoalitionTierName file_name(int t) const {
    return {options_.dir,        space_.variant_name(), space_.index_scheme(), t,
            space_.tier_name(t), renaming_.count()};
  }
  void add_held(int t) {
    resident_[t] = true;
    held_ += codes_[t].capacity() * sizeof(Code);
    report_.peak_held_bytes = std::max(report_.peak_held_bytes, held_);
  }
  void drop(int t) {
    held_ -= codes_[t].capacity() * sizeof(Code);
    std::vector<Code>().swap(codes_[t]);
    resident_[t] = false;
  }
  // Tier t's codes in memory, read from its file when they were dropped.
  void hold(int t) {
    if (resident_[t]) return;
    if (options_.dir.empty()) throw std::logic_error("a tier's codes were dropped with no file");
    codes_[t].resize(codes_size(t));
    read_coalition_tier(file_name(t), std::span<Code>(codes_[t]));
    add_held(t);
    ++report_.tiers_reread;
  }
  // Whether tier t reads child tier c's codes an entry at a time from its file rather than holding
  // them: where c is much larger than t (a tier of few men whose captures lead into tiers of many
  // kings), so that t's solve touches little of it.
  bool read_by_entry(int t, int c) const {
    return !options_.dir.empty() && space_.tier_size(c) > 4 * space_.tier_size(t) + (1 << 20);
  }
  // A child's code of a split, from the child tier's codes or its file.
  Code child_code(Location at, int split) {
    const std::uint64_t i = at.index * renaming_.count() + split;
    if (resident_[at.tier]) return codes_[at.tier][i];
    TableReader& reader = *readers_[at.tier];
    return coalition_code_from_record<Code>(reader.get(i), reader.header().bits_per_record);
  }
  // The first tier after t that needs tier r, or tier_count() for none.
  int next_use(int r, int t) const {
    const auto it = std::upper_bound(uses_[r].begin(), uses_[r].end(), t);
    return it == uses_[r].end() ? space_.tier_count() : *it;
  }
  // Decides how tier t reads each child (whole, or an entry at a time: by_entry_) and drops what
  // it does not need: with a dir, the tiers no later tier needs, then those needed latest first
  // while t and its children would pass the budget, then, if they still would, t's largest
  // children are read an entry at a time.
  void make_room(int t) {
    by_entry_.assign(space_.tier_count(), 0);
    if (options_.dir.empty()) return;
    std::vector<char> needed(space_.tier_count(), 0);
    needed[t] = 1;
    std::uint64_t need = codes_bytes(t);
    for (int c : space_.tier_children(t)) {
      by_entry_[c] = read_by_entry(t, c);
      if (by_entry_[c]) continue;
      needed[c] = 1;
      if (!resident_[c]) need += codes_bytes(c);
    }
    std::vector<std::pair<int, int>> others;  // next use, tier
    for (int r = 0; r < t; ++r)
      if (resident_[r] && !needed[r]) {
        const int next = next_use(r, t - 1);
        if (next == space_.tier_count())
          drop(r);
        else
          others.emplace_back(next, r);
      }
    std::sort(others.rbegin(), others.rend());
    for (const auto& [next, r] : others) {
      if (held_ + need <= options_.budget_bytes) break;
      drop(r);
    }
    std::vector<int> whole;
    for (int c : space_.tier_children(t))
      if (!by_entry_[c]) whole.push_back(c);
    std::sort(whole.begin(), whole.end(),
              [&](int a, int b) { return codes_size(a) > codes_size(b); });
    for (int c : whole) {
      if (held_ + need <= options_.budget_bytes) break;
      by_entry_[c] = 1;
      if (resident_[c])
        drop(c);
      else
        need -= codes_bytes(c);
    }
  }
  void tally_codes(int t, std::vector<CoalitionTierTally>& tally) const {
    const std::size_t splits = std::size_t(renaming_.count());
    for (std::uint64_t i = 0; i < codes_[t].size(); ++i) count(tally[i % splits], codes_[t][i]);
  }

  const S& space_;
  SplitRenaming renaming_;
  CoalitionTierSolveOptions options_;
  std::vector<std::vector<int>> uses_;
  // The current tier's children read an entry at a time (make_room), sharing a cache.
  std::vector<char> by_entry_;
  std::vector<std::unique_ptr<TableReader>> readers_;
  std::shared_ptr<BlockCache> cache_ = std::make_shared<BlockCache>(256);
  std::vector<char> resident_;
  std::uint64_t held_ = 0;
  std::atomic<std::uint64_t> block_work_peak_ = 0;
  std::mutex big_block_;
  tbb::task_arena arena_;
  std::vector<std::vector<Code>> codes_;  // by tier: entry * splits + split
  CoalitionTierReport report_;
};

}  // namespace tablebase
