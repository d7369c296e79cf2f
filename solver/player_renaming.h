// A renaming of the players: the permutation a symmetry applies to them (a quarter turn of a
// four-corner board takes each player's checkers to the next corner, so they play there as that
// corner's player). renaming[q] is the name player q has after it. Up to 8 players, 4 bits each,
// so a renaming is one 32-bit word (players past the game's count keep their names), compared,
// composed and inverted in a few operations, and sets of players (bit q for player q) map through
// it.
#pragma once

#include <cstdint>
#include <stdexcept>

namespace solver {

inline constexpr int kMostRenamedPlayers = 8;

class PlayerRenaming {
 public:
  // Everyone keeps their name.
  constexpr PlayerRenaming() = default;

  // From a game's renaming: names[q] for q < players, which must be a permutation of 0..players-1
  // (std::logic_error otherwise: a game's bug).
  template <typename Names>
  static PlayerRenaming of(const Names& names, int players) {
    PlayerRenaming r;
    std::uint32_t seen = 0;
    for (int q = 0; q < players; ++q) {
      const int to = int(names[q]);
      if (to < 0 || to >= players || (seen >> to & 1))
        throw std::logic_error("a player renaming that is not a permutation of the players");
      seen |= 1u << to;
      r.set(q, to);
    }
    return r;
  }

  constexpr int operator[](int player) const { return int(word_ >> (4 * player) & 15); }

  // The image of a set of players.
  constexpr std::uint32_t rename(std::uint32_t players) const {
    std::uint32_t out = 0;
    for (int q = 0; players; ++q, players >>= 1)
      if (players & 1) out |= 1u << (*this)[q];
    return out;
  }
  constexpr PlayerRenaming inverse() const {
    PlayerRenaming r;
    for (int q = 0; q < kMostRenamedPlayers; ++q) r.set((*this)[q], q);
    return r;
  }
  // This renaming, then `next`.
  constexpr PlayerRenaming then(PlayerRenaming next) const {
    PlayerRenaming r;
    for (int q = 0; q < kMostRenamedPlayers; ++q) r.set(q, next[(*this)[q]]);
    return r;
  }

  friend constexpr bool operator==(PlayerRenaming, PlayerRenaming) = default;

 private:
  constexpr void set(int player, int name) {
    word_ = (word_ & ~(15u << (4 * player))) | std::uint32_t(name) << (4 * player);
  }
  std::uint32_t word_ = 0x76543210;
};

}  // namespace solver
