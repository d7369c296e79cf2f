// drop16 moves / show: the legal moves of a position, and the position as a board.
#include <iostream>

#include "app/command.h"
#include "rules/drop/notation.h"

namespace app {

namespace {

// Applies the moves given with --moves (space separated) to the setup's position, in order.
void play_moves(Setup& s, const std::vector<std::string>& moves) {
  for (const std::string& text : moves)
    s.game->make(s.position, drop::parse_move(*s.game, s.position, text));
}

struct MovesOptions {
  PositionOptions position;
  std::vector<std::string> moves;
};

void add_moves_option(CLI::App& cmd, MovesOptions& o) {
  cmd.add_option("--moves", o.moves, "moves to play first, in order (e.g. --moves N@a1 q@d4)");
}

void run_moves(const MovesOptions& o) {
  Setup s = make_setup(o.position);
  play_moves(s, o.moves);
  drop::MoveList list;
  s.game->generate(s.position, list);
  std::vector<std::string> names;
  for (drop::Move m : list) names.push_back(drop::move_name(s.game->geometry(), m));
  if (o.position.json) {
    nlohmann::ordered_json j;
    j["variant"] = s.game->variant().name();
    j["fen"] = drop::to_fen(*s.game, s.position);
    j["terminal"] = names.empty();
    j["moves"] = names;
    std::cout << j.dump() << std::endl;
    return;
  }
  for (const auto& name : names) std::cout << name << "\n";
  std::cout << names.size() << " legal moves" << (names.empty() ? ": the side to move loses" : "")
            << std::endl;
}

void run_show(const MovesOptions& o) {
  Setup s = make_setup(o.position);
  play_moves(s, o.moves);
  const std::string fen = drop::to_fen(*s.game, s.position);
  if (o.position.json) {
    nlohmann::ordered_json j;
    j["variant"] = s.game->variant().name();
    j["fen"] = fen;
    j["board"] = drop::board_diagram(*s.game, s.position);
    j["terminal"] = s.game->is_terminal(s.position);
    std::cout << j.dump() << std::endl;
    return;
  }
  std::cout << drop::board_diagram(*s.game, s.position) << "FEN: " << fen << std::endl;
}

}  // namespace

void register_moves(CLI::App& app) {
  auto o = std::make_shared<MovesOptions>();
  CLI::App* cmd = app.add_subcommand("moves", "list the legal moves of a position");
  add_position_options(*cmd, o->position);
  add_moves_option(*cmd, *o);
  cmd->callback([o] { run_moves(*o); });
}

void register_show(CLI::App& app) {
  auto o = std::make_shared<MovesOptions>();
  CLI::App* cmd = app.add_subcommand("show", "print a position as a board");
  add_position_options(*cmd, o->position);
  add_moves_option(*cmd, *o);
  cmd->callback([o] { run_show(*o); });
}

}  // namespace app
