#include "rules/nardy/game.h"

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "rules/nardy/parse_error.h"

namespace nardy {

Game::Game(int points) : points_(points) {
  if (points < kMinPoints || points > kMaxPoints)
    throw ParseError("a board of " + std::to_string(points) + " points; boards have " +
                     std::to_string(kMinPoints) + " to " + std::to_string(kMaxPoints));
}

void Game::chances(const Position&, ChanceList& out) const {
  out.clear();
  for (const WeightedRoll& w : all_rolls()) out.push({w.roll, w.weight});
}

bool Game::all_home(const Position& p, Side s) const {
  if (p.bar[s]) return false;
  for (int q = kHomePoints + 1; q <= points_; ++q)
    if (p.on_point(s, q)) return false;
  return true;
}

int Game::farthest(const Position& p, Side s) const {
  for (int q = points_; q >= 1; --q)
    if (p.on_point(s, q)) return q;
  return 0;
}

int Game::target(const Position& p, Side s, int from, bool royal, int die) const {
  int to;
  if (from == kFromBar) {
    to = points_ + 1 - die;  // into the opponent's home
  } else {
    to = from - die;
    if (to <= 0) {
      if (!all_home(p, s)) return -1;
      // Exactly off, or with a larger die only the farthest checker.
      if (to < 0 && farthest(p, s) > from) return -1;
      return kToOff;
    }
  }
  if (p.on_point(opponent(s), points_ + 1 - to) >= 2) return -1;  // closed, whatever the kinds
  if (royal && p.on_point(s, to) > 0) return -1;                  // a royal checker never stacks
  return to;
}

void Game::apply(Position& p, Side s, Step& step) const {
  if (step.from == kFromBar)
    --p.bar[s];
  else
    --(step.royal ? p.royal : p.plain)[s][step.from - 1];
  if (step.to == kToOff) {
    ++p.off[s];
    return;
  }
  const Side o = opponent(s);
  const int theirs = points_ + 1 - step.to;
  if (p.on_point(o, theirs) == 1) {
    step.hit = true;
    if (p.royal[o][theirs - 1]) {  // eaten for good
      p.royal[o][theirs - 1] = 0;
      ++p.eaten[o];
    } else {
      p.plain[o][theirs - 1] = 0;
      ++p.bar[o];
    }
  }
  ++(step.royal ? p.royal : p.plain)[s][step.to - 1];
}

bool Game::can_step(const Position& p, Side s, int die) const {
  if (p.bar[s]) return target(p, s, kFromBar, false, die) >= 0;
  for (int q = 1; q <= points_; ++q) {
    if (p.plain[s][q - 1] && target(p, s, q, false, die) >= 0) return true;
    if (p.royal[s][q - 1] && target(p, s, q, true, die) >= 0) return true;
  }
  return false;
}

namespace {

// A way to play the dice in one order, as far as it goes.
struct Leaf {
  Position after;
  Move move;
  bool first_is_high;  // its first step used the higher die (what decides when only one is used)
};

}  // namespace

// The positions already reached after each number of steps in one order of the dice: reached
// again (the same checkers moved in another order), it has the same continuations, all listed
// already, so the search does not go on from it. Doubles reach most positions many times over.
using Reached = std::array<std::set<Position>, 4>;

// Depth-first over the dice in the order given, every legal step at each; a sequence ends where
// the next die has no step (or the dice are used up).
static void extend(const Game& g, const Position& p, Side s, const std::array<int, 4>& dice, int n,
                   Move& m, bool first_is_high, std::vector<Leaf>& leaves, Reached& reached) {
  const int depth = m.count;
  bool moved = false;
  if (depth < n) {
    const int die = dice[depth];
    const auto try_from = [&](int from, bool royal) {
      const int to = g.target(p, s, from, royal, die);
      if (to < 0) return;
      Position next = p;
      Step step{std::int8_t(from), std::int8_t(to), royal, false};
      g.apply(next, s, step);
      moved = true;
      if (depth + 1 < n && !reached[depth + 1].insert(next).second) return;
      m.steps[depth] = step;
      m.count = std::uint8_t(depth + 1);
      extend(g, next, s, dice, n, m, first_is_high, leaves, reached);
      m.count = std::uint8_t(depth);
    };
    if (p.bar[s]) {
      try_from(kFromBar, false);
    } else {
      for (int q = 1; q <= g.points(); ++q) {
        if (p.plain[s][q - 1]) try_from(q, false);
        if (p.royal[s][q - 1]) try_from(q, true);
      }
    }
  }
  if (!moved) {
    Move done = m;
    for (int i = depth; i < 4; ++i) done.steps[i] = {};
    leaves.push_back({p, done, first_is_high});
  }
}

void Game::generate(const Position& p, MoveList& out) const {
  out.clear();
  if (!p.dice.rolled() || is_terminal(p)) return;
  const Side s = p.side_to_move;
  const int high = p.dice.high, low = p.dice.low;
  std::vector<Leaf> leaves;
  Move m;
  if (p.dice.is_double()) {
    Reached reached;
    extend(*this, p, s, {high, high, high, high}, 4, m, true, leaves, reached);
  } else {
    Reached high_first, low_first;
    extend(*this, p, s, {high, low, 0, 0}, 2, m, true, leaves, high_first);
    extend(*this, p, s, {low, high, 0, 0}, 2, m, false, leaves, low_first);
  }
  int most = 0;
  for (const Leaf& l : leaves) most = std::max(most, int(l.move.count));
  // With one die of two playable, the higher one if any play uses it.
  bool high_alone = false;
  if (most == 1 && !p.dice.is_double())
    for (const Leaf& l : leaves) high_alone |= l.first_is_high && l.move.count == 1;
  std::vector<Leaf> kept;
  for (const Leaf& l : leaves)
    if (l.move.count == most && (!high_alone || l.first_is_high)) kept.push_back(l);
  // One play per resulting position, the first sequence that reached it.
  std::stable_sort(kept.begin(), kept.end(),
                   [](const Leaf& a, const Leaf& b) { return a.after < b.after; });
  for (std::size_t i = 0; i < kept.size(); ++i)
    if (i == 0 || kept[i].after != kept[i - 1].after) out.push(kept[i].move);
}

std::uint64_t Game::count_moves(const Position& p) const {
  MoveList list;
  generate(p, list);
  return list.size();
}

Undo Game::make(Position& p, const Move& m) const {
  const Undo u = p;
  const Side s = p.side_to_move;
  for (int i = 0; i < m.count; ++i) {
    Step step = m.steps[i];
    apply(p, s, step);
  }
  p.dice = {};
  p.side_to_move = opponent(s);
  return u;
}

bool Game::is_locked(const Position& p) const {
  for (Side s : {kWhite, kBlack})
    for (int die = 1; die <= 6; ++die)
      if (can_step(p, s, die)) return false;
  return true;
}

bool Game::is_terminal(const Position& p) const {
  return p.in_play(kWhite, points_) == 0 || p.in_play(kBlack, points_) == 0 || is_locked(p);
}

int Game::win_figure(const Position& p, Side loser) const {
  if (p.off[loser] > 0) return 1;                        // oin
  int figure = 2;                                        // mars
  if (all_home(p, loser)) figure = std::max(figure, 3);  // home mars
  // koks: a checker still in the winner's home, the loser's own farthest six points
  for (int q = points_ - kHomePoints + 1; q <= points_; ++q)
    if (p.on_point(loser, q)) figure = std::max(figure, 3);
  if (p.bar[loser]) figure = 4;  // shekh
  return figure;
}

Game::Points Game::terminal_value(const Position& p) const {
  Points v{0, 0};
  const bool white_done = p.in_play(kWhite, points_) == 0;
  const bool black_done = p.in_play(kBlack, points_) == 0;
  if (!white_done && !black_done) {  // locked: the royal difference alone (rule 7's figure)
    const int d = p.royals(kWhite) - p.royals(kBlack);
    return {d, -d};
  }
  // With nothing in play on either side, the side to move finished first: its last checkers were
  // eaten during the opponent's play, before the opponent bore off its own last (a side never
  // moves with nothing in play, so it cannot have finished on its own play).
  const Side finisher = white_done && black_done ? p.side_to_move : white_done ? kWhite : kBlack;
  const Side other = opponent(finisher);
  const int rf = p.royals(finisher), ro = p.royals(other);
  Side winner = finisher;
  int score;
  if (rf == ro)
    score = win_figure(p, other);  // rule 5
  else if (rf > ro)
    score = win_figure(p, other) * 2 * (rf - ro);  // rule 6
  else
    winner = other, score = ro - rf;  // rule 7: more royal checkers win anyway
  v[winner] = score;
  v[opponent(winner)] = -score;
  return v;
}

// --- keys ---

namespace {

constexpr int kRollBits = 5;

}  // namespace

Game::Key Game::raw_key(const Position& p) const {
  common::Key128 k = 0;
  const auto put = [&](unsigned value, int bits) { k = k << bits | value; };
  for (int q = 1; q <= points_; ++q) {  // White's numbering
    const int b = points_ + 1 - q;
    if (p.on_point(kBlack, b))
      put(1u << 7 | unsigned(p.royal[kBlack][b - 1]) << 4 | p.plain[kBlack][b - 1], 8);
    else
      put(unsigned(p.royal[kWhite][q - 1]) << 4 | p.plain[kWhite][q - 1], 8);
  }
  for (Side s : {kWhite, kBlack}) {
    put(p.bar[s], 4);
    put(p.off[s], 4);
    put(p.eaten[s], 3);
  }
  put(p.side_to_move, 1);
  put(p.dice.rolled() ? unsigned(roll_index(p.dice)) + 1 : 0u, kRollBits);
  return common::to_key(k);
}

Game::Position Game::from_key(Key key) const {
  common::Key128 k = common::from_key(key);
  const auto take = [&](int bits) {
    const unsigned v = unsigned(k & ((common::Key128(1) << bits) - 1));
    k >>= bits;
    return v;
  };
  Position p;
  const unsigned roll = take(kRollBits);
  if (roll > unsigned(kDistinctRolls)) throw std::invalid_argument("from_key: not a key");
  if (roll) p.dice = all_rolls()[roll - 1].roll;
  p.side_to_move = Side(take(1));
  for (Side s : {kBlack, kWhite}) {
    p.eaten[s] = std::uint8_t(take(3));
    p.off[s] = std::uint8_t(take(4));
    p.bar[s] = std::uint8_t(take(4));
  }
  for (int q = points_; q >= 1; --q) {
    const unsigned cell = take(8);
    const Side s = cell >> 7 ? kBlack : kWhite;
    const int own = s == kWhite ? q : points_ + 1 - q;
    p.plain[s][own - 1] = std::uint8_t(cell & 15);
    p.royal[s][own - 1] = std::uint8_t(cell >> 4 & 7);
  }
  return p;
}

Position Game::swapped(const Position& p) {
  Position q = p;
  std::swap(q.plain[0], q.plain[1]);
  std::swap(q.royal[0], q.royal[1]);
  std::swap(q.bar[0], q.bar[1]);
  std::swap(q.off[0], q.off[1]);
  std::swap(q.eaten[0], q.eaten[1]);
  q.side_to_move = opponent(p.side_to_move);
  return q;
}

Game::Key Game::canonical_key(const Position& p) const {
  return raw_key(p.side_to_move == kBlack ? swapped(p) : p);
}

}  // namespace nardy
