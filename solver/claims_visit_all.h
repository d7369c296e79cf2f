// Section 1's literal check (claims_run.h): every canonical form of the last drops-only ply
// visited one by one, in rounds of work items; after each round the partial counts go to the
// record, and an interrupted run resumes there.
#pragma once

#include <string>

#include "rules/drop/game.h"
#include "solver/claims_record.h"
#include "solver/claims_settings.h"

namespace solver::claims {

// The visit, as section `section` of `record`, against the closed counts.
json visit_every_canonical_form(const drop::Game& game, const json& closed, ClaimsRecord& record,
                                const std::string& section, const ClaimsSettings& o);

}  // namespace solver::claims
