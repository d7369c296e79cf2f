// Section 5 of the claims (run.h): uniformly random games (Knuth's probes,
// solver/claims_random_probes.h), played in rounds whose totals go to the record so that an
// interrupted run resumes; and what they say: Knuth's estimates of perft and of the complete games,
// and the length distribution of random games.
#pragma once

#include "rules/drop/claims/record.h"
#include "rules/drop/claims/settings.h"
#include "rules/drop/game.h"
#include "solver/claims_random_probes.h"

namespace solver::claims {

json estimate_json(const Estimate& e);

// What the probes say: Knuth's estimates and the length distribution of random games.
json summarize_probes(const ProbeTotals& t);
// o.samples random games with seed o.seed, as section random_play of `record` (whose
// parameters are `params`), resumed from its partial totals.
json random_play(const drop::Game& game, ClaimsRecord& record, const json& params,
                 const ClaimsSettings& o);

}  // namespace solver::claims
