#include "rules/nardy/solve/player.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "rules/nardy/notation.h"

namespace nardy::player {

namespace {

// Rolls of 36 that let a checker hit a blot k pips in front of it, with one die or the sum of
// both (a double's multiples too), blocks ignored: backgammon's shot table, k = 1..12.
constexpr std::array<int, 13> kShots = {0, 11, 12, 14, 15, 15, 17, 6, 6, 5, 3, 2, 3};
// About what eating one royal checker changes the score by (from d = 0 to 1 the formula of
// points_from goes from 2P - 1 to 1 + P, about 1.5 at P = 1/2).
constexpr double kRoyalWorth = 1.5;

// Chance of 36 that `hitter` hits `target`'s royal blots next roll, summed over the blots (at
// most 1 each), counting for each blot its nearest checker behind it.
double royal_shots(const nardy::Game& game, const nardy::Position& p, nardy::Side hitter) {
  const nardy::Side target = nardy::opponent(hitter);
  const int points = game.points();
  double sum = 0;
  for (int q = 1; q <= points; ++q) {
    if (p.royal[target][q - 1] != 1 || p.plain[target][q - 1] != 0) continue;
    const int x = points + 1 - q;  // the blot's point in the hitter's numbering
    int best = 0;
    for (int from = x + 1; from <= std::min(points + 1, x + 12); ++from) {
      const bool there = from == points + 1 ? p.bar[hitter] > 0 : p.on_point(hitter, from) > 0;
      if (there) best = std::max(best, kShots[from - x]);
    }
    sum += best / 36.0;
  }
  return sum;
}

}  // namespace

int pips(const nardy::Game& game, const nardy::Position& p, nardy::Side s) {
  int n = p.bar[s] * (game.points() + 1);
  for (int q = 1; q <= game.points(); ++q) n += q * p.on_point(s, q);
  return n;
}

bool in_contact(const nardy::Game& game, const nardy::Position& p) {
  if (p.bar[0] || p.bar[1]) return true;
  const int w = game.farthest(p, nardy::kWhite), b = game.farthest(p, nardy::kBlack);
  // White's checker on its point w meets Black's on Black's point b (White's points + 1 - b)
  // when it has to pass it: w > points + 1 - b.
  return w > 0 && b > 0 && w + b > game.points() + 1;
}

bool Evaluator::from_database(const nardy::Position& p) const {
  if (!db_ || game_.is_terminal(p) || in_contact(game_, p)) return false;
  for (const nardy::Side s : {nardy::kWhite, nardy::kBlack}) {
    const auto b = bearoff::home_board(game_, p, s);
    if (!b || b->checkers() > db_->index().max_checkers()) return false;
  }
  return true;
}

double Evaluator::first_off_probability(const nardy::Position& p) const {
  const nardy::Side s = p.side_to_move, o = nardy::opponent(s);
  const auto mine = *bearoff::home_board(game_, p, s);
  const auto theirs = *bearoff::home_board(game_, p, o);
  double first = 0, their_before = 0;  // their_before: P(they are off in fewer than n rolls)
  for (int n = 0; n <= bearoff::kExactRolls; ++n) {
    first += db_->probability(mine, n) * (1 - their_before);
    their_before += db_->probability(theirs, n);
  }
  const double total = double(bearoff::power36(bearoff::kExactRolls));
  const double my_tail = double(db_->tail(mine)) / total,
               their_tail = double(db_->tail(theirs)) / total;
  return first + 0.5 * my_tail * their_tail;  // both beyond 24 rolls: an even guess, below 1e-15
}

double Evaluator::points_from(const nardy::Position& p, double first) const {
  const nardy::Side s = p.side_to_move, o = nardy::opponent(s);
  const int d = p.royals(s) - p.royals(o);
  const double mine = game_.win_figure(p, o), theirs = game_.win_figure(p, s);
  if (d == 0) return first * mine - (1 - first) * theirs;
  if (d > 0) return first * mine * 2 * d + (1 - first) * d;
  return -((1 - first) * theirs * 2 * -d + first * -d);
}

double Evaluator::value(const nardy::Position& p) const {
  const nardy::Side s = p.side_to_move;
  if (game_.is_terminal(p)) return game_.terminal_value(p)[s];
  if (from_database(p)) return points_from(p, first_off_probability(p));
  const nardy::Side o = nardy::opponent(s);
  const int mine = pips(game_, p, s), theirs = pips(game_, p, o);
  const double lead = theirs - mine + 4;
  const double width = 2 + 0.04 * (mine + theirs);
  const double first = 1 / (1 + std::exp(-lead / width));
  return points_from(p, first) +
         kRoyalWorth * (royal_shots(game_, p, s) - 0.5 * royal_shots(game_, p, o));
}

Player::Player(const nardy::Game& game, const bearoff::OneSided* db, int depth)
    : game_(game), eval_(game, db), depth_(depth) {
  if (depth < 1 || depth > 2) throw std::invalid_argument("the player searches 1 or 2 plies");
}

Choice Player::choose(const nardy::Position& p) const {
  nardy::MoveList plays;
  game_.generate(p, plays);
  if (plays.empty()) throw std::logic_error("nardy player: no play to choose from");
  Choice best;
  for (int i = 0; i < plays.size(); ++i) {
    nardy::Position q = p;
    game_.make(q, plays[i]);
    const double v = value_of(q, p.side_to_move);
    if (i == 0 || v > best.value) best = {plays[i], v};
  }
  return best;
}

double Player::value_of(const nardy::Position& after, nardy::Side mover) const {
  return game_.is_terminal(after) ? game_.terminal_value(after)[mover]
                                  : -to_roll_value(after, depth_ - 1);
}

double Player::to_roll_value(const nardy::Position& p, int depth) const {
  if (depth == 0 || game_.is_terminal(p)) return eval_.value(p);
  double sum = 0;
  for (const nardy::WeightedRoll& w : nardy::all_rolls()) {
    nardy::Position q = p;
    game_.make_chance(q, w.roll);
    nardy::MoveList plays;
    game_.generate(q, plays);
    double best = 0;
    for (int i = 0; i < plays.size(); ++i) {
      nardy::Position r = q;
      game_.make(r, plays[i]);
      const double v = game_.is_terminal(r) ? game_.terminal_value(r)[p.side_to_move]
                                            : -to_roll_value(r, depth - 1);
      if (i == 0 || v > best) best = v;
    }
    sum += w.weight * best;
  }
  return sum / nardy::kRollsTotalWeight;
}

nardy::Move random_play(const nardy::Game& game, const nardy::Position& p, std::mt19937_64& rng) {
  nardy::MoveList plays;
  game.generate(p, plays);
  if (plays.empty()) throw std::logic_error("nardy: no play to choose from");
  return plays[int(rng() % std::uint64_t(plays.size()))];
}

nardy::Roll roll_dice(std::mt19937_64& rng) {
  // rng() % 6: a bias of 2^64 mod 6 in 2^64, nothing; unlike uniform_int_distribution it is the
  // same on every standard library, so a seed means the same dice everywhere.
  const int a = int(rng() % 6) + 1, b = int(rng() % 6) + 1;
  return {std::uint8_t(std::max(a, b)), std::uint8_t(std::min(a, b))};
}

MatchResult play_match(const nardy::Game& game, const Player& player, int games, std::uint64_t seed,
                       int max_plies, const PlayObserver& on_play) {
  if (games < 1) throw std::invalid_argument("a match needs at least one game");
  const nardy::Position start = nardy::parse_fen(nardy::start_fen()).position;
  MatchResult m;
  for (int g = 0; g < games; ++g) {
    std::seed_seq dice_seed{std::uint64_t(seed), std::uint64_t(g), std::uint64_t(0)};
    std::seed_seq baseline_seed{std::uint64_t(seed), std::uint64_t(g), std::uint64_t(1)};
    std::mt19937_64 dice(dice_seed), baseline(baseline_seed);
    GameRecord r;
    r.player_side = g % 2 == 0 ? nardy::kWhite : nardy::kBlack;
    nardy::Position p = start;
    while (!game.is_terminal(p) && r.plies < max_plies) {
      game.make_chance(p, roll_dice(dice));
      const nardy::Move play =
          p.side_to_move == r.player_side ? player.choose(p).move : random_play(game, p, baseline);
      if (on_play) on_play(p, play);
      game.make(p, play);
      ++r.plies;
    }
    r.final_position = p;
    r.finished = game.is_terminal(p);
    if (r.finished) {
      r.points = game.terminal_value(p);
      r.player_points = r.points[r.player_side];
    }
    m.wins += r.player_points > 0;
    m.losses += r.player_points < 0;
    m.draws += r.finished && r.player_points == 0;
    m.unfinished += !r.finished;
    m.games.push_back(r);
  }
  double sum = 0, squares = 0;
  for (const GameRecord& r : m.games) sum += r.player_points;
  m.mean = sum / games;
  for (const GameRecord& r : m.games)
    squares += (r.player_points - m.mean) * (r.player_points - m.mean);
  m.standard_error = games > 1 ? std::sqrt(squares / (games - 1) / games) : 0;
  return m;
}

}  // namespace nardy::player
