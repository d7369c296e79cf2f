#include "rules/drop/claims/random_play.h"

#include <algorithm>
#include <chrono>
#include <vector>

#include "rules/drop/claims/limits.h"
#include "solver/progress.h"

namespace solver::claims {

namespace {

json probe_totals_json(const ProbeTotals& t) {
  json j;
  j["probes"] = t.probes;
  j["games_by_length"] = t.games_by_length;
  j["weight_by_length"] = t.weight_by_length;
  j["weight_sum"] = t.weight_sum;
  j["weight_sum_sq"] = t.weight_sum_sq;
  j["perft_sum"] = t.perft_sum;
  j["perft_sum_sq"] = t.perft_sum_sq;
  j["largest_weight"] = t.largest_weight;
  return j;
}

ProbeTotals probe_totals_from(const json& j) {
  ProbeTotals t;
  t.probes = j["probes"];
  t.games_by_length = j["games_by_length"].get<std::vector<std::uint64_t>>();
  t.weight_by_length = j["weight_by_length"].get<std::vector<double>>();
  t.weight_sum = j["weight_sum"];
  t.weight_sum_sq = j["weight_sum_sq"];
  t.perft_sum = j["perft_sum"].get<std::vector<double>>();
  t.perft_sum_sq = j["perft_sum_sq"].get<std::vector<double>>();
  t.largest_weight = j["largest_weight"];
  return t;
}

}  // namespace

json estimate_json(const Estimate& e) {
  return json{
      {"mean", e.mean}, {"standard_error", e.standard_error}, {"low", e.low}, {"high", e.high}};
}

json summarize_probes(const ProbeTotals& t) {
  json j;
  j["probes"] = t.probes;
  j["complete_games"] = estimate_json(estimate_mean(t.weight_sum, t.weight_sum_sq, t.probes));
  json perft = json::array(), perft_error = json::array();
  for (std::size_t d = 0; d < t.perft_sum.size(); ++d) {
    const auto e = estimate_mean(t.perft_sum[d], t.perft_sum_sq[d], t.probes);
    perft.push_back(e.mean);
    perft_error.push_back(e.standard_error);
  }
  j["perft_estimate"] = perft;
  j["perft_standard_error"] = perft_error;
  json games_by_length = json::array();
  for (double w : t.weight_by_length) games_by_length.push_back(w / double(t.probes));
  j["complete_games_by_length_estimate"] = games_by_length;
  j["random_games_by_length"] = t.games_by_length;
  double mean = 0;
  int shortest = -1, longest = 0;
  for (std::size_t length = 0; length < t.games_by_length.size(); ++length) {
    if (!t.games_by_length[length]) continue;
    mean += double(length) * double(t.games_by_length[length]);
    if (shortest < 0) shortest = int(length);
    longest = int(length);
  }
  j["random_game_mean_length"] = t.probes ? mean / double(t.probes) : 0;
  j["random_game_shortest"] = shortest;
  j["random_game_longest"] = longest;
  j["largest_probe_weight"] = t.largest_weight;
  // How much of the estimate the single largest probe carries: near 1 means one lucky probe
  // dominates, the heavy tail the interval cannot see.
  j["largest_probe_share"] = t.weight_sum > 0 ? t.largest_weight / t.weight_sum : 0;
  return j;
}

json random_play(const drop::Game& game, ClaimsRecord& record, const json& params,
                 const ClaimsSettings& o) {
  ProbeTotals totals;
  if (const json* partial = record.partial("random_play", params);
      partial && partial->contains("totals"))
    totals = probe_totals_from((*partial)["totals"]);
  double earlier_seconds = 0;
  if (const json* partial = record.partial("random_play", params))
    earlier_seconds = partial->value("earlier_seconds", 0.0);
  Progress progress("random games", o.samples, "games", !o.quiet);
  progress.advance(totals.probes);
  const auto start = std::chrono::steady_clock::now();
  while (totals.probes < o.samples) {
    const std::uint64_t round = std::min(kProbeRound, o.samples - totals.probes);
    totals.add(run_probes(game, game.start(), o.seed, totals.probes, round, o.threads, &progress));
    // A finished round is kept even if the run stops now: the next run continues from here.
    json partial;
    partial["params"] = params;
    partial["complete"] = false;
    partial["totals"] = probe_totals_json(totals);
    partial["earlier_seconds"] =
        earlier_seconds +
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    record.store("random_play", partial);
  }
  json j = summarize_probes(totals);
  j["earlier_seconds"] = earlier_seconds;  // spent by interrupted runs this one resumed
  j["seed"] = o.seed;
  j["totals"] = probe_totals_json(totals);
  return j;
}

}  // namespace solver::claims
