#include "rules/drop/claims/verdicts.h"

#include "rules/drop/claims/limits.h"
#include "rules/drop/claims/text.h"

namespace solver::claims {

std::pair<Count, std::string> paths_lower_bound(const json& closed, const json& perft) {
  const int last = closed["last_drop_ply"].get<int>();
  Count best = count_at(closed["sequences"], last);
  std::string basis = "drops-only sequences of " + std::to_string(last) + " plies";
  if (closed.contains("next_ply_sequences")) {
    const Count next = parse_count(closed["next_ply_sequences"].get<std::string>());
    if (next > best) {
      best = next;
      basis = std::to_string(last + 1) + "-ply sequences that drop " + std::to_string(last) +
              " times and then capture";
    }
  }
  const auto& nodes = perft["nodes"];
  for (std::size_t d = 0; d < nodes.size(); ++d)
    if (Count(nodes[d].get<std::uint64_t>()) > best) {
      best = nodes[d].get<std::uint64_t>();
      basis =
          "move sequences of " + std::to_string(d) + " plies (perft(" + std::to_string(d) + "))";
    }
  return {best, basis};
}

json verdicts(const drop::Game& game, const json& closed, const json& perft, const json& games,
              const json& probes) {
  const drop::Variant& v = game.variant();
  const int last = closed["last_drop_ply"].get<int>();
  const std::string placements = closed["positions"][last].get<std::string>();
  const std::string symmetric = closed["up_to_symmetry"][last].get<std::string>();
  json out = json::array();

  const bool many = to_double(parse_count(placements)) > kClaimedPlacements;
  const bool many_symmetric = to_double(parse_count(symmetric)) > kClaimedPlacements;
  out.push_back(
      {{"claim",
        "after the 16 opening plies, if nobody captures, there are more than three hundred "
        "billion different placements"},
       {"verdict", many ? "true" : "false"},
       {"figure", with_commas(placements) + " positions after " + std::to_string(last) +
                      " plies of drops only (exact); up to the board's symmetries " +
                      with_commas(symmetric) + ", " + (many_symmetric ? "also more" : "fewer") +
                      " than 3e11"}});

  const auto [bound, basis] = paths_lower_bound(closed, perft);
  const auto& knuth = probes["complete_games"];
  json paths{{"claim", "the number of different paths of play easily exceeds 10^18"}};
  if (games.contains("games")) {
    const Count exact = parse_count(games["games"].get<std::string>());
    paths["verdict"] = to_double(exact) > kClaimedPaths ? "true" : "false";
    paths["figure"] = with_commas(to_decimal(exact)) + " complete games (exact)";
  } else if (to_double(bound) > kClaimedPaths) {
    paths["verdict"] = "true";
    paths["figure"] = "at least " + with_commas(to_decimal(bound)) + " (" + sci(to_double(bound)) +
                      ") complete games, exact lower bound: " + basis + "; Knuth's estimate " +
                      sci(knuth["mean"].get<double>()) + " complete games";
  } else {
    paths["verdict"] = "unproven";
    paths["figure"] = "proven only >= " + with_commas(to_decimal(bound)) + " (" + basis +
                      "); Knuth's estimate " + sci(knuth["mean"].get<double>());
  }
  out.push_back(paths);

  const int pieces = v.hand_size(drop::kWhite) + v.hand_size(drop::kBlack);
  const int longest = pieces ? 2 * pieces - 1 : 0;
  out.push_back(
      {{"claim", "the rule that forbids passing cuts the tree off: games are short"},
       {"verdict", "true"},
       {"figure", "no game lasts more than " + std::to_string(longest) +
                      " plies (every move drops a piece or removes one, and a capture leaves at "
                      "least one piece); uniformly random games last " +
                      fixed(probes["random_game_mean_length"].get<double>(), 2) +
                      " plies on average (" +
                      std::to_string(probes["probes"].get<std::uint64_t>()) + " games)"}});
  out.push_back({{"claim", "a player can calculate the position three to five moves ahead"},
                 {"verdict", "unproven"},
                 {"figure",
                  "not a count of this game's tree: how far a player must see depends on "
                  "perfect play, whose game lengths are given for the small variants solved "
                  "here (section 5); the value of the start itself is the proof search's job "
                  "(issue 5)"}});
  return out;
}

}  // namespace solver::claims
