// A deliberately plain second implementation of the rook race rules: a mailbox board of FEN
// letters, moves found by walking square by square, moves as strings, copy-make, its own FEN
// reading and writing. It shares nothing with the bitboard engine (not even the Position), so
// tests use it as an independent check of move generation, make, FEN, perft and (through a plain
// fixed point over its own positions) of the solved values.
#pragma once

#include <cctype>
#include <cstdint>
#include <string>
#include <vector>

#include "rules/common/reference_perft.h"

namespace rookrace::reference {

struct Board {
  int n = 0;                // files = ranks
  std::vector<char> cells;  // rank-major from a1: '.', 'R', 'r', 'P' or 'p'
  int reserve[2] = {0, 0};  // White, Black
  int inside[2] = {0, 0};   // rook moves in a row that stayed inside one block
  int side = 0;             // 0 White, 1 Black

  char& at(int file, int rank) { return cells[rank * n + file]; }
  char at(int file, int rank) const { return cells[rank * n + file]; }
  bool inside_board(int file, int rank) const {
    return file >= 0 && file < n && rank >= 0 && rank < n;
  }
  char rook_letter(int s) const { return s == 0 ? 'R' : 'r'; }
  char pawn_letter(int s) const { return s == 0 ? 'P' : 'p'; }
};

// Trusts its input: a FEN the real parser accepted.
inline Board from_fen(const std::string& fen) {
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
  // " [W,B] [x,y] s"
  std::size_t open = fen.find('[', i), comma = fen.find(',', open), close = fen.find(']', comma);
  b.reserve[0] = std::stoi(fen.substr(open + 1, comma - open - 1));
  b.reserve[1] = std::stoi(fen.substr(comma + 1, close - comma - 1));
  open = fen.find('[', close), comma = fen.find(',', open), close = fen.find(']', comma);
  const char w = fen[open + 1], k = fen[comma + 1];
  b.inside[0] = w == '-' ? 0 : w - '0';
  b.inside[1] = k == '-' ? 0 : k - '0';
  b.side = fen[close + 2] == 'w' ? 0 : 1;
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
  const auto counter = [](int c) { return c == 0 ? std::string("-") : std::to_string(c); };
  return s + " [" + std::to_string(b.reserve[0]) + "," + std::to_string(b.reserve[1]) + "] [" +
         counter(b.inside[0]) + "," + counter(b.inside[1]) + "] " + (b.side == 0 ? "w" : "b");
}

inline std::string square_text(int file, int rank) {
  return std::string{char('a' + file), char('1' + rank)};
}

// Two squares are in one block when their files and ranks halve to the same numbers.
inline bool same_block(int f1, int r1, int f2, int r2) {
  return f1 / 2 == f2 / 2 && r1 / 2 == r2 / 2;
}

inline std::vector<std::string> legal_moves(const Board& b) {
  std::vector<std::string> moves;
  const int us = b.side, them = 1 - b.side;
  // The other rook on the corner it races to (our start: a1 for Black, the far corner for
  // White) means it has won already.
  const int goal_of_them = them == 1 ? 0 : b.n - 1;
  if (b.at(goal_of_them, goal_of_them) == b.rook_letter(them)) return moves;
  int rook_file = -1, rook_rank = -1;
  for (int rank = 0; rank < b.n; ++rank)
    for (int file = 0; file < b.n; ++file)
      if (b.at(file, rank) == b.rook_letter(us)) rook_file = file, rook_rank = rank;
  static const int kSteps[4][2] = {{0, 1}, {1, 0}, {0, -1}, {-1, 0}};
  for (const auto& step : kSteps)
    for (int f = rook_file + step[0], r = rook_rank + step[1]; b.inside_board(f, r);
         f += step[0], r += step[1]) {
      const char there = b.at(f, r);
      if (there != '.' && there != b.pawn_letter(us)) break;  // enemy pawn or a rook: stop
      const bool stays = same_block(rook_file, rook_rank, f, r);
      if (!(stays && b.inside[us] >= 2))
        moves.push_back(square_text(rook_file, rook_rank) + square_text(f, r));
      if (there != '.') break;  // took its own pawn: no further
    }
  if (b.reserve[us] > 0) {
    const int own_corner = us == 0 ? 0 : b.n - 1;
    for (int rank = 0; rank < b.n; ++rank)
      for (int file = 0; file < b.n; ++file) {
        if (b.at(file, rank) != '.') continue;
        if (file == own_corner && rank == own_corner) continue;
        bool own_pawn_in_block = false;
        for (int r = 0; r < b.n; ++r)
          for (int f = 0; f < b.n; ++f)
            if (b.at(f, r) == b.pawn_letter(us) && same_block(f, r, file, rank))
              own_pawn_in_block = true;
        if (!own_pawn_in_block) moves.push_back("P@" + square_text(file, rank));
      }
  }
  return moves;
}

inline Board play(Board b, const std::string& move) {
  const int us = b.side;
  if (move[0] == 'P') {
    b.at(move[2] - 'a', move[3] - '1') = b.pawn_letter(us);
    --b.reserve[us];
  } else {
    const int f1 = move[0] - 'a', r1 = move[1] - '1', f2 = move[2] - 'a', r2 = move[3] - '1';
    b.at(f1, r1) = '.';
    b.at(f2, r2) = b.rook_letter(us);  // over its own pawn, if one was there: it is gone
    b.inside[us] = same_block(f1, r1, f2, r2) ? b.inside[us] + 1 : 0;
  }
  b.side = 1 - us;
  return b;
}

// Perft by this engine alone, every leaf played (rules/common/reference_perft.h).
inline std::uint64_t perft(const Board& b, int depth) {
  return common::reference_perft(b, depth);
}

}  // namespace rookrace::reference
