// The claims report: markdown and two SVG plots (solver/claims_chart.h), drawn from the record
// alone (record.h), so that it can be regenerated without recounting.
#pragma once

#include <filesystem>
#include <string>

#include "rules/drop/claims/record.h"

namespace solver::claims {

// The markdown report of a finished record; its plots are BASE-positions.svg and
// BASE-lengths.svg.
std::string report(const json& record, const std::string& base);
std::string positions_chart(const json& sections, const std::string& variant);
std::string lengths_chart(const json& probes, const std::string& variant);
// Writes BASE.md and the two plots into `out`, each atomically.
void write_report(const std::filesystem::path& out, const std::string& base, const json& record);

}  // namespace solver::claims
