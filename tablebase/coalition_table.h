// A game solved by coalitions on disk (solver/coalition_retrograde.h: every coalition's value at
// every position reachable from a start): each canonical position's exact 128-bit key with the
// value of every split of the players into a coalition and the rest, in a keyed table file
// (keyed_table_file.h). The typed layer over it, as wdl_table.h is for one side's values: how a
// key and a position's values become bytes, the tallies the header carries, what the encoding
// string says (so a reader of another key packing, value encoding or number of players is
// refused rather than misled), where a tables directory keeps the file, and how a position's
// values are read in its own players' names.
//   key    16 bytes, big-endian hi:lo (wdl_table.h's), the canonical key
//   value  2 bytes a split, split u (coalition u + 1 against the rest, coalition_retrograde.h's
//          CoalitionSplits) at bytes 2u, 2u + 1: the little-endian word distance << 2 | wdl
//          (0 loss, 1 draw, 2 win; a draw has distance 0), from the split's coalition's side, in
//          the names of the key's canonical image. 2^(n-1) - 1 splits for n players: 14 bytes for
//          four, so at most four players fit the keyed file's 16 value bytes; distances below
//          2^14 (the writer refuses a longer one).
// Tallies: "players", "kingmakers" (count_kingmakers over the positions reached), for each split
// by its coalition's bits c: "wins c", "draws c", "losses c", "longest_win c", "longest_loss c"
// (over the canonical positions, in their images' names); and for each coalition s (named as at
// the start): "longest_win_reached s", its longest forced win over the positions reached, plus
// one (0: it forces a win at none).
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

#include "solver/coalition_game.h"
#include "solver/coalition_splits.h"
#include "solver/wdl.h"
#include "tablebase/keyed_table_file.h"
#include "tablebase/keyed_tables.h"  // key_format
#include "tablebase/wdl_table.h"

