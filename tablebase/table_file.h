// One solved tier on disk: a dense array of small fixed-width records (the solver's value and
// distance-to-end bits), stored as independently zstd-compressed blocks so a probe decompresses
// one block, with checksums on everything so damage is refused instead of being read as values.
// Knows nothing of the game: the solver chooses what the records, variant and tier strings mean.
//
// Format version 1 (all integers little-endian; tablebase/FORMAT.md has the rationale):
//
//   header, at offset 0
//     0   8  magic "DROP16TB"
//     8   4  format version (1)
//     12  4  header size H in bytes, including the checksum that ends it
//     16  8  record count N
//     24  4  bits per record b, 1..32
//     28  4  records per block R, a positive multiple of 64 (so blocks start on a 64-bit word)
//     32  8  block count B = ceil(N / R)
//     40     variant, tier, encoding: each a u16 byte length then that many bytes
//     H-8 8  CRC-64/XZ of header bytes [0, H-8)
//   block index, at offset H, 16 B + 16 bytes
//     B times: u64 file offset of block i, u64 CRC-64/XZ of its compressed bytes
//     u64 end of the last block (= file size)
//     u64 CRC-64/XZ of the index bytes before it
//   blocks, from H + 16 B + 16, back to back
//     block i is one zstd frame holding records [i R, min((i+1) R, N)) bit-packed LSB-first,
//     b bits each, into 64-bit words: ceil(records * b / 64) words, padding bits zero.
//
// Magic and version come first and never move, so any later version is refused by name; every
// other byte is under a checksum, and the index fixes the file size, so truncation is caught at
// open and a damaged block when it is read.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "tablebase/index_range.h"

namespace tablebase {

inline constexpr std::uint32_t kTableFormatVersion = 1;
// Uncompressed bytes per block: the size/latency trade-off measured by bench/table_file_bench.cpp
// (FORMAT.md has the numbers). Readers take the block size from the header, not from here.
inline constexpr std::size_t kDefaultBlockBytes = 16 * 1024;
// Longest variant, tier or encoding string, to keep a damaged length from asking for gigabytes.
inline constexpr std::size_t kMaxHeaderString = 4096;

// Raised for a missing, truncated, corrupted or mismatched table file, and for a failed write;
// what() starts with the file name.
class TableError : public std::runtime_error {
 public:
  TableError(const std::filesystem::path& file, const std::string& fault);
};

// A table or checkpoint that could not be written (disk full, no permission): the machine's
// fault, not the input's, so commands tell it apart from a damaged file they were given.
class TableWriteError : public TableError {
 public:
  using TableError::TableError;
};

struct TableHeader {
  std::string variant;                // e.g. "3x3:NBRK"
  std::string tier;                   // tier name, free text chosen by the solver
  std::uint64_t record_count = 0;     // number of records
  std::uint32_t bits_per_record = 1;  // 1..32
  std::string encoding;               // what a record means, e.g. "wdl1" or "dte6"
};

// Records per block for a given width and block size: the most whole 64-record groups that fit.
std::uint64_t records_per_block(std::uint32_t bits_per_record, std::size_t block_bytes);

// Record at bit offset `bit` of words packed LSB-first, `bits` wide (1..32).
inline std::uint32_t packed_record(std::span<const std::uint64_t> words, std::uint64_t bit,
                                   std::uint32_t bits) {
  const std::uint64_t word = bit >> 6;
  const unsigned shift = bit & 63;
  std::uint64_t v = words[word] >> shift;
  if (shift + bits > 64) v |= words[word + 1] << (64 - shift);
  return std::uint32_t(v & ((std::uint64_t{1} << bits) - 1));
}

// Called on the writing thread before each batch of blocks is packed, with the records
// [first_record, end_record) the batch holds: lets a caller bring those records into memory just
// in time and drop them after (a team's member 0 gathers a split tier from its owners this way,
// tier_team.h). With it a batch holds at most kStreamedBatchRecords records.
using BeforeBatch = std::function<void(std::uint64_t first_record, std::uint64_t end_record)>;
inline constexpr std::uint64_t kStreamedBatchRecords = std::uint64_t{1} << 23;

// Writes records[0..record_count) (the low bits_per_record bits of each) to `path`: to
// `path + ".tmp"` first, fsync, then rename, so an interrupted write never leaves a table that
// looks complete. Blocks are compressed in parallel. Throws std::invalid_argument for a bad header
// or record count and TableError when the file cannot be written.
void write_table(const std::filesystem::path& path, const TableHeader& header,
                 std::span<const std::uint32_t> records, int zstd_level = 19,
                 std::size_t block_bytes = kDefaultBlockBytes);
// Same, from records already bit-packed LSB-first, bits_per_record each, into
// ceil(record_count * bits_per_record / 64) words (bits past the last record are ignored).
void write_packed_table(const std::filesystem::path& path, const TableHeader& header,
                        std::span<const std::uint64_t> packed_words, int zstd_level = 19,
                        std::size_t block_bytes = kDefaultBlockBytes,
                        const BeforeBatch& before_batch = {});

// Same, with the records packed block by block as they are written: pack(first_record, words)
// fills `words` (zeroed, one block long) with records [first_record, first_record + the block's
// records). Called in parallel; nothing the size of the table is held in memory, which is what
// lets a solver write a tier of many gigabytes next to the tier itself.
using PackBlock = std::function<void(std::uint64_t first_record, std::span<std::uint64_t> words)>;
void write_table_blocks(const std::filesystem::path& path, const TableHeader& header,
                        const PackBlock& pack, int zstd_level = 19,
                        std::size_t block_bytes = kDefaultBlockBytes,
                        const BeforeBatch& before_batch = {});

// The memory a write of a table of `raw_bytes` of records holds in its buffers at most (a batch
// of compressed blocks and the block index), beside table_thread_buffer_bytes() a thread: what
// a memory plan counts for its table files.
std::uint64_t table_write_buffer_bytes(std::uint64_t raw_bytes,
                                       std::size_t block_bytes = kDefaultBlockBytes);
// The memory a reader of a table of `raw_bytes` of records holds (its block index and its cache of
// the last blocks read).
std::uint64_t table_read_buffer_bytes(std::uint64_t raw_bytes,
                                      std::size_t block_bytes = kDefaultBlockBytes);
// What each thread that has compressed or decompressed blocks keeps for its life: zstd's contexts
// (at the highest level a writer uses) and a block's buffers.
std::uint64_t table_thread_buffer_bytes(std::size_t block_bytes = kDefaultBlockBytes);

// Decoded blocks of table files, the least recently used dropped when all its slots are taken;
// thread-safe. Each reader has one of a few slots of its own; the readers of files probed together
// share a larger one (TableReader::share_cache): a position's children lie in several files (a
// loopy tier space's tiers), and a cache for all of them keeps what one position's neighbourhood
// touches decoded whichever files it spans, in memory bounded for the whole set.
class BlockCache {
 public:
  explicit BlockCache(std::size_t slots);
  BlockCache(const BlockCache&) = delete;
  BlockCache& operator=(const BlockCache&) = delete;

