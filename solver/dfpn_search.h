// Depth-first proof-number search (df-pn, Nagai 2002) for the win/loss value of a position in a
// game without draws or cycles, the alternative to the boolean negamax of proof_search.h. Class
// of game: two players taking turns (TwoPlayerGame), win/loss, acyclic, keyed.
//
// Every position carries two numbers for its side to move: phi, the proof number (how many leaves
// must still be shown won to prove a win), and delta, the disproof number (the same for a loss).
// In negamax form, phi(n) = min over children of delta(c) and delta(n) = sum over children of
// phi(c). The search always descends into the child with the least delta, the cheapest-looking
// way to a win, and stays below it until its numbers pass thresholds derived from the parent's
// (the second-best sibling's delta, the sum of the others' phi); so it proves with little memory
// what a best-first proof-number search would, and finds a win at an OR node without finishing
// the losing moves tried before it, which the negamax must.
//
// Safeguards and knowledge:
//   1 + epsilon   the best child's delta threshold is the second-best's delta times 1 + epsilon
//                 (Pawlewicz and Lew 2007), not plus one: the search does not bounce between two
//                 children of almost equal numbers, re-expanding both each time ("thrashing");
//   bounded table unfinished positions keep their numbers in DfpnTable (replacing the cheapest
//                 subtree); decided ones go to the exact ProofTable, shared with the negamax, so
//                 checkpoints, certificates and --all-moves read them unchanged;
//   leaf numbers  a child not yet expanded starts at phi = 1 and delta = its number of replies
//                 (mobility: a loss needs every reply refuted), or 1 with mobility off, both
//                 scaled up near the root (`deep`, below); the oracle
//                 (endgame tables), the proof table and terminal positions decide a child outright,
//                 so a move that leaves the opponent no move proves its node at once;
//   symmetry      in a position fixed by a board symmetry, moves whose result is an image of an
//                 earlier move's are skipped; the mirror reply comes first among children of equal
//                 delta (the second player's copying strategy, as in proof_search.h).
//
// Threads: the first `split_plies` plies are split across threads exactly as in the negamax (the
// children of a split node pulled in order from a shared counter, a win stopping the siblings),
// each thread running df-pn below them; both tables are shared.
#pragma once

#include <tbb/enumerable_thread_specific.h>
#include <tbb/task_arena.h>
#include <tbb/task_group.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <optional>
#include <utility>

#include "solver/dfpn_table.h"
#include "solver/game_concept.h"
#include "solver/parallel_for.h"
#include "solver/proof_counters.h"
#include "solver/proof_search.h"
#include "solver/proof_table.h"
#include "solver/turn_order.h"

namespace solver {

struct DfpnOptions {
  bool mirror_reply = true;
  bool symmetry_pruning = true;
  bool mobility = true;   // unexpanded children's delta = their number of replies (else 1)
  double epsilon = 0.25;  // the 1 + epsilon threshold; 0 is Nagai's plain df-pn
  int threads = 1;
  int split_plies = 2;  // plies from the root searched by all threads together
  // Deep df-pn (Ishitobi et al. 2015): a fresh child `depth` plies below the search's root
  // starts with its numbers times max(1, deep - depth), so shallow unexplored moves look dearer
  // than deep ones and the search dives instead of widening. Without it (0) a position with many
  // moves of many replies each is widened level by level and reaches no end of the game in
  // millions of nodes (4x4:NBRRQK: 4.6 M nodes, nothing proven).
  int deep = 10;
};

template <KeyedGame G, MoveSymmetry<G> Symmetry = NoMoveSymmetry, typename Oracle = NoProofOracle>
requires TwoPlayerGame<G>
class DfpnSearch {
 public:
  using Position = typename G::Position;
  using Move = typename G::Move;
  using Key = typename G::Key;
  using Table = ProofTable<Key>;
  using NumberTable = DfpnTable<Key>;

  DfpnSearch(const G& game, Table& proven, NumberTable& numbers, DfpnOptions options = {},
             Symmetry symmetry = {}, Oracle oracle = {})
      : game_(game),
        proven_(proven),
        numbers_(numbers),
        options_(options),
        symmetry_(std::move(symmetry)),
        oracle_(std::move(oracle)),
        arena_(std::max(1, options.threads)) {}

  // The value of p for its side to move; kUnknown only if stop() was called.
  Proof prove(Position p) {
    Proof result;
    arena_.execute([&] { result = value(p, Move(), false, 0, stopper_, locals_.local()); });
    return result;
  }

