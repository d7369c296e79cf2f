// A solved loopy tier on disk (loopy_tier_solver.h), in the checked table format (table_file.h):
//   NAME.wdl      a record an entry: 0 for an entry not in the row (left unsolved by a solve of
//                 the reached entries only), 1 for a draw, else the distance + 2 (the distance's
//                 parity is the value: odd a win for the side to move), in 1, 2, 4 or 8 bits, the
//                 fewest the tier's greatest record needs ("loopy wdl 2"; files of "loopy wdl 1",
//                 0 a draw and distance + 1 with every entry solved, are still read)
//   NAME.reached  a bit an entry: reached by play from the variant's roots (what the counts of
//                 positions in a solve's report are over)
//   NAME.marks    a tier's reach marks so far, in a reach not finished with the tier (a bit an
//                 entry, as NAME.reached), and in its header's tier ("NAME marks, blocks 0-K
//                 spread") how many of its blocks were spread: written at the reach's checkpoints
//                 (loopy_tier_solver.h), so a stopped reach resumes from them; removed once
//                 NAME.reached is written
//   NAME.B-E.slice  entries [B, E) of a tier solved a slice at a time, as NAME.wdl holds them
//                 (its header's tier "NAME entries B-E"): each written when its slice is solved,
//                 so a run stopped inside the tier resumes at its next unfinished slice (taking
//                 the slice files there whatever plan made them); merged into NAME.wdl (the same
//                 bytes a whole-tier solve writes) and removed once they hold every entry
// The encoding strings name the space's index scheme (LoopyTierSpace::index_scheme), so tables of
// another numbering of positions are refused rather than misread. The .wdl file is written last
// and renamed into place when complete (table_file.h), so its presence marks a finished tier.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "tablebase/index_range.h"
#include "tablebase/loopy_value.h"
#include "tablebase/reached_ranks.h"
#include "tablebase/table_file.h"

namespace tablebase {

struct LoopyTableName {
  std::filesystem::path dir;
  std::string variant, scheme, tier;
};

// The I/O buffers a solve holds at most while it writes and reads the tier files of a space whose
// largest tier has `largest_tier` entries (a file is a byte an entry at most), with `threads`
// threads besides the caller's: a memory plan's part for its files.
inline std::uint64_t loopy_io_bytes(std::uint64_t largest_tier, int threads) {
  // A file written while another is open for reading.
  return table_write_buffer_bytes(largest_tier) + table_read_buffer_bytes(largest_tier) +
         std::uint64_t(threads + 1) * table_thread_buffer_bytes();
}

std::filesystem::path loopy_wdl_path(const LoopyTableName& name);
std::filesystem::path loopy_reached_path(const LoopyTableName& name);

// Writes the tier's codes, and with `reached` (its reached bits, loopy_reach.h) every entry not
// marked as not in the row, whatever its code; returns the file's bytes.
std::uint64_t write_loopy_tier(const LoopyTableName& name, std::span<const LoopyCode> codes,
                               int zstd_level, const std::uint64_t* reached = nullptr);
// Writes the tier's codes held by rank among its reached entries (loopy_compact.h): entry i's code
// is codes[ranks.rank(i)] where ranks marks it, and every other entry is not in the row; the
// same file write_loopy_tier writes from the codes of every entry. Returns the file's bytes.
std::uint64_t write_loopy_tier_by_rank(const LoopyTableName& name, const ReachedRanks& ranks,
                                       std::span<const LoopyCode> codes, int zstd_level);
// True when NAME.wdl exists; it is then opened and checked (header, variant, tier, scheme, size),
// so a damaged or foreign file throws TableError instead of being solved over.
bool loopy_tier_present(const LoopyTableName& name, std::uint64_t entries);
// Reads a finished tier's codes into `codes` (its size must be the tier's); throws TableError on
// any damage, a record no writer makes among it; either format. With `only` (ranges in
// increasing order), just the entries there: the rest of `codes` is not written (a sparse array
// stays untouched there).
void read_loopy_tier(const LoopyTableName& name, std::span<LoopyCode> codes,
                     std::span<const IndexRange> only = {});

// The digest of a finished tier's codes (value_digest.h's records_digest, a byte an entry: not in
// the row, a draw, or a value and distance), either format; throws TableError as read_loopy_tier.
std::uint64_t loopy_tier_digest(const LoopyTableName& name, std::uint64_t entries);

// A finished tier's NAME.wdl opened and checked as the functions above do, read an entry at a
// time (TableReader::get, which keeps the last few blocks); thread-safe.
class LoopyTierReader {
 public:
  LoopyTierReader(const LoopyTableName& name, std::uint64_t entries);
  // Throws TableError for a record no writer makes.
  LoopyCode code(std::uint64_t index);
  void drop_cache() { reader_.drop_cache(); }
  void share_cache(std::shared_ptr<BlockCache> cache) { reader_.share_cache(std::move(cache)); }