namespace tablebase {

struct CoalitionTableInfo {
  std::string game;        // "nevsky"
  std::string name;        // the variant solved, "nevsky:4x4:1"
  std::string key_format;  // the game's key packing and its version, "nevsky-1"
  int players = 0;
  std::uint64_t positions = 0;                 // canonical positions reached from the start
  std::uint64_t kingmakers = 0;                // solver::count_kingmakers
  std::vector<solver::CoalitionTally> splits;  // by split u, recounted by the writer
  // By coalition (bit q for player q, named as at the start; 2^players entries, the first and the
  // last unused): its longest forced win over the positions reached, -1 if none.
  std::vector<int> longest_wins;
};

namespace coalition_table_detail {

inline constexpr std::uint32_t kKeyBytes = 16, kSplitBytes = 2;
inline constexpr int kMostDistance = (1 << 14) - 1;

inline std::string encoding(std::string_view key_format, int players) {
  return "key " + std::string(key_format) + ", value coalitions-1 of " + std::to_string(players) +
         " players";
}

inline std::uint32_t value_bytes(int players) {
  return kSplitBytes * std::uint32_t(solver::CoalitionSplits(players).count());
}

inline void put_value(solver::WdlValue v, std::byte* out) {
  if (v.distance < 0 || v.distance > kMostDistance)
    throw std::invalid_argument("a coalition table holds distances up to " +
                                std::to_string(kMostDistance) + ", not " +
                                std::to_string(v.distance));
  const std::uint32_t word = std::uint32_t(v.distance) << 2 | std::uint32_t(v.wdl);
  out[0] = std::byte(word & 0xff);
  out[1] = std::byte(word >> 8);
}

// nullopt for a word no writer makes (wdl 3, a draw with a distance).
inline std::optional<solver::WdlValue> get_value(const std::byte* b) {
  const std::uint32_t word = std::uint32_t(b[0]) | std::uint32_t(b[1]) << 8;
  const solver::WdlValue v{solver::Wdl(word & 3), int(word >> 2)};
  if ((word & 3) == 3 || (v.wdl == solver::Wdl::draw && v.distance != 0)) return std::nullopt;
  return v;
}

inline void tally(solver::CoalitionTally& t, solver::WdlValue v) {
  if (v.wdl == solver::Wdl::win) {
    ++t.wins;
    t.longest_win = std::max(t.longest_win, v.distance);
  } else if (v.wdl == solver::Wdl::loss) {
    ++t.losses;
    t.longest_loss = std::max(t.longest_loss, v.distance);
  } else {
    ++t.draws;
  }
}

inline std::vector<solver::CoalitionTally> empty_tallies(int players) {
  const solver::CoalitionSplits splits(players);
  std::vector<solver::CoalitionTally> out(splits.count());
  for (int u = 0; u < splits.count(); ++u) out[u].coalition = splits.coalition(u);
  return out;
}

}  // namespace coalition_table_detail

// What write_coalition_table holds beside its caller's data for n entries of `players`: the key
// and value columns it lays out.
inline std::uint64_t coalition_table_write_bytes(std::uint64_t n, int players) {
  namespace d = coalition_table_detail;
  return n * (d::kKeyBytes + d::value_bytes(players));
}

// Writes n entries to `path` (temporary file, then rename): key_at(i) the i-th canonical key,
// strictly increasing; values_at(i, out) fills out[u] with split u's value there. The splits'
// counts in `info` are recounted from the entries; its players, kingmakers and longest_wins are
// written as given. Throws std::invalid_argument for more than four players, unsorted keys or a
// distance past the encoding's, TableWriteError when the file cannot be written.
template <typename KeyAt, typename ValuesAt>
void write_coalition_table(const std::filesystem::path& path, CoalitionTableInfo info,
                           std::uint64_t n, KeyAt&& key_at, ValuesAt&& values_at,
                           int zstd_level = 19,
                           std::uint32_t entries_per_block = kDefaultEntriesPerBlock) {
  namespace d = coalition_table_detail;
  if (info.players < 2 || info.players > 4)
    throw std::invalid_argument("a coalition table holds games of 2 to 4 players, not " +
                                std::to_string(info.players));
  const solver::CoalitionSplits splits(info.players);
  const std::uint32_t vbytes = d::value_bytes(info.players);
  std::vector<std::byte> keys(n * d::kKeyBytes), values(n * vbytes);
  std::vector<solver::WdlValue> row(splits.count());
  info.positions = n;
  info.splits = d::empty_tallies(info.players);
  for (std::uint64_t i = 0; i < n; ++i) {
    wdl_table_detail::put_key(key_at(i), keys.data() + i * d::kKeyBytes);
    values_at(i, std::span<solver::WdlValue>(row));
    for (int u = 0; u < splits.count(); ++u) {
      d::put_value(row[u], values.data() + i * vbytes + u * d::kSplitBytes);
      d::tally(info.splits[u], row[u]);
    }
  }
  KeyedTableHeader h;
  h.game = info.game;
  h.name = info.name;
  h.encoding = d::encoding(info.key_format, info.players);
  h.key_bytes = d::kKeyBytes;
  h.value_bytes = vbytes;
  h.entry_count = n;
  h.tallies = {{"players", std::uint64_t(info.players)}, {"kingmakers", info.kingmakers}};
  for (const solver::CoalitionTally& t : info.splits) {
    std::string c(1, ' ');  // not " " + ...: GCC 12 warns falsely (-Wrestrict) on that
    c += std::to_string(t.coalition);
    h.tallies.insert(h.tallies.end(), {{"wins" + c, t.wins},
                                       {"draws" + c, t.draws},
                                       {"losses" + c, t.losses},
                                       {"longest_win" + c, std::uint64_t(t.longest_win)},
                                       {"longest_loss" + c, std::uint64_t(t.longest_loss)}});
  }
  if (info.longest_wins.size() != std::size_t(splits.everyone()) + 1)
    throw std::invalid_argument("a coalition table's longest wins are one per coalition");
  for (std::uint32_t s = 1; s < splits.everyone(); ++s)
    h.tallies.emplace_back("longest_win_reached " + std::to_string(s),
                           std::uint64_t(info.longest_wins[s] + 1));
  write_keyed_table(path, h, keys, values, zstd_level, entries_per_block);
}

class CoalitionTable {
 public:
  // Opens and checks the file (keyed_table_file.h) and that it holds what this layer writes: the
  // key format given for `players` players, 16-byte keys, 2 bytes a split, every tally, each
  // split's counts adding up to the positions. A non-empty game / name must match. Throws
  // TableError naming the file.
  CoalitionTable(const std::filesystem::path& path, std::string_view key_format, int players,
                 std::string_view game = {}, std::string_view name = {})
      : reader_(path, game, name), path_(path), splits_(players) {
    namespace d = coalition_table_detail;
    const KeyedTableHeader& h = reader_.header();
    if (h.encoding != d::encoding(key_format, players))
      fail("holds '" + h.encoding + "', this build reads '" + d::encoding(key_format, players) +
           "'");
    if (h.key_bytes != d::kKeyBytes || h.value_bytes != d::value_bytes(players))
      fail("entries of " + std::to_string(h.key_bytes) + "+" + std::to_string(h.value_bytes) +
           " bytes, not 16+" + std::to_string(d::value_bytes(players)));
    const auto tally = [&](const std::string& name) -> std::uint64_t {
      for (const auto& [n, v] : h.tallies)
        if (n == name) return v;
      fail("its header has no count of " + name);
    };
    info_.game = h.game;
    info_.name = h.name;
    info_.key_format = key_format;
    info_.players = players;
    info_.positions = h.entry_count;
    info_.kingmakers = tally("kingmakers");
    if (tally("players") != std::uint64_t(players)) fail("its header's players are not its own");
    info_.splits = d::empty_tallies(players);
    for (solver::CoalitionTally& t : info_.splits) {
      std::string c(1, ' ');  // not " " + ...: GCC 12 warns falsely (-Wrestrict) on that
      c += std::to_string(t.coalition);
      t.wins = tally("wins" + c);
      t.draws = tally("draws" + c);
      t.losses = tally("losses" + c);
      t.longest_win = int(tally("longest_win" + c));
      t.longest_loss = int(tally("longest_loss" + c));
      if (t.wins + t.draws + t.losses != info_.positions)
        fail("its counts of wins, draws and losses do not add up to its positions");
    }
    info_.longest_wins.assign(splits_.everyone() + 1, -1);
    for (std::uint32_t s = 1; s < splits_.everyone(); ++s)
      info_.longest_wins[s] = int(tally("longest_win_reached " + std::to_string(s))) - 1;
  }

