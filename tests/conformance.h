// What every game's tests check of its engine, in one place: the engine against its plain second
// implementation of the rules (the same moves, counted and tested for the end alike, each move's
// name read back, make and unmake, the position each move leads to), keys and symmetries (the
// raw key read back, one canonical key and one perft across a class of positions with the same
// game tree), the notation round trip of every position random play reaches, and bad input (each
// malformed text refused with the game's ParseError in one line; mangled text refused or read
// back, never anything else). A game's test supplies its text forms (Text), its positions and
// what its reference says of them; the checks are made here, so every game is held to the same
// ones. Drop 16's family (tests/rules_test.cpp, reference_test.cpp), Spock, the rook race, Royal
// Nardy and Nevsky use it.
#pragma once

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <functional>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "solver/chance.h"
#include "solver/perft.h"

namespace conformance {

// A game's text forms, as its notation.h spells them. A move is named at the position it is
// played from (Nevsky's names need it; the other games' ignore it).
template <typename G>
struct Text {
  using Position = typename G::Position;
  using Move = typename G::Move;
  std::function<std::string(const Position&)> position;
  std::function<Position(const std::string&)> parse_position;
  std::function<std::string(const Position&, const Move&)> move;
  std::function<Move(const Position&, const std::string&)> parse_move;
};

// The names of the engine's moves at p, sorted; a move generated twice is named twice.
template <typename G>
std::vector<std::string> move_names(const G& game, const typename G::Position& p,
                                    const Text<G>& text) {
  typename G::MoveList list;
  game.generate(p, list);
  std::vector<std::string> names;
  for (int i = 0; i < list.size(); ++i) names.push_back(text.move(p, list[i]));
  std::sort(names.begin(), names.end());
  return names;
}

// Called with each move's name and the position it leads to, for the test to compare with its
// reference's play.
template <typename G>
using AfterMove = std::function<void(const std::string& name, const typename G::Position& after)>;

// p against its reference, whose legal moves by name (any order) are `expected`: the engine's
// moves are those, each once; count_moves and is_terminal agree with them; each move's name
// parses back to the move at p; make then unmake gives p back; and `after`, when given, sees the
// position each move leads to. Returns the moves checked.
template <typename G>
int check_moves(const G& game, const typename G::Position& p, const Text<G>& text,
                std::vector<std::string> expected,
                const std::type_identity_t<AfterMove<G>>& after = {}) {
  std::sort(expected.begin(), expected.end());
  REQUIRE(move_names(game, p, text) == expected);
  CHECK(game.count_moves(p) == expected.size());
  CHECK(game.is_terminal(p) == expected.empty());
  typename G::MoveList list;
  game.generate(p, list);
  typename G::Position q = p;
  for (int i = 0; i < list.size(); ++i) {
    const auto m = list[i];
    const std::string name = text.move(p, m);
    INFO("move " << name);
    CHECK(text.parse_move(p, name) == m);
    const auto undo = game.make(q, m);
    if (after) after(name, q);
    game.unmake(q, m, undo);
    REQUIRE(q == p);
  }
  return list.size();
}

// A move worked out by hand from the rules: `move` played from `fen` gives `after`, in the
// engine (its position printed) and in the reference (`reference_after`, its own play's text of
// the result), and unmake gives the engine's position back.
struct WorkedMove {
  const char *fen, *move, *after;
};
template <typename G>
void check_worked_move(const G& game, const Text<G>& text, const WorkedMove& c,
                       const std::string& reference_after) {
  INFO(c.fen << " " << c.move);
  auto p = text.parse_position(c.fen);
  const auto before = p;
  const auto m = text.parse_move(p, c.move);
  const auto undo = game.make(p, m);
  CHECK(text.position(p) == c.after);
  CHECK(reference_after == c.after);
  game.unmake(p, m, undo);
  CHECK(p == before);
}

// A class of positions with the same game tree, p and its `images` (its board's symmetries, its
// colours swapped: built by the test without the engine's keys): p's raw key reads back to p,
// every image has p's canonical key, and p's perft to `depth`.
template <typename G>
void check_same_class(const G& game, const typename G::Position& p,
                      const std::vector<typename G::Position>& images, int depth) {
  CHECK(game.from_key(game.raw_key(p)) == p);
  typename G::Position start = p;
  const std::uint64_t nodes = solver::perft(game, start, depth);
  for (std::size_t k = 0; k < images.size(); ++k) {
    INFO("image " << k);
    typename G::Position q = images[k];
    CHECK(game.canonical_key(q) == game.canonical_key(p));
    CHECK(solver::perft(game, q, depth) == nodes);
  }
}

struct RoundTrips {
  int positions = 0;  // checked, ends included
  int ends = 0;       // terminal positions among them
};

// The boards a plain reference engine's random walk from `start` passes, as `print` writes
// them: `start`, then up to `max_plies` random legal moves (fewer if the game ends). The engine
// is found in Board's namespace (argument-dependent lookup): legal_moves(board), play(board,
// move).
template <typename Board, typename Print>
std::vector<std::string> random_walk(Board b, int max_plies, std::mt19937& rng, Print print) {
  std::vector<std::string> out{print(b)};
  for (int i = 0; i < max_plies; ++i) {
    const auto moves = legal_moves(b);
    if (moves.empty()) break;
    b = play(b, moves[rng() % moves.size()]);
    out.push_back(print(b));
  }
  return out;
}

// Plays `games` random games from `start`, each until it ends or for `plies` plies (a roll of the
// dice counts as one; a game with chance, solver/chance.h, rolls with its own odds), and checks
// on every position met, the first and the last included, that parse(print(p)) == p and
// print(parse(print(p))) == print(p). print: Position -> std::string; parse: std::string ->
// Position (throwing on text it refuses, which fails the test).
template <typename G, typename Print, typename Parse>
RoundTrips check_round_trips(const G& game, const typename G::Position& start, int games, int plies,
                             std::mt19937_64& rng, Print&& print, Parse&& parse) {
  RoundTrips seen;
  const auto check = [&](const typename G::Position& p) {
    const std::string text = print(p);
    INFO("position: " << text);
    typename G::Position back;
    REQUIRE_NOTHROW(back = parse(text));
    CHECK(back == p);
    CHECK(print(back) == text);
    ++seen.positions;
    if (game.is_terminal(p)) ++seen.ends;
  };
  for (int n = 0; n < games; ++n) {
    typename G::Position p = start;
    check(p);
    for (int ply = 0; ply < plies && !game.is_terminal(p); ++ply) {
      if constexpr (solver::ChanceGame<G>) {
        if (game.is_chance(p)) {  // an outcome drawn with its weight
          typename G::ChanceList outcomes;
          game.chances(p, outcomes);
          std::uint64_t total = 0;
          for (int i = 0; i < outcomes.size(); ++i) total += outcomes[i].weight;
          std::uint64_t pick = rng() % total;
          int i = 0;
          while (pick >= outcomes[i].weight) pick -= outcomes[i++].weight;
          game.make_chance(p, outcomes[i].outcome);
          check(p);
          continue;
        }
      }
      typename G::MoveList moves;
      game.generate(p, moves);
      if (moves.size() == 0) break;
      game.make(p, moves[int(rng() % std::uint64_t(moves.size()))]);
      check(p);
    }
  }
  return seen;
}

// Each text is refused: parse(text) throws Error, the game's ParseError, with a message of one
// line that starts with `starts` (empty: anything). Returns how many were checked.
template <typename Error, typename Parse>
int check_refused(const std::vector<std::string>& texts, Parse&& parse,
                  std::string_view starts = {}) {
  for (const std::string& text : texts) {
    INFO("'" << text << "'");
    try {
      (void)parse(text);
      FAIL_CHECK("accepted");
    } catch (const Error& e) {
      const std::string message = e.what();
      CHECK(message.find('\n') == std::string::npos);
      CHECK(message.starts_with(starts));
    }
  }
  return int(texts.size());
}

struct Mangled {
  int accepted = 0, refused = 0;
};

// `count` texts from make_text(): each either parses, and then its printed form parses back to
// the same value (and `accepted` sees the value, to try more input on it), or throws Error with a
// message of one line; nothing else, no crash. Returns how many were accepted and refused, for
// the test to require enough of each.
template <typename Error, typename Make, typename Parse, typename Print, typename Accepted>
Mangled check_mangled(int count, Make&& make_text, Parse&& parse, Print&& print,
                      Accepted&& accepted) {
  Mangled seen;
  for (int i = 0; i < count; ++i) {
    const std::string text = make_text();
    INFO("'" << text << "'");
    std::optional<decltype(parse(text))> value;
    try {
      value = parse(text);
    } catch (const Error& e) {
      CHECK(std::string(e.what()).find('\n') == std::string::npos);
      ++seen.refused;
      continue;
    }
    CHECK(parse(print(*value)) == *value);
    ++seen.accepted;
    accepted(*value);
  }
  return seen;
}

template <typename Error, typename Make, typename Parse, typename Print>
Mangled check_mangled(int count, Make&& make_text, Parse&& parse, Print&& print) {
  return check_mangled<Error>(count, make_text, parse, print, [](const auto&) {});
}

}  // namespace conformance
