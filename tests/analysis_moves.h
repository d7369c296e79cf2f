// The moves of an analysis object (tablebase/analysis_json.h), which come best first rather than
// in generation order: checked for that order here, written out plainly (not through the
// library's move_rank), and looked up by their text.
#pragma once

#include <catch2/catch.hpp>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>

namespace test_support {

// Less is better for the mover: wins by rising distance, then draws, unknown values, then losses
// by falling distance. A value without "dte" (value-only tables) ranks by its value alone.
inline std::pair<int, int> mover_rank(const nlohmann::json& m) {
  const std::string v = m.at("value").get<std::string>();
  const int d = m.contains("dte") && m["dte"].is_number() ? m["dte"].get<int>() : 0;
  if (v == "win") return {0, d};
  if (v == "draw") return {1, 0};
  if (v == "loss") return {3, -d};
  return {2, 0};
}

// The moves by text; CHECKs that each is no better than the one before it.
inline std::map<std::string, nlohmann::json> moves_by_name(const nlohmann::json& moves) {
  std::map<std::string, nlohmann::json> by_name;
  for (std::size_t i = 0; i < moves.size(); ++i) {
    if (i > 0) CHECK(mover_rank(moves[i - 1]) <= mover_rank(moves[i]));
    const auto [at, fresh] = by_name.emplace(moves[i].at("move").get<std::string>(), moves[i]);
    CHECK(fresh);
  }
  return by_name;
}

}  // namespace test_support
