// Complete games: move sequences from a position to a terminal one (the side to move has no move).
// Counted exactly by path counting over the position graph: games(p) = 1 at a terminal position,
// else the sum of games(child) over p's moves. Positions with equal canonical keys have isomorphic
// game trees (mirror images, colour swaps), so each is counted once and remembered. The memo's
// memory is accounted before it grows, so a variant too big for the cap stops cleanly
// (MemoryCapReached) instead of swapping; a deadline stops it cleanly too (DeadlineReached), and
// counts beyond 2^128 throw CountOverflow.
#pragma once

#include <absl/container/flat_hash_map.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <exception>

#include "solver/claims_count.h"
#include "solver/distinct_positions.h"
#include "solver/game_concept.h"
#include "solver/progress.h"

namespace solver {

// Games from one position, with the lengths of its shortest and longest game in plies.
struct GameTreeSize {
  Count games = 0;
  int shortest = 0;
  int longest = 0;
};

class DeadlineReached : public std::exception {
 public:
  const char* what() const noexcept override { return "deadline reached"; }
};

using Deadline = std::chrono::steady_clock::time_point;

struct CompleteGames {
  GameTreeSize tree;
  std::uint64_t positions = 0;  // non-terminal canonical positions remembered
};

template <KeyedGame G>
class CompleteGameCounter {
 public:
  CompleteGameCounter(const G& game, std::uint64_t memory_bytes, Deadline deadline,
                      Progress* progress)
      : game_(game), memory_bytes_(memory_bytes), deadline_(deadline), progress_(progress) {}

  CompleteGames count(typename G::Position root) {
    const GameTreeSize tree = visit(root);
    return {tree, memo_.size()};
  }

 private:
  // One slot of the memo: the key, the value and absl's control byte.
  static constexpr std::uint64_t kSlotBytes = sizeof(typename G::Key) + sizeof(GameTreeSize) + 1;

  GameTreeSize visit(typename G::Position& p) {
    if (game_.is_terminal(p)) return {1, 0, 0};
    const auto key = game_.canonical_key(p);
    if (const auto it = memo_.find(key); it != memo_.end()) return it->second;
    typename G::MoveList moves;
    game_.generate(p, moves);
    GameTreeSize tree{0, 1 << 30, 0};
    for (int i = 0; i < moves.size(); ++i) {
      const auto undo = game_.make(p, moves[i]);
      const GameTreeSize child = visit(p);
      game_.unmake(p, moves[i], undo);
      tree.games = checked_add(tree.games, child.games);
      tree.shortest = std::min(tree.shortest, child.shortest + 1);
      tree.longest = std::max(tree.longest, child.longest + 1);
    }
    // absl doubles a full table (7/8 load), and both arrays live while it rehashes.
    const std::size_t capacity = memo_.capacity();
    if (memo_.size() + 1 > capacity - capacity / 8 &&
        (3 * capacity + 1) * kSlotBytes > memory_bytes_)
      throw MemoryCapReached();
    memo_.emplace(key, tree);
    if (progress_) progress_->advance();
    if (memo_.size() % 4096 == 0 && std::chrono::steady_clock::now() > deadline_)
      throw DeadlineReached();
    return tree;
  }

  const G& game_;
  std::uint64_t memory_bytes_;
  Deadline deadline_;
  Progress* progress_;
  absl::flat_hash_map<typename G::Key, GameTreeSize> memo_;
};

template <KeyedGame G>
CompleteGames count_complete_games(const G& game, typename G::Position root,
                                   std::uint64_t memory_bytes, Deadline deadline = Deadline::max(),
                                   Progress* progress = nullptr) {
  return CompleteGameCounter<G>(game, memory_bytes, deadline, progress).count(root);
}

}  // namespace solver
