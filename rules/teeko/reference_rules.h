// A deliberately plain second implementation of Teeko's rules: a mailbox board of FEN letters,
// patterns found by walking the board from each square, moves as strings, copy-make, its own FEN
// reading and writing. It shares nothing with the bitboard engine (not even the Position), so
// tests use it as an independent check of move generation, make, FEN, perft and (through a plain
// fixed point over its own positions) of the solved values.
#pragma once

#include <cctype>
#include <cstdint>
#include <string>
#include <vector>

#include "rules/common/reference_perft.h"

namespace teeko::reference {

struct Board {
  int n = 0;                // files = ranks
  std::vector<char> cells;  // rank-major from a1: '.', 'X' or 'O'
  int side = 0;             // 0 Black (X), 1 Red (O)
  bool advanced = false;    // the corners of larger squares count too

  char& at(int file, int rank) { return cells[rank * n + file]; }
  char at(int file, int rank) const { return cells[rank * n + file]; }
  bool inside_board(int file, int rank) const {
    return file >= 0 && file < n && rank >= 0 && rank < n;
  }
  static char letter(int s) { return s == 0 ? 'X' : 'O'; }
  int count(int s) const {
    int k = 0;
    for (char c : cells) k += c == letter(s);
    return k;
  }
};

// Trusts its input: a FEN the real parser accepted.
inline Board from_fen(const std::string& fen, bool advanced = false) {
  std::vector<std::string> ranks(1);
  std::size_t i = 0;
  for (; fen[i] != ' '; ++i) {
    if (fen[i] == '/')
      ranks.emplace_back();
    else if (std::isdigit(static_cast<unsigned char>(fen[i])))
      ranks.back().append(std::size_t(fen[i] - '0'), '.');
    else
      ranks.back() += fen[i];
  }
  Board b;
  b.n = int(ranks.size());
  for (int r = b.n - 1; r >= 0; --r)
    b.cells.insert(b.cells.end(), ranks[r].begin(), ranks[r].end());
  b.side = fen.back() == 'x' ? 0 : 1;
  b.advanced = advanced;
  return b;
}

inline std::string to_fen(const Board& b) {
  std::string s;
  for (int rank = b.n - 1; rank >= 0; --rank) {
    for (int file = 0; file < b.n; ++file) {
      const char c = b.at(file, rank);
      if (c != '.')
        s += c;
      else if (!s.empty() && std::isdigit(static_cast<unsigned char>(s.back())))
        ++s.back();
      else
        s += '1';
    }
    if (rank > 0) s += '/';
  }
  return s + (b.side == 0 ? " x" : " o");
}

inline std::string square_text(int file, int rank) {
  return std::string{char('a' + file), char('1' + rank)};
}

// Whether side s has four in a line (any of the four directions), on a 2x2 block or, advanced, on
// the corners of a larger square.
inline bool has_four(const Board& b, int s) {
  const char c = Board::letter(s);
  const auto is = [&](int f, int r) { return b.inside_board(f, r) && b.at(f, r) == c; };
  static const int kDirections[4][2] = {{1, 0}, {0, 1}, {1, 1}, {1, -1}};
  for (int r = 0; r < b.n; ++r)
    for (int f = 0; f < b.n; ++f) {
      for (const auto& d : kDirections) {
        int run = 0;
        while (run < 4 && is(f + run * d[0], r + run * d[1])) ++run;
        if (run == 4) return true;
      }
      for (int side = 2; side <= (b.advanced ? b.n : 2); ++side)
        if (is(f, r) && is(f + side - 1, r) && is(f, r + side - 1) &&
            is(f + side - 1, r + side - 1))
          return true;
    }
  return false;
}

inline std::vector<std::string> legal_moves(const Board& b) {
  std::vector<std::string> moves;
  const int us = b.side;
  if (has_four(b, 1 - us)) return moves;  // the other side won with its last move
  const bool dropping = b.count(0) + b.count(1) < 8;
  for (int rank = 0; rank < b.n; ++rank)
    for (int file = 0; file < b.n; ++file) {
      if (dropping) {
        if (b.at(file, rank) == '.') moves.push_back(square_text(file, rank));
        continue;
      }
      if (b.at(file, rank) != Board::letter(us)) continue;
      for (int df = -1; df <= 1; ++df)
        for (int dr = -1; dr <= 1; ++dr)
          if ((df || dr) && b.inside_board(file + df, rank + dr) &&
              b.at(file + df, rank + dr) == '.')
            moves.push_back(square_text(file, rank) + square_text(file + df, rank + dr));
    }
  return moves;
}

inline Board play(Board b, const std::string& move) {
  const int f = move[move.size() - 2] - 'a', r = move[move.size() - 1] - '1';
  if (move.size() == 4) b.at(move[0] - 'a', move[1] - '1') = '.';
  b.at(f, r) = Board::letter(b.side);
  b.side = 1 - b.side;
  return b;
}

// Perft by this engine alone, every leaf played (rules/common/reference_perft.h).
inline std::uint64_t perft(const Board& b, int depth) {
  return common::reference_perft(b, depth);
}

}  // namespace teeko::reference
