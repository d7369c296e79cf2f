// A deliberately plain second implementation of the Royal Nardy rules, for the tests: the board
// as 24 (or 12..24) strings of checker letters in White's numbering, each side's direction of
// play written out, every single checker tried with every die in every order of the dice
// (brute force, copy-make), plays compared as the text of the positions they lead to. Its own
// FEN reading and writing and its own score. It shares nothing with the engine (rules/nardy/
// game.h), so tests use it to check the engine's plays, terminal test and points.
#pragma once

#include <algorithm>
#include <cctype>
#include <set>
#include <string>
#include <vector>

namespace nardy::reference {

struct Board {
  std::vector<std::string> cells;  // White's point i + 1; letters P R (White) p r (Black)
  int bar[2] = {0, 0}, off[2] = {0, 0}, eaten[2] = {0, 0};
  int side = 0;            // 0 White, 1 Black
  int die1 = 0, die2 = 0;  // 0: not rolled

  int size() const { return int(cells.size()); }
  static bool white(char c) { return std::isupper(static_cast<unsigned char>(c)); }
  static int owner(char c) { return white(c) ? 0 : 1; }
  int count(int i, int who) const {
    int n = 0;
    for (char c : cells[i]) n += owner(c) == who;
    return n;
  }
  // White's home is the first six cells, Black's the last six.
  bool in_home(int i, int who) const { return who == 0 ? i < 6 : i >= size() - 6; }
  int in_play(int who) const {
    int n = bar[who];
    for (int i = 0; i < size(); ++i) n += count(i, who);
    return n;
  }
};

// Trusts its input: a FEN the engine's parser accepted.
inline Board from_fen(const std::string& fen) {
  Board b;
  std::size_t i = 0;
  std::string cell;
  for (; fen[i] != ' '; ++i) {
    const char c = fen[i];
    if (c == '/') {
      b.cells.push_back(cell);
      cell.clear();
    } else if (c != '.') {
      int n = 1;
      if (std::isdigit(static_cast<unsigned char>(c))) {
        n = 0;
        while (std::isdigit(static_cast<unsigned char>(fen[i]))) n = n * 10 + (fen[i++] - '0');
      }
      cell.append(n, fen[i]);
    }
  }
  b.cells.push_back(cell);
  const auto read_pair = [&](int* out) {
    ++i;
    out[0] = std::stoi(fen.substr(i));
    i = fen.find('/', i) + 1;
    out[1] = std::stoi(fen.substr(i));
    i = fen.find(' ', i);
  };
  read_pair(b.bar);
  read_pair(b.off);
  read_pair(b.eaten);
  b.side = fen[i + 1] == 'w' ? 0 : 1;
  if (fen[i + 3] != '-') b.die1 = fen[i + 3] - '0', b.die2 = fen[i + 5] - '0';
  return b;
}

inline std::string to_fen(const Board& b) {
  std::string s;
  for (int i = 0; i < b.size(); ++i) {
    if (i) s += '/';
    const std::string& c = b.cells[i];
    if (c.empty()) {
      s += '.';
      continue;
    }
    const bool w = Board::white(c[0]);
    const char plain = w ? 'P' : 'p', royal = w ? 'R' : 'r';
    for (char letter : {plain, royal}) {
      const int n = int(std::count(c.begin(), c.end(), letter));
      if (n > 1) s += std::to_string(n);
      if (n > 0) s += letter;
    }
  }
  for (const int* pair : {b.bar, b.off, b.eaten})
    s.append(" ").append(std::to_string(pair[0])).append("/").append(std::to_string(pair[1]));
  s += b.side == 0 ? " w " : " b ";
  if (b.die1 == 0) return s + "-";
  return s + std::to_string(std::max(b.die1, b.die2)) + "-" +
         std::to_string(std::min(b.die1, b.die2));
}

// Moves one checker of the side to move with one die, if the rules allow: `from` is a cell, or
// -1 for the bar; `letter` the checker. Returns false (and leaves b alone) if not allowed.
inline bool step(Board& b, int from, char letter, int die) {
  const int who = b.side, n = b.size();
  const int dir = who == 0 ? -1 : +1;
  const bool royal = letter == 'R' || letter == 'r';
  int to;
  if (from < 0) {
    if (b.bar[who] == 0) return false;
    to = who == 0 ? n - die : die - 1;  // the opponent's home
  } else {
    if (b.bar[who] > 0) return false;  // enter first
    to = from + dir * die;
  }
  if (from >= 0 && (to < 0 || to >= n)) {  // bearing off (entering always lands on the board)
    for (int i = 0; i < n; ++i)
      if (b.count(i, who) > 0 && !b.in_home(i, who)) return false;
    const bool exact = who == 0 ? to == -1 : to == n;
    if (!exact)  // only the farthest checker, with a die larger than it needs
      for (int i = 0; i < n; ++i)
        if (b.count(i, who) > 0 && (who == 0 ? i > from : i < from)) return false;
    b.cells[from].erase(b.cells[from].find(letter), 1);
    ++b.off[who];
    return true;
  }
  const int theirs = b.count(to, 1 - who), mine = b.count(to, who);
  if (theirs >= 2) return false;
  if (royal && mine > 0) return false;
  if (theirs == 1) {
    const char victim = b.cells[to][0];
    if (victim == 'R' || victim == 'r')
      ++b.eaten[1 - who];
    else
      ++b.bar[1 - who];
    b.cells[to].clear();
  }
  if (from < 0)
    --b.bar[who];
  else
    b.cells[from].erase(b.cells[from].find(letter), 1);
  b.cells[to] += letter;
  return true;
}

struct Reached {
  std::string fen;
  int used;
  int first_die;
};

// Every order of the dice, every checker at each step, as far as each sequence goes.
inline void walk(const Board& b, const std::vector<int>& dice, int k, int first_die,
                 std::vector<Reached>& out) {
  bool any = false;
  if (k < int(dice.size())) {
    const int who = b.side;
    std::vector<std::pair<int, char>> tried;  // one checker of each kind on each cell suffices
    std::vector<std::pair<int, char>> checkers;
    if (b.bar[who] > 0) checkers.push_back({-1, who == 0 ? 'P' : 'p'});
    for (int i = 0; i < b.size(); ++i)
      for (char c : b.cells[i])
        if (Board::owner(c) == who) checkers.push_back({i, c});
    for (const auto& ch : checkers) {
      if (std::find(tried.begin(), tried.end(), ch) != tried.end()) continue;
      tried.push_back(ch);
      Board next = b;
      if (!step(next, ch.first, ch.second, dice[k])) continue;
      any = true;
      walk(next, dice, k + 1, k == 0 ? dice[0] : first_die, out);
    }
  }
  if (!any) {
    Board end = b;
    end.side = 1 - b.side;
    end.die1 = end.die2 = 0;
    out.push_back({to_fen(end), k, first_die});
  }
}

// Whether `who` could move one checker with this die.
inline bool has_step(Board b, int who, int die) {
  b.side = who;
  if (b.bar[who] > 0) return step(b, -1, who == 0 ? 'P' : 'p', die);
  for (int i = 0; i < b.size(); ++i)
    for (char c : std::string(b.cells[i]))
      if (Board::owner(c) == who) {
        Board t = b;
        if (step(t, i, c, die)) return true;
      }
  return false;
}

inline bool terminal(const Board& b) {
  if (b.in_play(0) == 0 || b.in_play(1) == 0) return true;
  for (int who = 0; who < 2; ++who)
    for (int die = 1; die <= 6; ++die)
      if (has_step(b, who, die)) return false;
  return true;  // nobody can ever move: locked
}

// The positions (as FEN) the legal plays lead to; empty at a terminal position.
inline std::set<std::string> play_results(const Board& b) {
  std::set<std::string> results;
  if (terminal(b)) return results;
  std::vector<std::vector<int>> orders;
  if (b.die1 == b.die2)
    orders = {{b.die1, b.die1, b.die1, b.die1}};
  else
    orders = {{b.die1, b.die2}, {b.die2, b.die1}};
  std::vector<Reached> all;
  for (const auto& dice : orders) walk(b, dice, 0, 0, all);
  int most = 0;
  for (const auto& r : all) most = std::max(most, r.used);
  const int high = std::max(b.die1, b.die2);
  bool high_possible = false;
  for (const auto& r : all) high_possible |= r.used == 1 && r.first_die == high;
  for (const auto& r : all) {
    if (r.used != most) continue;
    if (most == 1 && b.die1 != b.die2 && high_possible && r.first_die != high) continue;
    results.insert(r.fen);
  }
  return results;
}

// White's points at a terminal position (Black's are the opposite).
inline int white_score(const Board& b) {
  const int royals_w = 7 - b.eaten[0], royals_b = 7 - b.eaten[1];
  if (b.in_play(0) > 0 && b.in_play(1) > 0) return royals_w - royals_b;  // locked
  // The side that finished first: with both out of play, the one to move (eaten last).
  const int winner = b.in_play(0) == 0 && b.in_play(1) == 0 ? b.side : b.in_play(0) == 0 ? 0 : 1;
  const int loser = 1 - winner;
  const int sign = winner == 0 ? 1 : -1;
  const int rw = 7 - b.eaten[winner], rl = 7 - b.eaten[loser];
  if (rl > rw) return -sign * (rl - rw);
  int figure = 1;
  if (b.off[loser] == 0) {
    bool all_home = b.bar[loser] == 0, in_winners_home = false;
    for (int i = 0; i < b.size(); ++i)
      if (b.count(i, loser) > 0) {
        if (!b.in_home(i, loser)) all_home = false;
        if (b.in_home(i, winner)) in_winners_home = true;
      }
    figure = 2;
    if (all_home || in_winners_home) figure = 3;
    if (b.bar[loser] > 0) figure = 4;
  }
  return sign * figure * (rw > rl ? 2 * (rw - rl) : 1);
}

}  // namespace nardy::reference
