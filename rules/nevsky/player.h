// The four players of Nevsky checkers (shared/games/NEVSKY.md), in their order of play, and what
// each one's name, letters, partner and forward directions are.
#pragma once

#include <array>
#include <cstdint>

namespace nevsky {

// Clockwise from White, the order of play: White (Morning), Red (Day), Green (Evening), Black
// (Night). White starts in the top-left corner (cell 16 on 6x6), Red top-right (66), Green
// bottom-right (61), Black bottom-left (11): each player's corner is the previous one's turned a
// quarter clockwise, and each races to the opposite corner.
enum Player : std::uint8_t { kWhite = 0, kRed = 1, kGreen = 2, kBlack = 3 };
inline constexpr int kPlayers = 4;
inline constexpr std::array<Player, kPlayers> kAllPlayers = {kWhite, kRed, kGreen, kBlack};

// A set of players, bit p for player p (what players_left and coalitions are).
using PlayerSet = std::uint8_t;
inline constexpr PlayerSet kEveryone = 0b1111;
inline constexpr PlayerSet player_bit(Player p) {
  return PlayerSet(1u << p);
}

// The next player clockwise, whose turn comes after p's.
inline constexpr Player next_player(Player p) {
  return Player((p + 1) % kPlayers);
}
// In pair play the partners sit opposite: White with Green, Red with Black.
inline constexpr Player partner(Player p) {
  return Player((p + 2) % kPlayers);
}
inline constexpr PlayerSet kWhiteGreen = 0b0101, kRedBlack = 0b1010;

// Letters of the position string: men in lower case, kings upper case; the player to move is
// named by its man letter.
inline constexpr char man_letter(Player p) {
  return "wrgb"[p];
}
inline constexpr char king_letter(Player p) {
  return "WRGB"[p];
}
inline constexpr const char* player_name(Player p) {
  constexpr const char* kNames[] = {"White", "Red", "Green", "Black"};
  return kNames[p];
}

}  // namespace nevsky
