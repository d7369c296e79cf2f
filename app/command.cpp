#include "app/command.h"

#include <algorithm>
#include <charconv>
#include <iostream>
#include <utility>
#include <vector>

#include "app/games.h"
#include "app/resources.h"

namespace app {

namespace {

// The options some games lack, with what they need (only_for).
std::vector<std::pair<const CLI::Option*, OptionNeed>>& gated_options() {
  static std::vector<std::pair<const CLI::Option*, OptionNeed>> options;
  return options;
}

std::string games_meeting(const OptionNeed& need) {
  std::string out;
  for (const registry::GameInfo& g : registry::kGames)
    if (need.met_by(g)) out += (out.empty() ? "" : ", ") + std::string(g.id);
  return out;
}

// Filled by add_game_command before main, read after: no lock.
std::vector<GameCommand>& registered_game_commands() {
  static std::vector<GameCommand> commands;
  return commands;
}

// The subcommand CLI11 parsed, if any.
const CLI::App* parsed_subcommand(const CLI::App& app) {
  const auto subs = app.get_subcommands();
  return subs.empty() ? nullptr : subs.front();
}

}  // namespace

void add_position_options(CLI::App& cmd, PositionOptions& o, bool with_fen) {
  cmd.add_option("--variant", o.variant,
                 "the game and its variant: " + registry::accepted_variants() +
                     " (drop16 games lists them)")
      ->capture_default_str();
  if (with_fen) cmd.add_option("--fen", o.fen, "position (default: the variant's start)");
  cmd.add_flag("--json", o.json, "print one JSON object on stdout");
  cmd.add_flag("--quiet", o.quiet, "no progress on stderr");
}

CLI::Option* only_for(CLI::Option* option, OptionNeed need) {
  gated_options().emplace_back(option, std::move(need));
  return option;
}

void check_options(const CLI::App& cmd, const registry::GameInfo& game) {
  const auto mine = cmd.get_options();
  for (const auto& [option, need] : gated_options())
    if (std::find(mine.begin(), mine.end(), option) != mine.end() && option->count() > 0 &&
        !need.met_by(game))
      throw UsageError(option->get_name() + ": for games with " + need.what + "; " +
                       std::string(game.title) + " (--variant " + std::string(game.id) +
                       ") has none (games with " + need.what + ": " + games_meeting(need) + ")");
}

void hide_options(CLI::App& cmd, const registry::GameInfo& game) {
  const auto mine = cmd.get_options();
  for (const auto& [option, need] : gated_options())
    if (std::find(mine.begin(), mine.end(), option) != mine.end() && !need.met_by(game))
      const_cast<CLI::Option*>(option)->group("");  // an empty group is left out of the help
}

bool add_game_command(const GameCommand& command) {
  registered_game_commands().push_back(command);
  return true;
}

std::vector<GameCommand> game_commands() {
  std::vector<GameCommand> out = registered_game_commands();
  const auto order = [](const GameCommand& c) {
    const auto at = std::find_if(registry::kGames.begin(), registry::kGames.end(),
                                 [&](const registry::GameInfo& g) { return g.id == c.game->id; });
    return std::pair(at - registry::kGames.begin(), c.name);
  };
  std::sort(out.begin(), out.end(),
            [&](const GameCommand& a, const GameCommand& b) { return order(a) < order(b); });
  return out;
}

std::vector<std::string_view> command_names_of(const registry::GameInfo& game) {
  std::vector<std::string_view> names;
  for (const registry::Command c : registry::kCommands)
    if (game.commands.has(c)) names.push_back(registry::command_name(c));
  for (const GameCommand& c : game_commands())
    if (c.game->id == game.id) names.push_back(c.name);
  return names;
}

std::string commands_of(const registry::GameInfo& game) {
  return registry::joined_with_and(command_names_of(game));
}

namespace {

// "CMD serves SERVING; TITLE (OPTION VARIANT) has ...": both refusals' sentence.
std::string refusal_text(std::string_view command, const std::string& serving,
                         const registry::GameInfo& game, std::string_view variant,
                         std::string_view option) {
  return std::string(command) + " serves " + serving + "; " + std::string(game.title) + " (" +
         std::string(option) + " " + std::string(variant) + ") has " + commands_of(game);
}

}  // namespace

std::string refusal(registry::Command c, const registry::GameInfo& game, std::string_view variant,
                    std::string_view option) {
  return refusal_text(registry::command_name(c), registry::games_serving(c), game, variant, option);
}

std::string refusal(std::string_view command, const registry::GameInfo& owner,
                    const registry::GameInfo& game, std::string_view variant) {
  return refusal_text(command, std::string(owner.title) + " only", game, variant, "--variant");
}

void refuse_command(registry::Command c, const registry::GameInfo& game, std::string_view variant) {
  throw UsageError(app::refusal(c, game, variant));
}

bool print_game_help(const CLI::App& app) {
  const CLI::App* sub = parsed_subcommand(app);
  if (!sub) return false;
  const CLI::Option* variant = sub->get_option_no_throw("--variant");
  if (!variant || variant->count() == 0) return false;
  const std::string name = variant->as<std::string>();
  const registry::GameInfo& game = registry::info_of(name);
  for (const registry::Command c : registry::kCommands)
    if (registry::command_name(c) == sub->get_name() && !game.commands.has(c)) {
      std::cout << app::refusal(c, game, name) << std::endl;
      return true;
    }
  for (const GameCommand& c : game_commands())
    if (c.name == sub->get_name() && c.game->id != game.id) {
      std::cout << app::refusal(c.name, *c.game, game, name) << std::endl;
      return true;
    }
  CLI::App& help = const_cast<CLI::App&>(*sub);
  hide_options(help, game);
  std::cout << help.help(app.get_name()) << "(the options that apply to " << game.title
            << ", --variant " << game.id << "; " << game.about << ")" << std::endl;
  return true;
}

CLI::Validator unsigned_64() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        std::uint64_t value = 0;
        const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
        if (text.empty() || text[0] < '0' || text[0] > '9' || end != text.data() + text.size())
          return "'" + text + "' is not a whole number 0 or more";
        if (error == std::errc::result_out_of_range)
          return "'" + text + "' is more than 2^64 - 1 (18446744073709551615)";
        return {};
      },
      "UINT64");
}

