// Royal Nardy's one-sided bear-off database (rules/nardy/solve/bearoff.h) checked three ways: its
// index is a bijection; its exact distributions add up to 1 with a tail worked out by a separate
// recursion, and their mean is the expectation it minimised; and that expectation is the value a
// direct expectimax (solver/expectimax.h) finds over the rules engine's plays, exactly (rationals)
// for plain checkers, and as a fixed point of one and two more turns where royal checkers can be
// stuck and the game has no end.
#include <catch2/catch.hpp>
#include <cmath>
#include <map>
#include <set>
#include <vector>

#include "rules/common/key128.h"
#include "rules/nardy/solve/bearoff.h"
#include "solver/expectimax.h"
#include "tests/rational.h"

namespace {

using nardy::bearoff::Count;
using nardy::bearoff::HomeBoard;
using nardy::bearoff::HomeIndex;
using nardy::bearoff::kExactRolls;
using nardy::bearoff::OneSided;
using nardy::bearoff::power36;

// Every board of at most `most` checkers, by plain loops.
std::vector<HomeBoard> all_boards(int most) {
  std::vector<HomeBoard> out;
  for (int mask = 0; mask < 64; ++mask) {
    HomeBoard b;
    b.royal = std::uint8_t(mask);
    const int budget = most - __builtin_popcount(mask);
    for (int a = 0; a <= budget; ++a)
      for (int c = 0; a + c <= budget; ++c)
        for (int d = 0; a + c + d <= budget; ++d)
          for (int e = 0; a + c + d + e <= budget; ++e)
            for (int f = 0; a + c + d + e + f <= budget; ++f)
              for (int g = 0; a + c + d + e + f + g <= budget; ++g) {
                b.plain = {std::uint8_t(a), std::uint8_t(c), std::uint8_t(d),
                           std::uint8_t(e), std::uint8_t(f), std::uint8_t(g)};
                out.push_back(b);
              }
  }
  return out;
}

// One side bearing off alone, as a game for the expectimax solver: a chance position rolls (and
// counts the roll), a decision position picks one of the engine's distinct plays; at the end the
// side scores minus the rolls it took, so maximising points minimises expected rolls. The other
// player never moves; it is there because points come one per player.
class OneSidedRace {
 public:
  struct Position {
    HomeBoard board;
    nardy::Roll roll;
    int rolls = 0;
  };
  using Move = HomeBoard;
  struct MoveList {
    std::vector<HomeBoard> items;
    int size() const { return int(items.size()); }
    const HomeBoard& operator[](int i) const { return items[i]; }
  };
  using Undo = Position;
  using Key = common::Key;
  using Points = std::array<int, 2>;
  using ChanceOutcome = nardy::Roll;
  struct ChanceUndo {};
  using ChanceList = nardy::Game::ChanceList;

  int players() const { return 2; }
  int player_to_move(const Position&) const { return 0; }
  bool is_terminal(const Position& p) const { return p.board.checkers() == 0; }
  Points terminal_value(const Position& p) const { return {-p.rolls, p.rolls}; }
  bool is_chance(const Position& p) const { return !p.roll.rolled() && !is_terminal(p); }
  void chances(const Position&, ChanceList& out) const { game_.chances({}, out); }
  ChanceUndo make_chance(Position& p, nardy::Roll r) const {
    p.roll = r;
    ++p.rolls;
    return {};
  }
  void unmake_chance(Position& p, nardy::Roll, ChanceUndo) const {
    p.roll = {};
    --p.rolls;
  }
  void generate(const Position& p, MoveList& out) const {
    out.items = nardy::bearoff::plays(game_, p.board, p.roll);
  }
  std::uint64_t count_moves(const Position& p) const {
    MoveList l;
    generate(p, l);
    return l.size();
  }
  Undo make(Position& p, const Move& m) const {
    const Undo u = p;
    p.board = m;
    p.roll = {};
    return u;
  }
  void unmake(Position& p, const Move&, const Undo& u) const { p = u; }
  bool keys_fit() const { return true; }
  Key raw_key(const Position& p) const {
    common::Key128 k = p.board.royal;
    for (int c : p.board.plain) k = k << 4 | unsigned(c);
    k = k << 5 | unsigned(p.roll.rolled() ? nardy::roll_index(p.roll) + 1 : 0);
    k = k << 16 | unsigned(p.rolls);
    return common::to_key(k);
  }
  Key symmetric_key(const Position& p) const { return raw_key(p); }
  Key canonical_key(const Position& p) const { return raw_key(p); }
  Position from_key(Key key) const {
    common::Key128 k = common::from_key(key);
    Position p;
    p.rolls = int(k & 0xFFFF);
    k >>= 16;
    if (const int r = int(k & 31)) p.roll = nardy::all_rolls()[r - 1].roll;
    k >>= 5;
    for (int q = 6; q >= 1; --q, k >>= 4) p.board.plain[q - 1] = std::uint8_t(k & 15);
    p.board.royal = std::uint8_t(k);
    return p;
  }

 private:
  nardy::Game game_;
};

static_assert(solver::KeyedGame<OneSidedRace> && solver::PointsGame<OneSidedRace> &&
              solver::ChanceGame<OneSidedRace>);

HomeBoard board(std::initializer_list<int> plain, int royal_mask) {
  HomeBoard b;
  int q = 0;
  for (int c : plain) b.plain[q++] = std::uint8_t(c);
  b.royal = std::uint8_t(royal_mask);
  return b;
}

}  // namespace

