// verify --digest for tier tables of any format: each finished tier's digest
// (tablebase/value_digest.h: the values alone, whatever the compression, thread count or machine),
// the digest of the whole set when every tier is finished, and with --against the tiers whose
// digest differs from an earlier run's, so that two solves (two machines, MPI against one
// process, two builds) are compared tier by tier without their files.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

namespace app {

// What the report reads of a set of tables.
struct TierDigestSource {
  std::string variant;
  int tier_count = 0;
  std::function<std::string(int tier)> tier_name;
  std::function<std::uint64_t(int tier)> tier_size;
  // The tier's digest, nullopt for a tier the tables do not hold finished.
  std::function<std::optional<std::uint64_t>(int tier)> digest;
};

// Prints the digests (one JSON object with `json`, else a line a tier), with progress on stderr
// unless `quiet`. Throws UsageError for tables with no finished tier or an `against` file that is
// not the JSON of a digest run of the same variant, std::runtime_error (exit status 1) when a
// tier's digest differs from it.
void report_tier_digests(const TierDigestSource& source, const std::string& tables,
                         const std::string& against, bool json, bool quiet);

}  // namespace app
