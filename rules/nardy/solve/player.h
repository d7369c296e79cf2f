// A Royal Nardy player: expectimax one or two plies of its own over the 21 rolls, with the exact
// one-sided bear-off database (bearoff.h) at the leaves where both sides are bearing off,
// and a simple evaluation elsewhere; and the baseline it is matched against (random legal play).
//
// Leaf evaluation (a position with the dice not rolled, from the side to roll's view, in points):
// - finished: the rules' points (terminal_value);
// - a race with both sides' home boards in the database: P(side to roll finishes first) from the
//   two exact distributions (it finishes first when it needs no more rolls than the other; each
//   side taken to play the database's play, which minimises its expected rolls, not the score);
// - otherwise P(finishes first) from the pip counts: a logistic of the lead (the other side's
//   pips - its own + 4, half a roll for being on roll) over a width growing with the race's
//   length (2 + 4% of the pips left), plus royal safety: each opposing royal blot the side to roll
//   hits with a single die or the sum of two (the direct and indirect shots of backgammon, blocks
//   ignored) is worth that chance times 1.5 points (about what eating one changes the score by),
//   and its own royal blots cost half as much (the other side rolls only after it has played).
// P(first) becomes points with the rules' royal scoring (ROYAL-NARDY.md, rules 6 and 7): with
// d = own royal checkers - the other's, a win is worth the short-nardy figure (oin 1 once the
// loser has borne off, else the mars figure it would have now: 3 if all home, 2 otherwise) times
// 2d for the side with more royal checkers, and a loss of the side with more is still worth d to
// it. These are estimates: only finished positions are exact.
//
// Search: a rolled position's plays are each valued as -V(after, depth - 1), V at a position to
// roll being the leaf evaluation at depth 0 and otherwise the mean over the 21 rolls of the best
// play's value; ties go to the first play in the rules engine's order, so the player is
// deterministic.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <random>
#include <vector>

#include "rules/nardy/game.h"
#include "rules/nardy/solve/bearoff.h"

namespace nardy::player {

class Evaluator {
 public:
  // db may be null: then races use the pip-count estimate too.
  Evaluator(const nardy::Game& game, const bearoff::OneSided* db) : game_(game), db_(db) {}
  // The side to roll's estimated points of p, whose dice are not rolled (or which is finished).
  double value(const nardy::Position& p) const;
  // Whether value(p) comes from the bear-off database (a race it holds both sides of).
  bool from_database(const nardy::Position& p) const;
  // P(the side to roll bears off first) from the database; p must be from_database.
  double first_off_probability(const nardy::Position& p) const;

 private:
  double points_from(const nardy::Position& p, double first) const;
  const nardy::Game& game_;
  const bearoff::OneSided* db_;
};

// Side s's pips: each checker's distance to off, a checker on the bar points + 1.
int pips(const nardy::Game& game, const nardy::Position& p, nardy::Side s);
// Whether some checker of a side still has an opposing checker in front of it (or on the bar).
bool in_contact(const nardy::Game& game, const nardy::Position& p);

struct Choice {
  nardy::Move move;
  double value = 0;  // the mover's estimated points after it
};

class Player {
 public:
  // depth: the player's own plies searched, 1 or 2.
  Player(const nardy::Game& game, const bearoff::OneSided* db, int depth);
  // The best play of p (dice rolled, not finished).
  Choice choose(const nardy::Position& p) const;
  // The mover's estimated points of `after`, the position one of its plays leads to.
  double value_of(const nardy::Position& after, nardy::Side mover) const;
  int depth() const { return depth_; }
  const Evaluator& evaluator() const { return eval_; }

 private:
  double to_roll_value(const nardy::Position& p, int depth) const;
  const nardy::Game& game_;
  Evaluator eval_;
  int depth_;
};

// One of p's distinct plays, uniformly at random.
nardy::Move random_play(const nardy::Game& game, const nardy::Position& p, std::mt19937_64& rng);

// A roll of two fair dice (36 equally likely outcomes), high die first.
nardy::Roll roll_dice(std::mt19937_64& rng);

struct GameRecord {
  nardy::Side player_side;         // the side the player had
  bool finished = false;           // false: stopped at the ply limit, scored 0
  std::array<int, 2> points{};     // the rules' points of the final position, [White, Black]
  int player_points = 0;           // points[player_side], 0 if unfinished
  int plies = 0;                   // plays made (passes included)
  nardy::Position final_position;  // where it ended
};

struct MatchResult {
  std::vector<GameRecord> games;
  double mean = 0;            // the player's mean points a game
  double standard_error = 0;  // of that mean: the sample deviation over sqrt(games)
  int wins = 0, losses = 0, draws = 0, unfinished = 0;
};

// Plays `games` games of the player against random play from the start, the player taking White
// in even-numbered games and Black in odd ones; game g's dice and the baseline's choices come from
// generators seeded with (seed, g), so a match is reproducible and its games independent.
// on_play, if given, sees every position with its dice rolled and the play made (for tests).
using PlayObserver = std::function<void(const nardy::Position&, const nardy::Move&)>;
MatchResult play_match(const nardy::Game& game, const Player& player, int games, std::uint64_t seed,
                       int max_plies = 10'000, const PlayObserver& on_play = {});

}  // namespace nardy::player
