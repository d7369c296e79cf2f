#include "tablebase/coalition_tier_files.h"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstring>

#include "tablebase/table_file.h"

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
  if (h.bits_per_record != 8 || h.record_count != codes)
    throw TableError(path, "holds " + std::to_string(h.record_count) + " records of " +
                               std::to_string(h.bits_per_record) + " bits, not " +
                               std::to_string(codes) + " of 8");
  return reader;
}

std::filesystem::path coalition_tier_path(const CoalitionTierName& name) {
  char file[32];
  std::snprintf(file, sizeof file, "tier-%04d.coalitions", name.tier);
  return name.dir / file;
}

std::uint64_t write_coalition_tier(const CoalitionTierName& name,
                                   std::span<const CoalitionCode> codes, int zstd_level) {
  const TableHeader header{name.variant, name.tier_name, codes.size(), 8, encoding(name)};
  const auto path = coalition_tier_path(name);
  write_table_blocks(
      path, header,
      [&](std::uint64_t first, std::span<std::uint64_t> words) {
        const std::uint64_t n = std::min<std::uint64_t>(words.size() * 8, codes.size() - first);
        std::memcpy(words.data(), codes.data() + first, n);
      },
      zstd_level);
  return std::filesystem::file_size(path);
}

bool coalition_tier_present(const CoalitionTierName& name, std::uint64_t codes) {
  if (!std::filesystem::exists(coalition_tier_path(name))) return false;
  open_coalition_tier(name, codes);
  return true;
}

void read_coalition_tier(const CoalitionTierName& name, std::span<CoalitionCode> codes) {
  TableReader reader = open_coalition_tier(name, codes.size());
  std::atomic<bool> damaged = false;
  reader.for_each_block([&](std::uint64_t first, std::span<const std::uint64_t> words) {
    const std::uint64_t n = std::min<std::uint64_t>(words.size() * 8, codes.size() - first);
    std::memcpy(codes.data() + first, words.data(), n);
    for (std::uint64_t i = 0; i < n; ++i)
      if (codes[first + i] == kCoalitionUnresolved || codes[first + i] == kCoalitionNotInRow)
        damaged = true;
  });
  if (damaged) throw TableError(coalition_tier_path(name), "holds a code no solve writes");
}

std::optional<std::string> coalition_tiers_variant(const std::filesystem::path& dir) {
  const auto path = dir / "index.tiers";
  std::error_code error;
  if (!std::filesystem::is_regular_file(path, error)) return std::nullopt;
  return TableReader(path).header().variant;
}

}  // namespace tablebase
