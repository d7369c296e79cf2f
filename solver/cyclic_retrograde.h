// Retrograde analysis for games with cycles and draws: the exact win/draw/loss value and distance
// (wdl.h) of every position reachable from given roots. Class of game: two players taking turns
// (TwoPlayerGame, turn_order.h), win/loss with draws of endless play, keyed (game_concept.h).
//
// Contract
// - Values are for the side to move. A position the game calls terminal (is_terminal: the side to
//   move has lost) is a loss in 0, and so is one without a legal move; its moves, if the game lists
//   any, are not played. Otherwise the position is a win in 1 + the least distance of its losing
//   children if it has one (the winner hurries), a loss in 1 + the greatest distance of its
//   children when every child is a win (the loser delays), and a draw when neither is ever settled:
//   play that can go on for ever without either side being forced to lose. Wins have odd distances
//   and losses even ones, as in outcome.h, but the value is stored apart because draws have none.
// - Positions are those reachable from the roots (one or more), one entry per canonical_key, so
//   mirror images and colour swaps are solved once. Ids are dense, given in breadth-first order.
//   G::Key must be hashable by absl (AbslHashValue), as for the forward solver's table.
//
// The positions come from the position graph (position_graph.h: one exploration, its forward
// index and the reverse, which the coalition solver labels too); this header is the two-sided
// labelling on top of it.
//
// Algorithm: counters of unresolved children, resolved positions in order of distance
// Every position starts unresolved with a counter of its distinct children. The positions without
// children are losses in 0 and go into a FIFO queue. Taking position c, resolved at distance d,
// each unresolved parent p is told: if c is a loss, p becomes a win in d + 1; if c is a win, p's
// counter drops by one, and at 0 p becomes a loss in d + 1. Either way p joins the queue. When the
// queue is empty, the positions still unresolved are the draws.
// Why the distances are exact: the queue starts with every position of distance 0 and a position
// taken at distance d only enqueues positions at d + 1, so positions leave the queue by levels,
// in order of distance (breadth-first). A parent turns into a win at the first losing child taken,
// which is the least distant one: 1 + the least. It turns into a loss when its last child is
// taken as a win, which is then the most distant: 1 + the greatest, and only if every child won
// (a losing child never counts down, so a parent that has one never reaches 0). A parent resolved
// once is skipped later, so nothing is overwritten. A position left unresolved has no losing
// child (it would have won) and a child that is not a win (its counter stayed above 0), so an
// unresolved one: from there either side can always move to another unresolved position, and
// neither can force the game to end: a draw. (The tests compare all this with the plain fixed
// point of those rules on every position.)
//
// Speed, against the acyclic tier solver on the same acyclic variant (bench/cyclic_bench.cpp,
// 3x3:NBRK, one thread each, one run): 2.29e6 positions in 12.5 s against 3.54e6 entries (2.67e6
// symmetry classes) in 2.6 s, 5.7x fewer classes a second, on a machine loaded to twice its
// cores. By perf, about half of this solver's time is the hash map (random reads in a 100 MiB
// table), a quarter the canonical keys (the least of the board's 8 images, from the mover's side),
// a tenth page faults, and under a tenth the retrograde itself. The tier solver has no map and no
// stored index: it finds a child's entry by its dense rank (mapping only the rank's prefix to its
// least image), reads one byte, and solves each entry once in a fixed order.
//
// Memory, counted before each allocation against options.memory_bytes (counted_memory.h)
// - Exploring and reversing: the position graph's (position_graph.h); its reverse() frees the
//   forward index once the reverse one is built, after counting each position's links, which this
//   labelling then counts down in place as its counters.
// - Labelling: a value (4 bytes) and a queue slot (4) a position.
// - After solving, the map and the values stay for queries.
// On 3x3:NBRK from the start (2.29e6 positions, 1.60e7 links) the peak is the reverse index's
// build, 283 MiB (position_graph.h). The first allocation that would pass the cap throws
// CyclicMemoryError naming the numbers, so an exploration too big for the cap stops before the
// solve begins (every array the solve needs is allocated before its first step). The report gives
// the peak counted.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <optional>
#include <span>
#include <stdexcept>
#include <vector>

#include "solver/counted_memory.h"
#include "solver/game_concept.h"
#include "solver/position_graph.h"
#include "solver/progress.h"
#include "solver/turn_order.h"
#include "solver/wdl.h"