 private:
  std::filesystem::path path_;
  int format_ = 0;  // the encoding's: 1 or 2 (set by reader_'s opening)
  TableReader reader_;
};

// A slice's file (above): written from the slice's codes, with `reached` (the tier's reached
// bits, by the tier's index) as write_loopy_tier writes them; checked when present as NAME.wdl
// is, in the format written only (a slice of format 1 is refused by name).
std::filesystem::path loopy_slice_path(const LoopyTableName& name, IndexRange slice);
void write_loopy_slice(const LoopyTableName& name, IndexRange slice,
                       std::span<const LoopyCode> codes, int zstd_level,
                       const std::uint64_t* reached = nullptr);
bool loopy_slice_present(const LoopyTableName& name, IndexRange slice);
// The ranges of the tier's slice files in its directory, whatever plan made them (by their names,
// not opened), sorted by first entry, the longest first of those that start alike.
std::vector<IndexRange> loopy_slices_on_disk(const LoopyTableName& name);
// NAME.wdl written from its slices' files (which must cover the tier's `entries` in order), their
// records copied block by block, so that no more than a block a thread is in memory; then the
// slices' files removed. Returns the file's bytes.
std::uint64_t merge_loopy_slices(const LoopyTableName& name, std::uint64_t entries,
                                 std::span<const IndexRange> slices, int zstd_level);

// A finished tier's NAME.reached opened and checked, for probes of single entries.
TableReader open_loopy_reached(const LoopyTableName& name, std::uint64_t entries);

// The reached bits, `entries` of them packed LSB first into `words`.
void write_loopy_reached(const LoopyTableName& name, std::span<const std::uint64_t> words,
                         std::uint64_t entries, int zstd_level);
bool loopy_reached_present(const LoopyTableName& name, std::uint64_t entries);
void read_loopy_reached(const LoopyTableName& name, std::span<std::uint64_t> words,
                        std::uint64_t entries);

// A tier's reach marks so far (NAME.marks, above), `entries` of them packed as write_loopy_reached
// takes them, with its first `spread_blocks` blocks spread.
std::filesystem::path loopy_marks_path(const LoopyTableName& name);
void write_loopy_marks(const LoopyTableName& name, std::span<const std::uint64_t> words,
                       std::uint64_t entries, std::uint64_t spread_blocks, int zstd_level);
// Reads NAME.marks into `words` and returns its blocks spread, nullopt when there is none; checked
// first (header, variant, tier, scheme, size, at most `blocks` spread, checksums), so a damaged or
// foreign file throws TableError instead of being trusted.
std::optional<std::uint64_t> read_loopy_marks(const LoopyTableName& name,
                                              std::span<std::uint64_t> words, std::uint64_t entries,
                                              std::uint64_t blocks);
// Removes NAME.marks, and the temporary file a write of it killed midway left (file_io.h).
void remove_loopy_marks(const LoopyTableName& name);

// The variant whose loopy tables `dir` holds, from the header of one of its NAME.reached files
// (written first, for every tier, by a solve) or loopy NAME.wdl files (a keyed table's
// <game>.wdl, of another format, is skipped); nullopt when it holds none. Throws TableError naming
// the file when the one it reads is damaged.
std::optional<std::string> loopy_tables_variant(const std::filesystem::path& dir);

}  // namespace tablebase
