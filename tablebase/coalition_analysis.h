// The analysis object of a position valued per coalition of players (the "values per coalition"
// family), from the coalition oracle's answer (coalition_oracle.h): what `serve`'s /api/analyze
// and the Python module give for such a game.
//   {"variant", "fen", "family": "values per coalition", "to_move": player or null,
//    "coalitions": [coalition value, ...],           the position's (coalition_json.h)
//    "moves": [{"move", "fen", "coalitions": [...]}],  each legal move's, in the game's order
//    "positions": positions of the solve (or the table) that answered, "source": "solve" or
//    "tables"}
// A coalition's value is from its own side whoever moves; a move's is the value of the position it
// leads to, its distance counted from the position asked (the move included), so that the best
// move of a coalition that wins is the one whose distance is the position's.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "rules/registry.h"
#include "tablebase/coalition_json.h"
#include "tablebase/coalition_oracle.h"

namespace tablebase {

namespace detail {

// Every coalition's value, by coalition, `plies` added to each distance.
template <registry::CoalitionEntry E>
nlohmann::ordered_json coalition_values_json(const std::vector<solver::WdlValue>& values,
                                             int plies) {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (const std::uint32_t s : coalitions_by_size(int(E::kPlayers.size())))
    out.push_back(
        coalition_value_json(E::kPlayers, s, {values[s].wdl, values[s].distance + plies}));
  return out;
}

}  // namespace detail

// The object above for position p of `variant` (as answers name it) in game E, answered by the
// in-memory solve of coalition_oracle.h or (source "tables") a coalition table.
template <registry::CoalitionEntry E>
nlohmann::ordered_json coalition_analysis_json(
    const std::string& variant, const typename E::Game& game, const typename E::Game::Position& p,
    const typename CoalitionOracle<typename E::Game>::Answer& answer,
    std::string_view source = "solve") {
  nlohmann::ordered_json j;
  j["variant"] = variant;
  j["fen"] = E::fen(game, p);
  j["family"] = registry::family_name(E::info.family);
  j["to_move"] = game.is_terminal(p) ? nlohmann::ordered_json()
                                     : nlohmann::ordered_json(E::kPlayers[game.player_to_move(p)]);
  j["coalitions"] = detail::coalition_values_json<E>(answer.values, 0);
  j["moves"] = nlohmann::ordered_json::array();
  for (const auto& m : answer.moves)
    j["moves"].push_back({{"move", registry::move_text<E>(game, p, m.move)},
                          {"fen", E::fen(game, m.after)},
                          {"coalitions", detail::coalition_values_json<E>(m.values, 1)}});
  j["positions"] = answer.positions;
  j["source"] = source;
  return j;
}

}  // namespace tablebase
