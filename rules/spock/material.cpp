#include "rules/spock/material.h"

#include <algorithm>
#include <cctype>
#include <tuple>

#include "rules/common/text.h"

namespace spock {

namespace {

[[noreturn]] void fail(std::string_view text, const std::string& what) {
  throw ParseError("variant '" + std::string(text) + "': " + what +
                   " (expected spock:WxH:BLUE/red, e.g. spock:3x3:KR/kr)");
}

std::optional<PieceType> type_of_letter(char upper) {
  for (PieceType t : kAllPieceTypes)
    if (piece_letter(t) == upper) return t;
  return std::nullopt;
}

// Places pieces[i..] on squares not in `taken`; identical pieces on rising squares only.
void place(const std::vector<Piece>& pieces, std::size_t i, int lowest, Bitboard taken, int squares,
           Position& p, std::vector<Position>& out) {
  if (i == pieces.size()) {
    out.push_back(p);
    return;
  }
  const bool same_as_previous =
      i > 0 && pieces[i].type == pieces[i - 1].type && pieces[i].color == pieces[i - 1].color;
  for (int sq = same_as_previous ? lowest + 1 : 0; sq < squares; ++sq) {
    if (taken & square_bit(sq)) continue;
    Position next = p;
    next.put(sq, pieces[i]);
    place(pieces, i + 1, sq, taken | square_bit(sq), squares, next, out);
  }
}

}  // namespace

std::string Material::name() const {
  std::string s = "spock:" + std::to_string(width) + "x" + std::to_string(height) + ":";
  for (PieceType t : pieces[kBlue]) s += piece_letter(t, kBlue);
  s += '/';
  for (PieceType t : pieces[kRed]) s += piece_letter(t, kRed);
  return s;
}

Material parse_material(std::string_view text) {
  constexpr std::string_view kPrefix = "spock:";
  if (text.substr(0, kPrefix.size()) != kPrefix) fail(text, "not a Spock variant");
  const std::string_view rest = text.substr(kPrefix.size());
  const auto colon = rest.find(':');
  if (colon == std::string_view::npos) fail(text, "no ':' after the board size");
  const std::string_view size = rest.substr(0, colon);
  constexpr int kMostSide = 8;
  const auto board = common::board_size(size, kMostSide);
  if (!board) fail(text, "board size '" + std::string(size) + "' is not WxH");
  Material m;
  std::tie(m.width, m.height) = *board;
  if (m.width < 3 || m.width > kMostSide || m.height < 3 || m.height > kMostSide)
    fail(text, "a board of " + std::string(size) + "; boards have 3 to 8 files and ranks");
  const std::string_view sides = rest.substr(colon + 1);
  const auto slash = sides.find('/');
  if (slash == std::string_view::npos) fail(text, "no '/' between Blue's and Red's pieces");
  for (Color c : {kBlue, kRed}) {
    const std::string_view letters = c == kBlue ? sides.substr(0, slash) : sides.substr(slash + 1);
    for (char ch : letters) {
      const bool upper = std::isupper(static_cast<unsigned char>(ch));
      const auto t = type_of_letter(char(std::toupper(static_cast<unsigned char>(ch))));
      if (!t || upper != (c == kBlue))
        fail(text, std::string("'") + ch + "' is not a " + (c == kBlue ? "Blue" : "Red") +
                       " piece (R S L P K, " + (c == kBlue ? "upper" : "lower") + " case)");
      m.pieces[c].push_back(*t);
    }
    std::sort(m.pieces[c].begin(), m.pieces[c].end());
    if (std::find(m.pieces[c].begin(), m.pieces[c].end(), kSpock) == m.pieces[c].end())
      fail(text, std::string(c == kBlue ? "Blue" : "Red") + " has no Spock (K)");
  }
  if (int(m.pieces[kBlue].size() + m.pieces[kRed].size()) > m.width * m.height)
    fail(text, "more pieces than squares");
  return m;
}

std::vector<Position> placements(const Material& m) {
  std::vector<Piece> pieces;
  for (Color c : {kBlue, kRed})
    for (PieceType t : m.pieces[c]) pieces.push_back({t, c});
  std::vector<Position> out;
  // Reserved whole: grown by doubling, the copy would hold half as much again as the placements
  // for a moment, past what a memory cap counted for them.
  out.reserve(placement_count(m));
  for (Color side : {kBlue, kRed}) {
    Position p;
    p.side_to_move = side;
    place(pieces, 0, -1, 0, m.width * m.height, p, out);
  }
  return out;
}

std::uint64_t placement_count(const Material& m) {
  // Squares for each group of identical pieces in turn: C(free, group size), times 2 sides to move.
  int free = m.width * m.height;
  unsigned __int128 count = 2;
  for (Color c : {kBlue, kRed})
    for (std::size_t i = 0; i < m.pieces[c].size();) {
      std::size_t j = i;
      while (j < m.pieces[c].size() && m.pieces[c][j] == m.pieces[c][i]) ++j;
      unsigned __int128 ways = 1;
      for (std::size_t k = 0; k < j - i; ++k) ways = ways * (free - k) / (k + 1);
      free -= int(j - i);
      count *= ways;
      if (count > UINT64_MAX) return UINT64_MAX;
      i = j;
    }
  return std::uint64_t(count);
}

Position row_start(const Material& m) {
  if (int(m.pieces[kBlue].size()) > m.width || int(m.pieces[kRed].size()) > m.width)
    return placements(m).front();
  const Geometry geometry(m.width, m.height);
  Position p;
  for (const Color c : {kBlue, kRed})
    for (std::size_t i = 0; i < m.pieces[c].size(); ++i)
      p.put(geometry.square(int(i), c == kBlue ? 0 : m.height - 1), Piece{m.pieces[c][i], c});
  return p;
}

}  // namespace spock
