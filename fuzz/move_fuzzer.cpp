// libFuzzer target for the move parser. The first byte picks one of eight fixed positions
// (start, middle games, terminal, non-square and 8x4 boards); the rest is the move
// text. A move the parser accepts must be one of the generated legal moves and print back to
// itself; a rejection must be a drop::ParseError, and never of the name of a legal move.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "rules/drop/game.h"
#include "rules/drop/notation.h"
#include "rules/drop/parse_error.h"

namespace {

struct Setup {
  const char* variant;
  const char* fen;
};
// Eight positions: with printable seeds, '0'..'7' as the first byte select them in order.
const Setup kSetups[] = {
    {"drop16", "4/4/4/4[NNBBRRQKnnbbrrqk] w"},
    {"drop16", "1RBq/Qr1N/b1r1/1n2[B] b"},
    {"drop16", "b1n1/NNKq/B3/R1bR[] w"},
    {"drop16", "N3/4/4/3n[] w"},  // terminal
    {"drop16", "br2/BQR1/Kb2/N2k[NBRnnq] b"},
    {"3x2:NNBK/nk", "k2/1K1[NNBn] w"},
    {"1x5:RQK", "k/K/r/1/R[Q] w"},
    // 32 squares, the most a board can have here until the geometry bug (README.md) is fixed.
    {"8x4:NNBBRRQK", "3r3b/nR1Q3B/5n2/3k4[NBRKbrq] w"},
};
constexpr int kSetupCount = sizeof(kSetups) / sizeof(kSetups[0]);

[[noreturn]] void fail(const char* what, const std::string& detail) {
  std::fprintf(stderr, "move_fuzzer: %s: %s\n", what, detail.c_str());
  std::abort();
}

struct Prepared {
  drop::Game game;
  drop::Position position;
  std::vector<std::string> legal_names;
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  static const auto* prepared = [] {
    auto* v = new std::vector<Prepared>;
    for (const Setup& s : kSetups) {
      drop::Game g(drop::parse_variant(s.variant));
      const drop::Position p = drop::parse_fen(g, s.fen);
      drop::MoveList list;
      g.generate(p, list);
      std::vector<std::string> names;
      for (drop::Move m : list) names.push_back(drop::move_name(g.geometry(), m));
      v->push_back({std::move(g), p, std::move(names)});
    }
    return v;
  }();
  const Prepared& s = (*prepared)[data[0] % kSetupCount];
  const drop::Game& g = s.game;
  const std::string text(reinterpret_cast<const char*>(data) + 1, size - 1);
  const bool is_legal_name =
      std::find(s.legal_names.begin(), s.legal_names.end(), text) != s.legal_names.end();

  drop::Move m{};
  try {
    m = drop::parse_move(g, s.position, text);
  } catch (const drop::ParseError& e) {
    if (is_legal_name) fail("a legal move was rejected", text + ": " + e.what());
    return 0;
  }
  drop::MoveList list;
  g.generate(s.position, list);
  if (std::find(list.begin(), list.end(), m) == list.end())
    fail("accepted a move that is not legal", text);
  if (drop::move_name(g.geometry(), m) != text && is_legal_name)
    fail("name of a legal move parsed to another move", text);
  drop::Position p = s.position;
  const drop::Undo u = g.make(p, m);
  g.unmake(p, m, u);
  if (!(p == s.position)) fail("unmake did not restore", text);
  return 0;
}