  // A move that wins in p, if p is a win (searching on this thread as needed).
  std::optional<Move> winning_move(Position p) {
    if (game_.is_terminal(p)) return std::nullopt;
    Local& local = locals_.local();
    Children children;
    if (const auto win = expand(p, Move(), false, children, local)) return win;
    // Searched again from p itself, whose own table entry would answer at once.
    Move proof_move;
    return solve(p, Move(), false, stopper_, local, &proof_move) == Proof::kWin
               ? std::optional<Move>(proof_move)
               : std::nullopt;
  }

  // What the proof table already knows of p (terminal positions are losses), without searching.
  std::optional<bool> known(const Position& p) {
    if (game_.is_terminal(p)) return false;
    const auto hit = proven_.probe(game_.canonical_key(p));
    return hit ? std::optional<bool>(hit->win) : std::nullopt;
  }

  // Makes every running search return kUnknown soon; thread-safe, also from a signal watcher.
  void stop() { stopper_.flag.store(true, std::memory_order_relaxed); }
  bool stopped() const { return stopper_.stopped(); }

  // Totals over all threads; may lag a running search slightly. nodes counts expansions (each
  // generates a position's moves and looks up every child); table_hits and oracle_hits count the
  // children those lookups decided.
  ProofStats stats() const {
    ProofStats s;
    for (const Local& l : locals_) l.add_to(s);
    return s;
  }

 private:
  static constexpr std::uint32_t kInf = UINT32_MAX;  // a decided number; sums stop below it

  struct Numbers {
    std::uint32_t phi, delta;
  };
  static constexpr Numbers kWon{0, kInf}, kLost{kInf, 0};
  // A split node's subtree was searched by several threads: count it as the largest, so
  // checkpoints keep the tree's top (as the negamax does).
  static constexpr std::uint64_t kSplitWork = std::uint64_t{1} << 62;

  using Stopper = LinkedStop;

  struct Local : ProofCounters {
    int depth = 0;  // of the mid() running on this thread, below its search's root
  };

  // The children of one node, in the order ties are broken, with their current numbers (for
  // the child's side to move).
  struct Children {
    Move moves[G::MoveList::kCapacity];
    Numbers numbers[G::MoveList::kCapacity];
    int size = 0;
  };

  // What is known of a position without expanding it (p is restored on return).
  Numbers lookup(Position& p, Local& local) {
    if (game_.is_terminal(p)) return kLost;
    if (const auto decided = oracle_(p)) {
      ProofCounters::bump(local.oracle_hits);
      return *decided ? kWon : kLost;
    }
    const Key key = game_.canonical_key(p);
    if (const auto hit = proven_.probe(key)) {
      ProofCounters::bump(local.table_hits);
      return hit->win ? kWon : kLost;
    }
    if (const auto n = numbers_.probe(key)) return {n->phi, n->delta};
    return {1, options_.mobility ? std::uint32_t(game_.count_moves(p)) : 1u};
  }

  // Fills `children` with the moves of p and their numbers, counted as one node. Returns a
  // move whose result is decided lost for the opponent, if there is one: p is won. In two passes:
  // the first makes each child and starts loading its table buckets, the second reads them, so
  // the cache misses of all the children overlap (they are most of the time of a node).
  // Not inlined: its scratch arrays are off the stack before mid() recurses.
  [[gnu::noinline]] std::optional<Move> expand(Position& p, Move last, bool has_last,
                                               Children& children, Local& local) {
    ProofCounters::bump(local.nodes);
    typename G::MoveList all;
    game_.generate(p, all);
    const std::uint32_t stabilizer = options_.symmetry_pruning ? symmetry_.stabilizer(p) : 1u;
    Key keys[G::MoveList::kCapacity];
    bool look_up[G::MoveList::kCapacity], fresh[G::MoveList::kCapacity];
    children.size = 0;
    for (int i = 0; i < all.size(); ++i) {
      if (stabilizer != 1 && image_of_earlier(all[i], stabilizer, children)) continue;
      const auto undo = game_.make(p, all[i]);
      const int k = children.size;
      const std::uint32_t replies = options_.mobility      ? std::uint32_t(game_.count_moves(p))
                                    : game_.is_terminal(p) ? 0
                                                           : 1;
      look_up[k] = fresh[k] = false;
      if (replies == 0) {
        children.numbers[k] = kLost;
      } else if (const auto decided = oracle_(p)) {
        ProofCounters::bump(local.oracle_hits);
        children.numbers[k] = *decided ? kWon : kLost;
      } else {
        keys[k] = game_.canonical_key(p);
        proven_.prefetch(keys[k]);
        numbers_.prefetch(keys[k]);
        const std::uint32_t scale = std::uint32_t(std::max(1, options_.deep - local.depth));
        children.numbers[k] = {scale, scale * replies};
        look_up[k] = fresh[k] = true;
      }
      game_.unmake(p, all[i], undo);
      if (children.numbers[k].delta == 0) return all[i];
      children.moves[children.size++] = all[i];
    }
    for (int k = 0; k < children.size; ++k) {
      if (!look_up[k]) continue;
      if (const auto hit = proven_.probe(keys[k])) {
        ProofCounters::bump(local.table_hits);
        if (!hit->win) return children.moves[k];
        children.numbers[k] = kWon;
        fresh[k] = false;
      } else if (const auto n = numbers_.probe(keys[k])) {
        children.numbers[k] = {n->phi, n->delta};
        fresh[k] = false;
      }
    }
    if (options_.mirror_reply && has_last) bring_mirror_first(p, last, children, fresh);
    return std::nullopt;
  }

