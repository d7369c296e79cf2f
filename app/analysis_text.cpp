#include "app/analysis_text.h"

#include <iostream>

namespace app {

std::string value_text(const nlohmann::ordered_json& v) {
  std::string text = v["value"].get<std::string>();
  if (v.contains("dte") && !v["dte"].is_null())
    text += " in " + v["dte"].dump() + (v["dte"] == 1 ? " ply" : " plies");
  return text;
}

void print_analysis_text(const nlohmann::ordered_json& j, const std::string& note) {
  std::cout << j["fen"].get<std::string>() << ": " << value_text(j) << note << "\n";
  for (const auto& m : j["moves"])
    std::cout << "  " << m["move"].get<std::string>() << "  " << value_text(m) << "\n";
  std::cout << std::flush;
}

}  // namespace app
