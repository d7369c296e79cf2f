// Forward search per coalition for games of more than two players whose play can cycle (the class
// of coalition_game.h: Nevsky checkers): for a position too large to explore whole (the full game,
// 6x6 with six men each), each coalition's exact win or loss with its distance where one is forced
// within D plies, "nothing forced within D" otherwise. Never a guess: a draw cannot be proven by a
// bounded search (coalition_retrograde.h proves draws, by exploring everything reachable).
//
// The question
// "Does coalition S force a win within d plies of p?": at a finished position, yes when every
// player left is in S (a win in 0); else, with d > 0, some move when the player to move is in S,
// every move otherwise, must lead to a child where S forces a win within d - 1. That is the game
// cut off after d plies, and its answer is yes exactly when S's true value (coalition_game.h: the
// winner hurries, the loser delays) is a win in at most d plies, by induction on d. S's loss is
// its complement's win, with the same distance. Unlike two sides in turn, a coalition may move
// several times in a row, so a distance's parity says nothing: each depth asks both S and its
// complement, and the first yes is the exact distance.
//
// Why cycles do no harm: as in cyclic_search.h, a question is about the position alone (the rule
// book has no repetition rule), so a cycle on the search path is the same question with fewer
// plies left, and the answers kept in the table stay facts.
//
// The table keeps, for each canonical position and coalition (named as in the canonical image:
// coalition_game.h's canonical_form renames the players, so one entry serves every symmetric
// image), the deepest d proven "no win within d" and the least d proven "a win within d": both are
// facts, so the table may be emptied when full (capped_map.h) and only time is lost; a question
// that alone fills it stops the search (SearchStop::memory).
//
// Move order: one cheap pass over the children first, so that a finished child decides at once
// (a move that wins for S, or one that ends the game against it); the last ply asks nothing else,
// so the frontier computes no keys.
#pragma once

#include <absl/hash/hash.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "solver/capped_map.h"
#include "solver/coalition_game.h"
#include "solver/cyclic_search.h"
#include "solver/wdl.h"

namespace solver {

// Each coalition's value at one position as far as the search decided it.
struct CoalitionBounded {
  // values[s] for coalition s (bit q for player q, 0 < s < 2^players - 1), from S's side: an exact
  // win or loss, or none (nothing forced within `depth` plies). Entries 0 and 2^players - 1 unused.
  std::vector<std::optional<WdlValue>> values;
  int depth = 0;  // every coalition without a value has none forced within this many plies
  SearchStop stop = SearchStop::none;
};

// One answer of the search: coalition `side` does (or does not) force a win within `plies`.
struct CoalitionAnswer {
  std::uint32_t side = 0;
  int plies = 0;
  bool wins = false;
  bool operator==(const CoalitionAnswer&) const = default;
};

template <CoalitionGame G>
class CoalitionSearch {
 public:
  using Position = typename G::Position;
  using Key = typename G::Key;

  // by_symmetry false: answers kept by raw position, the game's canonical forms never asked (a
  // check of tables solved through those forms then shares nothing with them but the rules).
  CoalitionSearch(const G& game, std::uint64_t memory_bytes, bool by_symmetry = true)
      : game_(game), table_(memory_bytes), by_symmetry_(by_symmetry) {
    if (!game.keys_fit())
      throw std::invalid_argument("this variant's positions do not fit exact 128-bit keys");
    if (game.players() < 2 || game.players() > 8)
      throw std::invalid_argument("the coalition search takes 2 to 8 players");
  }

