// Nevsky checkers' positions as a coalition tier space (tablebase/coalition_tier_space.h), for the
// coalition tier solver: every settled position of the blocks play reaches, by a dense
// (tier, index). tablebase/COALITION.md has the why.
//
// Structure: material only shrinks and a man's promotion is one way, and a man steps only
// forward, so
// - a tier is the positions with C checkers on the board, M of them men, whose men have advanced
//   A cells in all (each man's grid distance from its own corner). A man's step raises A by one,
//   a promotion takes a man off M, a capture or a player's leaving takes checkers off C: inside a
//   tier only kings move. Tiers go by C, then M, then A downwards (solve order);
// - a block is one placement of the men (whose on which cell) and how many kings each player
//   has, up to the quarter turns with the players renamed to follow their corners (game.h): the
//   least of its four turned images is its key. Its entries are its positions: the player to move
//   (0 .. p - 1 for a block whose placement a turn of p quarters maps to itself, so that no
//   position is stored twice) times the kings' placements on the cells the men leave free
//   (cells by their combination's rank, then the kings' owners in cell order by their
//   multinomial rank). A king's slide keeps the men and the counts, so it stays in the block;
// - a tier's blocks are those play reaches from the start (discover()), and its entries are only
//   the positions play reaches (the row's), numbered block by block, in the order of their places
//   in the block (the player to move, then the kings' placement by rank): a block's kings may
//   stand in far more places than play puts them (on nevsky:4x4:1 12 times as many, on 5x5 rows
//   thousands of times). A block keeps its reached places as a bit a place where they are dense,
//   as a compact sorted set where they are sparse (whichever is smaller).
// Positions are stored seen from the player to move: a child's players are named by their seats
// after the parent's mover (CoalitionChild::shift), which is how the solver renames coalitions.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "rules/nevsky/game.h"
#include "tablebase/coalition_tier_space.h"
#include "tablebase/elias_fano_set.h"
#include "tablebase/table_file.h"

namespace nevsky {

// How blocks keep their reached places (tablebase/COALITION.md): a block of at most
// `small_block` places in the tier's bits, a larger one reached in a thread's bits up to
// `held_places`, in a hash set past them, then kept as bits when at least one place in
// `dense_share` is reached, else as a sorted set (Elias-Fano: about 2 + log2(places / reached)
// bits a reached place, where bits take places / reached: they cross near a quarter). A
// larger block with `shared_seeds` seeds or more, or more than `held_places` places, is reached by
// all the threads together, its places marked in shared bits up to `shared_bits`, in shared hash
// sets past them. The numbering is the same whatever these are; the tests take small ones to reach
// every path on small rows.
struct PlaceLayout {
  std::uint64_t small_block = std::uint64_t{1} << 16;
  std::uint64_t held_places = std::uint64_t{1} << 24;
  std::uint64_t dense_share = 4;
  std::uint64_t shared_seeds = std::uint64_t{1} << 12;
  std::uint64_t shared_bits = std::uint64_t{1} << 30;
};

class CoalitionTierSpace {
 public:
  using Game = nevsky::Game;
  using Position = nevsky::Position;
  // What a thread keeps between entries: the block it decoded last.
  struct Cursor {
    int tier = -1;
    std::uint64_t block = ~std::uint64_t{0};
    tablebase::IndexRange entries;  // the block's
    Position men;                   // the block's men, to_move unset
    std::array<int, kPlayers> kings{};
    int period = 4;
    std::uint64_t placements = 0;  // king placements a player to move
  };

  using Layout = PlaceLayout;

  // Throws std::invalid_argument when the variant's block keys do not fit 64 bits (a board of
  // more than 40 cells with 12 men) or a player has more than 7 kings.
  explicit CoalitionTierSpace(const Variant& variant, Layout layout = {});

  const Game& game() const { return game_; }
  std::string variant_name() const { return game_.variant().name(); }
  std::string index_scheme() const { return "nevsky coalition tiers 3"; }
  int players() const { return kPlayers; }
  int tier_count() const { return int(tiers_.size()); }
  std::string tier_name(int t) const;
  std::uint64_t tier_size(int t) const { return tiers_[t].first.back(); }
  std::uint64_t block_count(int t) const { return tiers_[t].keys.size(); }
  tablebase::IndexRange block_range(int t, std::uint64_t b) const {
    return {tiers_[t].first[b], tiers_[t].first[b + 1]};
  }
  // Blocks whose reached places are kept as a sorted set (the rest as bits).
  std::uint64_t sparse_blocks() const;
  std::uint64_t memory_bytes() const;
  const std::vector<int>& tier_children(int t) const { return tiers_[t].children; }
  // The most discover() held of positions found for tiers not numbered yet, in bytes.
  std::uint64_t discovery_peak_bytes() const { return discovery_peak_; }

