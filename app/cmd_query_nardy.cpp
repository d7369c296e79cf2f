#include <iostream>

#include "app/games.h"
#include "app/nardy_database.h"
#include "app/nardy_moves.h"
#include "app/nardy_query.h"
#include "rules/nardy/notation.h"
#include "tablebase/nardy_advice.h"

namespace app {

void add_nardy_query_options(CLI::App& cmd, NardyQueryOptions& o) {
  cmd.add_option("--roll", o.roll, "Royal Nardy: the dice (6-5), replacing the FEN's");
  auto* db = cmd.add_option("--db", o.db, "Royal Nardy: bear-off database file for the player");
  cmd.add_option("--checkers", o.checkers,
                 "Royal Nardy: instead, build a bear-off database of this many checkers")
      ->check(CLI::Range(1, 15))
      ->excludes(db);
  cmd.add_option("--depth", o.depth, "Royal Nardy: the player's own plies searched (1 or 2)")
      ->check(CLI::Range(1, 2))
      ->capture_default_str();
}

nlohmann::ordered_json nardy_query_json(const std::optional<std::string>& fen,
                                        const std::optional<std::string>& roll,
                                        const tablebase::nardy_bearoff::OneSided* db, int depth) {
  auto s = games::nardy_setup(fen);
  nardy::Position& p = s.position;
  nlohmann::ordered_json j;
  j["variant"] = kNardyVariant;
  if (s.game->is_terminal(p)) {  // the game's end: its points, exact, and no play
    if (roll) refuse_roll_at_end(*s.game, p);
    j["fen"] = nardy::to_fen(*s.game, p);
    j["board"] = nardy::board_diagram(*s.game, p);
    j["side"] = p.side_to_move == nardy::kWhite ? "w" : "b";
    j["terminal"] = true;
    add_nardy_points(j, *s.game, p);
    j["exact"] = true;
    j["source"] = "the game is over";
    return j;
  }
  if (roll) p.dice = nardy::parse_roll(*roll);
  if (!p.dice.rolled()) throw UsageError("query needs the dice: --roll 6-5 or a FEN with a roll");
  const auto advice = tablebase::nardy_advice::advise(*s.game, p, db, depth);
  const auto& best = advice.plays[advice.best];
  j["fen"] = nardy::to_fen(*s.game, p);
  j["board"] = nardy::board_diagram(*s.game, p);
  j["side"] = p.side_to_move == nardy::kWhite ? "w" : "b";
  j["terminal"] = false;
  j["roll"] = nardy::roll_text(p.dice);
  j["best_play"] = nardy::move_name(best.move);
  j["expected_points"] = best.value;
  j["exact"] = advice.exact;
  j["source"] = advice.source;
  j["plays"] = nlohmann::ordered_json::array();
  for (const auto& play : advice.plays)
    j["plays"].push_back({{"play", nardy::move_name(play.move)},
                          {"fen", nardy::to_fen(*s.game, play.after)},
                          {"expected_points", play.value}});
  return j;
}

void run_nardy_query(const PositionOptions& position, const NardyQueryOptions& o) {
  const auto database = nardy_database(o.db, o.checkers);
  const auto j = nardy_query_json(position.fen, o.roll, database ? &*database : nullptr, o.depth);
  if (position.json) {
    print_json(j);
    return;
  }
  if (j["terminal"]) {  // the board's last line says the game is over, with the points
    std::cout << j["board"].get<std::string>() << "FEN: " << j["fen"].get<std::string>()
              << std::endl;
    return;
  }
  std::cout << j["board"].get<std::string>() << "FEN: " << j["fen"].get<std::string>() << "\n"
            << (j["side"] == "w" ? "White" : "Black") << " to play " << j["roll"].get<std::string>()
            << "\nbest play: " << j["best_play"].get<std::string>() << ", expected points "
            << j["expected_points"].get<double>() << " (" << j["source"].get<std::string>() << ")"
            << std::endl;
}

}  // namespace app
