#include "rules/drop/claims/run.h"

#include <stdexcept>
#include <thread>

#include "rules/drop/claims/complete_games.h"
#include "rules/drop/claims/drop_phase.h"
#include "rules/drop/claims/limits.h"
#include "rules/drop/claims/machine.h"
#include "rules/drop/claims/play_counts.h"
#include "rules/drop/claims/random_play.h"
#include "rules/drop/claims/report.h"
#include "rules/drop/claims/verdicts.h"
#include "rules/drop/claims/visit_all.h"
#include "rules/drop/variant.h"

namespace solver::claims {

namespace {

std::string command_line(const ClaimsSettings& o, const std::string& variant) {
  std::string c = "drop16 claims";
  if (!drop::is_drop16_name(variant)) c += " --variant " + variant;
  c += " --threads " + std::to_string(o.threads) + " --memory " + std::to_string(o.memory_mb) +
       " --samples " + std::to_string(o.samples) + " --seed " + std::to_string(o.seed) + " --out " +
       o.out;
  if (o.visit_all) c += " --visit-all";
  return c;
}

std::string file_base(const std::string& variant) {
  if (drop::is_drop16_name(variant)) return "claims";
  std::string base = "claims-" + variant;
  for (char& ch : base)
    if (ch == ':' || ch == '/') ch = '-';
  return base;
}
}  // namespace

ClaimsRun run_claims(const drop::Game& game, const ClaimsSettings& o) {
  const std::string variant = game.variant().name();
  const std::string base = file_base(variant);
  const std::filesystem::path out(o.out);
  std::filesystem::create_directories(out);
  // Each section's parameters: a finished section is reused only when they are the same.
  const json memory{{"memory_mb", o.memory_mb}};
  const json memory_and_solver{{"memory_mb", o.memory_mb}, {"perfect_play", true}};
  const json probe_params{{"samples", o.samples}, {"seed", o.seed}};
  const json params{{"drop_phase", json::object()},
                    {"drop_phase_bfs", memory},
                    {"drop_phase_perft", memory},
                    {"perft", memory},
                    {"random_play", probe_params},
                    {"capture_bfs", memory},
                    {"complete_games", memory_and_solver},
                    {"small_variants",
                     json{{"seed", o.seed}, {"memory_mb", o.memory_mb}, {"perfect_play", true}}}};
  ClaimsRecord record(out / (base + ".json"), variant, o.fresh, params);
  record.data()["command"] = command_line(o, variant);

  json closed;
  try {
    closed = run_section(record, o, "drop_phase", params["drop_phase"],
                         [&] { return drop_phase(game, o); });
  } catch (const CountOverflow&) {
    // Every other section builds on these counts.
    throw std::runtime_error("claims: the drops-only counts of " + variant +
                             " exceed 2^128, beyond the exact counters; nothing can be reported");
  }
  run_section(record, o, "drop_phase_bfs", params["drop_phase_bfs"],
              [&] { return drop_phase_breadth_first(game, closed, o); });
  run_section(record, o, "drop_phase_perft", params["drop_phase_perft"],
              [&] { return drop_phase_perft(game, closed, o); });
  const int last = closed["last_drop_ply"];
  // One visit-all section per thread count, so that runs with different --threads show scaling.
  bool visited_before = false;
  for (const auto& [name, section] : record.data()["sections"].items())
    visited_before |= name.rfind("visit_all", 0) == 0 && section.value("complete", false);
  const bool few_forms = to_double(count_at(closed["up_to_symmetry"], last)) <= kVisitAllAutoLimit;
  if (o.visit_all || (few_forms && !visited_before)) {
    const std::string section = "visit_all_" + std::to_string(o.threads) + "_threads";
    run_section(record, o, section, json::object(),
                [&] { return visit_every_canonical_form(game, closed, record, section, o); });
  }
  const json perft =
      run_section(record, o, "perft", params["perft"], [&] { return exact_perft(game, o); });
  const json probes = run_section(record, o, "random_play", params["random_play"],
                                  [&] { return random_play(game, record, probe_params, o); });
  run_section(record, o, "capture_bfs", params["capture_bfs"],
              [&] { return capture_breadth_first(game, perft, probes, o); });
  const json games = run_section(record, o, "complete_games", params["complete_games"],
                                 [&] { return complete_games(game, closed, o); });
  run_section(record, o, "small_variants", params["small_variants"],
              [&] { return small_variants(o); });

  json& data = record.data();
  data["machine"] = machine_line();
  data["verdicts"] = verdicts(game, closed, perft, games, probes);
  record.save();
  write_report(out, base, data);
  return {data, out / (base + ".md")};
}

}  // namespace solver::claims