  // Finds the positions play reaches from the start, tier by tier from the start's (call it
  // once). Those found for tiers not come to yet are held in memory, or with `spill` (a folder)
  // past 64 MB appended to files there, removed as they are used. progress(tiers done, positions
  // so far) after each tier; what it throws stops the reach.
  // With `spill`, the reach is kept there at checkpoints (reach.checkpoint: the tiers reached, as
  // save_index writes them, and the positions found ahead, as files) every checkpoint interval
  // and when progress throws; a reach that finds a checkpoint goes on from it (progress called
  // first with the tiers it took up). Throws TableError for a damaged or foreign checkpoint.
  void discover(int threads, const std::filesystem::path& spill = {},
                const std::function<void(int, std::uint64_t)>& progress = {});
  void set_checkpoint_interval(std::chrono::seconds interval) { checkpoint_interval_ = interval; }

  // The reach's result, in DIR (table_file.h's checked format, 64-bit words as low and high
  // halves): index-NNNN.blocks (a tier's block keys), index-NNNN.rows (the dense blocks' reached
  // bits, block after block), index-NNNN.lists (the count of sparse blocks, each one's block number
  // and count, then each one's set's words) and, written last, index.tiers (each tier's block count
  // and child tiers, from the last tier down); a reach's checkpoint in DIR and its files are
  // removed. Throws TableError when it cannot.
  void save_index(const std::filesystem::path& dir, int zstd_level) const;
  // Reads what save_index wrote, in place of discover(); false when DIR holds no index.tiers.
  // Throws TableError for a damaged or foreign file (another variant's, another numbering's).
  bool load_index(const std::filesystem::path& dir);

  // The entry of a settled, unfinished position; tier -1 when play does not reach it.
  tablebase::Location locate(const Position& p) const;
  // The position of an entry, players named as its block's key names them.
  Position position(Cursor& cursor, int tier, std::uint64_t index) const;
  // visit(CoalitionChild) for the position after each of the entry's moves.
  template <typename Visit>
  void for_each_child(Cursor& cursor, int tier, std::uint64_t index, Visit&& visit) const;

 private:
  // A block's places: the player to move times its kings' placements, by rank.
  struct Tier {
    int checkers = 0, men = 0, advance = 0;
    std::vector<std::uint64_t> keys;         // the reached blocks' keys, increasing
    std::vector<std::uint64_t> first = {0};  // block b's first entry; one past the last
    // Block b's reached places: bits from bit `at[b]` of `bits` (a bit a place), or, with
    // kListed set, the set listed[at[b] & ~kListed].
    std::vector<std::uint64_t> at;
    std::vector<std::uint64_t> bits;
    std::vector<std::uint64_t> ranks = {0};  // bits set before every kRankWords words of `bits`
    std::vector<tablebase::EliasFanoSet> listed;
    std::vector<int> children;  // the other tiers its moves lead to, increasing
  };
  static constexpr std::uint64_t kListed = std::uint64_t{1} << 63;
  struct BlockOf {
    std::uint64_t key;
    int turn;  // quarter turns that take the position into its block's frame
    int period;
  };

