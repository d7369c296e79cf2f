// drop16 moves / show: the legal moves of a position, and the position as a board. A dice game's
// position (registry DiceEntry) still to roll lists each roll with its weight and number of
// plays instead; one rolled lists its plays, each with the position it leads to; --roll sets the
// dice, replacing the FEN's.
#include <iostream>

#include "app/command.h"
#include "app/dice_game.h"
#include "app/games.h"

namespace app {

namespace {

struct MovesOptions {
  PositionOptions position;
  std::vector<std::string> moves;
  std::optional<std::string> roll;  // a dice game's roll
};

void add_moves_options(CLI::App& cmd, MovesOptions& o) {
  cmd.add_option("--moves", o.moves, "moves to play first, in order (e.g. --moves N@a1 q@d4)");
  only_for(cmd.add_option("--roll", o.roll, "the dice (e.g. 6-5), replacing the FEN's"),
           {.dice = true, .what = "dice"});
}

// Plays the moves given with --moves (space separated) from the setup's position, in order; in a
// dice game sets the roll instead (its plays need their rolls).
template <typename E, typename G = typename E::Game>
void prepare(const MovesOptions& o, GameSetup<G>& s) {
  if constexpr (E::info.dice) {
    if (!o.moves.empty())
      throw UsageError("--moves: " + std::string(E::info.title) +
                       "'s plays need their rolls; give the position with --fen");
    set_roll<E>(s, o.roll);
  } else {
    for (const std::string& text : o.moves)
      s.game->make(s.position, E::parse_move(*s.game, s.position, text));
  }
}

// A dice game's position (dice_moves_json) as text: its points if it is over, its rolls if it is
// still to roll, else its plays and where each leads.
template <typename E, typename G = typename E::Game>
void print_dice_moves(const GameSetup<G>& s, bool json) {
  const nlohmann::ordered_json j = dice_moves_json<E>(s);
  if (json) {
    print_json(j);
  } else if (j["terminal"]) {
    std::cout << end_text<E>(*s.game, s.position) << std::endl;
  } else if (j.contains("rolls")) {
    std::uint64_t total_weight = 0;
    for (const auto& r : j["rolls"]) total_weight += r["weight"].get<std::uint64_t>();
    for (const auto& r : j["rolls"])
      std::cout << r["roll"].get<std::string>() << " (" << r["weight"] << "/" << total_weight
                << "): " << r["plays"] << " plays\n";
    std::cout << j["plays"] << " plays over the " << j["rolls"].size() << " rolls" << std::endl;
  } else {
    for (std::size_t i = 0; i < j["moves"].size(); ++i)
      std::cout << j["moves"][i].get<std::string>() << "  ->  "
                << j["results"][i].get<std::string>() << "\n";
    std::cout << j["moves"].size() << " legal plays with " << j["roll"].get<std::string>()
              << std::endl;
  }
}

// What the listing says of a finished position: the entry's result (end_text), or else the
// two-player reading, that the side to move has lost.
template <typename E, typename G = typename E::Game>
std::string end_text_of(const G& game, const typename G::Position& p) {
  if constexpr (requires { E::end_text(game, p); })
    return E::end_text(game, p);
  else
    return "the side to move has lost";
}

template <typename E, typename G = typename E::Game>
void run_moves(const MovesOptions& o, GameSetup<G>& s) {
  prepare<E>(o, s);
  if constexpr (E::info.dice) {
    print_dice_moves<E>(s, o.position.json);
  } else {
    typename G::MoveList list;
    s.game->generate(s.position, list);
    std::vector<std::string> names;
    for (int i = 0; i < list.size(); ++i)
      names.push_back(registry::move_text<E>(*s.game, s.position, list[i]));
    if (o.position.json) {
      nlohmann::ordered_json j;
      j["variant"] = E::variant_name(*s.game);
      j["fen"] = E::fen(*s.game, s.position);
      j["terminal"] = s.game->is_terminal(s.position);
      j["moves"] = names;
      std::cout << j.dump() << std::endl;
      return;
    }
    for (const auto& name : names) std::cout << name << "\n";
    std::cout << names.size() << " legal moves"
              << (s.game->is_terminal(s.position) ? ": " + end_text_of<E>(*s.game, s.position)
                                                  : std::string())
              << std::endl;
  }
}

template <typename E, typename G = typename E::Game>
void run_show(const MovesOptions& o, GameSetup<G>& s) {
  prepare<E>(o, s);
  const std::string fen = E::fen(*s.game, s.position);
  if (o.position.json) {
    nlohmann::ordered_json j;
    j["variant"] = E::variant_name(*s.game);
    j["fen"] = fen;
    j["board"] = E::diagram(*s.game, s.position);
    j["terminal"] = s.game->is_terminal(s.position);
    if constexpr (E::info.dice)
      if (s.game->is_terminal(s.position)) j["points"] = points_json<E>(*s.game, s.position);
    std::cout << j.dump() << std::endl;
    return;
  }
  std::cout << E::diagram(*s.game, s.position) << "FEN: " << fen << std::endl;
}

}  // namespace

void register_moves(CLI::App& app) {
  auto o = std::make_shared<MovesOptions>();
  CLI::App* cmd = app.add_subcommand("moves", "list the legal moves of a position");
  add_position_options(*cmd, o->position);
  add_moves_options(*cmd, *o);
  cmd->callback([cmd, o] {
    with_game<registry::Command::moves>(*cmd, o->position,
                                        [&](auto e, auto& s) { run_moves<decltype(e)>(*o, s); });
  });
}

void register_show(CLI::App& app) {
  auto o = std::make_shared<MovesOptions>();
  CLI::App* cmd = app.add_subcommand("show", "print a position as a board");
  add_position_options(*cmd, o->position);
  add_moves_options(*cmd, *o);
  cmd->callback([cmd, o] {
    with_game<registry::Command::show>(*cmd, o->position,
                                       [&](auto e, auto& s) { run_show<decltype(e)>(*o, s); });
  });
}

}  // namespace app
