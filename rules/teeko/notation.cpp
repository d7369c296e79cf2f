#include "rules/teeko/notation.h"

#include <bit>
#include <cctype>
#include <sstream>
#include <vector>

#include "rules/common/text.h"

namespace teeko {

namespace {

using common::quoted;
using common::split;

[[noreturn]] void fen_error(const std::string& what) {
  throw ParseError("FEN: " + what);
}

constexpr char kLetter[2] = {'X', 'O'};  // by Color
constexpr char kSideLetter[2] = {'x', 'o'};

}  // namespace

Position parse_fen(const Game& game, std::string_view fen) {
  const auto fields = common::words(fen);
  if (fields.empty()) fen_error("empty");
  if (fields.size() < 2)
    fen_error("expected 2 fields (board, side to move), got " + std::to_string(fields.size()));
  if (fields.size() > 2)
    fen_error("unexpected '" + std::string(fields[2]) + "' after the side to move");
  const int n = game.size();
  const auto ranks = split(
      fields[0], [](char ch) { return ch == '/'; }, true);
  if (int(ranks.size()) != n)
    fen_error(std::to_string(ranks.size()) + " ranks; " + game.variant().name() + " has " +
              std::to_string(n));
  Position p;
  for (int i = 0; i < n; ++i) {
    const int rank = n - 1 - i;
    const std::string where = "rank " + std::to_string(rank + 1);
    int file = 0;
    bool last_was_digit = false;
    for (char ch : ranks[i]) {
      if (ch >= '1' && ch <= '9') {
        if (last_was_digit) fen_error(where + " has two digits in a row");
        file += ch - '0';
        last_was_digit = true;
        continue;
      }
      last_was_digit = false;
      if (ch != 'X' && ch != 'O')
        fen_error("unexpected " + quoted(ch) + " in " + where +
                  " (X for Black's pieces, O for Red's; digits count empty squares)");
      if (file >= n) {  // reported below as too many squares
        file = n + 1;
        break;
      }
      p.pieces[ch == 'X' ? kBlack : kRed] |= Bitboard{1} << game.square(file, rank);
      ++file;
    }
    if (file != n)
      fen_error(where + " has " +
                (file > n ? "more than " + std::to_string(n) : std::to_string(file)) +
                " squares; " + game.variant().name() + " has " + std::to_string(n) + " files");
  }
  if (fields[1] == "x")
    p.side_to_move = kBlack;
  else if (fields[1] == "o")
    p.side_to_move = kRed;
  else
    fen_error("side to move is '" + std::string(fields[1]) +
              "', expected 'x' (Black) or 'o' (Red)");

  const int black = std::popcount(p.pieces[kBlack]), red = std::popcount(p.pieces[kRed]);
  for (const Color c : {kBlack, kRed})
    if (std::popcount(p.pieces[c]) > kPiecesPerSide)
      fen_error(std::string(color_name(c)) + " has " + std::to_string(std::popcount(p.pieces[c])) +
                " pieces; each side has " + std::to_string(kPiecesPerSide));
  if (p.dropping()) {
    const bool turns = p.side_to_move == kBlack ? black == red : black == red + 1;
    if (!turns)
      fen_error(std::to_string(black) + " Black and " + std::to_string(red) + " Red pieces with " +
                color_name(p.side_to_move) +
                " to move: while pieces are dropped, Black is to move with as many pieces as Red "
                "and Red with one fewer than Black");
  }
  const Color mover = p.side_to_move;
  if (game.is_pattern(p.pieces[mover]))
    fen_error(std::string(color_name(mover)) + " stands in a pattern: it won on its own move, so " +
              color_name(mover) + " cannot be to move");
  return p;
}

std::string to_fen(const Game& game, const Position& p) {
  std::string s;
  for (int rank = game.size() - 1; rank >= 0; --rank) {
    int empty = 0;
    for (int file = 0; file < game.size(); ++file) {
      const Bitboard bit = Bitboard{1} << game.square(file, rank);
      char letter = 0;
      if (p.pieces[kBlack] & bit) letter = kLetter[kBlack];
      if (p.pieces[kRed] & bit) letter = kLetter[kRed];
      if (!letter) {
        ++empty;
        continue;
      }
      if (empty) s += char('0' + empty), empty = 0;
      s += letter;
    }
    if (empty) s += char('0' + empty);
    if (rank) s += '/';
  }
  s += ' ';
  s += kSideLetter[p.side_to_move];
  return s;
}

std::string square_name(const Game& game, int sq) {
  return std::string{char('a' + game.file_of(sq)), char('1' + game.rank_of(sq))};
}

std::string move_name(const Game& game, Move m) {
  if (m.is_drop()) return square_name(game, m.to());
  return square_name(game, m.from()) + square_name(game, m.to());
}

namespace {

[[noreturn]] void move_error(std::string_view text, const std::string& what) {
  common::refuse("move", text, what);
}

int parse_square(const Game& game, std::string_view text, std::string_view whole) {
  const int file = text[0] - 'a', rank = text[1] - '1';
  if (file < 0 || file >= game.size() || rank < 0 || rank >= game.size()) {
    // Appended piece by piece: GCC 12 warns (-Wrestrict, wrongly) on "'" + std::string(text).
    std::string what = "'";
    what += text;
    what += "' is not a square of this " + std::to_string(game.size()) + "x" +
            std::to_string(game.size()) + " board";
    move_error(whole, what);
  }
  return game.square(file, rank);
}

}  // namespace

Move parse_move(const Game& game, const Position& p, std::string_view text) {
  Move wanted;
  if (text.size() == 2)
    wanted = Move::drop(parse_square(game, text, text));
  else if (text.size() == 4)
    wanted = Move::step(parse_square(game, text.substr(0, 2), text),
                        parse_square(game, text.substr(2), text));
  else
    move_error(text, "expected a drop like c3 or a step like c3d4");
  MoveList legal;
  game.generate(p, legal);
  for (Move m : legal)
    if (m == wanted) return m;
  if (legal.empty())
    move_error(text, "the game is over, " + std::string(color_name(p.side_to_move)) + " has lost");
  if (p.dropping() != wanted.is_drop())
    move_error(text, p.dropping() ? "pieces are still being dropped (a move is a square, like c3)"
                                  : "all pieces stand: a move is a step, like c3d4");
  move_error(text, "not a legal move in this position");
}

std::string board_diagram(const Game& game, const Position& p) {
  std::ostringstream out;
  for (int rank = game.size() - 1; rank >= 0; --rank) {
    out << rank + 1 << ' ';
    for (int file = 0; file < game.size(); ++file) {
      const Bitboard bit = Bitboard{1} << game.square(file, rank);
      char c = '.';
      if (p.pieces[kBlack] & bit) c = kLetter[kBlack];
      if (p.pieces[kRed] & bit) c = kLetter[kRed];
      out << ' ' << c;
    }
    out << '\n';
  }
  out << "  ";
  for (int file = 0; file < game.size(); ++file) out << ' ' << char('a' + file);
  out << "\nin hand: Black (X) " << kPiecesPerSide - std::popcount(p.pieces[kBlack]) << ", Red (O) "
      << kPiecesPerSide - std::popcount(p.pieces[kRed]) << "\n"
      << color_name(p.side_to_move) << " to move\n";
  return out.str();
}

}  // namespace teeko
