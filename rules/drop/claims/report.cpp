#include "rules/drop/claims/report.h"

#include <algorithm>
#include <map>
#include <sstream>
#include <utility>
#include <vector>

#include "rules/drop/claims/limits.h"
#include "rules/drop/claims/text.h"
#include "rules/drop/claims/verdicts.h"
#include "rules/drop/variant.h"
#include "solver/claims_chart.h"

namespace solver::claims {

namespace {

std::vector<std::pair<double, double>> count_series(const json& counts) {
  std::vector<std::pair<double, double>> points;
  for (std::size_t k = 0; k < counts.size(); ++k) {
    const double y = counts[k].is_string() ? to_double(parse_count(counts[k].get<std::string>()))
                                           : counts[k].get<double>();
    points.emplace_back(double(k), y);
  }
  return points;
}

std::string cost_line(const json& section) {
  if (!section.contains("seconds")) return "not run";
  const double seconds = section["seconds"].get<double>() + section.value("earlier_seconds", 0.0);
  return fixed(seconds, 1) + " s, peak " + fixed(section["peak_memory_mb"].get<double>(), 0) +
         " MB, " + std::to_string(section["threads"].get<int>()) + " threads";
}

std::string cell(const json& array, std::size_t i) {
  if (!array.is_array() || i >= array.size()) return "";
  return array[i].is_string() ? with_commas(array[i].get<std::string>())
                              : with_commas(std::to_string(array[i].get<std::uint64_t>()));
}

// A chart of the variant's `what`, its axes so labelled.
Chart chart_of(const std::string& variant, const std::string& what, const std::string& x_label,
               const std::string& y_label) {
  Chart chart;
  chart.title = variant + ": " + what;
  chart.x_label = x_label;
  chart.y_label = y_label;
  return chart;
}

}  // namespace

std::string positions_chart(const json& sections, const std::string& variant) {
  Chart chart =
      chart_of(variant, "positions and move sequences per ply", "ply", "count (log scale)");
  chart.log_y = true;
  const json& closed = sections["drop_phase"];
  chart.series.push_back({"drops only: positions", count_series(closed["positions"]), false});
  chart.series.push_back(
      {"drops only: up to symmetry", count_series(closed["up_to_symmetry"]), false});
  chart.series.push_back({"drops only: move sequences", count_series(closed["sequences"]), false});
  const json& bfs = sections["capture_bfs"];
  if (bfs.contains("positions")) {
    chart.series.push_back({"all play: positions", count_series(bfs["positions"]), false});
    chart.series.push_back(
        {"all play: up to symmetry", count_series(bfs["up_to_symmetry"]), false});
  }
  chart.series.push_back(
      {"all play: perft (exact)", count_series(sections["perft"]["nodes"]), false});
  chart.series.push_back({"all play: perft (Knuth estimate)",
                          count_series(sections["random_play"]["perft_estimate"]), true});
  return render_svg(chart);
}

std::string lengths_chart(const json& probes, const std::string& variant) {
  Chart chart = chart_of(variant, "game lengths", "plies", "share");
  chart.bars = true;
  ChartSeries random{"uniformly random play (share of games)", {}, false};
  const auto& counts = probes["random_games_by_length"];
  const double n = probes["probes"].get<double>();
  for (std::size_t l = 0; l < counts.size(); ++l)
    random.points.emplace_back(double(l), counts[l].get<double>() / n);
  ChartSeries all{"all complete games (share, Knuth estimate)", {}, false};
  const auto& weights = probes["complete_games_by_length_estimate"];
  const double total = probes["complete_games"]["mean"].get<double>();
  for (std::size_t l = 0; l < weights.size(); ++l)
    all.points.emplace_back(double(l), total > 0 ? weights[l].get<double>() / total : 0);
  chart.series = {random, all};
  return render_svg(chart);
}

std::string report(const json& record, const std::string& base) {
  const json& sec = record["sections"];
  const json& closed = sec["drop_phase"];
  const json& probes = sec["random_play"];
  const std::string variant = record["variant"];
  const int last = closed["last_drop_ply"];
  std::ostringstream md;
  md << "# " << (drop::is_drop16_name(variant) ? "Drop 16" : variant)
     << ": the designer's claims, checked exactly\n\n"
     << "Regenerate with `" << record["command"].get<std::string>() << "` (sections already in `"
     << base << ".json` with the same parameters are reused; "
     << "add `--fresh` to recount everything). Measured on " << record["machine"].get<std::string>()
     << ". The machine is shared with other work, so times are wall-clock under load (each "
     << "section lists the load average it ran under in the JSON record); counts do not depend "
     << "on it. Counts that exceed 2^64 are exact 128-bit integers.\n\n";

  md << "## Verdicts\n\n| claim (the designer's text, translated) | verdict | figure "
        "|\n|---|---|---|\n";
  for (const auto& v : record["verdicts"])
    md << "| " << v["claim"].get<std::string>() << " | **" << v["verdict"].get<std::string>()
       << "** | " << v["figure"].get<std::string>() << " |\n";

  md << "\n## 1. Positions after the drops-only opening (ply " << last << ")\n\n";
  md << "After " << last << " plies in which both sides only drop, White has dropped "
     << (last + 1) / 2 << " pieces and Black " << last / 2
     << (closed["board_full"].get<bool>() ? "; the board is full" : "")
     << ". Such a position is a colouring of the squares by the dropped pieces. **Every one is "
        "reachable**: each side drops its pieces onto its own squares in any order, and a drop is "
        "legal whenever the mover has a piece in hand and an empty square exists (capturing is "
        "never "
        "compulsory), so no position on the way is terminal.\n\n"
     << "| count | value | how |\n|---|---|---|\n"
     << "| positions | " << cell(closed["positions"], last)
     << " | sum over what each side dropped of the multinomial (squares)! / (copies of each piece)!"
     << (drop::is_drop16_name(variant) ? " = 16!/(2!^6)" : "")
     << "; canonical forms weighted by orbit size give "
     << cell(closed["positions_by_canonical_forms"], last) << " |\n"
     << "| up to the board's symmetries | " << cell(closed["up_to_symmetry"], last)
     << " | enumeration of canonical forms; Burnside's lemma gives "
     << cell(closed["up_to_symmetry_burnside"], last) << " |\n"
     << "| drop sequences per position | " << cell(closed["sequences_per_position"], last) << " | "
     << (last + 1) / 2 << "! × " << last / 2 << "!: each side's order of its own squares |\n";
  md << "\nBurnside's lemma: the orbits are the mean over the symmetries of the colourings each "
        "one fixes, and a symmetry fixes a colouring only if each of its cycles of squares is one "
        "colour. The terms at ply "
     << last << ": ";
  for (std::size_t g = 0; g < closed["burnside_fixed_at_last_ply"].size(); ++g)
    md << (g ? "; " : "") << closed["symmetry_names"][g].get<std::string>() << " "
       << cell(closed["burnside_fixed_at_last_ply"], g);
  md << ".";
  if (drop::is_drop16_name(variant))
    md << " The turns and the mirrors through edges move every square, so a piece that is alone "
          "of its kind (Q, K, q, k) cannot keep its place: they fix nothing. A diagonal mirror "
          "fixes the 4 squares of its diagonal, which must then hold the 4 single pieces (4! "
          "ways), and pairs the other 12 squares, each pair holding one of the 6 pairs (6! ways): "
          "17,280. So (326,918,592,000 + 2 × 17,280) / 8 = 40,864,828,320.";
  md << "\n\n";
  md << "The canonical forms are each orbit's least member, built square by square; a prefix is "
        "dropped as soon as a symmetry maps it lower, and once every symmetry maps it higher its "
        "completions are counted at once by a multinomial. Ply "
     << last << " took " << fixed(closed["last_ply_seconds"].get<double>(), 2) << " s with "
     << sec["drop_phase"]["threads"].get<int>() << " threads (all plies " << cost_line(closed)
     << ").";
  std::map<int, json> visits;  // finished visit-all sections by threads
  for (const auto& [name, visit] : sec.items())
    if (name.rfind("visit_all", 0) == 0 && visit.value("complete", false))
      visits[visit["threads"].get<int>()] = visit;
  if (!visits.empty()) {
    const json& any = visits.begin()->second;
    md << " As a literal check, every canonical form at ply " << last << " ("
       << with_commas(any["visited"].get<std::string>()) << ") was also visited one by one: "
       << (any["match"].get<bool>() ? "the counts agree" : "**the counts disagree**")
       << " with every figure above. Time:";
    for (const auto& [threads, visit] : visits)
      md << " " << fixed(visit["seconds"].get<double>() + visit.value("earlier_seconds", 0.0), 1)
         << " s with " << threads << (threads == 1 ? " thread" : " threads") << " (load average "
         << fixed(visit["load_average"].get<double>(), 1) << "),";
    md << " peak memory " << fixed(any["peak_memory_mb"].get<double>(), 0) << " MB.";
    if (visits.size() > 1) {
      const auto& [few, slow] = *visits.begin();
      const auto& [many, fast] = *visits.rbegin();
      md << " From " << few << " to " << many << " threads the visit runs "
         << fixed(slow["seconds"].get<double>() / fast["seconds"].get<double>(), 2)
         << " times as fast: its work items are independent prefixes of the search, so it "
            "scales with the cores that other work on the machine leaves free.";
    }
  }
  md << "\n\n";

  md << "## 2. Distinct positions per ply\n\n![positions per ply](" << base
     << "-positions.svg)\n\nDrops only: closed counts (sums of multinomials over what each side "
        "dropped), up to symmetry by canonical forms (equal to Burnside at every ply: "
     << (closed["checks_pass"].get<bool>() ? "yes" : "**no**")
     << "), and a breadth-first search over real positions of the engine restricted to drops, as "
        "deep as a budget of "
     << sci(kDropsOnlyChildBudget) << " generated children at the last ply allows (agrees: "
     << (sec["drop_phase_bfs"].value("match", false) ? "yes" : "**no**")
     << "). All play (captures allowed): breadth-first search with exact keys "
        "(`solver::count_distinct_positions`), deepened while the next ply's predicted children "
        "stay under "
     << sci(kAllPlayChildBudget)
     << " and its sets fit --memory; the positions after ply k are disjoint from those after "
        "any other ply, since the material fixes the ply.\n\n"
     << "| ply | drops only | up to symmetry | BFS | BFS up to sym. | all play | all play up to "
        "sym. |\n"
     << "|---|---|---|---|---|---|---|\n";
  const int rows =
      std::max<int>(last + 1, int(sec["capture_bfs"].value("positions", json::array()).size()));
  for (int k = 0; k < rows; ++k)
    md << "| " << k << " | " << cell(closed["positions"], k) << " | "
       << cell(closed["up_to_symmetry"], k) << " | " << cell(sec["drop_phase_bfs"]["positions"], k)
       << " | " << cell(sec["drop_phase_bfs"]["up_to_symmetry"], k) << " | "
       << cell(sec["capture_bfs"]["positions"], k) << " | "
       << cell(sec["capture_bfs"]["up_to_symmetry"], k) << " |\n";
  md << "\nCosts: closed counts and canonical forms " << cost_line(closed) << "; drops-only BFS "
     << cost_line(sec["drop_phase_bfs"]) << "; all-play BFS " << cost_line(sec["capture_bfs"])
     << ".\n\n";

  md << "## 3. Move sequences and perft\n\nDrops-only sequences in closed form: "
        "(squares)!/(squares - k)! "
        "ways to fill squares in order, times each side's orders of piece types (words drawn from "
        "its "
        "hand); checked against (positions) × (sequences per position) at every ply and against "
        "perft of the engine restricted to drops (hashed, exact). perft counts every sequence of "
        "exactly k plies, so perft(k) ≥ the drops-only sequences.\n\n"
     << "| ply | drops-only sequences | by enumeration | perft (exact) | perft (Knuth estimate ± "
        "s.e.) |\n"
     << "|---|---|---|---|---|\n";
  const json& estimates = probes["perft_estimate"];
  for (int k = 0; k <= std::max<int>(last, int(estimates.size()) - 1); ++k) {
    md << "| " << k << " | " << cell(closed["sequences"], k) << " | "
       << cell(sec["drop_phase_perft"]["sequences"], k) << " | " << cell(sec["perft"]["nodes"], k)
       << " | ";
    if (k < int(estimates.size()))
      md << sci(estimates[k].get<double>()) << " ± "
         << sci(probes["perft_standard_error"][k].get<double>());
    md << " |\n";
  }
  md << "\nperft(" << last << ") ≥ " << cell(closed["sequences"], last) << " (drops only, exact)";
  if (closed.contains("next_ply_sequences"))
    md << "; perft(" << last + 1 << ") ≥ "
       << with_commas(closed["next_ply_sequences"].get<std::string>())
       << ": on a full board every slider, leaper and king captures the nearest square in each of "
          "its "
          "directions, so a board's capture count is a sum over its squares; summed over all "
       << cell(closed["positions"], last) << " boards it is "
       << with_commas(closed["full_board_captures_sum"].get<std::string>())
       << " (from the canonical forms with weights), times the drop sequences per position";
  md << ". Exact perft: " << cost_line(sec["perft"])
     << ", deepened while the next depth was predicted to take under "
     << fixed(kPerftStepSeconds, 0)
     << " s. The estimates come from the random games of section 5.\n\n";

  md << "## 4. Complete games\n\nA complete game is a move sequence from the start to a terminal "
        "position. ";
  const json& games = sec["complete_games"];
  if (games.contains("games"))
    md << "**Exact: " << with_commas(games["games"].get<std::string>())
       << "** complete games, from "
       << with_commas(std::to_string(games["positions"].get<std::uint64_t>()))
       << " canonical positions (path counting memoized on canonical keys; " << cost_line(games)
       << "); the shortest game has " << games["shortest"] << " plies, the longest "
       << games["longest"] << ".\n\n";
  else
    md << "Exact path counting: not computed: " << games["skipped"].get<std::string>() << ".\n\n";
  const auto [bound, basis] = paths_lower_bound(closed, sec["perft"]);
  const json& knuth = probes["complete_games"];
  md << "- **Exact lower bound: " << with_commas(to_decimal(bound)) << "** ("
     << sci(to_double(bound)) << "), the number of " << basis
     << ": each such sequence extends to at least one complete game, and "
        "different sequences to different games.\n"
     << "- **Knuth's estimate: " << sci(knuth["mean"].get<double>(), 4)
     << "** complete games, 95% interval [" << sci(knuth["low"].get<double>(), 4) << ", "
     << sci(knuth["high"].get<double>(), 4) << "] (mean ± 1.96 standard errors, from the sample "
     << "variance of " << with_commas(std::to_string(probes["probes"].get<std::uint64_t>()))
     << " random descents, seed " << probes["seed"]
     << "). Each descent plays uniformly random moves to the end; the product of the numbers of "
        "moves it met is an unbiased estimate. The distribution is heavy-tailed: the largest "
        "single product is "
     << sci(probes["largest_probe_weight"].get<double>()) << ", "
     << percent(probes["largest_probe_share"].get<double>())
     << " of the sum, and the interval only reflects the tail the sample has seen: rare "
        "descents with far larger products may exist.\n\n";
  md << "The estimator against exact counts on small variants (" << kSmallVariantProbes
     << " descents each, seed " << probes["seed"] << "; " << cost_line(sec["small_variants"])
     << "):\n\n"
     << "| variant | complete games (exact) | shortest–longest | Knuth's estimate | 95% interval "
        "|\n|---|---|---|---|---|\n";
  for (const auto& row : sec["small_variants"]["variants"]) {
    md << "| " << row["variant"].get<std::string>() << " | ";
    if (row["games"].is_null())
      md << row["why_not"].get<std::string>() << " | | ";
    else
      md << with_commas(row["games"].get<std::string>()) << " | " << row["shortest"] << "–"
         << row["longest"] << " | ";
    md << sci(row["knuth"]["mean"].get<double>()) << " | ["
       << sci(row["knuth"]["low"].get<double>()) << ", " << sci(row["knuth"]["high"].get<double>())
       << "] |\n";
  }

  md << "\n## 5. Game lengths\n\n![game lengths](" << base << "-lengths.svg)\n\n"
     << with_commas(std::to_string(probes["probes"].get<std::uint64_t>()))
     << " games of uniformly random play (each move chosen "
        "uniformly among the legal ones; seed "
     << probes["seed"] << "; " << cost_line(probes) << "): mean "
     << fixed(probes["random_game_mean_length"].get<double>(), 2) << " plies, shortest "
     << probes["random_game_shortest"] << ", longest " << probes["random_game_longest"]
     << ". The second series weighs each length by Knuth's estimate of the number of complete "
        "games "
        "of that length.\n\n| plies | random games | share | share of all "
        "complete games (estimate) |\n|---|---|---|---|\n";
  const auto& by_length = probes["random_games_by_length"];
  const double n = probes["probes"].get<double>();
  for (std::size_t l = 0; l < by_length.size(); ++l) {
    if (!by_length[l].get<std::uint64_t>()) continue;
    md << "| " << l << " | " << with_commas(std::to_string(by_length[l].get<std::uint64_t>()))
       << " | " << percent(by_length[l].get<double>() / n) << " | "
       << percent(probes["complete_games_by_length_estimate"][l].get<double>() /
                  knuth["mean"].get<double>())
       << " |\n";
  }
  md << "\n### Under perfect play\n\nWith the winner hurrying and the loser delaying (the "
        "distance to end of RULES.md), a game from the start has a single length: the start's "
        "DTE, from the forward solver (`solver/forward_solver.h`, memoized negamax with exact "
        "DTE). It is computed where exact path counting showed the positions fit.\n\n"
     << "| variant | first player | length under perfect play | uniformly random play, mean |\n"
        "|---|---|---|---|\n";
  auto perfect_row = [&](const std::string& name, const json& perfect, const std::string& mean) {
    md << "| " << name << " | ";
    if (perfect.contains("length"))
      md << perfect["first_player"].get<std::string>() << " | " << perfect["length"] << " plies";
    else
      md << "not computed | " << perfect.value("why_not", std::string("—"));
    md << " | " << mean << " |\n";
  };
  bool listed = false;
  for (const auto& row : sec["small_variants"]["variants"]) {
    listed |= row["variant"] == variant;
    if (row.contains("perfect_play"))
      perfect_row(row["variant"], row["perfect_play"],
                  fixed(row["random_mean_length"].get<double>(), 2) + " plies");
  }
  const std::string random_mean =
      fixed(probes["random_game_mean_length"].get<double>(), 2) + " plies";
  if (!listed)  // the report's own variant, unless the table above has it
    perfect_row(variant,
                games.contains("perfect_play")
                    ? games["perfect_play"]
                    : json{{"why_not",
                            "too big for exact search here; proving the value of the start is "
                            "the proof search's job (issue 5)"}},
                random_mean);
  md << "\n## Cost of each section\n\nWall-clock seconds, the section's own peak resident "
        "memory, and the load average of the shared machine when it finished.\n\n| section | "
        "seconds | peak memory | threads | load | command |\n|---|---|---|---|---|---|\n";
  for (const auto& [name, section] : sec.items()) {
    if (!section.value("complete", false)) {
      md << "| " << name << " | interrupted, resumes on the next run | | | | |\n";
      continue;
    }
    md << "| " << name << " | "
       << fixed(section["seconds"].get<double>() + section.value("earlier_seconds", 0.0), 1)
       << " | " << fixed(section["peak_memory_mb"].get<double>(), 0) << " MB | "
       << section["threads"] << " | " << fixed(section["load_average"].get<double>(), 1) << " | `"
       << section.value("command", std::string()) << "` |\n";
  }
  md << "\n## Not claimed here\n\n"
     << "- Figures that were not measured are not written down: deeper all-play position counts "
        "(`drop16 distinct`) and deeper perft (`drop16 perft`) are left to those commands.\n"
     << "- The designer's comparisons with chess, Hex and Dots and Boxes, and with the grains of "
        "sand "
        "on Earth's beaches, are not counts of this game and are not judged.\n";
  return md.str();
}

void write_report(const std::filesystem::path& out, const std::string& base, const json& record) {
  const std::string variant = record["variant"];
  write_atomically(out / (base + ".md"), report(record, base));
  write_atomically(out / (base + "-positions.svg"), positions_chart(record["sections"], variant));
  write_atomically(out / (base + "-lengths.svg"),
                   lengths_chart(record["sections"]["random_play"], variant));
}

}  // namespace solver::claims