  // Every coalition's value at p by iterative deepening, d = 0, 1, 2, ... up to limits.max_depth:
  // at each depth every coalition not yet decided is asked whether it forces a win within d; a
  // yes is its exact win in d and its complement's loss in d. A time or memory stop leaves the
  // depth reached and the values found before it.
  CoalitionBounded analyze(const Position& p, CyclicSearchLimits limits) {
    start_ = std::chrono::steady_clock::now();
    seconds_ = limits.seconds;
    const std::uint32_t everyone = (1u << game_.players()) - 1;
    CoalitionBounded out;
    out.values.assign(everyone + 1, std::nullopt);
    int open = int(everyone) - 1;
    for (int d = 0; d <= limits.max_depth && open > 0; ++d) {
      for (std::uint32_t s = 1; s < everyone; ++s) {
        if (out.values[s]) continue;
        const std::optional<bool> wins = ask(p, s, d);
        if (!wins) {
          out.stop = stop_;
          return out;
        }
        if (*wins) {
          out.values[s] = WdlValue{Wdl::win, d};
          out.values[everyone & ~s] = WdlValue{Wdl::loss, d};
          open -= 2;
        }
      }
      out.depth = d;
    }
    return out;
  }

  // Does coalition s (neither empty nor everyone) force a win within d plies of p? Exact ("The
  // question" above). Throws SearchMemoryError when the question alone fills the table.
  bool forces_win_within(const Position& p, std::uint32_t s, int d) {
    start_ = std::chrono::steady_clock::now();
    seconds_ = 0;
    const std::optional<bool> wins = ask(p, s, d);
    if (!wins)
      throw SearchMemoryError("the coalition search's table cannot hold one question to " +
                              std::to_string(d) + " plies");
    return *wins;
  }

  // Checks `claimed` as coalition s's value at p by the fewest questions that decide it, each asked
  // at the one depth it needs (no deepening: "the first yes" is not needed when the distance to
  // confirm is given), and returns the first answer against it, or nullopt when every answer
  // agrees:
  // - a win in d: "s wins within d" yes and, for d > 0, "s wins within d - 1" no. Exact: by "The
  //   question", s's value is then a win in exactly d;
  // - a loss in d: the same of s's complement (s's loss is its complement's win);
  // - a draw: "s wins within `longest`" and "its complement wins within `longest`" both no, which
  //   proves that neither forces a result within `longest` plies, not that none is forced
  //   further away: no bounded search proves a draw. With `longest` the longest distance of any
  //   value a table holds, a draw it stores where a result is forced within that distance is
  //   caught.
  // The answers are kept in the table, so the complement's claim (the mirror of s's) costs little
  // after s's. Throws SearchMemoryError when one question alone fills the table.
  std::optional<CoalitionAnswer> refutation(const Position& p, std::uint32_t s, WdlValue claimed,
                                            int longest) {
    const std::uint32_t rest = ((1u << game_.players()) - 1) & ~s;
    std::vector<CoalitionAnswer> expected;
    if (claimed.wdl == Wdl::draw) {
      expected = {{s, longest, false}, {rest, longest, false}};
    } else {
      const std::uint32_t winner = claimed.wdl == Wdl::win ? s : rest;
      expected = {{winner, claimed.distance, true}};
      if (claimed.distance > 0) expected.push_back({winner, claimed.distance - 1, false});
    }
    for (const CoalitionAnswer& e : expected)
      if (forces_win_within(p, e.side, e.plies) != e.wins)
        return CoalitionAnswer{e.side, e.plies, !e.wins};
    return std::nullopt;
  }

  std::uint64_t nodes() const { return nodes_; }
  std::uint64_t positions_stored() const { return table_.size(); }
  std::uint64_t table_bytes() const { return table_.bytes(); }
  std::uint64_t table_clears() const { return clears_; }

 private:
  struct Entry {
    Key key;
    std::uint32_t coalition;  // as named in the canonical image (or the position, by raw key)
    bool operator==(const Entry&) const = default;
    template <typename H>
    friend H AbslHashValue(H h, const Entry& e) {
      return H::combine(std::move(h), e.key.mix(), e.coalition);
    }
  };
  struct Bounds {
    int no_win_within = -1;    // no win within this many plies (-1: nothing known)
    int win_within = 1 << 30;  // a win within this many plies (2^30: nothing known)
  };
  struct Stopped {};  // unwinds a question stopped by the clock (a full table throws
                      // SearchMemoryError, which ask() handles)

