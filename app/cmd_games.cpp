// drop16 games: the games the command serves and what each supports, from the registry
// (rules/registry.h): names and variant syntax, value family, commands, solvers, table formats and
// views, and for each command the options that apply to the game (CMD --variant V --help).
#include <iostream>
#include <string>

#include "app/command.h"
#include "app/games.h"

namespace app {

namespace {

struct GamesOptions {
  std::optional<std::string> variant;
  bool json = false;
};

template <typename Enum, std::size_t N, typename Name>
nlohmann::ordered_json names_of(registry::EnumSet<Enum> set, const std::array<Enum, N>& all,
                                Name&& name) {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (const Enum v : all)
    if (set.has(v)) out.push_back(std::string(name(v)));
  return out;
}

nlohmann::ordered_json game_json(const registry::GameInfo& g) {
  nlohmann::ordered_json j;
  j["id"] = g.id;
  j["title"] = g.title;
  j["variants"] = g.variants;
  j["example"] = g.example;
  j["about"] = g.about;
  j["value_family"] = registry::family_name(g.family);
  j["dice"] = g.dice;
  j["commands"] = command_names_of(g);
  j["solvers"] = names_of(g.solvers, registry::kSolvers, registry::solver_name);
  j["tables"] = names_of(g.tables, registry::kTableFormats, registry::table_format_name);
  j["views"] = names_of(g.views, registry::kViews, registry::view_name);
  if (!g.whole_variants.empty()) j["whole_variants"] = g.whole_variants;
  return j;
}

std::string joined(const nlohmann::ordered_json& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : ", ") + n.get<std::string>();
  return out.empty() ? "none" : out;
}

void print_text(const nlohmann::ordered_json& g) {
  std::cout << g["id"].get<std::string>() << ": " << g["title"].get<std::string>() << ", "
            << g["about"].get<std::string>() << "\n  --variant " << g["variants"].get<std::string>()
            << " (e.g. " << g["example"].get<std::string>()
            << ")\n  values: " << g["value_family"].get<std::string>()
            << (g["dice"].get<bool>() ? ", with dice" : "")
            << "\n  commands: " << joined(g["commands"]) << "\n  solvers: " << joined(g["solvers"])
            << "; tables: " << joined(g["tables"]) << "; views: " << joined(g["views"]) << "\n";
}

void run_games(const GamesOptions& o) {
  nlohmann::ordered_json games = nlohmann::ordered_json::array();
  if (o.variant)
    games.push_back(game_json(registry::info_of(*o.variant)));
  else
    for (const registry::GameInfo& g : registry::kGames) games.push_back(game_json(g));
  if (o.json) {
    print_json({{"default_variant", registry::default_variant()}, {"games", games}});
    return;
  }
  for (const auto& g : games) print_text(g);
  std::cout << "drop16 CMD --variant V --help shows the options of CMD that apply to V's game."
            << std::endl;
}

}  // namespace

void register_games(CLI::App& app) {
  auto o = std::make_shared<GamesOptions>();
  CLI::App* cmd = app.add_subcommand(
      "games",
      "list the games, their variants and what each supports (commands, solvers, "
      "tables, views)");
  cmd->add_option("--variant", o->variant, "only the game this variant names");
  cmd->add_flag("--json", o->json, "print one JSON object on stdout");
  cmd->callback([o] { run_games(*o); });
}

}  // namespace app
