// Which variant's tables a directory holds, as --variant names it, for the front ends that open
// a directory without being told the game (query, verify, serve, the Python module, the probe
// library): a keyed table of any registry game that has them (DIR/<game>.wdl, whose header names
// the variant) or its coalition table (DIR/<game>.coalitions, coalition_table.h), else loopy tier
// tables (loopy_tier_files.h) or coalition tier tables (coalition_tier_files.h), else the tier
// tables' variant (tier_files.h).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "rules/registry.h"
#include "tablebase/coalition_table.h"
#include "tablebase/coalition_tier_files.h"
#include "tablebase/keyed_tables.h"
#include "tablebase/loopy_tier_files.h"
#include "tablebase/tier_files.h"

namespace tablebase {

// Whether DIR holds a table of one file (keyed or coalitions) of any registry game: a file the
// readers of the other formats would refuse as foreign, so looked for first.
inline bool holds_one_file_table(const std::filesystem::path& dir) {
  bool found = false;
  registry::for_each_entry([&](auto e) {
    using E = decltype(e);
    if constexpr (E::info.tables.has(registry::TableFormat::keyed))
      found = found || holds_keyed_table(dir, E::info.id);
    if constexpr (E::info.tables.has(registry::TableFormat::coalitions))
      found = found || holds_coalition_table(dir, E::info.id);
  });
  return found;
}

// One set of tables DIR holds: its variant and its format.
struct HeldTables {
  std::string variant;
  registry::TableFormat format;
};

// Whether DIR holds a finished tier of tier tables (a .value file), whatever its variant.
inline bool holds_tier_tables(const std::filesystem::path& dir) {
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(dir, error))
    if (entry.path().extension() == ".value") return true;
  return false;
}

// Every set of tables DIR holds, in any format of any registry game, each named by its files'
// headers; none when DIR holds no tables or does not exist. Throws TableError naming a damaged
// file.
inline std::vector<HeldTables> tables_in(const std::filesystem::path& dir) {
  using registry::TableFormat;
  std::vector<HeldTables> held;
  std::error_code error;
  if (!std::filesystem::is_directory(dir, error)) return held;
  registry::for_each_entry([&](auto e) {
    using E = decltype(e);
    if constexpr (E::info.tables.has(TableFormat::keyed))
      if (holds_keyed_table(dir, E::info.id))
        held.push_back(
            {open_keyed_table(dir, E::info.id, E::kKeyFormat).info().name, TableFormat::keyed});
    if constexpr (E::info.tables.has(TableFormat::coalitions))
      if (holds_coalition_table(dir, E::info.id))
        held.push_back(
            {open_coalition_table(dir, E::info.id, E::kKeyFormat, int(E::kPlayers.size()))
                 .info()
                 .name,
             TableFormat::coalitions});
  });
  if (auto coalition = coalition_tiers_variant(dir))
    held.push_back({*coalition, TableFormat::coalition_tiers});
  if (auto loopy = loopy_tables_variant(dir)) held.push_back({*loopy, TableFormat::loopy_tiers});
  if (holds_tier_tables(dir)) held.push_back({tables_variant(dir), TableFormat::tiers});
  return held;
}

// Held tables as a message names them: "the table of spock:3x3:K/k (Spock)" (a file of one table),
// "the tables of 2x2:NK (Drop 16)".
inline std::string held_text(const HeldTables& h) {
  const bool one_file =
      h.format == registry::TableFormat::keyed || h.format == registry::TableFormat::coalitions;
  return std::string(one_file ? "the table of " : "the tables of ") + h.variant + " (" +
         std::string(registry::info_of(h.variant).title) + ")";
}

// The variant of the tables DIR holds, the first set tables_in lists. Throws TableError naming
// the directory when it holds no tables, or the file of a damaged one.
inline std::string tables_variant_in(const std::filesystem::path& dir) {
  const std::vector<HeldTables> held = tables_in(dir);
  if (held.empty()) return tables_variant(dir);  // throws: no tables of any format
  return held.front().variant;
}

// What DIR holds, for a message refusing it (held_text of its first set), or "" when it holds no
// tables (or a damaged file).
inline std::string tables_held(const std::filesystem::path& dir) {
  try {
    const std::vector<HeldTables> held = tables_in(dir);
    return held.empty() ? std::string() : held_text(held.front());
  } catch (const std::exception&) {  // TableError, or a header naming no game
    return {};
  }
}

// A table folder is one variant's tables in one format: readers open whichever they find first,
// so a solve writing beside another set would hide one of them. Throws TableError when DIR holds
// tables other than `variant`'s in `format` (naming them: "holds the table of spock:3x3:RK/rk
// (Spock), not the tables of 3x3:NK"), or a damaged file; the solve's front end refuses it as
// bad input before anything is written.
inline void refuse_other_tables(const std::filesystem::path& dir, const std::string& variant,
                                registry::TableFormat format) {
  for (const HeldTables& h : tables_in(dir)) {
    if (h.variant == variant && h.format == format) continue;
    std::string held = held_text(h);
    if (h.variant == variant) held += " as " + std::string(registry::table_format_name(h.format));
    throw TableError(dir, "holds " + held + ", not the tables of " + variant + " as " +
                              std::string(registry::table_format_name(format)) +
                              ": a folder holds one variant's tables; give another directory");
  }
}

}  // namespace tablebase
