// A registry game valued per coalition: every coalition's value at positions of a whole variant
// from the solved tables a folder holds, whatever their format (the keyed coalition table,
// coalition_table.h, or coalition tier tables, coalition_tier_tables.h), as CoalitionOracle reads
// them (use_tables): for the front ends that answer from a folder before solving in memory
// (serve, the Python module).
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>

#include "game_tier_spaces.h"  // generated: every game's tier space, with its CoalitionSpaceOf
#include "rules/registry.h"
#include "tablebase/coalition_oracle.h"
#include "tablebase/coalition_table.h"
#include "tablebase/coalition_tier_tables.h"
#include "tablebase/tables_found.h"

namespace tablebase {

template <typename G>
struct CoalitionTablesFound {
  typename CoalitionOracle<G>::TableValues values;
  std::uint64_t positions = 0;
};

// The tables of `variant` (as E's normalized() names it) that DIR holds, read through `game` (a
// game of that variant); nullopt when DIR holds none of that variant. Throws TableError for a
// damaged file.
template <registry::CoalitionEntry E>
std::optional<CoalitionTablesFound<typename E::Game>> find_coalition_tables(
    const std::filesystem::path& dir, const std::string& variant,
    const std::shared_ptr<const typename E::Game>& game) {
  using G = typename E::Game;
  using registry::TableFormat;
  for (const HeldTables& held : tables_in(dir)) {
    if (held.variant != variant) continue;
    if constexpr (registry::CoalitionTablesEntry<E> && E::info.tables.has(TableFormat::coalitions))
      if (held.format == TableFormat::coalitions) {
        auto table = std::make_shared<CoalitionTable>(
            open_coalition_table(dir, E::info.id, E::kKeyFormat, int(E::kPlayers.size()), variant));
        const std::uint64_t positions = table->info().positions;
        return CoalitionTablesFound<G>{[table, game](const typename G::Position& p) {
                                         return coalition_values_at(*game, *table, p);
                                       },
                                       positions};
      }
    if constexpr (E::info.tables.has(TableFormat::coalition_tiers))
      if (held.format == TableFormat::coalition_tiers) {
        using Space = coalition_space_t<G>;
        std::shared_ptr<Space> space = CoalitionSpaceOf<G>::of(variant);
        if (!space->load_index(dir)) continue;
        auto tables = std::make_shared<CoalitionTierTables<Space>>(*space, dir);
        std::uint64_t positions = 0;
        for (int t = 0; t < space->tier_count(); ++t) positions += space->tier_size(t);
        return CoalitionTablesFound<G>{[space, tables, game](const typename G::Position& p) {
                                         return tables->values_at(*game, p);
                                       },
                                       positions};
      }
  }
  return std::nullopt;
}

}  // namespace tablebase
