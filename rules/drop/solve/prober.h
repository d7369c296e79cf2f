// Answers many positions, one after another, from a directory of solved tiers: what
// `drop16 query --batch` and the probe library (include/drop16/probe.h) run on.
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
#include <string_view>
#include <vector>

#include "rules/drop/game.h"
#include "rules/drop/solve/tier_space.h"
#include "solver/outcome.h"
#include "tablebase/tablebase.h"
#include "tablebase/tier_files.h"

namespace tablebase {

class Prober {
 public:
  // Decoded blocks kept by default: more than every table of 4x4:NBRK decoded.
  static constexpr std::uint64_t kDefaultCacheBytes = std::uint64_t{1} << 30;

  struct MoveAnswer {
    drop::Move move;
    solver::MoveOutcome outcome;  // for the side that plays the move
  };
  struct Answer {
    drop::Position position;
    int dte = 0;                    // for the side to move; odd = win (solver/outcome.h)
    std::vector<MoveAnswer> moves;  // every legal move in generation order, if asked for
  };

  // Throws TableError when `dir` holds no tables, or tables of another variant. The game must
  // outlive the prober.
  Prober(const drop::Game& game, const std::filesystem::path& dir,
         std::uint64_t cache_bytes = kDefaultCacheBytes);

  const drop::Game& game() const { return space_.game(); }
  const DropTierSpace& space() const { return space_; }

  // Whether the tables answer p (its material has a tier here, and that tier is finished).
  bool covers(const drop::Position& p);
  // DTE of p. Throws NotCovered when the tables do not answer p, TableError for a damaged file.
  int dte(const drop::Position& p);
  // p's DTE and, with with_moves, every move's outcome (as Tablebase::analyze gives them).
  Answer probe(const drop::Position& p, bool with_moves);
  // The same for a FEN of the game: drop::ParseError (an std::invalid_argument) when it does not
  // parse as one, then as probe().
  Answer probe_fen(std::string_view fen, bool with_moves);

  // Bytes of decoded blocks held now.
  std::uint64_t cached_bytes() const { return cached_bytes_; }

 private:
  struct CachedTable {
    TableReader reader;
    std::uint64_t records_per_block;
    std::uint32_t bits;
    std::vector<std::vector<std::uint64_t>> blocks;  // decoded, by block; empty until read
    explicit CachedTable(TableReader r);
  };
  struct Tier {
    bool looked_for = false;  // whether its .value file has been looked for
    bool finished = false;    // ... and found
    std::unique_ptr<CachedTable> value, dte;
  };

  Tier& open_tier(int tier);
  std::uint32_t record(CachedTable& table, std::uint64_t index);

  DropTierSpace space_;
  std::filesystem::path dir_;
  std::uint64_t cache_budget_;
  std::uint64_t cached_bytes_ = 0;
  std::vector<Tier> tiers_;  // by tier number
};

}  // namespace tablebase
