// Proof search against the forward solver (an independent memoized negamax), checkpoints, and the
// certificate checker: it accepts the prover's certificates and rejects altered ones.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <random>
#include <vector>

#include "rules/drop/game.h"
#include "rules/drop/notation.h"
#include "rules/drop/solve/move_symmetry.h"
#include "rules/drop/solve/proof_checker.h"
#include "rules/drop/solve/tier_space.h"
#include "solver/forward_solver.h"
#include "solver/outcome.h"
#include "solver/proof_certificate.h"
#include "solver/proof_checkpoint.h"
#include "solver/proof_search.h"
#include "tablebase/proof_file.h"
#include "tablebase/tier_solver.h"
#include "tests/test_support.h"
#include "tests/tier_oracle.h"

namespace {

using Search = solver::ProofSearch<drop::Game, drop::MoveSymmetry>;
using Table = solver::ProofTable<drop::Key>;

// Every combination of the orderings on one thread, and all of them on two threads.
std::vector<solver::ProofOptions> option_sets() {
  std::vector<solver::ProofOptions> sets;
  for (int bits = 0; bits < 16; ++bits)
    sets.push_back({bool(bits & 1), bool(bits & 2), bool(bits & 4), bool(bits & 8), 1, 0});
  sets.push_back({true, true, true, true, 2, 2});
  sets.push_back({false, false, false, false, 2, 3});
  return sets;
}

bool forward_win(const drop::Game& game, drop::Position p) {
  solver::ForwardSolver<drop::Game> solver(game, 1ull << 30);
  return solver::is_win(solver.dte(p));
}

solver::Proof prove(const drop::Game& game, const drop::Position& p, solver::ProofOptions o) {
  Table table(4 << 20);
  Search search(game, table, o, drop::MoveSymmetry(game));
  return search.prove(p);
}

using test_support::proof_of;

std::filesystem::path temp_file(const std::string& name) {
  return std::filesystem::temp_directory_path() /
         ("drop16_proof_test_" + std::to_string(::getpid()) + "_" + name);
}

// Proves p and writes its certificate with leaves at `leaf_hand` pieces in hand.
void write_certificate(const drop::Game& game, const drop::Position& p, int leaf_hand,
                       const std::filesystem::path& file) {
  Table table(4 << 20);
  Search search(game, table, {}, drop::MoveSymmetry(game));
  const solver::Proof value = search.prove(p);
  REQUIRE(value != solver::Proof::kUnknown);
  tablebase::ProofFileWriter out(file);
  auto is_leaf = [&](const drop::Position& q) { return q.pieces_in_hands() <= leaf_hand; };
  solver::CertificateWriter writer(game, search, is_leaf, out);
  writer.write(
      {game.variant().name(), drop::to_fen(game, p), value == solver::Proof::kWin, leaf_hand}, p);
  out.finish();
}

// A byte source over a decompressed certificate, for the walker below.
struct ByteSource {
  const std::vector<std::uint8_t>& bytes;
  std::size_t pos = 0;
  std::uint8_t get() {
    if (pos >= bytes.size()) throw solver::ProofFormatError("end");
    return bytes[pos++];
  }
};

// Where a certificate can be altered: each winning move (its offset and position), and each
// every-reply record (the offset of its count and the byte range of its last reply).
struct Sites {
  struct WinningMove {
    std::size_t offset;
    drop::Position position;
  };
  struct EveryReply {
    std::size_t count_offset, last_begin, last_end;
  };
  std::vector<WinningMove> winning_moves;
  std::vector<EveryReply> every_replies;
};

void walk(const drop::Game& game, ByteSource& in, drop::Position p, Sites& sites) {
  const std::uint8_t record = in.get();
  if (record == solver::kWinningMove) {
    sites.winning_moves.push_back({in.pos, p});
    const std::uint16_t raw = solver::get_u16(in);
    drop::MoveList moves;
    game.generate(p, moves);
    for (drop::Move m : moves)
      if (m.raw() == raw) {
        game.make(p, m);
        walk(game, in, p, sites);
        return;
      }
    FAIL("the certificate's move is not legal");
  } else if (record == solver::kEveryReply) {
    const std::size_t count_offset = in.pos;
    const std::uint64_t n = solver::get_varint(in);
    REQUIRE(n < 128);  // one byte, so the tests can edit it in place
    drop::MoveList moves;
    game.generate(p, moves);
    std::size_t begin = in.pos;
    for (std::uint64_t i = 0; i < n; ++i) {
      begin = in.pos;
      const std::uint16_t raw = solver::get_u16(in);
      for (drop::Move m : moves)
        if (m.raw() == raw) {
          drop::Position child = p;
          game.make(child, m);
          walk(game, in, child, sites);
        }
    }
    if (n >= 1) sites.every_replies.push_back({count_offset, begin, in.pos});
  }
}

// The offset of the claim byte, which follows the magic, the version and the two strings.
std::size_t claim_offset(const std::vector<std::uint8_t>& bytes) {
  ByteSource in{bytes};
  for (int i = 0; i < 8; ++i) in.get();
  solver::get_varint(in);
  solver::get_string(in);
  solver::get_string(in);
  return in.pos;
}

// A memory cap far below what the leaf searches of the tests' certificates fill (hundreds of KB
// of memo), and above their proven positions and 3x3:NBK's endgame tables.
constexpr std::uint64_t kSmallCap = 64 << 10;

// Endgame tables on disk: every position of at most max_pieces pieces in play.
void solve_endgame_tables(const drop::Game& game, int max_pieces,
                          const std::filesystem::path& dir) {
  const drop::TierSpace space(game, true, max_pieces);
  tablebase::TierSolveOptions options;
  options.dir = dir;
  options.zstd_level = 3;
  tablebase::solve_tiers(space, options);
}

Sites sites_of(const drop::Game& game, const std::vector<std::uint8_t>& bytes,
               const drop::Position& root) {
  ByteSource in{bytes};
  solver::get_header(in);
  Sites sites;
  walk(game, in, root, sites);
  REQUIRE(in.pos == bytes.size());
  return sites;
}

}  // namespace

