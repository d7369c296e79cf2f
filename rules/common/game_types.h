// The five types every game object names for the solvers' concepts (solver/game_concept.h): a
// game class derives from GameTypes<...> instead of repeating five aliases, so what a game must
// name is said once, here, and a game's class head says in one line which types it plays with.
// Rules stay free of solver headers: this is plain aliases, checked by the concepts where used.
#pragma once

namespace common {

template <typename PositionT, typename MoveT, typename MoveListT, typename UndoT, typename KeyT>
struct GameTypes {
  using Position = PositionT;  // what make/unmake change in place
  using Move = MoveT;
  using MoveList = MoveListT;  // what generate fills
  using Undo = UndoT;          // what make returns and unmake takes back
  using Key = KeyT;            // a position's exact (canonical) key
};

}  // namespace common
