// The claims record: one JSON object per variant (CLAIMS.json in the --out directory), written
// atomically after every finished section, which doubles as the checkpoint. A re-run with the same
// variant reuses every finished section whose parameters are unchanged, so an interrupted run
// resumes and the report (report.h) can be regenerated without recounting; a section that
// runs in rounds keeps its partial counts in it too (complete=false).
#pragma once

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "rules/drop/claims/machine.h"
#include "rules/drop/claims/settings.h"
#include "solver/exact_count.h"

namespace solver::claims {

using json = nlohmann::ordered_json;

// The --out directory holds a report this run would replace; the message says how to go on.
class ClaimsRecordRefused : public std::runtime_error {
 public:
  explicit ClaimsRecordRefused(const std::string& what) : std::runtime_error(what) {}
};

// Writes `text` to a temporary name beside `path` and renames it there, so that a reader never
// sees half a file.
void write_atomically(const std::filesystem::path& path, const std::string& text);

class ClaimsRecord {
 public:
  // Bumped whenever a section's fields change, so that records written by older versions of
  // this command are recounted rather than misread.
  static constexpr int kFormat = 1;

  // Loads the record at `path` unless `fresh`. A record this run cannot reuse as it is (another
  // variant or format, unreadable, or a finished section counted with other parameters than
  // `planned` gives it) is a published result that the run would replace: refused
  // (ClaimsRecordRefused), and the message says how to go on. So is a report beside no record.
  ClaimsRecord(std::filesystem::path path, const std::string& variant, bool fresh,
               const json& planned);

  // The section finished with these parameters, if the record holds it.
  const json* finished(const std::string& section, const json& params) const;
  // A section in progress (complete=false) that can be resumed with these parameters.
  const json* partial(const std::string& section, const json& params) const;
  // Puts a section (finished or partial) in the record and saves it.
  void store(const std::string& section, const json& value);
  json& data() { return data_; }
  void save() const;

 private:
  const json* find(const std::string& section) const;
  [[noreturn]] void refuse(const std::string& why) const;

  std::filesystem::path path_;
  json data_;
};

// Runs one section unless the record holds it finished with the same parameters; times it and
// notes its peak memory, threads, time and load beside what compute() returns.
template <typename Compute>
json run_section(ClaimsRecord& record, const ClaimsSettings& o, const std::string& name,
                 const json& params, Compute compute) {
  if (const json* done = record.finished(name, params)) {
    if (!o.quiet) std::fprintf(stderr, "claims: %s: reusing the finished section\n", name.c_str());
    return *done;
  }
  if (!o.quiet) std::fprintf(stderr, "claims: %s ...\n", name.c_str());
  reset_peak_memory();
  const auto start = std::chrono::steady_clock::now();
  json result = compute();
  json section;
  section["params"] = params;
  section["complete"] = true;
  section["seconds"] =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  section["peak_memory_mb"] = section_peak_memory_mb();
  section["threads"] = o.threads;
  section["measured"] = utc_now();
  section["load_average"] = load_average();
  section["command"] = record.data()["command"];
  section.update(result);
  record.store(name, section);
  return section;
}

// What a section that counts with the 128-bit exact keys records on a variant whose positions do
// not fit them.
inline json without_exact_keys() {
  return json{{"skipped", "positions of this variant do not fit the 128-bit exact keys"}};
}

// Exact counts in the record: decimal strings (they exceed 2^64).
json count_strings(const std::vector<Count>& counts);
Count count_at(const json& array, std::size_t i);

}  // namespace solver::claims
