// The one-sided bear-off database a Royal Nardy command plays or answers with: loaded from
// --db FILE (a damaged or mismatched file is bad input, named), or built in memory for
// --checkers N, or none.
#pragma once

#include <optional>
#include <string>

#include "app/command.h"
#include "rules/nardy/solve/bearoff_file.h"
#include "tablebase/table_file.h"

namespace app {

inline std::optional<nardy::bearoff::OneSided> nardy_database(const std::string& file,
                                                              int checkers) {
  if (!file.empty()) {
    try {
      return nardy::bearoff::read_one_sided(file);
    } catch (const tablebase::TableError& e) {
      throw UsageError(std::string("--db ") + e.what());
    }
  }
  if (checkers > 0) return nardy::bearoff::OneSided(checkers, 1);
  return std::nullopt;
}

}  // namespace app
