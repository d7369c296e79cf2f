#include "rules/rookrace/notation.h"

#include <bit>
#include <cctype>
#include <sstream>
#include <vector>

#include "rules/common/text.h"

namespace rookrace {

namespace {

using common::quoted;
using common::split;

[[noreturn]] void fen_error(const std::string& what) {
  throw ParseError("FEN: " + what);
}

// "[a,b]" as its two parts.
std::pair<std::string_view, std::string_view> pair_field(std::string_view text, const char* what,
                                                         const char* example) {
  const auto comma = text.find(',');
  if (text.size() < 5 || text.front() != '[' || text.back() != ']' ||
      comma == std::string_view::npos)
    fen_error(std::string(what) + " are '" + std::string(text) + "', expected [White,Black] like " +
              example);
  return {text.substr(1, comma - 1), text.substr(comma + 1, text.size() - comma - 2)};
}

int parse_reserve(std::string_view text, Color c, int most) {
  const std::string where = std::string(color_name(c)) + "'s reserve '" + std::string(text) + "'";
  const auto n = common::whole_number(text, most);
  if (!n) fen_error(where + " is not a number of pawns (0 to " + std::to_string(most) + ")");
  if (*n > most)
    fen_error(where + " is more than the variant's " + std::to_string(most) + " pawns a side");
  return *n;
}

std::uint8_t parse_counter(std::string_view text, Color c) {
  if (text == "-") return 0;
  if (text == "1" || text == "2") return std::uint8_t(text[0] - '0');
  fen_error(std::string(color_name(c)) + "'s block counter is '" + std::string(text) +
            "', expected '-', '1' or '2'");
}

}  // namespace

Position parse_fen(const Game& game, std::string_view fen) {
  const auto fields = split(
      fen, [](char ch) { return std::isspace(static_cast<unsigned char>(ch)); }, false);
  if (fields.empty()) fen_error("empty");
  if (fields.size() < 4)
    fen_error("expected 4 fields (board, [reserves], [block counters], side to move), got " +
              std::to_string(fields.size()));
  if (fields.size() > 4)
    fen_error("unexpected '" + std::string(fields[4]) + "' after the side to move");
  const int n = game.size();

  const auto ranks = split(
      fields[0], [](char ch) { return ch == '/'; }, true);
  if (int(ranks.size()) != n)
    fen_error(std::to_string(ranks.size()) + " ranks; " + game.variant().name() + " has " +
              std::to_string(n));
  Position p;
  int rooks[2] = {0, 0};
  for (int i = 0; i < n; ++i) {
    const int rank = n - 1 - i;
    const std::string where = "rank " + std::to_string(rank + 1);
    int file = 0;
    bool last_was_digit = false;
    for (char ch : ranks[i]) {
      if (ch >= '1' && ch <= '8') {
        if (last_was_digit) fen_error(where + " has two digits in a row");
        file += ch - '0';
        last_was_digit = true;
        continue;
      }
      last_was_digit = false;
      const char upper = char(std::toupper(static_cast<unsigned char>(ch)));
      if (upper != 'R' && upper != 'P')
        fen_error("unexpected " + quoted(ch) + " in " + where +
                  " (R and P for White's rook and pawns, r and p for Black's; digits 1-8 count "
                  "empty squares)");
      if (file >= n) {  // reported below as too many squares
        file = n + 1;
        break;
      }
      const Color c = std::isupper(static_cast<unsigned char>(ch)) ? kWhite : kBlack;
      const int sq = game.square(file, rank);
      if (upper == 'R') {
        ++rooks[c];
        p.rook[c] = std::uint8_t(sq);
      } else {
        if (p.pawns[c] & game.block_of(sq))
          fen_error(square_name(game, sq) + ": a second " + color_name(c) +
                    " pawn in its block (a block holds at most one pawn of each colour)");
        if (sq == game.start_corner(c))
          fen_error(square_name(game, sq) + ": a " + color_name(c) +
                    " pawn on its own starting corner, where it may never be dropped");
        p.pawns[c] |= Bitboard{1} << sq;
      }
      ++file;
    }
    if (file != n)
      fen_error(where + " has " +
                (file > n ? "more than " + std::to_string(n) : std::to_string(file)) +
                " squares; " + game.variant().name() + " has " + std::to_string(n) + " files");
  }
  for (Color c : {kWhite, kBlack})
    if (rooks[c] != 1)
      fen_error(std::to_string(rooks[c]) + " " + color_name(c) + " rooks; each side has one");

  const auto [white_reserve, black_reserve] = pair_field(fields[1], "the reserves", "[8,8]");
  const int most = game.variant().pawns;
  p.reserve = {std::uint8_t(parse_reserve(white_reserve, kWhite, most)),
               std::uint8_t(parse_reserve(black_reserve, kBlack, most))};
  for (Color c : {kWhite, kBlack})
    if (std::popcount(p.pawns[c]) + p.reserve[c] > most)
      fen_error(std::string(color_name(c)) + " has " + std::to_string(std::popcount(p.pawns[c])) +
                " pawns on the board and " + std::to_string(p.reserve[c]) +
                " in reserve, more than the variant's " + std::to_string(most));
  const auto [white_counter, black_counter] =
      pair_field(fields[2], "the block counters", "[-,-] or [2,-]");
  p.inside = {parse_counter(white_counter, kWhite), parse_counter(black_counter, kBlack)};

  if (fields[3] == "w")
    p.side_to_move = kWhite;
  else if (fields[3] == "b")
    p.side_to_move = kBlack;
  else
    fen_error("side to move is '" + std::string(fields[3]) +
              "', expected 'w' (White) or 'b' (Black)");
  const Color mover = p.side_to_move;
  if (p.rook[mover] == game.goal(mover))
    fen_error(std::string(color_name(mover)) + "'s rook is on its goal " +
              square_name(game, game.goal(mover)) + ": it won on its own move, so " +
              color_name(mover) + " cannot be to move");
  return p;
}

std::string to_fen(const Game& game, const Position& p) {
  std::string s;
  for (int rank = game.size() - 1; rank >= 0; --rank) {
    int empty = 0;
    for (int file = 0; file < game.size(); ++file) {
      const int sq = game.square(file, rank);
      const Bitboard bit = Bitboard{1} << sq;
      char letter = 0;
      if (sq == p.rook[kWhite]) letter = 'R';
      if (sq == p.rook[kBlack]) letter = 'r';
      if (p.pawns[kWhite] & bit) letter = 'P';
      if (p.pawns[kBlack] & bit) letter = 'p';
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
  const auto counter = [&](Color c) { return p.inside[c] ? std::to_string(p.inside[c]) : "-"; };
  s += " [" + std::to_string(p.reserve[kWhite]) + "," + std::to_string(p.reserve[kBlack]) + "]";
  s += " [" + counter(kWhite) + "," + counter(kBlack) + "]";
  s += p.side_to_move == kWhite ? " w" : " b";
  return s;
}

std::string square_name(const Game& game, int sq) {
  return std::string{char('a' + game.file_of(sq)), char('1' + game.rank_of(sq))};
}

std::string move_name(const Game& game, Move m) {
  if (m.is_drop()) return "P@" + square_name(game, m.to());
  return square_name(game, m.from()) + square_name(game, m.to());
}

namespace {

[[noreturn]] void move_error(std::string_view text, const std::string& what) {
  common::refuse("move", text, what);
}

int parse_square(const Game& game, std::string_view text, std::string_view whole) {
  const int file = text[0] - 'a', rank = text[1] - '1';
  if (file < 0 || file >= game.size() || rank < 0 || rank >= game.size()) {
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
  if (text.size() == 4 && text[0] == 'P' && text[1] == '@') {
    wanted = Move::drop(parse_square(game, text.substr(2), text));
  } else if (text.size() == 4 && text[1] == '@') {
    move_error(text, "a drop is written P@ and a square, for either side (like P@c3)");
  } else if (text.size() == 4) {
    wanted = Move::rook(parse_square(game, text.substr(0, 2), text),
                        parse_square(game, text.substr(2), text));
  } else {
    move_error(text, "expected a rook move like a1a5 or a drop like P@c3");
  }
  MoveList legal;
  game.generate(p, legal);
  for (Move m : legal)
    if (m == wanted) return m;
  move_error(text, legal.empty() ? "the game is over, " + std::string(color_name(p.side_to_move)) +
                                       " has lost"
                                 : "not a legal move in this position");
}

std::string board_diagram(const Game& game, const Position& p) {
  std::ostringstream out;
  for (int rank = game.size() - 1; rank >= 0; --rank) {
    out << rank + 1 << ' ';
    for (int file = 0; file < game.size(); ++file) {
      const int sq = game.square(file, rank);
      const Bitboard bit = Bitboard{1} << sq;
      char c = '.';
      if (sq == p.rook[kWhite]) c = 'R';
      if (sq == p.rook[kBlack]) c = 'r';
      if (p.pawns[kWhite] & bit) c = 'P';
      if (p.pawns[kBlack] & bit) c = 'p';
      out << ' ' << c;
    }
    out << '\n';
  }
  out << "  ";
  for (int file = 0; file < game.size(); ++file) out << ' ' << char('a' + file);
  out << "\nreserves: White " << int(p.reserve[kWhite]) << ", Black " << int(p.reserve[kBlack])
      << "; rook moves in a row inside the block: White " << int(p.inside[kWhite]) << ", Black "
      << int(p.inside[kBlack]) << "\n"
      << color_name(p.side_to_move) << " to move\n";
  return out.str();
}

}  // namespace rookrace
