#include "rules/spock/game.h"

#include <algorithm>
#include <string>

#include "rules/common/nibble_board.h"
#include "rules/spock/parse_error.h"

namespace spock {

namespace {

int checked_side(int n, const char* what) {
  if (n < 3 || n > 8)
    throw ParseError("board " + std::string(what) + " " + std::to_string(n) +
                     ": Spock boards have 3 to 8 files and ranks");
  return n;
}

// Square code in a key: 0 empty, 1..5 the key's own side's pieces, 6..10 the other side's.
constexpr int code_of(PieceType t, bool theirs) {
  return 1 + t + 5 * theirs;
}

}  // namespace

Game::Game(int width, int height)
    : geometry_(checked_side(width, "width"), checked_side(height, "height")) {}

std::array<std::uint32_t, 4> Game::code_planes(const Position& p, Color us) const {
  std::array<std::uint32_t, 4> planes{};
  for (int theirs = 0; theirs < 2; ++theirs)
    for (PieceType t : kAllPieceTypes) {
      const auto bb = std::uint32_t(p.pieces(theirs ? opposite(us) : us, t));
      for (int j = 0; j < 4; ++j)
        if (code_of(t, theirs) >> j & 1) planes[j] |= bb;
    }
  return planes;
}

Key Game::raw_key(const Position& p) const {
  const Key128 stm = Key128(p.side_to_move) << (key_bits() - 1);
  return common::to_key(common::nibble_board(code_planes(p, kBlue)) | stm);
}

template <bool kMoverRelative>
Key Game::least_image(const Position& p) const {
  const auto planes = code_planes(p, kMoverRelative ? p.side_to_move : kBlue);
  Key128 best = ~Key128(0);
  for (const Symmetry& s : geometry_.symmetries()) {
    std::array<std::uint32_t, 4> image;
    for (int j = 0; j < 4; ++j) image[j] = s.apply_small(planes[j]);
    best = std::min(best, common::nibble_board(image));
  }
  if (!kMoverRelative) best |= Key128(p.side_to_move) << (key_bits() - 1);
  return common::to_key(best);
}

Key Game::symmetric_key(const Position& p) const {
  return least_image<false>(p);
}
Key Game::canonical_key(const Position& p) const {
  return least_image<true>(p);
}

Position Game::from_key(Key k) const {
  const Key128 v = common::from_key(k);
  Position p;
  for (int sq = 0; sq < geometry_.squares(); ++sq)
    if (const int code = int(v >> (4 * sq)) & 15)
      p.put(sq, Piece{PieceType((code - 1) % 5), code > 5 ? kRed : kBlue});
  p.side_to_move = Color(int(v >> (key_bits() - 1)) & 1);
  return p;
}

}  // namespace spock
