// Forward search for games whose play can cycle (Spock, the rook race). Class of game: two players
// taking turns (TwoPlayerGame), win/loss with draws of endless play, keyed. For a position outside
// any solved set, the exact win or loss with its exact distance (wdl.h: the winner hurries, the
// loser delays, a terminal position is a loss in 0), or "nothing is forced within D plies". Never
// a guess: a draw cannot be proven by a bounded search, so a drawn position stays "nothing forced
// within D" for every D (solver/cyclic_retrograde.h proves draws, by exploring everything
// reachable).
//
// Bounded questions
// The search asks two kinds of yes/no question of a position p and a number of plies d:
//   "does the side to move force a win within d plies?"  (some move leads to a child lost within
//                                                         d - 1)
//   "is it lost within d plies?"                          (it is terminal, or every move leads
//                                                         to a child won within d - 1)
// Each is answered by a finite AND/OR search, d plies deep at most. These are exactly the values
// of the game cut off after d plies (the cut counting as nothing forced), and a cut-off game's
// value is the true one for every position whose true distance is at most d and "nothing forced"
// for the others (by induction on d, with the folding rule of wdl.h; tests/fixed_point.h computes
// the same cut-off games by sweeps). Asking d = 1, 2, 3, ... at the root (a win's distance is odd
// and a loss's even, so a win within d for odd d, a loss within d for even d), the first yes is
// the exact value and distance; no yes up to D means nothing is forced within D.
//
// Why cycles do no harm
// Nothing in a question depends on how the position was reached: a cut-off game has no history,
// and the rules have no repetition rule for the search to model (games/SPOCK.md: play that never
// ends is a draw). A cycle on the search path is just the same position asked again with fewer
// plies left, so the recursion ends (each ply takes one from d) and the table entries stay facts
// about the position alone. That is what a search that scored repetitions as draws would lose:
// its values would depend on the path (the graph-history interaction), and a table shared
// between paths would then be wrong.
//
// One score, one pair of bounds
// Both questions are one on a score: s = M - k for a win in k, -(M - k) for a loss in k, 0 for a
// position without a forced result (M far above any distance), so larger is better for the side
// to move. "Win within d" is s >= M - d; "not lost within d" is s > -(M - d). Each question
// "s(p) >= v?" holds iff some child c has s(c) < w for a w that depends on v alone (one ply is a
// step of one in the distance), and the table keeps a lower and an upper bound of each position's
// score (keyed on canonical_key, which is exact, so no collision can change an answer), tightened
// by every answer: "win in k", "loss in k", "no win within d", "no loss within d" are all bounds.
// The bounds are facts about the position, so the table may be emptied at any time: only time is
// lost. It is capped (capped_map.h); when full it is emptied and the question asked again, and
// a question that alone fills it stops the search (SearchStop::memory).
//
// Move ordering
// Before searching any child, one cheap pass looks at every child: a terminal one (the move takes
// the opponent's last Spock, say) answers at once, so immediate wins come first; a child whose
// bounds decide answers or is skipped without a search. The others are searched fewest replies
// first: the opponent's fewest options are the quickest to refute. The frontier's questions skip
// the table: for "win within 1" only terminal children count, and a child asked only whether it
// wins at once is answered by a look at its own children, so neither computes a key (1.7x less
// CPU to 11 plies from the 5x5 start).
//
// Cost: on the 5x5 start, each two plies more cost about 9 times the positions expanded; 13
// plies take about 10 M nodes (16.6 CPU s on a machine loaded to 5 on 2 cores). Only wins and
// losses are proven, so on a drawish position every iteration searches the whole bounded tree
// that survives the cuts.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "solver/capped_map.h"
#include "solver/game_concept.h"
#include "solver/kept_children.h"
#include "solver/progress.h"
#include "solver/stop_asked.h"
#include "solver/turn_order.h"
#include "solver/wdl.h"

