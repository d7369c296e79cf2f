#include "rules/drop/claims/visit_all.h"

#include <algorithm>
#include <chrono>
#include <vector>

#include "rules/drop/placements.h"
#include "solver/claims_orbits.h"
#include "solver/progress.h"

namespace solver::claims {

namespace {

json orbit_counts_json(const OrbitCounts& c) {
  return json{{"orbits", to_decimal(c.orbits)},
              {"colourings", to_decimal(c.colourings)},
              {"weight_sum", to_decimal(c.weight_sum)},
              {"visited", to_decimal(c.visited)}};
}

OrbitCounts orbit_counts_from(const json& j) {
  auto count = [&](const char* key) { return parse_count(j[key].get<std::string>()); };
  return {count("orbits"), count("colourings"), count("weight_sum"), count("visited")};
}

}  // namespace

json visit_every_canonical_form(const drop::Game& game, const json& closed, ClaimsRecord& record,
                                const std::string& section, const ClaimsSettings& o) {
  const drop::Variant& v = game.variant();
  const int last = closed["last_drop_ply"].get<int>();
  const bool full = closed["board_full"].get<bool>();
  const auto group = drop::square_permutations(game.geometry());
  const auto weights =
      full ? drop::full_board_capture_weights(game.geometry(), drop::Color(last % 2))
           : PointWeights{};
  OrbitCounts total;
  std::size_t first_pair = 0, first_item = 0;
  double earlier_seconds = 0;
  if (const json* partial = record.partial(section, json::object());
      partial && partial->contains("next_pair")) {
    total = orbit_counts_from((*partial)["counts"]);
    first_pair = (*partial)["next_pair"];
    first_item = (*partial)["next_item"];
    earlier_seconds = (*partial)["earlier_seconds"];
  }
  const auto start = std::chrono::steady_clock::now();
  const auto dropped = drop::dropped_after(v, last);
  for (std::size_t i = first_pair; i < dropped.size(); ++i, first_item = 0) {
    const auto m = drop::colour_multiplicities(v, dropped[i]);
    const std::size_t items = canonical_work_items(group, m);
    Progress progress("canonical forms at ply " + std::to_string(last) + " (hands " +
                          std::to_string(i + 1) + "/" + std::to_string(dropped.size()) + ")",
                      items, "forms", !o.quiet);
    progress.advance(first_item);
    constexpr std::size_t kRounds = 20;
    const std::size_t round = std::max<std::size_t>(1, (items + kRounds - 1) / kRounds);
    for (std::size_t item = first_item; item < items || item == 0; item += round) {
      CanonicalEnumerationOptions options;
      options.visit_every_form = true;
      options.threads = o.threads;
      options.progress = &progress;
      options.first_item = item;
      options.item_count = round;
      total += enumerate_canonical_colourings(group, m, weights, options);
      const bool pair_done = item + round >= items;
      json partial{
          {"params", json::object()},
          {"complete", false},
          {"counts", orbit_counts_json(total)},
          {"next_pair", pair_done ? i + 1 : i},
          {"next_item", pair_done ? 0 : item + round},
          {"earlier_seconds",
           earlier_seconds +
               std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count()}};
      record.store(section, partial);
      if (pair_done) break;
    }
  }
  json j;
  j["ply"] = last;
  j["visited"] = to_decimal(total.visited);
  j["up_to_symmetry"] = to_decimal(total.orbits);
  j["positions"] = to_decimal(total.colourings);
  j["earlier_seconds"] = earlier_seconds;
  bool match = total.orbits == count_at(closed["up_to_symmetry"], last) &&
               total.colourings == count_at(closed["positions"], last);
  if (full) {
    j["full_board_captures_sum"] = to_decimal(total.weight_sum);
    match &= to_decimal(total.weight_sum) == closed["full_board_captures_sum"].get<std::string>();
  }
  j["match"] = match;
  return j;
}

}  // namespace solver::claims
