// The pieces every `drop16` subcommand shares: the variant and position options, JSON or text
// output, and the error convention (bad input: one line on stderr, exit 2; other failure: exit 1).
#pragma once

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "rules/registry.h"

namespace app {

// Thrown for input that is well-formed but unusable (a depth out of range, a table that does not
// fit the memory cap). Reported like a ParseError: one line, exit status 2.
class UsageError : public std::invalid_argument {
 public:
  explicit UsageError(const std::string& what) : std::invalid_argument(what) {}
};

// --variant, --fen, --json, --quiet: added to a subcommand by add_position_options.
struct PositionOptions {
  std::string variant = registry::default_variant();
  std::optional<std::string> fen = {};  // none: the variant's start position; "" is bad input
  bool json = false;
  bool quiet = false;
};
void add_position_options(CLI::App& cmd, PositionOptions& o, bool with_fen = true);

// What a game must have for an option to apply (--max-depth: a bounded search; --roll: dice):
// any of these solvers or table formats, or dice.
struct OptionNeed {
  registry::EnumSet<registry::Solver> solvers = {};
  registry::EnumSet<registry::TableFormat> tables = {};
  bool dice = false;
  std::string what;  // what the game lacks, for the message: "a bounded forward search"

  bool met_by(const registry::GameInfo& g) const {
    return g.solvers.intersects(solvers) || g.tables.intersects(tables) || (dice && g.dice);
  }
};
// Marks the option as applying only to the games that meet `need`: check_options refuses it for
// the others, and their help (CMD --variant V --help) leaves it out.
CLI::Option* only_for(CLI::Option* option, OptionNeed need);
// Throws UsageError for an option of cmd given on the command line that the game does not meet:
// "--max-depth: for games with a bounded forward search; Drop 16 (--variant drop16) has none
// (games with a bounded forward search: spock, rookrace)".
void check_options(const CLI::App& cmd, const registry::GameInfo& game);
// Hides from cmd's help the options the game does not meet.
void hide_options(CLI::App& cmd, const registry::GameInfo& game);

// A check for options read into 64-bit unsigned integers (seeds, counts): digits only, at most
// 2^64 - 1. CLI11 alone reads "-1" as 2^64 - 1 and saturates a number too large for the type.
CLI::Validator unsigned_64();

// --threads N (default: all cores), checked to be at least 1.
void add_threads_option(CLI::App& cmd, int& threads);
inline int default_threads() {
  return int(std::max(1u, std::thread::hardware_concurrency()));
}

// --memory GB (default: 75% of this machine), a cap for the commands that hold big tables.
void add_memory_option(CLI::App& cmd, double& gb);
std::uint64_t gigabytes_to_bytes(double gb);

void print_json(const nlohmann::json& j);
// A command's report: with `json` one JSON object on a line, else a "name: value" line a field,
// a list of objects an indented line an element ("rolls 1, count 11, probability 0.31").
void print_report(const nlohmann::ordered_json& j, bool json);

// The registry's subcommands (registry::Command) and games; each adds itself to the app and sets
// its callback.
void register_perft(CLI::App& app);
void register_distinct(CLI::App& app);
void register_moves(CLI::App& app);
void register_show(CLI::App& app);
void register_solve(CLI::App& app);
void register_query(CLI::App& app);
void register_verify(CLI::App& app);
void register_serve(CLI::App& app);
void register_games(CLI::App& app);

// A game's own subcommand (rules/<game>/commands/: Drop 16's prove, Royal Nardy's bearoff), which
// no other game has: its game, its name as typed, and what adds it to the app. Each registers
// itself from its own file (add_game_command), so neither main nor the registry names it, and a
// game's commands come and go with its folder.
struct GameCommand {
  const registry::GameInfo* game;
  std::string_view name;
  void (*add)(CLI::App& app);
};
// Registers a game's own command; called from the command's file at static initialization, its
// result kept in a namespace-scope constant (`[[maybe_unused]] const bool kProve =
// app::add_game_command({&Entry::info, "prove", add_prove});`), which the drop16 binary, into
// which those files are compiled, initializes before main.
bool add_game_command(const GameCommand& command);
// Every game's own commands, in the registry's order of games and by name inside a game.
std::vector<GameCommand> game_commands();

// The registry's commands the game has, in registry::kCommands order, then its own, by name.
std::vector<std::string_view> command_names_of(const registry::GameInfo& game);
// "perft, distinct, ..., serve and prove": command_names_of in a sentence.
std::string commands_of(const registry::GameInfo& game);
// Why a command refuses the game a variant names, and what would be accepted: "prove serves
// Drop 16 only; Spock (--variant spock) has perft, distinct, moves, show, solve, query, verify
// and serve". `option` is how the caller's users name a variant ("--variant", "variant").
std::string refusal(registry::Command c, const registry::GameInfo& game, std::string_view variant,
                    std::string_view option = "--variant");
// The same for a game's own command, which serves `owner` only.
std::string refusal(std::string_view command, const registry::GameInfo& owner,
                    const registry::GameInfo& game, std::string_view variant);

// CMD --variant V --help: CMD's help for that game alone (its options that apply), or that the
// game does not support CMD; false when no subcommand was given a --variant (the usual help).
// Throws ParseError for a variant no game claims.
bool print_game_help(const CLI::App& app);

}  // namespace app