namespace solver {

// The deepest search one may ask for: far below the score's M (below), and more plies than any
// position of the games here needs.
inline constexpr int kCyclicSearchMaxDepth = 10000;

struct CyclicSearchLimits {
  int max_depth = 0;   // plies: values with a distance up to this are found
  double seconds = 0;  // of search; 0: no limit
  // Asked with the clock (every 1024 nodes); true stops the search (SearchStop::asked): a server
  // stops the search of a client that has gone.
  std::function<bool()> stop_requested = {};
};

// Why a search ended before its max depth without a value.
enum class SearchStop : std::uint8_t { none, time, memory, asked };
inline constexpr std::string_view search_stop_name(SearchStop s) {
  switch (s) {
    case SearchStop::none:
      return "none";
    case SearchStop::time:
      return "time";
    case SearchStop::memory:
      return "memory";
    case SearchStop::asked:
      return "asked";
  }
  return "?";
}

// A position's value as far as a bounded search decided it.
struct BoundedValue {
  std::optional<WdlValue> value;  // an exact win or loss; none: nothing forced within depth plies
  int depth = 0;                  // plies decided: the value's distance, or every one up to this
  SearchStop stop = SearchStop::none;
};

template <typename Move>
struct BoundedAnalysis {
  struct MoveResult {
    Move move;
    std::optional<WdlValue> value;  // for the side that plays it; none: nothing forced within depth
  };
  std::optional<WdlValue> value;  // of the position, for the side to move
  int depth = 0;                  // every move (so the position) decided up to this many plies
  SearchStop stop = SearchStop::none;
  std::vector<MoveResult> moves;  // in generation order; none in a terminal position
};

template <KeyedGame G>
requires TwoPlayerGame<G>
class CyclicSearch {
 public:
  using Position = typename G::Position;
  using Move = typename G::Move;
  using Key = typename G::Key;
  using Analysis = BoundedAnalysis<Move>;

  CyclicSearch(const G& game, std::uint64_t memory_bytes) : game_(game), table_(memory_bytes) {
    if (!game.keys_fit())
      throw std::invalid_argument("this variant's positions do not fit exact 128-bit keys");
  }

  // The value of p, by iterative deepening: the first d at which a win (d odd) or a loss (d even)
  // within d is proven is the exact distance.
  BoundedValue solve(const Position& p, CyclicSearchLimits limits) {
    start(limits);
    if (lost_now(p)) return {WdlValue{Wdl::loss, 0}, 0, SearchStop::none};
    const Key key = game_.canonical_key(p);
    BoundedValue out;
    for (int d = 1; d <= limits.max_depth; ++d) {
      const auto proven = ask(
          [&](Position& q) {
            return d % 2 ? at_least(q, key, score_win(d)) : !at_least(q, key, score_loss(d) + 1);
          },
          p);
      if (!proven) {
        out.stop = stop_;
        return out;
      }
      out.depth = d;
      if (*proven) {
        out.value = WdlValue{d % 2 ? Wdl::win : Wdl::loss, d};
        return out;
      }
    }
    return out;
  }

  // The position's value and what each move gives the side that plays it, every move's child
  // searched to one ply less, deepening all moves together so that a stop leaves them all decided
  // to the same depth. The position's value follows from its moves' (the quickest win, or the
  // slowest loss when every move loses), as in wdl.h.
  // With a progress to report to, its done/total is the depth reached of limits.max_depth (cut
  // to the depth where every move was decided) and its rate the nodes searched.
  Analysis analyze(const Position& p, CyclicSearchLimits limits) {
    start(limits);
    Analysis a;
    if (lost_now(p)) {
      a.value = WdlValue{Wdl::loss, 0};
      a.depth = limits.max_depth;
      if (progress_) progress_->set_total(0);
      return a;
    }
    typename G::MoveList moves;
    game_.generate(p, moves);
    struct AfterMove {
      Position position;
      bool lost;  // terminal: the move wins in 1
      Key key;
    };
    std::vector<AfterMove> children;
    for (int i = 0; i < moves.size(); ++i) {
      Position c = p;
      game_.make(c, moves[i]);
      const bool lost = lost_now(c);
      children.push_back({c, lost, lost ? Key{} : game_.canonical_key(c)});
      a.moves.push_back({moves[i], std::nullopt});
    }
    for (int d = 1; d <= limits.max_depth; ++d) {
      if (progress_) progress_->set_stage("searching depth " + std::to_string(d));
      for (std::size_t i = 0; i < children.size(); ++i) {
        if (a.moves[i].value) continue;
        const AfterMove& c = children[i];
        // The mover wins in d if the child is lost within d - 1 (d odd), loses in d if the child
        // is won within d - 1 (d even).
        std::optional<bool> proven = c.lost;  // a lost child is decided at d = 1
        if (!c.lost)
          proven = ask(
              [&](Position& q) {
                return d % 2 ? !at_least(q, c.key, score_loss(d - 1) + 1)
                             : at_least(q, c.key, score_win(d - 1));
              },
              c.position);
        if (!proven) {
          a.stop = stop_;
          return with_value(a);
        }
        if (*proven) a.moves[i].value = WdlValue{d % 2 ? Wdl::win : Wdl::loss, d};
      }
      a.depth = d;
      if (progress_) progress_->advance();
      if (std::all_of(a.moves.begin(), a.moves.end(), [](const auto& m) { return m.value; })) {
        if (progress_) progress_->set_total(std::uint64_t(d));
        break;
      }
    }
    return with_value(a);
  }

