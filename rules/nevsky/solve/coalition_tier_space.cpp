#include "rules/nevsky/solve/coalition_tier_space.h"

#include <absl/container/flat_hash_set.h>
#include <absl/hash/hash.h>
#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <memory>
#include <mutex>
#include <span>
#include <stdexcept>
#include <utility>

#include "solver/parallel_for.h"
#include "tablebase/bucket_spill.h"
#include "tablebase/table_file.h"

namespace nevsky {
namespace {

// Binomials of at most 64 things, and the multinomials of four counts of at most 7 (a player's
// kings in a key), exact in 64 bits for what a block holds (a key fits 64 bits, so the kings and
// the free cells are few enough). The multinomials are a table: ranking and placing the kings
// asks for one for every king, and computing them was a sixth of a reach's time.
struct Counting {
  std::uint64_t binomial[65][65]{};
  std::uint64_t multinomials[8][8][8][8]{};
  Counting() {
    for (int n = 0; n <= 64; ++n) {
      binomial[n][0] = 1;
      for (int k = 1; k <= n; ++k) binomial[n][k] = binomial[n - 1][k - 1] + binomial[n - 1][k];
    }
    for (int a = 0; a < 8; ++a)
      for (int b = 0; b < 8; ++b)
        for (int c = 0; c < 8; ++c)
          for (int d = 0; d < 8; ++d)
            multinomials[a][b][c][d] =
                binomial[a + b][b] * binomial[a + b + c][c] * binomial[a + b + c + d][d];
  }
  std::uint64_t multinomial(const std::array<int, kPlayers>& counts) const {
    return multinomials[counts[0]][counts[1]][counts[2]][counts[3]];
  }
};
const Counting& counting() {
  static const Counting kCounting;
  return kCounting;
}

constexpr int kCountBits = 3;  // a player's kings in a key

}  // namespace

CoalitionTierSpace::CoalitionTierSpace(const Variant& variant, Layout layout)
    : game_(variant), layout_(layout) {
  const int cells = game_.geometry().cells(), men = variant.men;
  men_bits_ = cells;
  const int key_bits = cells + 2 * kPlayers * men + kPlayers * kCountBits;
  if (key_bits > 64)
    throw std::invalid_argument(variant.name() + ": a block's key takes " +
                                std::to_string(key_bits) +
                                " bits, more than the 64 the coalition tier space holds");
  if (men >= 1 << kCountBits)
    throw std::invalid_argument(variant.name() + ": more than 7 kings a player do not fit a key");
  max_advance_ = 2 * (game_.size() - 1) - 1;  // a man on its goal is crowned
  const int most = kPlayers * men;
  for (int c = 2; c <= most; ++c)
    for (int m = 0; m <= c; ++m)
      for (int a = m * max_advance_; a >= 0; --a) {
        Tier t;
        t.checkers = c;
        t.men = m;
        t.advance = a;
        tiers_.push_back(std::move(t));
      }
  tier_by_material_.assign(material_slot(most, most, most * max_advance_) + 1, -1);
  for (int t = 0; t < tier_count(); ++t)
    tier_by_material_[material_slot(tiers_[t].checkers, tiers_[t].men, tiers_[t].advance)] = t;
}

std::string CoalitionTierSpace::tier_name(int t) const {
  const Tier& tier = tiers_[t];
  return std::to_string(tier.checkers) + " checkers, " + std::to_string(tier.men) + " men +" +
         std::to_string(tier.advance);
}

std::uint64_t CoalitionTierSpace::memory_bytes() const {
  std::uint64_t bytes = tier_by_material_.size() * sizeof(int);
  for (const Tier& t : tiers_) {
    bytes += (t.keys.capacity() + t.first.capacity() + t.at.capacity() + t.bits.capacity() +
              t.ranks.capacity()) *
                 8 +
             t.listed.capacity() * sizeof(tablebase::EliasFanoSet);
    for (const tablebase::EliasFanoSet& set : t.listed) bytes += set.memory_bytes();
  }
  return bytes;
}

std::uint64_t CoalitionTierSpace::sparse_blocks() const {
  std::uint64_t n = 0;
  for (const Tier& t : tiers_)
    for (std::uint64_t at : t.at) n += (at & kListed) != 0;
  return n;
}

std::uint64_t CoalitionTierSpace::bits_rank(const Tier& tier, std::uint64_t i) {
  const std::uint64_t w = i / 64, bit = i % 64;
  std::uint64_t rank = tier.ranks[w / kRankWords];
  for (std::uint64_t k = w - w % kRankWords; k < w; ++k) rank += popcount(tier.bits[k]);
  if (bit) rank += popcount(tier.bits[w] & ((std::uint64_t{1} << bit) - 1));
  return rank;
}

std::uint64_t CoalitionTierSpace::bits_select(const Tier& tier, std::uint64_t r) {
  const std::uint64_t s = std::uint64_t(std::upper_bound(tier.ranks.begin(), tier.ranks.end(), r) -
                                        tier.ranks.begin()) -
                          1;
  std::uint64_t seen = tier.ranks[s];
  for (std::uint64_t w = s * kRankWords;; ++w) {
    const std::uint64_t in_word = std::uint64_t(popcount(tier.bits[w]));
    if (seen + in_word > r)
      return w * 64 + std::uint64_t(std::countr_zero(
                          deposit_bits(std::uint64_t{1} << (r - seen), tier.bits[w])));
    seen += in_word;
  }
}

std::uint64_t CoalitionTierSpace::entry_of(const Tier& tier, std::uint64_t block,
                                           std::uint64_t local) {
  const std::uint64_t at = tier.at[block];
  if (at & kListed) {
    const std::uint64_t k = tier.listed[at & ~kListed].find(local);
    return k == tablebase::EliasFanoSet::npos ? ~std::uint64_t{0} : tier.first[block] + k;
  }
  const std::uint64_t bit = at + local;
  if (!(tier.bits[bit / 64] >> (bit % 64) & 1)) return ~std::uint64_t{0};
  return tier.first[block] + bits_rank(tier, bit) - bits_rank(tier, at);
}

std::uint64_t CoalitionTierSpace::place_of(const Tier& tier, std::uint64_t block,
                                           std::uint64_t entry) {
  const std::uint64_t at = tier.at[block], k = entry - tier.first[block];
  if (at & kListed) return tier.listed[at & ~kListed].at(k);
  return bits_select(tier, bits_rank(tier, at) + k) - at;
}

int CoalitionTierSpace::tier_of(int checkers, int men, int advance) const {
  const int most = kPlayers * game_.variant().men;
  if (checkers < 2 || checkers > most || men > checkers || advance > men * max_advance_) return -1;
  return tier_by_material_[material_slot(checkers, men, advance)];
}

std::size_t CoalitionTierSpace::material_slot(int checkers, int men, int advance) const {
  const int most = kPlayers * game_.variant().men;
  return (std::size_t(checkers) * (most + 1) + men) * (most * max_advance_ + 1) + advance;
}

int CoalitionTierSpace::tier_of(const Position& p) const {
  const Geometry& g = game_.geometry();
  int checkers = 0, men = 0, advance = 0;
  for (Player q : kAllPlayers) {
    checkers += popcount(p.checkers(q));
    men += popcount(p.men[q]);
    const int corner = g.corner(q);
    for (Bitboard b = p.men[q]; b;) {
      const int cell = pop_lsb(b);
      advance += std::abs(g.column_of(cell) - g.column_of(corner)) +
                 std::abs(g.row_of(cell) - g.row_of(corner));
    }
  }
  return tier_of(checkers, men, advance);
}

std::uint64_t CoalitionTierSpace::block_key(const std::array<Bitboard, kPlayers>& men,
                                            const std::array<int, kPlayers>& kings) const {
  const Bitboard occupied = men[0] | men[1] | men[2] | men[3];
  const int n = popcount(occupied);
  std::uint64_t key = occupied;
  int at = men_bits_;
  key |= extract_bits(men[kRed] | men[kBlack], occupied) << at;
  at += n;
  key |= extract_bits(men[kGreen] | men[kBlack], occupied) << at;
  at += n;
  for (Player q : kAllPlayers) key |= std::uint64_t(kings[q]) << (at + kCountBits * q);
  return key;
}

std::array<std::uint64_t, 4> CoalitionTierSpace::turned_keys(
    const std::array<Bitboard, kPlayers>& men, const std::array<int, kPlayers>& kings) const {
  const Geometry& g = game_.geometry();
  std::array<std::uint64_t, 4> keys;
  for (int r = 0; r < 4; ++r) {
    std::array<Bitboard, kPlayers> turned{};
    std::array<int, kPlayers> counts{};
    for (Player q : kAllPlayers) {
      const int to = (q + kPlayers - r) % kPlayers;
      turned[to] = r ? g.map(men[q], g.quarter_turns(r)) : men[q];
      counts[to] = kings[q];
    }
    keys[r] = block_key(turned, counts);
  }
  return keys;
}

CoalitionTierSpace::BlockOf CoalitionTierSpace::block_of(const Position& p) const {
  std::array<int, kPlayers> kings{};
  for (Player q : kAllPlayers) kings[q] = popcount(p.kings[q]);
  const std::array<std::uint64_t, 4> keys = turned_keys(p.men, kings);
  const std::uint64_t least = *std::min_element(keys.begin(), keys.end());
  const int first = int(std::find(keys.begin(), keys.end(), least) - keys.begin());
  const int period = keys[(first + 1) % 4] == least ? 1 : keys[(first + 2) % 4] == least ? 2 : 4;
  // Of the turns onto the block's frame (first + a multiple of period), the one that leaves the
  // player to move below period.
  const int mover = (p.to_move + kPlayers - first) % period;
  return {least, (p.to_move + kPlayers - mover) % kPlayers, period};
}

void CoalitionTierSpace::decode_key(Cursor& cursor, std::uint64_t key) const {
  const Bitboard occupied = key & game_.geometry().board_mask();
  const int n = popcount(occupied);
  const Bitboard low = deposit_bits(key >> men_bits_, occupied);
  const Bitboard high = deposit_bits(key >> (men_bits_ + n), occupied);
  cursor.men = Position{};
  cursor.men.men = {occupied & ~low & ~high, low & ~high, ~low & high & occupied, low & high};
  int total = 0;
  for (Player q : kAllPlayers)
    total += cursor.kings[q] = int(key >> (men_bits_ + 2 * n + kCountBits * q) & 7);
  const std::array<std::uint64_t, 4> keys = turned_keys(cursor.men.men, cursor.kings);
  cursor.period = keys[1] == key ? 1 : keys[2] == key ? 2 : 4;
  const int free = game_.geometry().cells() - n;
  cursor.placements = counting().binomial[free][total] * counting().multinomial(cursor.kings);
}

std::uint64_t CoalitionTierSpace::block_entries(std::uint64_t key) const {
  Cursor cursor;
  decode_key(cursor, key);
  return std::uint64_t(cursor.period) * cursor.placements;
}

void CoalitionTierSpace::decode_block(Cursor& cursor, int tier, std::uint64_t block) const {
  decode_key(cursor, tiers_[tier].keys[block]);
  cursor.tier = tier;
  cursor.block = block;
  cursor.entries = {};
}

std::uint64_t CoalitionTierSpace::kings_rank(const Position& p, Bitboard free,
                                             const std::array<int, kPlayers>& counts) const {
  const Counting& k = counting();
  Bitboard all = 0;
  for (Player q : kAllPlayers) all |= p.kings[q];
  std::uint64_t cells = 0;
  int i = 0;
  for (std::uint64_t bits = extract_bits(all, free); bits; bits &= bits - 1)
    cells += k.binomial[std::countr_zero(bits)][++i];
  std::array<int, kPlayers> left = counts;
  std::uint64_t owners = 0;
  for (Bitboard b = all; b;) {
    const Bitboard cell = b & (0 - b);
    b ^= cell;
    Player owner = kWhite;
    while (!(p.kings[owner] & cell)) owner = next_player(owner);
    for (int s = 0; s < owner; ++s)
      if (left[s]) {
        --left[s];
        owners += k.multinomial(left);
        ++left[s];
      }
    --left[owner];
  }
  return cells * k.multinomial(counts) + owners;
}

void CoalitionTierSpace::place_kings(Position& p, Bitboard free,
                                     const std::array<int, kPlayers>& counts,
                                     std::uint64_t rank) const {
  const Counting& k = counting();
  const std::uint64_t multi = k.multinomial(counts);
  std::uint64_t cells = rank / multi, owners = rank % multi;
  const int total = counts[0] + counts[1] + counts[2] + counts[3];
  std::uint64_t bits = 0;
  int top = popcount(free);
  for (int i = total; i >= 1; --i) {
    int c = top - 1;
    while (k.binomial[c][i] > cells) --c;
    cells -= k.binomial[c][i];
    bits |= std::uint64_t{1} << c;
    top = c;
  }
  std::array<int, kPlayers> left = counts;
  for (Bitboard b = deposit_bits(bits, free); b;) {
    const Bitboard cell = b & (0 - b);
    b ^= cell;
    for (Player s : kAllPlayers) {
      if (!left[s]) continue;
      --left[s];
      const std::uint64_t with = k.multinomial(left);
      if (owners < with) {
        p.kings[s] |= cell;
        break;
      }
      owners -= with;
      ++left[s];
    }
  }
}

CoalitionTierSpace::Framed CoalitionTierSpace::frame(const Position& p) const {
  return frame_as(p, block_of(p));
}

CoalitionTierSpace::Framed CoalitionTierSpace::frame_in_block(const Position& p, std::uint64_t key,
                                                              int period) const {
  // As block_of finds it: the key is p's own (its first turn), and of the turns by a multiple of
  // the period, the one that leaves the player to move below it.
  return frame_as(p, {key, (p.to_move + kPlayers - p.to_move % period) % kPlayers, period});
}

CoalitionTierSpace::Framed CoalitionTierSpace::frame_as(const Position& p,
                                                        const BlockOf& block) const {
  const Geometry& g = game_.geometry();
  Position framed;
  std::array<int, kPlayers> counts{};
  for (Player q : kAllPlayers) {
    const int to = (q + kPlayers - block.turn) % kPlayers;
    framed.men[to] = block.turn ? g.map(p.men[q], g.quarter_turns(block.turn)) : p.men[q];
    framed.kings[to] = block.turn ? g.map(p.kings[q], g.quarter_turns(block.turn)) : p.kings[q];
    counts[to] = popcount(p.kings[q]);
  }
  const int mover = (p.to_move + kPlayers - block.turn) % kPlayers;
  const Bitboard free =
      g.board_mask() & ~(framed.men[0] | framed.men[1] | framed.men[2] | framed.men[3]);
  const int total = counts[0] + counts[1] + counts[2] + counts[3];
  const std::uint64_t placements =
      counting().binomial[popcount(free)][total] * counting().multinomial(counts);
  return {block.key, std::uint64_t(mover) * placements + kings_rank(framed, free, counts)};
}

tablebase::Location CoalitionTierSpace::locate_child(const Cursor& cursor,
                                                     const Position& child) const {
  const int t = tier_of(child);
  if (t != cursor.tier) return locate(child);
  const std::uint64_t index =
      entry_of(tiers_[t], cursor.block,
               frame_in_block(child, tiers_[t].keys[cursor.block], cursor.period).local);
  if (index == ~std::uint64_t{0}) return {};
  return {t, index};
}

tablebase::Location CoalitionTierSpace::locate(const Position& p) const {
  const int t = tier_of(p);
  if (t < 0) return {};
  const Tier& tier = tiers_[t];
  const Framed f = frame(p);
  const auto it = std::lower_bound(tier.keys.begin(), tier.keys.end(), f.key);
  if (it == tier.keys.end() || *it != f.key) return {};
  const std::uint64_t index = entry_of(tier, std::uint64_t(it - tier.keys.begin()), f.local);
  if (index == ~std::uint64_t{0}) return {};
  return {t, index};
}

Position CoalitionTierSpace::position(Cursor& cursor, int tier, std::uint64_t index) const {
  const Tier& t = tiers_[tier];
  if (cursor.tier != tier || index < cursor.entries.begin || index >= cursor.entries.end) {
    const std::uint64_t block =
        std::uint64_t(std::upper_bound(t.first.begin(), t.first.end(), index) - t.first.begin()) -
        1;
    decode_block(cursor, tier, block);
    cursor.entries = block_range(tier, block);
  }
  return block_place(cursor, tier, cursor.block, place_of(t, cursor.block, index));
}

Position CoalitionTierSpace::block_place(Cursor& cursor, int tier, std::uint64_t block,
                                         std::uint64_t local) const {
  if (cursor.tier != tier || cursor.block != block) decode_block(cursor, tier, block);
  Position p = cursor.men;
  const Bitboard free =
      game_.geometry().board_mask() & ~(p.men[0] | p.men[1] | p.men[2] | p.men[3]);
  place_kings(p, free, cursor.kings, local % cursor.placements);
  p.to_move = Player(local / cursor.placements);
  return p;
}

void CoalitionTierSpace::discover(int threads, const std::filesystem::path& spill,
                                  const std::function<void(int, std::uint64_t)>& progress) {
  // Positions found, by tier, before their tier's blocks are numbered: block key and place.
  struct Seed {
    std::uint64_t key, local;
    auto operator<=>(const Seed&) const = default;
  };
  tablebase::BucketSpill<Seed> pending(tier_count(), spill, kSpillName, kSpillCap);
  std::uint64_t positions = 0;
  int done = 0;  // tiers reached: those from tier_count() - done on
  // With a folder, the reach is kept there now and then (the tiers reached, the positions found
  // ahead of them) and taken up again from there.
  const auto checkpoint_path = spill / kReachCheckpoint;
  const std::string checkpoint_encoding = "reach, spill bytes" + small_blocks();
  if (!spill.empty() && std::filesystem::exists(checkpoint_path)) {
    const auto words = open_index_file(checkpoint_path, "reach", checkpoint_encoding).read_packed();
    const auto damaged = [&] { return tablebase::TableError(checkpoint_path, "is damaged"); };
    if (words.size() < 3 || words[0] > std::uint64_t(tier_count())) throw damaged();
    done = int(words[0]);
    const std::size_t at = 3 + read_tier_lists(checkpoint_path, std::span(words).subspan(3),
                                               tier_count() - done, spill);
    for (int t = tier_count() - done; t < tier_count(); ++t) positions += tier_size(t);
    if (positions != words[1] || words.size() - at != std::size_t(tier_count())) throw damaged();
    discovery_peak_ = words[2];
    try {
      pending.resume({words.begin() + std::ptrdiff_t(at), words.end()});
    } catch (const std::runtime_error& e) {
      throw tablebase::TableError(checkpoint_path, std::string("cannot be taken up: ") + e.what());
    }
  } else {
    if (!spill.empty()) pending.resume({});  // a stopped reach's files, if any, dropped
    const Position start = game_.start();
    if (!game_.is_terminal(start)) {
      const Framed f = frame(start);
      pending.add(tier_of(start), {f.key, f.local});
    }
  }
  // Writes the tiers reached since the last checkpoint, the positions found ahead, then the
  // checkpoint that names them; the next one at least checkpoint_interval_ and ten times this
  // one's time later.
  using Clock = std::chrono::steady_clock;
  Clock::time_point next_checkpoint = Clock::now() + checkpoint_interval_;
  int checkpointed = done;  // tiers from tier_count() - checkpointed on are in the folder
  const auto checkpoint = [&] {
    const auto began = Clock::now();
    for (int t = tier_count() - checkpointed - 1; t >= tier_count() - done; --t)
      save_tier(spill, t, kCheckpointZstdLevel);
    std::vector<std::uint64_t> words = {std::uint64_t(done), positions, discovery_peak_};
    const auto tiers = tier_lists(tier_count() - done);
    words.insert(words.end(), tiers.begin(), tiers.end());
    const auto lengths = pending.flush();
    words.insert(words.end(), lengths.begin(), lengths.end());
    tablebase::write_packed_table(checkpoint_path,
                                  {variant_name(), "reach", 2 * std::uint64_t(words.size()), 32,
                                   index_scheme() + "; " + checkpoint_encoding},
                                  words, kCheckpointZstdLevel);
    pending.forget_cleared();
    checkpointed = done;
    next_checkpoint =
        Clock::now() + std::max<Clock::duration>(checkpoint_interval_, 10 * (Clock::now() - began));
  };
  if (progress && done) progress(done, positions);  // the tiers taken up from a checkpoint
  tbb::task_arena arena(std::max(1, threads));
  using Found = std::vector<std::pair<int, Seed>>;
  tbb::enumerable_thread_specific<Found> found;
  // A larger block's places while it is reached: bits up to layout_.held_places, a hash set past
  // them.
  struct Held {
    std::vector<std::uint64_t> bits;
    absl::flat_hash_set<std::uint64_t> set;
  };
  tbb::enumerable_thread_specific<Held> held;
  for (int t = tier_count() - 1 - done; t >= 0; --t) {
    Tier& tier = tiers_[t];
    std::vector<char> child(tiers_.size(), 0);
    {
      absl::flat_hash_set<std::uint64_t> keys;
      pending.for_each(t, [&](const Seed& s) { keys.insert(s.key); });
      tier.keys.assign(keys.begin(), keys.end());
    }
    std::sort(tier.keys.begin(), tier.keys.end());
    const std::size_t blocks = tier.keys.size();
    // The small blocks' places are bits of the tier's, from the start, in block order; the
    // larger ones are reached from lists of their seeds.
    std::vector<std::uint64_t> places(blocks);
    tier.at.assign(blocks, 0);
    std::uint64_t small_bits = 0;
    for (std::size_t b = 0; b < blocks; ++b) {
      places[b] = block_entries(tier.keys[b]);
      if (places[b] <= layout_.small_block) {
        tier.at[b] = small_bits;
        small_bits += places[b];
      }
    }
    tier.bits.assign((small_bits + 63) / 64, 0);
    std::vector<std::pair<std::uint64_t, std::uint64_t>> seeds;  // a larger block's: block, place
    pending.for_each(t, [&](const Seed& s) {
      const auto b = std::uint64_t(std::lower_bound(tier.keys.begin(), tier.keys.end(), s.key) -
                                   tier.keys.begin());
      if (places[b] <= layout_.small_block) {
        const std::uint64_t e = tier.at[b] + s.local;
        tier.bits[e / 64] |= std::uint64_t{1} << (e % 64);
      } else {
        seeds.push_back({b, s.local});
      }
    });
    pending.clear(t);
    std::sort(seeds.begin(), seeds.end());
    seeds.erase(std::unique(seeds.begin(), seeds.end()), seeds.end());
    // Where a place's moves lead: out of the tier, found for later; in it, its block's place.
    const auto follow = [&](Cursor& cursor, std::uint64_t b, std::uint64_t local, Found& out,
                            auto&& reached) {
      const Position p = block_place(cursor, t, b, local);
      MoveList moves;
      game_.generate(p, moves);
      for (const Move& m : moves) {
        Position child = p;
        game_.make(child, m);
        if (game_.is_terminal(child)) continue;
        const int ct = tier_of(child);
        if (ct == t) {  // a king's slide: the same men, the same block
          reached(frame_in_block(child, tier.keys[b], cursor.period).local);
          continue;
        }
        if (ct < 0 || ct > t) throw std::logic_error("a move led to a later tier");
        const Framed f = frame(child);
        out.push_back({ct, Seed{f.key, f.local}});
      }
    };
    // In the arena: the pending buffers' sorts use its threads.
    const auto hand_on = [&] {
      arena.execute([&] {
        for (Found& f : found) {
          for (const auto& [ct, seed] : f) {
            child[ct] = 1;
            pending.add(ct, seed);
          }
          Found().swap(f);
        }
      });
    };
    // Each block's positions reached through its kings' moves from those found, and where the
    // moves of all of them lead out of the tier. A chunk of blocks at a time, of about
    // kChunkEntries places (or seeds, for the larger blocks), so that what their moves find is
    // handed on (and spilled) as it grows.
    // A larger block's places once reached: where they are dense, increasing (to be laid out as
    // bits after the small blocks'), else as a sorted set, which holds a tier of few men and
    // many kings in a byte or two a place (a list would take eight).
    std::vector<std::vector<std::uint64_t>> large(blocks);
    std::vector<tablebase::EliasFanoSet> sparse(blocks);
    const auto keep = [&](std::uint64_t b, std::vector<std::uint64_t> reached) {
      std::sort(reached.begin(), reached.end());
      if (places[b] <= layout_.dense_share * reached.size())
        large[b] = std::move(reached);
      else
        sparse[b] = tablebase::EliasFanoSet(reached, places[b]);
    };
    std::vector<std::size_t> seeded(blocks + 1, 0);  // a larger block's seeds: from seeded[b] on
    for (const auto& seed : seeds) ++seeded[seed.first + 1];
    for (std::size_t b = 0; b < blocks; ++b) seeded[b + 1] += seeded[b];
    // A block reached by all the threads together, a level of its places at a time: one whose
    // reach alone would hold a thread up (a tier of few men may be a few such blocks).
    const auto shared = [&](std::uint64_t b) {
      return places[b] > layout_.small_block &&
             (seeded[b + 1] - seeded[b] >= layout_.shared_seeds || places[b] > layout_.held_places);
    };
    const auto reach_shared = [&](std::uint64_t b) {
      std::vector<std::uint64_t> level, all;
      for (std::size_t i = seeded[b]; i < seeded[b + 1]; ++i) level.push_back(seeds[i].second);
      // Its places marked in shared bits, or past layout_.shared_bits in hash sets by a lock
      // each (a 64th of the places each).
      const bool in_bits = places[b] <= layout_.shared_bits;
      std::vector<std::uint64_t> marks(in_bits ? (places[b] + 63) / 64 : 0);
      struct Shard {
        std::mutex lock;
        absl::flat_hash_set<std::uint64_t> places;
      };
      constexpr std::size_t kShards = 64;
      std::unique_ptr<Shard[]> shards(in_bits ? nullptr : new Shard[kShards]);
      const auto add = [&](std::uint64_t local) {
        if (in_bits) {
          const std::uint64_t bit = std::uint64_t{1} << (local % 64);
          return !(std::atomic_ref<std::uint64_t>(marks[local / 64])
                       .fetch_or(bit, std::memory_order_relaxed) &
                   bit);
        }
        Shard& shard = shards[absl::HashOf(local) % kShards];
        std::lock_guard hold(shard.lock);
        return shard.places.insert(local).second;
      };
      for (const std::uint64_t local : level) add(local);
      tbb::enumerable_thread_specific<std::vector<std::uint64_t>> next;
      while (!level.empty()) {
        all.insert(all.end(), level.begin(), level.end());
        arena.execute([&] {
          solver::parallel_for(tbb::blocked_range<std::size_t>(0, level.size(), 64),
                               [&](const auto& r) {
                                 Cursor cursor;
                                 Found& out = found.local();
                                 std::vector<std::uint64_t>& mine = next.local();
                                 for (std::size_t i = r.begin(); i != r.end(); ++i)
                                   follow(cursor, b, level[i], out, [&](std::uint64_t local) {
                                     if (add(local)) mine.push_back(local);
                                   });
                               });
        });
        level.clear();
        for (std::vector<std::uint64_t>& found_next : next) {
          level.insert(level.end(), found_next.begin(), found_next.end());
          found_next.clear();
        }
        hand_on();
      }
      keep(b, std::move(all));
    };
    for (std::uint64_t from = 0, to; from < blocks; from = to) {
      if (shared(from)) {
        reach_shared(from);
        to = from + 1;
        continue;
      }
      std::uint64_t work = 0;
      for (to = from; to < blocks && !shared(to) && (to == from || work < kChunkEntries); ++to)
        work += places[to] <= layout_.small_block ? places[to] : kChunkEntries / 64;
      arena.execute([&] {
        solver::parallel_for(tbb::blocked_range<std::uint64_t>(from, to), [&](const auto& r) {
          Cursor cursor;
          Found& out = found.local();
          std::vector<std::uint64_t> queue;
          for (std::uint64_t b = r.begin(); b != r.end(); ++b) {
            queue.clear();
            if (places[b] <= layout_.small_block) {
              for (std::uint64_t e = 0; e < places[b]; ++e)
                if (marked_now(tier, tier.at[b] + e)) queue.push_back(e);
              for (std::size_t i = 0; i < queue.size(); ++i)
                follow(cursor, b, queue[i], out, [&](std::uint64_t local) {
                  if (mark(tier, tier.at[b] + local)) queue.push_back(local);
                });
              continue;
            }
            for (std::size_t i = seeded[b]; i < seeded[b + 1]; ++i)
              queue.push_back(seeds[i].second);
            Held& h = held.local();
            const bool in_bits = places[b] <= layout_.held_places;
            if (in_bits && h.bits.empty()) h.bits.assign((layout_.held_places + 63) / 64, 0);
            const auto add = [&](std::uint64_t local) {
              if (in_bits) {
                std::uint64_t& word = h.bits[local / 64];
                const std::uint64_t bit = std::uint64_t{1} << (local % 64);
                if (word & bit) return false;
                word |= bit;
                return true;
              }
              return h.set.insert(local).second;
            };
            for (const std::uint64_t local : queue) add(local);
            for (std::size_t i = 0; i < queue.size(); ++i)
              follow(cursor, b, queue[i], out, [&](std::uint64_t local) {
                if (add(local)) queue.push_back(local);
              });
            if (in_bits)
              for (const std::uint64_t local : queue) h.bits[local / 64] = 0;
            else
              absl::flat_hash_set<std::uint64_t>().swap(h.set);
            keep(b, queue);
          }
        });
      });
      hand_on();
    }
    // The larger blocks kept as bits after the small ones where their places are dense, as sets
    // where they are sparse.
    std::uint64_t bits = small_bits;
    for (std::size_t b = 0; b < blocks; ++b) {
      if (places[b] <= layout_.small_block) continue;
      if (!sparse[b].size()) {
        tier.at[b] = bits;
        bits += places[b];
        tier.bits.resize((bits + 63) / 64, 0);
        for (const std::uint64_t local : large[b]) {
          const std::uint64_t e = tier.at[b] + local;
          tier.bits[e / 64] |= std::uint64_t{1} << (e % 64);
        }
      } else {
        tier.at[b] = kListed | tier.listed.size();
        tier.listed.push_back(std::move(sparse[b]));
      }
      std::vector<std::uint64_t>().swap(large[b]);
    }
    number_entries(tier, places);
    for (int c = 0; c < tier_count(); ++c)
      if (child[c]) tier.children.push_back(c);
    positions += tier.first.back();
    discovery_peak_ = std::max(discovery_peak_, pending.peak_bytes());
    ++done;
    if (!spill.empty() && Clock::now() >= next_checkpoint) checkpoint();
    try {
      if (progress) progress(done, positions);
    } catch (...) {  // a caller's stop: kept where the reach stands
      if (!spill.empty() && checkpointed != done) checkpoint();
      throw;
    }
  }
  // The last checkpoint and its files stay until save_index has written the whole reach.
}

void CoalitionTierSpace::number_entries(Tier& tier, const std::vector<std::uint64_t>& places) {
  tier.ranks.assign(tier.bits.size() / kRankWords + 2, 0);
  for (std::size_t w = 0; w < tier.bits.size(); ++w)
    tier.ranks[w / kRankWords + 1] += std::uint64_t(popcount(tier.bits[w]));
  for (std::size_t i = 1; i < tier.ranks.size(); ++i) tier.ranks[i] += tier.ranks[i - 1];
  tier.first.assign(tier.keys.size() + 1, 0);
  for (std::size_t b = 0; b < tier.keys.size(); ++b) {
    const std::uint64_t at = tier.at[b];
    tier.first[b + 1] =
        tier.first[b] + (at & kListed ? tier.listed[at & ~kListed].size()
                                      : bits_rank(tier, at + places[b]) - bits_rank(tier, at));
  }
}

namespace {

std::filesystem::path index_path(const std::filesystem::path& dir, int tier, const char* what) {
  char file[40];
  std::snprintf(file, sizeof file, "index-%04d.%s", tier, what);
  return dir / file;
}

}  // namespace

void CoalitionTierSpace::save_tier(const std::filesystem::path& dir, int t, int zstd_level) const {
  const Tier& tier = tiers_[t];
  if (tier.keys.empty()) return;
  const std::string variant = variant_name(), scheme = index_scheme();
  tablebase::write_packed_table(
      index_path(dir, t, "blocks"),
      {variant, tier_name(t), 2 * std::uint64_t(tier.keys.size()), 32, scheme + "; block keys"},
      tier.keys, zstd_level);
  tablebase::write_packed_table(
      index_path(dir, t, "rows"),
      {variant, tier_name(t), std::uint64_t(tier.bits.size()) * 64, 1, scheme + "; reached"},
      tier.bits, zstd_level);
  // The sparse blocks: their count, each one's block and count, then each one's set's words.
  std::vector<std::uint64_t> lists = {tier.listed.size()};
  for (std::size_t b = 0; b < tier.keys.size(); ++b)
    if (tier.at[b] & kListed) lists.insert(lists.end(), {b, tier.first[b + 1] - tier.first[b]});
  for (const tablebase::EliasFanoSet& set : tier.listed) set.append_words(lists);
  tablebase::write_packed_table(
      index_path(dir, t, "lists"),
      {variant, tier_name(t), 2 * std::uint64_t(lists.size()), 32, scheme + "; listed"}, lists,
      zstd_level);
}

// Each tier's block count and child tiers, tiers [from, tier_count()) (the reach's order is
// downwards: those a reach has done), as index.tiers and a reach's checkpoint keep them.
std::vector<std::uint64_t> CoalitionTierSpace::tier_lists(int from) const {
  std::vector<std::uint64_t> words;
  for (int t = tier_count() - 1; t >= from; --t) {
    words.push_back(tiers_[t].keys.size());
    words.push_back(tiers_[t].children.size());
    words.insert(words.end(), tiers_[t].children.begin(), tiers_[t].children.end());
  }
  return words;
}

void CoalitionTierSpace::save_index(const std::filesystem::path& dir, int zstd_level) const {
  for (int t = 0; t < tier_count(); ++t) save_tier(dir, t, zstd_level);
  const std::vector<std::uint64_t> tiers = tier_lists(0);
  tablebase::write_packed_table(
      dir / "index.tiers",
      {variant_name(), "tiers", 2 * tiers.size(), 32, index_scheme() + "; tiers" + small_blocks()},
      tiers, zstd_level);
  // A reach's checkpoint, then the files of positions found ahead it kept.
  std::filesystem::remove(dir / kReachCheckpoint);
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    const std::string file = entry.path().filename().string();
    if (file.starts_with(std::string(kSpillName) + "-") && file.ends_with(".spill"))
      std::filesystem::remove(entry.path());
  }
}

