// What the commands say of a dice game's finished position (registry entries with dice, as
// moves, show, query and serve print it): the points each player scored, as text ("the game is
// over: White 4, Black -4") and as JSON ("points": {"white": 4, "black": -4}), and why a roll is
// refused there (nothing is rolled once the game is over).
#pragma once

#include <cctype>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "app/command.h"
#include "rules/registry.h"

namespace app {

inline std::string capitalized(std::string_view name) {
  std::string out(name);
  if (!out.empty()) out[0] = char(std::toupper(static_cast<unsigned char>(out[0])));
  return out;
}

// "the game is over: White 4, Black -4", the players in E::kPlayers order.
template <registry::DiceEntry E>
std::string end_text(const typename E::Game& g, const typename E::Game::Position& p) {
  const auto points = g.terminal_value(p);
  std::string text = "the game is over:";
  for (std::size_t i = 0; i < E::kPlayers.size(); ++i)
    text += (i ? ", " : " ") + capitalized(E::kPlayers[i]) + " " + std::to_string(points[i]);
  return text;
}

// {"white": 4, "black": -4}: each player's points at the game's end.
template <registry::DiceEntry E>
nlohmann::ordered_json points_json(const typename E::Game& g, const typename E::Game::Position& p) {
  const auto points = g.terminal_value(p);
  nlohmann::ordered_json j = nlohmann::ordered_json::object();
  for (std::size_t i = 0; i < E::kPlayers.size(); ++i) j[std::string(E::kPlayers[i])] = points[i];
  return j;
}

// --roll given at a finished game: UsageError saying the game is over, with its points.
template <registry::DiceEntry E>
void refuse_roll_at_end(const typename E::Game& g, const typename E::Game::Position& p) {
  if (g.is_terminal(p))
    throw UsageError("--roll: " + end_text<E>(g, p) + ", so nothing is rolled; give no --roll");
}

}  // namespace app
