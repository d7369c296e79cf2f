// What the commands say of a dice game's finished position (registry entries with dice, as
// moves, show, query and serve print it): the points each player scored, as text ("the game is
// over: White 4, Black -4") and as JSON ("points": {"white": 4, "black": -4}), and why a roll is
// refused there (nothing is rolled once the game is over); and the JSON of its moves or rolls.
#pragma once

#include <cctype>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
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

// The dice given (--roll, serve's roll=), replacing the position's own; refused, with the points,
// at the game's end. Bad text throws ParseError.
template <registry::DiceEntry E, typename G = typename E::Game>
void set_roll(registry::GameSetup<G>& s, const std::optional<std::string>& roll) {
  if (!roll) return;
  if (s.game->is_terminal(s.position))
    throw UsageError("--roll: " + end_text<E>(*s.game, s.position) +
                     ", so nothing is rolled; give no --roll");
  s.position = E::with_roll(s.position, E::parse_chance(*roll));
}

// What `moves --json` prints of a dice game's position and serve's /api/moves answers: variant,
// fen, terminal, and then a finished game's points; or, still to roll, each roll with its weight
// and number of plays ("rolls") and their total ("plays"); or, rolled, the roll, its plays
// ("moves") and the position each leads to ("results").
template <registry::DiceEntry E, typename G = typename E::Game>
nlohmann::ordered_json dice_moves_json(const registry::GameSetup<G>& s) {
  const G& g = *s.game;
  const typename G::Position& p = s.position;
  nlohmann::ordered_json j;
  j["variant"] = E::variant_name(g);
  j["fen"] = E::fen(g, p);
  j["terminal"] = g.is_terminal(p);
  if (g.is_terminal(p)) {
    j["points"] = points_json<E>(g, p);
    return j;
  }
  if (!E::rolled(p)) {  // a chance position: each roll and its number of plays
    typename G::ChanceList rolls;
    g.chances(p, rolls);
    std::uint64_t total = 0;
    j["rolls"] = nlohmann::ordered_json::array();
    for (int i = 0; i < rolls.size(); ++i) {
      typename G::Position q = p;
      g.make_chance(q, rolls[i].outcome);
      const std::uint64_t n = g.count_moves(q);
      total += n;
      j["rolls"].push_back(
          {{"roll", E::chance_text(rolls[i].outcome)}, {"weight", rolls[i].weight}, {"plays", n}});
    }
    j["plays"] = total;
    return j;
  }
  typename G::MoveList plays;
  g.generate(p, plays);
  j["roll"] = E::chance_text(*E::rolled(p));
  j["moves"] = nlohmann::ordered_json::array();
  j["results"] = nlohmann::ordered_json::array();
  for (int i = 0; i < plays.size(); ++i) {
    typename G::Position q = p;
    g.make(q, plays[i]);
    j["moves"].push_back(registry::move_text<E>(g, p, plays[i]));
    j["results"].push_back(E::fen(g, q));
  }
  return j;
}

}  // namespace app
