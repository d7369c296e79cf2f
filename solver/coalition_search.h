// Bounded forward search of one coalition's value in a coalition game (coalition_game.h), the
// independent check of the coalition retrograde and its tables (drop16 verify): it shares nothing
// with them but the rules and wdl.h's distances. No symmetry, no position graph, no counters or
// splits: positions by raw key, one coalition at a time.
//
// The question "does coalition S force, within d plies, an end where every player left is in S?"
// is a finite AND/OR search: a finished position (terminal, or without a legal move) answers by
// its players left; otherwise with d = 0 it is no; else some child answers yes within d - 1 when
// the player to move is in S, every child does when it is not. These are the values of the game
// cut off after d plies, as tests/fixed_point.h's sweeps compute them, so the least d with a yes
// is S's win distance (the winner hurries, the loser delays: wdl.h), and the least d with a yes
// for the complement of S is S's loss distance (at most one of the two has a yes: the players left
// at an end cannot all be in S and all outside it). A draw (endless play, or in pair play an end
// with players on both sides) is never a yes: up to a bound L the search proves "nothing forced
// within L", and a position with a forced result has one within the longest distance of the
// variant. Play that cycles does no harm: a question is about the position and d alone, and each
// ply takes one from d.
//
// Answers are kept (raw key and coalition: the least d known to be a yes, the greatest known to
// be a no), capped at memory_bytes; a full table is emptied (its entries are facts, only time is
// lost), so the cap bounds memory, not correctness.
#pragma once

#include <algorithm>
#include <climits>
#include <cstdint>
#include <optional>
#include <unordered_map>
#include <utility>

#include "solver/coalition_game.h"
#include "solver/wdl.h"

namespace solver {

template <CoalitionGame G>
class CoalitionSearch {
 public:
  using Position = typename G::Position;

  CoalitionSearch(const G& game, std::uint64_t memory_bytes)
      : game_(game), most_entries_(std::max<std::uint64_t>(1, memory_bytes / kEntryBytes)) {}

  // Coalition s's value at p from its side (s a set of players, neither none nor all): a win or a
  // loss with its distance when forced within max_plies, else nullopt (a draw, or a result
  // further away).
  // The answer is monotone in d, so the least d is found by bisection after one question at
  // max_plies a side (a draw costs those two questions alone).
  std::optional<WdlValue> value(const Position& p, std::uint32_t s, int max_plies) {
    const std::uint32_t rest = ((1u << game_.players()) - 1) & ~s;
    for (const auto& [side, wdl] : {std::pair{s, Wdl::win}, std::pair{rest, Wdl::loss}}) {
      if (!forces(p, side, max_plies)) continue;
      int lo = -1, hi = max_plies;  // a no at lo (or none asked), a yes at hi
      while (hi - lo > 1) {
        const int mid = lo + (hi - lo) / 2;
        (forces(p, side, mid) ? hi : lo) = mid;
      }
      return WdlValue{wdl, hi};
    }
    return std::nullopt;
  }

  std::uint64_t nodes() const { return nodes_; }
  std::uint64_t table_clears() const { return clears_; }

 private:
  // A kept entry's bytes, node and bucket included, for the cap.
  static constexpr std::uint64_t kEntryBytes = 80;

  struct Question {
    typename G::Key key;
    std::uint32_t coalition;
    bool operator==(const Question&) const = default;
  };
  struct Hash {
    std::size_t operator()(const Question& q) const {
      return std::size_t(q.key.mix() ^ (std::uint64_t(q.coalition) * 0x9E3779B97F4A7C15ull));
    }
  };
  struct Known {
    int yes_from = INT_MAX;  // a yes for every d at least this
    int no_up_to = -1;       // a no for every d at most this
  };

  // Whether s forces, within d plies from p, an end where every player left is in s.
  bool forces(const Position& p, std::uint32_t s, int d) {
    ++nodes_;
    typename G::MoveList moves;
    if (!game_.is_terminal(p)) game_.generate(p, moves);
    if (game_.is_terminal(p) || moves.size() == 0)
      return (std::uint32_t(game_.players_left(p)) & ~s) == 0;
    if (d == 0) return false;
    const Question q{game_.raw_key(p), s};
    if (const auto it = known_.find(q); it != known_.end()) {
      if (d >= it->second.yes_from) return true;
      if (d <= it->second.no_up_to) return false;
    }
    const bool s_moves = s >> game_.player_to_move(p) & 1;
    bool answer = !s_moves;  // an OR starts at no, an AND at yes
    for (int i = 0; i < moves.size() && answer != s_moves; ++i) {
      Position child = p;
      game_.make(child, moves[i]);
      answer = forces(child, s, d - 1);
    }
    if (known_.size() >= most_entries_) {
      known_.clear();
      ++clears_;
    }
    Known& k = known_[q];  // looked up again: the children's searches may have emptied the table
    if (answer)
      k.yes_from = std::min(k.yes_from, d);
    else
      k.no_up_to = std::max(k.no_up_to, d);
    return answer;
  }

  const G& game_;
  std::uint64_t most_entries_;
  std::unordered_map<Question, Known, Hash> known_;
  std::uint64_t nodes_ = 0, clears_ = 0;
};

}  // namespace solver
