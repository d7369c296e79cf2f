// A table of (key, value) pairs for positions that have no dense rank (games with cycles, solved
// by solver/cyclic_retrograde.h): the keys sorted, stored in fixed-size blocks each compressed
// alone with zstd, and an index of every block's first key, so one probe is a binary search of
// the index, one block's decompression and a search in it. Knows nothing of games: keys and values
// are fixed-width byte strings, keys ordered as big-endian numbers (memcmp); the caller chooses
// what they mean and names it in the header's encoding (tablebase/wdl_table.h is the typed layer).
//
// Format version 1 (integers little-endian; tablebase/FORMAT.md, "Keyed tables", has the why):
//
//   header, at offset 0
//     0   8  magic "DROP16KT"
//     8   4  format version (1)
//     12  4  header size H in bytes, including the checksum that ends it
//     16  8  entry count N
//     24  4  key bytes K, 1..64
//     28  4  value bytes V, 1..16
//     32  4  entries per block E, >= 1
//     36  4  tally count T, <= 64
//     40  8  block count B = ceil(N / E)
//     48     game, name, encoding: each a u16 byte length then that many bytes
//            T times: a tally's name (u16 length, bytes) and its u64 value
//     H-8 8  CRC-64/XZ of header bytes [0, H-8)
//   block index, at offset H, B (K + 16) + 16 bytes
//     B times: block i's first key (K bytes), u64 file offset, u64 CRC-64 of its compressed bytes
//     u64 end of the last block (= file size)
//     u64 CRC-64 of the index bytes before it
//   blocks, back to back
//     block i is one zstd frame of its c = min(E, N - i E) entries, stored by columns: K columns
//     of c bytes, column j holding byte j (most significant first) of each key's difference from
//     the key before it in the block (the first key's difference is 0: it is in the index), then
//     V columns of c bytes, byte j of each value.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "tablebase/table_file.h"  // TableError, TableWriteError

namespace tablebase {

inline constexpr std::uint32_t kKeyedTableFormatVersion = 1;
// Entries per block: 20 KiB of raw 16-byte keys and 4-byte values, the size FORMAT.md's dense
// tables settled on (a cold probe decompresses one block). Readers take it from the header.
inline constexpr std::uint32_t kDefaultEntriesPerBlock = 1024;

struct KeyedTableHeader {
  std::string game;      // e.g. "spock"
  std::string name;      // what was solved, e.g. the row "spock:3x3:RSK/rsk"
  std::string encoding;  // what keys and values mean, e.g. "key spock-1, value wdl-1"
  std::uint32_t key_bytes = 16, value_bytes = 4;
  std::uint64_t entry_count = 0;
  std::vector<std::pair<std::string, std::uint64_t>> tallies;  // e.g. {"wins", 1066101}
};

// Writes the entries (keys[i K, (i+1) K) with values[i V, (i+1) V)) to `path`: a temporary file
// first, fsynced, then renamed, so an interrupted write never leaves a table that looks complete.
// Keys must be strictly increasing (as big-endian numbers). Throws std::invalid_argument for a
// bad header or unsorted keys and TableWriteError when the file cannot be written.
void write_keyed_table(const std::filesystem::path& path, const KeyedTableHeader& header,
                       std::span<const std::byte> keys, std::span<const std::byte> values,
                       int zstd_level = 19,
                       std::uint32_t entries_per_block = kDefaultEntriesPerBlock);

class KeyedTableReader {
 public:
  // Opens `path` and checks its header and index (magic, version, checksums, field consistency,
  // keys in order, file size); a non-empty expected_game / expected_name must match. Throws
  // TableError naming the file. Blocks are checked when they are read.
  explicit KeyedTableReader(const std::filesystem::path& path, std::string_view expected_game = {},
                            std::string_view expected_name = {});
  KeyedTableReader(KeyedTableReader&&) noexcept;
  KeyedTableReader& operator=(KeyedTableReader&&) noexcept;
  ~KeyedTableReader();

  const KeyedTableHeader& header() const;
  std::uint64_t file_bytes() const;
  std::uint32_t entries_per_block() const;

  // The value of `key` (K bytes) copied into `value` (V bytes); false if the key is not stored.
  // Decompresses its block unless it is among the few most recently used; thread-safe.
  bool find(std::span<const std::byte> key, std::span<std::byte> value);
  // Forgets the cached blocks, so the next find() pays a full block read (for benchmarks).
  void drop_cache();

  // Every entry in key order, each block checked: visit(key, value).
  using VisitEntry =
      std::function<void(std::span<const std::byte> key, std::span<const std::byte> value)>;
  void for_each_entry(const VisitEntry& visit);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace tablebase
