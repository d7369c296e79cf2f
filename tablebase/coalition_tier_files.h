// A solved coalition tier on disk (coalition_tier_solver.h), in the checked table format
// (table_file.h): DIR/tier-NNNN.coalitions holds the tier's codes (coalition_code.h), a code a
// split and entry in the row, entries by rank, splits in order, as 8-bit records (or 16-bit ones,
// for a tier solved in two-byte codes; a solve may leave tiers of both). Its header names
// the variant, the tier and the encoding (the space's index scheme and the splits' count), so a
// file of another variant, tier or numbering is refused rather than misread; written whole and
// renamed into place (table_file.h), so its presence marks a finished tier.
#pragma once

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>

#include "tablebase/coalition_code.h"
#include "tablebase/table_file.h"

namespace tablebase {

struct CoalitionTierName {
  std::filesystem::path dir;
  std::string variant, scheme;
  int tier = 0;
  std::string tier_name;
  int splits = 0;
};

std::filesystem::path coalition_tier_path(const CoalitionTierName& name);
// Writes the codes, in records of their width; returns the file's bytes. Throws TableError when
// it cannot.
std::uint64_t write_coalition_tier(const CoalitionTierName& name,
                                   std::span<const CoalitionCode> codes, int zstd_level);
std::uint64_t write_coalition_tier(const CoalitionTierName& name,
                                   std::span<const WideCoalitionCode> codes, int zstd_level);
// Whether the tier's file exists; it is then opened and checked (header, variant, tier, encoding,
// size), so a damaged or foreign file throws TableError instead of being solved over.
bool coalition_tier_present(const CoalitionTierName& name, std::uint64_t codes);
// The tier's file opened and checked as coalition_tier_present checks it (a missing one too
// throws TableError), for reads of single codes (coalition_code_from_record with its header's
// bits_per_record).
TableReader open_coalition_tier(const CoalitionTierName& name, std::uint64_t codes);
// visit(first, stored) for each block of an opened tier file (open_coalition_tier) of `count`
// codes: `stored` a span of the file's own width (CoalitionCode or WideCoalitionCode), `first` the
// index of its first code. Blocks may be visited in parallel.
template <typename Visit>
void for_each_coalition_code_block(TableReader& reader, std::uint64_t count, Visit&& visit) {
  const auto as = [&]<typename Stored>() {
    reader.for_each_block([&](std::uint64_t first, std::span<const std::uint64_t> words) {
      const std::uint64_t n =
          std::min<std::uint64_t>(words.size() * 8 / sizeof(Stored), count - first);
      visit(first, std::span<const Stored>(reinterpret_cast<const Stored*>(words.data()), n));
    });
  };
  if (reader.header().bits_per_record == 8)
    as.template operator()<CoalitionCode>();
  else
    as.template operator()<WideCoalitionCode>();
}

// Reads the tier's codes into `codes` (its size must be the file's), a byte file's widened when
// the codes are wide; throws TableError on damage or a code no solve writes, and
// CoalitionCodesTooNarrow for a file of two-byte codes read into bytes.
void read_coalition_tier(const CoalitionTierName& name, std::span<CoalitionCode> codes);
void read_coalition_tier(const CoalitionTierName& name, std::span<WideCoalitionCode> codes);

// The digest of a finished tier's codes (value_digest.h's records_digest, each as two-byte codes
// hold it), the same for a tier written in bytes or in two; throws TableError as
// open_coalition_tier.
std::uint64_t coalition_tier_digest(const CoalitionTierName& name, std::uint64_t codes);

// The variant whose coalition tier tables DIR holds (the header of its index.tiers, which a solve
// writes before any tier), nullopt when it holds none. Throws TableError for a damaged file.
std::optional<std::string> coalition_tiers_variant(const std::filesystem::path& dir);

}  // namespace tablebase
