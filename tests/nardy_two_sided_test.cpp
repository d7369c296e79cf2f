// Two-sided race values (rules/nardy/solve/two_sided.h) against a plain recursion of its own over
// the brute-force rules (rules/nardy/reference_rules.h): positions as FEN text, plays as the set of
// resulting FENs, exact rationals.
#include <catch2/catch.hpp>
#include <cmath>
#include <map>
#include <string>

#include "rules/nardy/notation.h"
#include "rules/nardy/reference_rules.h"
#include "rules/nardy/solve/two_sided.h"
#include "tests/rational.h"

namespace {

using test_support::Rational;
namespace reference = nardy::reference;

// White's expected points from a reference board: at a roll the average over the 36 outcomes, at
// a decision the best play for the side to move.
class PlainRecursion {
 public:
  Rational white_value(const std::string& fen) {
    if (const auto it = memo_.find(fen); it != memo_.end()) return it->second;
    reference::Board b = reference::from_fen(fen);
    Rational v;
    if (reference::terminal(b)) {
      v = Rational(reference::white_score(b));
    } else if (b.die1 == 0) {
      Rational sum(0);
      for (int d1 = 1; d1 <= 6; ++d1)
        for (int d2 = 1; d2 <= 6; ++d2) {
          reference::Board rolled = b;
          rolled.die1 = d1, rolled.die2 = d2;
          sum = sum + white_value(reference::to_fen(rolled));
        }
      v = sum / Rational(36);
    } else {
      bool first = true;
      for (const std::string& after : reference::play_results(b)) {
        const Rational child = white_value(after);
        if (first || (b.side == 0 ? v < child : child < v)) v = child;
        first = false;
      }
    }
    return memo_[fen] = v;
  }

 private:
  std::map<std::string, Rational> memo_;
};

}  // namespace

TEST_CASE("nardy two-sided: race values are a plain recursion's over the brute-force rules",
          "[nardy]") {
  const nardy::Game g12(12);
  for (const auto& [white_eaten, black_eaten] : {std::pair{0, 0}, {2, 0}, {0, 1}}) {
    const nardy::bearoff::TwoSidedPlain table(2, white_eaten, black_eaten);
    REQUIRE(table.boards().size() == 27);  // 6 boards of 1 checker, 21 of 2
    PlainRecursion plain;
    bool multiplied = false;
    for (std::size_t w = 0; w < table.boards().size(); ++w)
      for (std::size_t b = 0; b < table.boards().size(); ++b) {
        const nardy::Position p = nardy::bearoff::race_position(
            table.boards()[w], table.boards()[b], white_eaten, black_eaten);
        const Rational want = plain.white_value(nardy::to_fen(g12, p));
        CHECK(std::abs(table.value(w, b) - want.to_double()) < 1e-12);
        multiplied |= std::abs(table.value(w, b)) > 1.0 + 1e-9;
      }
    // With unequal royal counts the richer side's first finish is multiplied by 2 x difference.
    CHECK(multiplied == (white_eaten != black_eaten));
  }
}
