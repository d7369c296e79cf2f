// Where a tables directory keeps a solved Spock row, and how the commands open it: one file,
// DIR/spock.wdl (tablebase/wdl_table.h), keyed by Spock's canonical keys in their current packing
// (rules/spock/key.h), so a file of another key version is refused by name.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

#include "app/command.h"
#include "rules/spock/key.h"
#include "tablebase/tier_files.h"
#include "tablebase/wdl_table.h"

namespace app {

inline constexpr std::string_view kSpockGame = "spock";

inline std::filesystem::path spock_table_file(const std::filesystem::path& dir) {
  return dir / "spock.wdl";
}

inline bool holds_spock_table(const std::filesystem::path& dir) {
  std::error_code ignored;
  return !dir.empty() && std::filesystem::exists(spock_table_file(dir), ignored);
}

inline std::string spock_key_format() {
  return "spock-" + std::to_string(spock::kKeyFormat);
}

// Throws UsageError when DIR holds no Spock row's table, naming what it holds instead (tables of
// the Drop 16 family, or nothing).
inline void require_spock_table(const std::string& dir) {
  if (holds_spock_table(dir)) return;
  std::string instead = "; solve --variant spock:WxH:BLUE/red --tables DIR writes one";
  try {
    instead = ": it holds tables of the Drop 16 family's " + tablebase::tables_variant(dir);
  } catch (const tablebase::TableError&) {  // nothing of the Drop 16 family either
  }
  throw UsageError("--tables " + dir + " holds no Spock row's table (no " +
                   spock_table_file(dir).string() + ")" + instead);
}

// Opens and checks DIR's table; `row`, when given, must be the one it holds. Throws TableError
// naming the file.
inline tablebase::WdlTable open_spock_table(const std::filesystem::path& dir,
                                            std::string_view row = {}) {
  return tablebase::WdlTable(spock_table_file(dir), spock_key_format(), kSpockGame, row);
}

}  // namespace app
