// Runs a perft-like count in parallel and splits it by root move ("divide"). The tree is cut two
// plies down, so even positions with few root moves give oneTBB hundreds of tasks to balance.
#pragma once

#include <tbb/blocked_range.h>
#include <tbb/task_arena.h>

#include <atomic>
#include <cstdint>
#include <utility>
#include <vector>

#include "solver/game_concept.h"
#include "solver/parallel_for.h"
#include "solver/progress.h"

namespace solver {

template <PerftGame G>
struct Divide {
  std::vector<std::pair<typename G::Move, std::uint64_t>> per_move;  // in generation order
  std::uint64_t total() const {
    std::uint64_t n = 0;
    for (const auto& [move, count] : per_move) n += count;
    return n;
  }
};

// `count(position, depth)` counts one subtree; it must be safe to call from several threads.
template <PerftGame G, typename Count>
Divide<G> parallel_divide(const G& game, typename G::Position root, int depth, int threads,
                          Progress& progress, Count count) {
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
  std::vector<std::atomic<std::uint64_t>> sums(roots.size());
  tbb::task_arena arena(threads);
  arena.execute([&] {
    solver::parallel_for(tbb::blocked_range<std::size_t>(0, items.size(), 1),
                         [&](const auto& range) {
                           for (std::size_t k = range.begin(); k != range.end(); ++k) {
                             Position p = items[k].second;
                             const std::uint64_t n = count(p, depth - cut);
                             sums[items[k].first].fetch_add(n, std::memory_order_relaxed);
                             progress.add_to_rate(n);
                             progress.advance();
                           }
                         });
  });
  for (std::size_t i = 0; i < sums.size(); ++i) result.per_move[i].second = sums[i].load();
  return result;
}

}  // namespace solver
