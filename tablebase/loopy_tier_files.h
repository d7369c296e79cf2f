// A solved loopy tier on disk (loopy_tier_solver.h), in the checked table format (table_file.h):
//   NAME.wdl      a record an entry: 0 for a draw, else the distance + 1 (the distance's parity
//                 is the value: odd a win for the side to move), in 1, 2, 4 or 8 bits, the fewest
//                 the tier's longest distance needs
//   NAME.reached  a bit an entry: reached by play from the variant's roots (what the counts of
//                 positions in a solve's report are over)
//   NAME.B-E.slice  entries [B, E) of a tier solved a slice at a time, as NAME.wdl holds them
//                 (its header's tier "NAME entries B-E"): each written when its slice is solved,
//                 so a run stopped inside the tier resumes at its next unfinished slice; merged
//                 into NAME.wdl (the same bytes a whole-tier solve writes) and removed once all
//                 are there
// The encoding strings name the space's index scheme (LoopyTierSpace::index_scheme), so tables of
// another numbering of positions are refused rather than misread. The .wdl file is written last
// and renamed into place when complete (table_file.h), so its presence marks a finished tier.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>

#include "tablebase/index_range.h"
#include "tablebase/loopy_value.h"
#include "tablebase/table_file.h"

namespace tablebase {

struct LoopyTableName {
  std::filesystem::path dir;
  std::string variant, scheme, tier;
};

std::filesystem::path loopy_wdl_path(const LoopyTableName& name);
std::filesystem::path loopy_reached_path(const LoopyTableName& name);

// Writes the tier's codes; returns the file's bytes.
std::uint64_t write_loopy_tier(const LoopyTableName& name, std::span<const LoopyCode> codes,
                               int zstd_level);
// True when NAME.wdl exists; it is then opened and checked (header, variant, tier, scheme, size),
// so a damaged or foreign file throws TableError instead of being solved over.
bool loopy_tier_present(const LoopyTableName& name, std::uint64_t entries);
// Reads a finished tier's codes into `codes` (its size must be the tier's); throws TableError on
// any damage, a record no writer makes among it. With `only` (ranges in increasing order), just
// the entries there: the rest of `codes` is not written (a sparse array stays untouched there).
void read_loopy_tier(const LoopyTableName& name, std::span<LoopyCode> codes,
                     std::span<const IndexRange> only = {});

// A slice's file (above): written from the slice's codes, checked when present as NAME.wdl is.
std::filesystem::path loopy_slice_path(const LoopyTableName& name, IndexRange slice);
void write_loopy_slice(const LoopyTableName& name, IndexRange slice,
                       std::span<const LoopyCode> codes, int zstd_level);
bool loopy_slice_present(const LoopyTableName& name, IndexRange slice);
// NAME.wdl written from its slices' files (which must cover the tier's `entries` in order), a
// batch of records at a time, so that no more than a batch of the tier is in memory; then the
// slices' files removed. Returns the file's bytes.
std::uint64_t merge_loopy_slices(const LoopyTableName& name, std::uint64_t entries,
                                 std::span<const IndexRange> slices, int zstd_level);
// A finished tier's NAME.wdl or NAME.reached opened and checked as the functions above do, for
// probes of single entries (TableReader::get): a record of .wdl turns into a code by
// loopy_record_code, which throws TableError for one no writer makes.
TableReader open_loopy_tier(const LoopyTableName& name, std::uint64_t entries);
TableReader open_loopy_reached(const LoopyTableName& name, std::uint64_t entries);
LoopyCode loopy_record_code(const LoopyTableName& name, std::uint32_t record);

// The reached bits, `entries` of them packed LSB first into `words`.
void write_loopy_reached(const LoopyTableName& name, std::span<const std::uint64_t> words,
                         std::uint64_t entries, int zstd_level);
bool loopy_reached_present(const LoopyTableName& name, std::uint64_t entries);
void read_loopy_reached(const LoopyTableName& name, std::span<std::uint64_t> words,
                        std::uint64_t entries);

// The variant whose loopy tables `dir` holds, from the header of one of its NAME.reached files
// (written first, for every tier, by a solve) or loopy NAME.wdl files; nullopt when it holds
// none. Throws TableError naming the file when the one it reads is damaged.
std::optional<std::string> loopy_tables_variant(const std::filesystem::path& dir);

}  // namespace tablebase
