// The negamax-family solvers state their class of game in their concepts and refuse, at compile
// time, a game outside it: a game of four players in turn, keyed and acyclic like Drop 16 and with
// a side_to_move field like it, is not solved as if two alternated (solver/turn_order.h,
// TwoPlayerGame). Each check is a static_assert against a twin of the game that differs only in
// its number of players, so a refusal cannot come from anything else; the games of the registry
// are checked as they are used.
#include <algorithm>
#include <array>
#include <catch2/catch.hpp>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "rules/common/key128.h"
#include "rules/drop/game.h"
#include "rules/nardy/game.h"
#include "rules/nevsky/game.h"
#include "rules/rookrace/game.h"
#include "rules/spock/game.h"
#include "solver/cyclic_retrograde.h"
#include "solver/cyclic_search.h"
#include "solver/dfpn_search.h"
#include "solver/dte_search.h"
#include "solver/forward_solver.h"
#include "solver/known_first_prover.h"
#include "solver/proof_certificate.h"
#include "solver/proof_search.h"
#include "solver/split_proof_tree.h"
#include "solver/turn_order.h"
#include "solver/wdl.h"
#include "tablebase/tier_solver.h"
#include "tablebase/wdl_analysis.h"

namespace {

// How many players a game says it has at compile time, or nothing.
template <int N>
struct DeclaredCount {
  static constexpr int kPlayers = N;
};
struct NoDeclaredCount {};

// A pile taken from by players in turn: declared only (the concepts read declarations), a keyed
// game in every respect, with N players it names (players()) and, through Count, may declare.
template <int N, typename Count = DeclaredCount<N>>
struct PileGame : Count {
  struct Position {
    int pile = 0;
    int side_to_move = 0;  // the player to move, 0 .. N-1
  };
  using Move = int;
  struct MoveList {
    int size() const;
    Move operator[](int) const;
  };
  using Undo = int;
  using Key = common::Key;

  int players() const { return N; }
  int player_to_move(const Position& p) const { return p.side_to_move; }
  void generate(const Position&, MoveList&) const;
  std::uint64_t count_moves(const Position&) const;
  Undo make(Position&, Move) const;
  void unmake(Position&, Move, Undo) const;
  bool is_terminal(const Position&) const;
  bool keys_fit() const;
  Key canonical_key(const Position&) const;
  Key raw_key(const Position&) const;
  Key symmetric_key(const Position&) const;
  Position from_key(Key) const;
};
using FourPlayers = PileGame<4>;
using TwoPlayers = PileGame<2>;

// Two players named at run time only: refused too, their count unknown when compiling.
using PlayersAtRunTime = PileGame<2, NoDeclaredCount>;

// A tier space of game G, declared only: what the tier solver asks of a space.
template <typename G>
struct StubSpace {
  using Game = G;
  using Position = typename G::Position;
  struct Cursor {};
  const G& game() const;
  std::string variant_name() const;
  int tier_count() const;
  std::string tier_name(int) const;
  std::uint64_t tier_size(int) const;
  std::uint64_t tier_positions(int) const;
  const std::vector<int>& tier_children(int) const;
  const std::vector<tablebase::IndexRange>& tier_passes(int) const;
  Position unrank(int, std::uint64_t) const;
  tablebase::Location locate(const Position&) const;
  template <typename Visit>
  void for_each_child(Cursor&, int, std::uint64_t, const std::vector<char>&, Visit&&) const;
  std::uint64_t memory_bytes() const;
};

// A solver accepts G when its template can be instantiated for G: its concepts and requires-clause
// hold.
template <template <typename> class Solver, typename G>
concept Accepts = requires {
  typename Solver<G>;
};
template <typename G>
concept CertificateWritable = requires {
  typename solver::CertificateWriter<G, int, int, int>;
};
template <typename G>
concept KnownFirstProvable = requires {
  typename solver::KnownFirstProver<G, int>;
};

// Values by canonical key, as a table gives them.
struct StubProbe {
  std::optional<solver::WdlValue> operator()(const common::Key&) const;
};
template <typename G>
concept ChildrenCheckable = requires(const G& g, const typename G::Position& p, StubProbe probe) {
  tablebase::analyze_wdl(g, p, probe);
  tablebase::check_against_children(g, p, probe);
};

template <typename G>
concept TierSolvable = requires(const StubSpace<G>& space, const tablebase::TierSolveOptions& o) {
  tablebase::solve_tiers(space, o);
};

// Whether each two-player solver accepts G: the forward solver, DTE search, proof search, df-pn,
// cyclic search, cyclic retrograde, tier solver, proof splitting, certificate writer, known-first
// prover and the check of a value against its children's.
template <typename G>
constexpr std::array<bool, 11> two_player_solvers_accepting() {
  return {Accepts<solver::ForwardSolver, G>,
          Accepts<solver::DteSearch, G>,
          Accepts<solver::ProofSearch, G>,
          Accepts<solver::DfpnSearch, G>,
          Accepts<solver::CyclicSearch, G>,
          Accepts<solver::CyclicRetrograde, G>,
          TierSolvable<G>,
          Accepts<solver::SplitProofTree, G>,
          CertificateWritable<G>,
          KnownFirstProvable<G>,
          ChildrenCheckable<G>};
}
template <typename G>
constexpr bool every_two_player_solver_accepts() {
  return std::ranges::all_of(two_player_solvers_accepting<G>(), std::identity{});
}
template <typename G>
constexpr bool every_two_player_solver_refuses() {
  return std::ranges::none_of(two_player_solvers_accepting<G>(), std::identity{});
}

// The twins are games alike in all but their players.
static_assert(solver::KeyedGame<FourPlayers> && solver::KeyedGame<TwoPlayers>);
static_assert(solver::NamesPlayers<FourPlayers> && solver::AlternatesTwoSides<FourPlayers>);
static_assert(tablebase::TierSpace<StubSpace<TwoPlayers>>);

static_assert(every_two_player_solver_accepts<TwoPlayers>());
static_assert(every_two_player_solver_refuses<FourPlayers>(),
              "a four-player game is refused by the two-player solvers");
static_assert(!tablebase::TierSpace<StubSpace<FourPlayers>>);
static_assert(every_two_player_solver_refuses<PlayersAtRunTime>());

// The repository's games: the two-player ones as their solvers use them; Royal Nardy (dice,
// players named at run time) and Nevsky checkers (four players) are not.
static_assert(solver::TwoPlayerGame<drop::Game> && Accepts<solver::ForwardSolver, drop::Game> &&
              Accepts<solver::ProofSearch, drop::Game> && Accepts<solver::DfpnSearch, drop::Game>);
static_assert(solver::TwoPlayerGame<spock::Game> &&
              Accepts<solver::CyclicRetrograde, spock::Game> &&
              Accepts<solver::CyclicSearch, spock::Game>);
static_assert(solver::TwoPlayerGame<rookrace::Game> &&
              Accepts<solver::CyclicRetrograde, rookrace::Game>);
static_assert(!solver::TwoPlayerGame<nardy::Game> && !Accepts<solver::ForwardSolver, nardy::Game>);
static_assert(solver::KeyedGame<nevsky::Game> && !solver::TwoPlayerGame<nevsky::Game> &&
              every_two_player_solver_refuses<nevsky::Game>());

}  // namespace

TEST_CASE("the two-player solvers refuse a four-player game at compile time", "[solver]") {
  // The static_asserts above are the test; this records that it was built.
  CHECK(solver::players(FourPlayers{}) == 4);
  CHECK(solver::players(drop::Game(drop::drop16_variant())) == 2);
}