  std::uint64_t nodes() const { return nodes_; }  // positions expanded, over every search so far
  // Where analyze reports its depths and nodes (nullptr: nowhere); `progress` outlives the search.
  void report_to(Progress* progress) { progress_ = progress; }
  std::uint64_t table_clears() const { return clears_; }
  std::uint64_t positions_stored() const { return table_.size(); }
  std::uint64_t table_bytes() const { return table_.bytes(); }
  // Forgets every bound (they are facts: only time is lost).
  void clear() { table_.clear(); }

 private:
  static constexpr int kM = 1 << 20;
  static constexpr int score_win(int d) { return kM - d; }
  static constexpr int score_loss(int d) { return d - kM; }
  // The scores a position that is not terminal can have: not lost in 0, at best a win in 1.
  static constexpr int kLowestLive = score_loss(2), kHighest = score_win(1);

  struct Bounds {
    int lower = kLowestLive;
    int upper = kHighest;
  };
  struct TimeUp {};

  // Lost for the side to move: the game says so, or there is no move (game_concept.h's contract,
  // as cyclic_retrograde.h reads it).
  bool lost_now(const Position& p) const {
    return game_.is_terminal(p) || game_.count_moves(p) == 0;
  }

  void start(CyclicSearchLimits limits) {
    if (limits.max_depth < 0 || limits.max_depth > kCyclicSearchMaxDepth)
      throw std::invalid_argument("max depth " + std::to_string(limits.max_depth) +
                                  " is outside 0.." + std::to_string(kCyclicSearchMaxDepth));
    deadline_.reset();
    if (limits.seconds > 0)
      deadline_ = std::chrono::steady_clock::now() +
                  std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                      std::chrono::duration<double>(limits.seconds));
    stop_requested_ = std::move(limits.stop_requested);
    stop_ = SearchStop::none;
  }

  // One question on a copy of p. A full table is emptied and the question asked again; none
  // (with stop_ set) when it alone fills the table, time runs out or the caller asks to stop.
  template <typename Question>
  std::optional<bool> ask(Question question, const Position& p) {
    for (bool cleared = false;; cleared = true) {
      kept_.clear();  // what a question stopped by an exception left
      Position q = p;
      try {
        return question(q);
      } catch (const SearchMemoryError&) {
        if (cleared) {
          stop_ = SearchStop::memory;
          return std::nullopt;
        }
        table_.clear();
        ++clears_;
      } catch (const TimeUp&) {
        stop_ = SearchStop::time;
        return std::nullopt;
      } catch (const StopAsked&) {
        stop_ = SearchStop::asked;
        return std::nullopt;
      }
    }
  }

