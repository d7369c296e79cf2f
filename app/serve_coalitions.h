// drop16 serve's answers for the games valued per coalition of players (registry entries with
// Solver::coalition_values, the "values per coalition" family): /api/analyze's object
// (tablebase/coalition_analysis.h), from the coalition oracle (tablebase/coalition_oracle.h) of
// each such game, kept for the server's life.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <tuple>
#include <type_traits>

#include "rules/registry.h"
#include "tablebase/coalition_analysis.h"
#include "tablebase/coalition_oracle.h"

namespace app {

template <typename E>
struct SolvedByCoalitions
    : std::bool_constant<E::info.solvers.has(registry::Solver::coalition_values)> {};

// The coalition oracles of the registry's games valued per coalition, one per game.
class CoalitionAnswers {
 public:
  // `memory_bytes`: each game's oracle's cap (what its kept solves hold at once).
  explicit CoalitionAnswers(std::uint64_t memory_bytes)
      : oracles_(make(memory_bytes, registry::EntriesWhere<SolvedByCoalitions>{})) {}

  // The analysis object of position p of `variant` (as answers name it) in game E; throws
  // solver::StopAsked when a solve it needs is stopped by `stop_requested`.
  template <registry::CoalitionEntry E>
  nlohmann::ordered_json analysis(const std::string& variant,
                                  const std::shared_ptr<const typename E::Game>& game,
                                  const typename E::Game::Position& p,
                                  const std::function<bool()>& stop_requested) {
    return tablebase::coalition_analysis_json<E>(
        variant, *game, p, oracle<E>().evaluate(variant, game, p, stop_requested));
  }

  // Solves position p of `variant` now unless it has been (serve's opening variant, so that one
  // that does not fit is refused before the server starts).
  template <registry::CoalitionEntry E>
  void prepare(const std::string& variant, const std::shared_ptr<const typename E::Game>& game,
               const typename E::Game::Position& p) {
    oracle<E>().prepare(variant, game, p);
  }

 private:
  template <typename E>
  using OracleOf = tablebase::CoalitionOracle<typename E::Game>;

  // Each oracle on the heap: it holds a mutex, so it cannot move.
  template <typename... E>
  static std::tuple<std::unique_ptr<OracleOf<E>>...> make(std::uint64_t memory_bytes,
                                                          registry::EntryList<E...>) {
    return {std::make_unique<OracleOf<E>>(memory_bytes)...};
  }
  template <typename List>
  struct TupleOf;
  template <typename... E>
  struct TupleOf<registry::EntryList<E...>> {
    using type = std::tuple<std::unique_ptr<OracleOf<E>>...>;
  };

  template <typename E>
  OracleOf<E>& oracle() {
    return *std::get<std::unique_ptr<OracleOf<E>>>(oracles_);
  }

  typename TupleOf<registry::EntriesWhere<SolvedByCoalitions>>::type oracles_;
};

}  // namespace app
