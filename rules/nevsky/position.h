// A Nevsky position: each player's men and kings, and the player to move. Plain data; what the
// cells are (the grid's size) lives in Geometry.
//
// Every Position a Game hands out (start, make, from_key, the position parser) is settled: the
// leaving rule has been applied (Game::give_turn), so the player to move holds checkers and has a
// legal move, or the game is over and to_move names the first player holding checkers clockwise
// from the one the turn was passing to (NEVSKY.md, "Players leaving, the end"). Nothing else
// about the game's past matters to its future, so this is the whole state.
#pragma once

#include <array>
#include <optional>

#include "rules/nevsky/bitboard.h"
#include "rules/nevsky/player.h"

namespace nevsky {

struct Piece {
  Player player;
  bool king;
  bool operator==(const Piece&) const = default;
};

struct Position {
  std::array<Bitboard, kPlayers> men{}, kings{};  // by Player
  Player to_move = kWhite;

  Bitboard checkers(Player p) const { return men[p] | kings[p]; }
  Bitboard occupied() const {
    return checkers(kWhite) | checkers(kRed) | checkers(kGreen) | checkers(kBlack);
  }
  // The players still holding checkers (bit p for player p): who is still in the game.
  PlayerSet players_left() const {
    PlayerSet left = 0;
    for (Player p : kAllPlayers)
      if (checkers(p)) left |= player_bit(p);
    return left;
  }
  std::optional<Piece> piece_on(int cell) const {
    const Bitboard b = cell_bit(cell);
    for (Player p : kAllPlayers) {
      if (men[p] & b) return Piece{p, false};
      if (kings[p] & b) return Piece{p, true};
    }
    return std::nullopt;
  }
  void put(int cell, Piece piece) { (piece.king ? kings : men)[piece.player] |= cell_bit(cell); }

  bool operator==(const Position&) const = default;
};

}  // namespace nevsky
