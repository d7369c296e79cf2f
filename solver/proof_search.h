// Proof search: the win/loss value of one position, proven by a boolean negamax over an AND/OR
// tree with an exact, shared transposition table (proof_table.h). Class of game: two players
// taking turns (TwoPlayerGame), win/loss, acyclic, keyed. In a game without draws whose
// every move brings the end nearer, "does the side to move win?" needs no depth and no bounds:
// a node is a win as soon as one child is a loss, a loss once every child is a win, and each
// answer is final, so it is stored once and shared by all threads and later runs.
//
// Cost is decided by move ordering at the winner's nodes (one good move ends the node) and by how
// many children the loser's nodes have. The orderings below are the game-specific ideas the
// issue asks to measure; each can be switched off:
//   immediate_wins    a move that leaves the opponent no legal move ends the node at once;
//   mirror_reply      the half-turn image of the opponent's last move first, when it makes the
//                     board its own half-turn image with colours swapped again (the second
//                     player's copying strategy);
//   symmetry_pruning  in a position fixed by a board symmetry, skip moves whose result is an
//                     image of an earlier move's result (same value, same proof);
//   mobility          moves that leave the opponent the fewest replies first (a cheap stand-in
//                     for proof numbers: few replies, small AND node).
//
// Parallelism: the first `split_plies` plies are split across threads (oneTBB tasks pulling the
// moves in order from a shared counter, so the best-ordered moves start first); below them each
// thread searches alone, sharing the table. A win found at a split node stops its siblings.
//
// The game plugs in through KeyedGame; what the orderings need of its symmetries comes from a
// MoveSymmetry object (NoMoveSymmetry knows none), and an optional oracle (for example endgame
// tables) decides positions before they are expanded.
#pragma once

#include <tbb/enumerable_thread_specific.h>
#include <tbb/task_arena.h>
#include <tbb/task_group.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "solver/game_concept.h"
#include "solver/parallel_for.h"
#include "solver/proof_counters.h"
#include "solver/proof_table.h"
#include "solver/turn_order.h"

namespace solver {

enum class Proof : std::uint8_t { kLoss, kWin, kUnknown };  // for the side to move

struct ProofOptions {
  bool immediate_wins = true;
  // bench/proof_bench.cpp: it costs nodes on the smallest rungs (4x4:NBK, 3x3:NBRK) but saves
  // them on 4x4:NBRK, the largest measured, so it is on.
  bool mirror_reply = true;
  bool symmetry_pruning = true;
  bool mobility = true;
  int threads = 1;
  int split_plies = 2;  // plies from the root searched by all threads together
};

// A split node, shared by the proof searches: its `count` children searched by up to `threads`
// threads (the caller's and oneTBB tasks), which take them in order from a shared counter.
// search_child(i, stop) searches child i and returns its value for its own side to move; a
// child lost for its mover wins the node and sets `stop` for the others.
template <typename SearchChild>
Proof prove_split_node(int count, int threads, const LinkedStop& parent, SearchChild search_child) {
  LinkedStop here;
  here.parent = &parent;
  std::atomic<int> next{0}, wins{0};
  std::atomic<bool> won{false};
  auto worker = [&] {
    for (int i; !here.stopped() && (i = next.fetch_add(1)) < count;) {
      const Proof r = search_child(i, here);
      if (r == Proof::kLoss) {
        won.store(true);
        here.flag.store(true, std::memory_order_relaxed);
      } else if (r == Proof::kWin) {
        wins.fetch_add(1);
      }
    }
  };
  const int helpers = std::min(count, threads) - 1;
  HappensBefore finished;  // oneTBB's ordering, for ThreadSanitizer (parallel_for.h)
  auto helper = [&] {
    worker();
    finished.release();
  };
  tbb::task_group group;
  for (int t = 0; t < helpers; ++t) group.run(OrderedTask(helper));
  worker();
  group.wait();
  finished.acquire();
  if (won.load()) return Proof::kWin;
  return wins.load() == count ? Proof::kLoss : Proof::kUnknown;
}

// A game that exposes none of its symmetries: no pruning, no mirror reply.
struct NoMoveSymmetry {
  template <typename Position>
  std::uint32_t stabilizer(const Position&) const {
    return 1;  // the identity alone
  }
  template <typename Move>
  Move image(Move m, int) const {
    return m;
  }
  int half_turn() const { return -1; }
  template <typename Position>
  bool mirrored(const Position&) const {
    return false;
  }
};

// What the orderings need of a game's symmetry group, indexed 0 (identity) to 31.
template <typename S, typename G>
concept MoveSymmetry = requires(const S& s, const typename G::Position& p, typename G::Move m) {
  // Bit i set when symmetry i maps p onto itself.
  { s.stabilizer(p) } -> std::convertible_to<std::uint32_t>;
  // The move m becomes in the image of its position under symmetry i.
  { s.image(m, 0) } -> std::same_as<typename G::Move>;
  // The index of the 180-degree rotation, or -1.
  { s.half_turn() } -> std::convertible_to<int>;
  // Whether p is its own half-turn image with the colours swapped.
  { s.mirrored(p) } -> std::same_as<bool>;
};

struct NoProofOracle {
  template <typename Position>
  std::optional<bool> operator()(const Position&) const {
    return std::nullopt;
  }
};

template <KeyedGame G, MoveSymmetry<G> Symmetry = NoMoveSymmetry, typename Oracle = NoProofOracle>
requires TwoPlayerGame<G>
class ProofSearch {
 public:
  using Position = typename G::Position;
  using Move = typename G::Move;
  using Key = typename G::Key;
  using Table = ProofTable<Key>;

