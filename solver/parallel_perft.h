// Runs a perft-like count in parallel and splits it by root move ("divide"). The tree is cut two
// plies down, so even positions with few root moves give oneTBB hundreds of tasks to balance.
// Each work item counts in 64 bits; the items are added up in 128 (exact_count.h).
#pragma once

#include <tbb/blocked_range.h>
#include <tbb/task_arena.h>

#include <cstdint>
#include <utility>
#include <vector>

#include "solver/exact_count.h"
#include "solver/game_concept.h"
#include "solver/parallel_for.h"
#include "solver/progress.h"

namespace solver {

template <PerftGame G>
struct Divide {
  std::vector<std::pair<typename G::Move, Count>> per_move;  // in generation order
  Count total() const {
    Count n = 0;
    for (const auto& [move, count] : per_move) n = checked_add(n, count);
    return n;
  }
};

// `count(position, depth)` counts one subtree; it must be safe to call from several threads.
template <PerftGame G, typename CountSubtree>
Divide<G> parallel_divide(const G& game, typename G::Position root, int depth, int threads,
                          Progress& progress, CountSubtree count) {
  using Position = typename G::Position;
  Divide<G> result;
  if (depth <= 0) return result;
  typename G::MoveList roots;
  game.generate(root, roots);
  for (int i = 0; i < roots.size(); ++i) result.per_move.emplace_back(roots[i], 0);

  // Work items: (root move, position two plies down), or one ply down when depth is 1.
  const int cut = depth >= 3 ? 2 : 1;
  std::vector<std::pair<int, Position>> items;
  for (int i = 0; i < roots.size(); ++i) {
    const auto undo = game.make(root, roots[i]);
    if (cut == 1) {
      items.emplace_back(i, root);
    } else {
      typename G::MoveList replies;
      game.generate(root, replies);
      for (int j = 0; j < replies.size(); ++j) {
        const auto reply_undo = game.make(root, replies[j]);
        items.emplace_back(i, root);
        game.unmake(root, replies[j], reply_undo);
      }
    }
    game.unmake(root, roots[i], undo);
  }

  progress.set_total(items.size());
  std::vector<std::uint64_t> counts(items.size());
  tbb::task_arena arena(threads);
  arena.execute([&] {
    solver::parallel_for(tbb::blocked_range<std::size_t>(0, items.size(), 1),
                         [&](const auto& range) {
                           for (std::size_t k = range.begin(); k != range.end(); ++k) {
                             Position p = items[k].second;
                             counts[k] = count(p, depth - cut);
                             progress.add_to_rate(counts[k]);
                             progress.advance();
                           }
                         });
  });
  for (std::size_t k = 0; k < items.size(); ++k) {
    Count& sum = result.per_move[items[k].first].second;
    sum = checked_add(sum, counts[k]);
  }
  return result;
}

}  // namespace solver
