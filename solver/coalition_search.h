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
// facts (with them, as a hint for the order of moves only, the move that last decided), so the
// table may be emptied when full (capped_map.h) and only time is lost; a question that alone fills
// it stops the search (SearchStop::memory).
//
// Settled without a search: a finished position (S wins when every player left is in S), and one
// where no player of S is left, where S never wins whatever the depth (the players left at the end
// are among those left now: coalition_game.h). Without this, S's question would go on searching
// the rest's game among themselves after S is out.
//
// Move order: one cheap pass over the children first, each made once, so that a settled child
// decides at once (a move that wins for S, or one that ends S's hopes), and, above the last ply,
// so does a child whose kept bounds already decide at one ply less (answers proven under another
// path are reused before any new search: the rest keep to a refutation they have shown, S to a
// win it has). The children left open are then searched in the order of how likely they are to
// decide: the move that decided the position's last question first, then by their kept bounds
// (for the rest the longest proven refutation, for S the shortest proven win). Order changes the
// cost, never the answer. The last ply asks nothing else, so the frontier computes no keys.
//
// A node budget per question (refutation, forces_win_within) stops a question that would visit
// more: it is then neither a yes nor a no (SearchNodeBudgetError), for a check to count as left
// open. A draw's question ("nothing forced within L") must look at every line of S within L plies
// and is the one that can need it: on a position of kings only, S's lines cover most of the
// positions of those kings, each proven again at every depth it is reached with.
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
#include "solver/progress.h"
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

// A question of the search visited more nodes than its budget (CoalitionSearch::refutation)
// before it was decided: neither a yes nor a no.
class SearchNodeBudgetError : public std::runtime_error {
 public:
  explicit SearchNodeBudgetError(const std::string& what) : std::runtime_error(what) {}
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
  // With a progress to report to (report_to), its done/total is the depths searched of 0 to
  // limits.max_depth and its rate the nodes searched.
  CoalitionBounded analyze(const Position& p, CyclicSearchLimits limits) {
    start_ = std::chrono::steady_clock::now();
    seconds_ = limits.seconds;
    const std::uint32_t everyone = (1u << game_.players()) - 1;
    CoalitionBounded out;
    out.values.assign(everyone + 1, std::nullopt);
    int open = int(everyone) - 1;
    for (int d = 0; d <= limits.max_depth && open > 0; ++d) {
      if (progress_) progress_->set_stage("searching depth " + std::to_string(d));
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
      if (progress_) progress_->advance();
    }
    // Every coalition decided before the last depth: the search is done, not stopped short.
    if (progress_ && open == 0) progress_->set_total(std::uint64_t(out.depth) + 1);
    return out;
  }

  // Does coalition s (neither empty nor everyone) force a win within d plies of p? Exact ("The
  // question" above). Throws SearchMemoryError when the question alone fills the table, and
  // SearchNodeBudgetError when it visits more than node_budget nodes (0: no budget).
  bool forces_win_within(const Position& p, std::uint32_t s, int d, std::uint64_t node_budget = 0) {
    start_ = std::chrono::steady_clock::now();
    seconds_ = 0;
    const std::optional<bool> wins = ask(p, s, d, node_budget);
    if (!wins && stop_ == SearchStop::none)
      throw SearchNodeBudgetError("the coalition search's question to " + std::to_string(d) +
                                  " plies visits more than " + std::to_string(node_budget) +
                                  " nodes");
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
  // after s's. Throws SearchMemoryError when one question alone fills the table, and
  // SearchNodeBudgetError when one visits more than node_budget nodes (0: no budget): the claim is
  // then neither confirmed nor refuted.
  std::optional<CoalitionAnswer> refutation(const Position& p, std::uint32_t s, WdlValue claimed,
                                            int longest, std::uint64_t node_budget = 0) {
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
      if (forces_win_within(p, e.side, e.plies, node_budget) != e.wins)
        return CoalitionAnswer{e.side, e.plies, !e.wins};
    return std::nullopt;
  }

  std::uint64_t nodes() const { return nodes_; }
  // Where analyze reports its depths and nodes (nullptr: nowhere); `progress` outlives the search.
  void report_to(Progress* progress) { progress_ = progress; }
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
    std::int16_t no_win_within = -1;      // no win within this many plies (-1: nothing known)
    std::int16_t win_within = INT16_MAX;  // a win within this many plies (INT16_MAX: unknown)
    std::uint8_t decisive = 0;            // 1 + the index of the move that decided last (0: none)
  };
  struct Stopped {};  // unwinds a question stopped by the clock or its node budget (a full table
                      // throws SearchMemoryError, which ask() handles)

