#include "rules/dobutsu/solve/tier_space.h"

#include <stdexcept>

namespace dobutsu {

namespace {

constexpr int kSlots = kSquares - 2;

int pair_code(int a, int b) {
  return a * kSquares + b;
}

}  // namespace

TierSpace::TierSpace(const Game& game) : game_(game) {
  for (int n = 0; n <= kSlots; ++n) {
    binomial_[n][0] = 1;
    binomial_[n][1] = std::uint64_t(n);
    binomial_[n][2] = std::uint64_t(n * (n - 1) / 2);
  }
  // The Lion pairs' classes, numbered in the order of their least members.
  int ordinal = 0;
  for (int code = 0; code < kSquares * kSquares; ++code) {
    const int a = code / kSquares, b = code % kSquares;
    if (a == b) continue;
    const int image = pair_code(mirrored(a), mirrored(b));
    if (image < code) continue;  // numbered with its least member
    lions_[a][b] = {std::uint8_t(ordinal), false, image == code};
    lions_[mirrored(a)][mirrored(b)] = {std::uint8_t(ordinal), image != code, image == code};
    lion_squares_[ordinal] = {std::uint8_t(a), std::uint8_t(b)};
    ++ordinal;
  }
  if (ordinal != int(kLionClasses)) throw std::logic_error("dobutsu: Lion classes miscounted");
  for (int a = 0; a < kSquares; ++a)
    for (int b = 0; b < kSquares; ++b) {
      int slot = 0;
      for (int sq = 0; sq < kSquares && slot < kSlots; ++sq)
        if (sq != a && sq != b) slots_[a][b][slot++] = std::uint8_t(sq);
    }
  std::uint64_t next = 0;
  for (int g = 0; g <= 2; ++g)
    for (int e = 0; e <= 2; ++e)
      for (int c = 0; c <= 2; ++c) {
        CountBlock& block = blocks_[9 * g + 3 * e + c];
        block = {next, g, e, c};
        block.hands = std::uint64_t((3 - g) * (3 - e) * (3 - c));
        block.chicks = binomial_[kSlots - g - e][c];
        block.elephants = binomial_[kSlots - g][e];
        block.hands_reciprocal = tablebase::reciprocal_of(block.hands);
        block.chicks_reciprocal = tablebase::reciprocal_of(block.chicks);
        block.elephants_reciprocal = tablebase::reciprocal_of(block.elephants);
        next += binomial_[kSlots][g] * binomial_[kSlots - g][e] * binomial_[kSlots - g - e][c] *
                (std::uint64_t{1} << (g + e + 2 * c)) * std::uint64_t((3 - g) * (3 - e) * (3 - c));
      }
  if (next != kRest) throw std::logic_error("dobutsu: placements miscounted");
  colex_sets_[0][0] = 0;
  for (int y = 0; y < kSlots; ++y) {
    colex_sets_[1][y] = std::uint16_t(1u << y);
    for (int x = 0; x < y; ++x)
      colex_sets_[2][binomial_[y][2] + std::uint64_t(x)] = std::uint16_t(1u << x | 1u << y);
  }
}

namespace {

// The set without squares a and b (a < b), the squares above them moved down: a set of slots
// (the squares at a and b themselves dropped).
inline unsigned without(unsigned set, int a, int b) {
  const unsigned below_a = (1u << a) - 1, below_slot_b = (1u << (b - 1)) - 1;
  return (set & below_a) | (set >> 1 & below_slot_b & ~below_a) | (set >> 2 & ~below_slot_b);
}

// The bits of `bits` at the (at most two) members of `set`, lowest first, packed.
inline unsigned gathered(unsigned bits, unsigned set) {
  if (!set) return 0;
  const unsigned low = bits >> __builtin_ctz(set) & 1;
  set &= set - 1;
  return set ? low | (bits >> __builtin_ctz(set) & 1) << 1 : low;
}

}  // namespace

std::uint64_t TierSpace::rest_rank(const Position& q, int a, int b) const {
  if (a > b) std::swap(a, b);
  const unsigned giraffes = without(q.kind[kGiraffe], a, b);
  const unsigned elephants = without(q.kind[kElephant], a, b);
  const unsigned hens = without(q.kind[kHen], a, b);
  const unsigned chicks = without(q.kind[kChick], a, b) | hens;
  const unsigned theirs = without(q.side[kGote], a, b);
  const int g = std::popcount(giraffes), e = std::popcount(elephants), c = std::popcount(chicks);
  // Ranked among the slots the kinds before leave free: Giraffes, Elephants, Chicks.
  const auto rank_among = [&](unsigned set, unsigned taken) {
    std::uint64_t r = 0;
    int i = 1;
    for (; set; set &= set - 1, ++i)
      r += binomial_[std::popcount(~taken & ((1u << __builtin_ctz(set)) - 1))][i];
    return r;
  };
  std::uint64_t placement = rank_among(giraffes, 0);
  placement = placement * binomial_[kSlots - g][e] + rank_among(elephants, giraffes);
  placement = placement * binomial_[kSlots - g - e][c] + rank_among(chicks, giraffes | elephants);
  const std::uint64_t bits =
      ((std::uint64_t(gathered(theirs, giraffes)) << e | gathered(theirs, elephants)) << c |
       gathered(theirs, chicks))
          << c |
      gathered(hens, chicks);
  const auto& own = q.hand[kSente];
  const std::uint64_t hands =
      (std::uint64_t(own[kChick]) * std::uint64_t(3 - e) + own[kElephant]) * std::uint64_t(3 - g) +
      own[kGiraffe];
  return blocks_[9 * g + 3 * e + c].offset +
         ((placement << (g + e + 2 * c)) + bits) * std::uint64_t((3 - g) * (3 - e) * (3 - c)) +
         hands;
}

tablebase::Location TierSpace::locate(const Position& p) const {
  Position q = p.side_to_move == kSente ? p : Game::swapped(p);
  const int a = q.lion(kSente);
  if (a < 0) return {kCaught, 0};
  const int b = q.lion(kGote);
  if (b < 0) return {-1, 0};
  const LionPair pair = lions_[a][b];
  if (pair.mirror) q = Game::mirror(q);
  const auto [ca, cb] = lion_squares_[pair.ordinal];
  std::uint64_t rest = rest_rank(q, ca, cb);
  if (pair.self_mirror) rest = std::min(rest, rest_rank(Game::mirror(q), ca, cb));
  return {kPlay, pair.ordinal * kRest + rest};
}

Position TierSpace::unrank(int t, std::uint64_t index) const {
  if (t == kCaught) {
    Position p = game_.start();
    p.set(p.lion(kSente), kEmpty);
    return p;
  }
  constexpr std::uint64_t kRestReciprocal = tablebase::reciprocal_of(kRest);
  std::uint64_t rest = tablebase::divide(index, kRest, kRestReciprocal);
  const auto [a, b] = lion_squares_[index];
  // The block of counts holding rest: the last whose offset is not past it.
  int found = 0;
  for (int step = 16; step; step /= 2)
    if (found + step < 27 && blocks_[found + step].offset <= rest) found += step;
  const CountBlock& block = blocks_[found];
  const int g = block.g, e = block.e, c = block.c;
  rest -= block.offset;
  // n / d left in n, n % d returned (d == 1 without a division).
  const auto split = [](std::uint64_t& n, std::uint64_t d, std::uint64_t reciprocal) {
    return d == 1 ? 0 : tablebase::divide(n, d, reciprocal);
  };
  std::uint64_t hands = split(rest, block.hands, block.hands_reciprocal);
  const int nbits = g + e + 2 * c;
  std::uint64_t bits = rest & ((std::uint64_t{1} << nbits) - 1);
  std::uint64_t placement = rest >> nbits;
  const std::uint64_t chick_rank = split(placement, block.chicks, block.chicks_reciprocal);
  const std::uint64_t elephant_rank = split(placement, block.elephants, block.elephants_reciprocal);
  const std::uint64_t giraffe_rank = placement;
  // The set of `count` slots of those not `taken`, of colexicographic rank r.
  const auto unrank_among = [&](std::uint64_t r, int count, unsigned taken) {
    unsigned among = colex_sets_[count][r], set = 0;
    for (int slot = 0; among; ++slot) {
      if (taken >> slot & 1) continue;
      if (among & 1) set |= 1u << slot;
      among >>= 1;
    }
    return set;
  };
  const unsigned giraffes = unrank_among(giraffe_rank, g, 0);
  const unsigned elephants = unrank_among(elephant_rank, e, giraffes);
  const unsigned chicks = unrank_among(chick_rank, c, giraffes | elephants);
  const unsigned promoted = unsigned(bits & ((1u << c) - 1));
  bits >>= c;
  const unsigned chick_sides = unsigned(bits & ((1u << c) - 1));
  bits >>= c;
  const unsigned elephant_sides = unsigned(bits & ((1u << e) - 1));
  const unsigned giraffe_sides = unsigned(bits >> e);

  Position p;
  p.side[kSente] = Bitboard(1u << a);
  p.side[kGote] = Bitboard(1u << b);
  p.kind[kLion] = Bitboard(1u << a | 1u << b);
  const auto& squares = slots_[a][b];
  // Each kind's pieces in slot order, with their sides (and the Chicks' promotions) in order.
  const auto place = [&](unsigned set, unsigned sides, unsigned hens, Kind kind) {
    for (int i = 0; set; set &= set - 1, ++i) {
      const Bitboard bit = Bitboard(1u << squares[__builtin_ctz(set)]);
      p.side[sides >> i & 1] |= bit;
      p.kind[hens >> i & 1 ? kHen : kind] |= bit;
    }
  };
  place(giraffes, giraffe_sides, 0, kGiraffe);
  place(elephants, elephant_sides, 0, kElephant);
  place(chicks, chick_sides, promoted, kChick);
  const unsigned held = unsigned(hands), giraffe_radix = unsigned(3 - g);
  const int own_giraffes = int(held % giraffe_radix);
  const int own_elephants = int(held / giraffe_radix % unsigned(3 - e));
  const int own_chicks = int(held / giraffe_radix / unsigned(3 - e));
  p.hand[kSente] = {std::uint8_t(own_chicks), std::uint8_t(own_elephants),
                    std::uint8_t(own_giraffes)};
  p.hand[kGote] = {std::uint8_t(2 - c - own_chicks), std::uint8_t(2 - e - own_elephants),
                   std::uint8_t(2 - g - own_giraffes)};
  return p;
}

}  // namespace dobutsu
