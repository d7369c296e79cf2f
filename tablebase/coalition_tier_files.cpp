#include "tablebase/coalition_tier_files.h"

#include <algorithm>
#include <atomic>
#include <concepts>
#include <cstdio>
#include <cstring>

#include "tablebase/table_file.h"
#include "tablebase/value_digest.h"

namespace tablebase {
namespace {

std::string encoding(const CoalitionTierName& name) {
  return name.scheme + "; coalition codes 1, " + std::to_string(name.splits) + " splits";
}

}  // namespace

TableReader open_coalition_tier(const CoalitionTierName& name, std::uint64_t codes) {
  const auto path = coalition_tier_path(name);
  TableReader reader(path, name.variant, name.tier_name);
  const TableHeader& h = reader.header();
  if (h.encoding != encoding(name))
    throw TableError(path, "holds \"" + h.encoding + "\", not \"" + encoding(name) + "\"");
  if ((h.bits_per_record != 8 && h.bits_per_record != 16) || h.record_count != codes)
    throw TableError(path, "holds " + std::to_string(h.record_count) + " records of " +
                               std::to_string(h.bits_per_record) + " bits, not " +
                               std::to_string(codes) + " of 8 or 16");
  return reader;
}

std::uint64_t coalition_tier_digest(const CoalitionTierName& name, std::uint64_t codes) {
  TableReader reader = open_coalition_tier(name, codes);
  const std::uint32_t bits = reader.header().bits_per_record;
  return records_digest(reader, [bits](std::uint32_t record) {
    return coalition_code_from_record<WideCoalitionCode>(record, bits);
  });
}

std::filesystem::path coalition_tier_path(const CoalitionTierName& name) {
  char file[32];
  std::snprintf(file, sizeof file, "tier-%04d.coalitions", name.tier);
  return name.dir / file;
}

namespace {

template <CoalitionCodeWidth Code>
std::uint64_t write_codes(const CoalitionTierName& name, std::span<const Code> codes,
                          int zstd_level) {
  const TableHeader header{name.variant, name.tier_name, codes.size(), 8 * sizeof(Code),
                           encoding(name)};
  const auto path = coalition_tier_path(name);
  write_table_blocks(
      path, header,
      [&](std::uint64_t first, std::span<std::uint64_t> words) {
        const std::uint64_t n =
            std::min<std::uint64_t>(words.size() * 8 / sizeof(Code), codes.size() - first);
        std::memcpy(words.data(), codes.data() + first, n * sizeof(Code));
      },
      zstd_level);
  return std::filesystem::file_size(path);
}

template <CoalitionCodeWidth Code>
void read_tier(const CoalitionTierName& name, std::span<Code> codes) {
  TableReader reader = open_coalition_tier(name, codes.size());
  if (sizeof(Code) == 1 && reader.header().bits_per_record != 8)
    throw CoalitionCodesTooNarrow(coalition_tier_path(name).string() +
                                  " holds codes of two bytes, read into codes of one");
  std::atomic<bool> damaged = false;
  for_each_coalition_code_block(reader, codes.size(), [&](std::uint64_t first, auto stored) {
    using Stored = typename decltype(stored)::value_type;
    for (std::uint64_t i = 0; i < stored.size(); ++i) {
      const Stored c = stored[i];
      if (c == kCoalitionUnresolved<Stored> || c == kCoalitionNotInRow<Stored>) damaged = true;
      if constexpr (std::same_as<Code, Stored>)
        codes[first + i] = c;
      else
        codes[first + i] = coalition_recode<Code>(c);
    }
  });
  if (damaged) throw TableError(coalition_tier_path(name), "holds a code no solve writes");
}

}  // namespace

std::uint64_t write_coalition_tier(const CoalitionTierName& name,
                                   std::span<const CoalitionCode> codes, int zstd_level) {
  return write_codes(name, codes, zstd_level);
}
std::uint64_t write_coalition_tier(const CoalitionTierName& name,
                                   std::span<const WideCoalitionCode> codes, int zstd_level) {
  return write_codes(name, codes, zstd_level);
}

bool coalition_tier_present(const CoalitionTierName& name, std::uint64_t codes) {
  if (!std::filesystem::exists(coalition_tier_path(name))) return false;
  open_coalition_tier(name, codes);
  return true;
}

void read_coalition_tier(const CoalitionTierName& name, std::span<CoalitionCode> codes) {
  read_tier(name, codes);
}
void read_coalition_tier(const CoalitionTierName& name, std::span<WideCoalitionCode> codes) {
  read_tier(name, codes);
}

std::optional<std::string> coalition_tiers_variant(const std::filesystem::path& dir) {
  const auto path = dir / "index.tiers";
  std::error_code error;
  if (!std::filesystem::is_regular_file(path, error)) return std::nullopt;
  return TableReader(path).header().variant;
}

}  // namespace tablebase
