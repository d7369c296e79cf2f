// `drop16 solve` for the games valued per coalition of players (registry entries with the
// coalition solver, Solver::coalition_values: Nevsky checkers): what the solve command hands over.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>

#include "app/command.h"
#include "app/cyclic_search.h"
#include "rules/registry.h"

namespace app {

struct CoalitionSolveRequest {
  PositionOptions position;
  std::uint64_t memory_bytes = 0;  // --memory: the process's resident memory stays under it
};

// Solves every position reachable from the asked position (--fen, else the variant's start) for
// every coalition (solver/coalition_solve.h) and prints, for that position, each coalition's value
// and distance, the coalitions that force a win, the counts over the positions reached (with the
// kingmakers and the longest forced win) and the cost. Throws UsageError when the positions'
// keys do not fit, or when the solve does not fit under --memory (the message says how far it
// got).
void run_coalition_solve(const CoalitionSolveRequest& r);

// The JSON's head for a position: its variant, position string and player to move (null when the
// game is over).
template <registry::CoalitionEntry E>
nlohmann::ordered_json coalition_position_json(const typename E::Game& game,
                                               const typename E::Game::Position& p) {
  return {{"variant", E::variant_name(game)},
          {"fen", E::fen(game, p)},
          {"to_move", game.is_terminal(p)
                          ? nlohmann::ordered_json()
                          : nlohmann::ordered_json(E::kPlayers[game.player_to_move(p)])}};
}

// Lists in j["winning_coalitions"] the names of j["coalitions"] whose value is a win.
void add_winning_coalitions(nlohmann::ordered_json& j);

// The lines both print for people from their JSON: the position, who is to move, each
// coalition's value and the coalitions that force a win.
void print_coalition_values(const nlohmann::ordered_json& j);

// drop16 solve --variant V [--fen F] --max-depth D [--time-limit S] for the same games: the forward
// search per coalition (solver/coalition_search.h), for positions too large to explore whole (the
// full game): each coalition's win or loss forced within D plies with its exact distance, "unknown"
// where nothing is forced within the depth searched. Refuses (UsageError) --tables, a time limit
// without a depth, and positions whose keys do not fit.
void run_coalition_search(const BoundedSearchRequest& r);

// The memory a coalition command's solver may take under --memory: what the process does not hold
// yet. Refuses (UsageError) a variant whose keys do not fit, and a cap the process already passes.
std::uint64_t coalition_memory(bool keys_fit, int key_bits, std::uint64_t memory_bytes);

}  // namespace app
