#include "rules/nevsky/notation.h"

#include <algorithm>
#include <cctype>
#include <optional>
#include <sstream>
#include <vector>

#include "rules/common/text.h"

namespace nevsky {

namespace {

using common::quoted;
using common::split;

[[noreturn]] void fen_error(const std::string& what) {
  throw ParseError("position: " + what);
}

// The player a man letter (w r g b) names, or -1.
int player_of_letter(char ch) {
  for (Player q : kAllPlayers)
    if (man_letter(q) == ch) return q;
  return -1;
}

std::string piece_text(Piece piece) {
  return std::string(player_name(piece.player)) + (piece.king ? "'s king" : "'s man");
}

}  // namespace

std::string cell_name(const Game& game, int cell) {
  const Geometry& g = game.geometry();
  return std::string{char('1' + g.column_of(cell)), char('1' + g.row_of(cell))};
}

Position parse_fen(const Game& game, std::string_view fen) {
  const auto fields = split(
      fen, [](char ch) { return std::isspace(static_cast<unsigned char>(ch)); }, false);
  if (fields.empty())
    fen_error("empty; expected rows and the player to move, like " + to_fen(game, game.start()));
  if (fields.size() != 2)
    fen_error("expected 2 fields (the rows, the player to move), got " +
              std::to_string(fields.size()));
  const Geometry& g = game.geometry();
  const int n = g.size();
  const std::string grid = std::to_string(n) + "x" + std::to_string(n);
  const auto rows = split(
      fields[0], [](char ch) { return ch == '/'; }, true);
  if (int(rows.size()) != n)
    fen_error(std::to_string(rows.size()) + " rows; " + game.variant().name() + " is " + grid +
              " (rows separated by '/')");
  Position p;
  for (int i = 0; i < n; ++i) {
    const int row = n - 1 - i;
    const std::string where = "row " + std::to_string(row + 1);
    int column = 0;
    bool last_was_digit = false;
    for (char ch : rows[i]) {
      if (ch >= '1' && ch <= '8') {
        if (last_was_digit) fen_error(where + " has two digits in a row");
        column += ch - '0';
        last_was_digit = true;
        continue;
      }
      last_was_digit = false;
      const int owner = player_of_letter(char(std::tolower(static_cast<unsigned char>(ch))));
      if (owner < 0)
        fen_error("unexpected " + quoted(ch) + " in " + where +
                  " (w r g b for White's, Red's, Green's and Black's men, W R G B for their "
                  "kings, digits 1-8 for empty cells)");
      if (column < n) p.put(g.cell(column, row), Piece{Player(owner), bool(std::isupper(ch))});
      ++column;
    }
    if (column != n)
      fen_error(where + " has " + std::to_string(column) + " cells; " + game.variant().name() +
                " is " + grid);
  }
  if (fields[1].size() != 1 || player_of_letter(fields[1][0]) < 0)
    fen_error("the player to move is '" + std::string(fields[1]) +
              "', expected w, r, g or b (White, Red, Green, Black)");
  if (!p.occupied()) fen_error("no checker on the board");
  for (Player q : kAllPlayers) {
    if (const int count = popcount(p.checkers(q)); count > game.variant().men)
      fen_error(std::string(player_name(q)) + " has " + std::to_string(count) + " checkers; " +
                game.variant().name() + " gives each player " + std::to_string(game.variant().men));
    if (p.men[q] & cell_bit(g.goal(q)))
      fen_error(std::string("a ") + player_name(q) + " man on its goal corner " +
                cell_name(game, g.goal(q)) +
                ": a man that ends its move there is crowned (write a king, " + king_letter(q) +
                ")");
  }
  game.give_turn(p, Player(player_of_letter(fields[1][0])));
  return p;
}

std::string to_fen(const Game& game, const Position& p) {
  const Geometry& g = game.geometry();
  std::string s;
  for (int row = g.size() - 1; row >= 0; --row) {
    int empty = 0;
    for (int column = 0; column < g.size(); ++column) {
      const auto piece = p.piece_on(g.cell(column, row));
      if (!piece) {
        ++empty;
        continue;
      }
      if (empty) s += char('0' + empty), empty = 0;
      s += piece->king ? king_letter(piece->player) : man_letter(piece->player);
    }
    if (empty) s += char('0' + empty);
    if (row) s += '/';
  }
  return s + ' ' + man_letter(p.to_move);
}

namespace {

// A landing of a capture: where the piece lands and the checker it jumps.
struct Jump {
  int landing, victim;
};

// Every capture a piece on `at` can make next, given the cells free for it (`empty`) and the
// checkers it may still take (`prey`): a man jumps a neighbour, a king flies over one checker.
std::vector<Jump> jumps_from(const Game& game, bool king, int at, Bitboard prey, Bitboard empty) {
  const Geometry& g = game.geometry();
  std::vector<Jump> out;
  for (int d = 0; d < kDirections; ++d) {
    if (!king) {
      if ((g.step(at, d) & prey) && (g.jump(at, d) & empty))
        out.push_back({lsb(g.jump(at, d)), lsb(g.step(at, d))});
      continue;
    }
    const Bitboard hit = g.ray(at, d) & ~empty;
    if (!hit) continue;
    const int victim = Geometry::nearest(hit, d);
    if (!(cell_bit(victim) & prey)) continue;
    for (Bitboard land = game.slide(victim, d, ~empty); land;)
      out.push_back({pop_lsb(land), victim});
  }
  return out;
}

// Appends the least route (as text) that takes exactly `captured` and ends on `to`.
bool least_route(const Game& game, bool king, int at, int to, Bitboard captured, Bitboard empty,
                 std::vector<int>& route) {
  if (!captured) return at == to;
  auto next = jumps_from(game, king, at, captured, empty);
  const Geometry& g = game.geometry();
  const auto text_order = [&](const Jump& a, const Jump& b) {
    return std::pair(g.column_of(a.landing), g.row_of(a.landing)) <
           std::pair(g.column_of(b.landing), g.row_of(b.landing));
  };
  std::sort(next.begin(), next.end(), text_order);
  for (const Jump& j : next) {
    route.push_back(j.landing);
    const Bitboard victim = cell_bit(j.victim);
    if (least_route(game, king, j.landing, to, captured ^ victim, empty | victim, route))
      return true;
    route.pop_back();
  }
  return false;
}

[[noreturn]] void move_error(std::string_view text, const std::string& what) {
  common::refuse("move", text, what);
}

// A cell from its two-digit name, or a ParseError naming it.
int parse_cell(const Game& game, std::string_view name, std::string_view whole) {
  const int n = game.size();
  if (name.size() != 2 || name[0] < '1' || name[0] > '0' + n || name[1] < '1' || name[1] > '0' + n)
    move_error(whole, "'" + std::string(name) + "' is not a cell of the " + std::to_string(n) +
                          "x" + std::to_string(n) +
                          " grid (a cell is its column and row, each 1 to " + std::to_string(n) +
                          ", like 25)");
  return game.geometry().cell(name[0] - '1', name[1] - '1');
}

}  // namespace

std::string move_name(const Game& game, const Position& p, Move m) {
  if (!m.is_capture()) return cell_name(game, m.from()) + "-" + cell_name(game, m.to());
  const bool king = p.kings[p.to_move] & cell_bit(m.from());
  const Bitboard empty = (game.geometry().board_mask() & ~p.occupied()) | cell_bit(m.from());
  std::vector<int> route;
  least_route(game, king, m.from(), m.to(), m.captured(), empty, route);
  std::string s = cell_name(game, m.from());
  for (int cell : route) s.append(":").append(cell_name(game, cell));
  return s;
}

Move parse_move(const Game& game, const Position& p, std::string_view text) {
  const Geometry& g = game.geometry();
  const bool step = text.find('-') != std::string_view::npos;
  const auto names = split(
      text, [step](char ch) { return ch == (step ? '-' : ':'); }, true);
  if (names.size() < 2 || (step && names.size() != 2))
    move_error(text,
               "expected a step like 25-35 or a capture like 25:45:65 (the start cell, then "
               "each cell the piece lands on)");
  std::vector<int> cells;
  for (std::string_view name : names) cells.push_back(parse_cell(game, name, text));
  if (game.is_terminal(p)) move_error(text, "the game is over");
  const Player us = p.to_move;
  const int from = cells[0];
  const auto piece = p.piece_on(from);
  if (!piece || piece->player != us)
    move_error(text, cell_name(game, from) + " holds " +
                         (piece ? piece_text(*piece) : std::string("no checker")) + "; " +
                         player_name(us) + " is to move");
  MoveList legal;
  game.generate(p, legal);
  const auto find = [&](Move wanted) -> std::optional<Move> {
    for (Move m : legal)
      if (m == wanted) return m;
    return std::nullopt;
  };
  if (step) {
    if (const auto m = find(Move::step(from, cells[1]))) return *m;
    if (!legal.empty() && legal[0].is_capture())
      move_error(text, "capturing is compulsory here, like " + move_name(game, p, legal[0]));
    move_error(text, std::string("not a legal step: ") +
                         (piece->king ? "a king slides along a row or column over empty cells"
                                      : "a man steps onto the empty cell next to it in one of its "
                                        "two forward directions"));
  }
  // Walk the route: each landing is along a row or column, over exactly one checker to take.
  const Bitboard prey = game.prey(p, us);
  Bitboard occupied = p.occupied() & ~cell_bit(from), captured = 0;
  for (std::size_t i = 1; i < cells.size(); ++i) {
    const int a = cells[i - 1], b = cells[i];
    const std::string leg = cell_name(game, a) + " to " + cell_name(game, b);
    int d = 0;
    while (d < kDirections && !(g.ray(a, d) & cell_bit(b))) ++d;
    if (d == kDirections) move_error(text, leg + " is not along a row or column");
    const Bitboard between = g.ray(a, d) & ~g.ray(b, d) & ~cell_bit(b) & occupied;
    if (popcount(between) != 1)
      move_error(text,
                 leg + (between ? " passes over more than one checker" : " jumps over no checker"));
    if (!(between & prey))
      move_error(text, leg + " jumps " + piece_text(*p.piece_on(lsb(between))) + ", which " +
                           player_name(us) + " may not capture");
    if (!piece->king && !(g.jump(a, d) & cell_bit(b)))
      move_error(text, leg + ": a man jumps the checker next to it onto the cell right behind");
    if (occupied & cell_bit(b)) move_error(text, leg + " lands on an occupied cell");
    captured |= between;
    occupied &= ~between;
  }
  if (const auto m = find(Move::capture(from, cells.back(), captured))) return *m;
  const Bitboard empty = g.board_mask() & ~occupied;
  if (!jumps_from(game, piece->king, cells.back(), prey & occupied, empty).empty())
    move_error(text, "the capture must go on: the piece can capture again from " +
                         cell_name(game, cells.back()));
  if (piece->king)
    for (Move m : legal)
      if (m.from() == from && popcount(m.captured()) > popcount(captured))
        move_error(text, "a king must take the most checkers it can: this one can take " +
                             std::to_string(popcount(m.captured())) + ", like " +
                             move_name(game, p, m));
  move_error(text, "not a legal move here");
}

std::string board_diagram(const Game& game, const Position& p) {
  const Geometry& g = game.geometry();
  std::ostringstream out;
  for (int row = g.size() - 1; row >= 0; --row) {
    out << row + 1 << ' ';
    for (int column = 0; column < g.size(); ++column) {
      const auto piece = p.piece_on(g.cell(column, row));
      out << ' '
          << (!piece        ? '.'
              : piece->king ? king_letter(piece->player)
                            : man_letter(piece->player));
    }
    out << '\n';
  }
  out << "  ";
  for (int column = 0; column < g.size(); ++column) out << ' ' << column + 1;
  out << '\n';
  if (game.variant().pairs) out << "pair play: White and Green against Red and Black\n";
  const PlayerSet left = p.players_left();
  std::string out_players;
  for (Player q : kAllPlayers)
    if (!(left & player_bit(q)))
      out_players += (out_players.empty() ? "" : ", ") + std::string(player_name(q));
  if (!out_players.empty()) out << "out: " << out_players << '\n';
  if (game.is_terminal(p))
    out << "game over: " << winners_text(game, p) << '\n';
  else
    out << player_name(p.to_move) << " to move\n";
  return out.str();
}

std::string winners_text(const Game& game, const Position& p) {
  if (game.variant().pairs) {
    const Player winner = (p.players_left() & kWhiteGreen) ? kWhite : kRed;
    return std::string(player_name(winner)) + " and " + player_name(partner(winner)) + " win";
  }
  return std::string(player_name(p.to_move)) + " wins";
}

}  // namespace nevsky