namespace solver {

struct CyclicSolveOptions {
  std::uint64_t memory_bytes = std::uint64_t{1} << 30;
  bool show_progress = false;
};

struct CyclicSolveReport {
  std::uint64_t positions = 0;  // distinct canonical positions reached from the roots
  std::uint64_t moves = 0;      // moves generated in positions that are not terminal
  std::uint64_t links = 0;      // distinct (position, child) pairs: the forward index's length
  std::uint64_t wins = 0, draws = 0, losses = 0;
  int longest_win = 0, longest_loss = 0;  // the greatest distance of each (0 if none)
  std::uint64_t peak_bytes = 0;           // the most the counted arrays held at once
  double explore_seconds = 0, solve_seconds = 0;
};

template <typename Move>
struct WdlAnalysis {
  struct MoveResult {
    Move move;
    WdlValue value;  // for the side that plays it (mover_value of the child's)
  };
  WdlValue value;                 // of the position, for the side to move
  std::vector<MoveResult> moves;  // in generation order; none in a terminal position
};

// The labelling above over a reversed position graph: each position's packed value (wdl.h's
// pack_wdl) for the side to move, by id. It counts the graph's link counts down in place and frees
// the graph's links when done, so it is the last labelling of the graph.
template <KeyedGame G>
std::vector<std::uint32_t> label_sides(PositionGraph<G>& graph, CountedMemory& memory,
                                       bool show_progress) {
  using Id = typename PositionGraph<G>::Id;
  const std::uint64_t n = graph.positions();
  // Counters of unresolved children.
  std::vector<std::uint32_t> remaining = graph.take_link_counts();
  std::vector<std::uint32_t> values = memory.counted<std::uint32_t>(n, kPackedDraw, "the values");
  std::vector<Id> queue;
  memory.take(n * sizeof(Id), "the queue");
  queue.reserve(n);

  const auto parents_at = graph.parent_offsets();
  const auto parents = graph.parents();

  Progress progress("retrograde", n, "positions", show_progress);
  for (std::uint64_t i = 0; i < n; ++i)
    if (remaining[i] == 0) {
      values[i] = pack_wdl({Wdl::loss, 0});
      queue.push_back(Id(i));
    }
  for (std::size_t head = 0; head < queue.size(); ++head) {
    const Id c = queue[head];
    const WdlValue v = unpack_wdl(values[c]);
    for (std::uint64_t k = parents_at[c]; k < parents_at[c + 1]; ++k) {
      const Id p = parents[k];
      if (values[p] != kPackedDraw) continue;
      if (v.wdl == Wdl::loss) {
        values[p] = pack_wdl({Wdl::win, v.distance + 1});
        queue.push_back(p);
      } else if (--remaining[p] == 0) {
        values[p] = pack_wdl({Wdl::loss, v.distance + 1});
        queue.push_back(p);
      }
    }
    progress.advance();
    progress.add_to_rate(1);
  }
  progress.advance(n - queue.size());  // the draws, settled by the queue running dry
  memory.release(queue);
  graph.release_links();
  memory.release(remaining);
  return values;
}

template <KeyedGame G>
requires TwoPlayerGame<G>
class CyclicRetrograde {
 public:
  using Position = typename G::Position;
  using Key = typename G::Key;
  using Move = typename G::Move;
  using Analysis = WdlAnalysis<Move>;

  // Explores everything reachable from the roots and solves it; throws CyclicMemoryError when the
  // cap is too small.
  CyclicRetrograde(const G& game, std::span<const Position> roots, CyclicSolveOptions options)
      : game_(game),
        options_(options),
        memory_(options.memory_bytes, "cyclic retrograde"),
        graph_(game, roots, memory_, options.show_progress) {
    const auto explored = std::chrono::steady_clock::now();
    solve();
    const auto solved = std::chrono::steady_clock::now();
    report_.positions = graph_.positions();
    report_.moves = graph_.moves();
    report_.links = graph_.links();
    report_.peak_bytes = memory_.peak();
    report_.explore_seconds = std::chrono::duration<double>(explored - start_).count();
    report_.solve_seconds = std::chrono::duration<double>(solved - explored).count();
  }

  const CyclicSolveReport& report() const { return report_; }

  // The value of the position with this canonical key; nullopt if it was not reached.
  std::optional<WdlValue> value_of_key(const Key& canonical) const {
    const auto id = graph_.find(canonical);
    if (!id) return std::nullopt;
    return unpack_wdl(values_[*id]);
  }
  std::optional<WdlValue> value(const Position& p) const {
    return value_of_key(game_.canonical_key(p));
  }

  // What the counted arrays hold now (after solving: the map and the values).
  std::uint64_t held_bytes() const { return memory_.held(); }

  // Calls f(canonical key, value) for every position solved, in no particular order: what a
  // table writer stores.
  template <typename F>
  void for_each_value(F&& f) const {
    graph_.for_each_key([&](const Key& key, Id id) { f(key, unpack_wdl(values_[id])); });
  }

  // The position's value and what each move gives the side that plays it; throws
  // std::invalid_argument for a position that was not reached from the roots.
  Analysis analyze(Position p) const {
    const auto own = value(p);
    if (!own) throw std::invalid_argument("the position was not reached from the solved roots");
    Analysis a{*own, {}};
    if (game_.is_terminal(p)) return a;
    typename G::MoveList moves;
    game_.generate(p, moves);
    for (int i = 0; i < moves.size(); ++i) {
      const auto undo = game_.make(p, moves[i]);
      const auto child = value(p);  // reached: every child of a reached position was
      game_.unmake(p, moves[i], undo);
      a.moves.push_back({moves[i], mover_value(*child)});
    }
    return a;
  }

 private:
  using Id = typename PositionGraph<G>::Id;

  void solve() {
    graph_.reverse();
    values_ = label_sides(graph_, memory_, options_.show_progress);
    for (std::uint32_t word : values_) {
      const WdlValue v = unpack_wdl(word);
      if (v.wdl == Wdl::win) {
        ++report_.wins;
        report_.longest_win = std::max(report_.longest_win, v.distance);
      } else if (v.wdl == Wdl::loss) {
        ++report_.losses;
        report_.longest_loss = std::max(report_.longest_loss, v.distance);
      } else {
        ++report_.draws;
      }
    }
  }

  const G& game_;
  CyclicSolveOptions options_;
  CyclicSolveReport report_;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  CountedMemory memory_;
  PositionGraph<G> graph_;             // explored in the constructor's initialisers
  std::vector<std::uint32_t> values_;  // id -> packed value
};

}  // namespace solver
