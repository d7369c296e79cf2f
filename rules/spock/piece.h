// Sides and piece types of Spock (shared/games/SPOCK.md), and their letters in FEN.
#pragma once

#include <array>
#include <cstdint>
#include <optional>

namespace spock {

// Blue moves first and is written in upper case with side letter 'w'; Red in lower case, 'b'.
enum Color : std::uint8_t { kBlue = 0, kRed = 1 };
inline constexpr Color opposite(Color c) {
  return Color(c ^ 1);
}

// In the order of the cycle Rock -> Scissors -> Lizard -> Paper -> Spock -> Rock, so that both the
// transformation after a Spock move and the capture table are arithmetic on the type.
enum PieceType : std::uint8_t { kRock = 0, kScissors, kLizard, kPaper, kSpock };
inline constexpr int kPieceTypes = 5;
inline constexpr std::array<PieceType, kPieceTypes> kAllPieceTypes = {kRock, kScissors, kLizard,
                                                                      kPaper, kSpock};

// The type that appears on the square a Spock left when it took a piece of type t.
inline constexpr PieceType next_in_cycle(PieceType t) {
  return PieceType((t + 1) % kPieceTypes);
}
// Every piece but Spock captures the two types after its own in the cycle (Rock: Scissors and
// Lizard; Scissors: Lizard and Paper; Lizard: Paper and Spock; Paper: Spock and Rock). Spock
// takes anything, by its own rule.
inline constexpr bool captures(PieceType mover, PieceType victim) {
  return mover == kSpock || victim == (mover + 1) % kPieceTypes ||
         victim == (mover + 2) % kPieceTypes;
}

// Upper-case letter of a type; FEN uses lower case for Red.
inline constexpr char piece_letter(PieceType t) {
  return "RSLPK"[t];
}
inline constexpr char piece_letter(PieceType t, Color c) {
  return c == kBlue ? piece_letter(t) : char(piece_letter(t) - 'A' + 'a');
}
inline std::optional<PieceType> piece_type_from_upper(char ch) {
  for (PieceType t : kAllPieceTypes)
    if (piece_letter(t) == ch) return t;
  return std::nullopt;
}

inline constexpr const char* color_name(Color c) {
  return c == kBlue ? "Blue" : "Red";
}

}  // namespace spock