void add_threads_option(CLI::App& cmd, int& threads) {
  threads = default_threads();
  cmd.add_option("--threads", threads, "worker threads (default: all cores)")
      ->check(CLI::Range(1, 1024))
      ->capture_default_str();
}

void add_memory_option(CLI::App& cmd, double& gb) {
  gb = double(physical_memory_mb()) * 0.75 / 1024.0;
  cmd.add_option("--memory", gb, "memory cap in GB (default: 75% of this machine)")
      ->check(CLI::Range(0.001, 1e6))
      ->capture_default_str();
}

std::uint64_t gigabytes_to_bytes(double gb) {
  return std::uint64_t(gb * double(1ull << 30));
}

void print_json(const nlohmann::json& j) {
  std::cout << j.dump() << std::endl;
}

void print_report(const nlohmann::ordered_json& j, bool json) {
  if (json) {
    std::cout << j.dump() << std::endl;
    return;
  }
  const auto text = [](const nlohmann::ordered_json& v) {
    return v.is_string() ? v.get<std::string>() : v.dump();
  };
  for (const auto& [name, value] : j.items()) {
    const bool listed = value.is_array() && !value.empty() && value.front().is_object();
    if (!listed) {
      std::cout << name << ": " << text(value) << "\n";
      continue;
    }
    std::cout << name << ":\n";
    for (const auto& element : value) {
      std::string line;
      for (const auto& [key, field] : element.items())
        line += (line.empty() ? "" : ", ") + key + " " + text(field);
      std::cout << "  " << line << "\n";
    }
  }
  std::cout << std::flush;
}

}  // namespace app
