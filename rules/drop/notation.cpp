#include "rules/drop/notation.h"

#include <algorithm>
#include <cctype>
#include <sstream>
#include <vector>

#include "rules/common/text.h"
#include "rules/drop/parse_error.h"

namespace drop {

namespace {

using common::quoted;

const char* kTypeNames[kPieceTypes] = {"knight", "bishop", "rook", "queen", "king"};

[[noreturn]] void fen_error(const std::string& what) {
  throw ParseError("FEN: " + what);
}

struct ColoredType {
  PieceType type;
  Color color;
};
std::optional<ColoredType> from_fen_letter(char ch) {
  const bool upper = std::isupper(static_cast<unsigned char>(ch));
  const auto t = piece_type_from_upper(char(std::toupper(static_cast<unsigned char>(ch))));
  if (!t) return std::nullopt;
  return ColoredType{*t, upper ? kWhite : kBlack};
}

void parse_board(const Geometry& g, std::string_view board, Position& p) {
  const auto ranks = std::count(board.begin(), board.end(), '/') + 1;
  if (ranks != g.height())
    fen_error(std::to_string(ranks) + " ranks, board has " + std::to_string(g.height()));
  int rank = g.height() - 1, file = 0;
  bool last_was_digit = false;
  auto end_rank = [&] {
    if (file != g.width())
      fen_error("rank " + std::to_string(rank + 1) + " has " + std::to_string(file) +
                " squares, board is " + std::to_string(g.width()) + " wide");
  };
  for (char ch : board) {
    if (ch == '/') {
      end_rank();
      --rank, file = 0, last_was_digit = false;
      continue;
    }
    if (ch >= '1' && ch <= '9') {
      if (last_was_digit)
        fen_error("rank " + std::to_string(rank + 1) + " has two digits in a row");
      file += ch - '0';
      last_was_digit = true;
    } else if (auto piece = from_fen_letter(ch)) {
      if (file < g.width()) p.put(g.square(file, rank), Piece{piece->type, piece->color});
      ++file;
      last_was_digit = false;
    } else if (ch == '0') {
      fen_error("rank " + std::to_string(rank + 1) +
                ": '0' counts no squares (one digit 1-9 counts a run of empty squares)");
    } else {
      fen_error("unknown letter " + quoted(ch) + " in rank " + std::to_string(rank + 1) +
                " (pieces are N B R Q K, lower case for Black)");
    }
    if (file > g.width()) end_rank();
  }
  end_rank();
}

void parse_hands(std::string_view hands, Position& p) {
  if (hands == "-") return;
  for (char ch : hands) {
    const auto piece = from_fen_letter(ch);
    if (!piece) fen_error("unknown letter " + quoted(ch) + " in the hands");
    if (p.hand[piece->color][piece->type] == 255) fen_error("too many pieces in the hands");
    ++p.hand[piece->color][piece->type];
  }
}

}  // namespace

std::string square_name(const Geometry& g, int sq) {
  return std::string{char('a' + g.file_of(sq)), char('1' + g.rank_of(sq))};
}

std::string to_fen(const Game& game, const Position& p) {
  const Geometry& g = game.geometry();
  std::string s;
  for (int rank = g.height() - 1; rank >= 0; --rank) {
    int empty = 0;
    for (int file = 0; file < g.width(); ++file) {
      const auto piece = p.piece_on(g.square(file, rank));
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
  s += '[';
  for (Color c : {kWhite, kBlack})
    for (PieceType t : kAllPieceTypes) s.append(p.hand[c][t], piece_letter(t, c));
  s += "] ";
  s += p.side_to_move == kWhite ? 'w' : 'b';
  return s;
}

Position parse_fen(const Game& game, std::string_view fen) {
  const auto fields = common::words(fen);
  if (fields.empty()) fen_error("empty");
  const std::string_view first = fields[0];
  const auto open = first.find('[');
  if (open == std::string_view::npos)
    fen_error("no hands: expected '[...]' after the board, e.g. 4/4/4/4[NNBBRRQKnnbbrrqk] w");
  if (first.back() != ']' || first.find(']') != first.size() - 1)
    fen_error("the hands must end with ']' directly followed by a space and the side to move");
  Position p;
  parse_board(game.geometry(), first.substr(0, open), p);
  parse_hands(first.substr(open + 1, first.size() - open - 2), p);

  if (fields.size() < 2) fen_error("missing side to move ('w' or 'b')");
  if (fields[1] == "w") {
    p.side_to_move = kWhite;
  } else if (fields[1] == "b") {
    p.side_to_move = kBlack;
  } else {
    fen_error("side to move is '" + std::string(fields[1]) + "', expected 'w' or 'b'");
  }
  if (fields.size() > 6) fen_error("too many fields after the side to move");
  for (std::size_t i = 2; i < fields.size(); ++i) {
    const auto f = fields[i];
    const bool ok = f == "-" || std::all_of(f.begin(), f.end(), [](char ch) {
                      return std::isdigit(static_cast<unsigned char>(ch));
                    });
    if (!ok || f.size() > 9)
      fen_error("unexpected field '" + std::string(f) + "' after the side to move");
  }

  const Variant& v = game.variant();
  for (Color c : {kWhite, kBlack})
    for (PieceType t : kAllPieceTypes)
      if (p.count(c, t) > v.max_count(c, t))
        fen_error(std::string(c == kWhite ? "White" : "Black") + " has " +
                  std::to_string(p.count(c, t)) + " " + kTypeNames[t] + "(s), variant " + v.name() +
                  " allows " + std::to_string(v.max_count(c, t)));
  return p;
}

std::string move_name(const Geometry& g, Move m) {
  if (m.is_drop()) return std::string{piece_letter(m.dropped()), '@'} + square_name(g, m.to());
  return square_name(g, m.from()) + square_name(g, m.to());
}

namespace {

[[noreturn]] void move_error(std::string_view text, const std::string& what) {
  throw ParseError("move '" + std::string(text) + "': " + what);
}

int parse_square(const Geometry& g, std::string_view text, std::string_view whole) {
  if (text.size() != 2) move_error(whole, "expected a square like b3");
  const int file = text[0] - 'a', rank = text[1] - '1';
  if (file < 0 || file >= g.width() || rank < 0 || rank >= g.height()) {
    std::string what = "'";
    what += text;
    what += "' is not a square of this " + std::to_string(g.width()) + "x" +
            std::to_string(g.height()) + " board";
    move_error(whole, what);
  }
  return g.square(file, rank);
}

}  // namespace

Move parse_move(const Game& game, const Position& p, std::string_view text) {
  const Geometry& g = game.geometry();
  Move m{};
  if (text.size() == 4 && text[1] == '@') {
    const auto t = piece_type_from_upper(text[0]);
    if (!t) move_error(text, "a drop starts with N, B, R, Q or K (upper case for either side)");
    m = Move::drop(*t, parse_square(g, text.substr(2), text));
    if (!p.hand[p.side_to_move][*t])
      move_error(text, std::string("no ") + kTypeNames[*t] + " in the hand of the side to move");
    if (p.occupied() & square_bit(m.to())) move_error(text, "the square is occupied");
    return m;
  }
  if (text.size() != 4) move_error(text, "expected a drop like N@b3 or a capture like a1c2");
  m = Move::capture(parse_square(g, text.substr(0, 2), text),
                    parse_square(g, text.substr(2), text));
  MoveList legal;
  game.generate(p, legal);
  if (std::find(legal.begin(), legal.end(), m) == legal.end())
    move_error(text, "not a legal capture in this position");
  return m;
}

std::string board_diagram(const Game& game, const Position& p) {
  const Geometry& g = game.geometry();
  std::ostringstream out;
  for (int rank = g.height() - 1; rank >= 0; --rank) {
    out << rank + 1 << ' ';
    for (int file = 0; file < g.width(); ++file) {
      const auto piece = p.piece_on(g.square(file, rank));
      out << ' ' << (piece ? piece_letter(piece->type, piece->color) : '.');
    }
    out << '\n';
  }
  out << "  ";
  for (int file = 0; file < g.width(); ++file) out << ' ' << char('a' + file);
  out << "\nWhite hand: " << hand_string(p.hand[kWhite], kWhite)
      << "\nBlack hand: " << hand_string(p.hand[kBlack], kBlack) << "\n"
      << (p.side_to_move == kWhite ? "White" : "Black") << " to move\n";
  return out.str();
}

}  // namespace drop
