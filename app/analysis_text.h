// The analysis object (tablebase/analysis_json.h) as text, in one wording for every game: the
// position's value, then each move's a line, best first ("K@a1  win in 11 plies"; a draw and an
// unknown value have no distance).
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace app {

// "win in 11 plies", "draw", "unknown": the value and distance of an object with "value" and,
// when the tables keep distances, "dte".
std::string value_text(const nlohmann::ordered_json& v);

// The position's line ("FEN: value", followed by `note` when given) and each move's line.
void print_analysis_text(const nlohmann::ordered_json& j, const std::string& note = "");

}  // namespace app
