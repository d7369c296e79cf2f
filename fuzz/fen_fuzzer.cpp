// libFuzzer target for the FEN parser. The first byte picks a variant from a small fixed list
// (boards of several shapes, equal and different hands); the rest is the FEN text. Any input may
// be rejected, but only with drop::ParseError; an accepted FEN must describe a sound position
// that prints back to a FEN parsing to the same position, and whose moves can be generated,
// counted, made and unmade. Any other exception, a sanitizer report or a failed check is a bug.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "rules/drop/game.h"
#include "rules/drop/notation.h"
#include "rules/drop/parse_error.h"
#include "solver/perft.h"

namespace {

// Six variants: with printable seeds, '0'..'5' as the first byte select them in order. No board
// has more than 32 squares: building the geometry of one is undefined behaviour today (see
// README.md), which would stop every run at its first input.
const char* const kVariants[] = {"drop16",  "3x3:NBRK",     "5x3:NBRQK/nbr",
                                 "1x5:RQK", "8x4:NNBBRRQK", "2x2:NBRQK"};
constexpr int kVariantCount = sizeof(kVariants) / sizeof(kVariants[0]);

[[noreturn]] void fail(const char* what, const std::string& detail) {
  std::fprintf(stderr, "fen_fuzzer: %s: %s\n", what, detail.c_str());
  std::abort();
}

void check_sound(const drop::Game& g, const drop::Position& p, const std::string& input) {
  const drop::Bitboard occ = p.occupied();
  if (p.by_color[drop::kWhite] & p.by_color[drop::kBlack]) fail("colours overlap", input);
  if (occ & ~g.geometry().board_mask()) fail("piece off the board", input);
  drop::Bitboard types = 0;
  for (drop::PieceType t : drop::kAllPieceTypes) {
    if (types & p.by_type[t]) fail("two types on one square", input);
    types |= p.by_type[t];
  }
  if (types != occ) fail("type and colour sets disagree", input);
  for (drop::Color c : {drop::kWhite, drop::kBlack})
    for (drop::PieceType t : drop::kAllPieceTypes)
      if (p.count(c, t) > g.variant().max_count(c, t)) fail("more pieces than allowed", input);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  // Games are built once: the fuzzer targets the parser, not the geometry tables.
  static const auto* games = [] {
    auto* v = new std::vector<drop::Game>;
    for (const char* name : kVariants) v->emplace_back(drop::parse_variant(name));
    return v;
  }();
  const drop::Game& g = (*games)[data[0] % kVariantCount];
  const std::string text(reinterpret_cast<const char*>(data) + 1, size - 1);

  drop::Position p;
  try {
    p = drop::parse_fen(g, text);
  } catch (const drop::ParseError&) {
    return 0;  // rejected with a message: fine
  }
  check_sound(g, p, text);

  const std::string fen = drop::to_fen(g, p);
  drop::Position again;
  try {
    again = drop::parse_fen(g, fen);
  } catch (const drop::ParseError& e) {
    fail("to_fen output does not parse", fen + " (" + e.what() + ")");
  }
  if (!(again == p)) fail("FEN round trip changed the position", text + " -> " + fen);
  if (drop::to_fen(g, again) != fen) fail("to_fen is not stable", fen);
  if (g.keys_fit() && !(g.from_key(g.raw_key(p)) == p)) fail("raw key round trip", fen);

  // perft(1) three ways: bulk count, generated list, and the terminal test.
  drop::MoveList list;
  g.generate(p, list);
  drop::Position work = p;
  if (solver::perft(g, work, 1) != std::uint64_t(list.size())) fail("perft(1) != moves", fen);
  if (g.is_terminal(p) != list.empty()) fail("is_terminal disagrees with moves", fen);
  for (drop::Move m : list) {
    const drop::Undo u = g.make(work, m);
    check_sound(g, work, fen + " after " + drop::move_name(g.geometry(), m));
    g.unmake(work, m, u);
    if (!(work == p)) fail("unmake did not restore", fen + " " + drop::move_name(g.geometry(), m));
  }
  return 0;
}
