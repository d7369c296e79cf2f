// Section 1's literal check (run.h): every canonical form of the last drops-only ply
// visited one by one, in rounds of work items; after each round the partial counts go to the
// record, and an interrupted run resumes there.
#pragma once

#include <string>

#include "rules/drop/claims/record.h"
#include "rules/drop/claims/settings.h"
#include "rules/drop/game.h"

namespace solver::claims {

// The visit, as section `section` of `record`, against the closed counts.
json visit_every_canonical_form(const drop::Game& game, const json& closed, ClaimsRecord& record,
                                const std::string& section, const ClaimsSettings& o);

}  // namespace solver::claims
