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

void print_nardy_moves(GameSetup<nardy::Game>& s, const std::optional<std::string>& roll,
                       bool json) {
  set_roll(s, roll);
  const nardy::Game& g = *s.game;
  nardy::Position& p = s.position;
  nlohmann::ordered_json j;
  j["variant"] = kNardyVariant;
  j["fen"] = nardy::to_fen(g, p);
  j["terminal"] = g.is_terminal(p);
  if (g.is_terminal(p)) {
    add_nardy_points(j, g, p);
    if (json)
      print_json(j);
    else
      std::cout << nardy::end_text(g, p) << std::endl;
    return;
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
      if (!json)
        std::cout << nardy::roll_text(w.roll) << " (" << w.weight << "/36): " << n << " plays\n";
    }
    j["plays"] = total;
    if (json)
      print_json(j);
    else
      std::cout << total << " plays over the 21 rolls" << std::endl;
    return;
  }
  nardy::MoveList plays;
  g.generate(p, plays);
  std::vector<std::string> names, results;
  for (const nardy::Move& m : plays) {
    nardy::Position q = p;
    g.make(q, m);
    names.push_back(nardy::move_name(m));
    results.push_back(nardy::to_fen(g, q));
  }
  j["roll"] = nardy::roll_text(p.dice);
  j["moves"] = names;
  j["results"] = results;
  if (json) {
    print_json(j);
    return;
  }
  for (std::size_t i = 0; i < names.size(); ++i)
    std::cout << names[i] << "  ->  " << results[i] << "\n";
  std::cout << names.size() << " legal plays with " << nardy::roll_text(p.dice) << std::endl;
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