TEST_CASE("proof search agrees with the forward solver on start positions", "[proof][parallel]") {
  for (const char* variant : {"1x1:K", "2x2:K", "2x2:NK", "2x2:BR/q", "3x2:NK", "2x3:RK", "3x3:NK",
                              "3x3:NBK", "3x3:BK/nr", "4x4:K", "4x4:NK"}) {
    const drop::Game game(drop::parse_variant(variant));
    const bool expected = forward_win(game, game.start());
    for (const solver::ProofOptions& o : option_sets()) {
      INFO(variant << " orderings " << o.immediate_wins << o.mirror_reply << o.symmetry_pruning
                   << o.mobility << ", " << o.threads << " threads");
      CHECK(prove(game, game.start(), o) == proof_of(expected));
    }
  }
}

TEST_CASE("proof search agrees with the forward solver on random positions", "[proof]") {
  std::mt19937_64 rng(16);
  for (const char* variant : {"3x3:NBK", "3x3:NBRK", "4x4:NBK"}) {
    const drop::Game game(drop::parse_variant(variant));
    solver::ForwardSolver<drop::Game> reference(game, 1ull << 30);
    Table table(16 << 20);  // shared by the positions, as in a real search
    Search search(game, table, {true, true, true, true, 2, 2}, drop::MoveSymmetry(game));
    for (int n = 0; n < 40; ++n) {
      drop::Position p = test_support::random_position(game, rng, 3 + int(rng() % 6));
      INFO(variant << " " << drop::to_fen(game, p));
      drop::Position copy = p;
      CHECK(search.prove(p) == proof_of(solver::is_win(reference.dte(copy))));
    }
  }
}

TEST_CASE("proof search with endgame tables at the leaves agrees and searches less", "[proof]") {
  std::mt19937_64 rng(5);
  for (const char* variant : {"3x3:NBK", "4x4:NBK"}) {
    const drop::Game game(drop::parse_variant(variant));
    const test_support::SolvedEndgameTiers tables(game);
    Table plain_table(16 << 20), oracle_table(16 << 20);
    Search plain(game, plain_table, {}, drop::MoveSymmetry(game));
    solver::ProofSearch<drop::Game, drop::MoveSymmetry, test_support::TierOracle> with_tables(
        game, oracle_table, {}, drop::MoveSymmetry(game), tables.oracle());
    INFO(variant);
    test_support::check_search_with_tables(game, plain, with_tables, rng);
  }
}

TEST_CASE("winning_move returns a move whose result the forward solver calls a loss", "[proof]") {
  const drop::Game game(drop::parse_variant("3x3:NBK"));
  Table table(4 << 20);
  Search search(game, table, {}, drop::MoveSymmetry(game));
  drop::Position p = game.start();
  REQUIRE(search.prove(p) == solver::Proof::kWin);
  const auto move = search.winning_move(p);
  REQUIRE(move);
  game.make(p, *move);
  CHECK_FALSE(forward_win(game, p));
}

TEST_CASE("a stopped search answers unknown and stores nothing false", "[proof]") {
  const drop::Game game(drop::parse_variant("3x3:NBRK"));
  Table table(4 << 20);
  Search search(game, table, {}, drop::MoveSymmetry(game));
  search.stop();
  CHECK(search.prove(game.start()) == solver::Proof::kUnknown);
  CHECK(table.occupied() == 0);
}

