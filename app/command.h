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

// Subcommands; each adds itself to the app and sets its callback.
void register_perft(CLI::App& app);
void register_distinct(CLI::App& app);
void register_moves(CLI::App& app);
void register_show(CLI::App& app);
void register_solve(CLI::App& app);
void register_query(CLI::App& app);
void register_verify(CLI::App& app);
void register_prove(CLI::App& app);
void register_check_proof(CLI::App& app);
void register_claims(CLI::App& app);
void register_serve(CLI::App& app);
void register_bearoff(CLI::App& app);
void register_endgame(CLI::App& app);
void register_cluster_plan(CLI::App& app);
void register_nardy_match(CLI::App& app);
void register_games(CLI::App& app);

// CMD --variant V --help: CMD's help for that game alone (its options that apply), or that the
// game does not support CMD; false when no subcommand was given a --variant (the usual help).
// Throws ParseError for a variant no game claims.
bool print_game_help(const CLI::App& app);

}  // namespace app
