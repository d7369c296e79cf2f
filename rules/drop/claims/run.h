// A claims run (drop16 claims): the designer's published claims about Drop 16 checked exactly,
// for Drop 16 or any variant. Every figure comes from enumeration or dynamic programming over the
// rules engine and is cross-checked against a closed formula where one exists. The sections run
// in order, each recorded as it finishes (record.h: a re-run reuses every finished section
// whose parameters are unchanged, so an interrupted run resumes); then the verdicts, and the
// report with its plots (report.h) in the --out directory.
#pragma once

#include <filesystem>
#include <string>

#include "rules/drop/claims/record.h"
#include "rules/drop/claims/settings.h"
#include "rules/drop/game.h"

namespace solver::claims {

struct ClaimsRun {
  json record;                   // sections, machine and verdicts
  std::filesystem::path report;  // the markdown report written
};

// Runs every section not already finished in o.out's record, and writes the record, the report
// and its plots there. Throws ClaimsRecordRefused before any counting when the directory holds a
// report this run would replace, and std::runtime_error when the drops-only counts exceed the
// exact counters.
ClaimsRun run_claims(const drop::Game& game, const ClaimsSettings& o);

}  // namespace solver::claims
