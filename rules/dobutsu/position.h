// A Dobutsu shogi position: what stands on each of the 12 squares, each side's hand and the side
// to move. Plain data; how pieces move lives in Game.
#pragma once

#include <array>
#include <cstdint>

namespace dobutsu {

inline constexpr int kFiles = 3, kRanks = 4, kSquares = kFiles * kRanks;

// Squares are rank * 3 + file, from a1 (0) to c4 (11); rank 1 is Sente's side.
inline constexpr int square_of(int file, int rank) {
  return rank * kFiles + file;
}
inline constexpr int file_of(int sq) {
  return sq % kFiles;
}
inline constexpr int rank_of(int sq) {
  return sq / kFiles;
}
// The square seen from the other side: the board turned half round.
inline constexpr int turned(int sq) {
  return kSquares - 1 - sq;
}
// The square in the mirror (files a and c exchanged).
inline constexpr int mirrored(int sq) {
  return rank_of(sq) * kFiles + (kFiles - 1 - file_of(sq));
}

// Sente (upper case, 'w') moves first; Gote (lower case, 'b').
enum Color : std::uint8_t { kSente = 0, kGote = 1 };
inline constexpr Color opposite(Color c) {
  return Color(c ^ 1);
}
inline constexpr const char* color_name(Color c) {
  return c == kSente ? "Sente" : "Gote";
}

// The kinds, those a hand holds first (a captured Hen goes to the hand as a Chick; a Lion is never
// held: its capture ends the game).
enum Kind : std::uint8_t { kChick = 0, kElephant = 1, kGiraffe = 2, kLion = 3, kHen = 4 };
inline constexpr int kKinds = 5, kHandKinds = 3;
// Two of each kind but the Lion (a Hen is a Chick), one Lion a side.
inline constexpr int kPiecesOfKind = 2;

// A square's content: 0 empty, else 1 + kind + 5 * color.
using Cell = std::uint8_t;
inline constexpr Cell kEmpty = 0;
inline constexpr Cell cell_of(Color c, Kind k) {
  return Cell(1 + k + kKinds * c);
}
inline constexpr Color color_of(Cell cell) {
  return cell > kKinds ? kGote : kSente;
}
inline constexpr Kind kind_of(Cell cell) {
  return Kind((cell - 1) % kKinds);
}
// The kind a captured piece joins the hand as.
inline constexpr Kind in_hand(Kind k) {
  return k == kHen ? kChick : k;
}

using Bitboard = std::uint16_t;  // bit square_of(file, rank)

// What stands where, as bitboards: each side's squares and each kind's squares (both sides), so
// that a piece is a bit in one side's set and one kind's. Hands by side and kind.
struct Position {
  std::array<Bitboard, 2> side{};                              // by Color
  std::array<Bitboard, kKinds> kind{};                         // by Kind
  std::array<std::array<std::uint8_t, kHandKinds>, 2> hand{};  // by Color, then Kind
  Color side_to_move = kSente;

  bool operator==(const Position&) const = default;
  Bitboard occupied() const { return Bitboard(side[kSente] | side[kGote]); }
  // What stands on sq.
  Cell cell(int sq) const {
    const Bitboard bit = Bitboard(1u << sq);
    if (!(occupied() & bit)) return kEmpty;
    int k = 0;
    while (!(kind[k] & bit)) ++k;
    return cell_of(side[kGote] & bit ? kGote : kSente, Kind(k));
  }
  // Puts `cell` on sq (kEmpty: nothing), whatever stood there.
  void set(int sq, Cell c) {
    const Bitboard bit = Bitboard(1u << sq), keep = Bitboard(~bit);
    side[kSente] &= keep;
    side[kGote] &= keep;
    for (Bitboard& b : kind) b &= keep;
    if (c == kEmpty) return;
    side[color_of(c)] |= bit;
    kind[kind_of(c)] |= bit;
  }
  // The square of c's Lion, or -1 when it was captured.
  int lion(Color c) const {
    const unsigned b = unsigned(kind[kLion] & side[c]);
    return b ? __builtin_ctz(b) : -1;
  }
};

}  // namespace dobutsu