  // One question at the root: yes, no, or none when stopped. A full table is emptied and the
  // question asked again, once.
  std::optional<bool> ask(const Position& p, std::uint32_t s, int d) {
    for (bool cleared = false;; cleared = true) {
      try {
        Position q = p;
        return wins_within(q, s, d);
      } catch (const Stopped&) {
        return std::nullopt;
      } catch (const SearchMemoryError&) {
        table_.clear();
        ++clears_;
        if (cleared) {
          stop_ = SearchStop::memory;
          return std::nullopt;
        }
      }
    }
  }

  Entry entry_of(const Position& p, std::uint32_t s) const {
    if (!by_symmetry_) return {game_.raw_key(p), s};
    const CanonicalImage<Key> image = canonical_image(game_, p);
    return {image.key, image.renaming.rename(s)};
  }

  bool finished(const Position& p) const {
    return game_.is_terminal(p) || game_.count_moves(p) == 0;
  }
  bool wins_finished(const Position& p, std::uint32_t s) const {
    return (std::uint32_t(game_.players_left(p)) & ~s) == 0;
  }

  // Does s force a win within d plies of p? p is restored before returning.
  bool wins_within(Position& p, std::uint32_t s, int d) {
    if (finished(p)) return wins_finished(p, s);
    return d > 0 && wins_unfinished(p, s, d);
  }

  // The same for p not finished and d > 0.
  bool wins_unfinished(Position& p, std::uint32_t s, int d) {
    if ((++nodes_ & 4095) == 0 && seconds_ > 0 &&
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count() >
            seconds_) {
      stop_ = SearchStop::time;
      throw Stopped{};
    }
    const bool chooses = (s >> game_.player_to_move(p) & 1) != 0;
    typename G::MoveList moves;
    game_.generate(p, moves);
    // The cheap pass: a finished child decides for the side that chooses it. Which children are
    // not finished is kept (the first 64; later ones are looked at again), so that finding out,
    // which generates a child's moves, is done once a child.
    std::uint64_t open = 0;
    bool any_open = false;
    for (int i = 0; i < int(moves.size()); ++i) {
      const auto undo = game_.make(p, moves[i]);
      const bool done = finished(p);
      const bool won = done && wins_finished(p, s);
      game_.unmake(p, moves[i], undo);
      if (done && won == chooses) return won;
      if (!done && i < 64) open |= std::uint64_t{1} << i;
      any_open = any_open || !done;
    }
    // Every finished child went against the chooser; a last ply has nothing else to ask.
    if (!any_open) return !chooses;
    if (d == 1) return false;

    const Entry entry = entry_of(p, s);
    if (const Bounds* b = table_.find(entry)) {
      if (d <= b->no_win_within) return false;
      if (d >= b->win_within) return true;
    }
    bool wins = !chooses;
    for (int i = 0; i < int(moves.size()); ++i) {
      if (i < 64 && !(open >> i & 1)) continue;  // finished: it decides nothing (above)
      const auto undo = game_.make(p, moves[i]);
      const bool child =
          i < 64 ? wins_unfinished(p, s, d - 1) : !finished(p) && wins_unfinished(p, s, d - 1);
      game_.unmake(p, moves[i], undo);
      if (child == chooses) {
        wins = chooses;
        break;
      }
    }
    Bounds& b = table_[entry];
    if (wins)
      b.win_within = std::min(b.win_within, d);
    else
      b.no_win_within = std::max(b.no_win_within, d);
    return wins;
  }

  const G& game_;
  CappedMap<Entry, Bounds> table_;
  bool by_symmetry_;
  std::chrono::steady_clock::time_point start_;
  double seconds_ = 0;
  SearchStop stop_ = SearchStop::none;
  std::uint64_t nodes_ = 0, clears_ = 0;
};

}  // namespace solver
