// drop16 probe library: the value and distance to end of positions read from a directory of
// tables that `drop16 solve --variant V --tables DIR` built, of any game that has tables on disk
// (the Drop 16 family's tier tables, Spock's keyed tables, the rook race's loopy tier tables:
// `drop16 games`).
// Find it with CMake:
//
//   find_package(drop16 REQUIRED)
//   target_link_libraries(your_target PRIVATE drop16::probe)
//
// Positions and moves are text, as drop16 prints them (FEN "3/1N1/3[BKnbk] b", moves "N@b2",
// "a1b2"). A value is for the side to move; a move's value is what it gives the side that plays
// it: "win", "draw" (the games with cycles: neither side can force an end) or "loss". The DTE
// counts plies to the end of the game with best play (the winner hastens, the loser delays); a
// draw has none (0 here). In the Drop 16 family it is odd for a win and even for a loss.
//
// Errors are exceptions of the standard classes: std::invalid_argument for a FEN that does not
// parse as the tables' variant or a position the tables do not hold (another material, beyond
// endgame tables, a tier not solved yet); std::runtime_error for a directory without tables or a
// damaged table file (what() names it).
//
// A Tables keeps every table block it has decoded (up to cache_bytes), so probing many positions
// decompresses each block once. It is not thread-safe: open one per thread.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

// The library exports this API only (it is built with hidden symbols).
#define DROP16_PROBE_API __attribute__((visibility("default")))

namespace drop16 {

struct MoveValue {
  std::string move;   // e.g. "N@b2"
  bool win;           // for the side that plays it
  int dte;            // plies to the end after the move (0 for a draw)
  std::string value;  // "win", "draw" or "loss"
};

struct Answer {
  std::string variant;           // e.g. "3x3:NBK"
  std::string fen;               // the position, as drop16 writes it
  bool win;                      // for the side to move
  int dte;                       // plies to the end (0 for a draw)
  std::vector<MoveValue> moves;  // every legal move, from analyze() only
  std::string value;             // "win", "draw" or "loss"
};

class DROP16_PROBE_API Tables {
 public:
  static constexpr std::uint64_t kDefaultCacheBytes = std::uint64_t{1} << 30;

  // Opens the tables in `dir` (their variant is the one their files name).
  explicit Tables(const std::string& dir, std::uint64_t cache_bytes = kDefaultCacheBytes);
  ~Tables();
  Tables(Tables&&) noexcept;
  Tables& operator=(Tables&&) noexcept;

  std::string variant() const;
  // The position's value and DTE.
  Answer probe(std::string_view fen);
  // The same and every legal move's value and DTE.
  Answer analyze(std::string_view fen);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace drop16
