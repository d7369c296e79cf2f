// A registry game's tables of a whole variant (keyed or loopy tiers, game_tables.h) as the
// oracle reads them (tablebase/oracle.h): every move's value at a position.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "solver/wdl.h"
#include "tablebase/game_tables.h"
#include "tablebase/wdl_analysis.h"

namespace tablebase {

// A game's tables of a whole variant (keyed or loopy tiers, game_tables.h).
template <typename E>
class WholeVariantTables {
 public:
  using G = typename E::Game;

  explicit WholeVariantTables(const std::filesystem::path& dir) : tables_(dir, std::string()) {}

  std::string variant() const { return tables_.variant(); }
  std::string start_fen() const { return E::start_fen(variant()); }
  bool holds_game(const G& g) const { return g == tables_.game(); }

  std::optional<std::vector<solver::WdlValue>> move_values(const typename G::Position& p) {
    const auto a =
        analyze_wdl(tables_.game(), p, [&](const common::Key& k) { return tables_.probe(k); });
    if (!a) return std::nullopt;  // not in the variant
    std::vector<solver::WdlValue> values;
    for (const auto& m : a->moves) values.push_back(m.value);
    return values;
  }

 private:
  GameTablesOf<E> tables_;
};

}  // namespace tablebase
