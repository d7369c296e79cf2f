// Answers from a directory of solved tiers: the DTE of any position (hence its value), and what
// every move gives the side that plays it. Reads one block per probe through TableReader (which
// keeps the last few blocks), opening each tier's files the first time it is probed.
#pragma once

#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

#include "solver/outcome.h"
#include "tablebase/table_file.h"
#include "tablebase/tier_files.h"
#include "tablebase/tier_space.h"

namespace tablebase {

// A position outside the tables (bad input for a query, not damage).
class NotCovered : public std::invalid_argument {
 public:
  explicit NotCovered(const std::string& what) : std::invalid_argument(what) {}
};

template <TierSpace S>
class Tablebase {
 public:
  using Position = typename S::Position;

  struct MoveResult {
    typename S::Game::Move move;
    solver::MoveOutcome outcome;
  };
  struct Analysis {
    int dte;
    std::vector<MoveResult> moves;
  };

  // Throws TableError if `dir` holds tables of another variant.
  Tablebase(const S& space, std::filesystem::path dir) : space_(space), dir_(std::move(dir)) {
    const std::string found = tables_variant(dir_);
    if (found != space_.variant_name())
      throw TableError(dir_, "holds tables of variant " + found + ", not " + space_.variant_name());
  }

  // Whether the tables answer p: its tier belongs to the space (endgame tables cover few pieces)
  // and is finished on disk (a solve still running, or stopped, leaves later tiers missing).
  bool covers(const Position& p) {
    const Location at = space_.locate(p);
    if (at.tier < 0) return false;
    std::lock_guard lock(mutex_);
    auto [it, inserted] = finished_.try_emplace(at.tier, false);
    if (inserted) it->second = std::filesystem::exists(value_path(dir_, space_.tier_name(at.tier)));
    return it->second;
  }

  // DTE of p; TableError when its tier is missing or damaged, NotCovered when the space has no
  // tier for it. Thread-safe.
  int dte(const Position& p) {
    const Location at = space_.locate(p);
    if (at.tier < 0) throw NotCovered("the tables hold no tier with this position's material");
    TierReaders& r = readers(at.tier);
    return dte_from_records(r.value.get(at.index), r.dte.get(at.index));
  }

  Analysis analyze(Position p) {
    Analysis a;
    typename S::Game::MoveList moves;
    const auto& game = space_.game();
    game.generate(p, moves);
    for (int i = 0; i < moves.size(); ++i) {
      const auto undo = game.make(p, moves[i]);
      a.moves.push_back({moves[i], solver::move_outcome(dte(p))});
      game.unmake(p, moves[i], undo);
    }
    a.dte = dte(p);
    return a;
  }

  // Forgets every cached block (to time cold probes).
  void drop_caches() {
    std::lock_guard lock(mutex_);
    for (auto& [tier, r] : readers_) {
      r->value.drop_cache();
      r->dte.drop_cache();
    }
  }

 private:
  TierReaders& readers(int tier) {
    std::lock_guard lock(mutex_);
    auto& slot = readers_[tier];
    if (!slot)
      slot = std::make_unique<TierReaders>(dir_, space_.variant_name(), space_.tier_name(tier));
    return *slot;
  }

  const S& space_;
  std::filesystem::path dir_;
  std::mutex mutex_;
  std::map<int, std::unique_ptr<TierReaders>> readers_;
  std::map<int, bool> finished_;  // tiers whose files covers() has looked for
};

}  // namespace tablebase
