#include "tablebase/tier_schedule.h"

#include <catch2/catch.hpp>
#include <optional>
#include <random>
#include <vector>

#include "rules/drop/game.h"
#include "rules/drop/solve/tier_space.h"

namespace {

using tablebase::TierSchedule;

// Runs a schedule as `workers` ranks would, finishing the tiers under way in a random order, and
// checks every tier handed out against the space's own children lists: never before all its
// children are finished, never twice, never one finished at the start. Returns the most tiers
// under way at once.
int run_schedule(const drop::TierSpace& space, std::vector<char> finished, int workers,
                 std::uint64_t seed) {
  TierSchedule schedule(space, finished);
  std::vector<int> handed(space.tier_count(), 0);
  std::vector<int> under_way;
  std::mt19937_64 rng(seed);
  int most = 0;
  while (!schedule.all_finished()) {
    while (int(under_way.size()) < workers) {
      const std::optional<int> t = schedule.take();
      if (!t) break;
      INFO("tier " << space.tier_name(*t));
      CHECK_FALSE(finished[*t]);
      for (int c : space.tier_children(*t)) CHECK(finished[c]);
      ++handed[*t];
      under_way.push_back(*t);
    }
    REQUIRE_FALSE(under_way.empty());  // something is always ready while tiers are left
    most = std::max(most, int(under_way.size()));
    const std::size_t k = rng() % under_way.size();
    const int t = under_way[k];
    under_way.erase(under_way.begin() + std::ptrdiff_t(k));
    finished[t] = 1;
    schedule.finish(t);
  }
  CHECK_FALSE(schedule.take());
  for (int t = 0; t < space.tier_count(); ++t) CHECK(handed[t] <= 1);
  return most;
}

}  // namespace

TEST_CASE("the tier schedule hands out each tier once, after its children, several at a time",
          "[tier_schedule]") {
  const drop::Game game(drop::parse_variant("3x3:NBRK"));
  const drop::TierSpace space(game);
  for (std::uint64_t seed = 1; seed <= 3; ++seed) {
    CHECK(run_schedule(space, std::vector<char>(space.tier_count(), 0), 1, seed) == 1);
    // Tiers that do not feed each other go out together: 3 workers get 3 at some point.
    CHECK(run_schedule(space, std::vector<char>(space.tier_count(), 0), 3, seed) == 3);
  }
}

TEST_CASE("the tier schedule skips tiers finished before it starts", "[tier_schedule]") {
  const drop::Game game(drop::parse_variant("3x3:NBRK"));
  const drop::TierSpace space(game);
  // What a rerun finds: the endgame tiers of at most 4 pieces finished (a closed set: their
  // children are among them).
  const drop::TierSpace endgame(game, true, 4);
  std::vector<char> finished(space.tier_count(), 0);
  for (int t = 0; t < endgame.tier_count(); ++t)
    finished[space.layout().tier_named(endgame.tier_name(t))] = 1;
  const TierSchedule schedule(space, finished);
  CHECK(schedule.finished_count() == endgame.tier_count());
  CHECK(schedule.finished_count() < space.tier_count());
  run_schedule(space, finished, 2, 7);
}
