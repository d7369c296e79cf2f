// Endgame tables (drop16 solve --max-pieces) as a proof search's oracle (proof_search.h,
// dfpn_search.h): a position with few enough pieces in play is decided by one probe of the value
// bits, held in memory, instead of a search. Default-constructed it knows nothing. Copies share
// the tables, which are thread-safe.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "rules/drop/game.h"
#include "rules/drop/solve/tier_space.h"
#include "tablebase/value_tables.h"

namespace drop {

class EndgameOracle {
 public:
  EndgameOracle() = default;
  // Throws TableError if `dir` holds no tables of this variant.
  EndgameOracle(const drop::Game& game, const std::string& dir)
      : max_pieces_(tablebase::tables_max_pieces(dir)),
        space_(std::make_shared<TierSpace>(game, true, max_pieces_)),
        tables_(std::make_shared<tablebase::ValueTables<TierSpace>>(*space_, dir)) {}

  std::optional<bool> operator()(const drop::Position& p) const {
    if (!tables_ || p.pieces_in_play() > max_pieces_) return std::nullopt;
    return tables_->win(p);
  }
  int max_pieces() const { return max_pieces_; }
  std::uint64_t bytes_loaded() const { return tables_ ? tables_->bytes_loaded() : 0; }

 private:
  int max_pieces_ = -1;
  std::shared_ptr<const TierSpace> space_;
  std::shared_ptr<tablebase::ValueTables<TierSpace>> tables_;
};

}  // namespace drop
