// The JSON of values per coalition of players (the "values per coalition" family of
// rules/game_entry.h), one shape for every front end that prints them (`solve`, `serve`):
//   {"coalition": "white+green", "players": ["white", "green"], "value": "win"|"draw"|"loss",
//    "distance": plies or null}
// A coalition is a set of players, bit q for player q, named by the game's players' names (its
// entry's kPlayers, in the order of play). Its value is from its own side, whoever is to move; a
// draw (endless play) has no distance.
#pragma once

#include <bit>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "solver/wdl.h"

namespace tablebase {

// The players' names by index.
using PlayerNames = std::span<const std::string_view>;

// "white+green": coalition s by its players' names, in the order of play.
inline std::string coalition_name(PlayerNames players, std::uint32_t s) {
  std::string out;
  for (std::size_t q = 0; q < players.size(); ++q)
    if (s & (1u << q)) out += (out.empty() ? "" : "+") + std::string(players[q]);
  return out;
}

// The coalitions of n players as answers list them: single players, then pairs, and so on, each
// size in increasing order of its bits.
inline std::vector<std::uint32_t> coalitions_by_size(int players) {
  std::vector<std::uint32_t> out;
  const std::uint32_t everyone = (1u << players) - 1;
  for (int size = 1; size < players; ++size)
    for (std::uint32_t s = 1; s < everyone; ++s)
      if (std::popcount(s) == size) out.push_back(s);
  return out;
}

// A distance, or null for a draw (which has none) or a coalition that wins nowhere (-1).
inline nlohmann::ordered_json distance_json(int distance) {
  return distance < 0 ? nlohmann::ordered_json() : nlohmann::ordered_json(distance);
}

// Coalition s's value v as the object above.
inline nlohmann::ordered_json coalition_value_json(PlayerNames players, std::uint32_t s,
                                                   solver::WdlValue v) {
  nlohmann::ordered_json names = nlohmann::ordered_json::array();
  for (std::size_t q = 0; q < players.size(); ++q)
    if (s & (1u << q)) names.push_back(players[q]);
  return {{"coalition", coalition_name(players, s)},
          {"players", names},
          {"value", solver::wdl_name(v.wdl)},
          {"distance", distance_json(v.wdl == solver::Wdl::draw ? -1 : v.distance)}};
}

}  // namespace tablebase
