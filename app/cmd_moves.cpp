// drop16 moves / show: the legal moves of a position, and the position as a board.
#include <iostream>

#include "app/command.h"
#include "app/games.h"
#include "app/nardy_moves.h"

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
  std::optional<std::string> roll;  // Royal Nardy's dice
};

void add_moves_option(CLI::App& cmd, MovesOptions& o) {
  cmd.add_option("--moves", o.moves, "moves to play first, in order (e.g. --moves N@a1 q@d4)");
  cmd.add_option("--roll", o.roll, "Royal Nardy: the dice (e.g. 6-5), replacing the FEN's");
}

// Royal Nardy, or the games with_game serves (which have no dice).
template <typename Nardy, typename Other>
void dispatch(const MovesOptions& o, Nardy&& nardy, Other&& other) {
  if (names_nardy(o.position.variant)) {
    if (!o.moves.empty())
      throw UsageError(
          "--moves: Royal Nardy's plays need their rolls; give the position with --fen");
    auto s = games::nardy_setup(o.position.fen);
    nardy(s);
    return;
  }
  if (o.roll) throw UsageError("--roll: only Royal Nardy (--variant nardy) has dice");
  with_game(o.position, "moves and show", other);
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
  cmd->callback([o] {
    dispatch(
        *o, [&](auto& s) { print_nardy_moves(s, o->roll, o->position.json); },
        [&](auto& s) { run_moves(*o, s); });
  });
}

void register_show(CLI::App& app) {
  auto o = std::make_shared<MovesOptions>();
  CLI::App* cmd = app.add_subcommand("show", "print a position as a board");
  add_position_options(*cmd, o->position);
  add_moves_option(*cmd, *o);
  cmd->callback([o] {
    dispatch(
        *o, [&](auto& s) { print_nardy_show(s, o->roll, o->position.json); },
        [&](auto& s) { run_show(*o, s); });
  });
}

}  // namespace app
