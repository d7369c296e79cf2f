// `drop16 solve`, `query` and `verify` for the games valued per coalition of players (registry
// entries with the coalition solver, Solver::coalition_values: Nevsky checkers): what the
// commands hand over.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "app/command.h"
#include "app/cyclic_search.h"
#include "rules/registry.h"

namespace app {

struct CoalitionSolveRequest {
  PositionOptions position;
  std::uint64_t memory_bytes = 0;  // --memory: the process's resident memory stays under it
  // --tables DIR (games with coalition tables): the variant's table, everything reachable from its
  // start, written there, or loaded from what an earlier run finished
  std::string tables;
  int zstd_level = 19;
  bool zstd_given = false;  // --zstd-level given (coalition tier tables default to 8)
  int threads = 1;
  // --format: empty or "coalitions" for the keyed table, "coalition-tiers" for the coalition tier
  // tables (games with a coalition tier space)
  std::string format;
  // Coalition tier tables, under mpirun: the ranks solve the tiers together
  // (mpi/mpi_coalition_solver.h).
  bool mpi = false;
};

// Solves every position reachable from the asked position (--fen, else the variant's start) for
// every coalition (solver/coalition_solve.h) and prints, for that position, each coalition's value
// and distance, the coalitions that force a win, the counts over the positions reached (with the
// kingmakers and the longest forced win) and the cost. With --tables, everything reachable from
// the variant's start instead, written to DIR (tablebase/coalition_table.h), the asked position
// answered from the file. Throws UsageError when the positions' keys do not fit, when the solve
// does not fit under --memory (the message says how far it got), or when DIR holds another
// variant's table or a damaged one (never overwritten).
// With --format coalition-tiers: the variant's positions found tier by tier from its start and
// solved into DIR (tablebase/coalition_tier_solver.h), a file a tier beside the reach's index;
// what DIR holds already (the index, finished tiers) is read, not done again. --memory bounds
// the tiers' codes held (the rest of the process measured first).
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

// The JSON's list of winning coalitions, as a line for people.
void print_winning_coalitions(const nlohmann::ordered_json& j);

// drop16 solve --variant V [--fen F] --max-depth D [--time-limit S] for the same games: the forward
// search per coalition (solver/coalition_search.h), for positions too large to explore whole (the
// full game): each coalition's win or loss forced within D plies with its exact distance, "unknown"
// where nothing is forced within the depth searched. The request as run_cyclic_search's;
// refuses (UsageError) positions whose keys do not fit.
void run_coalition_search(const BoundedSearchRequest& r);

// The memory a coalition command's solver may take under --memory: what the process does not hold
// yet. Refuses (UsageError) a variant whose keys do not fit, and a cap the process already passes.
std::uint64_t coalition_memory(bool keys_fit, int key_bits, std::uint64_t memory_bytes);

// The text of a position's values (coalition_json.h's objects under "coalitions", with "fen" and
// "to_move"): its player to move, then a line a coalition.
void print_coalition_values(const nlohmann::ordered_json& j);

// `drop16 query --tables DIR`: every coalition's value at the position (--fen, else the start)
// and after each of its moves, from DIR's coalition table alone; `variant_given` says whether
// --variant named the variant (else DIR's table does). Throws TableError for a file it cannot
// trust, UsageError for a position the table does not hold.
void run_coalition_query(const PositionOptions& o, const std::string& dir, bool variant_given);

struct CoalitionVerifyRequest {
  PositionOptions position;
  std::string tables;
  std::uint64_t samples = 1000;
  std::uint64_t seed = 1;
  std::uint64_t memory_bytes = 0;  // the forward search's cap
  bool children = false;           // the children check alone, no forward search
  std::uint64_t search_nodes = 0;  // the most nodes one search question visits (0: no limit)
  bool digest = false;             // coalition tier tables: each tier's digest instead of samples
  std::string against;             // with digest: an earlier run's JSON to compare with
};

// `drop16 verify --tables DIR`: sampled positions of DIR's coalition table checked against their
// children's stored values and (unless --children) every coalition's bounded forward search
// (solver/coalition_search.h); prints the figures, throws std::runtime_error (exit status 1) on a
// mismatch and TableError for a file it cannot trust.
void run_coalition_verify(const CoalitionVerifyRequest& r);

}  // namespace app