  ProofSearch(const G& game, Table& table, ProofOptions options = {}, Symmetry symmetry = {},
              Oracle oracle = {})
      : game_(game),
        table_(table),
        options_(options),
        symmetry_(std::move(symmetry)),
        oracle_(std::move(oracle)),
        arena_(std::max(1, options.threads)) {}

  // The value of p for its side to move; kUnknown only if stop() was called.
  Proof prove(Position p) {
    Proof result;
    arena_.execute([&] { result = search(p, Move(), false, 0, stopper_, locals_.local()); });
    return result;
  }

  // prove(p) for a position reached by `last` inside a larger tree whose top another process
  // searches (mpi/mpi_proof_search.h): the mirror reply ordering sees the move as it would there.
  Proof prove_after(Position p, Move last) {
    Proof result;
    arena_.execute([&] { result = search(p, last, true, 0, stopper_, locals_.local()); });
    return result;
  }

  // The moves the search tries in p (reached by `last`, none at the root), in its order: images
  // of earlier moves under p's symmetries left out, and only the move that wins at once when
  // there is one. For a caller that splits the top of the tree itself.
  std::vector<Move> moves_in_order(Position p, std::optional<Move> last) const {
    Ordered order;
    if (const auto win = order_moves(p, last.value_or(Move()), last.has_value(), order))
      return {*win};
    return {order.moves, order.moves + order.size};
  }

  // A move that wins in p, if p is a win (searching children as needed, on this thread).
  std::optional<Move> winning_move(Position p) {
    Ordered order;
    Local& local = locals_.local();
    if (const auto win = order_moves(p, Move(), false, order)) return win;
    for (int i = 0; i < order.size; ++i) {
      const auto undo = game_.make(p, order.moves[i]);
      const Proof child = search(p, order.moves[i], true, options_.split_plies, stopper_, local);
      game_.unmake(p, order.moves[i], undo);
      if (child == Proof::kLoss) return order.moves[i];
    }
    return std::nullopt;
  }

  // What the table already knows of p (terminal positions are losses), without searching.
  std::optional<bool> known(const Position& p) {
    if (game_.is_terminal(p)) return false;
    const auto hit = table_.probe(game_.canonical_key(p));
    return hit ? std::optional<bool>(hit->win) : std::nullopt;
  }

  // Makes every running search return kUnknown soon; thread-safe, also from a signal watcher.
  void stop() { stopper_.flag.store(true, std::memory_order_relaxed); }
  bool stopped() const { return stopper_.stopped(); }

  // Totals over all threads; may lag a running search slightly.
  ProofStats stats() const {
    ProofStats s;
    for (const Local& l : locals_) l.add_to(s);
    return s;
  }

 private:
  using Stopper = LinkedStop;

  struct Local : ProofCounters {
    std::uint64_t credit = 0;  // nodes spared by table hits so far (saturating)
  };
  static constexpr std::uint64_t kMaxCredit = std::uint64_t{1} << 62;

  struct Ordered {
    Move moves[G::MoveList::kCapacity];
    int size = 0;
  };

  // Fills `order` with the moves of p to search, best first. Returns a move that wins at once
  // (the opponent has no reply) when immediate_wins finds one.
  std::optional<Move> order_moves(Position& p, Move last, bool has_last, Ordered& order) const {
    typename G::MoveList all;
    game_.generate(p, all);
    const std::uint32_t stabilizer = options_.symmetry_pruning ? symmetry_.stabilizer(p) : 1u;
    order.size = 0;
    for (int i = 0; i < all.size(); ++i)
      if (stabilizer == 1 || !image_of_earlier(all[i], stabilizer, order))
        order.moves[order.size++] = all[i];

    if (!options_.immediate_wins && !options_.mobility) {
      if (options_.mirror_reply && has_last) bring_mirror_first(p, last, order);
      return std::nullopt;
    }
    // One pass over the children: a child without moves is an immediate win; the others are
    // scored by their number of replies when ordering by mobility.
    std::uint16_t replies[G::MoveList::kCapacity];
    for (int i = 0; i < order.size; ++i) {
      const auto undo = game_.make(p, order.moves[i]);
      if (options_.mobility) {
        replies[i] = std::uint16_t(game_.count_moves(p));
      } else {
        replies[i] = game_.is_terminal(p) ? 0 : 1;
      }
      game_.unmake(p, order.moves[i], undo);
      if (options_.immediate_wins && replies[i] == 0) return order.moves[i];
    }
    if (options_.mobility) {
      // Insertion sort: stable, and the lists are short.
      for (int i = 1; i < order.size; ++i)
        for (int j = i; j > 0 && replies[j] < replies[j - 1]; --j) {
          std::swap(replies[j], replies[j - 1]);
          std::swap(order.moves[j], order.moves[j - 1]);
        }
    }
    if (options_.mirror_reply && has_last) bring_mirror_first(p, last, order);
    return std::nullopt;
  }

