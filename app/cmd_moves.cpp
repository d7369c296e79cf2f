// drop16 moves / show: the legal moves of a position, and the position as a board.
#include <iostream>

#include "app/command.h"
#include "app/games.h"

namespace app {

namespace {

// Applies the moves given with --moves (space separated) to the setup's position, in order.
template <typename G>
void play_moves(GameSetup<G>& s, const std::vector<std::string>& moves) {
  for (const std::string& text : moves)
    s.game->make(s.position, parse_move_text(*s.game, s.position, text));
}

struct MovesOptions {
  PositionOptions position;
  std::vector<std::string> moves;
};

void add_moves_option(CLI::App& cmd, MovesOptions& o) {
  cmd.add_option("--moves", o.moves, "moves to play first, in order (e.g. --moves N@a1 q@d4)");
}

template <typename G>
void run_moves(const MovesOptions& o, GameSetup<G>& s) {
  play_moves(s, o.moves);
  typename G::MoveList list;
  s.game->generate(s.position, list);
  std::vector<std::string> names;
  for (int i = 0; i < list.size(); ++i) names.push_back(move_text(*s.game, list[i]));
  if (o.position.json) {
    nlohmann::ordered_json j;
    j["variant"] = variant_name(*s.game);
    j["fen"] = fen_text(*s.game, s.position);
    j["terminal"] = s.game->is_terminal(s.position);
    j["moves"] = names;
    std::cout << j.dump() << std::endl;
    return;
  }
  for (const auto& name : names) std::cout << name << "\n";
  std::cout << names.size() << " legal moves"
            << (s.game->is_terminal(s.position) ? ": the side to move has lost" : "") << std::endl;
}

template <typename G>
void run_show(const MovesOptions& o, GameSetup<G>& s) {
  play_moves(s, o.moves);
  const std::string fen = fen_text(*s.game, s.position);
  if (o.position.json) {
    nlohmann::ordered_json j;
    j["variant"] = variant_name(*s.game);
    j["fen"] = fen;
    j["board"] = diagram_text(*s.game, s.position);
    j["terminal"] = s.game->is_terminal(s.position);
    std::cout << j.dump() << std::endl;
    return;
  }
  std::cout << diagram_text(*s.game, s.position) << "FEN: " << fen << std::endl;
}

}  // namespace

void register_moves(CLI::App& app) {
  auto o = std::make_shared<MovesOptions>();
  CLI::App* cmd = app.add_subcommand("moves", "list the legal moves of a position");
  add_position_options(*cmd, o->position);
  add_moves_option(*cmd, *o);
  cmd->callback([o] { with_game(o->position, [&](auto& s) { run_moves(*o, s); }); });
}

void register_show(CLI::App& app) {
  auto o = std::make_shared<MovesOptions>();
  CLI::App* cmd = app.add_subcommand("show", "print a position as a board");
  add_position_options(*cmd, o->position);
  add_moves_option(*cmd, *o);
  cmd->callback([o] { with_game(o->position, [&](auto& s) { run_show(*o, s); }); });
}

}  // namespace app
