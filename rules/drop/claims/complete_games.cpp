#include "rules/drop/claims/complete_games.h"

#include <chrono>
#include <cstdio>
#include <string>

#include "rules/drop/claims/limits.h"
#include "rules/drop/claims/random_play.h"
#include "rules/drop/variant.h"
#include "solver/claims_game_paths.h"
#include "solver/forward_solver.h"
#include "solver/progress.h"

namespace solver::claims {

namespace {

// The length of the game from the start under perfect play (RULES.md: the winner hurries, the
// loser delays), and who wins it: the forward solver's DTE. Only asked where path counting has
// shown the positions fit, since the solver visits the same ones.
json perfect_play(const drop::Game& game, const ClaimsSettings& o) {
  try {
    ForwardSolver<drop::Game> forward(game, o.memory_mb << 20);
    auto start = game.start();
    const int dte = forward.dte(start);
    return json{{"length", dte}, {"first_player", is_win(dte) ? "wins" : "loses"}};
  } catch (const SearchMemoryError&) {
    return json{{"why_not", "more memory than --memory"}};
  }
}

// The complete games counted, and the game's length under perfect play.
json counted(const drop::Game& game, const CompleteGames& games, const ClaimsSettings& o) {
  json j;
  j["games"] = to_decimal(games.tree.games);
  j["shortest"] = games.tree.shortest;
  j["longest"] = games.tree.longest;
  j["positions"] = games.positions;
  j["perfect_play"] = perfect_play(game, o);
  return j;
}

}  // namespace

json complete_games(const drop::Game& game, const json& closed, const ClaimsSettings& o) {
  if (!game.keys_fit()) return without_exact_keys();
  json j;
  // The memo holds at least the drops-only positions, up to symmetry and colour swap.
  double at_least = 0;
  for (const auto& c : closed["up_to_symmetry"]) at_least += to_double(parse_count(c)) / 2;
  constexpr double kBytesPerPosition = 49;
  if (at_least * kBytesPerPosition > double(o.memory_mb << 20)) {
    char reason[200];
    std::snprintf(reason, sizeof reason,
                  "needs at least %.3g positions (the drops-only ones alone, up to symmetry and "
                  "colour swap), %.3g GB, more than --memory",
                  at_least, at_least * kBytesPerPosition / 1e9);
    j["skipped"] = reason;
    return j;
  }
  Progress progress("complete games", 0, "positions", !o.quiet);
  try {
    const auto deadline =
        std::chrono::steady_clock::now() + std::chrono::seconds(kCompleteGamesSeconds);
    const auto games =
        count_complete_games(game, game.start(), o.memory_mb << 20, deadline, &progress);
    j.update(counted(game, games, o));
  } catch (const MemoryCapReached&) {
    j["skipped"] = "stopped by the memory cap (--memory)";
  } catch (const DeadlineReached&) {
    j["skipped"] = "did not finish within " + std::to_string(kCompleteGamesSeconds) + " s";
  } catch (const CountOverflow&) {
    j["skipped"] = "the number of complete games exceeds 2^128";
  }
  return j;
}

// Variants small enough to count every complete game, to compare with the estimator.
const char* const kSmallVariants[] = {"2x2:NK",  "2x2:NBK",  "2x2:NBRQK", "3x2:NBRK", "3x3:NK",
                                      "3x3:NBK", "3x3:NBRK", "4x4:NK",    "4x4:NBK"};

json small_variants(const ClaimsSettings& o) {
  json rows = json::array();
  for (const char* name : kSmallVariants) {
    const drop::Game game(drop::parse_variant(name));
    json row;
    row["variant"] = name;
    const auto start = std::chrono::steady_clock::now();
    try {
      const auto games = count_complete_games(game, game.start(), o.memory_mb << 20,
                                              start + std::chrono::seconds(kSmallVariantSeconds));
      row.update(counted(game, games, o));
    } catch (const MemoryCapReached&) {
      row["games"] = nullptr;
      row["why_not"] = "more memory than --memory";
    } catch (const DeadlineReached&) {
      row["games"] = nullptr;
      row["why_not"] = "did not finish within " + std::to_string(kSmallVariantSeconds) + " s";
    }
    row["exact_seconds"] =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const auto totals = run_probes(game, game.start(), o.seed, 0, kSmallVariantProbes, o.threads);
    row["knuth"] =
        estimate_json(estimate_mean(totals.weight_sum, totals.weight_sum_sq, totals.probes));
    row["probes"] = totals.probes;
    row["random_mean_length"] = summarize_probes(totals)["random_game_mean_length"];
    rows.push_back(row);
  }
  json j;
  j["variants"] = rows;
  return j;
}

}  // namespace solver::claims
