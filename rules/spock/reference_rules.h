// A deliberately plain second implementation of the Spock rules: a mailbox board of FEN letters,
// moves found by walking square by square, moves as strings, copy-make, its own FEN reading and
// writing. It shares nothing with the bitboard engine (not even the Position), so tests use it as
// an independent check of move generation, make, FEN and perft, and bench/ as the speed baseline.
#pragma once

#include <cctype>
#include <cstdint>
#include <string>
#include <vector>

#include "rules/common/reference_perft.h"

namespace spock::reference {

struct Board {
  int width = 0, height = 0;
  std::vector<char> cells;  // rank-major from a1; '.' or a FEN letter (Blue upper case)
  int side = 0;             // 0 Blue, 1 Red

  char& at(int file, int rank) { return cells[rank * width + file]; }
  char at(int file, int rank) const { return cells[rank * width + file]; }
  bool inside(int file, int rank) const {
    return file >= 0 && file < width && rank >= 0 && rank < height;
  }
  bool ours(char c) const { return c != '.' && bool(std::isupper(c)) == (side == 0); }
  bool theirs(char c) const { return c != '.' && !ours(c); }
};

// Trusts its input: a FEN the real parser accepted.
inline Board from_fen(const std::string& fen) {
  std::vector<std::string> ranks(1);
  std::size_t i = 0;
  for (; fen[i] != ' '; ++i) {
    if (fen[i] == '/')
      ranks.emplace_back();
    else if (std::isdigit(fen[i]))
      ranks.back().append(fen[i] - '0', '.');
    else
      ranks.back() += fen[i];
  }
  Board b;
  b.height = int(ranks.size());
  b.width = int(ranks[0].size());
  for (int r = b.height - 1; r >= 0; --r)
    b.cells.insert(b.cells.end(), ranks[r].begin(), ranks[r].end());
  b.side = fen[i + 1] == 'w' ? 0 : 1;
  return b;
}

inline std::string to_fen(const Board& b) {
  std::string s;
  for (int rank = b.height - 1; rank >= 0; --rank) {
    for (int file = 0; file < b.width; ++file) {
      const char c = b.at(file, rank);
      if (c != '.')
        s += c;
      else if (!s.empty() && std::isdigit(s.back()))
        ++s.back();
      else
        s += '1';
    }
    if (rank > 0) s += '/';
  }
  return s + (b.side == 0 ? " w" : " b");
}

inline std::string square_text(int file, int rank) {
  return std::string{char('a' + file), char('1' + rank)};
}

// What each kind may take, straight from the rules' list.
inline bool beats(char mover, char victim) {
  const char m = char(std::toupper(mover)), v = char(std::toupper(victim));
  if (m == 'R') return v == 'S' || v == 'L';
  if (m == 'S') return v == 'L' || v == 'P';
  if (m == 'L') return v == 'P' || v == 'K';
  if (m == 'P') return v == 'K' || v == 'R';
  return true;  // Spock lands on anything
}

inline std::vector<std::string> legal_moves(const Board& b) {
  std::vector<std::string> moves;
  bool has_spock = false;
  for (char c : b.cells) has_spock |= b.ours(c) && std::toupper(c) == 'K';
  if (!has_spock) return moves;  // already lost
  static const int kLeaps[8][2] = {{1, 2},   {2, 1},   {2, -1}, {1, -2},
                                   {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}};
  static const int kLines[8][2] = {{0, 1}, {1, 0},  {0, -1}, {-1, 0},
                                   {1, 1}, {-1, 1}, {1, -1}, {-1, -1}};
  for (int rank = 0; rank < b.height; ++rank)
    for (int file = 0; file < b.width; ++file) {
      const char piece = b.at(file, rank);
      if (!b.ours(piece)) continue;
      const char kind = char(std::toupper(piece));
      auto add = [&](int f, int r) {
        moves.push_back(square_text(file, rank) + square_text(f, r));
      };
      if (kind == 'K') {
        for (auto& l : kLeaps)
          if (b.inside(file + l[0], rank + l[1]) && b.at(file + l[0], rank + l[1]) != '.')
            add(file + l[0], rank + l[1]);
        continue;
      }
      for (int d = 0; d < 8; ++d) {
        const bool diagonal = d >= 4;
        if ((kind == 'P' && diagonal) || (kind == 'S' && !diagonal)) continue;
        int f = file + kLines[d][0], r = rank + kLines[d][1];
        if (kind == 'R') {
          while (b.inside(f, r) && b.ours(b.at(f, r))) f += kLines[d][0], r += kLines[d][1];
          if (b.inside(f, r) && (b.at(f, r) == '.' || beats(piece, b.at(f, r)))) add(f, r);
          continue;
        }
        for (; b.inside(f, r); f += kLines[d][0], r += kLines[d][1]) {
          const char there = b.at(f, r);
          if (there == '.') add(f, r);
          if (b.theirs(there)) {
            if (beats(piece, there)) add(f, r);
            break;
          }
        }
      }
    }
  return moves;
}

inline Board play(Board b, const std::string& move) {
  const int from_file = move[0] - 'a', from_rank = move[1] - '1';
  const int to_file = move[2] - 'a', to_rank = move[3] - '1';
  const char mover = b.at(from_file, from_rank), victim = b.at(to_file, to_rank);
  b.at(to_file, to_rank) = mover;
  b.at(from_file, from_rank) = '.';
  if (std::toupper(mover) == 'K') {
    const std::string cycle = "RSLPKR";
    const char next = cycle[cycle.find(char(std::toupper(victim))) + 1];
    b.at(from_file, from_rank) = b.side == 0 ? next : char(std::tolower(next));
  }
  b.side ^= 1;
  return b;
}

// Perft by this engine alone, every leaf played (rules/common/reference_perft.h).
inline std::uint64_t perft(const Board& b, int depth) {
  return common::reference_perft(b, depth);
}

}  // namespace spock::reference
