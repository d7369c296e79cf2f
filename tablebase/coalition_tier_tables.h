// Coalition tier tables read back (coalition_tier_files.h, written by coalition_tier_solver.h):
// every coalition's value at a position, from its tier's file an entry at a time (the files'
// blocks cached, a few hundred shared by all tiers), for query and verify. The space must hold
// the reach that numbered the tables (its load_index).
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include "solver/wdl.h"
#include "tablebase/coalition_code.h"
#include "tablebase/coalition_tier_files.h"
#include "tablebase/coalition_tier_solver.h"
#include "tablebase/coalition_tier_space.h"
#include "tablebase/table_file.h"

namespace tablebase {

template <CoalitionTierSpace S>
class CoalitionTierTables {
 public:
  CoalitionTierTables(const S& space, std::filesystem::path dir)
      : space_(space), renaming_(space.players()), dir_(std::move(dir)) {}

  const SplitRenaming& renaming() const { return renaming_; }

  // Coalition `seats`'s code at an entry in the row (seats from its player to move), in two bytes
  // whatever its file's width. Throws TableError for a missing, damaged or foreign tier file.
  WideCoalitionCode code(Location at, std::uint32_t seats) {
    const auto [split, rest] = renaming_.splits().of(seats);
    const std::uint64_t i = at.index * renaming_.count() + split;
    TableReader& r = reader(at.tier);
    const auto c =
        coalition_code_from_record<WideCoalitionCode>(r.get(i), r.header().bits_per_record);
    if (!coalition_decided(c) && c != kCoalitionDraw<WideCoalitionCode>)
      throw TableError(coalition_tier_path(name(at.tier)), "holds a code no solve writes");
    return rest ? coalition_flip(c) : c;
  }

  // Every coalition's value at p by coalition s (players by name, bit q for player q; none and
  // everyone unused draws), nullopt when p is not in the row. A finished p is valued by who is
  // left.
  template <typename Game>
  std::optional<std::vector<solver::WdlValue>> values_at(const Game& game,
                                                         const typename Game::Position& p) {
    const int n = game.players();
    const std::uint32_t everyone = (1u << n) - 1;
    std::vector<solver::WdlValue> out(everyone + 1, {solver::Wdl::draw, 0});
    if (game.is_terminal(p)) {
      const std::uint32_t left = game.players_left(p);
      for (std::uint32_t s = 1; s < everyone; ++s) out[s] = coalition_value(finished_code(left, s));
      return out;
    }
    const Location at = space_.locate(p);
    if (at.tier < 0) return std::nullopt;
    const int m = game.player_to_move(p);
    for (std::uint32_t s = 1; s < everyone; ++s) {
      out[s] = coalition_value(code(at, seats_from(s, m, n)));
    }
    return out;
  }

  // Every split's counts over the row and the longest distance of any, read from every tier's
  // file whole (each block's checksum checked on the way).
  std::vector<CoalitionTierTally> tally() {
    std::vector<CoalitionTierTally> out = solver::split_tallies(renaming_.splits());
    std::mutex merge;
    for (int t = 0; t < space_.tier_count(); ++t) {
      if (!space_.tier_size(t)) continue;
      TableReader r = open(t);
      for_each_coalition_code_block(
          r, space_.tier_size(t) * renaming_.count(), [&](std::uint64_t first, auto stored) {
            std::vector<CoalitionTierTally> mine(renaming_.count());
            for (std::uint64_t i = 0; i < stored.size(); ++i) {
              using Stored = typename decltype(stored)::value_type;
              const Stored c = stored[i];
              if (!coalition_decided(c) && c != kCoalitionDraw<Stored>)
                throw TableError(coalition_tier_path(name(t)), "holds a code no solve writes");
              count(mine[(first + i) % renaming_.count()], c);
            }
            std::lock_guard lock(merge);
            for (int u = 0; u < renaming_.count(); ++u) add(out[u], mine[u]);
          });
    }
    return out;
  }

 private:
  CoalitionTierName name(int t) const {
    return {dir_, space_.variant_name(), space_.index_scheme(),
            t,    space_.tier_name(t),   renaming_.count()};
  }
  TableReader open(int t) const {
    if (!std::filesystem::exists(coalition_tier_path(name(t))))
      throw TableError(coalition_tier_path(name(t)),
                       "missing: the tables' solve did not finish (solve again to finish it)");
    return open_coalition_tier(name(t), space_.tier_size(t) * renaming_.count());
  }
  TableReader& reader(int t) {
    std::lock_guard lock(mutex_);
    auto it = readers_.find(t);
    if (it == readers_.end()) {
      auto r = std::make_unique<TableReader>(open(t));
      r->share_cache(cache_);
      it = readers_.emplace(t, std::move(r)).first;
    }
    return *it->second;
  }

  const S& space_;
  SplitRenaming renaming_;
  std::filesystem::path dir_;
  std::mutex mutex_;
  std::map<int, std::unique_ptr<TableReader>> readers_;
  std::shared_ptr<BlockCache> cache_ = std::make_shared<BlockCache>(256);
};

}  // namespace tablebase
