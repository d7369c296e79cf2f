#include "app/tier_digests.h"

#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <vector>

#include "app/command.h"
#include "solver/progress.h"
#include "tablebase/value_digest.h"

namespace app {

namespace {

std::string hex64(std::uint64_t x) {
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(x));
  return text;
}

// The digests of an earlier `verify --digest --json`, by tier, checked to be that.
std::map<std::string, std::string> read_digests(const std::string& file,
                                                const std::string& variant) {
  std::ifstream in(file);
  if (!in) throw UsageError("--against " + file + ": cannot be read");
  const auto j = nlohmann::json::parse(in, nullptr, false);
  if (j.is_discarded() || !j.is_object() || !j.contains("digests") || !j["digests"].is_object() ||
      !j.contains("variant") || !j["variant"].is_string())
    throw UsageError("--against " + file + ": not the JSON of verify --digest --json");
  if (j["variant"] != variant)
    throw UsageError("--against " + file + " holds digests of variant " +
                     j["variant"].get<std::string>() + ", not " + variant);
  std::map<std::string, std::string> digests;
  for (const auto& [tier, digest] : j["digests"].items()) {
    if (!digest.is_string()) throw UsageError("--against " + file + ": tier " + tier + "'s digest");
    digests[tier] = digest;
  }
  return digests;
}

}  // namespace

void report_tier_digests(const TierDigestSource& source, const std::string& tables,
                         const std::string& against, bool json, bool quiet) {
  const auto start = std::chrono::steady_clock::now();
  const auto expected = against.empty() ? std::map<std::string, std::string>{}
                                        : read_digests(against, source.variant);
  nlohmann::ordered_json digests = nlohmann::ordered_json::object();
  std::vector<std::string> differ, unmatched;
  std::uint64_t chained = 0, entries = 0;
  solver::Progress progress("digest", std::uint64_t(source.tier_count), "entries", !quiet);
  for (int t = 0; t < source.tier_count; ++t) {
    progress.advance();
    const std::optional<std::uint64_t> value = source.digest(t);
    if (!value) continue;
    const std::string tier = source.tier_name(t);
    chained = tablebase::chain_digest(chained, *value);
    const std::string digest = hex64(*value);
    digests[tier] = digest;
    entries += source.tier_size(t);
    progress.add_to_rate(source.tier_size(t));
    if (expected.empty()) continue;
    const auto e = expected.find(tier);
    if (e == expected.end())
      unmatched.push_back(tier);
    else if (e->second != digest)
      differ.push_back(tier);
  }
  if (digests.empty()) throw UsageError("--tables " + tables + " holds no finished tier");
  nlohmann::ordered_json j;
  j["variant"] = source.variant;
  j["tables"] = tables;
  j["method"] = "digest";
  j["tiers_checked"] = digests.size();
  j["tiers"] = source.tier_count;
  j["entries"] = entries;
  // Of the whole set only: a partial set's chain is not a later full one's.
  if (int(digests.size()) == source.tier_count) j["tables_digest"] = hex64(chained);
  j["digests"] = digests;
  if (!against.empty()) {
    j["against"] = against;
    j["differ"] = differ;
    j["not_in_against"] = unmatched;
  }
  j["seconds"] = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (json) {
    std::cout << j.dump() << std::endl;
  } else {
    for (const auto& [tier, digest] : digests.items())
      std::cout << tier << ' ' << digest.get<std::string>() << '\n';
    std::cout << digests.size() << " of " << source.tier_count << " tiers";
    if (j.contains("tables_digest")) std::cout << ", tables digest " << hex64(chained);
    if (!against.empty())
      std::cout << "; against " << against << ": " << differ.size() << " differ, "
                << unmatched.size() << " not in it";
    std::cout << std::endl;
  }
  if (!differ.empty())
    throw std::runtime_error(std::to_string(differ.size()) + " tiers' value digests differ from " +
                             against + "'s, the first " + differ.front());
}

}  // namespace app
