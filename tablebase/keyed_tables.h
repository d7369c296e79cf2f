// Where a tables directory keeps a game's keyed table and how it is opened: one file,
// DIR/<game id>.wdl (wdl_table.h), whose encoding names the game's key packing and its version
// ("spock-1"), so a file of another game or key version is refused by name. Games with keyed
// tables are those whose registry entry declares them (rules/registry.h, KeyedEntry): a whole
// variant (a Spock ladder row, a rook race) solved by the cyclic retrograde.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <system_error>

#include "tablebase/wdl_table.h"

namespace tablebase {

inline std::filesystem::path keyed_table_file(const std::filesystem::path& dir,
                                              std::string_view game) {
  return dir / (std::string(game) + ".wdl");
}

inline bool holds_keyed_table(const std::filesystem::path& dir, std::string_view game) {
  std::error_code ignored;
  return !dir.empty() && std::filesystem::exists(keyed_table_file(dir, game), ignored);
}

// "spock-1": the game's key packing and its version, as the file's encoding names them.
inline std::string key_format(std::string_view game, std::uint32_t version) {
  return std::string(game) + "-" + std::to_string(version);
}

// Opens and checks DIR's table of the game; `name`, when given, must be the variant it holds.
// Throws TableError naming the file.
inline WdlTable open_keyed_table(const std::filesystem::path& dir, std::string_view game,
                                 std::uint32_t key_version, std::string_view name = {}) {
  return WdlTable(keyed_table_file(dir, game), key_format(game, key_version), game, name);
}

}  // namespace tablebase