  bool image_of_earlier(Move m, std::uint32_t stabilizer, const Ordered& kept) const {
    for (int s = 1; s < 32; ++s) {
      if (!(stabilizer >> s & 1)) continue;
      const Move image = symmetry_.image(m, s);
      for (int i = 0; i < kept.size; ++i)
        if (kept.moves[i] == image) return true;
    }
    return false;
  }

  void bring_mirror_first(Position& p, Move last, Ordered& order) const {
    const int half_turn = symmetry_.half_turn();
    if (half_turn < 0) return;
    const Move mirror = symmetry_.image(last, half_turn);
    for (int i = 0; i < order.size; ++i)
      if (order.moves[i] == mirror) {
        const auto undo = game_.make(p, mirror);
        const bool restores = symmetry_.mirrored(p);
        game_.unmake(p, mirror, undo);
        if (restores) std::rotate(order.moves, order.moves + i, order.moves + i + 1);
        return;
      }
  }

  Proof search(Position& p, Move last, bool has_last, int ply, const Stopper& stopper,
               Local& local) {
    if (stopper.stopped()) return Proof::kUnknown;
    ProofCounters::bump(local.nodes);
    if (const auto decided = oracle_(p)) {
      ProofCounters::bump(local.oracle_hits);
      return *decided ? Proof::kWin : Proof::kLoss;
    }
    if (game_.is_terminal(p)) return Proof::kLoss;
    const Key key = game_.canonical_key(p);
    if (const auto hit = table_.probe(key)) {
      ProofCounters::bump(local.table_hits);
      // The hit spared the nodes that proved it: credit them to the ancestors' work.
      if (hit->work_log2 > 0)
        local.credit =
            std::min(local.credit + (std::uint64_t{1} << (hit->work_log2 - 1)), kMaxCredit);
      return hit->win ? Proof::kWin : Proof::kLoss;
    }
    const std::uint64_t nodes_before = local.nodes.load(std::memory_order_relaxed);
    const std::uint64_t credit_before = local.credit;
    Ordered order;
    Proof result;
    if (order_moves(p, last, has_last, order)) {
      result = Proof::kWin;
    } else if (ply < options_.split_plies && order.size > 1 && options_.threads > 1) {
      result = split(p, order, ply, stopper);
    } else {
      result = Proof::kLoss;
      for (int i = 0; i < order.size && result == Proof::kLoss; ++i) {
        const auto undo = game_.make(p, order.moves[i]);
        const Proof child = search(p, order.moves[i], true, ply + 1, stopper, local);
        game_.unmake(p, order.moves[i], undo);
        if (child == Proof::kLoss) result = Proof::kWin;
        if (child == Proof::kUnknown) result = Proof::kUnknown;
      }
    }
    if (result == Proof::kUnknown) return result;
    // A node's work counts the nodes it searched and those its table hits spared, so an entry
    // proven cheaply from costly ones is still costly to lose. A split node's subtree was
    // searched by several threads: count it as the largest, so checkpoints keep the tree's top.
    const int work = ply < options_.split_plies
                         ? 63
                         : work_log2(local.nodes.load(std::memory_order_relaxed) - nodes_before +
                                     (local.credit - credit_before));
    table_.store(key, result == Proof::kWin, work);
    ProofCounters::bump(result == Proof::kWin ? local.proven : local.disproven);
    return result;
  }

  // Searches the children of p on every thread of the arena, in order; a losing child (a win
  // here) stops the others.
  Proof split(const Position& p, const Ordered& order, int ply, const Stopper& parent) {
    return prove_split_node(order.size, options_.threads, parent, [&](int i, const Stopper& here) {
      Position child = p;
      game_.make(child, order.moves[i]);
      return search(child, order.moves[i], true, ply + 1, here, locals_.local());
    });
  }

  const G& game_;
  Table& table_;
  ProofOptions options_;
  Symmetry symmetry_;
  Oracle oracle_;
  Stopper stopper_;
  tbb::enumerable_thread_specific<Local> locals_;
  tbb::task_arena arena_;
};

}  // namespace solver
