// Solved positions of a game with draws on disk: each position's exact 128-bit key
// (rules/common/key128.h) with its win/draw/loss value and distance (solver/wdl.h), in a keyed
// table file (keyed_table_file.h). The typed layer over it: how a key and a value become bytes,
// which tallies the header carries (wins, draws, losses) and what the encoding string says, so a
// reader of another key packing or value encoding is refused rather than misled.
//   key   16 bytes, big-endian hi:lo, so byte order is the keys' numeric order
//   value 4 bytes, little-endian: distance << 2 | wdl (0 loss, 1 draw, 2 win); a draw has
//         distance 0
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "rules/common/key128.h"
#include "solver/wdl.h"
#include "tablebase/keyed_table_file.h"

namespace tablebase {

struct WdlTableInfo {
  std::string game;        // "spock"
  std::string name;        // the row solved, "spock:3x3:RSK/rsk"
  std::string key_format;  // the game's key packing and its version, "spock-1"
  std::uint64_t positions = 0, wins = 0, draws = 0, losses = 0;
  std::uint64_t longest_win = 0, longest_loss = 0;  // the greatest distance of each (0 if none)
};

namespace wdl_table_detail {

inline constexpr std::uint32_t kKeyBytes = 16, kValueBytes = 4;

inline std::string encoding(std::string_view key_format) {
  return "key " + std::string(key_format) + ", value wdl-1";
}

inline void put_key(const common::Key& k, std::byte* out) {
  for (int i = 0; i < 8; ++i) {
    out[i] = std::byte(k.hi >> (56 - 8 * i));
    out[8 + i] = std::byte(k.lo >> (56 - 8 * i));
  }
}

inline common::Key get_key(std::span<const std::byte> b) {
  common::Key k;
  for (int i = 0; i < 8; ++i) {
    k.hi = k.hi << 8 | std::uint64_t(b[i]);
    k.lo = k.lo << 8 | std::uint64_t(b[8 + i]);
  }
  return k;
}

inline void put_value(solver::WdlValue v, std::byte* out) {
  const std::uint32_t word = std::uint32_t(v.distance) << 2 | std::uint32_t(v.wdl);
  for (int i = 0; i < 4; ++i) out[i] = std::byte(word >> (8 * i));
}

// nullopt for a word no writer makes (wdl 3, a draw with a distance): damage the block's
// checksum missed cannot pass, nor a file of another encoding with the same name.
inline std::optional<solver::WdlValue> get_value(std::span<const std::byte> b) {
  std::uint32_t word = 0;
  for (int i = 0; i < 4; ++i) word |= std::uint32_t(b[i]) << (8 * i);
  const solver::WdlValue v{solver::Wdl(word & 3), int(word >> 2)};
  if ((word & 3) == 3 || (v.wdl == solver::Wdl::draw && v.distance != 0)) return std::nullopt;
  return v;
}

// Counts v in the info's tallies.
inline void tally(WdlTableInfo& info, solver::WdlValue v) {
  const auto distance = std::uint64_t(v.distance);
  if (v.wdl == solver::Wdl::win) {
    ++info.wins;
    info.longest_win = std::max(info.longest_win, distance);
  } else if (v.wdl == solver::Wdl::loss) {
    ++info.losses;
    info.longest_loss = std::max(info.longest_loss, distance);
  } else {
    ++info.draws;
  }
}

}  // namespace wdl_table_detail

// Writes every (canonical key, value) of a solve to `path` (temporary file, then rename); the
// entries are sorted here. The counts in `info` are recounted from the entries.
// What write_wdl_table holds at its peak for n entries beside their vector: the key and value
// columns it lays out (the zstd buffers of one block are beside them, small and fixed).
inline std::uint64_t wdl_table_write_bytes(std::uint64_t n) {
  return n * (wdl_table_detail::kKeyBytes + wdl_table_detail::kValueBytes);
}

inline void write_wdl_table(const std::filesystem::path& path, WdlTableInfo info,
                            std::vector<std::pair<common::Key, solver::WdlValue>> entries,
                            int zstd_level = 19,
                            std::uint32_t entries_per_block = kDefaultEntriesPerBlock) {
  namespace d = wdl_table_detail;
  std::sort(entries.begin(), entries.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<std::byte> keys(entries.size() * d::kKeyBytes),
      values(entries.size() * d::kValueBytes);
  info.positions = entries.size();
  info.wins = info.draws = info.losses = info.longest_win = info.longest_loss = 0;
  for (std::size_t i = 0; i < entries.size(); ++i) {
    d::put_key(entries[i].first, keys.data() + i * d::kKeyBytes);
    d::put_value(entries[i].second, values.data() + i * d::kValueBytes);
    d::tally(info, entries[i].second);
  }
  KeyedTableHeader h;
  h.game = info.game;
  h.name = info.name;
  h.encoding = d::encoding(info.key_format);
  h.key_bytes = d::kKeyBytes;
  h.value_bytes = d::kValueBytes;
  h.entry_count = entries.size();
  h.tallies = {{"wins", info.wins},
               {"draws", info.draws},
               {"losses", info.losses},
               {"longest_win", info.longest_win},
               {"longest_loss", info.longest_loss}};
  write_keyed_table(path, h, keys, values, zstd_level, entries_per_block);
}

class WdlTable {
 public:
  // Opens and checks the file (keyed_table_file.h) and that it holds what this layer writes: the
  // key format given, 16-byte keys, 4-byte values, tallies that add up. A non-empty game / name
  // must match. Throws TableError naming the file.
  WdlTable(const std::filesystem::path& path, std::string_view key_format,
           std::string_view game = {}, std::string_view name = {})
      : reader_(path, game, name), path_(path) {
    namespace d = wdl_table_detail;
    const KeyedTableHeader& h = reader_.header();
    if (h.encoding != d::encoding(key_format))
      fail("holds '" + h.encoding + "', this build reads '" + d::encoding(key_format) + "'");
    if (h.key_bytes != d::kKeyBytes || h.value_bytes != d::kValueBytes)
      fail("entries of " + std::to_string(h.key_bytes) + "+" + std::to_string(h.value_bytes) +
           " bytes, not 16+4");
    const auto tally = [&](std::string_view name) -> std::uint64_t {
      for (const auto& [n, v] : h.tallies)
        if (n == name) return v;
      fail("its header has no count of " + std::string(name));
    };
    info_.game = h.game;
    info_.name = h.name;
    info_.key_format = key_format;
    info_.positions = h.entry_count;
    info_.wins = tally("wins");
    info_.draws = tally("draws");
    info_.losses = tally("losses");
    info_.longest_win = tally("longest_win");
    info_.longest_loss = tally("longest_loss");
    if (info_.wins + info_.draws + info_.losses != info_.positions)
      fail("its counts of wins, draws and losses do not add up to its positions");
  }

  const WdlTableInfo& info() const { return info_; }
  std::uint64_t file_bytes() const { return reader_.file_bytes(); }
  void drop_cache() { reader_.drop_cache(); }

  // The value of the position with this canonical key; nullopt if the table does not hold it.
  std::optional<solver::WdlValue> probe(const common::Key& key) {
    namespace d = wdl_table_detail;
    std::array<std::byte, d::kKeyBytes> k;
    std::array<std::byte, d::kValueBytes> v;
    d::put_key(key, k.data());
    if (!reader_.find(k, v)) return std::nullopt;
    const auto value = d::get_value(v);
    if (!value) fail("holds an impossible value (damaged data)");
    return value;
  }

  // Every entry in key order, each block checked, and the header's counts checked against them.
  template <typename Visit>
  void for_each(Visit&& visit) {
    namespace d = wdl_table_detail;
    WdlTableInfo counted;
    reader_.for_each_entry([&](std::span<const std::byte> k, std::span<const std::byte> v) {
      const auto value = d::get_value(v);
      if (!value) fail("holds an impossible value (damaged data)");
      d::tally(counted, *value);
      visit(d::get_key(k), *value);
    });
    if (counted.wins != info_.wins || counted.draws != info_.draws ||
        counted.losses != info_.losses || counted.longest_win != info_.longest_win ||
        counted.longest_loss != info_.longest_loss)
      fail("its entries do not match its header's counts");
  }
  void verify_all() {
    for_each([](const common::Key&, solver::WdlValue) {});
  }

 private:
  [[noreturn]] void fail(const std::string& fault) const { throw TableError(path_, fault); }

  KeyedTableReader reader_;
  std::filesystem::path path_;
  WdlTableInfo info_;
};

}  // namespace tablebase
