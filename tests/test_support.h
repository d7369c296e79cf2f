// Helpers several test files share: a scratch directory, random positions reached by play, board
// images made by hand, and threads for stress tests.
#pragma once

#include <pthread.h>
#include <sched.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include "rules/drop/game.h"

namespace test_support {

// Rounds for a stress test that hunts a data race. ThreadSanitizer (DROP16_TSAN) reports a race
// from any unordered pair of accesses, so a few rounds do; without it a race only shows when the
// threads collide in real time, which on a loaded machine takes many.
#ifdef DROP16_TSAN
inline constexpr int kRaceRounds = 1;
#else
inline constexpr int kRaceRounds = 10;
#endif

// Pins the calling thread to the n-th of the CPUs this process may use (n modulo their number).
inline void pin_to_cpu(int n) {
  cpu_set_t allowed;
  if (::sched_getaffinity(0, sizeof allowed, &allowed) != 0) return;
  for (int cpu = 0, seen = 0; cpu < CPU_SETSIZE; ++cpu)
    if (CPU_ISSET(cpu, &allowed) && seen++ == n % CPU_COUNT(&allowed)) {
      cpu_set_t one;
      CPU_ZERO(&one);
      CPU_SET(cpu, &one);
      ::pthread_setaffinity_np(::pthread_self(), sizeof one, &one);
      return;
    }
}

// Runs body(i) on threads i = 0..n-1, all starting at once, each pinned to its own CPU (while
// there are enough): on a busy machine, threads left to the scheduler often take turns on one
// core, and then a race between them never shows.
template <typename Body>
void run_together(int n, Body body) {
  std::atomic<int> ready{0};
  std::vector<std::thread> threads;
  for (int i = 0; i < n; ++i)
    threads.emplace_back([&, i] {
      pin_to_cpu(i);
      ready.fetch_add(1);
      while (ready.load() < n) {
      }
      body(i);
    });
  for (std::thread& t : threads) t.join();
}

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

#ifdef DROP16_VECTORS_DIR
// The data lines of a file of ../shared/vectors/: comments ('#') and blank lines left out, a
// Windows line end dropped. Empty when the file cannot be read.
inline std::vector<std::string> vector_lines(const std::string& file_name) {
  std::ifstream in(std::filesystem::path(DROP16_VECTORS_DIR) / file_name);
  std::vector<std::string> out;
  for (std::string line; std::getline(in, line);) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (!line.empty() && line[0] != '#') out.push_back(line);
  }
  return out;
}
#endif

// The text with 1 to 3 random edits, each a character of `alphabet` inserted or put in place of
// one, or a character removed: malformed input for the parsers' never-a-crash tests.
template <typename Rng>
std::string mangled(std::string text, std::string_view alphabet, Rng& rng) {
  for (int edits = 1 + int(rng() % 3); edits > 0; --edits) {
    const std::size_t at = rng() % (text.size() + 1);
    const char ch = alphabet[rng() % alphabet.size()];
    switch (rng() % 3) {
      case 0:
        text.insert(at, 1, ch);
        break;
      case 1:
        if (at < text.size()) text.erase(at, 1);
        break;
      default:
        if (at < text.size()) text[at] = ch;
    }
  }
  return text;
}

}  // namespace test_support
