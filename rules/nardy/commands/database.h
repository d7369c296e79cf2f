// The one-sided bear-off database a Royal Nardy command plays or answers with: loaded from
// --db FILE (a damaged or mismatched file is bad input, named), or built in memory for
// --checkers N, or none.
#pragma once

#include <optional>
#include <string>

#include "app/command.h"
#include "rules/nardy/solve/bearoff_file.h"
#include "tablebase/table_file.h"

namespace nardy {

inline std::optional<bearoff::OneSided> database_of(const std::string& file, int checkers) {
  if (!file.empty()) {
    try {
      return bearoff::read_one_sided(file);
    } catch (const tablebase::TableError& e) {
      throw app::UsageError(std::string("--db ") + e.what());
    }
  }
  if (checkers > 0) return bearoff::OneSided(checkers, 1);
  return std::nullopt;
}

}  // namespace nardy
