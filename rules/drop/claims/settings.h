// What a claims run is asked (drop16 claims' options): its threads and memory, the random games'
// number and seed, where the report goes, and whether to visit every canonical form.
#pragma once

#include <cstdint>
#include <string>

namespace solver::claims {

struct ClaimsSettings {
  int threads = 1;
  std::uint64_t memory_mb = 0;
  std::uint64_t samples = 2'000'000;
  std::uint64_t seed = 1;
  // Not results/: a run with other parameters must not land on the published report.
  std::string out = "claims-report";
  bool visit_all = false;
  bool fresh = false;
  bool quiet = false;  // no progress on stderr
};

}  // namespace solver::claims
