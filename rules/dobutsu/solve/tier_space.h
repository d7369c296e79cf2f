// Dobutsu shogi's positions as a loopy tier space (tablebase/loopy_tier_space.h): every position
// by a dense (tier, index), its children and parents located by rank. Solved by the compact solve
// (tablebase/loopy_compact.h), which holds only what play reaches from the start.
//
// Structure: a capture puts a piece in hand and a drop takes it out again, so nothing the moves
// change only grows or only shrinks: every position but the end is one tier ("play"), one block.
// The end, a Lion taken, is a tier of its own ("caught", one entry): a catch's moves, the Lion's
// captures, lead there, and its entry, without moves, is lost, so a catch is won in 1.
//
// Index of "play" (Tanaka's numbering of 2009 has the same 1,567,925,964 positions before the
// mirror): positions are mover-relative (Gote to move is the board turned half round with the
// colours swapped, Sente to move), and a position and its mirror image are one. Then:
// - the two Lions, the mover's and the other's, as the ordinal of their pair among the 72 classes
//   of pairs under the mirror (the lesser of the pair and its image);
// - the other 10 squares (slots, in square order), holding the two Giraffes, two Elephants and
//   two Chicks that stand (a Hen is a Chick), each side's: the counts on the board (g, e, c),
//   which squares hold Giraffes, then Elephants among the rest, then Chicks among the rest
//   (colexicographic ranks), each piece's side and each Chick's promotion (a bit a piece, in slot
//   order), and the mover's hand (0 to 2 - on the board of each kind; the other's hand is the
//   rest).
// So "play" holds 72 x 11,878,227 entries, with no hole but the mirror images of the 12 Lion
// pairs on file b, which locate never gives (it takes the lesser of the two ranks there).
//
// Unmoves: the side that moved last takes back a drop (its piece, not a Lion or a Hen, back to
// its hand), or a step (a Hen may have been a Chick that promoted on the far rank), with or without
// a capture (a piece of its hand back on the board as the mover's: a Chick as a Chick or a Hen).
// A parent in which the side then to move could take the Lion, or had lost to a try, had no such
// move: it is left out.
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "rules/dobutsu/game.h"
#include "rules/dobutsu/variant.h"
#include "tablebase/divider.h"
#include "tablebase/index_range.h"
#include "tablebase/loopy_tier_space.h"  // Location, LocationRange
#include "tablebase/loopy_value.h"

namespace dobutsu {

class TierSpace {
 public:
  using Game = dobutsu::Game;
  using Position = dobutsu::Position;
  // Play reaches 29% of "play"'s entries: solve those only, held by their rank among the reached
  // ones (tablebase/loopy_compact.h).
  static constexpr bool kSolveReachedOnly = true;
  static constexpr bool kCompactReached = true;

  static constexpr int kCaught = 0, kPlay = 1;  // the tiers
  static constexpr std::uint64_t kLionClasses = 72;
  static constexpr std::uint64_t kRest = 11'878'227;  // the other pieces' placements and hands

  explicit TierSpace(const Game& game);

  const Game& game() const { return game_; }
  std::string variant_name() const { return game_.variant().name(); }
  std::string index_scheme() const { return "dobutsu 1"; }
  int tier_count() const { return 2; }
  std::string tier_name(int t) const { return t == kCaught ? "caught" : "play"; }
  std::uint64_t tier_size(int t) const { return t == kCaught ? 1 : kLionClasses * kRest; }
  const std::vector<int>& tier_children(int t) const { return children_[t]; }
  std::uint64_t block_count(int) const { return 1; }
  tablebase::IndexRange block_range(int t, std::uint64_t) const { return {0, tier_size(t)}; }
  std::vector<tablebase::LocationRange> roots() const {
    const tablebase::Location start = locate(game_.start());
    return {{start.tier, {start.index, start.index + 1}}};
  }
  std::uint64_t memory_bytes() const { return sizeof(*this); }

