// Answers many positions, one after another, from a directory of solved tiers of a tier game
// (tier_space.h, solved by tier_solver.h): what `drop16 query --batch` and the probe library
// (include/drop16/probe.h) run on.
//
// Tablebase keeps the last few blocks of each file, which suits a server answering a position and
// its children now and then. A stream of unrelated positions would miss those few blocks on almost
// every probe and pay a read, a checksum and a decompression each time, so the prober keeps every
// block it has decoded, up to a budget: each block's cost is paid once, and past the budget it
// falls back to TableReader's own small cache. Each tier's files are opened (and their headers
// checked) the first time one of its positions is probed, and stay open.
//
// Not thread-safe (it caches without locks): one prober a thread.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "solver/outcome.h"
#include "tablebase/tablebase.h"
#include "tablebase/tier_files.h"
#include "tablebase/tier_space.h"

namespace tablebase {

// Decoded blocks a prober keeps by default: more than every table of 4x4:NBRK decoded.
inline constexpr std::uint64_t kDefaultProbeCacheBytes = std::uint64_t{1} << 30;

template <TierSpace Space>
class TierProber {
 public:
  using Game = typename Space::Game;
  using Position = typename Game::Position;
  using Move = typename Game::Move;

  struct MoveAnswer {
    Move move;
    solver::MoveOutcome outcome;  // for the side that plays the move
  };
  struct Answer {
    Position position;
    int dte = 0;                    // for the side to move; odd = win (solver/outcome.h)
    std::vector<MoveAnswer> moves;  // every legal move in generation order, if asked for
  };

  // Throws TableError when `dir` holds no tables, or tables of another variant. The game must
  // outlive the prober.
  TierProber(const Game& game, const std::filesystem::path& dir,
             std::uint64_t cache_bytes = kDefaultProbeCacheBytes)
      : space_(game, true, tables_max_pieces(dir)), dir_(dir), cache_budget_(cache_bytes) {
    const std::string found = tables_variant(dir_);
    if (found != space_.variant_name())
      throw TableError(dir_, "holds tables of variant " + found + ", not " + space_.variant_name());
    tiers_.resize(space_.tier_count());
  }

  const Game& game() const { return space_.game(); }
  const Space& space() const { return space_; }

  // Whether the tables answer p (its material has a tier here, and that tier is finished).
  bool covers(const Position& p) {
    const Location at = space_.locate(p);
    return at.tier >= 0 && open_tier(at.tier).finished;
  }
  // DTE of p. Throws NotCovered when the tables do not answer p, TableError for a damaged file.
  int dte(const Position& p) {
    const Location at = space_.locate(p);
    if (at.tier < 0) throw NotCovered("the tables hold no tier with this position's material");
    Tier& tier = open_tier(at.tier);
    if (!tier.finished)
      throw NotCovered("tier " + space_.tier_name(at.tier) + " of this position is not solved in " +
                       dir_.string());
    return dte_from_records(record(*tier.value, at.index), record(*tier.dte, at.index));
  }
  // p's DTE and, with with_moves, every move's outcome (as Tablebase::analyze gives them).
  Answer probe(const Position& p, bool with_moves) {
    Answer a{p, dte(p), {}};
    if (!with_moves) return a;
    const Game& game = space_.game();
    typename Game::MoveList moves;
    game.generate(p, moves);
    Position child = p;
    for (const Move m : moves) {
      const auto undo = game.make(child, m);
      a.moves.push_back({m, solver::move_outcome(dte(child))});
      game.unmake(child, m, undo);
    }
    return a;
  }

  // Bytes of decoded blocks held now.
  std::uint64_t cached_bytes() const { return cached_bytes_; }

 private:
  struct CachedTable {
    TableReader reader;
    std::uint64_t records_per_block;
    std::uint32_t bits;
    std::vector<std::vector<std::uint64_t>> blocks;  // decoded, by block; empty until read
    explicit CachedTable(TableReader r)
        : reader(std::move(r)),
          records_per_block(reader.records_per_block()),
          bits(reader.header().bits_per_record),
          blocks(reader.block_count()) {}
  };
  struct Tier {
    bool looked_for = false;  // whether its .value file has been looked for
    bool finished = false;    // ... and found
    std::unique_ptr<CachedTable> value, dte;
  };

  Tier& open_tier(int t) {
    Tier& tier = tiers_[t];
    if (tier.looked_for) return tier;
    tier.looked_for = true;
    tier.finished = std::filesystem::exists(value_path(dir_, space_.tier_name(t)));
    if (!tier.finished) return tier;
    TierReaders readers(dir_, space_.variant_name(), space_.tier_name(t));
    // The index a position locates to must be inside the files: a file of the right tier name
    // but another size (another numbering, or damage the header hides) is refused here, once.
    const auto check_size = [&](const TableReader& r, const std::filesystem::path& file) {
      if (r.header().record_count != space_.tier_size(t))
        throw TableError(file, "holds " + std::to_string(r.header().record_count) +
                                   " records, the tier has " + std::to_string(space_.tier_size(t)));
    };
    check_size(readers.value, value_path(dir_, space_.tier_name(t)));
    check_size(readers.dte, dte_path(dir_, space_.tier_name(t)));
    tier.value = std::make_unique<CachedTable>(std::move(readers.value));
    tier.dte = std::make_unique<CachedTable>(std::move(readers.dte));
    return tier;
  }
  std::uint32_t record(CachedTable& table, std::uint64_t index) {
    const std::uint64_t block = index / table.records_per_block;
    std::vector<std::uint64_t>& words = table.blocks[block];
    if (words.empty()) {
      const std::uint64_t bytes = table.records_per_block * table.bits / 8;
      if (cached_bytes_ + bytes > cache_budget_) return table.reader.get(index);
      words = table.reader.read_block(block);
      cached_bytes_ += words.size() * sizeof(std::uint64_t);
    }
    return packed_record(words, (index - block * table.records_per_block) * table.bits, table.bits);
  }

  Space space_;
  std::filesystem::path dir_;
  std::uint64_t cache_budget_;
  std::uint64_t cached_bytes_ = 0;
  std::vector<Tier> tiers_;  // by tier number
};

}  // namespace tablebase