  const CoalitionTableInfo& info() const { return info_; }
  const solver::CoalitionSplits& splits() const { return splits_; }
  std::uint64_t file_bytes() const { return reader_.file_bytes(); }
  void drop_cache() { reader_.drop_cache(); }

  // Every split's value at the position with this canonical key, by split, in its image's names;
  // nullopt if the table does not hold it.
  std::optional<std::vector<solver::WdlValue>> probe(const common::Key& key) {
    std::array<std::byte, coalition_table_detail::kKeyBytes> k;
    std::array<std::byte, 16> v;
    wdl_table_detail::put_key(key, k.data());
    if (!reader_.find(k, std::span(v).first(reader_.header().value_bytes))) return std::nullopt;
    return decode(v.data());
  }

  // Every entry in key order, each block checked, and the header's counts checked against them:
  // visit(key, values by split).
  template <typename Visit>
  void for_each(Visit&& visit) {
    std::vector<solver::CoalitionTally> counted =
        coalition_table_detail::empty_tallies(info_.players);
    reader_.for_each_entry([&](std::span<const std::byte> k, std::span<const std::byte> v) {
      const std::vector<solver::WdlValue> values = decode(v.data());
      for (std::size_t u = 0; u < values.size(); ++u)
        coalition_table_detail::tally(counted[u], values[u]);
      visit(wdl_table_detail::get_key(k), std::span<const solver::WdlValue>(values));
    });
    for (std::size_t u = 0; u < counted.size(); ++u) {
      const solver::CoalitionTally &a = counted[u], &b = info_.splits[u];
      if (a.wins != b.wins || a.draws != b.draws || a.losses != b.losses ||
          a.longest_win != b.longest_win || a.longest_loss != b.longest_loss)
        fail("its entries do not match its header's counts");
    }
  }
  void verify_all() {
    for_each([](const common::Key&, std::span<const solver::WdlValue>) {});
  }

 private:
  [[noreturn]] void fail(const std::string& fault) const { throw TableError(path_, fault); }

  std::vector<solver::WdlValue> decode(const std::byte* bytes) const {
    std::vector<solver::WdlValue> out(splits_.count());
    for (int u = 0; u < splits_.count(); ++u) {
      const auto v =
          coalition_table_detail::get_value(bytes + u * coalition_table_detail::kSplitBytes);
      if (!v) fail("holds an impossible value (damaged data)");
      out[u] = *v;
    }
    return out;
  }

  KeyedTableReader reader_;
  std::filesystem::path path_;
  solver::CoalitionSplits splits_;
  CoalitionTableInfo info_;
};

// Every coalition's value at p, in p's players' names: by coalition s (bit q for player q; the
// entries for none and everyone are unused draws), from s's side, as CoalitionOracle answers;
// nullopt if the table does not hold p. Read at p's canonical image, s renamed as the image names
// its players (a coalition holding the image's last player is its split's rest, value turned over).
template <solver::CoalitionGame G>
std::optional<std::vector<solver::WdlValue>> coalition_values_at(const G& game,
                                                                 CoalitionTable& table,
                                                                 const typename G::Position& p) {
  const auto image = solver::canonical_image(game, p);
  const auto stored = table.probe(image.key);
  if (!stored) return std::nullopt;
  const solver::CoalitionSplits& splits = table.splits();
  std::vector<solver::WdlValue> out(splits.everyone() + 1, {solver::Wdl::draw, 0});
  for (std::uint32_t s = 1; s < splits.everyone(); ++s) {
    const auto [u, rest] = splits.of(image.renaming.rename(s));
    out[s] = rest ? solver::opposite((*stored)[u]) : (*stored)[u];
  }
  return out;
}

// Where a tables directory keeps a game's coalition table: DIR/<game id>.coalitions.
inline std::filesystem::path coalition_table_file(const std::filesystem::path& dir,
                                                  std::string_view game) {
  return dir / (std::string(game) + ".coalitions");
}

inline bool holds_coalition_table(const std::filesystem::path& dir, std::string_view game) {
  std::error_code ignored;
  return !dir.empty() && std::filesystem::exists(coalition_table_file(dir, game), ignored);
}

// Opens and checks DIR's coalition table of the game; `name`, when given, must be the variant it
// holds. Throws TableError naming the file.
inline CoalitionTable open_coalition_table(const std::filesystem::path& dir, std::string_view game,
                                           std::uint32_t key_version, int players,
                                           std::string_view name = {}) {
  return CoalitionTable(coalition_table_file(dir, game), key_format(game, key_version), players,
                        game, name);
}

}  // namespace tablebase