  bool image_of_earlier(Move m, std::uint32_t stabilizer, const Children& kept) const {
    for (int s = 1; s < 32; ++s) {
      if (!(stabilizer >> s & 1)) continue;
      const Move image = symmetry_.image(m, s);
      for (int i = 0; i < kept.size; ++i)
        if (kept.moves[i] == image) return true;
    }
    return false;
  }

  // fresh[i]: child i's numbers are the leaf values, not from a table.
  void bring_mirror_first(Position& p, Move last, Children& children, const bool* fresh) const {
    const int half_turn = symmetry_.half_turn();
    if (half_turn < 0) return;
    const Move mirror = symmetry_.image(last, half_turn);
    for (int i = 0; i < children.size; ++i)
      if (children.moves[i] == mirror) {
        const auto undo = game_.make(p, mirror);
        const bool restores = symmetry_.mirrored(p);
        game_.unmake(p, mirror, undo);
        if (restores) {
          std::rotate(children.moves, children.moves + i, children.moves + i + 1);
          std::rotate(children.numbers, children.numbers + i, children.numbers + i + 1);
          // Not yet expanded: the copying strategy's move looks as cheap as a move can here.
          if (fresh[i]) children.numbers[0].delta = children.numbers[0].phi;
        }
        return;
      }
  }

  // The value of p with its threads: split as the negamax splits near the root, df-pn below.
  Proof value(Position& p, Move last, bool has_last, int ply, const Stopper& stopper,
              Local& local) {
    if (stopper.stopped()) return Proof::kUnknown;
    const Numbers known = lookup(p, local);
    if (known.phi == 0) return Proof::kWin;
    if (known.delta == 0) return Proof::kLoss;
    if (ply < options_.split_plies && options_.threads > 1) {
      Children children;
      if (expand(p, last, has_last, children, local)) {
        store_decided(p, kWon, 1, local);
        return Proof::kWin;
      }
      if (children.size > 1) {
        // Cheapest-looking first, as df-pn would choose them (stable: ties keep their order).
        int order[G::MoveList::kCapacity];
        for (int i = 0; i < children.size; ++i) order[i] = i;
        std::stable_sort(order, order + children.size, [&](int a, int b) {
          return children.numbers[a].delta < children.numbers[b].delta;
        });
        const Proof result = split(p, children, order, ply, stopper);
        if (result != Proof::kUnknown)
          store_decided(p, result == Proof::kWin ? kWon : kLost, kSplitWork, local);
        return result;
      }
    }
    return solve(p, last, has_last, stopper, local, nullptr);
  }

  // df-pn from p with infinite thresholds: it returns only once p is decided (or stopped).
  Proof solve(Position& p, Move last, bool has_last, const Stopper& stopper, Local& local,
              Move* proof_move) {
    const auto n = mid(p, last, has_last, kInf, kInf, stopper, local, proof_move);
    return !n ? Proof::kUnknown : n->phi == 0 ? Proof::kWin : Proof::kLoss;
  }