tablebase::TableReader CoalitionTierSpace::open_index_file(const std::filesystem::path& path,
                                                           const std::string& tier,
                                                           const std::string& encoding,
                                                           std::uint32_t bits) const {
  tablebase::TableReader reader(path, variant_name(), tier);
  const tablebase::TableHeader& h = reader.header();
  if (h.encoding != index_scheme() + "; " + encoding || h.bits_per_record != bits)
    throw tablebase::TableError(path, "holds \"" + h.encoding + "\" of " +
                                          std::to_string(h.record_count) +
                                          " records, not what this build's numbering reads");
  return reader;
}

// Reads tier t's blocks and reached places, `blocks` of them, as save_tier wrote them, checked:
// keys increasing, the sparse blocks increasing with sets of increasing places inside their
// block, the bits as long as the dense blocks' places.
void CoalitionTierSpace::load_tier(const std::filesystem::path& dir, int t, std::uint64_t blocks) {
  Tier& tier = tiers_[t];
  tier.keys.clear();
  tier.at.clear();
  tier.bits.clear();
  tier.listed.clear();
  std::vector<std::uint64_t> places;
  if (blocks) {
    const auto keys_path = index_path(dir, t, "blocks");
    tier.keys = open_index_file(keys_path, tier_name(t), "block keys").read_packed();
    if (tier.keys.size() != blocks || !std::is_sorted(tier.keys.begin(), tier.keys.end()))
      throw tablebase::TableError(keys_path, "is damaged");
    const auto lists_path = index_path(dir, t, "lists");
    const auto lists = open_index_file(lists_path, tier_name(t), "listed").read_packed();
    const auto damaged = [&] { return tablebase::TableError(lists_path, "is damaged"); };
    if (lists.empty() || lists[0] > blocks || lists.size() < 1 + 2 * lists[0]) throw damaged();
    places.resize(blocks);
    tier.at.assign(blocks, 0);
    for (std::size_t b = 0; b < blocks; ++b) places[b] = block_entries(tier.keys[b]);
    std::size_t words = 1 + 2 * lists[0];
    for (std::uint64_t i = 0; i < lists[0]; ++i) {
      const std::uint64_t b = lists[1 + 2 * i], count = lists[2 + 2 * i];
      if (b >= blocks || (i && b <= lists[2 * i - 1]) || !count || count > places[b] ||
          places[b] <= layout_.small_block)
        throw damaged();
      const std::uint64_t size = tablebase::EliasFanoSet::word_count(count, places[b]);
      if (lists.size() - words < size) throw damaged();
      tier.at[b] = kListed | tier.listed.size();
      try {
        tier.listed.push_back(tablebase::EliasFanoSet::from_words(
            count, places[b], {lists.data() + words, std::size_t(size)}));
      } catch (const std::invalid_argument&) {
        throw damaged();
      }
      words += size;
    }
    if (lists.size() != words) throw damaged();
    // The dense blocks' bits: the small blocks' first, then the larger ones', as the reach laid
    // them out.
    std::uint64_t bits = 0;
    for (int larger = 0; larger < 2; ++larger)
      for (std::size_t b = 0; b < blocks; ++b)
        if (!(tier.at[b] & kListed) && (places[b] > layout_.small_block) == bool(larger)) {
          tier.at[b] = bits;
          bits += places[b];
        }
    const auto rows_path = index_path(dir, t, "rows");
    tablebase::TableReader rows = open_index_file(rows_path, tier_name(t), "reached", 1);
    if (rows.header().record_count != (bits + 63) / 64 * 64)
      throw tablebase::TableError(rows_path, "is damaged");
    tier.bits = rows.read_packed();
    tier.bits.resize((bits + 63) / 64);
  }
  number_entries(tier, places);
}

