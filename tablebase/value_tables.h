// Win or loss of any position the tables cover, from the .value files held whole in memory (one
// bit an entry, each tier loaded the first time it is asked about). For a search that probes
// millions of times, where reading one compressed block per probe (Tablebase) would dominate.
// Tiers whose files are missing (a solve not finished) are simply not covered.
#pragma once

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "tablebase/table_file.h"
#include "tablebase/tier_files.h"
#include "tablebase/tier_space.h"

namespace tablebase {

template <TierSpace S>
class ValueTables {
 public:
  // Throws TableError if `dir` holds tables of another variant.
  ValueTables(const S& space, std::filesystem::path dir)
      : space_(space),
        dir_(std::move(dir)),
        tiers_(std::make_unique<Tier[]>(std::size_t(space.tier_count()))) {
    const std::string found = tables_variant(dir_);
    if (found != space_.variant_name())
      throw TableError(dir_, "holds tables of variant " + found + ", not " + space_.variant_name());
  }

  // Whether the side to move wins p; nullopt when the tables do not cover p. Thread-safe; a
  // damaged file throws TableError.
  std::optional<bool> win(const typename S::Position& p) {
    const Location at = space_.locate(p);
    if (at.tier < 0) return std::nullopt;
    Tier& tier = tiers_[std::size_t(at.tier)];
    std::call_once(tier.loaded, [&] { load(at.tier, tier); });
    if (!tier.present) return std::nullopt;
    return (tier.bits[at.index >> 6] >> (at.index & 63) & 1) != 0;
  }

  std::uint64_t bytes_loaded() const { return bytes_loaded_.load(); }

 private:
  struct Tier {
    std::once_flag loaded;
    bool present = false;
    std::vector<std::uint64_t> bits;  // the .value file's records, packed 64 to a word
  };

  void load(int t, Tier& tier) {
    if (!std::filesystem::exists(value_path(dir_, space_.tier_name(t)))) return;
    // Only the .value file: value-only tables (solve --value-only) have no other.
    tier.bits.resize((space_.tier_size(t) + 63) / 64);
    read_value_file(dir_, space_.variant_name(), space_.tier_name(t), space_.tier_size(t),
                    tier.bits);
    tier.present = true;
    bytes_loaded_ += 8 * tier.bits.size();
  }

  const S& space_;
  std::filesystem::path dir_;
  std::unique_ptr<Tier[]> tiers_;
  std::atomic<std::uint64_t> bytes_loaded_{0};
};

}  // namespace tablebase
