// A deliberately plain second implementation of the drop rules: a mailbox board of letters, moves
// found by walking rays square by square, moves as strings, copy-make. It shares nothing with
// the bitboard engine but the Position it starts from, so tests use it as an independent check of
// move generation and perft, and bench/ uses it as the "generic engine" speed baseline.
#pragma once

#include <cctype>
#include <cstdint>
#include <string>
#include <vector>

#include "rules/common/reference_perft.h"
#include "rules/drop/game.h"

namespace drop::reference {

struct Board {
  int width = 0, height = 0;
  std::vector<char> cells;  // rank-major from a1; '.' or a FEN letter
  std::string hand[2];      // FEN letters still in each hand (White's upper case)
  int side = 0;             // 0 White, 1 Black

  char at(int file, int rank) const { return cells[rank * width + file]; }
  bool inside(int file, int rank) const {
    return file >= 0 && file < width && rank >= 0 && rank < height;
  }
};

inline Board from_position(const Game& game, const Position& p) {
  Board b;
  b.width = game.geometry().width();
  b.height = game.geometry().height();
  b.cells.assign(b.width * b.height, '.');
  for (int sq = 0; sq < b.width * b.height; ++sq)
    if (auto piece = p.piece_on(sq)) b.cells[sq] = piece_letter(piece->type, piece->color);
  for (int c = 0; c < 2; ++c)
    for (PieceType t : kAllPieceTypes) b.hand[c].append(p.hand[c][t], piece_letter(t, Color(c)));
  b.side = p.side_to_move;
  return b;
}

inline std::string square_text(int file, int rank) {
  return std::string{char('a' + file), char('1' + rank)};
}

inline std::vector<std::string> legal_moves(const Board& b) {
  std::vector<std::string> moves;
  const std::string kinds = "NBRQK";
  for (char kind : kinds) {
    const char mine = b.side == 0 ? kind : char(std::tolower(kind));
    if (b.hand[b.side].find(mine) == std::string::npos) continue;
    for (int rank = 0; rank < b.height; ++rank)
      for (int file = 0; file < b.width; ++file)
        if (b.at(file, rank) == '.')
          moves.push_back(std::string{kind, '@'} + square_text(file, rank));
  }
  static const int kLeaps[8][2] = {{1, 2},   {2, 1},   {2, -1}, {1, -2},
                                   {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}};
  static const int kLines[8][2] = {{0, 1}, {1, 0},  {0, -1}, {-1, 0},
                                   {1, 1}, {-1, 1}, {1, -1}, {-1, -1}};
  for (int rank = 0; rank < b.height; ++rank)
    for (int file = 0; file < b.width; ++file) {
      const char piece = b.at(file, rank);
      if (piece == '.' || bool(std::isupper(piece)) != (b.side == 0)) continue;
      const char kind = char(std::toupper(piece));
      auto add = [&](int f, int r) {
        moves.push_back(square_text(file, rank) + square_text(f, r));
      };
      if (kind == 'N') {
        for (auto& l : kLeaps)
          if (b.inside(file + l[0], rank + l[1]) && b.at(file + l[0], rank + l[1]) != '.')
            add(file + l[0], rank + l[1]);
        continue;
      }
      for (int d = 0; d < 8; ++d) {
        const bool diagonal = d >= 4;
        if ((kind == 'R' && diagonal) || (kind == 'B' && !diagonal)) continue;
        for (int f = file + kLines[d][0], r = rank + kLines[d][1]; b.inside(f, r);
             f += kLines[d][0], r += kLines[d][1]) {
          if (b.at(f, r) != '.') {
            add(f, r);
            break;
          }
          if (kind == 'K') break;  // the king steps one square only
        }
      }
    }
  return moves;
}

inline Board play(Board b, const std::string& move) {
  if (move[1] == '@') {
    const char letter = b.side == 0 ? move[0] : char(std::tolower(move[0]));
    b.hand[b.side].erase(b.hand[b.side].find(letter), 1);
    b.cells[(move[3] - '1') * b.width + (move[2] - 'a')] = letter;
  } else {
    const int from = (move[1] - '1') * b.width + (move[0] - 'a');
    const int to = (move[3] - '1') * b.width + (move[2] - 'a');
    b.cells[to] = b.cells[from];
    b.cells[from] = '.';
  }
  b.side ^= 1;
  return b;
}

// Perft by this engine alone, every leaf played (rules/common/reference_perft.h).
inline std::uint64_t perft(const Board& b, int depth) {
  return common::reference_perft(b, depth);
}

}  // namespace drop::reference
