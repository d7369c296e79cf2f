#include "rules/drop/solve/prober.h"

#include <string>
#include <utility>

#include "rules/drop/notation.h"

namespace tablebase {

Prober::CachedTable::CachedTable(TableReader r)
    : reader(std::move(r)),
      records_per_block(reader.records_per_block()),
      bits(reader.header().bits_per_record),
      blocks(reader.block_count()) {}

Prober::Prober(const drop::Game& game, const std::filesystem::path& dir, std::uint64_t cache_bytes)
    : space_(game, true, tables_max_pieces(dir)), dir_(dir), cache_budget_(cache_bytes) {
  const std::string found = tables_variant(dir_);
  if (found != space_.variant_name())
    throw TableError(dir_, "holds tables of variant " + found + ", not " + space_.variant_name());
  tiers_.resize(space_.tier_count());
}

Prober::Tier& Prober::open_tier(int t) {
  Tier& tier = tiers_[t];
  if (tier.looked_for) return tier;
  tier.looked_for = true;
  tier.finished = std::filesystem::exists(value_path(dir_, space_.tier_name(t)));
  if (!tier.finished) return tier;
  TierReaders readers(dir_, space_.variant_name(), space_.tier_name(t));
  // The index a position locates to must be inside the files: a file of the right tier name but
  // another size (another numbering, or damage the header hides) is refused here, once.
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

std::uint32_t Prober::record(CachedTable& table, std::uint64_t index) {
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

bool Prober::covers(const drop::Position& p) {
  const Location at = space_.locate(p);
  return at.tier >= 0 && open_tier(at.tier).finished;
}

int Prober::dte(const drop::Position& p) {
  const Location at = space_.locate(p);
  if (at.tier < 0) throw NotCovered("the tables hold no tier with this position's material");
  Tier& tier = open_tier(at.tier);
  if (!tier.finished)
    throw NotCovered("tier " + space_.tier_name(at.tier) + " of this position is not solved in " +
                     dir_.string());
  return dte_from_records(record(*tier.value, at.index), record(*tier.dte, at.index));
}

Prober::Answer Prober::probe(const drop::Position& p, bool with_moves) {
  Answer a{p, dte(p), {}};
  if (!with_moves) return a;
  const drop::Game& game = space_.game();
  drop::MoveList moves;
  game.generate(p, moves);
  drop::Position child = p;
  for (const drop::Move m : moves) {
    const auto undo = game.make(child, m);
    a.moves.push_back({m, solver::move_outcome(dte(child))});
    game.unmake(child, m, undo);
  }
  return a;
}

Prober::Answer Prober::probe_fen(std::string_view fen, bool with_moves) {
  return probe(drop::parse_fen(space_.game(), fen), with_moves);
}

}  // namespace tablebase