  std::size_t slots() const { return slots_.size(); }
  // The record of `bits` bits at `bit` of block `block` of `owner` (a reader), when held.
  std::optional<std::uint32_t> record(const void* owner, std::uint64_t block, std::uint64_t bit,
                                      std::uint32_t bits);
  // Holds `words` as block `block` of `owner`, in place of the least recently used.
  void put(const void* owner, std::uint64_t block, std::vector<std::uint64_t> words);
  // Drops every block of `owner` (a reader closed, or asked to forget them).
  void forget(const void* owner);

 private:
  struct Slot {
    const void* owner = nullptr;
    std::uint64_t block = 0;
    std::uint64_t last_use = 0;
    std::vector<std::uint64_t> words;
  };
  std::mutex mutex_;
  std::vector<Slot> slots_;
  std::uint64_t use_clock_ = 0;
};

// Whether `path` starts as a file of this format does (its magic): a keyed table
// (keyed_table_file.h) may share a table's extension in a folder, and a reader looking for tables
// skips it.
bool is_table_file(const std::filesystem::path& path);

class TableReader {
 public:
  // Opens `path` and checks its header and block index (magic, format version, checksums, field
  // consistency, file size); if expected_variant / expected_tier are non-empty they must match.
  // Throws TableError on any problem. Block payloads are checked when they are read.
  explicit TableReader(const std::filesystem::path& path, std::string_view expected_variant = {},
                       std::string_view expected_tier = {});
  TableReader(TableReader&&) noexcept;
  TableReader& operator=(TableReader&&) noexcept;
  ~TableReader();

  const TableHeader& header() const;
  std::uint64_t records_per_block() const;

  // Record `index` (< record_count, else std::out_of_range). Reads, checksums and decompresses
  // its block unless that block is among the few most recently used; thread-safe.
  std::uint32_t get(std::uint64_t index);
  // Block `block` (< block_count()), checked and decompressed, packed as in read_packed: records
  // [block R, (block + 1) R). For a caller that keeps its own, larger, cache of blocks.
  std::vector<std::uint64_t> read_block(std::uint64_t block) const;
  std::uint64_t block_count() const;
  // Forgets the cached blocks, so the next get() pays a full block read (for benchmarks).
  void drop_cache();
  // get() keeps its blocks in `cache` (shared with other readers) from now on, not in its own.
  void share_cache(std::shared_ptr<BlockCache> cache);

  // Reads every block and checks its checksum and size; throws TableError on damage.
  void verify_all();
  // The whole table, checked, in the packed layout write_packed_table() takes: for a solver
  // that probes a finished tier too often for one-block-at-a-time reads.
  std::vector<std::uint64_t> read_packed();
  // Every block, checked and decompressed, handed to visit(first_record, words) (in parallel,
  // words packed as in read_packed): the whole table without holding all of it packed at once.
  // With `only` (ranges of records in increasing order), just the blocks that hold some of them.
  using VisitBlock =
      std::function<void(std::uint64_t first_record, std::span<const std::uint64_t> words)>;
  void for_each_block(const VisitBlock& visit, std::span<const IndexRange> only = {});
  // The whole table, checked, one record per element: for small tables and tests.
  std::vector<std::uint32_t> read_all();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace tablebase
