// Helpers several test files share: a scratch directory and random positions reached by play.
#pragma once

#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <random>
#include <string>

#include "rules/drop/game.h"

namespace test_support {

// A fresh directory per object, removed with it; the name says which test file made it.
struct TempDir {
  std::filesystem::path dir;
  explicit TempDir(const std::string& prefix) {
    static std::atomic<int> counter{0};
    dir = std::filesystem::temp_directory_path() /
          (prefix + "_" + std::to_string(::getpid()) + "_" + std::to_string(counter++));
    std::filesystem::create_directories(dir);
  }
  ~TempDir() { std::filesystem::remove_all(dir); }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  std::filesystem::path operator/(const std::string& name) const { return dir / name; }
};

// The position after `plies` uniformly random moves from the start (fewer if the game ends).
template <typename Rng>
drop::Position random_position(const drop::Game& game, Rng& rng, int plies) {
  drop::Position p = game.start();
  drop::MoveList moves;
  for (int i = 0; i < plies; ++i) {
    game.generate(p, moves);
    if (moves.empty()) break;
    game.make(p, moves[int(rng() % moves.size())]);
  }
  return p;
}

}  // namespace test_support
