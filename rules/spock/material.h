// A row of the Spock ladder: a board and the pieces each side has, "spock:WxH:BLUE/red" (upper-case
// letters for Blue, lower-case for Red, in any order; "spock:3x3:KR/kr"). What a row covers is
// every placement of those pieces on the empty board with either side to move, and everything
// reachable from them: Spock moves change types and captures remove pieces, so the positions
// reached hold other material too.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "rules/spock/game.h"
#include "rules/spock/parse_error.h"

namespace spock {

struct Material {
  int width = 0, height = 0;
  std::array<std::vector<PieceType>, 2> pieces;  // by Color, each sorted

  // "spock:WxH:BLUE/red", the name it was parsed from, normalised (letters in R S L P K order).
  std::string name() const;
};

// Throws ParseError naming the fault: not "spock:WxH:BLUE/red", a board outside 3..8, an unknown
// letter, a side without a Spock (it would have lost already), more pieces than squares.
Material parse_material(std::string_view text);

// Every placement of the material on the empty board, with Blue to move and with Red to move.
// Pieces of one side and type are interchangeable, so each placement appears once.
std::vector<Position> placements(const Material& m);
// How many positions placements(m) gives, without listing them (saturates at UINT64_MAX).
std::uint64_t placement_count(const Material& m);

// The placement a row's games are shown from: Blue's pieces along the first rank and Red's along
// the last, in R S L P K order (as the 5x5 start has them on its back ranks), Blue to move; the
// row's first placement when a side's pieces do not fit on one rank.
Position row_start(const Material& m);

}  // namespace spock
