#include <iostream>

#include "app/nardy_moves.h"
#include "rules/nardy/notation.h"

namespace app {

namespace {

void set_roll(GameSetup<nardy::Game>& s, const std::optional<std::string>& roll) {
  if (!roll) return;
  refuse_roll_at_end(*s.game, s.position);
  s.position.dice = nardy::parse_roll(*roll);
}

}  // namespace

void refuse_roll_at_end(const nardy::Game& game, const nardy::Position& p) {
  if (game.is_terminal(p))
    throw UsageError("--roll: " + nardy::end_text(game, p) +
                     ", so nothing is rolled; give no --roll");
}

void add_nardy_points(nlohmann::ordered_json& j, const nardy::Game& game,
                      const nardy::Position& p) {
  const auto points = game.terminal_value(p);
  j["points"] = {{"white", points[nardy::kWhite]}, {"black", points[nardy::kBlack]}};
}

nlohmann::ordered_json nardy_moves_json(GameSetup<nardy::Game>& s,
                                        const std::optional<std::string>& roll) {
  set_roll(s, roll);
  const nardy::Game& g = *s.game;
  nardy::Position& p = s.position;
  nlohmann::ordered_json j;
  j["variant"] = kNardyVariant;
  j["fen"] = nardy::to_fen(g, p);
  j["terminal"] = g.is_terminal(p);
  if (g.is_terminal(p)) {
    add_nardy_points(j, g, p);
    return j;
  }
  if (!p.dice.rolled()) {  // a chance position: each roll and its number of plays
    j["rolls"] = nlohmann::ordered_json::array();
    std::uint64_t total = 0;
    for (const nardy::WeightedRoll& w : nardy::all_rolls()) {
      nardy::Position q = p;
      g.make_chance(q, w.roll);
      const std::uint64_t n = g.count_moves(q);
      total += n;
      j["rolls"].push_back(
          {{"roll", nardy::roll_text(w.roll)}, {"weight", w.weight}, {"plays", n}});
    }
    j["plays"] = total;
    return j;
  }
  nardy::MoveList plays;
  g.generate(p, plays);
  j["roll"] = nardy::roll_text(p.dice);
  j["moves"] = nlohmann::ordered_json::array();
  j["results"] = nlohmann::ordered_json::array();
  for (const nardy::Move& m : plays) {
    nardy::Position q = p;
    g.make(q, m);
    j["moves"].push_back(nardy::move_name(m));
    j["results"].push_back(nardy::to_fen(g, q));
  }
  return j;
}

void print_nardy_moves(GameSetup<nardy::Game>& s, const std::optional<std::string>& roll,
                       bool json) {
  const auto j = nardy_moves_json(s, roll);
  if (json) {
    print_json(j);
    return;
  }
  if (j["terminal"]) {
    std::cout << nardy::end_text(*s.game, s.position) << std::endl;
  } else if (j.contains("rolls")) {
    for (const auto& r : j["rolls"])
      std::cout << r["roll"].get<std::string>() << " (" << r["weight"] << "/36): " << r["plays"]
                << " plays\n";
    std::cout << j["plays"] << " plays over the 21 rolls" << std::endl;
  } else {
    for (std::size_t i = 0; i < j["moves"].size(); ++i)
      std::cout << j["moves"][i].get<std::string>() << "  ->  "
                << j["results"][i].get<std::string>() << "\n";
    std::cout << j["moves"].size() << " legal plays with " << j["roll"].get<std::string>()
              << std::endl;
  }
}

void print_nardy_show(GameSetup<nardy::Game>& s, const std::optional<std::string>& roll,
                      bool json) {
  set_roll(s, roll);
  const std::string fen = nardy::to_fen(*s.game, s.position);
  const std::string board = nardy::board_diagram(*s.game, s.position);
  if (json) {
    nlohmann::ordered_json j;
    j["variant"] = kNardyVariant;
    j["fen"] = fen;
    j["board"] = board;
    j["terminal"] = s.game->is_terminal(s.position);
    if (s.game->is_terminal(s.position)) add_nardy_points(j, *s.game, s.position);
    print_json(j);
    return;
  }
  std::cout << board << "FEN: " << fen << std::endl;
}

}  // namespace app
