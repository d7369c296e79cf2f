// The one JSON shape of a position's value and its moves', for every game whose values are wins,
// draws and losses with distances (the win/loss and win/draw/loss families): what `query`,
// `solve`, `verify`, `serve` and the Python module print, so that each front end answers alike.
//   {"variant", "fen", "value": "win"|"draw"|"loss"|"unknown", "dte": plies or null,
//    "moves": [{"move", "value", "dte"}, ...]}
// `value` is for the side to move; a move's value is what it gives the side that plays it. A draw
// has no distance (the game never ends), an unknown value neither ("unknown": not in the tables,
// not found within a search's bounds). Tables of values alone (no distances) leave "dte" out.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "solver/outcome.h"
#include "solver/wdl.h"

namespace tablebase {

// A win/loss DTE (solver/outcome.h: odd a win, even a loss) as the value it is.
inline solver::WdlValue wdl_of_dte(int dte) {
  return {solver::is_win(dte) ? solver::Wdl::win : solver::Wdl::loss, dte};
}
// A move's value for its mover from the outcome a win/loss analysis gives it.
inline solver::WdlValue wdl_of(solver::MoveOutcome o) {
  return {o.win ? solver::Wdl::win : solver::Wdl::loss, o.dte};
}

// {"value", "dte"} of one value; without distances, {"value"} alone.
inline nlohmann::ordered_json value_json(const std::optional<solver::WdlValue>& v,
                                         bool distances = true) {
  nlohmann::ordered_json j;
  j["value"] = v ? solver::wdl_name(v->wdl) : "unknown";
  if (distances)
    j["dte"] = v && v->wdl != solver::Wdl::draw ? nlohmann::ordered_json(v->distance)
                                                : nlohmann::ordered_json(nullptr);
  return j;
}

struct MoveValue {
  std::string move;                       // as the game writes it
  std::optional<solver::WdlValue> value;  // for the side that plays it
};

// The analysis object above.
inline nlohmann::ordered_json analysis_json(const std::string& variant, const std::string& fen,
                                            const std::optional<solver::WdlValue>& value,
                                            const std::vector<MoveValue>& moves,
                                            bool distances = true) {
  nlohmann::ordered_json j;
  j["variant"] = variant;
  j["fen"] = fen;
  j.update(value_json(value, distances));
  j["moves"] = nlohmann::ordered_json::array();
  for (const MoveValue& m : moves) {
    nlohmann::ordered_json move = {{"move", m.move}};
    move.update(value_json(m.value, distances));
    j["moves"].push_back(move);
  }
  return j;
}

}  // namespace tablebase