TEST_CASE("nardy bear-off: the home index is a bijection onto 0..size-1", "[nardy]") {
  for (int most : {0, 3, 7}) {
    const HomeIndex index(most);
    const auto boards = all_boards(most);
    REQUIRE(index.size() == boards.size());
    std::set<std::uint64_t> seen;
    for (const HomeBoard& b : boards) {
      const std::uint64_t i = index.index(b);
      CHECK(i < index.size());
      CHECK(index.board(i) == b);
      seen.insert(i);
    }
    CHECK(seen.size() == boards.size());
  }
  const HomeIndex full(15);
  CHECK(full.size() == 1'303'777);  // sum over k royal of C(6,k) C(21-k,6)
  for (std::uint64_t i = 0; i < full.size(); i += 97) CHECK(full.index(full.board(i)) == i);
}

TEST_CASE("nardy bear-off: distributions sum to 1 and their mean is the expected rolls",
          "[nardy]") {
  const int most = 6;
  const OneSided db(most, 2);
  // The sequences of n rolls after which b is still on, by their own recursion over the
  // database's plays: t_0 = [b has checkers], t_n(b) = sum over rolls of weight x t_{n-1}(b_r).
  std::map<std::pair<HomeBoard, int>, Count> memo;
  const auto rolls = nardy::all_rolls();
  std::function<Count(const HomeBoard&, int)> still_on = [&](const HomeBoard& b, int n) -> Count {
    if (b.checkers() == 0) return 0;
    if (n == 0) return 1;
    const auto key = std::make_pair(b, n);
    if (const auto it = memo.find(key); it != memo.end()) return it->second;
    Count sum = 0;
    for (const auto& w : rolls) sum += Count(w.weight) * still_on(db.best(b, w.roll), n - 1);
    return memo[key] = sum;
  };
  int finite = 0, infinite = 0;
  for (std::uint64_t i = 0; i < db.size(); ++i) {
    const HomeBoard b = db.index().board(i);
    const Count* c = db.counts(b);
    Count off = 0;
    double mean = 0;
    for (int n = 0; n <= kExactRolls; ++n) {
      off += c[n] * power36(kExactRolls - n);
      mean += n * db.probability(b, n);
    }
    const Count tail = still_on(b, kExactRolls);
    REQUIRE(off + tail == power36(kExactRolls));
    CHECK(db.tail(b) == tail);
    if (tail == 0) {  // a finite distribution: its mean is the expectation, up to rounding
      CHECK(std::abs(mean - db.expected_rolls(b)) < 1e-12 * (1 + mean));
      ++finite;
    } else {
      ++infinite;
    }
    if (b.royal == 0) CHECK(tail == 0);  // plain checkers always move: 6 of them in 24 rolls
  }
  CHECK(finite > 1000);
  CHECK(infinite > 100);  // royal checkers that get stuck
  // Worked by hand: one checker on point 1 is off in one roll. One on point 6 is not, with the
  // 9 rolls (of 36) of fewer than 6 pips that are not a double of 2 or more: 2-1, 3-1, 4-1, 3-2
  // (each twice) and 1-1; royal or plain alike, a lone checker never meets its own.
  CHECK(db.expected_rolls(board({1}, 0)) == 1.0);
  CHECK(db.counts(board({1}, 0))[1] == 36);
  CHECK(db.counts(board({0, 0, 0, 0, 0, 1}, 0))[1] == 36 - 9);
  for (int n = 0; n <= kExactRolls; ++n)
    CHECK(db.counts(board({0, 0, 0, 0, 0, 0}, 1 << 5))[n] ==
          db.counts(board({0, 0, 0, 0, 0, 1}, 0))[n]);
  CHECK(db.best(board({1, 0, 0, 0, 0, 0}, 1 << 2), nardy::Roll{2, 2}) ==
        board({1, 0, 0, 0, 0, 0}, 1 << 2));
  CHECK(db.expected_rolls(board({1, 0, 0, 0, 0, 0}, 1 << 2)) >
        db.expected_rolls(board({1, 0, 1, 0, 0, 0}, 0)));  // the royal rule costs rolls here
}

TEST_CASE("nardy bear-off: the expected rolls are a direct expectimax's", "[nardy]") {
  const OneSided db(5, 2);
  const OneSidedRace race;
  // Plain checkers: every line ends, so the expectimax is exact.
  solver::Expectimax<OneSidedRace, test_support::Rational> exact(race, std::uint64_t{256} << 20);
  int plain = 0;
  for (std::uint64_t i = 0; i < db.size(); ++i) {
    const HomeBoard b = db.index().board(i);
    if (b.royal || b.checkers() > 3) continue;
    const auto v = exact.value(OneSidedRace::Position{b, {}, 0});
    INFO(i);
    CHECK(std::abs(v[0].to_double() + db.expected_rolls(b)) < 1e-12);
    ++plain;
  }
  CHECK(plain > 50);
  // With royal checkers a position can repeat (a pass), so no search ends; the database's values
  // at the horizon must be what one and two more turns of expectimax give back.
  const auto horizon = [&](const OneSidedRace::Position& p) {
    const double rolls = p.rolls + db.expected_rolls(p.board);
    return std::array<double, 2>{-rolls, rolls};
  };
  int royal = 0;
  for (int depth : {2, 4}) {
    solver::Expectimax<OneSidedRace, double, decltype(horizon)> search(
        race, std::uint64_t{256} << 20, horizon);
    for (std::uint64_t i = 0; i < db.size(); i += 3) {
      const HomeBoard b = db.index().board(i);
      if (!b.royal) continue;
      const auto v = search.value(OneSidedRace::Position{b, {}, 0}, depth);
      CHECK(std::abs(v[0] + db.expected_rolls(b)) < 1e-9);
      ++royal;
    }
  }
  CHECK(royal > 500);
}
