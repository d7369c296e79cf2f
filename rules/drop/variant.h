// A member of the Drop 16 family: board size and each side's starting hand.
//   "drop16"               = "4x4:NNBBRRQK"
//   "WxH:HAND"             both sides start with HAND (upper-case letters), W and H in 1..8
//   "WxH:WHITE/black"      different hands; "-" is an empty hand
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "rules/drop/piece.h"

namespace drop {

using Hand = std::array<std::uint8_t, kPieceTypes>;  // count of each piece type

struct Variant {
  int width = 4;
  int height = 4;
  std::array<Hand, 2> start_hand{};  // indexed by Color

  int squares() const { return width * height; }
  // Pieces of each type a colour owns in all, in hand and on board; never more in any position.
  int max_count(Color c, PieceType t) const { return start_hand[c][t]; }
  int hand_size(Color c) const;
  // The shortest name that parses back to this variant ("drop16" for Drop 16 itself).
  std::string name() const;

  bool operator==(const Variant&) const = default;
};

inline constexpr int kMaxSide = 8;
inline constexpr int kMaxPerType = 15;  // per colour and type; keeps hands in 4 bits a type

Variant drop16_variant();
// Whether a variant's name (as name() writes it) is Drop 16's own, the game the designer
// published, rather than another variant of it.
bool is_drop16_name(std::string_view name);
// Throws ParseError with a message naming the fault.
Variant parse_variant(std::string_view text);
// "NNBBRRQK" for a hand, letters in the fixed order N B R Q K; "-" when empty.
std::string hand_string(const Hand& hand, Color c);

}  // namespace drop
