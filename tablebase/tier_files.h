// A solved tier on disk: two table files (table_file.h), Syzygy-style.
//   NAME.value  1 bit a position: 1 = win for the side to move
//   NAME.dte    DTE / 2 in as few bits as the tier needs (the value bit restores the parity)
// One record per stored entry of the tier (tier_space.h). The .value file is written last, so its
// presence marks a finished tier; its encoding string names the index scheme, so tables written
// under another numbering of positions are refused rather than misread.
//
// Value-only tables (`solve --value-only`) are the .value files alone, the same bits: whatever
// needs only values (the prover's oracle, ValueTables) reads either kind.
//
// In memory a solved tier is one byte a stored entry, its DTE, or for value-only tables one bit,
// its value (packed 64 to a word, LSB first, as in the file).
#pragma once

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

#include "tablebase/index_range.h"
#include "tablebase/table_file.h"

namespace tablebase {

inline constexpr int kMaxDte = 63;  // the longest game a tier may hold, in plies

std::filesystem::path value_path(const std::filesystem::path& dir, const std::string& tier);
std::filesystem::path dte_path(const std::filesystem::path& dir, const std::string& tier);

struct TierFileSizes {
  std::uint64_t value_bytes = 0, dte_bytes = 0;
};

// A tier written while its entries are brought into memory batch by batch (a split tier's member
// 0, tier_team_gather.h): before_batch brings each batch's entries into the array being written,
// and max_dte is the tier's largest DTE (it sets the .dte record width), which the writer cannot
// count from entries it does not hold.
struct StreamedWrite {
  BeforeBatch before_batch;
  int max_dte = 0;
};

// Writes both files of a solved tier (each to a temporary name, then renamed; .dte first). With
// `streamed`, each file's entries are brought in batch by batch as it is written.
TierFileSizes write_tier_files(const std::filesystem::path& dir, const std::string& variant,
                               const std::string& tier, std::span<const std::uint8_t> bytes,
                               int zstd_level, const StreamedWrite* streamed = nullptr);

// Writes the .value file alone (value-only tables) from the tier's bits, `entries` of them.
TierFileSizes write_value_file(const std::filesystem::path& dir, const std::string& variant,
                               const std::string& tier, std::span<const std::uint64_t> bits,
                               std::uint64_t entries, int zstd_level,
                               const BeforeBatch& before_batch = {});

// A finished tier's .value file, opened and checked (header, variant, tier, index scheme).
TableReader open_value_file(const std::filesystem::path& dir, const std::string& variant,
                            const std::string& tier);

// Both files of a finished tier, opened and checked: headers, variant, tier and index scheme.
// Throws TableError naming the file; a .dte file missing beside its .value says that the tables
// are value-only.
struct TierReaders {
  TableReader value, dte;
  TierReaders(const std::filesystem::path& dir, const std::string& variant,
              const std::string& tier);
};

// True when the tier's .value file exists; it is then checked (header, variant, tier), and its
// .dte file too unless value_only, and a bad or missing file throws TableError, so damage is
// reported instead of being solved over silently.
bool tier_files_present(const std::filesystem::path& dir, const std::string& variant,
                        const std::string& tier, bool value_only = false);
TierFileSizes tier_file_sizes(const std::filesystem::path& dir, const std::string& tier);

// Reads a finished tier into `bytes` (its size must be the tier's): all of it, or with `only`
// (ranges in increasing order) those entries alone, reading only the blocks that hold them; the
// rest of `bytes` is left untouched. Throws TableError on any damage.
void read_tier_files(const std::filesystem::path& dir, const std::string& variant,
                     const std::string& tier, std::span<std::uint8_t> bytes,
                     std::span<const IndexRange> only = {});
// Reads a finished tier's value bits into `words` (ceil(entries / 64) of them), or with `only`
// those entries' bits alone, as read_tier_files.
void read_value_file(const std::filesystem::path& dir, const std::string& variant,
                     const std::string& tier, std::uint64_t entries, std::span<std::uint64_t> words,
                     std::span<const IndexRange> only = {});

// A tier stopped part way keeps its work in NAME.partial (whole bytes, so a resumed solve
// continues exactly where it stopped): the finished passes and how far the next one got, and when
// the solver folds child tiers in by groups (tier_sweep_plan.h) the names of those folded into
// every entry past the passes, and of a group being folded in with how far that sweep got. `words`
// holds the tier's entries, `bits_per_entry` each (8: DTE bytes; 1: value bits); the first
// `positions` of them are saved (brought in batch by batch by before_batch, if given). Reading,
// `only` (if not empty) names the entries to fill; the rest of `words` is left untouched. A
// damaged checkpoint, or one of the other kind, throws TableError.
struct PartialTier {
  int passes = 0;                     // passes finished
  std::uint64_t next_pass_done = 0;   // entries of the next pass finished (a prefix of it)
  std::vector<std::string> folded;    // child tiers folded into every entry past the passes
  std::vector<std::string> folding;   // a group of child tiers being folded in ...
  std::uint64_t folding_through = 0;  // ... into every entry past the passes and before this one
  std::uint64_t saved_entries = 0;    // read back: the entries whose bytes the file holds
};
std::filesystem::path partial_path(const std::filesystem::path& dir, const std::string& tier);
void write_partial_tier(const std::filesystem::path& dir, const std::string& variant,
                        const std::string& tier, std::span<const std::uint64_t> words,
                        std::uint64_t positions, const PartialTier& state, int bits_per_entry = 8,
                        const BeforeBatch& before_batch = {});
// Fills the start of `words` from NAME.partial and returns its state (nothing done if none).
PartialTier read_partial_tier(const std::filesystem::path& dir, const std::string& variant,
                              const std::string& tier, std::span<std::uint64_t> words,
                              int bits_per_entry = 8, std::span<const IndexRange> only = {});

// The variant whose tables `dir` holds (from the first .value file's header); throws TableError
// when the directory holds none.
std::string tables_variant(const std::filesystem::path& dir);

// The most pieces in play of any tier in `dir`, finished or being solved (from the names of its
// .value and .partial files: a letter a piece), which is how far endgame tables solved with a
// piece limit reach; throws TableError when the directory holds no finished tier.
int tables_max_pieces(const std::filesystem::path& dir);

// Writes header.record_count records, record(i) that of entry i, `bits_per_record` wide (a power
// of two, so no record straddles a word), packed block by block as the file is written: nothing
// the size of the table is held beside what record(i) reads.
template <typename Record>
void write_indexed_records(const std::filesystem::path& path, const TableHeader& header,
                           const Record& record, int zstd_level,
                           const BeforeBatch& before_batch = {}) {
  const std::uint64_t bits = header.bits_per_record;
  write_table_blocks(
      path, header,
      [&](std::uint64_t first, std::span<std::uint64_t> words) {
        const std::uint64_t end =
            std::min<std::uint64_t>(header.record_count, first + words.size() * 64 / bits);
        for (std::uint64_t i = first; i < end; ++i) {
          const std::uint64_t bit = (i - first) * bits;
          words[bit >> 6] |= std::uint64_t(record(i)) << (bit & 63);
        }
      },
      zstd_level, kDefaultBlockBytes, before_batch);
}

// Writes one record per byte, record(byte) (write_indexed_records).
void write_byte_records(const std::filesystem::path& path, const TableHeader& header,
                        std::span<const std::uint8_t> bytes, std::uint32_t (*record)(std::uint8_t),
                        int zstd_level, const BeforeBatch& before_batch = {});

// Copies every block of `reader` (records `bits` wide) into place in `words`: blocks hold whole
// words (a multiple of 64 records), so each goes straight to its offset. With `only`, just the
// records there (bits 8 or 1).
void copy_table_blocks(TableReader& reader, std::uint64_t bits, std::span<std::uint64_t> words,
                       std::span<const IndexRange> only = {});

// DTE from the two records of one position.
inline int dte_from_records(std::uint32_t value_bit, std::uint32_t dte_half) {
  return int(2 * dte_half + value_bit);
}

}  // namespace tablebase
