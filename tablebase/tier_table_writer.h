// Writing a solved tier's table files (tier_files.h): its .value file alone (value-only tables),
// or its .dte and .value files, from the tier's array in memory; then its checkpoint is dropped,
// since the files now say the tier is finished. In a team member 0 writes, gathering the other
// members' entries batch by batch (tier_team_gather.h).
#pragma once

#include <algorithm>
#include <filesystem>
#include <string>

#include "solver/progress.h"
#include "tablebase/tier_files.h"
#include "tablebase/tier_residency.h"
#include "tablebase/tier_solve_options.h"
#include "tablebase/tier_space.h"
#include "tablebase/tier_team_gather.h"
#include "tablebase/tier_team_seat.h"

namespace tablebase {

template <TierSpace S>
void write_solved_tier(const S& space, const TierSolveOptions& options, TierResidency<S>& tiers,
                       TierTeamSeat& seat, int t, solver::Progress& progress) {
  const std::string& name = space.tier_name(t);
  // The .dte records' width comes from the largest DTE, which in a team no member sees alone
  // (alone, write_tier_files counts it).
  int max_dte = 0;
  if (!seat.alone() && !options.value_only) {
    const auto bytes = tiers.bytes(t);
    int own = 0;
    for (const IndexRange& r : seat.owned())
      own = std::max<int>(own, *std::max_element(bytes.begin() + r.begin, bytes.begin() + r.end));
    max_dte = seat.largest(own);
  }
  // Minutes on the largest tiers (zstd 19), with done/total already at the tier's end.
  progress.set_stage(name + " writing its table files");
  write_gathered(tiers, seat, t, [&](const BeforeBatch& before_batch) {
    if (options.value_only) {
      write_value_file(options.dir, space.variant_name(), name, tiers.array(t), space.tier_size(t),
                       options.zstd_level, before_batch);
    } else {
      const StreamedWrite streamed{before_batch, max_dte};
      write_tier_files(options.dir, space.variant_name(), name, tiers.bytes(t), options.zstd_level,
                       seat.alone() ? nullptr : &streamed);
    }
  });
  if (seat.writes()) std::filesystem::remove(partial_path(options.dir, name));
}

}  // namespace tablebase
