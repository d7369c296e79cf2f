// A deliberately plain second implementation of Dobutsu shogi's rules: a mailbox board of FEN
// letters, hands as counts by letter, moves as strings, copy-make, its own FEN reading and
// writing. It shares nothing with the engine (not even the Position), so tests use it as an
// independent check of move generation, make, FEN, perft and (through a plain fixed point over its
// own positions) of the solved values.
#pragma once

#include <cctype>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "rules/common/reference_perft.h"

namespace dobutsu::reference {

struct Board {
  char cells[4][3];             // [rank][file] from a1: '.', or a letter (Sente upper case)
  std::map<char, int> hand[2];  // by side (0 Sente), by upper-case letter
  int side = 0;                 // 0 Sente, 1 Gote

  static bool inside(int file, int rank) { return file >= 0 && file < 3 && rank >= 0 && rank < 4; }
  static int side_of(char c) { return std::isupper(static_cast<unsigned char>(c)) ? 0 : 1; }
};

// Trusts its input: a FEN the real parser accepted.
inline Board from_fen(const std::string& fen) {
  Board b;
  int rank = 3, file = 0;
  std::size_t i = 0;
  for (; fen[i] != '['; ++i) {
    const char c = fen[i];
    if (c == '/') {
      --rank;
      file = 0;
    } else if (std::isdigit(static_cast<unsigned char>(c))) {
      for (int k = 0; k < c - '0'; ++k) b.cells[rank][file++] = '.';
    } else {
      b.cells[rank][file++] = c;
    }
  }
  for (++i; fen[i] != ']'; ++i)
    ++b.hand[Board::side_of(fen[i])][char(std::toupper(static_cast<unsigned char>(fen[i])))];
  b.side = fen.back() == 'w' ? 0 : 1;
  return b;
}

inline std::string to_fen(const Board& b) {
  std::string s;
  for (int rank = 3; rank >= 0; --rank) {
    for (int file = 0; file < 3; ++file) {
      const char c = b.cells[rank][file];
      if (c != '.')
        s += c;
      else if (!s.empty() && std::isdigit(static_cast<unsigned char>(s.back())))
        ++s.back();
      else
        s += '1';
    }
    if (rank > 0) s += '/';
  }
  s += '[';
  for (int side = 0; side < 2; ++side)
    for (const char letter : {'C', 'E', 'G'}) {
      const auto it = b.hand[side].find(letter);
      const int n = it == b.hand[side].end() ? 0 : it->second;
      s.append(std::size_t(n), side == 0 ? letter : char(std::tolower(letter)));
    }
  return s + (b.side == 0 ? "] w" : "] b");
}

inline std::string square_text(int file, int rank) {
  return std::string{char('a' + file), char('1' + rank)};
}

// Where a piece (its letter) on (file, rank) steps to, on the board or not.
inline std::vector<std::pair<int, int>> steps(char piece, int file, int rank) {
  const int forward = Board::side_of(piece) == 0 ? 1 : -1;
  std::vector<std::pair<int, int>> dirs;  // (file, rank) offsets, forward as +1
  switch (std::toupper(static_cast<unsigned char>(piece))) {
    case 'L':
      dirs = {{-1, -1}, {-1, 0}, {-1, 1}, {0, -1}, {0, 1}, {1, -1}, {1, 0}, {1, 1}};
      break;
    case 'G':
      dirs = {{0, 1}, {0, -1}, {1, 0}, {-1, 0}};
      break;
    case 'E':
      dirs = {{1, 1}, {1, -1}, {-1, 1}, {-1, -1}};
      break;
    case 'C':
      dirs = {{0, 1}};
      break;
    case 'H':  // all but the two diagonals backward
      dirs = {{0, 1}, {1, 1}, {-1, 1}, {1, 0}, {-1, 0}, {0, -1}};
      break;
  }
  std::vector<std::pair<int, int>> out;
  for (const auto& [df, dr] : dirs) out.push_back({file + df, rank + dr * forward});
  return out;
}

inline bool can_take(const Board& b, int side, int file, int rank) {
  for (int r = 0; r < 4; ++r)
    for (int f = 0; f < 3; ++f) {
      const char c = b.cells[r][f];
      if (c == '.' || Board::side_of(c) != side) continue;
      for (const auto& [tf, tr] : steps(c, f, r))
        if (tf == file && tr == rank) return true;
    }
  return false;
}

inline std::vector<std::string> legal_moves(const Board& b) {
  std::vector<std::string> moves;
  const int us = b.side;
  const char own_lion = us == 0 ? 'L' : 'l', their_lion = us == 0 ? 'l' : 'L';
  int lf = -1, lr = -1;
  bool have_lion = false;
  for (int r = 0; r < 4; ++r)
    for (int f = 0; f < 3; ++f) {
      if (b.cells[r][f] == own_lion) have_lion = true;
      if (b.cells[r][f] == their_lion) lf = f, lr = r;
    }
  if (!have_lion) return moves;  // caught
  const bool catch_now = lf >= 0 && can_take(b, us, lf, lr);
  if (!catch_now && lf >= 0 && lr == (us == 0 ? 0 : 3)) return moves;  // their Lion's try
  for (int r = 0; r < 4; ++r)
    for (int f = 0; f < 3; ++f) {
      const char c = b.cells[r][f];
      if (c == '.' || Board::side_of(c) != us) continue;
      for (const auto& [tf, tr] : steps(c, f, r)) {
        if (!Board::inside(tf, tr)) continue;
        const char target = b.cells[tr][tf];
        if (target != '.' && Board::side_of(target) == us) continue;
        if (catch_now && target != their_lion) continue;
        moves.push_back(square_text(f, r) + square_text(tf, tr));
      }
    }
  if (catch_now) return moves;
  for (const auto& [letter, count] : b.hand[us]) {
    if (count == 0) continue;
    for (int r = 0; r < 4; ++r)
      for (int f = 0; f < 3; ++f)
        if (b.cells[r][f] == '.') moves.push_back(std::string{letter, '@'} + square_text(f, r));
  }
  return moves;
}

inline Board play(Board b, const std::string& move) {
  const int us = b.side;
  const int tf = move[2] - 'a', tr = move[3] - '1';
  if (move[1] == '@') {
    --b.hand[us][move[0]];
    b.cells[tr][tf] = us == 0 ? move[0] : char(std::tolower(static_cast<unsigned char>(move[0])));
  } else {
    const int ff = move[0] - 'a', fr = move[1] - '1';
    char piece = b.cells[fr][ff];
    const char taken = b.cells[tr][tf];
    if (taken != '.') {
      char kind = char(std::toupper(static_cast<unsigned char>(taken)));
      if (kind == 'H') kind = 'C';
      if (kind != 'L') ++b.hand[us][kind];
    }
    if ((piece == 'C' && tr == 3) || (piece == 'c' && tr == 0)) piece = us == 0 ? 'H' : 'h';
    b.cells[fr][ff] = '.';
    b.cells[tr][tf] = piece;
  }
  b.side = 1 - us;
  return b;
}

// Perft by this engine alone, every leaf played (rules/common/reference_perft.h).
inline std::uint64_t perft(const Board& b, int depth) {
  return common::reference_perft(b, depth);
}

}  // namespace dobutsu::reference