  // Where p is stored: "caught" when the side to move has no Lion; tier -1 for a position no tier
  // holds (the other side without a Lion).
  tablebase::Location locate(const Position& p) const;
  // The position stored at (t, index), Sente to move; "caught"'s has Sente's Lion taken from the
  // start position.
  Position unrank(int t, std::uint64_t index) const;

  // The entry unranked last (the solve asks an entry what is known of it, then for its
  // children).
  struct Cursor {
    std::uint64_t index = ~std::uint64_t{0};
    Position position;
  };
  const Position& unranked(Cursor& cursor, std::uint64_t index) const {
    if (cursor.index != index) {
      cursor.position = unrank(kPlay, index);
      cursor.index = index;
    }
    return cursor.position;
  }

  template <typename Visit>
  void for_each_child(Cursor& cursor, int t, std::uint64_t index, Visit visit) const {
    children<false>(cursor, t, index, [&](tablebase::Location c, tablebase::LoopyCode) {
      return tablebase::loopy_visit_goes_on(visit, c);
    });
  }
  // The finished positions whose value is known without solving (tablebase::LoopyKnownSpace): a
  // catch is won in 1, a try lost in 0; kLoopyUnresolved for any other.
  tablebase::LoopyCode known_code(const Position& p) const {
    return game_.is_catch(p) ? 1 : game_.is_try(p) ? 0 : tablebase::kLoopyUnresolved;
  }
  tablebase::LoopyCode known_code(Cursor& cursor, int t, std::uint64_t index) const {
    return t == kCaught ? 0 : known_code(unranked(cursor, index));
  }
  // for_each_child with each child's known code (known_code); a visit returning false stops it.
  // A child whose code is known, or whose parent is not its own mirror image, is not located (its
  // index is kLoopyNotLocated): such a parent's moves reach distinct entries (two of its children
  // would otherwise be mirror images, which only a position that is its own makes; checked on
  // every reached position, results/dobutsu.md), so the first pass only counts them.
  template <typename Visit>
  void for_each_child_known(Cursor& cursor, int t, std::uint64_t index, Visit visit) const {
    children<true>(cursor, t, index, visit);
  }
  // visit(child, known) for each child, known its known code when kKnown, else kLoopyUnresolved:
  // what is known costs the child's attacks, which only the solve's first pass wants.
  template <bool kKnown, typename Visit>
  void children(Cursor& cursor, int t, std::uint64_t index, Visit visit) const {
    if (t == kCaught) return;
    const Position p = unranked(cursor, index);
    MoveList moves;
    game_.generate(p, moves);
    const bool distinct = kKnown && Game::mirror(p) != p;
    for (const Move m : moves) {
      Position child = p;
      game_.make(child, m);
      tablebase::LoopyCode known = tablebase::kLoopyUnresolved;
      tablebase::Location at{kPlay, tablebase::kLoopyNotLocated};
      const bool caught = child.lion(child.side_to_move) < 0;
      if (kKnown && !caught) known = known_code(child);
      if (!kKnown || caught || (known == tablebase::kLoopyUnresolved && !distinct))
        at = locate(child);
      if constexpr (std::is_void_v<decltype(visit(at, known))>)
        visit(at, known);
      else if (!visit(at, known))
        return;
    }
  }
  template <typename Visit>
  void for_each_parent(Cursor& cursor, int t, std::uint64_t index, Visit visit) const {
    if (t == kCaught) return;  // its parents, the catches, are in "play"
    for_each_unmove(unranked(cursor, index),
                    [&](const Position& parent) { visit(locate(parent).index); });
  }
  // visit(parent) for each position with a legal move to p (Sente to move, both Lions on the
  // board), as the side that moved last, Gote, to move.
  template <typename Visit>
  void for_each_unmove(const Position& p, Visit visit) const;

 private:
  struct LionPair {
    std::uint8_t ordinal = 0;
    bool mirror = false;       // the class's least member is the pair's mirror image
    bool self_mirror = false;  // both on file b: the rest decides the image
  };
  // The rank of q's pieces but the Lions (on a and b) and of its hands.
  std::uint64_t rest_rank(const Position& q, int a, int b) const;

