// Which variant's tables a directory holds, as --variant names it, for the front ends that open
// a directory without being told the game (query, verify, serve, the Python module, the probe
// library): a keyed table of any registry game that has them (DIR/<game>.wdl, whose header names
// the variant), else the tier tables' variant (tier_files.h).
#pragma once

#include <filesystem>
#include <string>

#include "rules/registry.h"
#include "tablebase/keyed_tables.h"
#include "tablebase/tier_files.h"

namespace tablebase {

// Throws TableError naming the directory when it holds no tables, or the file of a damaged one.
inline std::string tables_variant_in(const std::filesystem::path& dir) {
  std::string found;
  registry::for_each_entry([&](auto e) {
    using E = decltype(e);
    if constexpr (E::info.tables.has(registry::TableFormat::keyed))
      if (found.empty() && holds_keyed_table(dir, E::info.id))
        found = open_keyed_table(dir, E::info.id, E::kKeyFormat).info().name;
  });
  return found.empty() ? tables_variant(dir) : found;
}

}  // namespace tablebase