  // One question at the root: yes, no, or none when stopped (stop_ says why: time, memory, or none
  // for a question past node_budget nodes; 0: no budget). A full table is emptied and the
  // question asked again, once.
  std::optional<bool> ask(const Position& p, std::uint32_t s, int d,
                          std::uint64_t node_budget = 0) {
    stop_ = SearchStop::none;
    last_node_ = node_budget ? nodes_ + node_budget : UINT64_MAX;
    for (bool cleared = false;; cleared = true) {
      try {
        open_.clear();
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

  // What s's win is at p whatever the depth, without a search: at a finished position, yes when
  // every player left is in s; where no player of s is left, no (the players left at the end are
  // among those left now); elsewhere unknown.
  std::optional<bool> settled(const Position& p, std::uint32_t s) const {
    if (finished(p)) return wins_finished(p, s);
    if ((std::uint32_t(game_.players_left(p)) & s) == 0) return false;
    return std::nullopt;
  }

  // Does s force a win within d plies of p? p is restored before returning.
  bool wins_within(Position& p, std::uint32_t s, int d) {
    if (const std::optional<bool> known = settled(p, s)) return *known;
    return d > 0 && wins_unfinished(p, s, d);
  }

  // The same for p not settled and d > 0.
  bool wins_unfinished(Position& p, std::uint32_t s, int d) {
    if (++nodes_ > last_node_) throw Stopped{};
    if ((nodes_ & 4095) == 0 && progress_) progress_->add_to_rate(4096);
    if ((nodes_ & 4095) == 0 && seconds_ > 0 &&
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count() >
            seconds_) {
      stop_ = SearchStop::time;
      throw Stopped{};
    }
    const bool chooses = (s >> game_.player_to_move(p) & 1) != 0;
    // A child "decides" when it answers for the side that chooses it: a win for s where s
    // chooses, none where the rest choose. One decisive child settles p; else every child must
    // be searched where the rest can find none.
    std::optional<Entry> entry;
    int hint = -1;
    if (d > 1) {
      entry = entry_of(p, s);
      if (const Bounds* b = table_.find(*entry)) {
        if (d <= b->no_win_within) return false;
        if (d >= b->win_within) return true;
        hint = int(b->decisive) - 1;
      }
    }
    typename G::MoveList moves;
    game_.generate(p, moves);
    // The cheap pass over the children, each made once: a settled child that decides answers at
    // once; for d > 1 so does a child whose kept bounds decide at d - 1 (answers proven elsewhere
    // are reused before any new search: the rest keep to a refutation they have shown, s to a win
    // it has). The children left open are stacked (open_) in the order they are searched: the
    // kept decisive move first, then the likeliest to decide by their kept bounds (for the rest,
    // the longest proven refutation; for s, the shortest proven win, then the shortest proven
    // refutation), so that a refutation shown to a smaller depth is tried first at a larger one.
    const std::size_t base = open_.size();
    for (int i = 0; i < int(moves.size()); ++i) {
      const auto undo = game_.make(p, moves[i]);
      bool decides = false, open = false;
      int likeliness = 0;
      if (const std::optional<bool> known = settled(p, s)) {
        decides = *known == chooses;
      } else {
        open = true;
        if (d > 1)
          if (const Bounds* c = table_.find(entry_of(p, s))) {
            decides = chooses ? c->win_within <= d - 1 : c->no_win_within >= d - 1;
            likeliness = chooses ? (c->win_within < INT16_MAX ? INT16_MAX - c->win_within
                                                              : -1 - c->no_win_within)
                                 : (c->win_within < INT16_MAX ? -INT16_MAX : 1 + c->no_win_within);
          }
      }
      game_.unmake(p, moves[i], undo);
      if (decides) {
        open_.resize(base);
        if (entry) keep(*entry, chooses, d, i);
        return chooses;
      }
      if (open) open_.push_back({i, i == hint ? INT32_MAX : likeliness});
    }
    // Every child settled went against the chooser; a last ply has nothing else to ask (an open
    // child is no win within 0 plies).
    const bool any_open = open_.size() > base;
    if (!any_open || d == 1) {
      open_.resize(base);
      return any_open ? false : !chooses;
    }
    std::stable_sort(
        open_.begin() + std::ptrdiff_t(base), open_.end(),
        [](const OpenChild& a, const OpenChild& b) { return a.likeliness > b.likeliness; });
    bool wins = !chooses;
    int decisive = -1;
    for (std::size_t k = base; k < open_.size(); ++k) {
      const int i = open_[k].index;
      const auto undo = game_.make(p, moves[i]);
      const bool child = wins_unfinished(p, s, d - 1);
      game_.unmake(p, moves[i], undo);
      if (child == chooses) {
        wins = chooses;
        decisive = i;
        break;
      }
    }
    open_.resize(base);
    keep(*entry, wins, d, decisive);
    return wins;
  }

  // Keeps "s wins within d" (or "does not") at entry, with the move that decided it, if any.
  void keep(const Entry& entry, bool wins, int d, int decisive) {
    Bounds& b = table_[entry];
    if (wins)
      b.win_within = std::int16_t(std::min<int>(b.win_within, d));
    else
      b.no_win_within = std::int16_t(std::max<int>(b.no_win_within, d));
    if (decisive >= 0 && decisive < 255) b.decisive = std::uint8_t(decisive + 1);
  }

  const G& game_;
  CappedMap<Entry, Bounds> table_;
  bool by_symmetry_;
  std::chrono::steady_clock::time_point start_;
  double seconds_ = 0;
  SearchStop stop_ = SearchStop::none;
  std::uint64_t nodes_ = 0, clears_ = 0;
  Progress* progress_ = nullptr;
  std::uint64_t last_node_ = UINT64_MAX;  // the question asked stops past this node
  struct OpenChild {
    int index;       // in the node's move list
    int likeliness;  // to decide for the side that chooses: searched in decreasing order
  };
  std::vector<OpenChild> open_;  // the children left open by each node on the path, stacked
};

}  // namespace solver