  static Analysis with_value(Analysis a) {
    // The quickest winning move decides; else, when every move is known to lose, the slowest.
    // Every move is decided up to a.depth, so a win found is the quickest there is.
    std::optional<WdlValue> best;
    bool all_lose = true;
    for (const auto& m : a.moves) {
      if (!m.value || m.value->wdl != Wdl::loss) all_lose = false;
      if (m.value && m.value->wdl == Wdl::win && (!best || m.value->distance < best->distance))
        best = m.value;
    }
    if (!best && all_lose && !a.moves.empty()) {
      best = a.moves.front().value;
      for (const auto& m : a.moves) best->distance = std::max(best->distance, m.value->distance);
    }
    a.value = best;
    return a;
  }

  // The least score that is at least v: a win's distance is odd and a loss's even, so "at least
  // v" and "at least this" are the same question, asked and stored once.
  static int rounded_up(int v) {
    const int distance = v > 0 ? kM - v : kM + v;
    return (distance % 2 == 1) == (v > 0) ? v : v + 1;
  }

  void tick() {
    if ((++nodes_ & 1023) != 0) return;
    if (progress_) progress_->add_to_rate(1024);
    if (deadline_ && std::chrono::steady_clock::now() >= *deadline_) throw TimeUp{};
    check_stop(stop_requested_);
  }

  // Whether s(p) >= v, for p not lost now, with key its canonical key. v is never 0 (no question
  // asks "at least nothing forced", which no bounded search answers).
  bool at_least(Position& p, const Key& key, int v) {
    if (v <= kLowestLive) return true;
    if (v > kHighest) return false;
    v = rounded_up(v);
    if (const Bounds* b = table_.find(key)) {
      if (b->lower >= v) return true;
      if (b->upper < v) return false;
    }
    tick();
    // s(p) >= v > 0 needs a child lost by enough: s(c) <= -v - 1; s(p) >= v < 0 needs a child
    // not won too quickly: s(c) <= 1 - v.
    const bool yes = some_child_below(p, v > 0 ? -v : 2 - v);
    Bounds& b = table_[key];  // found again: the search below may have moved it
    if (yes)
      b.lower = std::max(b.lower, v);
    else
      b.upper = std::min(b.upper, v - 1);
    return yes;
  }

  // Whether p, not lost now, has a move to a position lost now: a win in 1.
  bool wins_at_once(Position& p) {
    tick();
    typename G::MoveList moves;
    game_.generate(p, moves);
    for (int i = 0; i < moves.size(); ++i) {
      const auto undo = game_.make(p, moves[i]);
      const bool lost = lost_now(p);
      game_.unmake(p, moves[i], undo);
      if (lost) return true;
    }
    return false;
  }

  // Whether some child c of p has s(c) < w.
  bool some_child_below(Position& p, int w) {
    typename G::MoveList moves;
    game_.generate(p, moves);
    // Below kLowestLive only a lost child's score is: no key, no table, no search.
    const bool only_lost = w <= kLowestLive;
    // At or above kHighest, every child is below w but one that wins at once: a child's question
    // is then answered by a look at its children, cheaper than its key.
    const bool unless_quick_win = rounded_up(w) == kHighest;
    const std::size_t first = kept_.mark();
    bool yes = false;
    for (int i = 0; i < moves.size() && !yes; ++i) {
      const auto undo = game_.make(p, moves[i]);
      if (game_.is_terminal(p)) {
        yes = true;
      } else if (const auto replies = std::uint32_t(game_.count_moves(p)); replies == 0) {
        yes = true;
      } else if (unless_quick_win) {
        yes = !wins_at_once(p);
      } else if (!only_lost) {
        const Key key = game_.canonical_key(p);
        yes = kept_.below_or_keep(table_.find(key), w, {moves[i], replies, std::uint32_t(i), key});
      }
      game_.unmake(p, moves[i], undo);
    }
    return kept_.search(first, yes, game_, p,
                        [&](Position& c, const Key& key) { return !at_least(c, key, w); });
  }

  const G& game_;
  CappedMap<Key, Bounds> table_;
  KeptChildren<Move, Key> kept_;  // the children still to search, of every node on the path
  std::optional<std::chrono::steady_clock::time_point> deadline_;
  std::function<bool()> stop_requested_;
  SearchStop stop_ = SearchStop::none;
  std::uint64_t nodes_ = 0, clears_ = 0;
  Progress* progress_ = nullptr;
};

}  // namespace solver
