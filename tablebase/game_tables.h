// A registry game's tables of a whole variant (everything reachable from the positions it starts
// from), probed by canonical key whatever their format, for the front ends that answer from them
// (query, verify, serve's oracle, the Python module and the probe library through
// table_probe.h): the entry's keyed table (DIR/<game>.wdl, keyed_tables.h) or its loopy tier
// tables (a file a tier, loopy_tables.h), as the entry declares (rules/registry.h), or for a game
// that declares both, whichever the directory holds. Either way a probe answers a position's
// value for the side to move, or nullopt for one the tables do not hold, so solver/wdl analyses
// (wdl_analysis.h) read both alike.
#pragma once

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <variant>

#include "game_tier_spaces.h"  // generated: every game's tier space, with its LoopySpaceOf
#include "rules/registry.h"
#include "solver/wdl.h"
#include "tablebase/keyed_tables.h"
#include "tablebase/loopy_tables.h"
#include "tablebase/loopy_tier_space.h"
#include "tablebase/tables_found.h"

namespace tablebase {

// A keyed table: the variant's positions by canonical key, in one file.
template <typename E>
class KeyedGameTables {
 public:
  using G = typename E::Game;

  // `variant`: the whole variant the table must hold, or empty for whichever it holds. Throws
  // TableError when there is no such table or it is damaged.
  KeyedGameTables(const std::filesystem::path& dir, const std::string& variant)
      : table_(open_keyed_table(dir, E::info.id, E::kKeyFormat, variant)),
        game_(E::whole_game(table_.info().name)) {}

  std::string variant() const { return table_.info().name; }
  const G& game() const { return *game_; }
  WdlTable& table() { return table_; }
  std::optional<solver::WdlValue> probe(const common::Key& key) { return table_.probe(key); }
  void drop_cache() { table_.drop_cache(); }

 private:
  WdlTable table_;
  std::unique_ptr<G> game_;
};

// Loopy tier tables: the variant's space (built from its name, which the files' headers give)
// locates a position, its tier's NAME.wdl gives the value. Where every entry of the space was
// solved, a position play does not reach is answered too; where only the reached ones were
// (LoopySolveOptions::solve_reached_only), such a position is not held, as one the space does not
// number is not.
template <typename E>
class LoopyGameTables {
 public:
  using G = typename E::Game;
  using Space = loopy_space_t<G>;

  // As KeyedGameTables. Throws TableError naming the directory when it holds no loopy tables of
  // the game or those of another variant, or naming a tier's missing, damaged or foreign file.
  LoopyGameTables(const std::filesystem::path& dir, const std::string& variant)
      : space_(LoopySpaceOf<G>::of(held_variant(dir, variant))), tables_(*space_, dir) {}

  std::string variant() const { return space_->variant_name(); }
  const G& game() const { return space_->game(); }
  const Space& space() const { return *space_; }
  LoopyTables<Space>& tables() { return tables_; }
  std::optional<solver::WdlValue> probe(const common::Key& key) {
    return tables_.probe(space_->game().from_key(key));
  }
  void drop_cache() { tables_.drop_caches(); }

 private:
  static std::string held_variant(const std::filesystem::path& dir, const std::string& variant) {
    const std::optional<std::string> held = loopy_tables_variant(dir);
    if (!held || !E::claims(*held)) {
      const std::string other = tables_held(dir);
      throw TableError(dir, "holds no loopy tier tables of " + std::string(E::info.title) +
                                (other.empty() ? "; solve --tables DIR writes those of a whole "
                                                 "variant: " +
                                                     std::string(E::info.whole_variants)
                                               : ": it holds " + other));
    }
    if (!variant.empty() && *held != variant)
      throw TableError(dir, "holds the tables of " + *held + ", not of " + variant);
    return *held;
  }

  std::unique_ptr<const Space> space_;
  LoopyTables<Space> tables_;
};

// Whether DIR holds loopy tier tables of E's game (of any of its variants), and no table of one
// file (any game's keyed or coalition table, which the loopy files' reader would refuse).
template <typename E>
bool holds_loopy_tables(const std::filesystem::path& dir) {
  if constexpr (E::info.tables.has(registry::TableFormat::loopy_tiers)) {
    if (holds_one_file_table(dir)) return false;
    const std::optional<std::string> held = loopy_tables_variant(dir);
    return held && E::claims(*held);
  } else {
    return false;
  }
}

// The tables of a game that has both formats: its loopy tier tables where DIR holds them, else
// its keyed table (whose errors, when DIR holds neither, name what the directory holds).
template <typename E>
class EitherGameTables {
 public:
  using G = typename E::Game;

  EitherGameTables(const std::filesystem::path& dir, const std::string& variant) {
    if (holds_loopy_tables<E>(dir))
      tables_ = std::make_unique<LoopyGameTables<E>>(dir, variant);
    else
      tables_ = std::make_unique<KeyedGameTables<E>>(dir, variant);
  }

  std::string variant() const {
    return std::visit([](const auto& t) { return t->variant(); }, tables_);
  }
  const G& game() const {
    return std::visit([](const auto& t) -> const G& { return t->game(); }, tables_);
  }
  std::optional<solver::WdlValue> probe(const common::Key& key) {
    return std::visit([&](const auto& t) { return t->probe(key); }, tables_);
  }
  void drop_cache() {
    std::visit([](const auto& t) { t->drop_cache(); }, tables_);
  }

 private:
  std::variant<std::unique_ptr<KeyedGameTables<E>>, std::unique_ptr<LoopyGameTables<E>>> tables_;
};

// The tables of a whole variant that entry E declares.
template <typename E>
using GameTablesOf =
    std::conditional_t<E::info.tables.has(registry::TableFormat::loopy_tiers),
                       std::conditional_t<E::info.tables.has(registry::TableFormat::keyed),
                                          EitherGameTables<E>, LoopyGameTables<E>>,
                       KeyedGameTables<E>>;

// Whether E's whole variants have tables that GameTablesOf opens.
template <typename E>
constexpr bool has_whole_variant_tables() {
  return E::info.tables.has(registry::TableFormat::keyed) ||
         E::info.tables.has(registry::TableFormat::loopy_tiers);
}

}  // namespace tablebase