TEST_CASE("checkpoints round-trip and refuse damage", "[proof]") {
  const auto file = temp_file("checkpoint");
  solver::Checkpoint c{7, "3x3:NBK", "3/3/3[NBKnbk] w", 1234, 5.5, {}};
  c.entries.push_back({1, 2, true, 12});
  c.entries.push_back({~0ull, 7, false, 63});
  solver::save_checkpoint(file, c);
  const solver::Checkpoint back = solver::load_checkpoint(file);
  CHECK(back.key_format == 7);
  CHECK(back.variant == c.variant);
  CHECK(back.fen == c.fen);
  CHECK(back.nodes == 1234);
  CHECK(back.seconds == 5.5);
  REQUIRE(back.entries.size() == 2);
  CHECK(back.entries[1].lo == ~0ull);
  CHECK(back.entries[1].hi == 7);
  CHECK_FALSE(back.entries[1].win);
  CHECK(back.entries[1].work_log2 == 63);
  CHECK(back.entries[0].win);

  std::filesystem::resize_file(file, std::filesystem::file_size(file) - 1);
  CHECK_THROWS_AS(solver::load_checkpoint(file), solver::CheckpointError);
  std::filesystem::remove(file);
}

TEST_CASE("a resumed search reuses the checkpoint's entries", "[proof]") {
  const drop::Game game(drop::parse_variant("3x3:NBRK"));
  Table first(16 << 20);
  Search a(game, first, {}, drop::MoveSymmetry(game));
  const solver::Proof value = a.prove(game.start());
  std::vector<solver::ProvenEntry> saved;
  first.for_each(6, [&](const solver::ProvenEntry& e) { saved.push_back(e); });
  Table second(16 << 20);
  for (const auto& e : saved) second.store(drop::Key{e.lo, e.hi}, e.win, e.work_log2);
  Search b(game, second, {}, drop::MoveSymmetry(game));
  CHECK(b.prove(game.start()) == value);
  CHECK(b.stats().nodes < a.stats().nodes / 10);
}

TEST_CASE("the checker accepts the prover's certificates and proves their value", "[proof]") {
  for (const char* variant : {"2x2:K", "3x3:NK", "3x3:NBK", "4x4:NK"}) {
    const drop::Game game(drop::parse_variant(variant));
    for (int leaf_hand : {0, 2}) {
      INFO(variant << " leaf_hand " << leaf_hand);
      const auto file = temp_file("accept");
      write_certificate(game, game.start(), leaf_hand, file);
      const drop::ProofCheck c = drop::check_proof(file);
      CHECK(c.win == forward_win(game, game.start()));
      CHECK(c.variant == game.variant().name());
      std::filesystem::remove(file);
    }
  }
}

TEST_CASE("the checker rejects a certificate with one move altered or one reply missing",
          "[proof]") {
  for (const char* variant : {"3x3:NBK", "3x3:NK", "4x4:NK"}) {
    const drop::Game game(drop::parse_variant(variant));
    const auto file = temp_file("tamper");
    write_certificate(game, game.start(), 0, file);
    const std::vector<std::uint8_t> good = tablebase::read_proof_bytes(file);
    const Sites sites = sites_of(game, good, game.start());
    int altered = 0;
    for (const Sites::WinningMove& site : sites.winning_moves) {
      // Replace the winning move by a legal move that loses.
      drop::MoveList moves;
      game.generate(site.position, moves);
      for (drop::Move m : moves) {
        drop::Position child = site.position;
        game.make(child, m);
        if (!forward_win(game, child)) continue;
        std::vector<std::uint8_t> bad = good;
        bad[site.offset] = std::uint8_t(m.raw());
        bad[site.offset + 1] = std::uint8_t(m.raw() >> 8);
        tablebase::write_proof_bytes(file, bad);
        INFO(variant << " winning move at byte " << site.offset << " replaced by "
                     << drop::move_name(game.geometry(), m));
        CHECK_THROWS_AS(drop::check_proof(file), drop::ProofRejected);
        ++altered;
        break;
      }
    }
    int removed = 0;
    for (const Sites::EveryReply& site : sites.every_replies) {
      std::vector<std::uint8_t> bad = good;
      bad.erase(bad.begin() + std::ptrdiff_t(site.last_begin),
                bad.begin() + std::ptrdiff_t(site.last_end));
      --bad[site.count_offset];
      tablebase::write_proof_bytes(file, bad);
      INFO(variant << " last reply of the record at byte " << site.count_offset << " removed");
      CHECK_THROWS_AS(drop::check_proof(file), drop::ProofRejected);
      ++removed;
    }
    CHECK(altered > 0);
    CHECK(removed > 0);
    std::filesystem::remove(file);
  }
}

