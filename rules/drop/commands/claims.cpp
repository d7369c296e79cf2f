// drop16 claims: the designer's published claims about Drop 16 (seeds/drop16.ru.txt) checked
// exactly, for Drop 16 or any variant (rules/drop/claims/run.h), with a markdown report, SVG plots
// and a JSON record in --out that doubles as the checkpoint. This file parses the options, calls
// the run and prints its verdicts.
#include <iostream>
#include <memory>

#include "app/command.h"
#include "app/games.h"
#include "app/resources.h"
#include "rules/drop/claims/run.h"
#include "rules/drop/game.h"

namespace drop {

namespace {

struct ClaimsOptions {
  app::PositionOptions position;
  solver::claims::ClaimsSettings settings;
};

void run_claims(const CLI::App& cmd, ClaimsOptions o) {
  const auto s = app::own_setup<Entry>(cmd, o.position);
  o.settings.quiet = o.position.quiet;
  solver::claims::ClaimsRun run;
  try {
    run = solver::claims::run_claims(*s.game, o.settings);
  } catch (const solver::claims::ClaimsRecordRefused& e) {
    throw app::UsageError(e.what());
  }
  if (o.position.json) {
    std::cout << run.record.dump() << std::endl;
    return;
  }
  for (const auto& v : run.record["verdicts"])
    std::cout << v["verdict"].get<std::string>() << ": " << v["claim"].get<std::string>() << " -- "
              << v["figure"].get<std::string>() << "\n";
  std::cout << "report: " << run.report.string() << std::endl;
}

void add_claims(CLI::App& app) {
  auto o = std::make_shared<ClaimsOptions>();
  solver::claims::ClaimsSettings& s = o->settings;
  CLI::App* cmd = app.add_subcommand(
      "claims",
      "check the designer's claims (placements, paths of play, game length) exactly and "
      "write a report with plots");
  app::add_position_options(*cmd, o->position, /*with_fen=*/false);
  app::add_threads_option(*cmd, s.threads);
  s.memory_mb = solver::physical_memory_mb() / 4;
  cmd->add_option("--memory", s.memory_mb,
                  "memory cap in MB for the searches (default: a quarter of this machine)")
      ->check(CLI::Range(std::uint64_t{16}, std::uint64_t{1} << 30))
      ->capture_default_str();
  cmd->add_option("--samples", s.samples, "random games (Knuth probes) to play")
      ->check(CLI::Range(std::uint64_t{1}, std::uint64_t{1} << 40))
      ->capture_default_str();
  cmd->add_option("--seed", s.seed, "seed of the random games")
      ->check(app::unsigned_64())
      ->capture_default_str();
  cmd->add_option("--out", s.out, "directory for the report, plots and JSON record")
      ->capture_default_str();
  cmd->add_flag("--visit-all", s.visit_all,
                "also visit every canonical form of the last drops-only ply one by one (minutes on "
                "Drop 16; automatic when there are at most 2e8)");
  cmd->add_flag("--fresh", s.fresh, "ignore finished sections in the JSON record and recount");
  cmd->callback([cmd, o] { run_claims(*cmd, *o); });
}

[[maybe_unused]] const bool kClaimsAdded =
    app::add_game_command({&Entry::info, "claims", add_claims});

}  // namespace

}  // namespace drop
