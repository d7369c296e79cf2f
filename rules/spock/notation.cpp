#include "rules/spock/notation.h"

#include <cctype>
#include <optional>
#include <sstream>
#include <vector>

#include "rules/common/text.h"

namespace spock {

namespace {

using common::quoted;
using common::split;

[[noreturn]] void fen_error(const std::string& what) {
  throw ParseError("FEN: " + what);
}

using Rank = std::vector<std::optional<Piece>>;

// One rank's squares, from file a; `number` is the rank's name in messages.
Rank parse_rank(std::string_view text, int number) {
  const std::string where = "rank " + std::to_string(number);
  Rank rank;
  bool last_was_digit = false;
  for (char ch : text) {
    if (ch >= '1' && ch <= '8') {
      if (last_was_digit) fen_error(where + " has two digits in a row");
      rank.insert(rank.end(), ch - '0', std::nullopt);
      last_was_digit = true;
    } else if (const auto t =
                   piece_type_from_upper(char(std::toupper(static_cast<unsigned char>(ch))))) {
      rank.push_back(Piece{*t, std::isupper(static_cast<unsigned char>(ch)) ? kBlue : kRed});
      last_was_digit = false;
    } else {
      fen_error("unexpected " + quoted(ch) + " in " + where +
                " (pieces are R S L P K, lower case for Red; digits 1-8 count empty squares)");
    }
    if (rank.size() > 8) fen_error(where + " has more than 8 squares");
  }
  if (rank.size() < 3)
    fen_error(where + " has " + std::to_string(rank.size()) + " squares; boards have 3 to 8 files");
  return rank;
}

}  // namespace

Setup parse_fen(std::string_view fen) {
  const auto fields = split(
      fen, [](char ch) { return std::isspace(static_cast<unsigned char>(ch)); }, false);
  if (fields.empty()) fen_error("empty");
  if (fields.size() < 2) fen_error("missing side to move ('w' for Blue or 'b' for Red)");
  if (fields.size() > 2)
    fen_error("unexpected '" + std::string(fields[2]) + "' after the side to move");

  const auto rank_texts = split(
      fields[0], [](char ch) { return ch == '/'; }, true);
  const int height = int(rank_texts.size());
  if (height < 3 || height > 8)
    fen_error(std::to_string(height) + " ranks; boards have 3 to 8 ranks");
  std::vector<Rank> ranks;  // from the top
  for (int i = 0; i < height; ++i) {
    ranks.push_back(parse_rank(rank_texts[i], height - i));
    if (ranks[i].size() != ranks[0].size())
      fen_error("rank " + std::to_string(height - i) + " has " + std::to_string(ranks[i].size()) +
                " squares, rank " + std::to_string(height) + " has " +
                std::to_string(ranks[0].size()));
  }
  Setup s{Game(int(ranks[0].size()), height), Position{}};
  for (int i = 0; i < height; ++i)
    for (int file = 0; file < s.game.width(); ++file)
      if (const auto piece = ranks[i][file])
        s.position.put(s.game.geometry().square(file, height - 1 - i), *piece);

  if (fields[1] == "w")
    s.position.side_to_move = kBlue;
  else if (fields[1] == "b")
    s.position.side_to_move = kRed;
  else
    fen_error("side to move is '" + std::string(fields[1]) + "', expected 'w' (Blue) or 'b' (Red)");

  const Color waiting = opposite(s.position.side_to_move);
  if (!s.position.pieces(waiting, kSpock))
    fen_error(std::string(color_name(waiting)) + " has no Spock, so it lost on the move before: " +
              color_name(s.position.side_to_move) + " cannot be to move");
  return s;
}

std::string to_fen(const Game& game, const Position& p) {
  std::string s;
  for (int rank = game.height() - 1; rank >= 0; --rank) {
    int empty = 0;
    for (int file = 0; file < game.width(); ++file) {
      const auto piece = p.piece_on(game.geometry().square(file, rank));
      if (!piece) {
        ++empty;
        continue;
      }
      if (empty) s += char('0' + empty), empty = 0;
      s += piece_letter(piece->type, piece->color);
    }
    if (empty) s += char('0' + empty);
    if (rank) s += '/';
  }
  s += p.side_to_move == kBlue ? " w" : " b";
  return s;
}

std::string start_fen() {
  return "psksp/rrrrr/5/RRRRR/PSKSP w";
}

std::string square_name(const Game& game, int sq) {
  const Geometry& g = game.geometry();
  return std::string{char('a' + g.file_of(sq)), char('1' + g.rank_of(sq))};
}

std::string move_name(const Game& game, Move m) {
  return square_name(game, m.from()) + square_name(game, m.to());
}

namespace {

[[noreturn]] void move_error(std::string_view text, const std::string& what) {
  throw ParseError("move '" + std::string(text) + "': " + what);
}

int parse_square(const Game& game, std::string_view text, std::string_view whole) {
  const int file = text[0] - 'a', rank = text[1] - '1';
  if (file < 0 || file >= game.width() || rank < 0 || rank >= game.height()) {
    // Built by appending: GCC 12 warns falsely (-Wrestrict) on "'" + std::string(text).
    std::string what = "'";
    what += text;
    what += "' is not a square of this " + std::to_string(game.width()) + "x" +
            std::to_string(game.height()) + " board";
    move_error(whole, what);
  }
  return game.geometry().square(file, rank);
}

}  // namespace

Move parse_move(const Game& game, const Position& p, std::string_view text) {
  if (text.size() != 4) move_error(text, "expected origin and target square, like c1b3");
  const int from = parse_square(game, text.substr(0, 2), text);
  const int to = parse_square(game, text.substr(2), text);
  MoveList legal;
  game.generate(p, legal);
  for (Move m : legal)
    if (m.from() == from && m.to() == to) return m;
  move_error(text, legal.empty() ? "the game is over, " + std::string(color_name(p.side_to_move)) +
                                       " has lost"
                                 : "not a legal move in this position");
}

std::string board_diagram(const Game& game, const Position& p) {
  std::ostringstream out;
  for (int rank = game.height() - 1; rank >= 0; --rank) {
    out << rank + 1 << ' ';
    for (int file = 0; file < game.width(); ++file) {
      const auto piece = p.piece_on(game.geometry().square(file, rank));
      out << ' ' << (piece ? piece_letter(piece->type, piece->color) : '.');
    }
    out << '\n';
  }
  out << "  ";
  for (int file = 0; file < game.width(); ++file) out << ' ' << char('a' + file);
  out << '\n' << color_name(p.side_to_move) << " to move\n";
  return out.str();
}

}  // namespace spock
