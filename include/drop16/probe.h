// drop16 probe library: the value and distance to end of positions read from a directory of
// tables that `drop16 solve --variant V --tables DIR` built, of any game whose values are wins,
// draws and losses (`drop16 games` lists each game's table formats; the tables of a game valued
// per coalition are read by `drop16 query --tables` only, and refused here when opened).
// Find it with CMake:
//
//   find_package(drop16 REQUIRED)
//   target_link_libraries(your_target PRIVATE drop16::probe)
//
// Positions and moves are text, as drop16 prints them (FEN "3/1N1/3[BKnbk] b", moves "N@b2",
// "a1b2"). A value is for the side to move; a move's value is what it gives the side that plays
// it: a win, a draw (the games with cycles: neither side can force an end) or a loss. The DTE
// counts plies from the position to the end of the game with best play (the winner hastens, the
// loser delays), a move's DTE the move included; a draw has none (0 here). In the Drop 16 family
// it is odd for a win and even for a loss. analyze() lists the moves best first: the quickest
// win, then slower wins, draws, the slowest loss, then quicker losses.
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

enum class Value { loss, draw, win };

// "win", "draw" or "loss", as drop16 prints a value.
inline const char* value_name(Value v) {
  return v == Value::win ? "win" : v == Value::draw ? "draw" : "loss";
}

struct MoveValue {
  std::string move;  // e.g. "N@b2"
  Value value;       // for the side that plays it
  int dte;           // plies to the end from the position, this move first (0 for a draw)
};

struct Answer {
  std::string variant;           // e.g. "3x3:NBK"
  std::string fen;               // the position, as drop16 writes it
  Value value;                   // for the side to move
  int dte;                       // plies to the end (0 for a draw)
  std::vector<MoveValue> moves;  // every legal move, best first, from analyze() only
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
