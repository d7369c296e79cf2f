// The one JSON shape of a position's value and its moves', for every game whose values are wins,
// draws and losses with distances (the win/loss and win/draw/loss families): what `query`,
// `solve`, `verify`, `serve` and the Python module print, so that each front end answers alike.
//   {"variant", "fen", "value": "win"|"draw"|"loss"|"unknown", "dte": plies or null,
//    "moves": [{"move", "value", "dte"}, ...]}
// `value` is for the side to move; a move's value is what it gives the side that plays it. A draw
// has no distance (the game never ends), an unknown value neither ("unknown": not in the tables,
// not found within a search's bounds). Tables of values alone (no distances) leave "dte" out.
// Moves come best first for the side to move (best_first), so a reader sees its choices in order.
#pragma once

#include <algorithm>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
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

// How good a move's value is for the side that plays it, less is better: the quickest win, then
// slower wins, a draw, an unknown value (it may be anything but a loss already found), the
// slowest loss, then quicker losses. Without distances, by value alone.
inline std::pair<int, int> move_rank(const std::optional<solver::WdlValue>& v, bool distances) {
  if (!v) return {2, 0};
  const int d = distances ? v->distance : 0;
  switch (v->wdl) {
    case solver::Wdl::win:
      return {0, d};
    case solver::Wdl::draw:
      return {1, 0};
    case solver::Wdl::loss:
      return {3, -d};
  }
  return {2, 0};
}

// The moves best first (move_rank), equally good moves in the order given.
inline std::vector<MoveValue> best_first(std::vector<MoveValue> moves, bool distances = true) {
  std::stable_sort(moves.begin(), moves.end(), [&](const MoveValue& a, const MoveValue& b) {
    return move_rank(a.value, distances) < move_rank(b.value, distances);
  });
  return moves;
}

// The analysis object above, its moves best first.
inline nlohmann::ordered_json analysis_json(const std::string& variant, const std::string& fen,
                                            const std::optional<solver::WdlValue>& value,
                                            const std::vector<MoveValue>& given_moves,
                                            bool distances = true) {
  const std::vector<MoveValue> moves = best_first(given_moves, distances);
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
