#include "app/dice_player.h"

namespace app {

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

}  // namespace app
