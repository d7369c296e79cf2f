#include "rules/nardy/notation.h"

#include <cctype>
#include <charconv>
#include <vector>

#include "rules/common/text.h"

namespace nardy {

namespace {

[[noreturn]] void fen_error(const std::string& what) {
  throw ParseError("FEN: " + what);
}

std::vector<std::string_view> split(std::string_view s, char separator) {
  return common::split(
      s, [separator](char ch) { return ch == separator; }, true);
}

// A whole decimal number in 0..most, or -1.
int number(std::string_view s, int most) {
  if (s.empty() || s.size() > 3) return -1;
  int v = 0;
  for (char ch : s) {
    if (ch < '0' || ch > '9') return -1;
    v = v * 10 + (ch - '0');
  }
  return v <= most ? v : -1;
}

// "W/B" counts, each 0..most.
std::array<std::uint8_t, 2> pair_field(std::string_view text, const char* name, int most) {
  const auto parts = split(text, '/');
  if (parts.size() != 2)
    fen_error(std::string(name) + " field '" + std::string(text) + "' is not W/B (e.g. 0/1)");
  std::array<std::uint8_t, 2> out{};
  for (int s = 0; s < 2; ++s) {
    const int v = number(parts[s], most);
    if (v < 0)
      fen_error(std::string(name) + " count '" + std::string(parts[s]) + "' is not 0.." +
                std::to_string(most));
    out[s] = std::uint8_t(v);
  }
  return out;
}

void parse_point(std::string_view text, int q, int points, Position& p) {
  const std::string where = "point " + std::to_string(q);
  if (text == ".") return;
  if (text.empty()) fen_error(where + " is empty text; write '.' for an empty point");
  std::size_t i = 0;
  int side = -1;
  bool seen_plain = false, seen_royal = false;
  while (i < text.size()) {
    std::size_t j = i;
    while (j < text.size() && std::isdigit(static_cast<unsigned char>(text[j]))) ++j;
    int count = 1;
    if (j > i) {
      count = number(text.substr(i, j - i), kCheckers);
      if (count < 1)
        fen_error(where + ": count '" + std::string(text.substr(i, j - i)) + "' is not 1..15");
    }
    if (j == text.size()) fen_error(where + ": a count without a checker letter");
    const char letter = text[j];
    const char upper = char(std::toupper(static_cast<unsigned char>(letter)));
    if (upper != 'P' && upper != 'R')
      fen_error(where + ": unexpected '" + std::string(1, letter) +
                "' (P and R are White's plain and royal checkers, p and r Black's)");
    const int s = std::isupper(static_cast<unsigned char>(letter)) ? kWhite : kBlack;
    if (side >= 0 && s != side) fen_error(where + " holds checkers of both sides");
    side = s;
    bool& seen = upper == 'P' ? seen_plain : seen_royal;
    if (seen || (upper == 'P' && seen_royal))
      fen_error(where + ": give each kind once, plain before royal (e.g. 2PR)");
    seen = true;
    const int own = s == kWhite ? q : points + 1 - q;
    (upper == 'P' ? p.plain : p.royal)[s][own - 1] = std::uint8_t(count);
    i = j + 1;
  }
}

std::string point_text(const Position& p, int q, int points) {
  for (Side s : {kWhite, kBlack}) {
    const int own = s == kWhite ? q : points + 1 - q;
    const int plain = p.plain[s][own - 1], royal = p.royal[s][own - 1];
    if (plain + royal == 0) continue;
    std::string t;
    const auto add = [&](int n, char letter) {
      if (n == 0) return;
      if (n > 1) t += std::to_string(n);
      t += s == kWhite ? letter : char(std::tolower(letter));
    };
    add(plain, 'P');
    add(royal, 'R');
    return t;
  }
  return ".";
}

void check_side(const Game& g, const Position& p, Side s) {
  const char* name = s == kWhite ? "White" : "Black";
  int plain = p.bar[s], royal = 0;
  for (int q = 1; q <= g.points(); ++q) plain += p.plain[s][q - 1], royal += p.royal[s][q - 1];
  if (plain > kPlain)
    fen_error(std::string(name) + " has " + std::to_string(plain) +
              " plain checkers on the board and bar; a side has 8");
  if (royal + p.eaten[s] > kRoyal)
    fen_error(std::string(name) + " has " + std::to_string(royal) + " royal checkers and " +
              std::to_string(p.eaten[s]) + " eaten; a side has 7");
  if (plain + royal + p.off[s] + p.eaten[s] > kCheckers)
    fen_error(std::string(name) + " has more than 15 checkers with the borne-off and eaten ones");
}

}  // namespace

Roll parse_roll(std::string_view text) {
  if (text.size() != 3 || text[1] != '-' || text[0] < '1' || text[0] > '6' || text[2] < '1' ||
      text[2] > '6')
    throw ParseError("roll '" + std::string(text) + "' is not two dice 1-6 such as 6-5");
  const int a = text[0] - '0', b = text[2] - '0';
  return Roll{std::uint8_t(std::max(a, b)), std::uint8_t(std::min(a, b))};
}

std::string roll_text(Roll r) {
  if (!r.rolled()) return "-";
  return std::to_string(r.high) + "-" + std::to_string(r.low);
}

Setup parse_fen(std::string_view fen) {
  const auto fields = common::words(fen);
  if (fields.empty()) fen_error("empty");
  if (fields.size() != 6)
    fen_error(std::to_string(fields.size()) +
              " fields; a position has 6: points, bar, off, eaten, side, roll");
  const auto point_texts = split(fields[0], '/');
  const int points = int(point_texts.size());
  if (points < kMinPoints || points > kMaxPoints)
    fen_error(std::to_string(points) + " points; boards have 12 to 24");
  Setup s{Game(points), Position{}};
  Position& p = s.position;
  for (int q = 1; q <= points; ++q) parse_point(point_texts[q - 1], q, points, p);
  p.bar = pair_field(fields[1], "bar", kPlain);
  p.off = pair_field(fields[2], "off", kCheckers);
  p.eaten = pair_field(fields[3], "eaten", kRoyal);
  if (fields[4] != "w" && fields[4] != "b")
    fen_error("side to move '" + std::string(fields[4]) + "' is not 'w' or 'b'");
  p.side_to_move = fields[4] == "w" ? kWhite : kBlack;
  for (Side side : {kWhite, kBlack}) check_side(s.game, p, side);
  // A side with nothing left in play is to move only when its last checkers were eaten (the
  // game's end, ROYAL-NARDY.md's decision); one that bore off its last checker did so on its own
  // play, after which the opponent is to move.
  if (p.in_play(p.side_to_move, points) == 0 && p.eaten[p.side_to_move] == 0)
    fen_error(
        "the side to move has borne off all its checkers and lost no royal one, so it finished "
        "on its own play and the other side is to move");
  if (fields[5] != "-") {
    try {
      p.dice = parse_roll(fields[5]);
    } catch (const ParseError& e) {
      fen_error(e.what());
    }
    if (s.game.is_terminal(p)) fen_error("the game is over, so no dice are rolled");
  }
  return s;
}

std::string to_fen(const Game& g, const Position& p) {
  std::string t;
  for (int q = 1; q <= g.points(); ++q) {
    if (q > 1) t += '/';
    t += point_text(p, q, g.points());
  }
  for (const auto& pair : {p.bar, p.off, p.eaten})
    t.append(" ").append(std::to_string(pair[0])).append("/").append(std::to_string(pair[1]));
  t += p.side_to_move == kWhite ? " w " : " b ";
  return t + roll_text(p.dice);
}

std::string end_text(const Game& game, const Position& p) {
  const auto points = game.terminal_value(p);
  return "the game is over: White " + std::to_string(points[kWhite]) + ", Black " +
         std::to_string(points[kBlack]);
}

std::string start_fen() {
  return "2r/././././5P/./3P/./././5r/5R/./././3p/./5p/././././2R 0/0 0/0 0/0 w -";
}

std::string move_name(const Move& m) {
  if (m.count == 0) return "pass";
  std::string t;
  for (int i = 0; i < m.count; ++i) {
    const Step& s = m.steps[i];
    if (i) t += ' ';
    if (s.royal) t += 'R';
    t += s.from == kFromBar ? std::string("bar") : std::to_string(s.from);
    t += '/';
    t += s.to == kToOff ? std::string("off") : std::to_string(s.to);
    if (s.hit) t += '*';
  }
  return t;
}

Move parse_move(const Game& g, const Position& p, std::string_view text) {
  const std::string shown = "play '" + std::string(text) + "'";
  if (!p.dice.rolled()) throw ParseError(shown + ": the dice are not rolled (give a roll)");
  MoveList legal;
  g.generate(p, legal);
  if (legal.empty()) throw ParseError(shown + ": the game is over");
  const Side s = p.side_to_move;
  Position after = p;
  const auto steps = common::words(text);
  if (steps.size() == 1 && steps[0] == "pass") {
    // nothing moves
  } else {
    if (steps.empty()) throw ParseError(shown + " is empty (write \"pass\" for no move)");
    for (std::string_view w : steps) {
      const std::string where = shown + ", step '" + std::string(w) + "'";
      bool royal = false;
      if (!w.empty() && w[0] == 'R') royal = true, w.remove_prefix(1);
      if (!w.empty() && w.back() == '*') w.remove_suffix(1);
      const auto parts = split(w, '/');
      if (parts.size() != 2) throw ParseError(where + " is not FROM/TO such as 13/7");
      int from = parts[0] == "bar" ? kFromBar : number(parts[0], g.points());
      int to = parts[1] == "off" ? kToOff : number(parts[1], g.points());
      if (from < 1 || to < 0 || to == from || (to == 0 && parts[1] != "off"))
        throw ParseError(where + ": points are 1.." + std::to_string(g.points()) +
                         ", 'bar' and 'off'");
      if (from != kFromBar && to > from)
        throw ParseError(where + ": checkers move down towards point 1 (own numbering)");
      if (from == kFromBar ? (royal || after.bar[s] == 0)
                           : (royal ? after.royal : after.plain)[s][from - 1] == 0)
        throw ParseError(where + ": no such checker there");
      Step step{std::int8_t(from), std::int8_t(to), royal, false};
      g.apply(after, s, step);
    }
  }
  for (const Move& m : legal) {
    Position q = p;
    g.make(q, m);
    q.dice = p.dice;
    q.side_to_move = s;
    if (q == after) return m;
  }
  throw ParseError(shown + " is not a legal play with " + roll_text(p.dice));
}

std::string board_diagram(const Game& g, const Position& p) {
  const int n = g.points(), half = n / 2;
  const auto cell = [&](int q) {
    std::string t = point_text(p, q, n);
    if (t == ".") t = "-";
    while (t.size() < 4) t = ' ' + t;
    return t;
  };
  std::string t;
  const auto numbers = [&](int from, int to, int step) {
    std::string line;
    for (int q = from; q != to + step; q += step) {
      std::string num = std::to_string(q);
      while (num.size() < 4) num = ' ' + num;
      line += num;
    }
    return line + "\n";
  };
  t += numbers(half + 1, n, 1);
  for (int q = half + 1; q <= n; ++q) t += cell(q);
  t += "\n";
  for (int q = half; q >= 1; --q) t += cell(q);
  t += "\n" + numbers(half, 1, -1);
  t += "bar " + std::to_string(p.bar[kWhite]) + "/" + std::to_string(p.bar[kBlack]) + "  off " +
       std::to_string(p.off[kWhite]) + "/" + std::to_string(p.off[kBlack]) + "  eaten " +
       std::to_string(p.eaten[kWhite]) + "/" + std::to_string(p.eaten[kBlack]) +
       "  (White/Black)\n";
  if (g.is_terminal(p)) return t + end_text(g, p) + "\n";
  t += std::string(p.side_to_move == kWhite ? "White" : "Black") + " to " +
       (p.dice.rolled() ? "play " + roll_text(p.dice) : std::string("roll")) + "\n";
  return t;
}

}  // namespace nardy
