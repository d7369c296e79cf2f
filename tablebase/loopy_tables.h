// A loopy tier space's tables on disk (loopy_tier_files.h), read an entry at a time: what query,
// verify and serve probe. Each tier's NAME.wdl is opened and checked when the tables are opened
// (header, variant, tier, index scheme, size), and a probe reads, checks and decompresses one
// block (TableReader::get): no tier is loaded whole. The tiers' readers share one cache of
// kProbeCacheBlocks decoded blocks: a position's children, and their classes' other copies, lie
// in blocks of several tiers, which a cache of a few blocks a tier would drop one probe before
// the next needs them (a warm probe was then slower than a cold one). An entry a solve of
// the reached entries only left out holds no value: a probe of its position answers none, as for
// a position the space does not hold.
#pragma once

#include <concepts>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "solver/progress.h"
#include "solver/wdl.h"
#include "solver/zeroed_array.h"
#include "tablebase/loopy_reach.h"
#include "tablebase/loopy_tier_files.h"
#include "tablebase/loopy_tier_space.h"
#include "tablebase/tier_files.h"

namespace tablebase {

// A space whose entries are positions of a game: it finds any position's entry and the position
// at any entry (what probes by position and forward checks need).
template <typename S>
concept LoopyPositionSpace = LoopyTierSpace<S> &&
    requires(const S& s, int tier, std::uint64_t index, const typename S::Position& p) {
  { s.game() } -> std::convertible_to<const typename S::Game&>;
  { s.locate(p) } -> std::same_as<Location>;
  { s.unrank(tier, index) } -> std::same_as<typename S::Position>;
};

// Blocks the readers of one set of loopy tables keep decoded (16 KB each by default: 2 MB): more
// than the blocks a position and its children touch, a few dozen children with two or three
// copies of their class each.
inline constexpr std::size_t kProbeCacheBlocks = 128;

template <LoopyTierSpace S>
class LoopyTables {
 public:
  // Throws TableError naming the first tier whose file is missing, damaged or not this space's.
  LoopyTables(const S& space, const std::filesystem::path& dir) : space_(space), dir_(dir) {
    for (int t = 0; t < space.tier_count(); ++t) {
      if (!std::filesystem::exists(loopy_wdl_path(name(t))))
        throw TableError(loopy_wdl_path(name(t)),
                         "is missing: the tables of " + space.variant_name() + " are not finished");
      wdl_.emplace_back(name(t), space.tier_size(t));
      wdl_.back().share_cache(cache_);
    }
    for (int t = 0; t < space.tier_count(); ++t)
      if (std::filesystem::exists(loopy_reached_path(name(t)))) {
        reached_.push_back(open_loopy_reached(name(t), space.tier_size(t)));
        reached_.back().share_cache(cache_);
      }
    if (!reached_.empty() && int(reached_.size()) != space.tier_count())
      throw TableError(dir, "holds the reached bits of some tiers only");
  }

  const S& space() const { return space_; }
  // The code stored at a location (kLoopyNotInRow for an entry left out); thread-safe.
  LoopyCode code(Location at) { return wdl_[at.tier].code(at.index); }
  // Forgets every tier's cached blocks, so the next probes pay full block reads (for timings).
  void drop_caches() {
    for (LoopyTierReader& r : wdl_) r.drop_cache();
  }
  // Whether the solve marked what play reaches (NAME.reached), and whether it reaches `at`.
  bool has_reached() const { return !reached_.empty(); }
  bool reached(Location at) { return reached_[at.tier].get(at.index) != 0; }

  // The value of p for the side to move; nullopt for a position the space does not hold or the
  // tables leave out as not in the row (its class's copies all, loopy_class_code).
  std::optional<solver::WdlValue> probe(const typename S::Position& p) requires
      LoopyPositionSpace<S> {
    const Location at = space_.locate(p);
    if (at.tier < 0) return std::nullopt;
    const LoopyCode c = loopy_class_code(space_, at, [&](Location l) { return code(l); });
    if (!loopy_in_row(c)) return std::nullopt;
    return loopy_value(c);
  }

 private:
  LoopyTableName name(int t) const {
    return {dir_, space_.variant_name(), space_.index_scheme(), space_.tier_name(t)};
  }

  const S& space_;
  std::filesystem::path dir_;
  std::shared_ptr<BlockCache> cache_ = std::make_shared<BlockCache>(kProbeCacheBlocks);
  std::vector<LoopyTierReader> wdl_;  // by tier
  std::vector<TableReader> reached_;
};

// The counts of finished tables over the entries play reaches, each position class once (as a
// solve reports them, loopy_reach.h): a run of whole blocks at a time (a class's copies share a
// block), of about `run_entries` entries, or a single larger block with its reached bits whole and
// its codes `run_entries` at a time, read into sparse arrays whose pages go back after each run,
// so that a tier larger than memory is counted too. Checked as
// read; throws TableError naming a missing or damaged file. With show_progress, a progress line
// on stderr (minutes on tables of billions of entries).
inline constexpr std::uint64_t kTallyRunEntries = std::uint64_t{1} << 28;
template <LoopyTierSpace S>
LoopyTally tally_loopy_tables(const S& space, const std::filesystem::path& dir,
                              std::uint64_t run_entries = kTallyRunEntries,
                              bool show_progress = false) {
  LoopyTally total;
  std::uint64_t entries = 0;
  for (int t = 0; t < space.tier_count(); ++t) entries += space.tier_size(t);
  solver::Progress progress("count " + space.variant_name(), entries, "positions", show_progress);
  for (int t = 0; t < space.tier_count(); ++t) {
    progress.set_stage(space.tier_name(t));
    const LoopyTableName name{dir, space.variant_name(), space.index_scheme(), space.tier_name(t)};
    const std::uint64_t n = space.tier_size(t);
    auto codes = solver::ZeroedArray<LoopyCode>::sparse(n);
    auto bits = solver::ZeroedArray<std::uint64_t>::sparse((n + 63) / 64);
    TableReader reached = open_loopy_reached(name, n);
    for (std::uint64_t first = 0, blocks = space.block_count(t); first < blocks;) {
      IndexRange run = space.block_range(t, first);
      std::uint64_t end = first + 1;
      for (; end < blocks && space.block_range(t, end).end - run.begin <= run_entries; ++end)
        run.end = space.block_range(t, end).end;
      copy_table_blocks(reached, 1, bits, std::span<const IndexRange>(&run, 1));
      // Several blocks go to the threads a block each; a single block (a Spock tier is one) a
      // chunk of entries each, its codes read a run at a time beside its bits whole.
      const std::uint64_t step = end - first > 1 ? run.end - run.begin : run_entries;
      for (std::uint64_t from = run.begin; from < run.end; from += step) {
        const IndexRange part{from, std::min(run.end, from + step)};
        read_loopy_tier(name, codes, std::span<const IndexRange>(&part, 1));
        total.add(end - first > 1
                      ? tally_reached(space, t, codes.data(), bits.data(), first, end)
                      : tally_reached_entries(space, t, codes.data(), bits.data(), part));
        progress.advance(part.end - part.begin);
        progress.add_to_rate(part.end - part.begin);
        codes.discard(0, codes.size());
      }
      bits.discard(0, bits.size() * 8);
      first = end;
    }
  }
  return total;
}

}  // namespace tablebase
