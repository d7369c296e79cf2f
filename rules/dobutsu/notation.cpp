#include "rules/dobutsu/notation.h"

#include <cctype>
#include <sstream>

#include "rules/common/text.h"

namespace dobutsu {

namespace {

using common::quoted;
using common::split;

[[noreturn]] void fen_error(const std::string& what) {
  throw ParseError("FEN: " + what);
}
[[noreturn]] void move_error(std::string_view text, const std::string& what) {
  common::refuse("move", text, what);
}

constexpr char kKindLetter[kKinds] = {'C', 'E', 'G', 'L', 'H'};  // by Kind
constexpr char kSideLetter[2] = {'w', 'b'};                      // by Color
constexpr const char* kKindName[kKinds] = {"Chick", "Elephant", "Giraffe", "Lion", "Hen"};

// The kind of a letter in either case, or -1.
int kind_of_letter(char ch) {
  const char upper = char(std::toupper(static_cast<unsigned char>(ch)));
  for (int k = 0; k < kKinds; ++k)
    if (kKindLetter[k] == upper) return k;
  return -1;
}

}  // namespace

char piece_letter(Cell cell) {
  const char upper = kKindLetter[kind_of(cell)];
  return color_of(cell) == kSente ? upper : char(std::tolower(upper));
}

Position parse_fen(const Game&, std::string_view fen) {
  const auto fields = common::words(fen);
  if (fields.empty()) fen_error("empty");
  if (fields.size() < 2)
    fen_error("expected 2 fields (board with hands, side to move), got " +
              std::to_string(fields.size()));
  if (fields.size() > 2)
    fen_error("unexpected '" + std::string(fields[2]) + "' after the side to move");
  const std::string_view board_and_hands = fields[0];
  const auto open = board_and_hands.find('[');
  if (open == std::string_view::npos || board_and_hands.back() != ']')
    fen_error("the board must be followed by the hands in brackets, like gle/1c1/1C1/ELG[]");
  const std::string_view board = board_and_hands.substr(0, open);
  const std::string_view hands =
      board_and_hands.substr(open + 1, board_and_hands.size() - open - 2);
  const auto ranks = split(
      board, [](char ch) { return ch == '/'; }, true);
  if (int(ranks.size()) != kRanks)
    fen_error(std::to_string(ranks.size()) + " ranks; the board has " + std::to_string(kRanks));
  Position p;
  for (int i = 0; i < kRanks; ++i) {
    const int rank = kRanks - 1 - i;
    const std::string where = "rank " + std::to_string(rank + 1);
    int file = 0;
    for (char ch : ranks[i]) {
      if (ch >= '1' && ch <= '3') {
        file += ch - '0';
        continue;
      }
      const int k = kind_of_letter(ch);
      if (k < 0)
        fen_error("unexpected " + quoted(ch) + " in " + where +
                  " (L G E C H for Sente's pieces, lower case for Gote's; digits count empty "
                  "squares)");
      if (file >= kFiles) {  // reported below as too many squares
        file = kFiles + 1;
        break;
      }
      const Color c = std::isupper(static_cast<unsigned char>(ch)) ? kSente : kGote;
      p.set(square_of(file, rank), cell_of(c, Kind(k)));
      ++file;
    }
    if (file != kFiles)
      fen_error(where + " has " +
                (file > kFiles ? "more than " + std::to_string(kFiles) : std::to_string(file)) +
                " squares; the board has " + std::to_string(kFiles) + " files");
  }
  for (char ch : hands) {
    const int k = kind_of_letter(ch);
    if (k < 0 || k >= kHandKinds)
      fen_error("unexpected " + quoted(ch) +
                " in the hands (C E G for Sente's Chicks, Elephants and Giraffes, lower case for "
                "Gote's; a Lion or a Hen is never held)");
    ++p.hand[std::isupper(static_cast<unsigned char>(ch)) ? kSente : kGote][k];
  }
  if (fields[1] == "w")
    p.side_to_move = kSente;
  else if (fields[1] == "b")
    p.side_to_move = kGote;
  else
    fen_error("side to move is '" + std::string(fields[1]) +
              "', expected 'w' (Sente) or 'b' (Gote)");

  int count[kKinds] = {};
  int lions[2] = {};
  for (int sq = 0; sq < kSquares; ++sq) {
    const Cell cell = p.cell(sq);
    if (cell == kEmpty) continue;
    ++count[in_hand(kind_of(cell))];
    if (kind_of(cell) == kLion) ++lions[color_of(cell)];
  }
  for (int c = 0; c < 2; ++c)
    for (int k = 0; k < kHandKinds; ++k) count[k] += p.hand[c][k];
  for (int k = 0; k < kHandKinds; ++k)
    if (count[k] != kPiecesOfKind)
      fen_error(std::to_string(count[k]) + " " + kKindName[k] + "s" +
                (k == kChick ? " (Hens included)" : "") +
                " on the board and in hand; the game has " + std::to_string(kPiecesOfKind));
  for (const Color c : {kSente, kGote}) {
    if (lions[c] > 1) fen_error(std::string(color_name(c)) + " has more than one Lion");
    if (lions[c] == 0 && c != p.side_to_move)
      fen_error(std::string(color_name(c)) + " has no Lion, and only the side to move's can " +
                "have been caught (the game then is over)");
  }
  return p;
}

std::string to_fen(const Game&, const Position& p) {
  std::string s;
  for (int rank = kRanks - 1; rank >= 0; --rank) {
    int empty = 0;
    for (int file = 0; file < kFiles; ++file) {
      const Cell cell = p.cell(square_of(file, rank));
      if (cell == kEmpty) {
        ++empty;
        continue;
      }
      if (empty) s += char('0' + empty), empty = 0;
      s += piece_letter(cell);
    }
    if (empty) s += char('0' + empty);
    if (rank) s += '/';
  }
  s += '[';
  for (const Color c : {kSente, kGote})
    for (int k = 0; k < kHandKinds; ++k) s.append(p.hand[c][k], piece_letter(cell_of(c, Kind(k))));
  s += "] ";
  s += kSideLetter[p.side_to_move];
  return s;
}

std::string square_name(int sq) {
  return std::string{char('a' + file_of(sq)), char('1' + rank_of(sq))};
}

std::string move_name(const Game&, Move m) {
  if (m.is_drop()) return std::string{kKindLetter[m.dropped()], '@'} + square_name(m.to());
  return square_name(m.from()) + square_name(m.to());
}

namespace {

int parse_square(std::string_view text, std::string_view whole) {
  const int file = text[0] - 'a', rank = text[1] - '1';
  if (file < 0 || file >= kFiles || rank < 0 || rank >= kRanks) {
    std::string what = "'";
    what += text;
    what += "' is not a square of the 3x4 board (a1 to c4)";
    move_error(whole, what);
  }
  return square_of(file, rank);
}

}  // namespace

Move parse_move(const Game& game, const Position& p, std::string_view text) {
  Move wanted;
  if (text.size() == 4 && text[1] == '@') {
    const int k = kind_of_letter(text[0]);
    if (k < 0 || k >= kHandKinds)
      move_error(text, "only a Chick, an Elephant or a Giraffe is dropped (C@, E@, G@)");
    wanted = Move::drop(Kind(k), parse_square(text.substr(2), text));
  } else if (text.size() == 4) {
    wanted = Move::step(parse_square(text.substr(0, 2), text), parse_square(text.substr(2), text));
  } else {
    move_error(text, "expected a step like b2b3 or a drop like C@a3");
  }
  MoveList legal;
  game.generate(p, legal);
  for (Move m : legal)
    if (m == wanted) return m;
  if (legal.empty())
    move_error(text, "the game is over, " + std::string(color_name(p.side_to_move)) + " has lost");
  if (game.is_catch(p))
    move_error(text, std::string(color_name(p.side_to_move)) +
                         " can take the Lion, which ends the game: no other move is played");
  move_error(text, "not a legal move in this position");
}

std::string board_diagram(const Game&, const Position& p) {
  std::ostringstream out;
  for (int rank = kRanks - 1; rank >= 0; --rank) {
    out << rank + 1 << ' ';
    for (int file = 0; file < kFiles; ++file) {
      const Cell cell = p.cell(square_of(file, rank));
      out << ' ' << (cell == kEmpty ? '.' : piece_letter(cell));
    }
    out << '\n';
  }
  out << "   a b c\n";
  for (const Color c : {kSente, kGote}) {
    out << "in hand: " << color_name(c) << ' ';
    std::string held;
    for (int k = 0; k < kHandKinds; ++k)
      held.append(p.hand[c][k], piece_letter(cell_of(c, Kind(k))));
    out << (held.empty() ? "-" : held) << '\n';
  }
  out << color_name(p.side_to_move) << " to move\n";
  return out.str();
}

}  // namespace dobutsu
