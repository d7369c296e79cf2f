// The dice player's query (app/dice_player.h) for Royal Nardy: its advice
// (rules/nardy/solve/advice.h) with a bear-off database at the race leaves when one is given.
#include <iostream>

#include "app/dice_game.h"
#include "app/dice_player.h"
#include "app/games.h"
#include "rules/nardy/commands/database.h"
#include "rules/nardy/solve/advice.h"

namespace app {

namespace {

// The answer, and the player to move (by index) for the text form.
struct Answer {
  nlohmann::ordered_json json;
  int player = 0;
};

template <typename E>
Answer advice_json(const std::string& variant, const std::optional<std::string>& fen,
                   const std::optional<std::string>& roll, const nardy::bearoff::OneSided* db,
                   int depth) {
  auto s = E::setup(variant, fen);
  set_roll<E>(s, roll);
  const auto& p = s.position;
  const auto& g = *s.game;
  nlohmann::ordered_json j;
  j["variant"] = E::variant_name(g);
  if (g.is_terminal(p)) {  // the game's end: its points, exact, and no play
    j["fen"] = E::fen(g, p);
    j["board"] = E::diagram(g, p);
    j["side"] = std::string(1, E::kPlayers[g.player_to_move(p)][0]);
    j["terminal"] = true;
    j["points"] = points_json<E>(g, p);
    j["exact"] = true;
    j["source"] = "the game is over";
    return {j, g.player_to_move(p)};
  }
  if (!E::rolled(p))
    throw UsageError("the dice are not rolled: give --roll 6-5, or a FEN with a roll");
  const auto advice = nardy::advice::advise(g, p, db, depth);
  const auto& best = advice.plays[advice.best];
  j["fen"] = E::fen(g, p);
  j["board"] = E::diagram(g, p);
  j["side"] = std::string(1, E::kPlayers[g.player_to_move(p)][0]);
  j["terminal"] = false;
  j["roll"] = E::chance_text(*E::rolled(p));
  j["best_play"] = E::move_text(g, best.move);
  j["expected_points"] = best.value;
  j["exact"] = advice.exact;
  j["source"] = advice.source;
  j["plays"] = nlohmann::ordered_json::array();
  for (const auto& play : advice.plays)
    j["plays"].push_back({{"play", E::move_text(g, play.move)},
                          {"fen", E::fen(g, play.after)},
                          {"expected_points", play.value}});
  return {j, g.player_to_move(p)};
}

}  // namespace

void add_dice_player_options(CLI::App& cmd, DicePlayerOptions& o) {
  const OptionNeed player{.solvers = {registry::Solver::dice_player}, .what = "a dice player"};
  only_for(cmd.add_option("--roll", o.roll, "the dice (6-5), replacing the FEN's"), player);
  auto* db = only_for(
      cmd.add_option("--db", o.db, "bear-off database file for the player's race leaves"), player);
  only_for(cmd.add_option("--checkers", o.checkers,
                          "instead, build a bear-off database of this many checkers")
               ->check(CLI::Range(1, 15))
               ->excludes(db),
           player);
  only_for(cmd.add_option("--depth", o.depth, "the player's own plies searched (1 or 2)")
               ->check(CLI::Range(1, 2))
               ->capture_default_str(),
           player);
}

// Calls f(E{}) for the dice game the variant names.
template <typename F>
void with_dice_game(const std::string& variant, F&& f) {
  with_capability<registry::Solver::dice_player>(variant, f);
}

nlohmann::ordered_json dice_player_json(const std::string& variant,
                                        const std::optional<std::string>& fen,
                                        const std::optional<std::string>& roll, int depth) {
  nlohmann::ordered_json j;
  with_dice_game(variant, [&](auto e) {
    j = advice_json<decltype(e)>(variant, fen, roll, nullptr, depth).json;
  });
  return j;
}

void run_dice_player_query(const PositionOptions& position, const DicePlayerOptions& o) {
  const auto database = nardy::database_of(o.db, o.checkers);
  with_dice_game(position.variant, [&](auto e) {
    using E = decltype(e);
    const Answer a = advice_json<E>(position.variant, position.fen, o.roll,
                                    database ? &*database : nullptr, o.depth);
    const auto& j = a.json;
    if (position.json) {
      print_json(j);
      return;
    }
    if (j["terminal"]) {  // the board's last line says the game is over, with the points
      std::cout << j["board"].get<std::string>() << "FEN: " << j["fen"].get<std::string>()
                << std::endl;
      return;
    }
    // The board's last line already says who plays which roll.
    std::cout << j["board"].get<std::string>() << "FEN: " << j["fen"].get<std::string>()
              << "\nbest play: " << j["best_play"].get<std::string>() << ", expected points "
              << j["expected_points"].get<double>() << " (" << j["source"].get<std::string>() << ")"
              << std::endl;
  });
}

}  // namespace app