  // A position's block and its place in the block.
  struct Framed {
    std::uint64_t key, local;
  };
  Framed frame(const Position& p) const;
  // The same for a position of a block whose key is known, in the key's frame: a king's slide
  // from one of its places (the same men and king counts), whose key needs no turning to find.
  Framed frame_in_block(const Position& p, std::uint64_t key, int period) const;
  Framed frame_as(const Position& p, const BlockOf& block) const;
  // locate() of a child of the position the cursor decoded last: a child in its tier (a king's
  // slide) is in its block.
  tablebase::Location locate_child(const Cursor& cursor, const Position& child) const;
  // The bits of `bits` set before bit i (Tier::ranks counts them a kRankWords words at a time),
  // and the bit set after `r` others.
  static std::uint64_t bits_rank(const Tier& tier, std::uint64_t i);
  static std::uint64_t bits_select(const Tier& tier, std::uint64_t r);
  // The entry of a block's place, `local` (the block's first entry on); ~0 when not reached.
  static std::uint64_t entry_of(const Tier& tier, std::uint64_t block, std::uint64_t local);
  static std::uint64_t place_of(const Tier& tier, std::uint64_t block, std::uint64_t entry);
  // While the reach marks the small blocks' places in parallel (blocks next to each other share
  // words): whether bit e of the tier's bits is set, and setting it (true when it was not).
  static bool marked_now(Tier& tier, std::uint64_t e) {
    return std::atomic_ref<std::uint64_t>(tier.bits[e / 64]).load(std::memory_order_relaxed) >>
               (e % 64) &
           1;
  }
  static bool mark(Tier& tier, std::uint64_t e) {
    const std::uint64_t bit = std::uint64_t{1} << (e % 64);
    return !(
        std::atomic_ref<std::uint64_t>(tier.bits[e / 64]).fetch_or(bit, std::memory_order_relaxed) &
        bit);
  }
  // The ranks of the tier's bits and its blocks' first entries, from each block's places and,
  // for a listed block, its set's size.
  static void number_entries(Tier& tier, const std::vector<std::uint64_t>& places);
  // The position at place `local` of a block.
  Position block_place(Cursor& cursor, int tier, std::uint64_t block, std::uint64_t local) const;
  // A tier's index files, tiers' block counts and children (from the last tier down to `from`),
  // and an index file opened and checked against this build's numbering (table_file.h).
  void save_tier(const std::filesystem::path& dir, int t, int zstd_level) const;
  void load_tier(const std::filesystem::path& dir, int t, std::uint64_t blocks);
  std::vector<std::uint64_t> tier_lists(int from) const;
  std::size_t read_tier_lists(const std::filesystem::path& path,
                              std::span<const std::uint64_t> words, int from,
                              const std::filesystem::path& dir);
  tablebase::TableReader open_index_file(const std::filesystem::path& path, const std::string& tier,
                                         const std::string& encoding,
                                         std::uint32_t bits = 32) const;
  // Where a material's tier is in tier_by_material_.
  std::size_t material_slot(int checkers, int men, int advance) const;
  int tier_of(int checkers, int men, int advance) const;
  int tier_of(const Position& p) const;
  BlockOf block_of(const Position& p) const;
  // The keys of the men and king counts turned 0, 1, 2 and 3 quarter turns.
  std::array<std::uint64_t, 4> turned_keys(const std::array<Bitboard, kPlayers>& men,
                                           const std::array<int, kPlayers>& kings) const;
  std::uint64_t block_key(const std::array<Bitboard, kPlayers>& men,
                          const std::array<int, kPlayers>& kings) const;
  void decode_key(Cursor& cursor, std::uint64_t key) const;
  void decode_block(Cursor& cursor, int tier, std::uint64_t block) const;
  std::uint64_t block_entries(std::uint64_t key) const;
  // The rank of the kings' placement of p (in its block's frame) among the block's.
  std::uint64_t kings_rank(const Position& p, Bitboard free,
                           const std::array<int, kPlayers>& counts) const;
  void place_kings(Position& p, Bitboard free, const std::array<int, kPlayers>& counts,
                   std::uint64_t rank) const;

  Game game_;
  int men_bits_;  // bits of a key before the owners: the cells
  std::vector<Tier> tiers_;
  std::vector<int> tier_by_material_;  // (checkers, men, advance) -> tier, -1 for none
  // Words of reached bits a rank is kept for: an eighth of a byte a place.
  static constexpr std::uint64_t kRankWords = 8;
  static constexpr std::uint64_t kChunkEntries = std::uint64_t{1} << 18;
  Layout layout_;
  // What load_index must read as the reach laid it out: the small blocks' bound.
  std::string small_blocks() const {
    return "; small blocks " + std::to_string(layout_.small_block);
  }
  static constexpr std::uint64_t kSpillCap = std::uint64_t{64} << 20;
  int max_advance_;
  std::uint64_t discovery_peak_ = 0;
  static constexpr const char* kReachCheckpoint = "reach.checkpoint";
  static constexpr const char* kSpillName = "reach";  // files reach-<tier>.spill
  // A checkpoint's files are written fast (save_index writes the whole index again).
  static constexpr int kCheckpointZstdLevel = 3;
  std::chrono::seconds checkpoint_interval_{300};
};

template <typename Visit>
void CoalitionTierSpace::for_each_child(Cursor& cursor, int tier, std::uint64_t index,
                                        Visit&& visit) const {
  const Position p = position(cursor, tier, index);
  MoveList moves;
  game_.generate(p, moves);
  for (const Move& m : moves) {
    Position child = p;
    game_.make(child, m);
    tablebase::CoalitionChild c;
    c.shift = (child.to_move + kPlayers - p.to_move) % kPlayers;
    if (game_.is_terminal(child)) {
      c.left = tablebase::seats_from(child.players_left(), p.to_move, kPlayers);
    } else {
      c.at = locate_child(cursor, child);
    }
    visit(c);
  }
}

}  // namespace nevsky

template <>
struct tablebase::CoalitionSpaceOf<nevsky::Game> {
  using type = nevsky::CoalitionTierSpace;
  static std::unique_ptr<type> of(std::string_view variant) {
    return std::make_unique<type>(nevsky::parse_variant(variant));
  }
};
