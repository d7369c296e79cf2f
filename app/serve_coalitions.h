// drop16 serve's answers for the games valued per coalition of players (registry entries with
// Solver::coalition_values, the "values per coalition" family): /api/analyze's object
// (tablebase/coalition_analysis.h), from the coalition oracle (tablebase/coalition_oracle.h) of
// each such game, kept for the server's life: from --tables where the folder holds the variant's
// coalition tables (tablebase/coalition_game_tables.h), else solved in memory.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <tuple>
#include <type_traits>

#include "rules/registry.h"
#include "tablebase/coalition_analysis.h"
#include "tablebase/coalition_game_tables.h"
#include "tablebase/coalition_oracle.h"
#include "tablebase/tables_found.h"

namespace app {

template <typename E>
struct SolvedByCoalitions
    : std::bool_constant<E::info.solvers.has(registry::Solver::coalition_values)> {};

// The coalition oracles of the registry's games valued per coalition, one per game.
class CoalitionAnswers {
 public:
  // `memory_bytes`: each game's oracle's cap (what its kept solves hold at once); `tables`: a
  // folder whose coalition tables answer their variant's positions first (empty: none). Throws
  // TableError for a damaged table file.
  CoalitionAnswers(std::uint64_t memory_bytes, const std::filesystem::path& tables)
      : oracles_(make(memory_bytes, registry::EntriesWhere<SolvedByCoalitions>{})) {
    if (tables.empty()) return;
    for (const tablebase::HeldTables& held : tablebase::tables_in(tables))
      registry::visit(held.variant, [&](auto e) {
        using E = decltype(e);
        if constexpr (SolvedByCoalitions<E>::value) {
          const std::shared_ptr<const typename E::Game> game(
              E::setup(held.variant, std::nullopt).game);
          if (auto found = tablebase::find_coalition_tables<E>(tables, held.variant, game)) {
            oracle<E>().use_tables(held.variant, std::move(found->values), found->positions);
            tables_variant_ = held.variant;
          }
        }
      });
  }

  // The variant whose coalition tables --tables holds; empty for none.
  const std::string& tables_variant() const { return tables_variant_; }

  // The analysis object of position p of `variant` (as answers name it) in game E; throws
  // solver::StopAsked when a solve it needs is stopped by `stop_requested`.
  template <registry::CoalitionEntry E>
  nlohmann::ordered_json analysis(const std::string& variant,
                                  const std::shared_ptr<const typename E::Game>& game,
                                  const typename E::Game::Position& p,
                                  const std::function<bool()>& stop_requested) {
    const auto answer = oracle<E>().evaluate(variant, game, p, stop_requested);
    return tablebase::coalition_analysis_json<E>(variant, *game, p, answer,
                                                 answer.from_tables ? "tables" : "solve");
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
  std::string tables_variant_;
};

}  // namespace app
