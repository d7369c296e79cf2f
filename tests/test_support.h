// Helpers several test files share: a scratch directory, random positions reached by play, and
// board images made by hand.
#pragma once

#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <random>
#include <string>
#include <utility>
#include <vector>

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

// The board's images built by hand from coordinates (not with the engine's symmetry tables): (file,
// rank) -> new (file, rank). Square boards have the 8 rotations and reflections, others only the
// identity, the two mirrors and the half turn.
inline std::vector<drop::Position> hand_images(const drop::Game& g, const drop::Position& p) {
  const int w = g.variant().width, h = g.variant().height;
  using Map = std::pair<int, int> (*)(int, int, int, int);
  std::vector<Map> maps = {[](int f, int r, int, int) {
                             return std::pair{f, r};
                           },
                           [](int f, int r, int w1, int) {
                             return std::pair{w1 - f, r};
                           },
                           [](int f, int r, int, int h1) {
                             return std::pair{f, h1 - r};
                           },
                           [](int f, int r, int w1, int h1) {
                             return std::pair{w1 - f, h1 - r};
                           }};
  if (w == h) {
    maps.push_back([](int f, int r, int, int) { return std::pair{r, f}; });
    maps.push_back([](int f, int r, int w1, int) { return std::pair{w1 - r, f}; });
    maps.push_back([](int f, int r, int w1, int) { return std::pair{r, w1 - f}; });
    maps.push_back([](int f, int r, int w1, int) { return std::pair{w1 - r, w1 - f}; });
  }
  std::vector<drop::Position> out;
  for (Map map : maps) {
    drop::Position q;
    q.hand = p.hand;
    q.side_to_move = p.side_to_move;
    for (int r = 0; r < h; ++r)
      for (int f = 0; f < w; ++f)
        if (const auto piece = p.piece_on(r * w + f)) {
          const auto [f2, r2] = map(f, r, w - 1, h - 1);
          q.put(r2 * w + f2, *piece);
        }
    out.push_back(q);
  }
  return out;
}

}  // namespace test_support