// Reads tier lists as tier_lists wrote them, into tiers [from, tier_count()); returns the words
// read. Throws TableError (naming `path`) for damage.
std::size_t CoalitionTierSpace::read_tier_lists(const std::filesystem::path& path,
                                                std::span<const std::uint64_t> words, int from,
                                                const std::filesystem::path& dir) {
  std::size_t at = 0;
  const auto next = [&]() -> std::uint64_t {
    if (at >= words.size()) throw tablebase::TableError(path, "ends too soon");
    return words[at++];
  };
  for (int t = tier_count() - 1; t >= from; --t) {
    Tier& tier = tiers_[t];
    const std::uint64_t blocks = next(), children = next();
    tier.children.clear();
    for (std::uint64_t i = 0; i < children; ++i) {
      const std::uint64_t c = next();
      if (c >= std::uint64_t(t) || (i && int(c) <= tier.children.back()))
        throw tablebase::TableError(path, "is damaged");
      tier.children.push_back(int(c));
    }
    load_tier(dir, t, blocks);
  }
  return at;
}

bool CoalitionTierSpace::load_index(const std::filesystem::path& dir) {
  if (!std::filesystem::exists(dir / "index.tiers")) return false;
  const auto path = dir / "index.tiers";
  const auto words = open_index_file(path, "tiers", "tiers" + small_blocks()).read_packed();
  if (read_tier_lists(path, words, 0, dir) != words.size())
    throw tablebase::TableError(path, "is damaged");
  return true;
}

}  // namespace nevsky