  Game game_;
  std::array<std::vector<int>, 2> children_{std::vector<int>{}, std::vector<int>{kCaught, kPlay}};
  std::array<std::array<LionPair, kSquares>, kSquares> lions_{};
  std::array<std::array<std::uint8_t, 2>, kLionClasses> lion_squares_{};  // by ordinal: a, b
  std::array<std::array<std::array<std::uint8_t, kSquares - 2>, kSquares>, kSquares> slots_{};
  // By count (1 or 2) and colexicographic rank: the set of slots.
  std::array<std::array<std::uint16_t, 45>, 3> colex_sets_{};
  // The blocks of counts on the board (g, e, c) in order, at 9g + 3e + c, with what unranking
  // divides by (tablebase/divider.h).
  struct CountBlock {
    std::uint64_t offset = 0;
    int g = 0, e = 0, c = 0;
    std::uint64_t hands = 1, hands_reciprocal = 0;          // the mover's hands: (3-g)(3-e)(3-c)
    std::uint64_t chicks = 1, chicks_reciprocal = 0;        // C(10 - g - e, c)
    std::uint64_t elephants = 1, elephants_reciprocal = 0;  // C(10 - g, e)
  };
  std::array<CountBlock, 27> blocks_{};
  std::array<std::array<std::uint64_t, 3>, 11> binomial_{};  // C(n, k), k <= 2
};

template <typename Visit>
void TierSpace::for_each_unmove(const Position& p, Visit visit) const {
  const Color them = kGote, us = kSente;
  // A parent is one where the move was legal: not a catch (only the Lion's capture is played
  // there) and not a try (lost, no moves).
  const auto offer = [&](const Position& parent) {
    if (!game_.is_catch(parent) && !game_.is_try(parent)) visit(parent);
  };
  Position q = p;
  q.side_to_move = them;
  const unsigned empty = unsigned(~p.occupied()) & ((1u << kSquares) - 1);
  for (int k = 0; k < kKinds; ++k)
    for (unsigned pieces = p.kind[k] & p.side[them]; pieces; pieces &= pieces - 1) {
      const int to = __builtin_ctz(pieces);
      const Bitboard at = Bitboard(1u << to);
      if (k != kLion && k != kHen) {  // a drop taken back
        Position parent = q;
        parent.side[them] ^= at;
        parent.kind[k] ^= at;
        ++parent.hand[them][k];
        offer(parent);
      }
      // Steps taken back: the piece as it stood before (a Hen on the far rank may have been a
      // Chick), and what it took, if anything.
      for (int was = 0; was < 2; ++was) {
        Kind before = Kind(k);
        if (was == 1) {
          if (k != kHen || rank_of(to) != Game::far_rank(them)) break;
          before = kChick;
        } else if (k == kChick && rank_of(to) == Game::far_rank(them)) {
          continue;  // a Chick stepping there would have promoted
        }
        for (unsigned f = game_.attackers(them, before, to) & empty; f; f &= f - 1) {
          const Bitboard from = Bitboard(1u << __builtin_ctz(f));
          Position parent = q;
          parent.side[them] ^= Bitboard(from | at);
          parent.kind[k] ^= at;
          parent.kind[before] |= from;
          offer(parent);
          for (int taken = 0; taken < kHandKinds; ++taken) {
            if (!parent.hand[them][taken]) continue;
            Position took = parent;
            --took.hand[them][taken];
            took.side[us] |= at;
            took.kind[taken] |= at;
            offer(took);
            if (taken == kChick) {
              took.kind[kChick] ^= at;
              took.kind[kHen] |= at;
              offer(took);
            }
          }
        }
      }
    }
}

}  // namespace dobutsu

// Dobutsu shogi's one variant is whole (everything reachable from the start): its space.
template <>
struct tablebase::LoopySpaceOf<dobutsu::Game> {
  using type = dobutsu::TierSpace;
  static std::unique_ptr<type> of(std::string_view variant) {
    return std::make_unique<type>(dobutsu::Game(dobutsu::parse_variant(variant)));
  }
};
