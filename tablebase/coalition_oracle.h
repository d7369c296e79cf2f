// Values per coalition for a server (drop16 serve): every coalition's value at a position of a
// coalition game (solver/coalition_game.h) and after each of its moves, from a variant's solved
// tables where they were given (use_tables) and hold the position, else from the coalition
// solver (solver/coalition_retrograde.h) run in memory over everything reachable from a root.
//
// A position is answered from a solve kept from an earlier request when that solve reached it
// (its moves' positions are then reached too); otherwise everything reachable from the position
// itself is solved, and kept. The solves kept hold together at most the cap given (counted as
// the solver counts its arrays, solver/counted_memory.h): a new solve gets what the kept ones
// leave, and when that is too little they are dropped and it is tried once more with the whole
// cap; a solve that does not fit under the whole cap throws CyclicMemoryError. Solves are keyed
// by the caller's name of the variant (a position is only looked up among the solves of its own
// game). One request solves at a time (a mutex): the rows small enough to solve in memory solve
// in a few seconds at most, and a solve stops when its caller asks (a server's client that has
// gone: solver/stop_asked.h), so that the requests behind it do not wait for an answer no one
// reads.
#pragma once

#include <cstdint>
#include <functional>
#include <list>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "solver/coalition_retrograde.h"
#include "solver/stop_asked.h"
#include "solver/wdl.h"

namespace tablebase {

template <solver::CoalitionGame G>
class CoalitionOracle {
 public:
  using Position = typename G::Position;
  using Move = typename G::Move;

  // Every coalition's value, by coalition s (bit q for player q, 0 < s < 2^players - 1; the
  // entries for none and everyone are unused draws), from s's side.
  using Values = std::vector<solver::WdlValue>;
  struct MoveValues {
    Move move;
    Position after;
    Values values;  // at the position after the move
  };
  struct Answer {
    Values values;                  // at the position asked
    std::vector<MoveValues> moves;  // its legal moves, in the game's order
    std::uint64_t positions = 0;    // positions of the solve that answered (up to symmetry)
    bool solved_now = false;        // whether this request ran that solve
    bool from_tables = false;       // answered from the tables given (use_tables)
  };
  // Every coalition's value at a position from solved tables, nullopt where they hold none.
  using TableValues = std::function<std::optional<Values>(const Position&)>;

  explicit CoalitionOracle(std::uint64_t memory_bytes) : memory_bytes_(memory_bytes) {}

  // The values at p of `variant` (the caller's name for `game`'s variant) and after each move.
  // Throws solver::StopAsked when a solve it needs is stopped by `stop_requested`, or it said to
  // stop before the solve began.
  Answer evaluate(const std::string& variant, const std::shared_ptr<const G>& game,
                  const Position& p, const std::function<bool()>& stop_requested = {}) {
    const std::lock_guard lock(mutex_);
    if (auto answer = from_tables(variant, *game, p)) return std::move(*answer);
    const Solve* solve = find(variant, p);
    const bool solved_now = !solve;
    if (!solve) {
      solver::check_stop(stop_requested);  // waited behind another solve for a caller now gone
      solve = &add(variant, game, p, stop_requested);
    }
    // A solve that reached p reached its moves' positions too.
    Answer out = *answer_from(
        *game, p, [&](const Position& q) { return std::optional<Values>(values(*solve, q)); });
    out.positions = solve->solved->report().positions;
    out.solved_now = solved_now;
    return out;
  }

  // Solves everything reachable from p now, unless a kept solve reached it (so that a server
  // says at its start when its opening variant does not fit).
  void prepare(const std::string& variant, const std::shared_ptr<const G>& game,
               const Position& p) {
    const std::lock_guard lock(mutex_);
    if (!from_tables(variant, *game, p) && !find(variant, p)) add(variant, game, p);
  }

  // Positions of `variant` are answered from `values` first (a folder's solved tables, of
  // `positions` positions), solved in memory only where the tables do not hold them.
  void use_tables(const std::string& variant, TableValues values, std::uint64_t positions) {
    const std::lock_guard lock(mutex_);
    tables_.push_back({variant, std::move(values), positions});
  }

 private:
  struct Tables {
    std::string variant;
    TableValues values;
    std::uint64_t positions;
  };

  // The values at p and after each of its moves from values_at(position), nullopt when it lacks
  // any of them.
  template <typename ValuesAt>
  static std::optional<Answer> answer_from(const G& game, const Position& p, ValuesAt&& values_at) {
    std::optional<Values> values = values_at(p);
    if (!values) return std::nullopt;
    Answer out;
    out.values = std::move(*values);
    typename G::MoveList moves;
    game.generate(p, moves);
    for (int i = 0; i < moves.size(); ++i) {
      Position after = p;
      game.make(after, moves[i]);
      std::optional<Values> v = values_at(after);
      if (!v) return std::nullopt;
      out.moves.push_back({moves[i], after, std::move(*v)});
    }
    return out;
  }

  // The answer from the tables of p's variant when they hold p and its moves' positions.
  std::optional<Answer> from_tables(const std::string& variant, const G& game,
                                    const Position& p) const {
    for (const Tables& t : tables_) {
      if (t.variant != variant) continue;
      std::optional<Answer> out = answer_from(game, p, t.values);
      if (!out) continue;
      out->positions = t.positions;
      out->from_tables = true;
      return out;
    }
    return std::nullopt;
  }

  struct Solve {
    std::string variant;
    std::shared_ptr<const G> game;  // what the solver refers to
    std::unique_ptr<const solver::CoalitionRetrograde<G>> solved;
  };

  const Solve* find(const std::string& variant, const Position& p) const {
    for (const Solve& s : solves_)
      if (s.variant == variant && s.solved->value(p, 1)) return &s;
    return nullptr;
  }

  const Solve& add(const std::string& variant, const std::shared_ptr<const G>& game,
                   const Position& p, const std::function<bool()>& stop_requested = {}) {
    std::uint64_t held = 0;
    for (const Solve& s : solves_) held += s.solved->held_bytes();
    std::unique_ptr<const solver::CoalitionRetrograde<G>> solved;
    try {
      solved = solve(*game, p, memory_bytes_ > held ? memory_bytes_ - held : 0, stop_requested);
    } catch (const solver::CyclicMemoryError&) {
      if (solves_.empty()) throw;
      solves_.clear();
      solved = solve(*game, p, memory_bytes_, stop_requested);
    }
    solves_.push_front({variant, game, std::move(solved)});
    return solves_.front();
  }

  static std::unique_ptr<const solver::CoalitionRetrograde<G>> solve(
      const G& game, const Position& p, std::uint64_t memory_bytes,
      const std::function<bool()>& stop_requested) {
    return std::make_unique<const solver::CoalitionRetrograde<G>>(
        game, std::span(&p, 1), solver::CoalitionSolveOptions{memory_bytes, false, stop_requested});
  }

  static Values values(const Solve& solve, const Position& p) {
    const std::uint32_t everyone = (1u << solve.solved->players()) - 1;
    Values out(everyone + 1, {solver::Wdl::draw, 0});
    for (std::uint32_t s = 1; s < everyone; ++s) out[s] = *solve.solved->value(p, s);
    return out;
  }

  std::uint64_t memory_bytes_;
  std::mutex mutex_;
  std::list<Solve> solves_;  // newest first
  std::vector<Tables> tables_;
};

}  // namespace tablebase