TEST_CASE("the checker rejects a false claim and refuses a damaged file", "[proof]") {
  const drop::Game game(drop::parse_variant("3x3:NBK"));
  const auto file = temp_file("claim");
  write_certificate(game, game.start(), 2, file);
  const std::vector<std::uint8_t> good = tablebase::read_proof_bytes(file);
  std::vector<std::uint8_t> bytes = good;
  bytes[claim_offset(bytes)] ^= 1;
  tablebase::write_proof_bytes(file, bytes);
  CHECK_THROWS_AS(drop::check_proof(file), drop::ProofRejected);

  tablebase::write_proof_bytes(file, good);
  REQUIRE_NOTHROW(drop::check_proof(file));
  std::filesystem::resize_file(file, std::filesystem::file_size(file) - 3);
  CHECK_THROWS_AS(drop::check_proof(file), solver::ProofFormatError);
  std::filesystem::remove(file);
}

TEST_CASE("with endgame tables the checker's leaf search stops at every position they cover",
          "[proof]") {
  const drop::Game game(drop::parse_variant("3x3:NBK"));
  test_support::TempDir tmp("proof_test");
  solve_endgame_tables(game, 4, tmp / "tables");
  // Leaves after the first two drops: six pieces in play, beyond the tables, which only the
  // captures inside the leaves' search reach.
  const auto file = tmp / "certificate";
  write_certificate(game, game.start(), 4, file);
  const drop::ProofCheck alone = drop::check_proof(file);
  const drop::ProofCheck with_tables = drop::check_proof(file, tmp / "tables");
  CHECK(alone.win == forward_win(game, game.start()));
  CHECK(with_tables.win == alone.win);
  CHECK(with_tables.leaves == alone.leaves);
  CHECK(with_tables.leaves > 0);
  CHECK(with_tables.table_leaves == 0);
  CHECK(alone.leaf_search_table_probes == 0);
  CHECK(with_tables.leaf_search_table_probes > 0);
  CHECK(with_tables.leaf_search_positions < alone.leaf_search_positions);
  CHECK(with_tables.table_bytes_loaded > 0);
}

TEST_CASE("under a small memory cap the checker empties its memo and proves the same", "[proof]") {
  const drop::Game game(drop::parse_variant("3x3:NBK"));
  test_support::TempDir tmp("proof_test");
  solve_endgame_tables(game, 4, tmp / "tables");
  const auto file = tmp / "certificate";
  write_certificate(game, game.start(), 4, file);
  for (const bool tables : {false, true}) {
    INFO((tables ? "with" : "without") << " tables");
    const std::filesystem::path dir = tables ? tmp / "tables" : std::filesystem::path();
    const drop::ProofCheck free = drop::check_proof(file, dir);
    const drop::ProofCheck capped = drop::check_proof(file, dir, kSmallCap);
    CHECK(free.memo_clears == 0);
    CHECK(capped.memo_clears > 0);
    CHECK(capped.win == free.win);
    CHECK(capped.positions == free.positions);
    CHECK(capped.leaves == free.leaves);
    // Positions forgotten with the memo are solved again.
    CHECK(capped.leaf_search_positions > free.leaf_search_positions);
  }
  // The tables' value bits alone do not fit in a byte: refused before any checking.
  CHECK_THROWS_AS(drop::check_proof(file, tmp / "tables", 1), drop::CheckMemoryError);
}

TEST_CASE("under a small memory cap the checker still rejects a wrong leaf", "[proof]") {
  const drop::Game game(drop::parse_variant("3x3:NBK"));
  test_support::TempDir tmp("proof_test");
  solve_endgame_tables(game, 4, tmp / "tables");
  // Every piece in hand is a leaf: the root is the one leaf, solved by the checker's search.
  const auto file = tmp / "certificate";
  write_certificate(game, game.start(), 6, file);
  std::vector<std::uint8_t> bytes = tablebase::read_proof_bytes(file);
  for (const bool tables : {false, true}) {
    INFO((tables ? "with" : "without") << " tables");
    const std::filesystem::path dir = tables ? tmp / "tables" : std::filesystem::path();
    const drop::ProofCheck right = drop::check_proof(file, dir, kSmallCap);
    CHECK(right.leaves == 1);
    CHECK(right.memo_clears > 0);
    bytes[claim_offset(bytes)] ^= 1;
    tablebase::write_proof_bytes(file, bytes);
    CHECK_THROWS_AS(drop::check_proof(file, dir, kSmallCap), drop::ProofRejected);
    bytes[claim_offset(bytes)] ^= 1;
    tablebase::write_proof_bytes(file, bytes);
  }
}