  // Searches the children of p on every thread of the arena, in `order`; a losing child (a win
  // here) stops the others.
  Proof split(const Position& p, const Children& children, const int* order, int ply,
              const Stopper& parent) {
    return prove_split_node(children.size, options_.threads, parent,
                            [&](int i, const Stopper& here) {
                              const Move m = children.moves[order[i]];
                              Position child = p;
                              game_.make(child, m);
                              return value(child, m, true, ply + 1, here, locals_.local());
                            });
  }

  // A decided position leaves the number table for the proof table, with all the work spent on
  // it (the proof table keeps the costliest entries too, and checkpoints save them first).
  void store_decided(const Position& p, Numbers n, std::uint64_t work, Local& local) {
    const Key key = game_.canonical_key(p);
    work += numbers_.erase(key);
    proven_.store(key, n.phi == 0, work_log2(work));
    ProofCounters::bump(n.phi == 0 ? local.proven : local.disproven);
  }

  // Nagai's MID: expands p and searches below it until its numbers reach a threshold (phi >=
  // th_phi or delta >= th_delta) or p is decided; returns its numbers, nullopt if stopped. With
  // proof_move, the move that proved a win is written there.
  std::optional<Numbers> mid(Position& p, Move last, bool has_last, std::uint32_t th_phi,
                             std::uint32_t th_delta, const Stopper& stopper, Local& local,
                             Move* proof_move) {
    if (stopper.stopped()) return std::nullopt;
    const std::uint64_t nodes_before = local.nodes.load(std::memory_order_relaxed);
    Children children;
    Numbers n;
    if (const auto win = expand(p, last, has_last, children, local)) {
      if (proof_move) *proof_move = *win;
      n = kWon;
    } else {
      for (;;) {
        // phi = least delta (the first such child is the best), delta = sum of phi.
        int best = -1;
        std::uint32_t second = kInf;
        std::uint64_t sum = 0;
        for (int i = 0; i < children.size; ++i) {
          const Numbers c = children.numbers[i];
          sum += c.phi;
          if (best < 0 || c.delta < children.numbers[best].delta) {
            if (best >= 0) second = children.numbers[best].delta;
            best = i;
          } else if (c.delta < second) {
            second = c.delta;
          }
        }
        if (best < 0 || children.numbers[best].delta == kInf) {
          n = kLost;  // every child won by the opponent (or none left after pruning: none)
          break;
        }
        n = {children.numbers[best].delta, std::uint32_t(std::min<std::uint64_t>(sum, kInf - 1))};
        if (n.phi == 0) {
          if (proof_move) *proof_move = children.moves[best];
          n = kWon;
          break;
        }
        if (n.phi >= th_phi || n.delta >= th_delta) break;
        const Numbers b = children.numbers[best];
        // The child may grow its phi until the parent's delta reaches th_delta, and its delta
        // until it is no longer clearly the best: past the second-best's delta times 1 + eps.
        const std::uint64_t child_th_phi = std::uint64_t(th_delta) - (n.delta - b.phi);
        const std::uint64_t widened = std::max<std::uint64_t>(
            std::uint64_t(second) + 1,
            std::uint64_t(std::ceil(double(second) * (1 + options_.epsilon))));
        const std::uint64_t child_th_delta = std::min<std::uint64_t>(th_phi, widened);
        const Move m = children.moves[best];
        const auto undo = game_.make(p, m);
        ++local.depth;
        const auto c = mid(p, m, true, std::uint32_t(std::min<std::uint64_t>(child_th_phi, kInf)),
                           std::uint32_t(std::min<std::uint64_t>(child_th_delta, kInf)), stopper,
                           local, nullptr);
        game_.unmake(p, m, undo);
        --local.depth;
        if (!c) return std::nullopt;
        children.numbers[best] = *c;
      }
    }
    const std::uint64_t work = local.nodes.load(std::memory_order_relaxed) - nodes_before;
    if (n.phi == 0 || n.delta == 0) {
      store_decided(p, n, work, local);
    } else {
      numbers_.store(game_.canonical_key(p), {n.phi, n.delta},
                     std::uint32_t(std::min<std::uint64_t>(work, UINT32_MAX)));
    }
    return n;
  }

  const G& game_;
  Table& proven_;
  NumberTable& numbers_;
  DfpnOptions options_;
  Symmetry symmetry_;
  Oracle oracle_;
  Stopper stopper_;
  tbb::enumerable_thread_specific<Local> locals_;
  tbb::task_arena arena_;
};

}  // namespace solver
