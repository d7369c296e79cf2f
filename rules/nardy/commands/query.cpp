// The dice player's query (app/dice_player.h) for Royal Nardy: its advice
// (rules/nardy/solve/advice.h) with a bear-off database at the race leaves when one is given.
#include <iostream>

#include "app/dice_game.h"
#include "app/dice_player.h"
#include "app/games.h"
#include "rules/nardy/commands/database.h"
#include "rules/nardy/solve/advice.h"

namespace nardy {

namespace {

// The answer, and the player to move (by index) for the text form.
struct Answer {
  nlohmann::ordered_json json;
  int player = 0;
};

Answer advice_json(const std::string& variant, const std::optional<std::string>& fen,
                   const std::optional<std::string>& roll, const bearoff::OneSided* db, int depth) {
  using E = Entry;
  auto s = E::setup(variant, fen);
  app::set_roll<E>(s, roll);
  const auto& p = s.position;
  const auto& g = *s.game;
  nlohmann::ordered_json j;
  j["variant"] = E::variant_name(g);
  if (g.is_terminal(p)) {  // the game's end: its points, exact, and no play
    j["fen"] = E::fen(g, p);
    j["board"] = E::diagram(g, p);
    j["side"] = std::string(1, E::kPlayers[g.player_to_move(p)][0]);
    j["terminal"] = true;
    j["points"] = app::points_json<E>(g, p);
    j["exact"] = true;
    j["source"] = "the game is over";
    return {j, g.player_to_move(p)};
  }
  if (!E::rolled(p))
    throw app::UsageError("the dice are not rolled: give --roll 6-5, or a FEN with a roll");
  const auto advice = advice::advise(g, p, db, depth);
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

}  // namespace nardy

template <>
nlohmann::ordered_json app::dice_player_json<nardy::Entry>(const std::string& variant,
                                                           const std::optional<std::string>& fen,
                                                           const std::optional<std::string>& roll,
                                                           int depth) {
  return nardy::advice_json(variant, fen, roll, nullptr, depth).json;
}

template <>
void app::run_dice_player_query<nardy::Entry>(const PositionOptions& position,
                                              const DicePlayerOptions& o) {
  const auto database = nardy::database_of(o.db, o.checkers);
  const nardy::Answer a = nardy::advice_json(position.variant, position.fen, o.roll,
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
}
