// The claims analysis's work limits and the designer's thresholds: the sections (run.h)
// stop where these say, and the report (report.h) quotes them.
#pragma once

#include <cstdint>

namespace solver::claims {

// Work limits that keep each section to minutes on a 2-core machine: a search that would exceed
// them is not started, and the report says how far it went (`drop16 distinct` and `drop16 perft`
// go deeper by hand). A breadth-first search stops before a ply whose predicted children exceed
// its budget: the drops-only one only cross-checks closed counts, the all-play one is a figure.
inline constexpr double kDropsOnlyChildBudget = 6e7;
inline constexpr double kAllPlayChildBudget = 4e8;
// Exact perft deepens while the next depth is predicted to take less than this.
inline constexpr double kPerftStepSeconds = 60;
inline constexpr double kVisitAllAutoLimit = 2e8;  // canonical forms visited without --visit-all
inline constexpr std::uint64_t kProbeRound = 1 << 20;  // probes between checkpoints
inline constexpr std::uint64_t kSmallVariantProbes = 200'000;
inline constexpr int kCompleteGamesSeconds = 600;  // exact path counting gives up after this long
inline constexpr int kSmallVariantSeconds = 120;

// The designer's thresholds.
inline constexpr double kClaimedPlacements = 3e11;
inline constexpr double kClaimedPaths = 1e18;

}  // namespace solver::claims
